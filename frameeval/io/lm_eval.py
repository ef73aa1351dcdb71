"""lm-evaluation-harness ``--log_samples`` files to frameeval's per-item long table."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import polars as pl

from frameeval.io._files import expand, malformed

__all__ = ["read_lm_eval_samples"]

#: keys of a logged sample that are not metrics
BOOKKEEPING = frozenset(
    {
        "doc_id",
        "doc",
        "target",
        "arguments",
        "resps",
        "filtered_resps",
        "filter",
        "metrics",
        "doc_hash",
        "prompt_hash",
        "target_hash",
    }
)
#: samples_<task>_<timestamp>.jsonl, the harness's file name (timestamp like
#: 2024-05-13T13-34-45.567890)
_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<stamp>\d{4}-\d{2}-\d{2}T[0-9.\-:]+)\.jsonl$")
FIXED = ["benchmark", "model", "item", "filter", "target", "pred", "metric", "score"]


def _task_of(path: Path) -> str:
    match = _NAME.match(path.name)
    if match:
        return match.group("task")
    stem = path.name.removesuffix(".jsonl")
    return stem.removeprefix("samples_")


def _model_of(path: Path) -> str:
    """The harness writes ``<output_path>/<model name, '/' written '__'>/samples_….jsonl``."""
    return path.parent.name.replace("__", "/")


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _pred(filtered: Any) -> str | None:
    """The prediction when it can be read off ``filtered_resps``: a generation task's one
    answer (a string), or a multiple-choice task's choice of highest log-likelihood (its index,
    as text: the harness's ``target`` is the index of the right choice)."""
    if not isinstance(filtered, list) or not filtered:
        return None
    if len(filtered) == 1 and isinstance(filtered[0], str):
        return filtered[0]
    scores = []
    for resp in filtered:  # loop-ok: the choices of one sample
        value = resp[0] if isinstance(resp, list | tuple) and resp else resp
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        scores.append(float(value))
    return str(max(range(len(scores)), key=scores.__getitem__))


def _metrics(sample: dict[str, Any]) -> dict[str, float]:
    """The per-item metric values: the keys named by ``metrics`` (recent harness versions) or
    every other key holding a number or a boolean; a metric whose per-item value is not a
    number (BLEU's (reference, prediction) pair, perplexity's (log-likelihood, length)) is a
    corpus-level metric and is left out."""
    names = sample.get("metrics")
    if not isinstance(names, list):
        names = [k for k in sample if k not in BOOKKEEPING]
    out = {}
    for name in names:  # loop-ok: the metrics of one sample
        value = sample.get(name)
        if isinstance(value, bool | int | float) and name not in BOOKKEEPING:
            out[str(name)] = float(value)
    return out


def _read_file(
    func: str, path: Path, model: str, task: str, metric: str | None
) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):  # loop-ok: parsing a file
            if not line.strip():
                continue
            try:
                sample = json.loads(line)
            except json.JSONDecodeError as err:
                raise malformed(
                    func, path, number, "every line must be one JSON object", f"{err.msg}"
                ) from None
            if not isinstance(sample, dict):
                raise malformed(
                    func, path, number, "every line must be one JSON object", repr(sample)
                )
            doc_id = sample.get("doc_id")
            if isinstance(doc_id, bool) or not isinstance(doc_id, int):
                raise malformed(
                    func, path, number, "a sample must have an integer 'doc_id'", repr(doc_id)
                )
            row: dict[str, Any] = {
                "benchmark": task,
                "model": model,
                "item": doc_id,
                "filter": str(sample.get("filter", "none")),
                "target": _text(sample.get("target")),
                "pred": _pred(sample.get("filtered_resps")),
            }
            values = _metrics(sample)
            primary = metric if metric is not None else next(iter(values), None)
            row["metric"] = primary if primary in values else None
            row["score"] = values.get(primary) if primary is not None else None
            if row["score"] is not None and math.isnan(row["score"]):
                row["score"] = None
            for name, value in values.items():  # loop-ok: one sample's metrics
                if name in FIXED:
                    raise malformed(
                        func,
                        path,
                        number,
                        f"a metric must not be named like a column {FIXED}",
                        repr(name),
                    )
                row[name] = None if math.isnan(value) else value
            rows.append(row)
    return rows


