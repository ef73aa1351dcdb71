"""aeon / tsml-eval results files to frameeval's long result table."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import polars as pl

from frameeval.io._files import expand, malformed

__all__ = ["read_tsml_results"]


def _first_line(func: str, path: Path, line: str) -> dict[str, Any]:
    """The fields of the first line: dataset, model, split, resample."""
    first = [f.strip() for f in line.split(",")]
    if len(first) < 4:
        raise malformed(
            func, path, 1, "line 1 must read 'dataset,estimator,split,resample,…'", repr(line)
        )
    resample = first[3]
    try:
        resample_id = None if resample in ("None", "") else int(resample)
    except ValueError:
        raise malformed(
            func, path, 1, "the resample (4th field) must be an integer or None", repr(resample)
        ) from None
    return {"dataset": first[0], "model": first[1], "split": first[2], "resample": resample_id}


def _probabilities(func: str, path: Path, number: int, text: str, fields: list[str]) -> list[str]:
    """The probabilities of a case line (after its empty third field; none without one)."""
    if len(fields) <= 2:
        return []
    if fields[2] != "":
        raise malformed(
            func,
            path,
            number,
            "the probabilities follow the predicted value after an empty field "
            "('actual,predicted,,p1,p2,…')",
            repr(text),
        )
    probs = fields[3:]
    end = probs.index("") if "" in probs else len(probs)  # a further ",," note
    return probs[:end]


def _read_file(func: str, path: Path) -> tuple[dict[str, Any], list[list[str]], int]:
    """The first line's fields, the case rows (actual, predicted, probabilities…) and the
    number of probability columns."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) < 3:
        raise malformed(
            func,
            path,
            len(lines) + 1 if lines else 1,
            "a results file starts with three header lines (dataset and estimator; parameters; "
            "summary)",
            f"{len(lines)} lines",
        )
    header = _first_line(func, path, lines[0])
    rows: list[list[str]] = []
    width = None
    for index in range(3, len(lines)):  # loop-ok: parsing a file
        text = lines[index].strip()
        if not text:
            continue
        number = index + 1
        fields = [f.strip() for f in text.split(",")]
        if len(fields) < 2:
            raise malformed(
                func,
                path,
                number,
                "a case line must read 'actual,predicted[,,probabilities…]'",
                repr(text),
            )
        probs = _probabilities(func, path, number, text, fields)
        if width is None:
            width = len(probs)
        elif len(probs) != width:
            raise malformed(
                func,
                path,
                number,
                f"every case line must have the same number of probabilities ({width})",
                f"{len(probs)} in {text!r}",
            )
        for p in probs:  # loop-ok: the values of one line
            try:
                float(p)
            except ValueError:
                raise malformed(
                    func, path, number, "a probability must be a number", repr(p)
                ) from None
        rows.append([fields[0], fields[1], *probs])
    return header, rows, width or 0


def _typed(values: pl.Series) -> pl.Series:
    """Labels as Int64 when all are integers, Float64 when all are numbers, else String;
    ``?`` (a missing label) is null."""
    values = pl.Series(
        values.name, [None if v == "?" else v for v in values.to_list()], dtype=pl.String
    )
    as_float = values.cast(pl.Float64, strict=False)
    if as_float.null_count() == values.null_count():
        integral = as_float.drop_nulls()
        if (integral == integral.round(0)).all() and not values.str.contains(r"[.eE]").any():
            return as_float.cast(pl.Int64)
        return as_float
    return values


def read_tsml_results(path_or_glob: str | os.PathLike[str]) -> pl.DataFrame:
    """Read aeon / tsml-eval results files (one per estimator, data set, split and resample)
    into one long result table.

    tsml-eval's ``write_results_to_tsml_format`` (used by aeon's and tsml-eval's experiment
    runners) writes ``<estimator>/Predictions/<dataset>/testResample<k>.csv``:

    * line 1: ``dataset,estimator,SPLIT,resample,TIME_UNIT,comment``;
    * line 2: free text (the estimator's parameters);
    * line 3: the summary (accuracy, fit time, predict time, … for a classifier);
    * then one line per case: ``actual,predicted`` and, with probabilities,
      ``actual,predicted,,p_1,…,p_c`` (one per class, in the order of the sorted class
      labels); a missing actual value is ``?``.

    Parameters
    ----------
    path_or_glob
        A results file, a directory (every ``*.csv`` below it) or a glob
        (``"results/*/Predictions/*/testResample*.csv"``).

    Returns
    -------
    pl.DataFrame
        One row per case of every file, sorted by dataset, model, split, resample, instance:

        * ``dataset``, ``model`` (the estimator), ``split`` (``TRAIN`` / ``TEST`` / ``No
          split``) (String); ``resample`` (Int64, null for ``None``);
        * ``instance`` (Int64) — the case's position in its file (0, 1, …): the same case
          across estimators of one data set and resample;
        * ``truth``, ``pred`` — Int64 when every label is an integer, Float64 when every label
          is a number (regression), String otherwise;
        * ``probability_<j>`` (Float64, j = 0…c−1) — the probability of the j-th class (the
          sorted class labels), when the files have them;
        * ``score`` (Float64, two classes only) — ``probability_1``, the second class's.

    Notes
    -----
    Files with and without probabilities, or with different numbers of classes, may be read
    together (missing columns are null). Line 3 (the summary) is not parsed: frameeval
    computes the measures itself. A malformed line is a
    :class:`~frameeval.exceptions.FileFormatError` naming the file and line.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "testResample0.csv"
    >>> _ = path.write_text("Chinatown,ROCKET,TEST,0,MILLISECONDS,\\nNo Parameter Info\\n"
    ...                     "0.5,12,3,-1,-1\\n1,1,,0.2,0.8\\n2,1,,0.6,0.4\\n")
    >>> fe.io.read_tsml_results(path).select("instance", "truth", "pred", "score").rows()
    [(0, 1, 1, 0.8), (1, 2, 1, 0.4)]
    """
    func = "read_tsml_results"
    frames = []
    for path in expand(func, path_or_glob, "*.csv"):  # loop-ok: files
        header, rows, width = _read_file(func, path)
        columns: dict[str, Any] = {
            "dataset": [header["dataset"]] * len(rows),
            "model": [header["model"]] * len(rows),
            "split": [header["split"]] * len(rows),
            "resample": pl.Series([header["resample"]] * len(rows), dtype=pl.Int64),
            "instance": pl.Series(range(len(rows)), dtype=pl.Int64),
            "truth": pl.Series([r[0] for r in rows], dtype=pl.String),
            "pred": pl.Series([r[1] for r in rows], dtype=pl.String),
        }
        for j in range(width):  # loop-ok: the class columns
            columns[f"probability_{j}"] = pl.Series(
                [float(r[2 + j]) for r in rows], dtype=pl.Float64
            )
        frames.append(pl.DataFrame(columns))
    out = pl.concat(frames, how="diagonal")
    both = _typed(pl.concat([out["truth"], out["pred"]]).alias("label"))
    out = out.with_columns(
        both.head(out.height).alias("truth"), both.tail(out.height).alias("pred")
    )
    probabilities = [c for c in out.columns if c.startswith("probability_")]
    if len(probabilities) == 2:
        out = out.with_columns(pl.col("probability_1").alias("score"))
    return out.sort("dataset", "model", "split", "resample", "instance", nulls_last=True)
