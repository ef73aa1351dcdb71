"""Subgroups on a Dask cluster: :func:`by_group` and :func:`gaps` of :mod:`frameeval.subgroups`.

Two ways, chosen as on one machine (see :mod:`frameeval.dask`):

* **Mergeable counts** — label measures (accuracy, selection rate, recall, FPR, the fairness
  criteria…), unweighted, without ``ci=``: each partition counts its rows per
  ``*by, *control, *sensitive, truth, pred`` cell with the sensitive columns' null-check counts
  (:func:`frameeval.subgroups.gaps.count_cells`, the single-machine pass); the partials are
  summed in a tree; the client enforces the checks and finishes with the single-machine code
  on the merged cells (:func:`frameeval.subgroups.gaps.from_cells`). No row moves.
* **Shuffle by key** — anything else (score measures such as AUC, ``weight=``, ``ci=``): the
  needed columns are shuffled by the ``*by, *control`` keys, so each partition holds every
  sensitive group of its keys (without keys all rows go to one partition), and the
  single-machine function runs per partition; the results are concatenated and sorted.

``ci=``: ``gaps`` draws each replicate by hashing (sensitive values, replicate, the row's rank
within its group by ``instance=``, seed), so with ``instance=`` (unique within each group) the
draws do not depend on the partitioning; without it the rank is the row order, which the
shuffle does not keep, so ``instance=`` is required. ``by_group``'s intervals are Wilson
intervals of counts when every measure is a share of counts (unweighted); others (bootstrap
intervals over rows in row order) are refused.

``fe.subgroups.by_group`` and ``fe.subgroups.gaps`` hand a Dask DataFrame to these forms
themselves (an extension point served at the top of the package), on Dask's default scheduler.
"""

from __future__ import annotations

import functools
from typing import Any

import polars as pl
from dask import delayed

import frameeval.subgroups as _subgroups
from frameeval._frame import as_keys
from frameeval.dask._forms import dask_function
from frameeval.dask._merge import (
    check_split,
    combine_partials,
    compute_on,
    not_empty,
    partition_tasks,
    scan,
    tree_reduce,
)
from frameeval.dask._shuffle import by_keys, dask_frame, per_group
from frameeval.exceptions import InvalidParameterError
from frameeval.subgroups.gaps import count_cells, counted_path, from_cells, needed_measures

__all__ = ["by_group", "gaps"]


def _cells_partial(part: Any, spec: dict[str, Any]) -> pl.DataFrame:
    """Step 1 (on a worker): the partition's rows per cell and its null-check counts."""
    lf = scan(part)
    return count_cells(
        lf, spec["truth"], spec["pred"], spec["keys"], spec["groups"], spec["func"]
    ).collect(engine="streaming")


def _counted(
    data: Any, func: str, arguments: dict[str, Any], client: Any, split_every: int
) -> pl.DataFrame:
    """The mergeable path: partial cell counts, a tree reduction, the single-machine finish."""
    tasks, _ = partition_tasks(data, func)
    keys = [*as_keys(arguments["by"]), *as_keys(arguments["control"])]
    groups = as_keys(arguments["sensitive"])
    truth, pred = arguments["truth"], arguments["pred"]
    spec = {"truth": truth, "pred": pred, "keys": keys, "groups": groups, "func": func}
    columns = [*keys, *groups, truth, pred]
    level = [delayed(_cells_partial)(task, spec) for task in tasks]
    merged = compute_on(tree_reduce(level, combine_partials, split_every, columns), client)
    not_empty(merged.height, func)
    return from_cells(func, merged, arguments)


def _shuffled(data: Any, func: str, arguments: dict[str, Any], client: Any) -> pl.DataFrame:
    """The shuffle path: the needed columns shuffled by ``*by, *control``, the single-machine
    function per partition, concatenated and sorted by the keys."""
    ddf, schema = dask_frame(data, func)
    keys = [*as_keys(arguments["by"]), *as_keys(arguments["control"])]
    roles = [arguments.get(r) for r in ("truth", "pred", "score", "weight", "instance")]
    columns = [*keys, *as_keys(arguments["sensitive"]), *(r for r in roles if r)]
    single = getattr(_subgroups, func)
    out = per_group(
        ddf, schema, func, single, [], arguments, keys=keys, columns=columns, client=client
    )
    return by_keys(out, keys)


