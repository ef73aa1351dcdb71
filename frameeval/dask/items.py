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

from typing import Any

import polars as pl

import frameeval.items as _items
from frameeval._frame import as_keys
from frameeval.dask._forms import dask_function
from frameeval.dask._shuffle import dask_frame, per_group
from frameeval.items.compare import adjust_pairs

__all__ = ["compare", "means"]


def _run(
    func: str, arguments: dict[str, Any], client: Any, **per_part: Any
) -> tuple[pl.DataFrame, list[str]]:
    """Shuffle the needed columns by the ``by`` keys, run ``frameeval.items.<func>`` per
    partition (with the arguments updated by ``per_part``) and concatenate the results
    (unsorted) — and the key columns."""
    data, score = arguments.pop("data"), arguments.pop("score")
    ddf, schema = dask_frame(data, func)
    single = getattr(_items, func)
    # schema and parameter checks exactly as on one machine: no data read
    single(pl.LazyFrame(schema=schema), score, **arguments)
    keys = as_keys(arguments["by"])
    roles = [arguments[r] for r in ("model", "item", "cluster", "sample")]
    columns = [*keys, *(r for r in roles if r is not None), score]
    kwargs = {**arguments, **per_part}
    out = per_group(
        ddf, schema, func, single, [score], kwargs, keys=keys, columns=columns, client=client
    )
    return out, keys


def _means(arguments: dict[str, Any], client: Any, _: Any) -> pl.DataFrame:
    out, keys = _run("means", arguments, client)
    return out.sort([*keys, arguments["model"]], nulls_last=True)


def _compare(arguments: dict[str, Any], client: Any, _: Any) -> pl.DataFrame:
    out, keys = _run("compare", arguments, client, adjust=None)
    pairs = out.drop("p_adjusted", "alpha", "reject").lazy()
    return adjust_pairs(pairs, keys, arguments["adjust"], arguments["alpha"]).collect()


means = dask_function(
    "means",
    __name__,
    _items.means,
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
    """,
    _means,
    split_every=False,
)

compare = dask_function(
    "compare",
    __name__,
    _items.compare,
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
    """,
    _compare,
    split_every=False,
)
