"""Calibration curves with confidence intervals, and the calibration errors ECE / MCE."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._frame import to_lazy
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import (
    Checks,
    check_parameter,
)
from frameeval.calibration._common import (
    BIN,
    CLASS,
    COUNT,
    OUTCOME,
    PROB,
    SUM_P,
    SUM_Y,
    TOLERANCE,
    TRUE_CLASS,
    Strategy,
    bin_stats,
    binary_input,
    check_bins,
    multiclass_input,
)


# ---------------------------------------------------------------------------------------------
# calibration curves and their intervals
# ---------------------------------------------------------------------------------------------
def _wilson(k: pl.Expr, n: pl.Expr, alpha: float) -> tuple[pl.Expr, pl.Expr]:
    """Wilson score interval, statsmodels' arithmetic, clipped to [0, 1]."""
    from scipy import stats

    crit = float(stats.norm.isf(alpha / 2.0))
    crit2 = crit**2
    q = k / n
    denom = 1.0 + crit2 / n
    center = (q + crit2 / (2.0 * n)) / denom
    dist = crit * (q * (1.0 - q) / n + crit2 / (4.0 * n**2)).sqrt() / denom
    return (center - dist).clip(0.0, 1.0), (center + dist).clip(0.0, 1.0)


def _clopper_pearson_batch(series: pl.Series, alpha: float) -> pl.Series:
    """Clopper–Pearson bounds for a struct Series of (k, n), one vectorised scipy call."""
    from scipy import stats

    k = series.struct.field("k").cast(pl.Float64).to_numpy()
    n = series.struct.field("n").cast(pl.Float64).to_numpy()
    with np.errstate(all="ignore"):
        low = np.where(k == 0, 0.0, stats.beta.ppf(alpha / 2.0, k, n - k + 1))
        high = np.where(k == n, 1.0, stats.beta.isf(alpha / 2.0, k + 1, n - k))
    return pl.DataFrame(
        {"ci_low": low, "ci_high": high}, schema={"ci_low": pl.Float64, "ci_high": pl.Float64}
    ).to_struct("__fe_ci")


def _interval(stats: pl.LazyFrame, ci: str | None, alpha: float) -> pl.LazyFrame:
    """Add ``ci_low, ci_high`` for the fraction of positives Σy / count of each bin."""
    k, n = pl.col(SUM_Y), pl.col(COUNT).cast(pl.Float64)
    if ci is None:
        none = pl.lit(None, dtype=pl.Float64)
        return stats.with_columns(none.alias("ci_low"), none.alias("ci_high"))
    if ci == "wilson":
        low, high = _wilson(k, n, alpha)
        return stats.with_columns(low.alias("ci_low"), high.alias("ci_high"))
    step = pl.struct(k.alias("k"), n.alias("n")).map_batches(
        lambda s: _clopper_pearson_batch(s, alpha),
        return_dtype=pl.Struct({"ci_low": pl.Float64, "ci_high": pl.Float64}),
    )
    return stats.with_columns(step.alias("__fe_ci")).unnest("__fe_ci")


