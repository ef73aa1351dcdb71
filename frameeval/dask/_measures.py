"""The Dask form of ``fe.measures``: the count table (label and ranking measures) through the
mergeable path, and the sums of the other measures.
"""

from __future__ import annotations

from typing import Any

import polars as pl
from dask import delayed

import frameeval.measure_set as _measure_set
from frameeval._frame import as_keys, collect
from frameeval._validate import Checks
from frameeval.dask._merge import (
    check_split,
    combine_partials,
    compute_on,
    partition_tasks,
    run_merge,
    scan,
    tree_reduce,
)
from frameeval.dask._shuffle import dask_frame, per_group
from frameeval.measure_set import assemble, chosen_measures, sum_statistics, sum_values

__all__ = ["run_measures"]


# ---------------------------------------------------------------------------------------------
# the Dask form of fe.measures: count table (label and ranking measures) and sums (the rest)
# ---------------------------------------------------------------------------------------------
def _sum_statistics(lf: pl.LazyFrame, spec: dict[str, Any]) -> tuple[Checks, list[pl.Expr]]:
    """:func:`frameeval.measure_set.sum_statistics` of ``lf`` for the call ``spec``."""

    return sum_statistics(
        None, lf, False, "measures", spec["truth"], spec["pred"], spec["score"], spec["keys"],
        spec["weight"], spec["measures"], spec["pos_label"],
    )  # fmt: skip


def _sums_partial(part: Any, spec: dict[str, Any]) -> pl.DataFrame:
    """Step 1 (on a worker): Σ w·term per measure, Σ w and the check counts, per group."""
    lf = scan(part)
    checks, sums = _sum_statistics(lf, spec)
    keys = spec["keys"]
    stats = (
        lf.group_by(keys).agg(*sums, *checks.aggs()) if keys else lf.select(*sums, *checks.aggs())
    )
    return stats.collect(engine="streaming")


def _sums(
    data: Any, arguments: dict[str, Any], chosen: list[Any], client: Any, split_every: int
) -> pl.LazyFrame:
    """The sum measures: per-partition sums, summed in a tree, checks enforced, formulas."""

    tasks, schema = partition_tasks(data, "measures")
    keys = as_keys(arguments["by"])
    spec = {k: arguments[k] for k in ("truth", "pred", "score", "weight", "pos_label")}
    spec |= {"keys": keys, "measures": chosen}
    level = [delayed(_sums_partial)(task, spec) for task in tasks]
    merged = compute_on(tree_reduce(level, combine_partials, split_every, keys), client)
    checks, _ = _sum_statistics(pl.LazyFrame(schema=schema), spec)
    return checks.enforce(merged.lazy(), keys).select(*keys, *sum_values(chosen))


def _shuffled_part(
    data: Any, arguments: dict[str, Any], chosen: list[Any], client: Any
) -> pl.DataFrame:
    """Measures that need all rows of a group (the median absolute error): the needed columns
    shuffled by the ``by`` keys, the single-machine ``fe.measures`` per partition, concatenated.
    Exact: every group is computed on one partition, from all its rows."""
    ddf, schema = dask_frame(data, "measures")
    keys = as_keys(arguments["by"])
    roles = [arguments["truth"], arguments["pred"], arguments["weight"]]
    columns = [*keys, *(c for c in roles if c is not None)]
    single = {**arguments, "measures": chosen, "score": None, "long": False}
    return per_group(
        ddf, schema, "measures", _measure_set.measures, [], single, keys=keys, columns=columns,
        client=client,
    )  # fmt: skip


def run_measures(arguments: dict[str, Any], client: Any, split_every: int) -> pl.DataFrame:
    """``fe.measures`` on Dask: label and ranking measures from the merged count table of
    ``*by, truth, pred, score`` (one pass, then the single-machine function with the counts as
    ``weight=``); probability and regression measures from merged sums, mins and maxes (a
    second pass); the median absolute error, which does not merge, from whole groups after a
    shuffle by the ``by`` keys (exact; a third pass)."""

    func = "measures"
    data = arguments.pop("data")
    check_split(split_every, func)
    _, schema = partition_tasks(data, func)
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
        out = run_merge(
            data, func, _measure_set.measures, single,
            by=keys, extra_keys=(),
            labels_of=[(truth, "truth"), *([(pred, "pred")] if label else [])],
            numbers=[(score, "score")] if ranking else [],
            weight=arguments["weight"], labels=None, client=client, split_every=split_every,
        )  # fmt: skip
        parts.append(out.lazy())
    # a median is not a sum: its measures run on whole groups after a shuffle by the keys
    shuffled = [m for m in summed if any(s.merge == "median" for s in (m.stats or {}).values())]
    summed = [m for m in summed if not any(m is s for s in shuffled)]
    if summed:
        parts.append(_sums(data, arguments, summed, client, split_every))
    if shuffled:
        parts.append(_shuffled_part(data, arguments, shuffled, client).lazy())
    return collect(assemble(parts, keys, names, arguments["long"]))
