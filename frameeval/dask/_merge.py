"""Mergeable statistics in three steps: partial counts per partition (on the workers), a
tree reduction of the partials, and the single-machine function on the merged counts (on the
client); see :mod:`frameeval.dask`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl
from dask import delayed

from frameeval._frame import as_keys, collect
from frameeval._inputs import Column, Inputs
from frameeval._params import Number
from frameeval._typing import Keys
from frameeval._validate import Checks, check_not_empty_eager, label_dtype, label_expr
from frameeval.exceptions import InvalidParameterError

__all__ = [
    "CHECK",
    "COUNT",
    "check_split",
    "combine_partials",
    "compute_on",
    "enforce_checks",
    "not_empty",
    "parquet_paths",
    "partial_counts",
    "partition_tasks",
    "row_checks",
    "run_merge",
    "scan",
    "tree_reduce",
]


COUNT = "__fe_count"
CHECK = "__frameeval_check_"


# ---------------------------------------------------------------------------------------------
# the three steps
# ---------------------------------------------------------------------------------------------
def row_checks(
    func: str,
    schema: pl.Schema,
    labels_of: Sequence[tuple[str, str]],
    numbers: Sequence[tuple[str, str]],
    weight: str | None,
    labels: Sequence[Any] | None,
) -> Checks:
    """The row checks of the single-machine function, in its order (group-scoped ones only;
    presence of ``pos_label`` is checked exactly by the final step)."""
    inputs = Inputs(
        *(Column(role, "any", "label") for _, role in labels_of),
        *(Column(role, "any", "finite") for _, role in numbers),
        Column("weight", "any", "weight"),  # its dtype checked by the client
    )
    names = {role: column for column, role in [*labels_of, *numbers]}
    checks = inputs.compile(schema, func, weight=weight, **names)
    if labels is not None:
        for column, role in labels_of:
            checks.within(
                column, role, labels, label_expr(column, schema), label_dtype(schema, column)
            )
    return checks


def scan(part: Any) -> pl.LazyFrame:
    if isinstance(part, str | os.PathLike):
        return pl.scan_parquet(os.fspath(part))
    if isinstance(part, pl.DataFrame):
        return part.lazy()
    return pl.from_pandas(part).lazy()  # a partition of a dask DataFrame


def partial_counts(part: Any, spec: dict[str, Any]) -> pl.DataFrame:
    """Step 1 (on a worker): counts per group × raw label (× score) value, with check counts."""
    lf = scan(part)
    schema = lf.collect_schema()
    checks = row_checks(
        spec["func"], schema, spec["labels_of"], spec["numbers"], spec["weight"], spec["labels"]
    )
    weight = spec["weight"]
    count = pl.col(weight).cast(pl.Float64).sum() if weight else pl.len().cast(pl.Int64)
    return (
        lf.group_by(spec["columns"])
        .agg(count.alias(COUNT), *checks.aggs())
        .collect(engine="streaming")
    )


def combine_partials(parts: list[pl.DataFrame], columns: list[str]) -> pl.DataFrame:
    """Step 2: merge partial tables on ``columns`` (sums of the counts, sums and check counts;
    min for a check's smallest offending value and a ``__fe_min_`` statistic, max for a
    ``__fe_max_`` one: the regression measures' smallest / largest values)."""
    table = pl.concat(parts, how="vertical_relaxed")
    merge = [
        pl.col(c).min()
        if c.startswith(CHECK) and c.endswith("_value") or c.startswith("__fe_min_")
        else pl.col(c).max()
        if c.startswith("__fe_max_")
        else pl.col(c).sum()
        for c in table.columns
        if c not in columns
    ]
    return table.group_by(columns).agg(*merge) if columns else table.select(*merge)


def parquet_paths(data: Any, func: str) -> list[str] | None:
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


def partition_tasks(data: Any, func: str) -> tuple[list[Any], pl.Schema]:
    """One delayed partition (or path) per task, and the schema of the data."""
    paths = parquet_paths(data, func)
    if paths is not None:
        return paths, pl.scan_parquet(paths[0]).collect_schema()
    return list(data.to_delayed()), pl.from_pandas(data._meta).schema


_SPLIT_EVERY = Number(low=2, integer=True, text="an int >= 2")


def check_split(split_every: Any, func: str) -> None:
    _SPLIT_EVERY(func, "split_every", split_every)


def tree_reduce(level: list[Any], combine: Callable[..., Any], split_every: int, *args: Any) -> Any:
    """Step 2: the tree of ``combine`` tasks, ``split_every`` partials at a time."""
    while len(level) > 1:  # loop-ok: ⌈log_k(partitions)⌉ levels of the reduction tree
        level = [
            delayed(combine)(level[i : i + split_every], *args)
            for i in range(0, len(level), split_every)
        ]
    return level[0]


def compute_on(task: Any, client: Any) -> Any:
    return task.compute() if client is None else client.compute(task).result()


def run_merge(
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
    check_split(split_every, func)
    tasks, schema = partition_tasks(data, func)
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
    level = [delayed(partial_counts)(task, spec) for task in tasks]
    merged = compute_on(tree_reduce(level, combine_partials, split_every, columns), client)
    not_empty(merged.height, func)  # every row lands in some group: no groups, no rows
    check_columns = [c for c in merged.columns if c.startswith(CHECK)]
    enforced = collect(enforce_checks(merged, func, schema, spec, keys)).drop(
        check_columns, strict=False
    )
    return single(enforced, **kwargs, by=by, weight=COUNT)


def enforce_checks(
    merged: pl.DataFrame, func: str, schema: pl.Schema, spec: dict[str, Any], keys: list[str]
) -> pl.LazyFrame:
    """Step 3a: the single-machine checks' rules applied to the merged check counts."""
    checks = row_checks(
        func, schema, spec["labels_of"], spec["numbers"], spec["weight"], spec["labels"]
    )
    return checks.enforce(merged.lazy(), keys)


def not_empty(rows: int, func: str) -> None:
    """The single-machine EmptyFrameError for data without rows (``range`` has the ``len``)."""
    check_not_empty_eager(range(rows), True, pl.LazyFrame(), func)