@frame_function
def calibration_curve(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    bins: int = 10,
    strategy: Strategy = "uniform",
    ci: Literal["wilson", "clopper_pearson"] | None = "wilson",
    alpha: float = 0.05,
    pos_label: Any = None,
) -> Frame:
    """Calibration (reliability) curves: per bin of predicted probability, the observed
    fraction of positives, with a confidence interval.

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth
        Column with the true label; ``pos_label`` is the positive class, all others negative.
    score
        The predicted probability of ``pos_label``: numeric, finite, in [0, 1].
    by
        Key column(s); one curve per group.
    bins
        Number of bins (an integer ≥ 1).
    strategy
        ``"uniform"``: equal-width bins on [0, 1]; ``"quantile"``: per group, bins holding
        (about) equal numbers of rows, with edges at the group's score percentiles.
    ci
        ``"wilson"`` (default), ``"clopper_pearson"`` (exact, conservative) or None (the
        interval columns are null).
    alpha
        The intervals have coverage 1 − alpha (two-sided).
    pos_label
        The positive class. Default: ``True`` for a boolean, 1 for a numeric column; required
        for string labels. It must occur somewhere in the frame.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, bin, bin_lower, bin_upper, mean_score,
    fraction_positive, count, ci_low, ci_high``, sorted by the keys and ``bin``; one row per
    non-empty bin (empty bins are absent, as in scikit-learn). ``bin`` (Int64) numbers the bins
    from 0; ``bin_lower`` < score ≤ ``bin_upper`` are its edges (the first bin also holds
    score = ``bin_lower``); ``mean_score`` is the bin's mean predicted probability,
    ``fraction_positive`` the share of positive rows, ``count`` (Int64) its rows;
    ``ci_low``/``ci_high`` bound the fraction of positives.

    Notes
    -----
    A calibrated score has fraction_positive ≈ mean_score in every bin: the points lie on the
    diagonal. ``mean_score`` and ``fraction_positive`` equal scikit-learn's
    ``calibration_curve(y, p, n_bins=bins, strategy=strategy)`` (``prob_pred``, ``prob_true``)
    and the edges its bin edges (see the module notes). The Wilson score interval (Wilson
    1927) with z = Φ⁻¹(1 − α/2), q = k/n,

        (q + z²/2n ± z·√(q(1 − q)/n + z²/4n²)) / (1 + z²/n),

    and the Clopper–Pearson interval [B(α/2; k, n − k + 1), B(1 − α/2; k + 1, n − k)] (B the
    beta quantile; 0 when k = 0, 1 when k = n) equal statsmodels' ``proportion_confint(k, n,
    alpha, method="wilson" | "beta")``. Wilson is a closed form in the plan; Clopper–Pearson
    runs scipy once over the (small) per-bin table when the plan is collected. Rows are not
    weighted (scikit-learn's function has no weights either).

    References
    ----------
    Niculescu-Mizil, A. & Caruana, R. (2005). Predicting good probabilities with supervised
    learning. ICML 2005, 625–632.
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
    Journal of the American Statistical Association 22(158), 209–212.
    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
    illustrated in the case of the binomial. Biometrika 26(4), 404–413.

    See Also
    --------
    calibration_error, brier_decomposition, frameeval.charts.calibration

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]})
    >>> out = fe.calibration_curve(df, truth="y", score="p", bins=2, ci=None)
    >>> out.select("bin", pl.col("mean_score", "fraction_positive").round(4), "count").rows()
    [(0, 0.2, 0.3333, 3), (1, 0.7667, 0.6667, 3)]
    """
    func = "calibration_curve"
    check_bins(func, bins, strategy)
    check_parameter(
        ci in ("wilson", "clopper_pearson", None),
        func,
        f"ci must be 'wilson', 'clopper_pearson' or None, got {ci!r}.",
    )
    check_parameter(
        isinstance(alpha, float | int) and not isinstance(alpha, bool) and 0.0 < alpha < 1.0,
        func,
        f"alpha must be a number in (0, 1), got {alpha!r}.",
    )
    outputs = (
        "bin",
        "bin_lower",
        "bin_upper",
        "mean_score",
        "fraction_positive",
        "count",
        "ci_low",
        "ci_high",
    )
    inp = binary_input(data, func, truth, score, by, pos_label, outputs)
    stats = bin_stats(inp.lf, inp.gkeys, inp.keys, inp.checks, bins, strategy)
    stats = _interval(stats, ci, float(alpha))
    n = pl.col(COUNT).cast(pl.Float64)
    out = stats.select(
        *inp.gkeys,
        pl.col(BIN).alias("bin"),
        "bin_lower",
        "bin_upper",
        (pl.col(SUM_P) / n).alias("mean_score"),
        (pl.col(SUM_Y) / n).alias("fraction_positive"),
        COUNT,
        "ci_low",
        "ci_high",
    )
    return inp.done(out, "bin")


