"""How many rows a group needs before a gap in a rate can be seen: :func:`power`
(fairlearn#796's question), by the two-proportion test on Cohen's arcsine effect size."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

import polars as pl

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._params import INSIDE_UNIT
from frameeval._typing import Frame, Keys, frame_function
from frameeval._validate import check_alpha, check_parameter
from frameeval.measure_set import measures as measure_set
from frameeval.metrics.measure import Measure
from frameeval.subgroups._measures import counters, resolve
from frameeval.subgroups.gaps import SUBGROUPS

__all__ = ["power"]


@frame_function
def power(
    data: Any,
    truth: str,
    pred: str,
    *,
    sensitive: str | Sequence[str],
    by: Keys = None,
    measure: str | Measure = "selection_rate",
    gap: float = 0.05,
    alpha: float = 0.05,
    power: float = 0.8,
    pos_label: Any = None,
) -> Frame:
    """Rows per group needed to detect a gap in a rate, and the gap detectable at the
    current sizes (a two-sided two-proportion z-test).

    Parameters
    ----------
    data, truth, pred, sensitive, by, pos_label
        As in :func:`frameeval.subgroups.gaps`.
    measure
        A rate (a share of counts): ``"selection_rate"`` (default), ``"recall"`` / ``"tpr"``,
        ``"fpr"``, ``"accuracy"``, ``"error_rate"``, ``"precision"``…; its trials are the
        rows it divides by (all rows; the positives for recall; the negatives for FPR…).
    gap
        The gap in the rate to detect, in (0, 1).
    alpha, power
        The test's level and the power wanted, both in (0, 1).

    Returns
    -------
    Same kind as ``data``: ``*by, *sensitive, measure, value, n, trials, trials_needed,
    rows_needed, detectable_gap`` — one row per group, sorted:

    * ``value``: the group's rate p; ``n``: its rows; ``trials``: the rows the rate counts;
    * ``trials_needed`` (Int64): trials per group, in each of two equal groups, for a test
      at level ``alpha`` to detect p against p + gap (p − gap when p + gap > 1) with
      probability ``power``; ``rows_needed`` the rows that take at the group's share of
      trials (null when it has none);
    * ``detectable_gap``: the smallest rise from p detectable with the same level and power
      between this group (``trials``) and the rest of its ``by`` group (the other trials).

    Notes
    -----
    Cohen's effect size h = |2 asin √p₁ − 2 asin √p₂| (variance-stabilising: the test
    statistic is ≈ normal with variance 1/n₁ + 1/n₂ whatever p). With z_a = Φ⁻¹(1 − α/2),
    z_b = Φ⁻¹(power):

        trials_needed = ⌈2 (z_a + z_b)² / h²⌉,
        h* = (z_a + z_b) √(1/n₁ + 1/n₂),  detectable_gap = sin²(min(π/2, asin √p + h*/2)) − p.

    This is the closed form of ``statsmodels``' ``NormalIndPower`` with
    ``proportion_effectsize`` without the far tail of the two-sided test (whose probability,
    Φ(−h√n_eff − z_a), changes the sizes by less than one row in practice). Null where the
    rate is undefined or the rest of the ``by`` group has no trials.

    References
    ----------
    Cohen (1988), *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed., ch. 6.

    Examples
    --------
    >>> df = pl.DataFrame({"sex": ["F"] * 4 + ["M"] * 4, "y": [1, 0] * 4,
    ...                    "p": [1, 1, 0, 0, 1, 0, 0, 0]})
    >>> out = fe.subgroups.power(df, "y", "p", sensitive="sex", gap=0.1)
    >>> out.select("sex", "value", "trials_needed").rows()
    [('F', 0.5, 388), ('M', 0.25, 328)]
    """
    func = "power"
    INSIDE_UNIT(func, "gap", gap)
    INSIDE_UNIT(func, "power", power)
    alpha = check_alpha(alpha, func)
    lf, eager = to_lazy(data, func)
    groups, keys = as_keys(sensitive), as_keys(by)
    check_parameter(
        bool(groups), func, f"sensitive= must name one column or more, got {sensitive!r}."
    )
    checks = SUBGROUPS.compile(
        lf.collect_schema(), func, truth=truth, pred=pred, by=keys, sensitive=groups
    )
    names, chosen = resolve(func, [measure], pred, None)
    check_parameter(
        len(chosen) == 1, func, f"measure must be one rate, got {names[0]!r} ({len(chosen)} rates)."
    )
    rate = chosen[0]
    successes, trials = counters(rate)
    values = measure_set(
        lf, truth, pred, None, by=[*keys, *groups], measures=[rate, successes, trials],
        pos_label=pos_label,
    )  # fmt: skip
    sizes = lf.group_by([*keys, *groups]).agg(pl.len().cast(pl.Int64).alias("n"), *checks.aggs())
    sizes = checks.enforce(sizes, [*keys, *groups], one_row=True)
    out = values.lazy().join(sizes, on=[*keys, *groups], how="left", nulls_equal=True)
    z = NormalDist().inv_cdf(1.0 - alpha / 2.0) + NormalDist().inv_cdf(power)
    p = pl.col(rate.name)
    m = pl.col("__fe_trials")
    other = (m.sum().over(keys) if keys else m.sum()) - m
    target = pl.when(p + gap <= 1.0).then(p + gap).otherwise(p - gap)
    h = (2.0 * target.sqrt().arcsin() - 2.0 * p.sqrt().arcsin()).abs()
    needed = (2.0 * z * z / (h * h)).ceil()
    h_star = z * (1.0 / m + 1.0 / other).sqrt()
    reach = (p.sqrt().arcsin() + h_star / 2.0).clip(upper_bound=math.pi / 2.0)
    share = m / pl.col("n").cast(pl.Float64)
    out = out.with_columns(
        pl.lit(rate.name).alias("measure"),
        p.alias("value"),
        m.cast(pl.Int64).alias("trials"),
        pl.when(p.is_not_null()).then(needed).cast(pl.Int64).alias("trials_needed"),
        pl.when(p.is_not_null() & (share > 0))
        .then((needed / share).ceil())
        .cast(pl.Int64)
        .alias("rows_needed"),
        pl.when(p.is_not_null() & (other > 0)).then(reach.sin() ** 2 - p).alias("detectable_gap"),
    )
    out = out.select(
        *keys, *groups, "measure", "value", "n", "trials", "trials_needed", "rows_needed",
        "detectable_gap",
    ).sort([*keys, *groups], nulls_last=True)  # fmt: skip
    return finish(out, eager)
