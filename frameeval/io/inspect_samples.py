"""inspect_ai's sample table (``inspect_ai.analysis.samples_df``, saved to CSV or Parquet) to
frameeval's per-item long table."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

from frameeval.exceptions import InvalidParameterError
from frameeval.io._files import malformed

__all__ = ["read_inspect_samples"]

#: inspect_ai's ``value_to_float``: the letter grades and yes/no answers of its scorers
GRADES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0, "yes": 1.0, "no": 0.0, "true": 1.0, "false": 0.0}
FIXED = ["benchmark", "model", "item", "sample", "target"]


def _read(func: str, path: Path) -> pl.DataFrame:
    suffix = path.suffix.lower()
    try:
        if suffix in (".parquet", ".pq"):
            return pl.read_parquet(path)
        if suffix == ".csv":
            return pl.read_csv(path, infer_schema_length=None)
    except (pl.exceptions.PolarsError, OSError) as err:
        raise malformed(
            func, path, None, f"the file must be a readable {suffix[1:]} table", str(err)
        ) from None
    raise InvalidParameterError(
        f"{func}(): path must end in .csv, .parquet or .pq (the formats pandas' to_csv / "
        f"to_parquet write samples_df to), got {str(path)!r}."
    )


def _score(func: str, path: Path, table: pl.DataFrame, column: str) -> pl.Series:
    """A score column as Float64: numbers as they are, booleans 0/1, inspect's grades
    (C / I / P / N, yes / no, true / false) and numeric text by ``value_to_float``'s rules."""
    values = table[column]
    if values.dtype.is_numeric():
        return values.cast(pl.Float64)
    if values.dtype == pl.Boolean:
        return values.cast(pl.Float64)
    text = values.cast(pl.String)
    graded = text.str.strip_chars().replace_strict(GRADES, default=None, return_dtype=pl.Float64)
    numeric = text.str.strip_chars().cast(pl.Float64, strict=False)
    out = graded.fill_null(numeric)
    bad = out.is_null() & text.is_not_null() & (text.str.strip_chars() != "")
    if bad.any():
        row = int(bad.arg_true()[0])
        line = row + 2 if path.suffix.lower() == ".csv" else None  # header is line 1
        where = "" if line is not None else f" (row {row})"
        raise malformed(
            func,
            path,
            line,
            f"column {column!r} must hold scores (numbers, C/I/P/N or yes/no){where}",
            repr(text[row]),
        )
    return out


def read_inspect_samples(
    path: str | os.PathLike[str], *, model: str | None = None, task: str | None = None
) -> pl.DataFrame:
    """Read an inspect_ai sample table, written to CSV or Parquet, into a per-item long table.

    ``inspect_ai.analysis.samples_df(logs)`` returns one row per sample and epoch with the
    columns ``sample_id``, ``eval_id``, ``id`` (the dataset's sample id), ``epoch``, ``input``,
    ``target``, ``metadata_*``, one ``score_<scorer>`` column per scorer, ``model_usage``,
    ``total_time``, ``working_time``, ``error``, ``limit``, ``retries``; with the eval columns
    (``samples_df(logs, columns=EvalInfo + EvalModel + SampleSummary)``) also ``task_name``
    and ``model``. Save it with ``df.to_csv(path)`` or ``df.to_parquet(path)``.

    Parameters
    ----------
    path
        A ``.csv`` or ``.parquet`` file.
    model, task
        The model and benchmark for every row when the table has no ``model`` / ``task_name``
        column (a given value overrides the column).

    Returns
    -------
    pl.DataFrame
        One row per sample and epoch, sorted by benchmark, model, item and sample:
        ``benchmark`` (String: ``task_name``, or ``task=``; null if neither), ``model``
        (String), ``item`` (String: inspect's ``id``), ``sample`` (Int64: the ``epoch``),
        ``target`` (String, when the table has it) and one Float64 column per scorer, named
        as the scorer (``score_match`` → ``match``). Scores are read with inspect's
        ``value_to_float`` rules: ``C`` = 1, ``I`` = 0, ``P`` = 0.5, ``N`` = 0, yes / true = 1,
        no / false = 0, numbers as numbers, an empty cell null.

    Notes
    -----
    A missing ``id`` / ``epoch`` / ``score_*`` column, or a score that is none of the above,
    is a :class:`~frameeval.exceptions.FileFormatError` naming the file (and for a CSV the
    line).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "samples.csv"
    >>> pl.DataFrame({"sample_id": ["s1", "s2"], "id": [1, 2], "epoch": [1, 1],
    ...               "score_match": ["C", "I"], "model": ["openai/gpt-4o"] * 2,
    ...               "task_name": ["gsm8k"] * 2}).write_csv(path)
    >>> fe.io.read_inspect_samples(path).rows()
    [('gsm8k', 'openai/gpt-4o', '1', 1, 1.0), ('gsm8k', 'openai/gpt-4o', '2', 1, 0.0)]
    """
    func = "read_inspect_samples"
    if not isinstance(path, str | os.PathLike):
        raise InvalidParameterError(
            f"{func}(): path must be a file path, got {type(path).__name__}."
        )
    file = Path(path)
    table = _read(func, file)
    line = 1 if file.suffix.lower() == ".csv" else None
    for column in ("id", "epoch"):  # loop-ok: two columns
        if column not in table.columns:
            raise malformed(
                func,
                file,
                line,
                f"the table must have inspect's {column!r} column",
                f"columns {table.columns}",
            )
    scores = [c for c in table.columns if c.startswith("score_")]
    if not scores:
        raise malformed(
            func,
            file,
            line,
            "the table must have at least one 'score_<scorer>' column",
            f"columns {table.columns}",
        )
    names = [c.removeprefix("score_") for c in scores]
    clash = sorted(set(names) & set(FIXED))
    if clash:
        raise malformed(
            func, file, line, f"a scorer must not be named like a column {FIXED}", str(clash)
        )

    def given(column: str, value: str | None) -> pl.Series:
        if value is not None or column not in table.columns:
            return pl.Series([value] * table.height, dtype=pl.String)
        return table[column].cast(pl.String)

    epoch = table["epoch"].cast(pl.Int64, strict=False)
    if epoch.null_count() > table["epoch"].null_count() or epoch.null_count() > 0:
        row = int(epoch.is_null().arg_true()[0])
        raise malformed(
            func,
            file,
            row + 2 if line else None,
            "column 'epoch' must hold integers",
            repr(table["epoch"][row]),
        )
    columns = {
        "benchmark": given("task_name", task),
        "model": given("model", model),
        "item": table["id"].cast(pl.String),
        "sample": epoch,
    }
    if "target" in table.columns:
        columns["target"] = table["target"].cast(pl.String)
    for column, name in zip(scores, names, strict=True):  # loop-ok: the scorer columns
        columns[name] = _score(func, file, table, column)
    return pl.DataFrame(columns).sort("benchmark", "model", "item", "sample", nulls_last=True)
