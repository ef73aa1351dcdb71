"""Many machines: the frame functions on a Dask cluster, with the single-machine numbers.

Optional backend (``pip install 'frameeval[dask]'``, which brings ``dask[distributed]``). Each
function here has the signature of its namesake in :mod:`frameeval` plus ``client=``, and takes
either a ``dask.dataframe.DataFrame`` or Parquet paths (a path, a glob or a list of them).

Two ways to compute, chosen by what the result needs:

**Mergeable statistics** — :func:`confusion_matrix`, :func:`classification_report`,
:func:`macro_micro`, :func:`cost_sensitive_error`, :func:`roc_curve`, :func:`roc_convex_hull`,
:func:`pr_curve`, :func:`ranking_report`, :func:`break_even_point`, :func:`best_threshold`,
:func:`cost_lines`, :func:`cost_curve`, :func:`expected_total_cost`. No row moves between
workers (each Parquet path is one task, read on the worker with ``pl.scan_parquet`` and the
streaming engine):

1. **Partial statistics, per partition** (on the workers, Polars): one ``group_by`` of the
   partition by the key columns and the raw label (and score) columns, with the row count — or the
   weight sum — and the mergeable input-check counts of :class:`frameeval._validate.Checks`
   (offending rows: a sum; smallest offending value: a min). These are the sufficient
   statistics of the single-machine functions: counts per group × (actual, predicted), per
   group × distinct score × label.
2. **Tree reduction** (on the workers): partials are concatenated ``split_every`` at a time and
   re-aggregated (sums; mins for the check values) until one table is left.
3. **Finish** (on the client): the input checks are enforced on the merged counts, so a bad row
   raises the same typed error, naming the same group, row count and value, as on one machine;
   then the merged table goes through *the same public function* of :mod:`frameeval`, with
   the count column as ``weight=``.

**Shuffle by key** — where an exact result needs all rows of an instance or of a group
together, the rows are first shuffled (``DataFrame.shuffle``, only the needed columns) so that
equal keys land in one partition; Parquet paths are read with
``dask.dataframe.read_parquet(..., dtype_backend="pyarrow")``, which keeps the files' dtypes.

* :func:`mcnemar`, :func:`contingency_table` — shuffled by ``*by, instance``: both learners'
  predictions of an instance meet in one partition, which is paired and counted per group
  with the single-machine code (cells e00…e11, rows per learner, the check counts); the
  counts are tree-reduced as above and the test is the single-machine code on the merged
  cells. A null instance and duplicate (instance, learner) rows are found in the partition
  holding them; the label checks, learners without rows, unpaired instances and two truths
  for one instance are merged counts, enforced on the client in the order one machine
  meets them.
* :func:`bootstrap_ci`, :func:`bootstrap_replicates` — shuffled by the ``by`` keys: each
  partition holds whole groups and runs the single-machine function; the per-partition
  results are concatenated and sorted by the keys. The draws hash (seed, replicate, slot)
  with the units in ``instance`` order, so a group gets the same replicates in any
  partition; without ``instance=`` the units would be in row order, which the shuffle does
  not keep, so ``instance=`` is required here. Without ``by=`` all rows form one group and
  go to one partition.

Exactness: the merged counts are integers (or the weight sums), so confusion counts, ROC / P-R
points, AUC, break-even points, best thresholds, cost curves, McNemar's table and test and every
count-valued column are bit-identical to the single-machine result. Columns that average
non-integral ratios over rows in an unspecified order (the macro / weighted averages of
:func:`classification_report` and :func:`macro_micro`, average precision and the P-R area of
:func:`ranking_report`) can differ in the last bit — as two single-machine runs of those
functions can. With float ``weight=`` the partial sums are added in a different order than on
one machine, so weighted results agree to rounding (exact for integer-valued weights). Bootstrap
replicates are bit-identical; of the intervals, ``std_error`` and ``bias`` (and the BCa bounds,
through the jackknife) are float sums whose rounding in Polars depends on the other groups in
the frame, so they agree to about 1e-15 — as one machine's result for a group does with and
without the other groups.

Size: the merged table has one row per group × distinct (label, prediction) or per group ×
distinct (label, score); it must fit on the client. For continuous scores that is up to one
row per input row: round the scores (e.g. to 6 digits) when the data are larger than the client.
After a shuffle a partition holds whole instances (McNemar) or whole groups (bootstrap): a
bootstrap group must fit on one worker, with ``batch_size`` tiled copies of it.

Not offered here: bias–variance, DeLong intervals and tests, :func:`frameeval.roc_band`, the
paired t / Wilcoxon / Friedman tests (their inputs are small per-fold tables: collect them) and
``multiclass_roc_auc`` with its joint score columns.

Examples
--------
>>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
>>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
>>> ddf = dd.from_pandas(pdf, npartitions=2)
>>> fed.confusion_matrix(ddf, truth="y", pred="p")["count"].to_list()  # no client: dask's default
[2, 1, 1, 2]

On a cluster, pass ``client=distributed.Client("tcp://scheduler:8786")``; the same call runs
there.
"""

from __future__ import annotations

import inspect
import os
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

try:
    import dask
    from dask import delayed
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "frameeval.dask needs the optional dependency dask[distributed]; "
        "install it with: pip install 'frameeval[dask]'"
    ) from err

import frameeval.confusion as _confusion
import frameeval.curves as _curves
import frameeval.measure_set as _measure_set
import frameeval.thresholds as _thresholds
import frameeval.uncertainty as _uncertainty
from frameeval._frame import as_keys, collect
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Keys
from frameeval._validate import Checks, check_not_empty_eager, label_dtype, label_expr
from frameeval.compare import contingency_table as _contingency_table
from frameeval.compare import mcnemar as _mcnemar
from frameeval.compare.mcnemar import (
    cells_table,
    mcnemar_test,
    merge_pair_partials,
    pair_partial,
    pairs_from_partials,
)
from frameeval.exceptions import InvalidParameterError
from frameeval.uncertainty.bootstrap import parse_measures

