"""Per-item results on a Dask cluster: :func:`means` and :func:`compare` of :mod:`frameeval.items`.

Shuffle by key (see :mod:`frameeval.dask`): the needed columns are shuffled by the ``by`` keys,
so each partition holds whole groups (benchmarks) — without ``by=`` all rows go to one
partition — and the single-machine function runs on each partition (converted to Polars). The
per-partition results are concatenated and sorted by the keys. :func:`compare` adjusts for
multiplicity over *all* pairs × groups: it runs per partition without adjustment and then
computes ``p_adjusted`` and ``reject`` over the concatenated pairs with the single-machine code
(:func:`frameeval.items.compare.adjust_pairs`), so the family is the one of one machine.

``fe.items.means`` and ``fe.items.compare`` hand a Dask DataFrame to these forms themselves (an
extension point served at the top of the package), on Dask's default scheduler — the active
``distributed.Client`` if there is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask
import polars as pl
from dask import delayed

import frameeval.items as _items
from frameeval._frame import as_keys
from frameeval._typing import Keys
from frameeval.dask._merge import not_empty
from frameeval.dask._shuffle import dask_frame, polars_part, shuffled_parts
from frameeval.items.adjust import Adjust
from frameeval.items.compare import adjust_pairs
from frameeval.items.means import Method

__all__ = ["compare", "means"]


def _part(part: Any, spec: dict[str, Any]) -> pl.DataFrame | None:
    """The single-machine function on one partition (whole groups); None for an empty one."""
    frame = polars_part(part, spec["schema"])
    if spec["keys"] and frame.height == 0:
        return None
    result: pl.DataFrame = getattr(_items, spec["func"])(frame, spec["score"], **spec["kwargs"])
    return result


def _run(
    data: Any,
    func: str,
    score: str,
    kwargs: dict[str, Any],
    roles: Sequence[str | None],
    client: Any,
    per_part: dict[str, Any],
) -> tuple[pl.DataFrame, list[str]]:
    """Shuffle the needed columns by the ``by`` keys, run ``frameeval.items.<func>`` per
    partition (with ``kwargs`` updated by ``per_part``) and concatenate the results (unsorted)
    — and the key columns."""
    ddf, schema = dask_frame(data, func)
    # schema and parameter checks exactly as on one machine: no data read
    getattr(_items, func)(pl.LazyFrame(schema=schema), score, **kwargs)
    keys = as_keys(kwargs["by"])
    columns = list(dict.fromkeys([*keys, *(r for r in roles if r is not None), score]))
    spec = {
        "func": func,
        "score": score,
        "schema": pl.Schema({c: schema[c] for c in columns}),
        "kwargs": {**kwargs, **per_part},
        "keys": keys,
    }
    tasks = [delayed(_part)(part, spec) for part in shuffled_parts(ddf, keys, columns)]
    results = dask.compute(*tasks) if client is None else client.gather(client.compute(tasks))
    frames = [r for r in results if r is not None]
    not_empty(len(frames), func)
    return pl.concat(frames, how="vertical_relaxed"), keys


def means(
    data: Any,
    score: str,
    *,
    model: str = "model",
    item: str = "item",
    by: Keys = None,
    cluster: str | None = None,
    sample: str | None = None,
    level: float = 0.95,
    method: Method = "auto",
    at_samples: int | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    client: Any = None,
) -> pl.DataFrame:
    """:func:`frameeval.items.means` on a Dask DataFrame (or Parquet paths): shuffled by the
    ``by`` keys, the single-machine function on each partition.

    Same parameters, output columns and errors as :func:`frameeval.items.means`, plus
    ``client`` (a ``distributed.Client``; None: Dask's default scheduler). Returns a
    ``pl.DataFrame`` sorted by ``*by, <model>``.

    Every number is computed from one group's rows, so it equals the single-machine result;
    float sums can differ in the last bit (the rows of a group reach a partition in another
    order). ``method="bootstrap"`` gives the same replicates: a cluster's Poisson weight hashes
    (seed, group, cluster, replicate), not its position. A group must fit on one worker.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask.items as fedi
    >>> pdf = pd.DataFrame({"bench": ["x"] * 6 + ["y"] * 6, "model": (["a"] * 3 + ["b"] * 3) * 2,
    ...                     "item": [1, 2, 3] * 4, "correct": [1, 0, 1, 1, 1, 1] * 2})
    >>> out = fedi.means(dd.from_pandas(pdf, npartitions=2), "correct", by="bench",
    ...                  method="clt")
    >>> out.select("bench", "model", "mean").rows()
    [('x', 'a', 0.6666666666666666), ('x', 'b', 1.0), ('y', 'a', 0.6666666666666666), ('y', 'b', 1.0)]
    """
    kwargs = {k: v for k, v in locals().items() if k not in ("data", "score", "client")}
    roles = [model, item, cluster, sample]
    out, keys = _run(data, "means", score, kwargs, roles, client, {})
    return out.sort([*keys, model], nulls_last=True)


def compare(
    data: Any,
    score: str,
    *,
    model: str = "model",
    item: str = "item",
    by: Keys = None,
    cluster: str | None = None,
    sample: str | None = None,
    alpha: float = 0.05,
    adjust: Adjust | None = "holm",
    client: Any = None,
) -> pl.DataFrame:
    """:func:`frameeval.items.compare` on a Dask DataFrame (or Parquet paths): shuffled by the
    ``by`` keys, the pairs of each group on its partition, the multiplicity adjustment over all
    pairs × groups on the client.

    Same parameters, output columns and errors as :func:`frameeval.items.compare`, plus
    ``client`` (a ``distributed.Client``; None: Dask's default scheduler). Returns a
    ``pl.DataFrame`` sorted by ``*by, a, b``.

    Each partition runs :func:`frameeval.items.compare` with ``adjust=None``; the concatenated
    pairs (one row per pair: small) then get ``p_adjusted``, ``alpha`` and ``reject`` from
    :func:`frameeval.items.compare.adjust_pairs`, the single-machine step, over the whole
    family. The p-values are computed from one group's rows, so they equal the single-machine
    ones (float sums to the last bit) and the counts are identical.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask.items as fedi
    >>> pdf = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "item": [1, 2, 3, 4] * 2,
    ...                     "score": [0.9, 0.7, 0.8, 0.6, 0.8, 0.5, 0.8, 0.4]})
    >>> out = fedi.compare(dd.from_pandas(pdf, npartitions=2), "score")
    >>> out.select("a", "b", pl.col("difference").round(4), "test").rows()
    [('a', 'b', 0.125, 'paired t')]
    """
    kwargs = {k: v for k, v in locals().items() if k not in ("data", "score", "client")}
    roles = [model, item, cluster, sample]
    out, keys = _run(data, "compare", score, kwargs, roles, client, {"adjust": None})
    pairs = out.drop("p_adjusted", "alpha", "reject").lazy()
    return adjust_pairs(pairs, keys, adjust, alpha).collect()
