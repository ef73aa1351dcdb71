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

import os
from collections.abc import Callable, Sequence
from typing import Any, Literal

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
import frameeval.thresholds as _thresholds
import frameeval.uncertainty as _uncertainty
from frameeval._frame import as_keys, collect
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Keys
from frameeval._validate import Checks, check_not_empty_eager, label_dtype, label_expr
from frameeval.compare import contingency_table as _contingency_table
from frameeval.compare import mcnemar as _mcnemar
from frameeval.compare.mcnemar import _from_partials, _merge, _table, _test
from frameeval.compare.mcnemar import _partial as _pair_partial
from frameeval.exceptions import InvalidParameterError

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
        return pl.scan_parquet(part)
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
    """Step 2: merge partial tables (sums; min for a check's smallest offending value)."""
    table = pl.concat(parts, how="vertical_relaxed")
    merge = [
        pl.col(c).min() if c.endswith("_value") else pl.col(c).sum()
        for c in table.columns
        if c.startswith(_CHECK)
    ]
    return table.group_by(columns).agg(pl.col(_COUNT).sum(), *merge)


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
    drift = {
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
    return collect(_pair_partial(frame.lazy(), **spec)), frame.height


def _pairs_combine(
    parts: list[tuple[pl.DataFrame, int]], spec: dict[str, Any]
) -> tuple[pl.DataFrame, int]:
    """Step 2: merge partial McNemar statistics (and add up the row counts)."""
    table = pl.concat([t for t, _ in parts], how="vertical_relaxed").lazy()
    merged = _merge(table, spec["schema"], spec["func"], spec["truth"], spec["pred"], spec["keys"])
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
    return _from_partials(merged, **spec), keys


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
    _, _, measure_columns = _uncertainty._measures(measure, func)
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
# public functions
# ---------------------------------------------------------------------------------------------
_SPLIT = 8


def confusion_matrix(
    data: Any,
    truth: str,
    pred: str,
    *,
    by: Keys = None,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Grouped confusion matrices (Table 2.1) of a dask DataFrame or Parquet files.

    Parameters
    ----------
    data
        A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them (one task each).
    truth, pred, by, weight, labels
        As in :func:`frameeval.confusion_matrix`.
    client
        A ``distributed.Client`` to run on (local or remote); default None uses Dask's current
        scheduler (the active client if there is one).
    split_every
        Fan-in of the tree reduction of the partial counts (>= 2).

    Returns
    -------
    pl.DataFrame
        ``*by, actual, predicted, count``, identical to :func:`frameeval.confusion_matrix` on
        all rows: ``count`` = the number of rows (Int64) or weight sum (Float64) of the cell.

    Notes
    -----
    TP = count(pos, pos), FN = count(pos, neg), FP = count(neg, pos), TN = count(neg, neg),
    TP + FP + TN + FN = m. Per-partition cell counts add up to the full counts exactly.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> ddf = dd.from_pandas(pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}),
    ...                      npartitions=3)
    >>> fed.confusion_matrix(ddf, truth="y", pred="p").rows()
    [(0, 0, 2), (0, 1, 1), (1, 0, 1), (1, 1, 2)]
    """
    func = "confusion_matrix"
    out = _run(
        data,
        func,
        _confusion.confusion_matrix,
        {"truth": truth, "pred": pred, "labels": labels},
        by=by,
        extra_keys=(),
        labels_of=[(truth, "truth"), (pred, "pred")],
        numbers=[],
        weight=weight,
        labels=labels,
        client=client,
        split_every=split_every,
    )
    return out if weight else out.with_columns(pl.col("count").cast(pl.Int64))


def classification_report(
    data: Any,
    truth: str,
    pred: str,
    *,
    by: Keys = None,
    beta: float = 1.0,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
    zero_division: float | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Per-class P, R, F-beta and support with macro, micro and weighted rows, on Dask.

    Parameters are those of :func:`frameeval.classification_report`, plus ``data``,
    ``client`` and ``split_every`` as in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, average, label, precision, recall, fbeta, support`` as
        :func:`frameeval.classification_report`: P = TP/(TP+FP) (eq 2.8), R = TP/(TP+FN)
        (eq 2.9), Fβ (eq 2.11), macro (eqs 2.12–2.14) and micro (eqs 2.15–2.17) averages;
        null for 0/0 unless ``zero_division``.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> ddf = dd.from_pandas(pd.DataFrame({"y": [0, 1, 2, 2, 1, 0], "p": [0, 2, 2, 2, 1, 1]}),
    ...                      npartitions=2)
    >>> r = fed.classification_report(ddf, truth="y", pred="p")
    >>> round(r.filter(average="micro")["fbeta"].item(), 4)
    0.6667
    """
    func = "classification_report"
    kwargs = {
        "truth": truth,
        "pred": pred,
        "beta": beta,
        "labels": labels,
        "zero_division": zero_division,
    }
    return _run(
        data,
        func,
        _confusion.classification_report,
        kwargs,
        by=by,
        extra_keys=(),
        labels_of=[(truth, "truth"), (pred, "pred")],
        numbers=[],
        weight=weight,
        labels=labels,
        client=client,
        split_every=split_every,
    )