__all__ = [
    "best_threshold",
    "bootstrap_ci",
    "bootstrap_replicates",
    "break_even_point",
    "classification_report",
    "confusion_matrix",
    "contingency_table",
    "cost_curve",
    "cost_lines",
    "cost_sensitive_error",
    "expected_total_cost",
    "macro_micro",
    "mcnemar",
    "measures",
    "pr_curve",
    "ranking_report",
    "roc_convex_hull",
    "roc_curve",
]

_COUNT = "__fe_count"
_CHECK = "__frameeval_check_"


# ---------------------------------------------------------------------------------------------
# the three steps
# ---------------------------------------------------------------------------------------------
def _checks(
    func: str,
    schema: pl.Schema,
    labels_of: Sequence[tuple[str, str]],
    numbers: Sequence[tuple[str, str]],
    weight: str | None,
    labels: Sequence[Any] | None,
) -> Checks:
    """The row checks of the single-machine function, in its order (group-scoped ones only;
    presence of ``pos_label`` is checked exactly by the final step)."""
    checks = Checks(func)
    for column, role in labels_of:
        checks.label(column, role, schema[column])
    for column, role in numbers:
        checks.finite(column, role, schema[column])
    if weight:
        checks.finite(weight, "weight", schema[weight])
        checks.non_negative(weight, "weight")
    if labels is not None:
        for column, role in labels_of:
            checks.within(
                column, role, labels, label_expr(column, schema), label_dtype(schema, column)
            )
    return checks


def _scan(part: Any) -> pl.LazyFrame:
    if isinstance(part, str | os.PathLike):
        return pl.scan_parquet(os.fspath(part))
    if isinstance(part, pl.DataFrame):
        return part.lazy()
    return pl.from_pandas(part).lazy()  # a partition of a dask DataFrame


def _partial(part: Any, spec: dict[str, Any]) -> pl.DataFrame:
    """Step 1 (on a worker): counts per group × raw label (× score) value, with check counts."""
    lf = _scan(part)
    schema = lf.collect_schema()
    checks = _checks(
        spec["func"], schema, spec["labels_of"], spec["numbers"], spec["weight"], spec["labels"]
    )
    weight = spec["weight"]
    count = pl.col(weight).cast(pl.Float64).sum() if weight else pl.len().cast(pl.Int64)
    return (
        lf.group_by(spec["columns"])
        .agg(count.alias(_COUNT), *checks.aggs())
        .collect(engine="streaming")
    )


def _combine(parts: list[pl.DataFrame], columns: list[str]) -> pl.DataFrame:
    """Step 2: merge partial tables on ``columns`` (sums of the counts, sums and check counts;
    min for a check's smallest offending value)."""
    table = pl.concat(parts, how="vertical_relaxed")
    merge = [
        pl.col(c).min() if c.startswith(_CHECK) and c.endswith("_value") else pl.col(c).sum()
        for c in table.columns
        if c not in columns
    ]
    return table.group_by(columns).agg(*merge) if columns else table.select(*merge)


def _paths(data: Any, func: str) -> list[str] | None:
    """The Parquet paths of ``data`` (None for a dask DataFrame); raises on anything else."""
    if isinstance(data, str | os.PathLike):
        data = [data]
    if isinstance(data, list | tuple):
        paths = [os.fspath(p) for p in data]
        if not paths:
            raise InvalidParameterError(f"{func}(): data must name at least one path, got [].")
        return paths
    if hasattr(data, "to_delayed") and hasattr(data, "_meta"):
        return None
    raise InvalidParameterError(
        f"{func}(): data must be a dask DataFrame or Parquet path(s), got {type(data).__name__}."
    )


def _tasks(data: Any, func: str) -> tuple[list[Any], pl.Schema]:
    """One delayed partition (or path) per task, and the schema of the data."""
    paths = _paths(data, func)
    if paths is not None:
        return paths, pl.scan_parquet(paths[0]).collect_schema()
    return list(data.to_delayed()), pl.from_pandas(data._meta).schema


def _check_split(split_every: Any, func: str) -> None:
    if not (isinstance(split_every, int) and split_every >= 2):
        raise InvalidParameterError(
            f"{func}(): split_every must be an int >= 2, got {split_every!r}."
        )


def _reduce(level: list[Any], combine: Callable[..., Any], split_every: int, *args: Any) -> Any:
    """Step 2: the tree of ``combine`` tasks, ``split_every`` partials at a time."""
    while len(level) > 1:  # loop-ok: ⌈log_k(partitions)⌉ levels of the reduction tree
        level = [
            delayed(combine)(level[i : i + split_every], *args)
            for i in range(0, len(level), split_every)
        ]
    return level[0]


def _compute(task: Any, client: Any) -> Any:
    return task.compute() if client is None else client.compute(task).result()


def _run(
    data: Any,
    func: str,
    single: Callable[..., Any],
    kwargs: dict[str, Any],
    *,
    by: Keys,
    extra_keys: Sequence[str],
    labels_of: Sequence[tuple[str, str]],
    numbers: Sequence[tuple[str, str]],
    weight: str | None,
    labels: Sequence[Any] | None,
    client: Any,
    split_every: int,
) -> pl.DataFrame:
    _check_split(split_every, func)
    tasks, schema = _tasks(data, func)
    # schema checks (missing column, dtype, parameters) exactly as on one machine: no data read
    single(pl.LazyFrame(schema=schema), **kwargs, by=by, weight=weight)
    keys = as_keys(by)
    columns = list(
        dict.fromkeys([*keys, *extra_keys, *(c for c, _ in labels_of), *(c for c, _ in numbers)])
    )
    spec = {
        "func": func,
        "columns": columns,
        "labels_of": list(labels_of),
        "numbers": list(numbers),
        "weight": weight,
        "labels": None if labels is None else list(labels),
    }
    level = [delayed(_partial)(task, spec) for task in tasks]
    merged = _compute(_reduce(level, _combine, split_every, columns), client)
    _not_empty(merged.height, func)  # every row lands in some group: no groups, no rows
    check_columns = [c for c in merged.columns if c.startswith(_CHECK)]
    enforced = collect(_enforce(merged, func, schema, spec, keys)).drop(check_columns, strict=False)
    return single(enforced, **kwargs, by=by, weight=_COUNT)


