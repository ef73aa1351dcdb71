"""Cliques: the groups of learners not significantly different from each other, read off any
pairwise comparison frame (the bars of a critical-difference diagram)."""

from __future__ import annotations

import polars as pl

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_parameter
from frameeval.compare.plan import over_keys
from frameeval.exceptions import ColumnNotFoundError, InvalidDtypeError

__all__ = ["cliques"]

#: cliques' inputs: a post-hoc test's pairwise table, and (ranks=) a table of average ranks
_PAIRWISE = Inputs(Column("a"), Column("b"), Column("reject"), Column("by"))
_RANKS = Inputs(Column("learner"), Column("average_rank"), Column("by"))


@frame_function
def cliques(
    pairwise: IntoFrame,
    ranks: IntoFrame | None = None,
    *,
    learner: str = "learner",
    by: Keys = None,
) -> Frame:
    """The maximal groups of learners whose pairwise comparisons are not rejected, contiguous
    in average-rank order — the thick bars of a critical-difference diagram.

    Works on the output of any pairwise procedure with columns ``a, b, reject``:
    :func:`~frameeval.nemenyi`, :func:`~frameeval.wilcoxon` (with ``adjust="holm"``, the
    "Wilcoxon–Holm" CD diagram of Benavoli et al. 2016 and aeon), :func:`~frameeval.shaffer`,
    :func:`~frameeval.bergmann_hommel`, :func:`~frameeval.rank_post_hoc`, or a frame of your own.

    Algorithm (Demšar 2006, figure 1; aeon's ``plot_critical_difference``): sort the learners
    of a group by average rank (ties by name), positions 0…k − 1. The learners at positions
    i…j form a clique when no pair among them is rejected. For each start i the clique extends
    to the largest such j,

        end(i) = min{ q : (p, q) rejected, i ≤ p < q } − 1     (k − 1 if there is none)

    and it is kept when it has at least two learners and is not inside the previous one
    (end(i) > end(i − 1)). Every pair inside a clique is "not significantly different";
    a pair that is not rejected but separated in rank order by a rejected pair is not joined
    (it would need a non-contiguous bar).

    Parameters
    ----------
    pairwise
        Frame with ``a``, ``b`` (learner names) and ``reject`` (Boolean; null counts as not
        rejected), one row per comparison (DataFrame or LazyFrame); ``by`` key columns when it
        holds several families. Its ``average_rank_a`` / ``average_rank_b`` columns give the
        rank order unless ``ranks`` is given.
    ranks
        Optional frame ``*by, <learner>, average_rank`` (e.g. :func:`~frameeval.average_ranks`);
        needed when ``pairwise`` has no average ranks (:func:`~frameeval.wilcoxon`'s output).
    learner
        Name of the learner column of ``ranks`` and of the output.
    by
        Key column(s): one family of comparisons (and one set of cliques) per group.

    Returns
    -------
    Same kind as ``pairwise`` with one row per clique member: ``*by, clique, <learner>,
    average_rank``, sorted by keys, clique, average_rank and learner; ``clique`` numbers the
    cliques of a group 1, 2, … from the best-ranked (Int64). A learner in no clique (different
    from all its neighbours) has no row.

    References
    ----------
    Demšar (2006), "Statistical comparisons of classifiers over multiple data sets", JMLR 7,
    §3.2.2 and figure 1. Benavoli, Corani & Mangili (2016), "Should we really use post-hoc
    tests based on mean-ranks?", JMLR 17. Ismail Fawaz et al. (2019), "Deep learning for time
    series classification: a review" (the Wilcoxon–Holm CD diagram).

    Examples
    --------
    >>> pairs = pl.DataFrame({"a": ["A", "A", "B"], "b": ["B", "C", "C"],
    ...                       "average_rank_a": [1.0, 1.0, 2.125],
    ...                       "average_rank_b": [2.125, 2.875, 2.875],
    ...                       "reject": [False, True, False]})
    >>> fe.cliques(pairs).rows()
    [(1, 'A', 1.0), (1, 'B', 2.125), (2, 'B', 2.125), (2, 'C', 2.875)]
    """
    func = "cliques"
    lf, eager = to_lazy(pairwise, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    _PAIRWISE.compile(schema, func, a="a", b="b", reject="reject", by=keys)
    if schema["reject"] != pl.Boolean:
        raise InvalidDtypeError(
            f"{func}(): column 'reject' must be Boolean, got {schema['reject']}."
        )
    check_parameter(
        learner not in (*keys, "clique", "average_rank"),
        func,
        f"learner= must not name a key or output column, got {learner!r}.",
    )
    if ranks is None:
        if "average_rank_a" not in schema or "average_rank_b" not in schema:
            raise ColumnNotFoundError(
                f"{func}(): the rank order needs columns 'average_rank_a' and 'average_rank_b' "
                "or a ranks= frame, got neither.\nHint: pass ranks=fe.average_ranks(...) "
                "(e.g. for fe.wilcoxon's output)."
            )
        side = [
            lf.select(*keys, pl.col(s).alias(learner), pl.col(f"average_rank_{s}").alias("__r"))
            for s in ("a", "b")
        ]
        table = pl.concat(side).unique([*keys, learner])
    else:
        rlf, _ = to_lazy(ranks, func)
        rschema = rlf.collect_schema()
        _RANKS.compile(rschema, func, learner=learner, average_rank="average_rank", by=keys)
        table = rlf.select(*keys, learner, pl.col("average_rank").alias("__r"))
    table = table.with_columns(pl.col("__r").cast(pl.Float64)).sort(
        [*keys, "__r", learner], nulls_last=True
    )
    table = table.with_columns(
        over_keys(pl.int_range(pl.len()), keys).cast(pl.Int64).alias("__pos"),
        over_keys(pl.len(), keys).cast(pl.Int64).alias("__k"),
    )
    members = _members(table, _first_rejected(lf, table, keys, learner), keys, learner)
    out = members.sort([*keys, "clique", "average_rank", learner], nulls_last=True)
    return finish(out, eager)


def _first_rejected(
    lf: pl.LazyFrame, table: pl.LazyFrame, keys: list[str], learner: str
) -> pl.LazyFrame:
    """``*keys, __pos, __q``: for each rank position p the first q > p with (p, q) rejected."""
    positions = table.select(*keys, learner, "__pos")
    return (
        lf.filter(pl.col("reject").fill_null(False))
        .select(*keys, "a", "b")
        .join(
            positions.rename({learner: "a", "__pos": "__pa"}),
            on=[*keys, "a"],
            how="inner",
            nulls_equal=True,
        )
        .join(
            positions.rename({learner: "b", "__pos": "__pb"}),
            on=[*keys, "b"],
            how="inner",
            nulls_equal=True,
        )
        .select(
            *keys,
            pl.min_horizontal("__pa", "__pb").alias("__pos"),
            pl.max_horizontal("__pa", "__pb").alias("__q"),
        )
        .group_by(*keys, "__pos")
        .agg(pl.col("__q").min())
    )


def _members(
    table: pl.LazyFrame, rejected: pl.LazyFrame, keys: list[str], learner: str
) -> pl.LazyFrame:
    """``*keys, clique, <learner>, average_rank``: the maximal runs i…end(i) not contained in
    the previous one, numbered from 1 in rank order."""
    starts = table.join(rejected, on=[*keys, "__pos"], how="left", nulls_equal=True).sort(
        [*keys, "__pos"], nulls_last=True
    )
    blocking = pl.col("__q").fill_null(pl.col("__k")).cum_min(reverse=True)
    starts = starts.with_columns((over_keys(blocking, keys) - 1).alias("__end"))
    previous = over_keys(pl.col("__end").shift(1), keys).fill_null(-1)
    starts = starts.filter((pl.col("__end") > pl.col("__pos")) & (pl.col("__end") > previous))
    starts = starts.with_columns(
        (over_keys(pl.int_range(pl.len()), keys) + 1).cast(pl.Int64).alias("clique")
    )
    return (
        starts.select(*keys, "clique", pl.int_ranges("__pos", pl.col("__end") + 1).alias("__m"))
        .explode("__m")
        .join(
            table.select(*keys, learner, pl.col("__pos").alias("__m"), "__r"),
            on=[*keys, "__m"],
            how="inner",
            nulls_equal=True,
        )
        .select(*keys, "clique", learner, pl.col("__r").alias("average_rank"))
    )