# ---------------------------------------------------------------------------------------------
# calibration errors
# ---------------------------------------------------------------------------------------------
def _errors(stats: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """``*keys, ece, mce`` from per-bin statistics."""
    gap = (pl.col(SUM_Y) - pl.col(SUM_P)).abs()
    return stats.group_by(*keys).agg(
        (gap.sum() / pl.col(COUNT).sum().cast(pl.Float64)).alias("ece"),
        (gap / pl.col(COUNT).cast(pl.Float64)).max().alias("mce"),
    )


@frame_function
def calibration_error(
    data: IntoFrame,
    truth: str,
    score: str | Mapping[Any, str] | Sequence[str],
    *,
    labels: Sequence[Any] | None = None,
    by: Keys = None,
    bins: int = 10,
    strategy: Strategy = "uniform",
    multiclass: Literal["top_label", "classwise"] = "top_label",
    pos_label: Any = None,
    tolerance: float = TOLERANCE,
) -> Frame:
    """Expected and maximum calibration error (ECE, MCE) per group, binary or multiclass.

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth
        Column with the true label.
    score
        Binary: the name of a numeric column holding the probability of ``pos_label``.
        Multiclass: the probabilities of every class, in the forms of
        :func:`multiclass_log_loss` (a mapping ``{class: column}``, a list of columns with
        ``labels=``, or the name of one List / Array column with ``labels=``).
    labels
        The classes of a multiclass ``score`` given as a list of columns or a list column.
    by
        Key column(s); one row per group.
    bins, strategy
        The bins, as in :func:`calibration_curve`; ``strategy="quantile"`` gives the adaptive
        ECE (equal-mass bins).
    multiclass
        ``"top_label"`` (default): the ECE of the confidence max_k p_k against whether the top
        class (ties: the first class in order) is the true one (Guo et al. 2017).
        ``"classwise"``: the mean over classes of each class's one-vs-rest ECE of p_k (Kull et
        al. 2019); ``mce`` is then the largest gap over all classes and bins.
    pos_label
        The positive class of a binary task (default ``True`` / 1, as in
        :func:`calibration_curve`).
    tolerance
        Multiclass: each row's probabilities must sum to 1 within this.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, ece, mce`` (Float64), sorted by the keys.

    Notes
    -----
    Over the non-empty bins b of the group's N rows, with n_b rows, mean score p̄_b and
    fraction of positives ō_b (those of :func:`calibration_curve`),

        ECE = Σ_b (n_b / N)·|ō_b − p̄_b|,   MCE = max_b |ō_b − p̄_b|.

    Both are 0 for a perfectly calibrated binned score and at most 1; lower is better. They
    are defined for a group with one class (ō_b is then 0 or 1 everywhere). Which to use:
    uniform bins (the usual ECE) can leave a few high-confidence bins holding most rows and
    others nearly empty, so their gaps are noisy; quantile bins (adaptive ECE, Nixon et al.
    2019) give every bin the same mass and are the better default for sharp, skewed scores.
    ECE depends on the binning and is biased upward for small bins (a perfectly calibrated
    score shows a gap from sampling noise alone); compare values only at the same binning and
    similar group sizes, and prefer a proper score (:func:`frameeval.brier_score`, its
    :func:`brier_decomposition`) to rank models. Top-label ECE judges only the class a model
    would predict; class-wise ECE judges every class's probability.

    References
    ----------
    Naeini, M. P., Cooper, G. & Hauskrecht, M. (2015). Obtaining well calibrated probabilities
    using Bayesian binning. AAAI 2015, 2901–2907.
    Guo, C., Pleiss, G., Sun, Y. & Weinberger, K. Q. (2017). On calibration of modern neural
    networks. ICML 2017, 1321–1330.
    Kull, M. et al. (2019). Beyond temperature scaling: obtaining well-calibrated multi-class
    probabilities with Dirichlet calibration. NeurIPS 2019.
    Nixon, J. et al. (2019). Measuring calibration in deep learning. CVPR Workshops 2019.

    See Also
    --------
    calibration_curve, brier_decomposition

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]})
    >>> fe.calibration_error(df, truth="y", score="p", bins=2).select(pl.all().round(6)).rows()
    [(0.116667, 0.133333)]
    """
    func = "calibration_error"
    check_bins(func, bins, strategy)
    check_parameter(
        multiclass in ("top_label", "classwise"),
        func,
        f"multiclass must be 'top_label' or 'classwise', got {multiclass!r}.",
    )
    outputs = ("ece", "mce")
    binary = isinstance(score, str)
    if binary:
        assert isinstance(score, str)
        lf = to_lazy(data, func)[0]
        dtype = lf.collect_schema().get(score)
        binary = not isinstance(dtype, pl.List | pl.Array)
    if binary:
        assert isinstance(score, str)
        check_parameter(
            labels is None, func, f"labels= is for a multiclass score, got labels={labels!r}."
        )
        inp = binary_input(data, func, truth, score, by, pos_label, outputs)
        stats = bin_stats(inp.lf, inp.gkeys, inp.keys, inp.checks, bins, strategy)
        return inp.done(_errors(stats, inp.gkeys))
    inp, k = multiclass_input(data, func, truth, score, labels, by, None, tolerance, outputs)
    probabilities = [pl.col(f"__fe_p{i}") for i in range(k)]
    if multiclass == "top_label":
        top = pl.max_horizontal(probabilities)
        chain: Any = pl
        for i, p in enumerate(probabilities):  # loop-ok: one when/then per class
            chain = chain.when(p == top).then(i)
        lf = inp.lf.with_columns(
            top.alias(PROB),
            (chain.otherwise(None) == pl.col(TRUE_CLASS)).cast(pl.Float64).alias(OUTCOME),
        )
        stats = bin_stats(lf, inp.gkeys, inp.keys, inp.checks, bins, strategy)
        return inp.done(_errors(stats, inp.gkeys))
    # class-wise: the checks run on one row per input row (a per-group aggregation of the
    # probability lists), then the rows are stacked class by class
    per_group = inp.checks.enforce(
        inp.lf.group_by(inp.gkeys).agg(*probabilities, pl.col(TRUE_CLASS), *inp.checks.aggs()),
        inp.keys,
    )
    rows = per_group.explode(*[f"__fe_p{i}" for i in range(k)], TRUE_CLASS)
    long = rows.select(
        *inp.gkeys,
        pl.concat_list(probabilities).alias(PROB),
        pl.lit(pl.Series(range(k), dtype=pl.Int64)).implode().alias(CLASS),
        TRUE_CLASS,
    ).explode(PROB, CLASS)
    long = long.with_columns((pl.col(CLASS) == pl.col(TRUE_CLASS)).cast(pl.Float64).alias(OUTCOME))
    stats = bin_stats(long, [*inp.gkeys, CLASS], inp.keys, Checks(func), bins, strategy)
    per_class = _errors(stats, [*inp.gkeys, CLASS])
    out = per_class.group_by(inp.gkeys).agg(
        pl.col("ece").mean().alias("ece"), pl.col("mce").max().alias("mce")
    )
    return inp.done(out)