def _enforce(
    merged: pl.DataFrame, func: str, schema: pl.Schema, spec: dict[str, Any], keys: list[str]
) -> pl.LazyFrame:
    """Step 3a: the single-machine checks' rules applied to the merged check counts."""
    checks = _checks(
        func, schema, spec["labels_of"], spec["numbers"], spec["weight"], spec["labels"]
    )
    return checks.enforce(merged.lazy(), keys)


# ---------------------------------------------------------------------------------------------
# shuffle by key: the functions that need all rows of an instance (or of a group) together
# ---------------------------------------------------------------------------------------------
def _frame(data: Any, func: str) -> tuple[Any, pl.Schema]:
    """``data`` as a dask DataFrame (Parquet read with Arrow dtypes, so the partitions convert
    to the Polars dtypes of the files) and its schema."""
    paths = _paths(data, func)
    if paths is not None:
        import dask.dataframe as dd

        data = dd.read_parquet(paths if len(paths) > 1 else paths[0], dtype_backend="pyarrow")
    return data, pl.from_pandas(data._meta).schema


def _shuffled(ddf: Any, on: Sequence[str], columns: Sequence[str]) -> list[Any]:
    """The partitions (delayed) of the needed ``columns`` after a shuffle by ``on``: every row
    with the same ``on`` values lands in the same partition. Without ``on`` (one group): one
    partition."""
    ddf = ddf[list(columns)]
    ddf = ddf.shuffle(on=list(on)) if on else ddf.repartition(npartitions=1)
    return list(ddf.to_delayed())


def _polars(part: Any, schema: pl.Schema) -> pl.DataFrame:
    """A dask partition as a Polars frame with the dtypes of ``schema`` (the meta's: a partition
    can differ, e.g. an empty one)."""
    frame = pl.from_pandas(part)
    drift: dict[Any, Any] = {
        c: t
        for c, t in schema.items()
        if c in frame.schema and frame.schema[c] != t and t != pl.Null
    }
    return frame.cast(drift) if drift else frame


def _not_empty(rows: int, func: str) -> None:
    """The single-machine EmptyFrameError for data without rows (``range`` has the ``len``)."""
    check_not_empty_eager(range(rows), True, pl.LazyFrame(), func)


def _pairs_partial(part: Any, spec: dict[str, Any]) -> tuple[pl.DataFrame, int]:
    """Step 1 after the shuffle (on a worker): per group, the mergeable McNemar statistics of a
    partition holding whole instances, and the partition's row count."""
    frame = _polars(part, spec["schema"])
    return collect(pair_partial(frame.lazy(), **spec)), frame.height


def _pairs_combine(
    parts: list[tuple[pl.DataFrame, int]], spec: dict[str, Any]
) -> tuple[pl.DataFrame, int]:
    """Step 2: merge partial McNemar statistics (and add up the row counts)."""
    table = pl.concat([t for t, _ in parts], how="vertical_relaxed").lazy()
    merged = merge_pair_partials(
        table, spec["schema"], spec["func"], spec["truth"], spec["pred"], spec["keys"]
    )
    return collect(merged), sum(rows for _, rows in parts)


def _pairs(
    data: Any,
    func: str,
    single: Callable[..., Any],
    kwargs: dict[str, Any],
    *,
    truth: str,
    pred: str,
    a: Any,
    b: Any,
    learner: str | None,
    instance: str,
    by: Keys,
    client: Any,
    split_every: int,
) -> tuple[pl.LazyFrame, list[str]]:
    """``*keys, a, b, e00, e01, e10, e11`` of all rows: shuffle by ``*by, instance``, count per
    partition, tree-reduce, enforce the checks on the merged counts."""
    _check_split(split_every, func)
    ddf, schema = _frame(data, func)
    (learner,) = resolve_roles(
        pl.LazyFrame(schema=schema), func, [truth, pred, instance, by], learner=learner
    )
    # schema checks (missing column, dtype, parameters) exactly as on one machine: no data read
    pairing = {"a": a, "b": b, "learner": learner, "instance": instance, "by": by}
    single(pl.LazyFrame(schema=schema), truth, pred, **pairing, **kwargs)
    keys = as_keys(by)
    columns = list(dict.fromkeys([*keys, instance, learner, truth, pred]))
    schema = pl.Schema({c: schema[c] for c in columns})
    spec = {
        "schema": schema,
        "func": func,
        "truth": truth,
        "pred": pred,
        "a": a,
        "b": b,
        "learner": learner,
        "instance": instance,
        "keys": keys,
    }
    parts = _shuffled(ddf, [*keys, instance], columns)
    level = [delayed(_pairs_partial)(part, spec) for part in parts]
    merged, rows = _compute(_reduce(level, _pairs_combine, split_every, spec), client)
    _not_empty(rows, func)
    return pairs_from_partials(merged, **spec), keys


def _bootstrap_part(part: Any, spec: dict[str, Any]) -> pl.DataFrame | None:
    """The single-machine function on one partition (whole groups); None for an empty one."""
    frame = _polars(part, spec["schema"])
    if spec["keys"] and frame.height == 0:
        return None
    return getattr(_uncertainty, spec["func"])(frame, spec["measure"], **spec["kwargs"])


