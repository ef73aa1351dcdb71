"""The table every curve starts from: per ``by`` group and distinct score, the (weighted) mass
of positive and negative rows, its checks, and its cumulation from the top score down.

Shared by the curve modules of :mod:`frameeval.curves`, by :mod:`frameeval.thresholds` and by
:mod:`frameeval.measure_set`; the module docstring of :mod:`frameeval.curves` describes the
scheme.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from frameeval._frame import finish
from frameeval._inputs import WEIGHT_INPUT, Column, Door, Inputs, require_positive
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import Checks, label_expr
from frameeval.metrics.stats import ScoreTable

__all__ = [
    "ALL",
    "FP",
    "INF",
    "N",
    "NEG",
    "P",
    "POS",
    "SCORE_PARTS",
    "TP",
    "Setup",
    "binary_table",
    "carries",
    "cumulated",
    "open_grouped",
    "point_curve",
    "prepare_scores",
    "rate",
    "score_counts",
    "score_table",
]


INF = float("inf")
ALL = "__fe_all"  # constant key when by= is empty
#: the inputs of a score task: truth labels, numeric scores (a Decimal read as Float64; one
#: column or several, as the curves of several scores take), weight
SCORES = Inputs(
    Column("truth", "label", "label", required=True),
    Column("score", "numeric_or_decimal", "finite", several=True, required=True),
    Column("by"),
    WEIGHT_INPUT,
)
# internal columns of the per-distinct-score table
POS, NEG, TP, FP, P, N = "__fe_pos", "__fe_neg", "__fe_tp", "__fe_fp", "__fe_P", "__fe_N"
# the per-distinct-score count table is built in this many disjoint parts (by a hash of the
# score), concatenated one after the other: see :func:`score_counts`
SCORE_PARTS = 8


# ---------------------------------------------------------------------------------------------
# the shared kernel: per group × distinct score counts, cumulated from the top score down
# ---------------------------------------------------------------------------------------------
@dataclass
class Setup:
    """An opened input with its group keys (see :func:`open_grouped`)."""

    lf: pl.LazyFrame
    eager: bool
    keys: list[str]  # the user's by= keys
    gkeys: list[str]  # keys, or a constant column when by= is empty
    schema: pl.Schema
    checks: Checks

    def done(self, out: pl.LazyFrame) -> Any:
        if ALL in out.collect_schema():
            out = out.drop(ALL)
        return finish(out, self.eager)

    def sort(
        self, out: pl.LazyFrame, *columns: str, descending: Sequence[bool] = ()
    ) -> pl.LazyFrame:
        flags = [False] * len(self.keys) + list(descending or [False] * len(columns))
        return (
            out.sort(*self.keys, *columns, descending=flags, nulls_last=True)
            if (self.keys or columns)
            else out
        )


def open_grouped(inputs: Inputs, data: IntoFrame, func: str, **names: Any) -> tuple[Setup, Door]:
    """``data`` opened through ``inputs`` (:meth:`~frameeval._inputs.Inputs.open` with the
    keywords ``names``), with the constant group key ``ALL`` when ``by=`` is empty, so that
    every aggregation can group by ``gkeys``; the door is returned too."""
    door = inputs.open(data, func, **names)
    lf = door.lf if door.keys else door.lf.with_columns(pl.lit(0, dtype=pl.Int8).alias(ALL))
    setup = Setup(lf, door.eager, door.keys, door.keys or [ALL], door.schema, door.checks)
    return setup, door


def prepare_scores(
    data: IntoFrame,
    func: str,
    truth: str,
    scores: Sequence[str],
    by: Keys,
    weight: str | None,
    outputs: Sequence[str],
) -> Setup:
    """Open ``data`` and check the schema of a score task (truth labels, numeric scores and
    weight, the output names against ``by``); the in-plan row checks (finite scores and
    weights, non-null labels, non-negative weights) are returned in ``checks``."""
    setup, door = open_grouped(
        SCORES, data, func, truth=truth, score=scores, by=by, weight=weight, outputs=outputs
    )
    decimal = [c for c in scores if setup.schema[c].is_decimal()]
    if decimal:  # a Decimal score is read as Float64 (its exact value, for 15 digits or fewer)
        setup.lf = setup.lf.with_columns(pl.col(decimal).cast(pl.Float64))
        setup.schema = door.lf.with_columns(pl.col(decimal).cast(pl.Float64)).collect_schema()
    return setup


def score_counts(
    lf: pl.LazyFrame,
    keys: Sequence[str],
    score: pl.Expr,
    aggs: Sequence[pl.Expr],
    parts: int = SCORE_PARTS,
) -> pl.LazyFrame:
    """``lf.group_by(*keys, score).agg(*aggs)``, computed as ``parts`` disjoint pieces.

    Rows are split by a hash of the score value (nulls to piece 0, where the checks count
    them), so every (group, score) cell falls in exactly one piece and the concatenated pieces
    are the same table. Why: Polars' streaming ``group_by`` buffers the rows of keys it has not
    seen often until its input ends, so for a high-cardinality key such as (group, score) its
    memory grows with the number of rows (issue pola-rs/polars#25607); a piece that sees 1/8 of
    the rows buffers 1/8 of them, and ``concat(parallel=False)`` runs the pieces one after the
    other. Measured on 100M rows from Parquet: peak RSS 2.47 GiB in one piece, 0.44 GiB in 8,
    and no slower (in memory too: smaller hash tables). Each piece re-reads and filters the
    source rows, which costs little next to a high-cardinality aggregation but doubles the time
    of a low-cardinality one held in memory (10M rows in 10 groups: 0.21 s instead of 0.11 s),
    so the frame functions use the pieces for a ``LazyFrame`` input (which may be a scan larger
    than memory) and one piece for an eager frame (its rows are in memory already).
    """
    if parts <= 1:
        return lf.group_by(*keys, score).agg(*aggs)
    piece = (score.hash(seed=0x5EED) % parts).fill_null(0)
    return pl.concat(
        [
            lf.filter(piece == i).group_by(*keys, score).agg(*aggs) for i in range(parts)
        ],  # loop-ok: 8 plan pieces
        parallel=False,
    )


def score_table(
    data: IntoFrame,
    func: str,
    truth: str,
    score: str,
    by: Keys,
    weight: str | None,
    pos_label: Any,
    outputs: Sequence[str] = (),
) -> tuple[Setup, pl.LazyFrame]:
    """Validate, and return the per-group × distinct-score table of a binary task.

    Columns ``*gkeys, threshold, __fe_pos, __fe_neg`` (one row per distinct score, in no
    particular order): the mass of positive / negative rows with exactly this score — the
    sufficient statistic of every ranking measure (:class:`~frameeval.metrics.ScoreTable`),
    mergeable across partitions by summing. Integer scores are grouped in their own dtype, so
    scores beyond 2^53 (nanosecond timestamps) stay distinct; float scores are grouped as
    Float64 with -0.0 = 0.0.
    """
    setup = prepare_scores(data, func, truth, [score], by, weight, outputs)
    positive_label = require_positive(setup.checks, setup.schema, func, truth, pos_label)
    positive = label_expr(truth, setup.schema) == positive_label
    if weight is None:
        n_pos = positive.sum().cast(pl.Float64)
        masses = [n_pos.alias(POS), (pl.len().cast(pl.Float64) - n_pos).alias(NEG)]
    else:
        w = pl.col(weight).cast(pl.Float64)
        masses = [
            (w * positive.cast(pl.Float64)).sum().alias(POS),
            (w * (~positive).cast(pl.Float64)).sum().alias(NEG),
        ]
    if setup.schema[score].is_integer():
        threshold = pl.col(score).alias("threshold")  # exact, whatever its size
    else:
        # + 0.0 turns -0.0 into 0.0, so the threshold prints as the score it groups
        threshold = (pl.col(score).cast(pl.Float64) + 0.0).alias("threshold")
    table = score_counts(
        setup.lf,
        setup.gkeys,
        threshold,
        [*masses, *setup.checks.aggs()],
        parts=1 if setup.eager else SCORE_PARTS,
    )
    return setup, setup.checks.enforce(table, setup.keys)


def binary_table(
    data: IntoFrame,
    func: str,
    truth: str,
    score: str,
    by: Keys,
    weight: str | None,
    pos_label: Any,
    outputs: Sequence[str],
    start: bool = False,
) -> tuple[Setup, pl.LazyFrame]:
    """Validate, and return the cumulated per-distinct-score table of a binary task.

    Columns ``*gkeys, threshold, pos, neg, tp, fp, P, N`` (internal names): ``pos``/``neg`` the
    mass of positive / negative rows with exactly this score, ``tp``/``fp`` those with score ≥
    threshold, ``P``/``N`` the group totals. Rows are ordered by the keys (nulls last) and by
    threshold descending; with ``start`` each group begins with the point "nothing positive"
    (threshold +inf, all counts 0). Each row is a point of the curve (:func:`carries`): a score
    whose rows all weigh 0 would repeat the point before it and has no row. The threshold column
    is Float64 (integer scores are counted exactly, then shown as floats).
    """
    setup, table = score_table(data, func, truth, score, by, weight, pos_label, outputs)

    # one row per group holding its thresholds (descending) and cumulative counts as lists: the
    # sort by the keys is over groups, not rows, and exploding keeps the order
    def down(column: str) -> pl.Expr:
        return pl.col(column).sort_by("threshold", descending=True)

    lists = table.group_by(setup.gkeys).agg(
        pl.col("threshold").sort(descending=True).cast(pl.Float64),
        down(POS),
        down(NEG),
        down(POS).cum_sum().alias(TP),
        down(NEG).cum_sum().alias(FP),
    )
    if start:
        lists = lists.with_columns(
            pl.concat_list(pl.lit(INF, dtype=pl.Float64), "threshold").alias("threshold"),
            *[pl.concat_list(pl.lit(0.0), c).alias(c) for c in (POS, NEG, TP, FP)],
        )
    # totals as the last cumulative value, so the last point is exactly (P, N)
    lists = lists.with_columns(pl.col(TP).list.last().alias(P), pl.col(FP).list.last().alias(N))
    rows = setup.sort(lists).explode("threshold", POS, NEG, TP, FP)
    return setup, rows.filter(carries())


def point_curve(
    data: IntoFrame,
    func: str,
    truth: str,
    score: str,
    by: Keys,
    weight: str | None,
    pos_label: Any,
    columns: Mapping[str, pl.Expr],
    *,
    start: bool = False,
    through: Callable[[Setup, pl.LazyFrame], pl.LazyFrame] | None = None,
    explode: bool = False,
) -> Any:
    """The frame function of a curve drawn through the points of :func:`binary_table`
    (``through`` may keep some of them): columns ``*by, threshold, *columns`` (each expression
    named by its key; lists of one length per point with ``explode``), in curve order."""
    outputs = ("threshold", *columns)
    setup, points = binary_table(data, func, truth, score, by, weight, pos_label, outputs, start)
    if through is not None:
        points = through(setup, points)
    named = [value.alias(name) for name, value in columns.items()]
    out = points.select(*setup.gkeys, "threshold", *named)
    return setup.done(out.explode(*columns) if explode else out)


def carries() -> pl.Expr:
    """Rows that are points: the start, and every score whose rows do not all weigh 0."""
    return ((pl.col(POS) + pl.col(NEG)) > 0) | (pl.col("threshold") == INF)


def rate(numerator: str, denominator: str) -> pl.Expr:
    """numerator / denominator, null when the denominator is 0 (0/0)."""
    return pl.when(pl.col(denominator) > 0).then(pl.col(numerator) / pl.col(denominator))


def cumulated(table: pl.LazyFrame, gkeys: list[str]) -> tuple[pl.LazyFrame, ScoreTable]:
    """A :func:`score_table` sorted by group and threshold (descending) with the cumulative
    masses TP(≥ t), FP(≥ t) per group, and the :class:`ScoreTable` that reads it inside
    ``group_by(*gkeys).agg`` (sorting once and accumulating in a window is several times
    faster than sorting and accumulating inside the aggregation of every group)."""
    ordered = table.sort(
        *gkeys, "threshold", descending=[False] * len(gkeys) + [True], nulls_last=True
    ).with_columns(
        pl.col(POS).cum_sum().over(gkeys).alias("__fe_tp"),
        pl.col(NEG).cum_sum().over(gkeys).alias("__fe_fp"),
    )
    return ordered, ScoreTable.from_columns(POS, NEG, "__fe_tp", "__fe_fp")
