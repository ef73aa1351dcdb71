"""Multiplicity over the pairs × benchmarks of a study: Holm's, Shaffer's and Benjamini–
Hochberg's adjusted p-values on one family of p-values (every row of the frame)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import polars as pl

from frameeval.compare.multiple import shaffer_counts
from frameeval.compare.scipy_step import scipy_step

__all__ = ["ADJUSTS", "adjusted", "family_counts"]

Adjust = Literal["holm", "shaffer", "bh"]
ADJUSTS = ("holm", "shaffer", "bh", None)


def family_counts(models: np.ndarray) -> np.ndarray:
    """The possible numbers of true hypotheses in a family made of the pairwise hypotheses of
    several independent groups (benchmarks) of k_g models: the sums s_1 + … + s_G with s_g ∈
    S(k_g), Shaffer's (1986) sets (:func:`frameeval.compare.multiple.shaffer_counts`)."""
    reachable = np.array([True])
    for k in models:  # loop-ok: combinatorics of the group sizes, not data
        counts = shaffer_counts(int(k))
        grown = np.zeros(reachable.size + max(counts), dtype=bool)
        for count in counts:  # loop-ok: ≤ k(k − 1)/2 + 1 values
            grown[count : count + reachable.size] |= reachable
        reachable = grown
    return np.flatnonzero(reachable).astype(float)


def _shaffer_t(group: np.ndarray, models: np.ndarray, step: np.ndarray) -> dict[str, np.ndarray]:
    """t_i = max{s ∈ S : s ≤ m − i + 1} for the family's set S (:func:`family_counts`); rows
    without a p-value (a NaN step) are not in the family."""
    out = np.full(step.shape, np.nan)
    tested = np.isfinite(step)
    if not tested.any():
        return {"__t": out}
    _, first = np.unique(group[tested], return_index=True)
    values = family_counts(models[tested][first])
    limit = tested.sum() - step[tested] + 1.0
    out[tested] = values[np.searchsorted(values, limit, side="right") - 1]
    return {"__t": out}


def adjusted(frame: pl.LazyFrame, keys: list[str], adjust: str | None) -> pl.LazyFrame:
    """``frame`` (one row per hypothesis, ``p_value`` and the group's ``__models``) with
    ``p_adjusted``: every row with a p-value is one family of m hypotheses, p₍₁₎ ≤ … ≤ p₍ₘ₎;
    a null p-value stays null and is left out of the family.

    * Holm: p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎);
    * Shaffer: the same with t_j = max{s ∈ S : s ≤ m − j + 1} instead of m − j + 1, S the
      possible numbers of true hypotheses (:func:`family_counts`);
    * Benjamini–Hochberg: p̃₍ᵢ₎ = min_{j ≥ i} min(1, m·p₍ⱼ₎/j).
    """
    p = pl.col("p_value")
    if adjust is None:
        return frame.with_columns(p.alias("p_adjusted"))
    m = p.is_not_null().sum().cast(pl.Float64)
    step = p.rank("ordinal").cast(pl.Float64)
    frame = frame.sort("p_value", nulls_last=True).with_columns(step.alias("__step"))
    if adjust == "holm":
        frame = frame.with_columns((m - pl.col("__step") + 1.0).alias("__t"))
    elif adjust == "shaffer":
        group = pl.struct(keys).rank("dense") if keys else pl.lit(1)
        frame = scipy_step(
            frame.with_columns(group.cast(pl.Float64).alias("__group")),
            _shaffer_t,
            ["__group", "__models", "__step"],
            ["__t"],
        )
    if adjust in ("holm", "shaffer"):
        scaled = pl.min_horizontal(pl.col("__t") * p, pl.lit(1.0))
        value = scaled.cum_max()
    else:
        scaled = pl.min_horizontal(m / pl.col("__step") * p, pl.lit(1.0))
        value = scaled.reverse().cum_min().reverse()
    return frame.with_columns(pl.when(p.is_not_null()).then(value).alias("p_adjusted"))
