"""Shuffle by key: the functions that need all rows of an instance (McNemar) or of a group
(the bootstrap) together in one partition; see :mod:`frameeval.dask`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import dask
import polars as pl
from dask import delayed

import frameeval.uncertainty as _uncertainty
from frameeval._frame import as_keys, collect
from frameeval._roles import resolve as resolve_roles
from frameeval.compare.mcnemar import (
    PairSpec,
    merge_pair_partials,
    pair_partial,
    pairs_from_partials,
)
from frameeval.dask._merge import check_split, compute_on, not_empty, parquet_paths, tree_reduce
from frameeval.exceptions import InvalidParameterError
from frameeval.uncertainty.bootstrap import parse_measures

__all__ = ["by_keys", "dask_frame", "per_group", "run_bootstrap", "run_pairs"]


# ---------------------------------------------------------------------------------------------
# shuffle by key: the functions that need all rows of an instance (or of a group) together
# ---------------------------------------------------------------------------------------------
def dask_frame(data: Any, func: str) -> tuple[Any, pl.Schema]:
    """``data`` as a dask DataFrame (Parquet read with Arrow dtypes, so the partitions convert
    to the Polars dtypes of the files) and its schema."""
    paths = parquet_paths(data, func)
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


def _pairs_partial(part: Any, spec: PairSpec) -> tuple[pl.DataFrame, int]:
    """Step 1 after the shuffle (on a worker): per group, the mergeable McNemar statistics of a
    partition holding whole instances, and the partition's row count."""
    frame = _polars(part, spec.schema)
    return collect(pair_partial(frame.lazy(), spec)), frame.height


def _pairs_combine(
    parts: list[tuple[pl.DataFrame, int]], spec: PairSpec
) -> tuple[pl.DataFrame, int]:
    """Step 2: merge partial McNemar statistics (and add up the row counts)."""
    table = pl.concat([t for t, _ in parts], how="vertical_relaxed").lazy()
    return collect(merge_pair_partials(table, spec)), sum(rows for _, rows in parts)


def run_pairs(
    data: Any,
    func: str,
    single: Callable[..., Any],
    kwargs: dict[str, Any],
    client: Any,
    split_every: int,
) -> tuple[pl.LazyFrame, list[str]]:
    """``*keys, a, b, e00, e01, e10, e11`` of all rows: shuffle by ``*by, instance``, count per
    partition, tree-reduce, enforce the checks on the merged counts. ``kwargs`` are the
    call's arguments: ``truth, pred, a, b, learner, instance, by`` are taken out of it."""
    truth, pred, a, b, learner, instance, by = (
        kwargs.pop(k) for k in ("truth", "pred", "a", "b", "learner", "instance", "by")
    )
    check_split(split_every, func)
    ddf, schema = dask_frame(data, func)
    (learner,) = resolve_roles(
        pl.LazyFrame(schema=schema), func, [truth, pred, instance, by], learner=learner
    )
    # schema checks (missing column, dtype, parameters) exactly as on one machine: no data read
    pairing = {"a": a, "b": b, "learner": learner, "instance": instance}
    single(pl.LazyFrame(schema=schema), truth, pred, **pairing, by=by, **kwargs)
    keys = as_keys(by)
    columns = list(dict.fromkeys([*keys, instance, learner, truth, pred]))
    schema = pl.Schema({c: schema[c] for c in columns})
    spec = PairSpec(schema, func, truth, pred, a, b, learner, instance, keys)
    parts = _shuffled(ddf, [*keys, instance], columns)
    level = [delayed(_pairs_partial)(part, spec) for part in parts]
    merged, rows = compute_on(tree_reduce(level, _pairs_combine, split_every, spec), client)
    not_empty(rows, func)
    return pairs_from_partials(merged, spec), keys


def _group_part(part: Any, spec: dict[str, Any]) -> pl.DataFrame | None:
    """The single-machine function on one partition (whole groups); None for an empty one."""
    frame = _polars(part, spec["schema"])
    if spec["keys"] and frame.height == 0:
        return None
    result: pl.DataFrame = spec["single"](frame, *spec["args"], **spec["kwargs"])
    return result


def per_group(
    ddf: Any,
    schema: pl.Schema,
    func: str,
    single: Callable[..., Any],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    *,
    keys: list[str],
    columns: Sequence[str],
    client: Any,
) -> pl.DataFrame:
    """Shuffle the needed ``columns`` by ``keys`` (each partition then holds whole groups;
    without keys all rows go to one partition), run ``single(frame, *args, **kwargs)`` on each
    partition and concatenate the results (unsorted)."""
    columns = list(dict.fromkeys(columns))
    spec = {
        "schema": pl.Schema({c: schema[c] for c in columns}),
        "single": single,
        "args": list(args),
        "kwargs": kwargs,
        "keys": keys,
    }
    tasks = [delayed(_group_part)(part, spec) for part in _shuffled(ddf, keys, columns)]
    results = dask.compute(*tasks) if client is None else client.gather(client.compute(tasks))
    frames = [r for r in results if r is not None]
    not_empty(len(frames), func)
    return pl.concat(frames, how="vertical_relaxed")


def by_keys(out: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """``out`` sorted by the keys (a stable sort keeps each group's own order)."""
    return out.sort(keys, nulls_last=True, maintain_order=True) if keys else out


def run_bootstrap(data: Any, func: str, kwargs: dict[str, Any], client: Any) -> pl.DataFrame:
    """Shuffle by the ``by`` keys, run the single-machine function per partition, concatenate
    and sort by the keys (a stable sort keeps each group's own order)."""
    measure = kwargs.pop("measure")
    by, instance, stratify = kwargs["by"], kwargs["instance"], kwargs["stratify"]
    ddf, schema = dask_frame(data, func)
    single = getattr(_uncertainty, func)
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
    columns = [*keys, instance, *([stratify] if stratify else []), *measure_columns]
    out = per_group(
        ddf, schema, func, single, [measure], kwargs, keys=keys, columns=columns, client=client
    )
    return by_keys(out, keys)