def _bootstrap(
    data: Any,
    func: str,
    measure: Any,
    kwargs: dict[str, Any],
    *,
    by: Keys,
    instance: str | None,
    stratify: str | None,
    client: Any,
) -> pl.DataFrame:
    """Shuffle by the ``by`` keys, run the single-machine function per partition, concatenate
    and sort by the keys (a stable sort keeps each group's own order)."""
    ddf, schema = _frame(data, func)
    single = getattr(_uncertainty, func)
    kwargs = {"by": by, "instance": instance, "stratify": stratify, **kwargs}
    # schema and parameter checks exactly as on one machine: no data read
    single(pl.LazyFrame(schema=schema), measure, **kwargs)
    if instance is None:
        raise InvalidParameterError(
            f"{func}(): instance= must name the resampling unit on Dask, got None.\n"
            "Hint: without it the units are taken in row order, which the shuffle does not "
            "keep; pass a column that is unique within each group (e.g. a row id)."
        )
    keys = as_keys(by)
    _, _, measure_columns = parse_measures(measure, func)
    columns = list(
        dict.fromkeys([*keys, instance, *([stratify] if stratify else []), *measure_columns])
    )
    spec = {
        "func": func,
        "schema": pl.Schema({c: schema[c] for c in columns}),
        "measure": measure,
        "kwargs": kwargs,
        "keys": keys,
    }
    tasks = [delayed(_bootstrap_part)(part, spec) for part in _shuffled(ddf, keys, columns)]
    if client is None:
        results = dask.compute(*tasks)
    else:
        results = client.gather(client.compute(tasks))
    frames = [r for r in results if r is not None]
    _not_empty(len(frames), func)
    out = pl.concat(frames, how="vertical_relaxed")
    return out.sort(keys, nulls_last=True, maintain_order=True) if keys else out


# ---------------------------------------------------------------------------------------------
# the Dask form of fe.measures: count table (label and ranking measures) and sums (the rest)
# ---------------------------------------------------------------------------------------------
def _sums_partial(part: Any, spec: dict[str, Any]) -> pl.DataFrame:
    """Step 1 (on a worker): Σ w·term per measure, Σ w and the check counts, per group."""
    from frameeval.measure_set import sum_statistics

    lf = _scan(part)
    checks, sums = sum_statistics(
        None, lf, False, "measures", spec["truth"], spec["pred"], spec["score"], spec["keys"],
        spec["weight"], spec["measures"], spec["pos_label"],
    )  # fmt: skip
    keys = spec["keys"]
    stats = (
        lf.group_by(keys).agg(*sums, *checks.aggs()) if keys else lf.select(*sums, *checks.aggs())
    )
    return stats.collect(engine="streaming")


def _sums(
    data: Any, arguments: dict[str, Any], chosen: list[Any], client: Any, split_every: int
) -> pl.LazyFrame:
    """The sum measures: per-partition sums, summed in a tree, checks enforced, formulas."""
    from frameeval.measure_set import sum_statistics, sum_values

    tasks, schema = _tasks(data, "measures")
    keys = as_keys(arguments["by"])
    spec = {
        "truth": arguments["truth"],
        "pred": arguments["pred"],
        "score": arguments["score"],
        "keys": keys,
        "weight": arguments["weight"],
        "measures": chosen,
        "pos_label": arguments["pos_label"],
    }
    level = [delayed(_sums_partial)(task, spec) for task in tasks]
    merged = _compute(_reduce(level, _combine, split_every, keys), client)
    empty = pl.LazyFrame(schema=schema)
    checks, _ = sum_statistics(
        None, empty, False, "measures", spec["truth"], spec["pred"], spec["score"], keys,
        spec["weight"], chosen, spec["pos_label"],
    )  # fmt: skip
    return checks.enforce(merged.lazy(), keys).select(*keys, *sum_values(chosen))


def _measures(arguments: dict[str, Any], client: Any, split_every: int) -> pl.DataFrame:
    """``fe.measures`` on Dask: label and ranking measures from the merged count table of
    ``*by, truth, pred, score`` (one pass, then the single-machine function with the counts as
    ``weight=``); probability and regression measures from merged sums (a second pass)."""
    from frameeval.measure_set import assemble, chosen_measures

    func = "measures"
    data = arguments.pop("data")
    _check_split(split_every, func)
    _, schema = _tasks(data, func)
    # schema and parameter checks exactly as on one machine: no data read
    _measure_set.measures(pl.LazyFrame(schema=schema), **arguments)
    chosen = chosen_measures(func, arguments["measures"], arguments["pred"], arguments["score"])
    keys = as_keys(arguments["by"])
    names = [m.name for m in chosen]
    counted = [m for m in chosen if m.kind in ("label", "binary", "score")]
    summed = [m for m in chosen if m.kind not in ("label", "binary", "score")]
    parts: list[pl.LazyFrame] = []
    if counted:
        truth, pred, score = arguments["truth"], arguments["pred"], arguments["score"]
        label = any(m.kind != "score" for m in counted)
        ranking = any(m.kind == "score" for m in counted)
        single = {**arguments, "measures": counted, "long": False}
        single["pred"] = pred if label else None
        single["score"] = score if ranking else None
        single.pop("by"), single.pop("weight")
        out = _run(
            data, func, _measure_set.measures, single,
            by=keys, extra_keys=(),
            labels_of=[(truth, "truth"), *([(pred, "pred")] if label else [])],
            numbers=[(score, "score")] if ranking else [],
            weight=arguments["weight"], labels=None, client=client, split_every=split_every,
        )  # fmt: skip
        parts.append(out.lazy())
    if summed:
        parts.append(_sums(data, arguments, summed, client, split_every))
    return collect(assemble(parts, keys, names, arguments["long"]))


# ---------------------------------------------------------------------------------------------
# public functions, generated from one table
# ---------------------------------------------------------------------------------------------
_SPLIT = 8

_CLIENT_DOC = """client
    A ``distributed.Client`` to run on (local or remote); default None uses Dask's current
    scheduler (the active client if there is one)."""
_SPLIT_DOC = """split_every
    Fan-in of the tree reduction of the partial counts (>= 2)."""


