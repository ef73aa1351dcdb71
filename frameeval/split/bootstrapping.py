"""Bootstrapping (chapter 2.2.3): seeded samples with replacement, as a split frame with a
``count`` column (how many times each row is drawn; 0 = out of bag)."""

from __future__ import annotations

import polars as pl

from frameeval._frame import finish
from frameeval._split_frame import mix_column, stream_salt
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval.split._plan import HASH, KEY, RANK, SALT_DRAW, TOTAL, N, assemble, prepare, unit_base

__all__ = ["bootstrap"]


@frame_function
def bootstrap(
    data: IntoFrame,
    repeats: int = 1,
    *,
    stratify: str | None = None,
    group: str | None = None,
    instance: str | None = None,
    seed: int = 0,
) -> Frame:
    """Bootstrap sampling: how often each row is drawn into a sample of size m (2.2.3).

    Draw one instance of D with replacement, m times: the sample D' is the training set and the
    instances never drawn (``count == 0``) are the test set — the out-of-bag estimate. A given
    instance is missed with probability (1 − 1/m)^m → 1/e ≈ 0.368, so about 36.8 % of D is out of
    bag. Useful for small data sets, but D' has a different distribution from D, which biases the
    estimate; with enough data, hold-out and cross-validation are preferred.

    Parameters
    ----------
    data
        The instances.
    repeats
        Number of bootstrap samples B.
    stratify
        Optional class column: each class is resampled within itself (its size is kept).
    group
        Optional column: whole groups are drawn (m = the number of groups); every row of a group
        gets the group's count.
    instance
        Key column making the samples independent of row order (default: row position, added
        as column ``instance``).
    seed
        Integer in [0, 2**64).

    Returns
    -------
    Same kind as ``data``: input columns, ``repeat`` (Int32) and ``count`` (Int32 ≥ 0): the
    number of times the row (its group) was drawn. Per repeat the counts sum to m (per class, to
    the class size). ``count == 0`` marks the out-of-bag test rows; :func:`folds` expands the
    training sample with its repetitions.

    Notes
    -----
    Draw j of a repeat is made by unit j: its key, mixed with the seed and repeat, gives a
    uniform position ``floor(u · n)`` among the n units of its stratum (u a 53-bit uniform). The
    draws are independent, so the counts are multinomial(m; 1/m, …, 1/m). The .632 and .632+
    estimators combine the out-of-bag and apparent errors: see :func:`efron632`.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993), *An Introduction to the Bootstrap*. Zhou (2016),
    section 2.2.3, eq. (2.1) limit.

    Examples
    --------
    >>> df = pl.DataFrame({"id": range(6)})
    >>> out = fe.split.bootstrap(df, repeats=2, instance="id", seed=3)
    >>> out.group_by("repeat").agg(pl.col("count").sum()).sort("repeat")["count"].to_list()
    [6, 6]
    """
    func = "bootstrap"
    plan = prepare(data, func, instance, stratify, group, seed, repeats)
    base = unit_base(plan)
    n = pl.col(N) if plan.strata else pl.col(TOTAL)
    rank = pl.col(KEY).rank("ordinal")
    if plan.strata:
        rank = rank.over(plan.strata)
    base = base.with_columns((rank.cast(pl.Int64) - 1).alias(RANK))
    per_repeat = []
    for r in range(repeats):  # loop-ok: one lazy branch per repeat
        salt = stream_salt(seed, SALT_DRAW, r)
        draws = mix_column(
            base.select(
                *plan.strata, n.alias(N), (pl.col(KEY) ^ pl.lit(salt, pl.UInt64)).alias(HASH)
            ),
            HASH,
        )
        uniform = (pl.col(HASH) // (1 << 11)).cast(pl.Float64) * 2.0**-53
        target = pl.min_horizontal(
            (uniform * pl.col(N).cast(pl.Float64)).floor().cast(pl.Int64), pl.col(N) - 1
        )
        counts = draws.group_by(*plan.strata, target.alias(RANK)).agg(
            pl.len().cast(pl.Int32).alias("count")
        )
        frame = base.join(
            counts, on=[*plan.strata, RANK], how="left", maintain_order="left"
        ).with_columns(pl.lit(r, pl.Int32).alias("repeat"), pl.col("count").fill_null(0))
        per_repeat.append(frame)
    return finish(assemble(plan, per_repeat, ["repeat", "count"]), plan.eager)
