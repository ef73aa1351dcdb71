"""One learner against a hypothesis about its generalisation error (chapter 2.4.1).

* :func:`binomial_test` — one hold-out test set of m instances: is ε ≤ ε0? (eqs 2.26–2.27, with
  the correction of eq 2.27 from the study notes);
* :func:`binomial_distribution` — the distribution of the test error count behind it (figure 2.6);
* :func:`t_test` — k test error rates (repeated hold-out or cross-validation): is μ = ε0?
  (eqs 2.28–2.30).
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

from frameeval._frame import finish
from frameeval._inputs import Column, Inputs
from frameeval._params import NUMPY_SEED, Number
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_alpha, check_parameter, enforce, label_expr
from frameeval.compare.cells import METRIC, with_roles
from frameeval.compare.door import open_frame
from frameeval.compare.plan import agg_by_keys, at_least
from frameeval.compare.plan import signed_ratio as ratio
from frameeval.compare.results import BINOMIAL, T_TEST
from frameeval.compare.scipy_step import mean_std, scipy_step

__all__ = ["binomial_distribution", "binomial_test", "t_test"]
_AT_LEAST_ONE = Number(low=1, integer=True, text=">= 1")
#: t_test's metric column (distinct from the by= keys)
_T_TEST_INPUTS = with_roles(METRIC)


#: the inputs of the binomial test of one learner: its predicted and true labels
LABELS = Inputs(
    Column("truth", "label", "label"), Column("pred", "label", "label"), Column("by"), distinct=True
)


def _check_eps(value: float, name: str, func: str) -> float:
    return float(Number(low=0.0, high=1.0, text="a rate in [0, 1]")(func, name, value))


def critical_count(m: np.ndarray, eps0: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """The smallest count c with P(X > c) < α for X ~ Binomial(m, ε0) (corrected eq 2.27)."""
    m, eps0, alpha = np.broadcast_arrays(
        np.asarray(m, float), np.asarray(eps0, float), np.asarray(alpha, float)
    )
    c = stats.binom.ppf(1.0 - alpha, m, eps0)
    # ppf inverts cdf(c) >= 1 - α; the notes need sf(c) < α strictly: fix the boundary cases
    c = np.where(stats.binom.sf(c - 1.0, m, eps0) < alpha, c - 1.0, c)
    c = np.where(stats.binom.sf(c, m, eps0) < alpha, c, c + 1.0)
    return np.minimum(c, m)


def _binomial_scipy(m: np.ndarray, errors: np.ndarray, eps0: np.ndarray, alpha: np.ndarray):
    count = critical_count(m, eps0, alpha)
    return {
        "p_value": stats.binom.sf(errors - 1.0, m, eps0),
        "critical_count": count,
        "critical_value": count / m,
    }


def _binomial_finish(counts: pl.LazyFrame, keys: list[str], eps0: float, alpha: float):
    out = counts.with_columns(
        pl.lit(eps0).alias("eps0"),
        (pl.col("errors") / pl.col("m")).alias("statistic"),
        pl.lit(alpha).alias("alpha"),
    )
    out = scipy_step(
        out,
        _binomial_scipy,
        ["m", "errors", "eps0", "alpha"],
        ["p_value", "critical_count", "critical_value"],
    )
    out = out.with_columns(pl.col("critical_count").cast(pl.Int64))
    return BINOMIAL.out(BINOMIAL.decide(out), keys)


@frame_function
def binomial_test(
    data: IntoFrame | None = None,
    *,
    truth: str | None = None,
    pred: str | None = None,
    errors: int | None = None,
    m: int | None = None,
    eps0: float,
    by: Keys = None,
    alpha: float = 0.05,
) -> Frame:
    """Binomial test of "ε ≤ ε0" for the error rate measured on one test set (chapter 2.4.1).

    A learner with generalisation error rate ε misclassifies X ~ Binomial(m, ε) of m independent
    test instances (eq 2.26). Under the hypothesis ε ≤ ε0 a test error rate above the critical
    rate ε̄ is a rare event, so observing one rejects the hypothesis at significance α.

    Two forms: from numbers (``errors=`` misclassified of ``m=``, returns a one-row
    ``pl.DataFrame``), or from a prediction frame (``truth=``, ``pred=``; one test per ``by``
    group, same kind as ``data``).

    Parameters
    ----------
    data
        Prediction frame (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        test instance. Omit it for the numbers form.
    truth, pred
        Columns with the true and the predicted label (frame form).
    errors, m
        Number of misclassified test instances and size of the test set (numbers form):
        integers with 0 ≤ errors ≤ m, m ≥ 1.
    eps0
        The hypothesised error rate ε0 in [0, 1].
    by
        Key column(s) of the frame form: one test per group.
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    ``*by, m, errors, eps0, statistic, p_value, critical_count, critical_value, alpha, reject``,
    sorted by keys:

    * ``m`` — test instances (Int64); ``errors`` — misclassified ones (Int64);
    * ``statistic`` — the test error rate ε̂ = errors / m;
    * ``p_value`` — P(X ≥ errors | ε = ε0), the one-sided p-value of "ε ≤ ε0";
    * ``critical_count`` — c = min c′ such that P(X > c′ | ε0) < α (Int64), and
      ``critical_value`` — the critical error rate ε̄ = c / m;
    * ``reject`` — ε̂ > ε̄ (equivalently errors > c, equivalently p_value < α): the hypothesis
      ε ≤ ε0 is rejected at level α.

    Notes
    -----
    The printed eq 2.27 (ε̄ = max ε s.t. Σ_{i=ε0·m+1}^{m} C(m,i) εⁱ(1−ε)^{m−i} < α) has ``max``
    for ``min`` and ε0 and ε swapped; the study notes ("式(2.27)的解释") correct it to

        ε̄ = min ε′  s.t.  Σ_{i = ε′·m + 1}^{m} C(m, i) ε0ⁱ (1 − ε0)^{m−i} < α,

    i.e. P(ε̂ > ε̄ | ε = ε0) < α, which is what is computed here (the count c is MATLAB's
    ``icdf('Binomial', 1 − α, m, ε0)``, corrected to the strict inequality where the cdf hits
    1 − α exactly). Not rejecting does **not** mean "ε ≤ ε0 with probability ≥ 1 − α": it means
    that if ε ≤ ε0, a test error rate as large as this one would not be rare (see the docs page
    "Which test when").

    The test assumes the m test instances are independent draws. Nothing is undefined (m ≥ 1).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.1, eqs 2.26–2.27, figure 2.6.

    See Also
    --------
    binomial_distribution : the distribution of figure 2.6.
    t_test : several test error rates.

    Examples
    --------
    >>> fe.binomial_test(errors=6, m=10, eps0=0.3).select(
    ...     "statistic", "critical_count", "critical_value", "reject").row(0)
    (0.6, 5, 0.5, True)
    """
    func = "binomial_test"
    alpha = check_alpha(alpha, func)
    eps0 = _check_eps(eps0, "eps0", func)
    if data is None:
        check_parameter(
            truth is None and pred is None and by is None,
            func,
            "truth=, pred= and by= need data=, got no data.",
        )
        for name, value in (("errors", errors), ("m", m)):
            NUMPY_SEED(func, name, value)  # any integer
        _AT_LEAST_ONE(func, "m", m)
        check_parameter(
            0 <= errors <= m,  # type: ignore[operator]
            func,
            f"errors must be between 0 and m={m}, got {errors!r}.",
        )
        counts = pl.LazyFrame(
            {"m": [int(m)], "errors": [int(errors)]},  # type: ignore[arg-type]
            schema={"m": pl.Int64, "errors": pl.Int64},
        )
        return _binomial_finish(counts, [], eps0, alpha).collect()

    check_parameter(
        errors is None and m is None,
        func,
        f"pass either data= with truth=/pred= or errors=/m=, got both (errors={errors!r}, "
        f"m={m!r}).",
    )
    check_parameter(
        truth is not None and pred is not None,
        func,
        f"truth= and pred= are required with data=, got truth={truth!r}, pred={pred!r}.",
    )
    assert truth is not None and pred is not None  # for the type checker: checked just above
    door = LABELS.open(data, func, truth=truth, pred=pred, by=by)
    lf, eager, keys, schema, checks = door.lf, door.eager, door.keys, door.schema, door.checks
    BINOMIAL.check(func, keys)
    wrong = label_expr(truth, schema) != label_expr(pred, schema)
    aggs = [
        pl.len().cast(pl.Int64).alias("m"),
        wrong.sum().cast(pl.Int64).alias("errors"),
        *checks.aggs(),
    ]
    counts = checks.enforce(agg_by_keys(lf, keys, aggs), keys)
    if not keys:  # an empty lazy frame has no test set
        counts = counts.filter(pl.col("m") > 0)
    return finish(_binomial_finish(counts, keys, eps0, alpha), eager)


def binomial_distribution(m: int, eps: float, *, alpha: float | None = None) -> pl.DataFrame:
    """The distribution of the test error rate for a learner with error rate ε (figure 2.6).

    P(ε̂ = k/m | ε) = C(m, k) εᵏ (1 − ε)^{m−k} for k = 0…m misclassified of m test instances
    (eq 2.26).

    Parameters
    ----------
    m
        Size of the test set, ≥ 1.
    eps
        Generalisation error rate ε in [0, 1].
    alpha
        Optional significance level: adds ``reject``, the region beyond the critical count of
        :func:`binomial_test` with ε0 = ``eps`` (the shaded tail of figure 2.6, whose total
        probability is < α).

    Returns
    -------
    ``pl.DataFrame`` with ``errors`` (k, Int64), ``error_rate`` (k / m), ``probability``
    (P(X = k)), and with ``alpha``: ``reject`` (k > critical count). Sorted by ``errors``.

    Notes
    -----
    Eq 2.26; figure 2.6 draws m = 10, ε = 0.3. Computed with ``scipy.stats.binom.pmf``.

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.1, eq 2.26, figure 2.6.

    Examples
    --------
    >>> fe.binomial_distribution(10, 0.3)["probability"].round(4).to_list()[:4]
    [0.0282, 0.1211, 0.2335, 0.2668]
    """
    func = "binomial_distribution"
    Number(low=1, integer=True)(func, "m", m)
    eps = _check_eps(eps, "eps", func)
    k = np.arange(int(m) + 1)
    out = pl.DataFrame(
        {
            "errors": k.astype(np.int64),
            "error_rate": k / m,
            "probability": stats.binom.pmf(k, m, eps),
        }
    )
    if alpha is not None:
        alpha = check_alpha(alpha, func)
        count = int(critical_count(np.array([m]), np.array([eps]), np.array([alpha]))[0])
        out = out.with_columns(pl.lit(count).alias("critical_count"))
        out = BINOMIAL.decide(out).drop("critical_count")
    return out


def _t_scipy(statistic: np.ndarray, df: np.ndarray, alpha: np.ndarray):
    return {
        "p_value": 2.0 * stats.t.sf(np.abs(statistic), df),
        "critical_value": stats.t.ppf(1.0 - alpha / 2.0, df),
    }


def t_decision(frame: pl.LazyFrame) -> pl.LazyFrame:
    """Two-sided t decision on ``statistic``, ``df``, ``alpha``: p_value, critical_value,
    reject (|statistic| > critical_value; null where the statistic is)."""
    out = scipy_step(frame, _t_scipy, ["statistic", "df", "alpha"], ["p_value", "critical_value"])
    return T_TEST.decide(out)


@frame_function
def t_test(
    data: IntoFrame, metric: str, *, eps0: float, by: Keys = None, alpha: float = 0.05
) -> Frame:
    """Two-sided one-sample t test of "μ = ε0" over k test error rates (eqs 2.28–2.30).

    Repeated hold-out or cross-validation gives k test error rates ε̂₁…ε̂_k of one learner; if
    they are independent samples of its generalisation error rate, τ_t follows a t distribution
    with k − 1 degrees of freedom under the hypothesis μ = ε0.

    Parameters
    ----------
    data
        Frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted), one row
        per test error rate (e.g. per fold), all rows of a group forming one sample.
    metric
        Column with the values (any numeric metric; the book uses error rates).
    eps0
        Hypothesised mean ε0 (any finite number).
    by
        Key column(s): one test per group (e.g. ``"learner"``).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, n_values, mean, std, eps0, statistic, df, p_value,
    critical_value, alpha, reject``, sorted by keys: ``n_values`` = k (Int64); ``mean`` = μ and
    ``std`` = σ (eqs 2.28, 2.29: the sample standard deviation, dividing by k − 1);
    ``statistic`` = τ_t = √k (μ − ε0) / σ (eq 2.30, signed); ``df`` = k − 1 (Int64);
    ``p_value`` = 2 P(T > |τ_t|); ``critical_value`` = t_{α/2, k−1} (the upper α/2 quantile);
    ``reject`` = |τ_t| > t_{α/2, k−1}.

    Notes
    -----
    The book's wording "|μ − ε0| within [t_{−α/2}, t_{α/2}]" compares τ_t, not μ − ε0, with the
    critical values (erratum in the study notes). When all k values are equal, σ = 0 exactly
    and μ is that value; the statistic is then ±inf (p-value 0) when μ ≠ ε0 and undefined (null,
    as are ``p_value`` and ``reject``) when μ = ε0. A group
    needs k ≥ 2 values (``InsufficientDataError``). The test error rates of cross-validation are
    not independent, so the test is optimistic (more rejections than α); see
    :func:`cv5x2_t_test`.

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.1, eqs 2.28–2.30, figure 2.7.

    Examples
    --------
    >>> df = pl.DataFrame({"fold": [1, 2, 3, 4, 5, 6],
    ...                    "error_rate": [0.20, 0.25, 0.22, 0.28, 0.24, 0.21]})
    >>> out = fe.t_test(df, "error_rate", eps0=0.3)
    >>> out.select("n_values", "df", "reject").row(0)
    (6, 5, True)
    """
    func = "t_test"
    alpha = check_alpha(alpha, func)
    Number()(func, "eps0", eps0)
    lf, eager, keys, schema = open_frame(data, func, by)
    checks = _T_TEST_INPUTS.compile(schema, func, clash=T_TEST.columns, metric=metric, by=keys)
    mean, std = mean_std(pl.col(metric).cast(pl.Float64))
    aggs = [
        pl.len().cast(pl.Int64).alias("n_values"),
        mean.alias("mean"),
        std.alias("std"),
        *checks.aggs(),
    ]
    stats_ = checks.enforce(agg_by_keys(lf, keys, aggs), keys)
    if not keys:
        stats_ = stats_.filter(pl.col("n_values") > 0)
    stats_ = enforce(stats_, at_least("n_values", 2, func, f"values of {metric!r}", keys))
    n = pl.col("n_values").cast(pl.Float64)
    out = stats_.with_columns(
        pl.lit(float(eps0)).alias("eps0"),
        ratio(n.sqrt() * (pl.col("mean") - float(eps0)), pl.col("std")).alias("statistic"),
        (pl.col("n_values") - 1).alias("df"),
        pl.lit(alpha).alias("alpha"),
    )
    return finish(T_TEST.out(t_decision(out), keys), eager)