@dataclass(frozen=True)
class _Form:
    """One public function of this module: how it runs and what its docstring says.

    ``mode`` is ``"merge"`` (partial counts, tree reduction, the single-machine function on the
    merged counts), ``"pairs"`` (shuffle by ``*by, instance``, McNemar's cells),
    ``"bootstrap"`` (shuffle by the ``by`` keys, the single-machine function per partition) or
    ``"measures"`` (count table and sums, see :func:`_measures`). For ``"merge"``, ``labels``
    and ``numbers`` name the parameters whose columns are label-checked and finite-checked
    (in that order, with their roles), ``extra_keys`` a parameter whose columns join the keys
    of the count table.
    """

    single: Callable[..., Any]
    summary: str
    returns: str
    example: str
    mode: str = "merge"
    labels: tuple[str, ...] = ("truth", "pred")
    numbers: tuple[str, ...] = ()
    extra_keys: str | None = None
    notes: str = ""
    data_doc: str = "A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them."
    parameter_docs: tuple[tuple[str, str], ...] = ()
    finish: Callable[..., Any] | None = None


def _signature(form: _Form) -> inspect.Signature:
    """The single-machine signature with ``data: Any``, plus ``client=`` (and
    ``split_every=`` where partials are tree-reduced), returning ``pl.DataFrame``."""
    single = inspect.signature(form.single)
    parameters = [
        p.replace(annotation=Any) if p.name == "data" else p for p in single.parameters.values()
    ]
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters.append(inspect.Parameter("client", keyword, default=None, annotation=Any))
    if form.mode != "bootstrap":
        parameters.append(inspect.Parameter("split_every", keyword, default=_SPLIT, annotation=int))
    return inspect.Signature(parameters, return_annotation=pl.DataFrame)


def _docstring(name: str, form: _Form, signature: inspect.Signature) -> str:
    own = dict(form.parameter_docs)
    shared = [p for p in signature.parameters if p not in {"data", "client", "split_every", *own}]
    lines = [
        form.summary,
        "",
        "Parameters",
        "----------",
        "data",
        textwrap.indent(form.data_doc, "    "),
        ", ".join(shared),
        f"    As in :func:`frameeval.{name}`.",
    ]
    for parameter, text in form.parameter_docs:
        lines += [parameter, textwrap.indent(text, "    ")]
    lines.append(_CLIENT_DOC)
    if "split_every" in signature.parameters:
        lines.append(_SPLIT_DOC)
    lines += ["", "Returns", "-------", "pl.DataFrame", textwrap.indent(form.returns, "    ")]
    if form.notes:
        lines += ["", "Notes", "-----", form.notes]
    lines += ["", "Examples", "--------", form.example]
    return "\n".join(lines) + "\n"


def _make(name: str, form: _Form) -> Callable[..., pl.DataFrame]:
    """The public function ``name``: a real signature and docstring, and the call of its mode."""
    signature = _signature(form)

    def run(*args: Any, **kwargs: Any) -> pl.DataFrame:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        client = arguments.pop("client")
        split_every = arguments.pop("split_every", None)
        if form.mode == "measures":
            return _measures(arguments, client, split_every)
        data = arguments.pop("data")
        if form.mode == "pairs":
            truth, pred = arguments.pop("truth"), arguments.pop("pred")
            pairing = {k: arguments.pop(k) for k in ("a", "b", "learner", "instance", "by")}
            counts, keys = _pairs(
                data, name, form.single, arguments, truth=truth, pred=pred, **pairing,
                client=client, split_every=split_every,
            )  # fmt: skip
            assert form.finish is not None
            return collect(form.finish(counts, keys, **arguments))
        if form.mode == "bootstrap":
            measure = arguments.pop("measure")
            common = {k: arguments.pop(k) for k in ("by", "instance", "stratify")}
            return _bootstrap(data, name, measure, arguments, **common, client=client)
        by, weight = arguments.pop("by"), arguments.pop("weight")
        out = _run(
            data, name, form.single, arguments,
            by=by,
            extra_keys=as_keys(arguments[form.extra_keys]) if form.extra_keys else (),
            labels_of=[(arguments[p], p) for p in form.labels],
            numbers=[(arguments[p], p) for p in form.numbers],
            weight=weight, labels=arguments.get("labels"),
            client=client, split_every=split_every,
        )  # fmt: skip
        return form.finish(out, weight) if form.finish else out

    run.__signature__ = signature  # type: ignore[attr-defined]
    run.__name__ = run.__qualname__ = name
    run.__doc__ = _docstring(name, form, signature)
    run.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()} | {
        "return": pl.DataFrame
    }
    run.__module__ = __name__
    return run


def _count_dtype(out: pl.DataFrame, weight: str | None) -> pl.DataFrame:
    return out if weight else out.with_columns(pl.col("count").cast(pl.Int64))


def _mcnemar_finish(counts: pl.LazyFrame, keys: list[str], *, exact: bool, alpha: float) -> Any:
    return mcnemar_test(counts, keys, exact, float(alpha))


def _contingency_finish(counts: pl.LazyFrame, keys: list[str]) -> Any:
    return cells_table(counts, keys)


_IMPORT = ">>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed"
_SCORES = (
    f'{_IMPORT}\n>>> pdf = pd.DataFrame({{"y": [1, 0, 1, 1, 0, 0], '
    '"s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})\n'
)
_SCORES4 = f'{_IMPORT}\n>>> pdf = pd.DataFrame({{"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]}})\n'
_SHUFFLE_NOTES = """The checks and their messages are those of one machine. A null ``instance`` and duplicate
(instance, learner) rows are found per partition after the shuffle (a partition holds
every row of its instances); label checks (null, non-integral float), learners without
rows, unpaired instances (their number and the first five) and two truths for one
instance are merged counts, enforced on the client in that order. When several instances
have two truths, the smallest is named (one machine names the first it meets)."""
_BOOTSTRAP_DATA = (
    '{"g": ["a", "a", "a", "b", "b", "b"], "row": [1, 2, 3, 1, 2, 3],\n'
    '...                     "y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}'
)
_INSTANCE_REQUIRED = (
    "instance",
    "The resampling unit, unique within each group: **required** here (see Notes of\n"
    ":func:`bootstrap_replicates`).",
)