def macro_micro(
    data: Any,
    truth: str,
    pred: str,
    *,
    across: str | Sequence[str],
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Macro and micro averages over several binary confusion matrices (2.3.2), on Dask.

    Parameters are those of :func:`frameeval.macro_micro`, plus ``data``, ``client`` and
    ``split_every`` as in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, n_matrices, macro_precision, macro_recall, macro_f1, mean_f1, micro_precision,
        micro_recall, micro_f1`` (eqs 2.12–2.17), as :func:`frameeval.macro_micro`.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"fold": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0],
    ...                     "p": [1, 0, 0, 1, 1, 0]})
    >>> out = fed.macro_micro(dd.from_pandas(pdf, npartitions=2), truth="y", pred="p",
    ...                       across="fold")
    >>> round(out["macro_precision"].item(), 4)
    0.75
    """
    func = "macro_micro"
    kwargs = {"truth": truth, "pred": pred, "across": across, "pos_label": pos_label}
    return _run(
        data,
        func,
        _confusion.macro_micro,
        kwargs,
        by=by,
        extra_keys=as_keys(across),
        labels_of=[(truth, "truth"), (pred, "pred")],
        numbers=[],
        weight=weight,
        labels=None,
        client=client,
        split_every=split_every,
    )


def cost_sensitive_error(
    data: Any,
    truth: str,
    pred: str,
    *,
    costs: Any,
    by: Keys = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Cost-sensitive error rate Σ w·cost(y, f(x)) / Σ w (eq 2.23), on Dask.

    Parameters are those of :func:`frameeval.cost_sensitive_error`, plus ``data``, ``client``
    and ``split_every`` as in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, cost_sensitive_error``, as :func:`frameeval.cost_sensitive_error`.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> ddf = dd.from_pandas(pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}),
    ...                      npartitions=2)
    >>> fed.cost_sensitive_error(ddf, truth="y", pred="p", costs={(1, 0): 5.0, (0, 1): 1.0}).item()
    1.0
    """
    func = "cost_sensitive_error"
    return _run(
        data,
        func,
        _confusion.cost_sensitive_error,
        {"truth": truth, "pred": pred, "costs": costs},
        by=by,
        extra_keys=(),
        labels_of=[(truth, "truth"), (pred, "pred")],
        numbers=[],
        weight=weight,
        labels=None,
        client=client,
        split_every=split_every,
    )


def _curve(
    single: Callable[..., Any],
    data: Any,
    truth: str,
    score: str,
    by: Keys,
    weight: str | None,
    client: Any,
    split_every: int,
    **kwargs: Any,
) -> pl.DataFrame:
    """The per group × distinct score × label counts, merged, then the single-machine curve."""
    return _run(
        data,
        single.__name__,
        single,
        {"truth": truth, "score": score, **kwargs},
        by=by,
        extra_keys=(),
        labels_of=[(truth, "truth")],
        numbers=[(score, "score")],
        weight=weight,
        labels=None,
        client=client,
        split_every=split_every,
    )


