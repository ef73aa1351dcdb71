"""Calibration curves with confidence intervals, and the calibration errors ECE / MCE."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._frame import to_lazy
from frameeval._inputs import Inputs
from frameeval._params import FLAG, FRACTION
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_parameter
from frameeval.calibration._common import (
    BIN,
    CLASS,
    COUNT,
    MASS,
    OUTCOME,
    PROB,
    SUM_P,
    SUM_W2,
    SUM_Y,
    TOLERANCE,
    TRUE_CLASS,
    WEIGHT,
    Strategy,
    bin_stats,
    binary_input,
    check_bins,
    multiclass_input,
)
from frameeval.curves.table import Setup

# ---------------------------------------------------------------------------------------------
# calibration curves and their intervals
# ---------------------------------------------------------------------------------------------
#: the one-vs-rest rows of the multiclass ECE are built from checked rows: no rules of their own
NO_INPUTS = Inputs()


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


def _interval(
    stats: pl.LazyFrame, ci: str | None, alpha: float, n_eff: bool = False
) -> pl.LazyFrame:
    """Add ``ci_low, ci_high`` for the fraction of positives Σy / n of each bin: n the bin's
    mass (rows, or Σw), or with ``n_eff`` Kish's effective sample size (Σw)² / Σw² with
    k = fraction · n."""
    k, n = pl.col(SUM_Y), pl.col(MASS)
    if n_eff:
        n = n * n / pl.col(SUM_W2)
        k = pl.col(SUM_Y) / pl.col(MASS) * n
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


#: the columns of a calibration curve besides its keys (``weight``: with weights only)
COLUMNS = (
    "bin",
    "bin_lower",
    "bin_upper",
    "mean_score",
    "fraction_positive",
    "count",
    "weight",
    "ci_low",
    "ci_high",
)


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
    weight: str | None = None,
    frequency_weights: bool = False,
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
    weight
        Optional column of row weights (numeric, finite, ≥ 0): the means of a bin become
        weighted means, and quantile edges weighted percentiles (see Notes).
    frequency_weights
        With ``weight``: ``False`` (default) treats the weights as importance / sampling
        weights, and the intervals use Kish's effective sample size of the bin;
        ``True`` treats them as counts of identical rows (e.g. a table of counts), and the
        intervals use n = Σw — integer weights then give exactly the intervals of the repeated
        rows. Ignored without ``weight``.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, bin, bin_lower, bin_upper, mean_score,
    fraction_positive, count, ci_low, ci_high`` (and ``weight`` after ``count`` when
    ``weight=`` is given), sorted by the keys and ``bin``; one row per non-empty bin (empty
    bins are absent, as in scikit-learn; with weights, so are bins whose weights sum to 0).
    ``bin`` (Int64) numbers the bins from 0; ``bin_lower`` < score ≤ ``bin_upper`` are its
    edges (the first bin also holds score = ``bin_lower``); ``mean_score`` is the bin's
    (weighted) mean predicted probability, ``fraction_positive`` the (weighted) share of
    positive rows, ``count`` (Int64) its rows — not weighted — and ``weight`` (Float64) its
    Σw; ``ci_low``/``ci_high`` bound the fraction of positives.

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
    runs scipy once over the (small) per-bin table when the plan is collected.

    **Weights.** With weights wᵢ, a bin b's mean score is Σ wᵢpᵢ / W_b and its fraction of
    positives q_b = Σ wᵢyᵢ / W_b (W_b = Σ_{i∈b} wᵢ); integer weights give exactly the means of
    the repeated rows. Uniform edges do not depend on the weights; quantile edges are numpy's
    weighted percentiles ``numpy.percentile(score, …, weights=w, method="inverted_cdf")``
    (the smallest score whose share of the group's weight reaches q; numpy defines no other
    weighted percentile), so a column of ones does *not* reproduce the unweighted
    (interpolated) quantile edges, but integer weights equal the repeated rows with weight 1.
    The intervals of a weighted bin are those above at the bin's effective sample size
    n = n_eff = W_b² / Σ_{i∈b} wᵢ² (Kish 1965) with k = q_b·n_eff — the binomial variance of a
    weighted mean, q(1 − q)·Σw² / (Σw)², matches the unweighted formula at that n; equal
    weights give n_eff = n_b and the unweighted interval. With ``frequency_weights=True``,
    n = W_b and k = Σ wᵢyᵢ (the rows a weight counts). scikit-learn's function has no weights.

    References
    ----------
    Niculescu-Mizil, A. & Caruana, R. (2005). Predicting good probabilities with supervised
    learning. ICML 2005, 625–632.
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
    Journal of the American Statistical Association 22(158), 209–212.
    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
    illustrated in the case of the binomial. Biometrika 26(4), 404–413.
    Kish, L. (1965). Survey Sampling. Wiley, New York (§11.7, the effective sample size).

    See Also
    --------
    calibration_error, brier_decomposition, frameeval.charts.calibration

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]})
    >>> out = fe.calibration_curve(df, truth="y", score="p", bins=2, ci=None)
    >>> out.select("bin", pl.col("mean_score", "fraction_positive").round(4), "count").rows()
    [(0, 0.2, 0.3333, 3), (1, 0.7667, 0.6667, 3)]
    >>> weighted = df.with_columns(w=pl.Series([1.0, 2.0, 0.0, 1.0, 3.0, 1.5]))
    >>> out = fe.calibration_curve(weighted, truth="y", score="p", bins=2, weight="w", ci=None)
    >>> out.select("count", "weight", pl.col("fraction_positive").round(4)).rows()
    [(3, 3.0, 0.0), (3, 5.5, 0.8182)]
    """
    func = "calibration_curve"
    check_bins(func, bins, strategy)
    check_parameter(
        ci in ("wilson", "clopper_pearson", None),
        func,
        f"ci must be 'wilson', 'clopper_pearson' or None, got {ci!r}.",
    )
    FRACTION(func, "alpha", alpha)
    FLAG(func, "frequency_weights", frequency_weights)
    outputs = (*(c for c in COLUMNS if c != "weight"), *(["weight"] if weight is not None else []))
    inp = binary_input(data, func, truth, score, by, pos_label, outputs, weight)
    weighted = weight is not None
    stats = bin_stats(inp, bins, strategy, weighted=weighted)
    if weighted:
        stats = stats.filter(pl.col(MASS) > 0)
    stats = _interval(stats, ci, float(alpha), n_eff=weighted and not frequency_weights)
    n = pl.col(MASS)
    out = stats.select(
        *inp.gkeys,
        pl.col(BIN).alias("bin"),
        "bin_lower",
        "bin_upper",
        (pl.col(SUM_P) / n).alias("mean_score"),
        (pl.col(SUM_Y) / n).alias("fraction_positive"),
        COUNT,
        *([n.alias("weight")] if weighted else []),
        "ci_low",
        "ci_high",
    )
    return inp.done(inp.sort(out, "bin"))