def read_lm_eval_samples(
    path_or_glob: str | os.PathLike[str],
    *,
    model: str | None = None,
    task: str | None = None,
    metric: str | None = None,
) -> pl.DataFrame:
    """Read lm-evaluation-harness ``--log_samples`` files into one per-item long table.

    The harness (``lm_eval --log_samples --output_path out``) writes one
    ``samples_<task>_<timestamp>.jsonl`` per task under ``out/<model>/``, one JSON object per
    line and evaluated document: ``doc_id``, ``doc``, ``target``, ``arguments``, ``resps``,
    ``filtered_resps``, ``filter``, ``metrics`` (the metric names), hashes, and one key per
    metric with its value for this document (``acc``, ``acc_norm``, ``exact_match``…).

    Parameters
    ----------
    path_or_glob
        A samples file, a directory (every ``samples_*.jsonl`` below it) or a glob
        (``"out/**/samples_*.jsonl"``).
    model
        The model's name for every file; default: the name of the file's directory, with
        ``__`` read back as ``/`` (the harness writes ``org/name`` as ``org__name``).
    task
        The benchmark's name for every file; default: ``<task>`` of the file name.
    metric
        The metric copied to ``score``; default: each sample's first metric (the task's
        first ``metric_list`` entry, e.g. ``acc`` before ``acc_norm``).

    Returns
    -------
    pl.DataFrame
        One row per (benchmark, model, filter, item), sorted by them:

        * ``benchmark`` (String) — the task; ``model`` (String);
        * ``item`` (Int64) — the document's ``doc_id``;
        * ``filter`` (String) — the harness's filter pipeline (``"none"``, or e.g.
          ``"strict-match"`` and ``"flexible-extract"`` for GSM8K: one row each);
        * ``target`` (String) — the target, JSON text when it is not a string (a choice
          index is ``"0"``, ``"1"``…);
        * ``pred`` (String) — the prediction when it can be read: a generation task's filtered
          answer, or for a multiple-choice task the index of the choice of highest
          log-likelihood (comparable with ``target``); null otherwise;
        * ``metric`` (String), ``score`` (Float64) — the metric read as the item's score and
          its value (``metric=``, or the sample's first metric): the ``score`` column of
          frameeval's per-item long table;
        * one Float64 column per metric (``acc``, ``acc_norm``, ``exact_match``…; booleans
          as 0/1), null where a file or line does not have it.

    Notes
    -----
    Metrics with a non-numeric per-document value (BLEU, chrF, perplexities: the harness
    logs (reference, prediction) or (log-likelihood, length) pairs and aggregates them over
    the corpus) are not per-item scores and are left out. Each file is parsed line by line,
    so a malformed line is reported with its number
    (:class:`~frameeval.exceptions.FileFormatError`).

    For frameeval's per-item functions the table is the long table (benchmark, model, item,
    score); a task with several filters (GSM8K) has one row per filter, so keep ``filter``
    among the keys or select one filter first.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "EleutherAI__pythia-160m"
    >>> folder.mkdir()
    >>> lines = [{"doc_id": 0, "target": 1, "filtered_resps": [[-2.5, False], [-0.7, True]],
    ...           "filter": "none", "metrics": ["acc"], "acc": 1.0},
    ...          {"doc_id": 1, "target": 0, "filtered_resps": [[-1.2, False], [-0.3, True]],
    ...           "filter": "none", "metrics": ["acc"], "acc": 0.0}]
    >>> path = folder / "samples_arc_easy_2024-05-13T13-34-45.567890.jsonl"
    >>> _ = path.write_text("".join(json.dumps(line) + "\\n" for line in lines))
    >>> table = fe.io.read_lm_eval_samples(path)
    >>> table.select("benchmark", "model", "item", "pred", "metric", "score").rows()
    [('arc_easy', 'EleutherAI/pythia-160m', 0, '1', 'acc', 1.0), ('arc_easy', 'EleutherAI/pythia-160m', 1, '1', 'acc', 0.0)]
    """
    func = "read_lm_eval_samples"
    rows: list[dict[str, Any]] = []
    for path in expand(func, path_or_glob, "samples_*.jsonl"):  # loop-ok: files
        rows += _read_file(
            func,
            path,
            model if model is not None else _model_of(path),
            task if task is not None else _task_of(path),
            metric,
        )
    metrics = sorted({k for row in rows for k in row} - set(FIXED))
    schema = {
        "benchmark": pl.String,
        "model": pl.String,
        "item": pl.Int64,
        "filter": pl.String,
        "target": pl.String,
        "pred": pl.String,
        "metric": pl.String,
        "score": pl.Float64,
        **{m: pl.Float64 for m in metrics},
    }
    out = pl.DataFrame(rows, schema=schema)
    return out.sort("benchmark", "model", "filter", "item")
