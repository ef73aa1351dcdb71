"""Multiplicity over the pairs × benchmarks of a study: Holm's, Shaffer's and Benjamini–
Hochberg's adjusted p-values on one family of p-values (every row of the frame)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import polars as pl

from frameeval.compare._common import scipy_step
from frameeval.compare.multiple import shaffer_counts, step_down

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
    """t_i = max{s ∈ S : s ≤ m − i + 1} for the family's set S (:func:`family_counts`)."""
    if step.size == 0:
        return {"__t": np.empty(0)}
    _, first = np.unique(group, return_index=True)
    values = family_counts(models[first])
    limit = step.size - step + 1.0
    return {"__t": values[np.searchsorted(values, limit, side="right") - 1]}


def adjusted(frame: pl.LazyFrame, keys: list[str], adjust: str | None) -> pl.LazyFrame:
    """``frame`` (one row per hypothesis, ``p_value`` and the group's ``__models``) with
    ``p_adjusted``: every row with a p-value is one family; a null p-value stays null and is
    left out of the family."""
    if adjust is None:
        return frame.with_columns(pl.col("p_value").alias("p_adjusted"))
    tested = frame.filter(pl.col("p_value").is_not_null())
    untested = frame.filter(pl.col("p_value").is_null()).with_columns(
        pl.lit(None, dtype=pl.Float64).alias("p_adjusted")
    )
    if adjust == "holm":
        done = step_down(tested, [], "holm")
    elif adjust == "shaffer":
        group = pl.struct(keys).rank("dense") if keys else pl.lit(1)
        step = pl.col("p_value").rank("ordinal")
        tested = tested.with_columns(
            group.cast(pl.Float64).alias("__group"), step.cast(pl.Float64).alias("__step")
        )
        tested = scipy_step(tested, _shaffer_t, ["__group", "__models", "__step"], ["__t"])
        scaled = pl.min_horizontal(pl.col("__t") * pl.col("p_value"), pl.lit(1.0))
        done = tested.sort("__step").with_columns(scaled.cum_max().alias("p_adjusted"))
    else:
        m = pl.len().cast(pl.Float64)
        rank = pl.col("p_value").rank("ordinal").cast(pl.Float64)
        scaled = pl.min_horizontal(m / rank * pl.col("p_value"), pl.lit(1.0))
        done = tested.sort("p_value").with_columns(
            scaled.reverse().cum_min().reverse().alias("p_adjusted")
        )
    columns = [*frame.collect_schema().names(), "p_adjusted"]
    return pl.concat([done.select(columns), untested.select(columns)])