# ---------------------------------------------------------------------------------------------
# calibration errors
# ---------------------------------------------------------------------------------------------
def _errors(stats: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """``*keys, ece, mce`` from per-bin statistics (weighted sums over the bin's mass); null
    when the group's weights sum to 0 (bins of zero weight do not count for the MCE)."""
    gap = (pl.col(SUM_Y) - pl.col(SUM_P)).abs()
    mass = pl.col(MASS)
    total = mass.sum()
    return stats.group_by(*keys).agg(
        pl.when(total > 0).then(gap.sum() / total).alias("ece"),
        pl.when(mass > 0).then(gap / mass).max().alias("mce"),
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
    weight: str | None = None,
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
    weight
        Optional column of row weights (numeric, finite, ≥ 0); see Notes.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, ece, mce`` (Float64), sorted by the keys; both
    null for a group whose weights sum to 0.

    Notes
    -----
    Over the non-empty bins b of the group's N rows, with n_b rows, mean score p̄_b and
    fraction of positives ō_b (those of :func:`calibration_curve`),

        ECE = Σ_b (n_b / N)·|ō_b − p̄_b|,   MCE = max_b |ō_b − p̄_b|.

    With weights, n_b / N becomes W_b / W (the bin's share of the group's weight) and p̄_b,
    ō_b are the weighted means of :func:`calibration_curve`; the MCE keeps its definition over
    the bins of positive weight. Integer weights give exactly the values of the repeated rows
    (with ``strategy="quantile"``: of the repeated rows carrying weight 1, since weighted
    quantile edges are numpy's ``inverted_cdf`` percentiles, see :func:`calibration_curve`).

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
    weighted = weight is not None
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
        inp = binary_input(data, func, truth, score, by, pos_label, outputs, weight)
    else:
        inp, k = multiclass_input(data, func, truth, score, labels, by, weight, tolerance, outputs)
        if weight is not None:
            inp.lf = inp.lf.with_columns(pl.col(weight).cast(pl.Float64).alias(WEIGHT))
        if multiclass == "classwise":
            return inp.done(inp.sort(_classwise_errors(inp, k, func, bins, strategy, weighted)))
        probabilities = [pl.col(f"__fe_p{i}") for i in range(k)]
        top = pl.max_horizontal(probabilities)
        chain: Any = pl
        for i, p in enumerate(probabilities):  # loop-ok: one when/then per class
            chain = chain.when(p == top).then(i)
        inp.lf = inp.lf.with_columns(
            top.alias(PROB),
            (chain.otherwise(None) == pl.col(TRUE_CLASS)).cast(pl.Float64).alias(OUTCOME),
        )
    stats = bin_stats(inp, bins, strategy, weighted=weighted)
    return inp.done(inp.sort(_errors(stats, inp.gkeys)))


def _classwise_errors(
    inp: Setup, k: int, func: str, bins: int, strategy: str, weighted: bool
) -> pl.LazyFrame:
    """``*gkeys, ece, mce`` of the class-wise multiclass calibration error: the mean ECE and the
    largest MCE of the one-vs-rest problems of the ``k`` classes."""
    carried = [WEIGHT] if weighted else []
    probabilities = [pl.col(f"__fe_p{i}") for i in range(k)]
    # the checks run on one row per input row (a per-group aggregation of the probability
    # lists), then the rows are stacked class by class
    per_group = inp.checks.enforce(
        inp.lf.group_by(inp.gkeys).agg(
            *probabilities, pl.col(TRUE_CLASS), *carried, *inp.checks.aggs()
        ),
        inp.keys,
    )
    rows = per_group.explode(*[f"__fe_p{i}" for i in range(k)], TRUE_CLASS, *carried)
    long = rows.select(
        *inp.gkeys,
        pl.concat_list(probabilities).alias(PROB),
        pl.lit(pl.Series(range(k), dtype=pl.Int64)).implode().alias(CLASS),
        TRUE_CLASS,
        *carried,
    ).explode(PROB, CLASS)
    long = long.with_columns((pl.col(CLASS) == pl.col(TRUE_CLASS)).cast(pl.Float64).alias(OUTCOME))
    stacked = replace(
        inp, lf=long, gkeys=[*inp.gkeys, CLASS], checks=NO_INPUTS.compile(inp.schema, func)
    )
    stats = bin_stats(stacked, bins, strategy, weighted=weighted)
    per_class = _errors(stats, [*inp.gkeys, CLASS])
    return per_class.group_by(inp.gkeys).agg(
        pl.col("ece").mean().alias("ece"), pl.col("mce").max().alias("mce")
    )
