"""The exact ROC convex hull of every group at once: pruning passes, then ⌈log₂ n⌉ rounds that
merge the upper hulls of blocks of points (used by the ROC hull and the cost curve).
"""

from __future__ import annotations

import functools

import polars as pl

from frameeval.curves.table import FP, INF, TP, Setup

__all__ = ["PRUNE_PASSES", "hull_vertices", "hull_frame", "left_turn", "merge_round"]


PRUNE_PASSES = 8


def hull_vertices(setup: Setup, points: pl.LazyFrame) -> pl.LazyFrame:
    """The rows of ``points`` (curve points with the start, in curve order) that are vertices
    of their group's hull, in the same order."""
    return points.map_batches(
        functools.partial(hull_frame, gkeys=setup.gkeys),
        schema=points.collect_schema(),
        streamable=False,
    )


def hull_frame(df: pl.DataFrame, gkeys: list[str]) -> pl.DataFrame:
    """Eager kernel of :func:`hull_vertices`: keep the rows that are strict vertices of the upper hull.

    The hull is computed in the sheared count plane (x, y) = (TP + FP, TP): x grows strictly
    along a group's points (every point carries weight), and the map (FP, TP) ↦ (FP + TP, TP)
    is linear with determinant 1, so it keeps the vertex set of the upper hull.
    """
    gid = pl.struct(gkeys).rle_id()
    in_order = df.select(
        (gid.n_unique() == pl.struct(gkeys).n_unique())
        & ((pl.col("threshold").diff() < 0) | (gid.diff() != 0)).fill_null(True).all()
    ).item()
    if not in_order:  # the plan delivers curve order; sort only if an engine did not keep it
        flags = [False] * len(gkeys) + [True]
        df = df.sort(*gkeys, "threshold", descending=flags, nulls_last=True)
    work = df.select(
        gid.alias("gid"),
        (pl.col(TP) + pl.col(FP)).alias("x"),
        pl.col(TP).alias("y"),
        pl.int_range(pl.len(), dtype=pl.UInt32).alias("rid"),
    )
    for _ in range(PRUNE_PASSES):  # loop-ok: a fixed number of vectorised passes
        work = work.filter(~left_turn())
    work = work.with_columns(pl.int_range(pl.len(), dtype=pl.UInt32).over("gid").alias("idx"))
    levels = int(work.select(pl.col("idx").max().fill_null(0)).item()).bit_length()
    for level in range(levels):  # loop-ok: ⌈log₂ n⌉ rounds, each vectorised over all groups
        work = merge_round(work, level)
    return df[work.sort("rid")["rid"]]


def left_turn() -> pl.Expr:
    """Interior points where the chain turns left or goes straight: not strict hull vertices."""
    same = (pl.col("gid").shift(1) == pl.col("gid")) & (pl.col("gid").shift(-1) == pl.col("gid"))
    x, y = pl.col("x"), pl.col("y")
    cross = (x - x.shift(1)) * (y.shift(-1) - y) - (y - y.shift(1)) * (x.shift(-1) - x)
    return (same & (cross >= 0)).fill_null(False)


def merge_round(work: pl.DataFrame, level: int) -> pl.DataFrame:
    """Merge the upper hulls of consecutive blocks of 2**level points into blocks of twice that.

    Each hull vertex v carries the slopes ``sl`` (of the edge into v) and ``sr`` (out of v)
    within its block's hull, so v maximises y − σx exactly for σ in [sr, sl]. For a block pair
    (A left, B right) the bridge is the pair (a, b) whose slope σ* = slope(a, b) lies in both
    intervals; sweeping σ over the sorted interval ends of A and B lists every candidate pair.
    A vertices with sl > σ* and B vertices with sr < σ* survive.
    """
    if "sl" not in work.columns:
        work = work.with_columns(sl=pl.lit(INF), sr=pl.lit(-INF))
    size = 2**level
    part = pl.col("gid").cast(pl.UInt64) * (1 << 32) + pl.col("idx").cast(pl.UInt64) // (2 * size)
    side = ((pl.col("idx") // size) % 2).cast(pl.Int8)
    work = work.with_columns(part=part, side=side).sort("part", "sr")
    row = pl.int_range(pl.len(), dtype=pl.UInt32)
    work = work.with_columns(
        a=pl.when(pl.col("side") == 0).then(row).forward_fill(),
        b=pl.when(pl.col("side") == 1).then(row).forward_fill(),
    )

    def at(column: str, which: str) -> pl.Expr:
        return pl.col(column).gather(pl.col(which))

    slope = (at("y", "b") - at("y", "a")) / (at("x", "b") - at("x", "a"))
    valid = (at("part", "a") == pl.col("part")) & (at("part", "b") == pl.col("part"))
    violation = pl.max_horizontal(
        at("sr", "a") - slope, slope - at("sl", "a"), at("sr", "b") - slope, slope - at("sl", "b")
    )
    work = work.with_columns(
        cand=pl.when(valid).then(slope), viol=pl.when(valid).then(violation)
    ).with_columns(sigma=pl.col("cand").sort_by("viol", nulls_last=True).first().over("part"))
    sigma, side_c = pl.col("sigma"), pl.col("side")
    keep = (
        sigma.is_null()
        | ((side_c == 0) & (pl.col("sl") > sigma))
        | ((side_c == 1) & (pl.col("sr") < sigma))
    )
    work = work.filter(keep)
    a_last = pl.col("idx") == pl.col("idx").filter(side_c == 0).max().over("part")
    b_first = pl.col("idx") == pl.col("idx").filter(side_c == 1).min().over("part")
    merged = sigma.is_not_null()
    return work.with_columns(
        sr=pl.when(merged & (side_c == 0) & a_last).then(sigma).otherwise(pl.col("sr")),
        sl=pl.when(merged & (side_c == 1) & b_first).then(sigma).otherwise(pl.col("sl")),
    ).select("gid", "x", "y", "rid", "idx", "sl", "sr")
