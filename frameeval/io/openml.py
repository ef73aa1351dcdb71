"""OpenML run predictions (ARFF) to frameeval's long result table."""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path
from typing import Any

import polars as pl

from frameeval.exceptions import InvalidParameterError
from frameeval.io._files import malformed

__all__ = ["read_openml_predictions"]

_ATTRIBUTE = re.compile(
    r"""^@attribute\s+('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\S+)\s+(.+?)\s*$""", re.I
)
_INTEGER_COLUMNS = {"repeat": "repeat", "fold": "fold", "sample": "sample", "row_id": "instance"}


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].replace("\\'", "'").replace('\\"', '"')
    return text


def _header(func: str, path: Path, lines: list[str]) -> tuple[list[tuple[str, str]], int]:
    """The attributes (name, type) and the index of the first line after ``@data``."""
    attributes: list[tuple[str, str]] = []
    for index, raw in enumerate(lines):  # loop-ok: parsing the header
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        lower = line.lower()
        if lower.startswith("@relation"):
            continue
        if lower.startswith("@attribute"):
            match = _ATTRIBUTE.match(line)
            if match is None:
                raise malformed(
                    func, path, index + 1, "an @attribute line needs a name and a type", repr(line)
                )
            attributes.append((_unquote(match.group(1)), match.group(2).strip()))
            continue
        if lower.startswith("@data"):
            return attributes, index + 1
        raise malformed(
            func,
            path,
            index + 1,
            "the header must hold @relation, @attribute and @data lines",
            repr(line),
        )
    raise malformed(func, path, None, "the file must have an @data section", "none")


def _classes(kind: str) -> list[str] | None:
    """The declared values of a nominal attribute ``{a, b, c}`` (None for other types)."""
    if not kind.startswith("{"):
        return None
    inner = kind.strip()[1:-1]
    return [_unquote(v) for v in next(csv.reader([inner], quotechar="'", skipinitialspace=True))]


def _columns(
    func: str, file: Path, lines: list[str], start: int, attributes: list[tuple[str, str]]
) -> dict[str, pl.Series]:
    """The data lines from ``start`` on, one Series per attribute (Float64 for the numeric
    ones, String otherwise; ``?`` is null)."""
    names = [n for n, _ in attributes]
    numeric = [t.lower() in ("numeric", "real", "integer") for _, t in attributes]
    values: list[list[Any]] = [[] for _ in attributes]
    width = len(attributes)
    for index in range(start, len(lines)):  # loop-ok: parsing the data lines
        text = lines[index].strip()
        if not text or text.startswith("%"):
            continue
        number = index + 1
        if text.startswith("{"):
            raise malformed(
                func, file, number, "rows must be dense (comma-separated values)", repr(text)
            )
        fields = next(csv.reader([text], quotechar="'", skipinitialspace=True))
        if len(fields) != width:
            raise malformed(
                func,
                file,
                number,
                f"a row must have {width} values (one per @attribute)",
                f"{len(fields)} in {text!r}",
            )
        for j, field in enumerate(fields):  # loop-ok: the values of one line
            field = _unquote(field)
            if field == "?":
                values[j].append(None)
            elif numeric[j]:
                try:
                    values[j].append(float(field))
                except ValueError:
                    raise malformed(
                        func, file, number, f"attribute {names[j]!r} is NUMERIC", repr(field)
                    ) from None
            else:
                values[j].append(field)
    return {
        name: pl.Series(name, column, dtype=pl.Float64 if numeric[j] else pl.String)
        for j, (name, column) in enumerate(zip(names, values, strict=True))
    }


