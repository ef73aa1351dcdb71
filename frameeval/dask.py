"""Many machines: the frame functions on a Dask cluster, with the single-machine numbers.

Optional backend (``pip install 'frameeval[dask]'``, which brings ``dask[distributed]``). Each
function here has the signature of its namesake in :mod:`frameeval` plus ``client=``, and takes
either a ``dask.dataframe.DataFrame`` or Parquet paths (a path, a glob or a list of them; each one
is one task, read on the worker with ``pl.scan_parquet`` and the streaming engine).

How it computes, in three steps:

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

Exactness: the merged counts are integers (or the weight sums), so confusion counts, ROC / P-R
points, AUC, break-even points, best thresholds, cost curves and every count-valued column are
bit-identical to the single-machine result. Columns that average non-integral ratios over rows
in an unspecified order (the macro / weighted averages of :func:`classification_report` and
:func:`macro_micro`, average precision and the P-R area of :func:`ranking_report`) can differ
in the last bit — as two single-machine runs of those functions can. With float ``weight=`` the
partial sums are added in a different order than on one machine, so weighted results agree to
rounding (exact for integer-valued weights).

Size: the merged table has one row per group × distinct (label, prediction) or per group ×
distinct (label, score); it must fit on the client. For continuous scores that is up to one
row per input row: round the scores (e.g. to 6 digits) when the data are larger than the client.

Not offered here: functions that need each instance's rows together (McNemar, bias–variance,
bootstrap intervals, ``multiclass_roc_auc`` with its joint score columns); shuffle by the
instance key with Dask and call the single-machine function per partition instead.

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
from typing import Any

import polars as pl

try:
    from dask import delayed
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "frameeval.dask needs the optional dependency dask[distributed]; "
        "install it with: pip install 'frameeval[dask]'"
    ) from err

import frameeval.confusion as _confusion
import frameeval.curves as _curves
from frameeval._frame import as_keys, collect
from frameeval._typing import Keys
from frameeval._validate import Checks, label_dtype, label_expr
from frameeval.exceptions import InvalidParameterError

__all__ = [
    "best_threshold",
    "break_even_point",
    "classification_report",
    "confusion_matrix",
    "cost_curve",
    "cost_lines",
    "cost_sensitive_error",
    "expected_total_cost",
    "macro_micro",
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


def _tasks(data: Any, func: str) -> tuple[list[Any], pl.Schema]:
    """One delayed partition (or path) per task, and the schema of the data."""
    if isinstance(data, str | os.PathLike):
        data = [data]
    if isinstance(data, list | tuple):
        paths = [os.fspath(p) for p in data]
        if not paths:
            raise InvalidParameterError(f"{func}(): data must name at least one path, got [].")
        return paths, pl.scan_parquet(paths[0]).collect_schema()
    if hasattr(data, "to_delayed") and hasattr(data, "_meta"):
        return list(data.to_delayed()), pl.from_pandas(data._meta).schema
    raise InvalidParameterError(
        f"{func}(): data must be a dask DataFrame or Parquet path(s), got {type(data).__name__}."
    )


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
    if not (isinstance(split_every, int) and split_every >= 2):
        raise InvalidParameterError(
            f"{func}(): split_every must be an int >= 2, got {split_every!r}."
        )
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
    while len(level) > 1:  # loop-ok: ⌈log_k(partitions)⌉ levels of the reduction tree
        level = [
            delayed(_combine)(level[i : i + split_every], columns)
            for i in range(0, len(level), split_every)
        ]
    merged = level[0].compute() if client is None else client.compute(level[0]).result()
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
    measure: str = "f1",
    beta: float = 1.0,
    pos_label: Any = None,
    weight: str | None = None,
    client: Any = None,
    split_every: int = _SPLIT,
) -> pl.DataFrame:
    """The F1- (or Fβ-) maximising threshold per group (eqs 2.10–2.11), on Dask (see
    :func:`frameeval.best_threshold`).

    Returns
    -------
    pl.DataFrame
        ``*by, threshold, precision, recall, f1`` (``fbeta`` for ``measure="fbeta"``).

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
    >>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    >>> out = fed.best_threshold(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")
    >>> out["threshold"].item()
    0.4
    """
    return _curve(
        _curves.best_threshold,
        data,
        truth,
        score,
        by,
        weight,
        client,
        split_every,
        measure=measure,
        beta=beta,
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