def roc_curve(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    drop_intermediate: bool = False,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """ROC curves, one point per distinct score (figure 2.4), on Dask.

    Parameters are those of :func:`frameeval.roc_curve`, plus ``data``, ``client`` and
    ``split_every`` as in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, threshold, fpr, tpr``: FPR = FP/(TN+FP) (eq 2.19), TPR = TP/(TP+FN) (eq 2.18)
        at each threshold, bit-identical to :func:`frameeval.roc_curve`.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    >>> fed.roc_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height
    6
    """
    return _curve(
        _curves.roc_curve,
        data,
        truth,
        score,
        by,
        weight,
        client,
        split_every,
        pos_label=pos_label,
        drop_intermediate=drop_intermediate,
    )


def roc_convex_hull(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """The ROC convex hull's vertices, on Dask (see :func:`frameeval.roc_convex_hull`).

    Returns
    -------
    pl.DataFrame
        ``*by, threshold, fpr, tpr`` of the hull vertices (eqs 2.18–2.19).

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    >>> fed.roc_convex_hull(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height
    4
    """
    return _curve(
        _curves.roc_convex_hull,
        data,
        truth,
        score,
        by,
        weight,
        client,
        split_every,
        pos_label=pos_label,
    )


def pr_curve(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Precision-recall curves (figure 2.3), on Dask (see :func:`frameeval.pr_curve`).

    Returns
    -------
    pl.DataFrame
        ``*by, threshold, recall, precision``: R = TP/(TP+FN) (eq 2.9), P = TP/(TP+FP)
        (eq 2.8) at each distinct score.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    >>> fed.pr_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")["recall"][-1]
    1.0
    """
    return _curve(
        _curves.pr_curve, data, truth, score, by, weight, client, split_every, pos_label=pos_label
    )


def ranking_report(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Exact AUC, rank loss, average precision and P-R area per group, on Dask.

    Returns
    -------
    pl.DataFrame
        ``*by, roc_auc, rank_loss, average_precision, pr_auc`` as
        :func:`frameeval.ranking_report`: AUC = 1 − ℓ_rank (eqs 2.21–2.22), ties one half;
        null when a group has one class.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    >>> out = fed.ranking_report(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")
    >>> round(out["roc_auc"].item(), 4)
    0.8333
    """
    return _curve(
        _curves.ranking_report,
        data,
        truth,
        score,
        by,
        weight,
        client,
        split_every,
        pos_label=pos_label,
    )


def break_even_point(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Break-even point (P = R on the P-R curve), on Dask (see
    :func:`frameeval.break_even_point`).

    Returns
    -------
    pl.DataFrame
        ``*by, break_even_point``; null when a group has no positive row.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    >>> fed.break_even_point(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").item()
    0.5
    """
    return _curve(
        _curves.break_even_point,
        data,
        truth,
        score,
        by,
        weight,
        client,
        split_every,
        pos_label=pos_label,
    )


def best_threshold(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    measure: Any = None,
    beta: float = 1.0,
    costs: tuple[float, float] | None = None,
    p: float | None = None,
    min_recall: float | None = None,
    min_precision: float | None = None,
    max_fpr: float | None = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """The best operating point per group — by a measure (default F1), by expected cost or
    under a constraint — on Dask (see :func:`frameeval.best_threshold`).

    Returns
    -------
    pl.DataFrame
        ``*by, threshold, precision, recall, <measure>`` (``expected_cost`` with ``costs=``).

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    >>> out = fed.best_threshold(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")
    >>> out["threshold"].item()
    0.4
    """
    return _curve(
        _thresholds.best_threshold,
        data,
        truth,
        score,
        by,
        weight,
        client,
        split_every,
        measure=measure,
        beta=beta,
        costs=costs,
        p=p,
        min_recall=min_recall,
        min_precision=min_precision,
        max_fpr=max_fpr,
        pos_label=pos_label,
    )


def cost_lines(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """One cost line per ROC point (figure 2.5, eq 2.25), on Dask (see
    :func:`frameeval.cost_lines`).

    Returns
    -------
    pl.DataFrame
        ``*by, threshold, p_cost, norm_cost``.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    >>> fed.cost_lines(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height
    10
    """
    return _curve(
        _curves.cost_lines, data, truth, score, by, weight, client, split_every, pos_label=pos_label
    )


def cost_curve(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """The cost curve (lower envelope of the cost lines, figure 2.5, eqs 2.24–2.25), on Dask
    (see :func:`frameeval.cost_curve`).

    Returns
    -------
    pl.DataFrame
        ``*by, p_cost, norm_cost``; one row of nulls for a group with one class.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    >>> fed.cost_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").rows()
    [(0.0, 0.0), (0.5, 0.25), (1.0, 0.0)]
    """
    return _curve(
        _curves.cost_curve, data, truth, score, by, weight, client, split_every, pos_label=pos_label
    )


def expected_total_cost(
    data: Any,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """Expected total cost, the area under the cost curve (eq 2.24, figure 2.5), on Dask (see
    :func:`frameeval.expected_total_cost`).

    Returns
    -------
    pl.DataFrame
        ``*by, expected_total_cost``; null for a group with one class.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    >>> fed.expected_total_cost(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").item()
    0.125
    """
    return _curve(
        _curves.expected_total_cost,
        data,
        truth,
        score,
        by,
        weight,
        client,
        split_every,
        pos_label=pos_label,
    )


# ---------------------------------------------------------------------------------------------
# public functions: shuffle by key
# ---------------------------------------------------------------------------------------------
def contingency_table(
    data: Any,
    truth: str,
    pred: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    instance: str = "instance",
    by: Keys = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """The contingency table of two classifiers on the same test instances (Table 2.4), on Dask.

    The rows are shuffled by ``*by, instance`` so that both learners' predictions of an
    instance meet in one partition; each partition is paired and counted with the
    single-machine code, and the per-group counts are summed in a tree.

    Parameters
    ----------
    data
        A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them (read with
        ``dask.dataframe.read_parquet`` and Arrow dtypes).
    truth, pred, a, b, learner, instance, by
        As in :func:`frameeval.contingency_table`.
    client, split_every
        As in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, a, b, cell, b_correct, a_correct, count``, identical to
        :func:`frameeval.contingency_table`: four rows per group — ``cell`` ``"e00"`` (both
        correct), ``"e01"`` (b correct, a wrong), ``"e10"`` (b wrong, a correct), ``"e11"``
        (both wrong); ``b_correct`` and ``a_correct`` spell the cell out; ``count`` is the
        number of instances (Int64, zero cells included). Sorted by keys and cell.

    Notes
    -----
    The checks and their messages are those of one machine. A null ``instance`` and duplicate
    (instance, learner) rows are found per partition after the shuffle (a partition holds
    every row of its instances); label checks (null, non-integral float), learners without
    rows, unpaired instances (their number and the first five) and two truths for one
    instance are merged counts, enforced on the client in that order. When several instances
    have two truths, the smallest is named (one machine names the first it meets).

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"learner": ["A"] * 3 + ["B"] * 3, "instance": [1, 2, 3] * 2,
    ...                     "y": [1, 0, 1] * 2, "p": [1, 0, 0, 1, 1, 0]})
    >>> out = fed.contingency_table(dd.from_pandas(pdf, npartitions=2), "y", "p", a="A", b="B")
    >>> out.select("cell", "count").rows()
    [('e00', 1), ('e01', 0), ('e10', 1), ('e11', 1)]
    """
    func = "contingency_table"
    counts, keys = _pairs(
        data,
        func,
        _contingency_table,
        {},
        truth=truth,
        pred=pred,
        a=a,
        b=b,
        learner=learner,
        instance=instance,
        by=by,
        client=client,
        split_every=split_every,
    )
    return collect(_table(counts, keys))


def mcnemar(
    data: Any,
    truth: str,
    pred: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    instance: str = "instance",
    by: Keys = None,
    exact: bool = False,
    alpha: float = 0.05,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """McNemar's test of two classifiers on the same test set (§2.4.3, eq 2.33), on Dask.

    The cells of Table 2.4 are counted as in :func:`contingency_table` (shuffle by
    ``*by, instance``, count per partition, sum in a tree); the test is then computed from the
    merged counts by the single-machine code of :func:`frameeval.mcnemar`.

    Parameters
    ----------
    data
        A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them.
    truth, pred, a, b, learner, instance, by, exact, alpha
        As in :func:`frameeval.mcnemar`.
    client, split_every
        As in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, a, b, e00, e01, e10, e11, statistic, df, p_value, critical_value, alpha,
        reject, better``, identical to :func:`frameeval.mcnemar`: the cells of Table 2.4;
        ``statistic`` τ_χ² = (|e01 − e10| − 1)² / (e01 + e10) with ``df`` = 1 (or, with
        ``exact=True``, min(e01, e10) with ``df`` null); ``p_value``; ``critical_value``
        (χ²₁ at α, or the largest rejecting count); ``alpha``; ``reject``; ``better`` — the
        learner with fewer errors when rejected, else null. Sorted by keys.

    Notes
    -----
    Checks as in :func:`contingency_table`. The cells are integer counts, so every column is
    bit-identical to the single-machine result.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"learner": ["A"] * 4 + ["B"] * 4, "instance": [1, 2, 3, 4] * 2,
    ...                     "y": [1, 0, 1, 1] * 2, "p": [1, 0, 1, 0, 0, 1, 0, 0]})
    >>> out = fed.mcnemar(dd.from_pandas(pdf, npartitions=2), "y", "p", a="A", b="B")
    >>> out.select("e01", "e10", "statistic", "df").row(0)
    (0, 3, 1.3333333333333333, 1)
    """
    func = "mcnemar"
    counts, keys = _pairs(
        data,
        func,
        _mcnemar,
        {"exact": exact, "alpha": alpha},
        truth=truth,
        pred=pred,
        a=a,
        b=b,
        learner=learner,
        instance=instance,
        by=by,
        client=client,
        split_every=split_every,
    )
    return collect(_test(counts, keys, exact, float(alpha)))


def bootstrap_replicates(
    data: Any,
    measure: pl.Expr | Sequence[pl.Expr],
    *,
    by: Keys = None,
    instance: str | None = None,
    n: int = 1000,
    stratify: str | None = None,
    seed: int = 0,
    batch_size: int | None = None,
    client: Any = None,
) -> pl.DataFrame:
    """Bootstrap replicates of any measure, per group, on Dask: the rows are shuffled by the
    ``by`` keys and :func:`frameeval.bootstrap_replicates` runs on each partition.

    Parameters
    ----------
    data
        A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them.
    measure, by, n, stratify, seed, batch_size
        As in :func:`frameeval.bootstrap_replicates`.
    instance
        The resampling unit, unique within each group: **required** here (see Notes).
    client
        As in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, replicate`` and one Float64 column per measure (the measure on replicate
        ``replicate`` = 1…n of the group, null where undefined), sorted by keys and replicate:
        equal to :func:`frameeval.bootstrap_replicates` on all rows.

    Notes
    -----
    A group's draws depend only on the seed, the replicate, and the group's units in
    ``instance`` order (a counter-based SplitMix64 hash), so running each group in another
    process gives the same replicates. Without ``instance=`` the units are taken in row order,
    which the shuffle does not keep: it is required (``InvalidParameterError``). Without
    ``by=`` all rows form one group and go to one partition. The checks (null or duplicate
    ``instance``, null ``stratify``…) run per partition, where every group is whole, and raise
    as on one machine.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval as fe, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"g": ["a", "a", "a", "b", "b", "b"], "row": [1, 2, 3, 1, 2, 3],
    ...                     "y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> reps = fed.bootstrap_replicates(dd.from_pandas(pdf, npartitions=2),
    ...                                 fe.accuracy("y", "p"), by="g", instance="row", n=3)
    >>> reps.columns, reps.height
    (['g', 'replicate', 'accuracy'], 6)
    """
    return _bootstrap(
        data,
        "bootstrap_replicates",
        measure,
        {"n": n, "seed": seed, "batch_size": batch_size},
        by=by,
        instance=instance,
        stratify=stratify,
        client=client,
    )


def bootstrap_ci(
    data: Any,
    measure: pl.Expr | Sequence[pl.Expr],
    *,
    by: Keys = None,
    instance: str | None = None,
    n: int = 1000,
    level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    stratify: str | None = None,
    seed: int = 0,
    batch_size: int | None = None,
    client: Any = None,
) -> pl.DataFrame:
    """Bootstrap confidence intervals for any measure, per group, on Dask: the rows are shuffled
    by the ``by`` keys and :func:`frameeval.bootstrap_ci` runs on each partition.

    Parameters
    ----------
    data
        A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them.
    measure, by, n, level, method, stratify, seed, batch_size
        As in :func:`frameeval.bootstrap_ci`.
    instance
        The resampling unit, unique within each group: **required** here (see
        :func:`bootstrap_replicates`).
    client
        As in :func:`confusion_matrix`.

    Returns
    -------
    pl.DataFrame
        ``*by, metric, estimate, bias, std_error, lower, upper, level, method,
        n_replicates``, one row per group and measure, sorted by keys and then in the order of
        ``measure``, as :func:`frameeval.bootstrap_ci`: ``estimate`` θ̂ is the measure on the
        group; ``bias`` = mean(θ*) − θ̂ and ``std_error`` = sd(θ*) over the replicates θ*;
        ``lower``, ``upper`` the percentile or BCa interval at ``level``; ``n_replicates``
        the replicates where the measure was defined.

    Notes
    -----
    The replicates are those of one machine (see :func:`bootstrap_replicates`), so the
    intervals are equal to :func:`frameeval.bootstrap_ci` on all rows — bit for bit wherever
    the measure sums integers (accuracy, F1, AUC…); a measure that sums non-integral floats
    (``pl.col("loss").mean()``) sees a group's rows in another order after the shuffle, so
    its estimate can differ in the last bit.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval as fe, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"g": ["a", "a", "a", "b", "b", "b"], "row": [1, 2, 3, 1, 2, 3],
    ...                     "y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> ci = fed.bootstrap_ci(dd.from_pandas(pdf, npartitions=2), fe.accuracy("y", "p"),
    ...                       by="g", instance="row", n=200, seed=1)
    >>> ci.select("g", "metric", "estimate", "n_replicates").rows()
    [('a', 'accuracy', 0.6666666666666666, 200), ('b', 'accuracy', 0.6666666666666666, 200)]
    """
    return _bootstrap(
        data,
        "bootstrap_ci",
        measure,
        {"n": n, "level": level, "method": method, "seed": seed, "batch_size": batch_size},
        by=by,
        instance=instance,
        stratify=stratify,
        client=client,
    )