#: every public function of this module, from its single-machine namesake
_FORMS: dict[str, _Form] = {
    "confusion_matrix": _Form(
        _confusion.confusion_matrix,
        "Grouped confusion matrices (Table 2.1) of a dask DataFrame or Parquet files.",
        "``*by, actual, predicted, count``, identical to :func:`frameeval.confusion_matrix` on\n"
        "all rows: ``count`` = the number of rows (Int64) or weight sum (Float64) of the cell.",
        f"{_IMPORT}\n"
        '>>> ddf = dd.from_pandas(pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}),\n'
        "...                      npartitions=3)\n"
        '>>> fed.confusion_matrix(ddf, truth="y", pred="p").rows()\n'
        "[(0, 0, 2), (0, 1, 1), (1, 0, 1), (1, 1, 2)]",
        notes="TP = count(pos, pos), FN = count(pos, neg), FP = count(neg, pos), TN = count(neg,\n"
        "neg), TP + FP + TN + FN = m. Per-partition cell counts add up to the full counts exactly.",
        data_doc="A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them (one "
        "task each).",
        finish=_count_dtype,
    ),
    "classification_report": _Form(
        _confusion.classification_report,
        "Per-class P, R, F-beta and support with macro, micro and weighted rows, on Dask.",
        "``*by, average, label, precision, recall, f1, support`` (``fbeta`` when ``beta != 1``) as\n"
        ":func:`frameeval.classification_report`: P = TP/(TP+FP) (eq 2.8), R = TP/(TP+FN)\n"
        "(eq 2.9), Fβ (eq 2.11), macro (eqs 2.12–2.14) and micro (eqs 2.15–2.17) averages;\n"
        "null for 0/0 unless ``zero_division``.",
        f"{_IMPORT}\n"
        '>>> ddf = dd.from_pandas(pd.DataFrame({"y": [0, 1, 2, 2, 1, 0], "p": [0, 2, 2, 2, 1, 1]}),\n'
        "...                      npartitions=2)\n"
        '>>> r = fed.classification_report(ddf, truth="y", pred="p")\n'
        '>>> round(r.filter(average="micro")["f1"].item(), 4)\n'
        "0.6667",
    ),
    "macro_micro": _Form(
        _confusion.macro_micro,
        "Macro and micro averages over several binary confusion matrices (2.3.2), on Dask.",
        "``*by, n_matrices, macro_precision, macro_recall, macro_f1, mean_f1, micro_precision,\n"
        "micro_recall, micro_f1`` (eqs 2.12–2.17), as :func:`frameeval.macro_micro`.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"fold": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0],\n'
        '...                     "p": [1, 0, 0, 1, 1, 0]})\n'
        '>>> out = fed.macro_micro(dd.from_pandas(pdf, npartitions=2), truth="y", pred="p",\n'
        '...                       across="fold")\n'
        '>>> round(out["macro_precision"].item(), 4)\n'
        "0.75",
        extra_keys="across",
    ),
    "cost_sensitive_error": _Form(
        _confusion.cost_sensitive_error,
        "Cost-sensitive error rate Σ w·cost(y, f(x)) / Σ w (eq 2.23), on Dask.",
        "``*by, cost_sensitive_error``, as :func:`frameeval.cost_sensitive_error`.",
        f"{_IMPORT}\n"
        '>>> ddf = dd.from_pandas(pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}),\n'
        "...                      npartitions=2)\n"
        '>>> fed.cost_sensitive_error(ddf, truth="y", pred="p", costs={(1, 0): 5.0, (0, 1): 1.0}).item()\n'
        "1.0",
    ),
    "roc_curve": _Form(
        _curves.roc_curve,
        "ROC curves, one point per distinct score (figure 2.4), on Dask.",
        "``*by, threshold, fpr, tpr``: FPR = FP/(TN+FP) (eq 2.19), TPR = TP/(TP+FN) (eq 2.18)\n"
        "at each threshold, bit-identical to :func:`frameeval.roc_curve`.",
        f'{_SCORES}>>> fed.roc_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height\n6',
        labels=("truth",),
        numbers=("score",),
    ),
    "roc_convex_hull": _Form(
        _curves.roc_convex_hull,
        "The ROC convex hull's vertices, on Dask (see :func:`frameeval.roc_convex_hull`).",
        "``*by, threshold, fpr, tpr`` of the hull vertices (eqs 2.18–2.19).",
        f'{_SCORES}>>> fed.roc_convex_hull(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height\n4',
        labels=("truth",),
        numbers=("score",),
    ),
    "pr_curve": _Form(
        _curves.pr_curve,
        "Precision-recall curves (figure 2.3), on Dask (see :func:`frameeval.pr_curve`).",
        "``*by, threshold, recall, precision``: R = TP/(TP+FN) (eq 2.9), P = TP/(TP+FP)\n"
        "(eq 2.8) at each distinct score.",
        f'{_SCORES}>>> fed.pr_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")["recall"][-1]\n1.0',
        labels=("truth",),
        numbers=("score",),
    ),
    "ranking_report": _Form(
        _curves.ranking_report,
        "Exact AUC, rank loss, average precision and P-R area per group, on Dask.",
        "``*by, roc_auc, rank_loss, average_precision, pr_auc`` as\n"
        ":func:`frameeval.ranking_report`: AUC = 1 − ℓ_rank (eqs 2.21–2.22), ties one half;\n"
        "null when a group has one class.",
        f'{_SCORES}>>> out = fed.ranking_report(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")\n'
        '>>> round(out["roc_auc"].item(), 4)\n0.8333',
        labels=("truth",),
        numbers=("score",),
    ),
    "break_even_point": _Form(
        _curves.break_even_point,
        "Break-even point (P = R on the P-R curve), on Dask (see\n"
        ":func:`frameeval.break_even_point`).",
        "``*by, break_even_point``; null when a group has no positive row.",
        f'{_SCORES4}>>> fed.break_even_point(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").item()\n0.5',
        labels=("truth",),
        numbers=("score",),
    ),
    "best_threshold": _Form(
        _thresholds.best_threshold,
        "The best operating point per group — by a measure (default F1), by expected cost or\n"
        "under a constraint — on Dask (see :func:`frameeval.best_threshold`).",
        "``*by, threshold, precision, recall, <measure>`` (``expected_cost`` with ``costs=``).",
        f'{_SCORES}>>> out = fed.best_threshold(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")\n'
        '>>> out["threshold"].item()\n0.4',
        labels=("truth",),
        numbers=("score",),
    ),
    "cost_lines": _Form(
        _curves.cost_lines,
        "One cost line per ROC point (figure 2.5, eq 2.25), on Dask (see\n"
        ":func:`frameeval.cost_lines`).",
        "``*by, threshold, p_cost, norm_cost``.",
        f'{_SCORES4}>>> fed.cost_lines(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height\n10',
        labels=("truth",),
        numbers=("score",),
    ),
    "cost_curve": _Form(
        _curves.cost_curve,
        "The cost curve (lower envelope of the cost lines, figure 2.5, eqs 2.24–2.25), on Dask\n"
        "(see :func:`frameeval.cost_curve`).",
        "``*by, p_cost, norm_cost``; one row of nulls for a group with one class.",
        f'{_SCORES4}>>> fed.cost_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").rows()\n'
        "[(0.0, 0.0), (0.5, 0.25), (1.0, 0.0)]",
        labels=("truth",),
        numbers=("score",),
    ),
    "expected_total_cost": _Form(
        _curves.expected_total_cost,
        "Expected total cost, the area under the cost curve (eq 2.24, figure 2.5), on Dask (see\n"
        ":func:`frameeval.expected_total_cost`).",
        "``*by, expected_total_cost``; null for a group with one class.",
        f'{_SCORES4}>>> fed.expected_total_cost(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").item()\n0.125',
        labels=("truth",),
        numbers=("score",),
    ),
    "measures": _Form(
        _measure_set.measures,
        "Many measures per group in one pass over shared sufficient statistics, on Dask.\n\n"
        "Label and ranking measures read the count table of ``*by, truth, pred, score``\n"
        "(counted per partition, summed in a tree, then :func:`frameeval.measures` on it with\n"
        "the counts as ``weight=``); probability and regression measures read their sums\n"
        "Σ w·term and Σ w per group (per partition, summed in a tree, then each measure's\n"
        "formula) — a second pass over the data when both are asked.",
        "As :func:`frameeval.measures`: ``*by, <measure>...`` (Float64), one row per group\n"
        "sorted by the keys; or with ``long=True`` ``*by, measure, value``.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0],\n'
        '...                     "s": [0.9, 0.2, 0.4, 0.8, 0.7, 0.1]})\n'
        '>>> out = fed.measures(dd.from_pandas(pdf, npartitions=2), truth="y", pred="p", score="s",\n'
        '...                    measures=["accuracy", "mcc", "roc_auc", "brier_score"])\n'
        ">>> [round(v, 4) for v in out.row(0)]\n"
        "[0.6667, 0.3333, 0.8889, 0.1583]",
        mode="measures",
        notes="Counts are integers (or weight sums), so label and ranking measures equal one\n"
        "machine's as the count-table functions do; the sums of probability and regression\n"
        "measures are added in another order than on one machine: equal to rounding. The\n"
        "count table has one row per group × distinct (truth, pred, score): round continuous\n"
        "scores when it would not fit on the client.",
    ),
    "contingency_table": _Form(
        _contingency_table,
        "The contingency table of two classifiers on the same test instances (Table 2.4), on Dask.\n\n"
        "The rows are shuffled by ``*by, instance`` so that both learners' predictions of an\n"
        "instance meet in one partition; each partition is paired and counted with the\n"
        "single-machine code, and the per-group counts are summed in a tree.",
        "``*by, a, b, cell, b_correct, a_correct, count``, identical to\n"
        ':func:`frameeval.contingency_table`: four rows per group — ``cell`` ``"e00"`` (both\n'
        'correct), ``"e01"`` (b correct, a wrong), ``"e10"`` (b wrong, a correct), ``"e11"``\n'
        "(both wrong); ``b_correct`` and ``a_correct`` spell the cell out; ``count`` is the\n"
        "number of instances (Int64, zero cells included). Sorted by keys and cell.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"learner": ["A"] * 3 + ["B"] * 3, "instance": [1, 2, 3] * 2,\n'
        '...                     "y": [1, 0, 1] * 2, "p": [1, 0, 0, 1, 1, 0]})\n'
        '>>> out = fed.contingency_table(dd.from_pandas(pdf, npartitions=2), "y", "p", a="A", b="B")\n'
        '>>> out.select("cell", "count").rows()\n'
        "[('e00', 1), ('e01', 0), ('e10', 1), ('e11', 1)]",
        mode="pairs",
        notes=_SHUFFLE_NOTES,
        data_doc="A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them (read "
        "with\n``dask.dataframe.read_parquet`` and Arrow dtypes).",
        finish=_contingency_finish,
    ),
    "mcnemar": _Form(
        _mcnemar,
        "McNemar's test of two classifiers on the same test set (§2.4.3, eq 2.33), on Dask.\n\n"
        "The cells of Table 2.4 are counted as in :func:`contingency_table` (shuffle by\n"
        "``*by, instance``, count per partition, sum in a tree); the test is then computed from\n"
        "the merged counts by the single-machine code of :func:`frameeval.mcnemar`.",
        "``*by, a, b, e00, e01, e10, e11, statistic, df, p_value, critical_value, alpha,\n"
        "reject, better``, identical to :func:`frameeval.mcnemar`: the cells of Table 2.4;\n"
        "``statistic`` τ_χ² = (|e01 − e10| − 1)² / (e01 + e10) with ``df`` = 1 (or, with\n"
        "``exact=True``, min(e01, e10) with ``df`` null); ``p_value``; ``critical_value``\n"
        "(χ²₁ at α, or the largest rejecting count); ``alpha``; ``reject``; ``better`` — the\n"
        "learner with fewer errors when rejected, else null. Sorted by keys.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"learner": ["A"] * 4 + ["B"] * 4, "instance": [1, 2, 3, 4] * 2,\n'
        '...                     "y": [1, 0, 1, 1] * 2, "p": [1, 0, 1, 0, 0, 1, 0, 0]})\n'
        '>>> out = fed.mcnemar(dd.from_pandas(pdf, npartitions=2), "y", "p", a="A", b="B")\n'
        '>>> out.select("e01", "e10", "statistic", "df").row(0)\n'
        "(0, 3, 1.3333333333333333, 1)",
        mode="pairs",
        notes="Checks as in :func:`contingency_table`. The cells are integer counts, so every "
        "column is\nbit-identical to the single-machine result.",
        finish=_mcnemar_finish,
    ),
    "bootstrap_replicates": _Form(
        _uncertainty.bootstrap_replicates,
        "Bootstrap replicates of any measure, per group, on Dask: the rows are shuffled by the\n"
        "``by`` keys and :func:`frameeval.bootstrap_replicates` runs on each partition.",
        "``*by, replicate`` and one Float64 column per measure (the measure on replicate\n"
        "``replicate`` = 1…repeats of the group, null where undefined), sorted by keys and replicate:\n"
        "equal to :func:`frameeval.bootstrap_replicates` on all rows.",
        ">>> import pandas as pd, dask.dataframe as dd, frameeval as fe, frameeval.dask as fed\n"
        f">>> pdf = pd.DataFrame({_BOOTSTRAP_DATA})\n"
        ">>> reps = fed.bootstrap_replicates(dd.from_pandas(pdf, npartitions=2),\n"
        '...                                 fe.accuracy("y", "p"), by="g", instance="row", repeats=3)\n'
        ">>> reps.columns, reps.height\n"
        "(['g', 'replicate', 'accuracy'], 6)",
        mode="bootstrap",
        notes="A group's draws depend only on the seed, the replicate, and the group's units in\n"
        "``instance`` order (a counter-based SplitMix64 hash), so running each group in another\n"
        "process gives the same replicates. Without ``instance=`` the units are taken in row order,\n"
        "which the shuffle does not keep: it is required (``InvalidParameterError``). Without\n"
        "``by=`` all rows form one group and go to one partition. The checks (null or duplicate\n"
        "``instance``, null ``stratify``…) run per partition, where every group is whole, and raise\n"
        "as on one machine.",
        parameter_docs=(_INSTANCE_REQUIRED,),
    ),
    "bootstrap_ci": _Form(
        _uncertainty.bootstrap_ci,
        "Bootstrap confidence intervals for any measure, per group, on Dask: the rows are shuffled\n"
        "by the ``by`` keys and :func:`frameeval.bootstrap_ci` runs on each partition.",
        "``*by, metric, estimate, bias, std_error, lower, upper, level, method,\n"
        "n_replicates``, one row per group and measure, sorted by keys and then in the order of\n"
        "``measure``, as :func:`frameeval.bootstrap_ci`: ``estimate`` θ̂ is the measure on the\n"
        "group; ``bias`` = mean(θ*) − θ̂ and ``std_error`` = sd(θ*) over the replicates θ*;\n"
        "``lower``, ``upper`` the percentile or BCa interval at ``level``; ``n_replicates``\n"
        "the replicates where the measure was defined.",
        ">>> import pandas as pd, dask.dataframe as dd, frameeval as fe, frameeval.dask as fed\n"
        f">>> pdf = pd.DataFrame({_BOOTSTRAP_DATA})\n"
        '>>> ci = fed.bootstrap_ci(dd.from_pandas(pdf, npartitions=2), fe.accuracy("y", "p"),\n'
        '...                       by="g", instance="row", repeats=200, seed=1)\n'
        '>>> ci.select("g", "metric", "estimate", "n_replicates").rows()\n'
        "[('a', 'accuracy', 0.6666666666666666, 200), ('b', 'accuracy', 0.6666666666666666, 200)]",
        mode="bootstrap",
        notes="The replicates are those of one machine (see :func:`bootstrap_replicates`), so the\n"
        "intervals are equal to :func:`frameeval.bootstrap_ci` on all rows — bit for bit wherever\n"
        "the measure sums integers (accuracy, F1, AUC…); a measure that sums non-integral floats\n"
        '(``pl.col("loss").mean()``) sees a group\'s rows in another order after the shuffle, so\n'
        "its estimate can differ in the last bit.",
        parameter_docs=(_INSTANCE_REQUIRED,),
    ),
}