def _run(func: str, arguments: dict[str, Any], client: Any, split_every: int) -> pl.DataFrame:
    data = arguments.pop("data")
    check_split(split_every, func)
    _, schema = partition_tasks(data, func)
    # schema and parameter checks exactly as on one machine: no data read (a lazy plan)
    getattr(_subgroups, func)(pl.LazyFrame(schema=schema), **arguments)
    needed = needed_measures(func, arguments["measures"], arguments["pred"], arguments["score"])
    ci = arguments["ci"]
    if ci is not None and func == "gaps" and arguments["instance"] is None:
        raise InvalidParameterError(
            f"{func}(): instance= must name each row's instance for ci= on Dask, got None.\n"
            "Hint: without it the bootstrap ranks a group's rows in row order, which the "
            "shuffle does not keep; pass a column unique within each group (e.g. a row id)."
        )
    if ci is not None and func == "by_group":
        bootstrapped = sorted(
            m.name for m in needed if m.proportion is None or arguments["weight"] is not None
        )
        if bootstrapped:
            raise InvalidParameterError(
                f"{func}(): ci= on Dask needs unweighted shares of counts (Wilson intervals), "
                f"got the bootstrapped measures {bootstrapped}.\nHint: compute the intervals "
                "on a Polars frame, or use gaps(ci=..., instance=...) on Dask."
            )
    if counted_path(arguments["pred"], arguments["score"], needed, arguments["weight"], ci):
        return _counted(data, func, arguments, client, split_every)
    return _shuffled(data, func, arguments, client)


by_group = dask_function(
    "by_group",
    __name__,
    _subgroups.by_group,
    """:func:`frameeval.subgroups.by_group` on a Dask DataFrame (or Parquet paths).

    Same parameters, output columns and errors as :func:`frameeval.subgroups.by_group`, plus
    ``client`` (a ``distributed.Client``; None: Dask's default scheduler) and ``split_every``
    (fan-in of the tree reduction, >= 2). Returns a ``pl.DataFrame`` sorted as on one machine.

    Label measures, unweighted, without ``ci=``: merged cell counts (no row moves; the values
    are bit-identical to one machine's). Otherwise: shuffled by ``*by, *control``, the
    single-machine function per partition (floats equal to rounding). ``ci=`` only for
    unweighted shares of counts (Wilson); other intervals raise ``InvalidParameterError``.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask.subgroups as feds
    >>> pdf = pd.DataFrame({"sex": ["F", "F", "F", "M", "M", "M"], "y": [1, 0, 1, 1, 0, 0],
    ...                     "p": [1, 0, 0, 1, 1, 0]})
    >>> feds.by_group(dd.from_pandas(pdf, npartitions=2), "y", "p", sensitive="sex",
    ...               measures=["recall"]).rows()
    [('F', 'recall', 0.5, 3, False), ('M', 'recall', 1.0, 3, False)]
    """,
    functools.partial(_run, "by_group"),
)

gaps = dask_function(
    "gaps",
    __name__,
    _subgroups.gaps,
    """:func:`frameeval.subgroups.gaps` on a Dask DataFrame (or Parquet paths).

    Same parameters, output columns and errors as :func:`frameeval.subgroups.gaps`, plus
    ``client`` and ``split_every`` (as in :func:`by_group`). Returns a ``pl.DataFrame``
    sorted as on one machine.

    Label measures, unweighted, without ``ci=``: merged cell counts (bit-identical values).
    Otherwise: shuffled by ``*by, *control``, the single-machine function per partition
    (floats equal to rounding). ``ci=`` needs ``instance=`` (unique within each group): the
    draws then hash the instance's rank, not the row's position, and are the single-machine
    draws; without it ``InvalidParameterError``.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd, frameeval.dask.subgroups as feds
    >>> pdf = pd.DataFrame({"sex": ["F", "F", "F", "M", "M", "M"], "y": [1, 0, 1, 1, 0, 0],
    ...                     "p": [1, 0, 0, 1, 1, 0]})
    >>> out = feds.gaps(dd.from_pandas(pdf, npartitions=2), "y", "p", sensitive="sex",
    ...                 measures=["recall", "demographic_parity"])
    >>> out.select("measure", "difference", "ratio", "group_at_min").rows()
    [('recall', 0.5, 0.5, 'F'), ('demographic_parity', 0.3333333333333333, 0.5, 'F')]
    """,
    functools.partial(_run, "gaps"),
)
