"""How many items a comparison needs, and the smallest difference it can detect:
:func:`power`."""

from __future__ import annotations

from statistics import NormalDist

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.items._pairs import pair_table
from frameeval.items._sums import finish_items, open_design

__all__ = ["power"]

_OUT = [
    "a",
    "b",
    "n_items",
    "observed_difference",
    "var_between",
    "var_within_a",
    "var_within_b",
    "k_a",
    "k_b",
    "variance",
    "mde",
    "difference",
    "n_required",
]


@frame_function
def power(
    data: IntoFrame,
    score: str,
    *,
    model: str = "model",
    item: str = "item",
    by: Keys = None,
    sample: str | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    difference: float | None = None,
    samples: int | None = None,
) -> Frame:
    """The power of every paired comparison of :func:`compare`: the minimum detectable
    difference with the items at hand, and the items needed to detect a given difference.

    The variance of a paired item difference has two parts (Miller 2024, §5): ω², the variance
    over items of the true difference of the two models, and σ²_a/K_a + σ²_b/K_b, the answers'
    own noise, which shrinks with the K answers per item. Both are read from the data
    (per pair and group) — with ``sample=`` separately, otherwise as one total.

    Parameters
    ----------
    data
        As :func:`compare`: one row per ``*by, model, item`` (× ``sample``); complete items.
    score, model, item, by, sample
        As :func:`compare`.
    alpha
        Two-sided significance level of the planned test, in (0, 1).
    power
        The wanted probability of detecting the difference, in (0, 1).
    difference
        A difference of means to detect (> 0): adds ``n_required``.
    samples
        With ``sample=``: plan for this many answers per item and model (default: as observed).

    Returns
    -------
    Same kind as ``data``: ``*by, a, b, n_items, observed_difference`` (mean a − mean b),
    ``var_between`` (ω̂²), ``var_within_a``, ``var_within_b`` (σ̂²; null without ``sample=``),
    ``k_a``, ``k_b`` (answers per item planned), ``variance`` (ω̂² + σ̂²_a/K_a + σ̂²_b/K_b),
    ``mde`` (the minimum detectable difference at n_items), ``difference``, ``n_required``
    (items needed; null without ``difference=``), sorted by the keys.

    Notes
    -----
    n = (z_{1−α/2} + z_{power})²·(ω² + σ²_a/K_a + σ²_b/K_b)/δ² (Miller 2024, eq. 9), rounded
    up; inverted, MDE = (z_{1−α/2} + z_{power})·√(variance/n). Without ``sample=`` the
    variance is s²_d, the sample variance of the item differences (ω² and σ² together, at the
    K of the data). With ``sample=``: σ̂² is each model's mean within-item variance and ω̂² =
    max(0, s²_d − σ̂²_a·mean(1/K_a,i) − σ̂²_b·mean(1/K_b,i)). The normal approximation of
    the paired test (no clustering: with clustered items, multiply n by the design effect,
    (clustered SE / paired SE)² of :func:`compare`).

    References
    ----------
    Miller (2024), "Adding Error Bars to Evals", arXiv:2411.00640, §5.

    Examples
    --------
    >>> df = pl.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "item": [1, 2, 3, 4] * 2,
    ...                    "score": [0.9, 0.7, 0.8, 0.6, 0.8, 0.5, 0.8, 0.4]})
    >>> out = fe.items.power(df, "score", difference=0.05)
    >>> out.select(pl.col("mde").round(4), "n_required").rows()
    [(0.1341, 29)]
    """
    design, checked = open_design("power", locals(), _OUT)
    alpha, delta, samples = checked["alpha"], checked["difference"], checked["samples"]
    pairs = pair_table(design)
    z = NormalDist().inv_cdf(1.0 - alpha / 2.0) + NormalDist().inv_cdf(float(power))
    n = pl.col("n_items").cast(pl.Float64)
    var_d = (pl.col("__var_a") + pl.col("__var_b") - 2.0 * pl.col("__cov")).clip(lower_bound=0.0)
    if sample is None:
        between = var_d
        within_a = within_b = pl.lit(None, dtype=pl.Float64)
        k_a, k_b = pl.col("__kmean_a"), pl.col("__kmean_b")
        variance = var_d
    else:
        within_a, within_b = pl.col("__within_a"), pl.col("__within_b")
        noise = within_a * pl.col("__inv_k_a") + within_b * pl.col("__inv_k_b")
        between = (var_d - noise).clip(lower_bound=0.0)
        k_a = pl.lit(float(samples)) if samples else pl.col("__kmean_a")
        k_b = pl.lit(float(samples)) if samples else pl.col("__kmean_b")
        if samples:
            variance = between + within_a / k_a + within_b / k_b
        else:
            variance = between + noise
    pairs = pairs.with_columns(
        (pl.col("__mean_a") - pl.col("__mean_b")).alias("observed_difference"),
        between.alias("var_between"),
        within_a.alias("var_within_a"),
        within_b.alias("var_within_b"),
        k_a.cast(pl.Float64).alias("k_a"),
        k_b.cast(pl.Float64).alias("k_b"),
        variance.alias("variance"),
    )
    needed = (z * z * pl.col("variance") / (delta or 1.0) ** 2).ceil().cast(pl.Int64)
    out = pairs.with_columns(
        (z * (pl.col("variance") / n).sqrt()).alias("mde"),
        pl.lit(delta, dtype=pl.Float64).alias("difference"),
        (needed if delta is not None else pl.lit(None, dtype=pl.Int64)).alias("n_required"),
    )
    out = out.select(*design.keys, *_OUT).sort([*design.keys, "a", "b"], nulls_last=True)
    return finish_items(out, design.eager)