def read_openml_predictions(path: str | os.PathLike[str], *, pos_label: Any = None) -> pl.DataFrame:
    """Read an OpenML run's predictions file (ARFF) into frameeval's long result table.

    An OpenML run uploads ``predictions.arff``: one row per (repeat, fold[, sample], test
    instance) with the attributes ``repeat``, ``fold``, optionally ``sample`` (learning
    curves), ``row_id`` (the instance's row in the data set), ``confidence.<class>`` (one per
    class), ``prediction`` and ``correct`` (the true class); a regression run has
    ``prediction`` and ``truth``.

    Parameters
    ----------
    path
        The ``predictions.arff`` file (as downloaded from the run's ``predictions_url``).
    pos_label
        Binary tasks: the positive class whose confidence becomes ``score``; default the last
        class declared for ``correct`` (scikit-learn's ``classes_[1]``, as OpenML writes
        them sorted).

    Returns
    -------
    pl.DataFrame
        One row per prediction, sorted by repeat, fold, (sample,) instance:

        * ``repeat``, ``fold`` (and ``sample``) (Int64); ``instance`` (Int64) — ``row_id``;
        * ``truth``, ``pred`` — classes as String (the declared values), regression values
          as Float64;
        * ``confidence_<class>`` (Float64) — one column per class, the confidence the model
          gave it (wide: ``confidence.<class>`` with the dot written ``_``);
        * ``score`` (Float64, binary tasks only) — the confidence of the positive class.

    Notes
    -----
    A missing value ``?`` is null. A line with a wrong number of values or a value that does
    not fit its attribute is a :class:`~frameeval.exceptions.FileFormatError` naming the file
    and line; sparse ARFF rows (``{…}``) are not part of the predictions format and are
    refused the same way.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "predictions.arff"
    >>> _ = path.write_text('''@RELATION openml_task_31_predictions
    ... @ATTRIBUTE repeat NUMERIC
    ... @ATTRIBUTE fold NUMERIC
    ... @ATTRIBUTE row_id NUMERIC
    ... @ATTRIBUTE confidence.bad NUMERIC
    ... @ATTRIBUTE confidence.good NUMERIC
    ... @ATTRIBUTE prediction {bad,good}
    ... @ATTRIBUTE correct {bad,good}
    ... @DATA
    ... 0,0,7,0.2,0.8,'good','good'
    ... 0,0,3,0.9,0.1,'bad','good'
    ... ''')
    >>> fe.io.read_openml_predictions(path).select("instance", "truth", "pred", "score").rows()
    [(3, 'good', 'bad', 0.1), (7, 'good', 'good', 0.8)]
    """
    func = "read_openml_predictions"
    if not isinstance(path, str | os.PathLike):
        raise InvalidParameterError(
            f"{func}(): path must be a file path, got {type(path).__name__}."
        )
    file = Path(path)
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise InvalidParameterError(
            f"{func}(): path must be a readable file, got {str(file)!r} ({err})."
        ) from None
    attributes, start = _header(func, file, lines)
    names = [n for n, _ in attributes]
    truth_name = "correct" if "correct" in names else "truth" if "truth" in names else None
    for needed in ("repeat", "fold", "row_id", "prediction", truth_name or "correct"):  # loop-ok
        if needed not in names:
            raise malformed(
                func,
                file,
                None,
                "the predictions file must declare the attributes repeat, fold, "
                "row_id, prediction and correct (or truth)",
                f"attributes {names}",
            )
    raw = _columns(func, file, lines, start, attributes)
    out: dict[str, pl.Series] = {}
    for name, target in _INTEGER_COLUMNS.items():  # loop-ok: four columns
        if name in raw:
            out[target] = raw[name].cast(pl.Int64)
    assert truth_name is not None
    out["truth"] = raw[truth_name]
    out["pred"] = raw["prediction"]
    confidences = [n for n in names if n.startswith("confidence.")]
    for name in confidences:  # loop-ok: the class columns
        out["confidence_" + name.removeprefix("confidence.").replace(".", "_")] = raw[name]
    declared = _classes(dict(attributes)[truth_name])
    if declared is not None and len(declared) == 2 and confidences:
        positive = declared[-1] if pos_label is None else str(pos_label)
        if positive not in declared:
            raise InvalidParameterError(
                f"{func}(): pos_label must be one of the classes {declared}, got {pos_label!r}."
            )
        column = f"confidence.{positive}"
        if column not in raw:
            raise malformed(
                func,
                file,
                None,
                f"a binary task needs the attribute {column!r}",
                f"attributes {names}",
            )
        out["score"] = raw[column]
    frame = pl.DataFrame(out)
    keys = [c for c in ("repeat", "fold", "sample", "instance") if c in frame.columns]
    return frame.sort(keys)