best_threshold = _make("best_threshold", _FORMS["best_threshold"])
bootstrap_ci = _make("bootstrap_ci", _FORMS["bootstrap_ci"])
bootstrap_replicates = _make("bootstrap_replicates", _FORMS["bootstrap_replicates"])
break_even_point = _make("break_even_point", _FORMS["break_even_point"])
classification_report = _make("classification_report", _FORMS["classification_report"])
confusion_matrix = _make("confusion_matrix", _FORMS["confusion_matrix"])
contingency_table = _make("contingency_table", _FORMS["contingency_table"])
cost_curve = _make("cost_curve", _FORMS["cost_curve"])
cost_lines = _make("cost_lines", _FORMS["cost_lines"])
cost_sensitive_error = _make("cost_sensitive_error", _FORMS["cost_sensitive_error"])
expected_total_cost = _make("expected_total_cost", _FORMS["expected_total_cost"])
macro_micro = _make("macro_micro", _FORMS["macro_micro"])
mcnemar = _make("mcnemar", _FORMS["mcnemar"])
measures = _make("measures", _FORMS["measures"])
pr_curve = _make("pr_curve", _FORMS["pr_curve"])
ranking_report = _make("ranking_report", _FORMS["ranking_report"])
roc_convex_hull = _make("roc_convex_hull", _FORMS["roc_convex_hull"])
roc_curve = _make("roc_curve", _FORMS["roc_curve"])
