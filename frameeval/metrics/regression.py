"""Regression measures (eq 2.2 and its density form 2.3), declared once each.

Every measure here reads *named per-group statistics* (:class:`Statistic`): weighted sums such
as Σw, Σw·y, Σw·y², Σw·f, Σw·f², Σw·y·f, Σw·e² (e = f − y), which merge across partitions by
addition, so R², explained variance, Pearson's r and Lin's CCC merge like the MSE; the
smallest / largest value (a min / max, merged by min / max), which detects a constant truth and
gives the maximum error; and one statistic that does not merge, the (weighted) median of |e|.
:func:`frameeval.measures` computes each statistic once per group for all the measures that
read it.

The moments are one-pass sums: a variance is Σw·y² − (Σw·y)²/Σw. Its relative rounding error
is about ε·(ȳ² + s²)/s² (ε = 2.2e-16), so for a truth whose spread s is tiny next to its mean
(|ȳ|/s ≳ 10⁶) R², explained variance, r and CCC lose digits; centre such a column first.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from frameeval._params import POSITIVE, Number
from frameeval._validate import check_parameter, finite
from frameeval.metrics.builders import finite_number
from frameeval.metrics.measure import Bound, Measure, Statistic, declare, publish
from frameeval.metrics.stats import positive_part, ratio

# ---------------------------------------------------------------------------------------------
# the shared statistics (one object each, so fe.measures computes each once per group)
# ---------------------------------------------------------------------------------------------
W = Statistic(None)  # Σ w (the row count without weights)
Y = Statistic(lambda y, f: y)  # Σ w·y
YY = Statistic(lambda y, f: y * y)  # Σ w·y²
F = Statistic(lambda y, f: f)  # Σ w·f
FF = Statistic(lambda y, f: f * f)  # Σ w·f²
YF = Statistic(lambda y, f: y * f)  # Σ w·y·f
EE = Statistic(lambda y, f: (f - y) ** 2, proves_finite=True)  # Σ w·e²
AE = Statistic(lambda y, f: (f - y).abs(), proves_finite=True)  # Σ w·|e|
Y_MIN = Statistic(lambda y, f: y, "min")  # smallest truth (of positive weight)
Y_MAX = Statistic(lambda y, f: y, "max")
F_MIN = Statistic(lambda y, f: f, "min")
F_MAX = Statistic(lambda y, f: f, "max")
AE_MAX = Statistic(lambda y, f: (f - y).abs(), "max")
#: 2⁻⁵²⁰: a power of two, so x·SCALE is exact; (1.8e308·SCALE)² ≈ 2.8e303 does not overflow.
#: The squared sums below are the fallback of RMSE and R² when Σ w·e² or Σ w·y² overflows
#: Float64 (values past ~1e154): still plain sums, so they merge like the others (Dask).
SCALE = 2.0**-520
EE_SCALED = Statistic(lambda y, f: ((f - y) * SCALE) ** 2, unless_finite=EE)  # Σ w·(e·2⁻⁵²⁰)²
YY_SCALED = Statistic(lambda y, f: (y * SCALE) ** 2, unless_finite=YY)  # Σ w·(y·2⁻⁵²⁰)²
AE_MEDIAN = Statistic(lambda y, f: (f - y).abs(), "median")


def _relative_error(y: pl.Expr, f: pl.Expr) -> pl.Expr:
    """(f − y) / y, whose absolute value is |f − y| / |y| exactly (IEEE division: the sign
    apart, |a / b| and |a| / |b| are the same correctly rounded quotient); inf or NaN at y = 0,
    and at a truth so near 0 (or an error so large) that the ratio overflows."""
    return (f - y) / y


# Σ w·|f − y| / |y| over the rows where it is finite (the others make the MAPE undefined)
APE = Statistic(
    lambda y, f: (
        pl.when(finite(_relative_error(y, f))).then(_relative_error(y, f).abs()).otherwise(0.0)
    ),
    # unweighted: every row of a zero truth counts, so the MAPE is null whatever this sum is
    unweighted=lambda y, f: _relative_error(y, f).abs(),
    proves_finite=True,  # unweighted: NaN or ±inf in y or f makes a ratio NaN or ±inf
)
# [|f − y| / |y| is not finite] of a row of positive weight, as a max (1.0: some row is; 0.0:
# none; null: no row, or, over a whole frame, none since Σ|f − y|/|y| is finite): a zero truth (or one that
# overflows the ratio). A max reads the rows once, where a sum Σ w·[…] multiplies each by its
# weight first; it merges by max.
ZERO_TRUTH = Statistic(
    lambda y, f: (~finite(_relative_error(y, f))).cast(pl.Float64), "max", unless_finite=APE
)
SAPE = Statistic(
    lambda y, f: (
        pl.when((y != 0) | (f != 0)).then(2.0 * (f - y).abs() / (y.abs() + f.abs())).otherwise(0.0)
    )
)
SLE = Statistic(lambda y, f: (f.log1p() - y.log1p()) ** 2)


def _variance(s: Any, moment: str, total: str) -> pl.Expr:
    """Σw·(x − x̄)² from the sums (≥ 0)."""
    m, mm = getattr(s, total), getattr(s, moment)
    return pl.max_horizontal(mm - m * m / s.w, pl.lit(0.0))


def _constant(s: Any, low: str, high: str) -> pl.Expr:
    return getattr(s, low) == getattr(s, high)


def _sst(s: Any) -> pl.Expr:
    return _variance(s, "yy", "y")


def _ssf(s: Any) -> pl.Expr:
    return _variance(s, "ff", "f")


def _sxy(s: Any) -> pl.Expr:
    return s.yf - s.y * s.f / s.w


def _defined(value: pl.Expr, undefined: pl.Expr, *moments: pl.Expr) -> pl.Expr:
    """``value``, null where ``undefined`` (or the group is empty) or where a moment it reads
    overflowed Float64; never NaN.

    NaN could only come from a division by 0 (every denominator goes through
    :func:`~frameeval.metrics.stats.positive_part`) or from inf − inf, which needs an
    infinite moment. This replaces a ``fill_nan`` of the result, which an eager ``group_by``
    evaluates group by group (r2 117 → 90 ms, pearson_r 229 → 131 ms on 1M rows × 1,000
    groups).
    """
    bad = undefined.fill_null(True)
    for moment in moments:
        bad = bad | ~moment.is_finite()
    return pl.when(bad).then(None).otherwise(value)


MOMENTS = {"w": W, "y": Y, "yy": YY, "ee": EE, "y_min": Y_MIN, "y_max": Y_MAX}
UNDEFINED_EMPTY = "the group is empty or its total weight is 0"


def _rmse(s: Any) -> pl.Expr:
    """√(Σw·e² / Σw) (``s.row``: Σw·e²); when Σw·e² overflows (errors past ~1e154) the same from the sum of
    the scaled squares, √(Σw·(e·2⁻⁵²⁰)² / Σw) · 2⁵²⁰ — representable up to Float64's max."""
    scaled = ratio(s.ee_scaled, s.w).sqrt() * (1.0 / SCALE)
    return pl.when(s.row.is_finite()).then(ratio(s.row, s.w).sqrt()).otherwise(scaled)


def _r2(s: Any) -> pl.Expr:
    """1 − SSE / SST; when a squared sum overflows (values past ~1e154) the same ratio from
    the scaled sums (SSE and SST both times 2⁻¹⁰⁴⁰: the ratio is unchanged)."""
    # one when/then chain: each branch around an aggregate costs a pass in an eager group_by;
    # the scaled sums are read only where the plain ones overflow (see ``Statistic.unless_finite``)
    y = s.y * SCALE
    sst = pl.max_horizontal(s.yy_scaled - y * y / s.w, pl.lit(0.0))
    scaled = 1.0 - s.ee_scaled / positive_part(sst)
    return (
        pl.when(_constant(s, "y_min", "y_max").fill_null(True))
        .then(None)
        .when((s.ee + s.yy).is_finite())  # both ≥ 0: finite iff neither overflowed
        .then(1.0 - s.ee / positive_part(_sst(s)))
        .when((s.ee_scaled + y).is_finite())
        .then(scaled)
    )


def _explained_variance(s: Any) -> pl.Expr:
    mean_error = (s.f - s.y) / s.w
    residual = pl.max_horizontal(s.ee / s.w - mean_error * mean_error, pl.lit(0.0))
    return _defined(
        1.0 - residual / positive_part(_sst(s) / s.w),
        _constant(s, "y_min", "y_max"),
        s.ee,
        s.yy,
        s.y,
        s.f,
    )


def _pearson(s: Any) -> pl.Expr:
    undefined = _constant(s, "y_min", "y_max") | _constant(s, "f_min", "f_max")
    value = _sxy(s) / positive_part((_sst(s) * _ssf(s)).sqrt())
    return _defined(value.clip(-1.0, 1.0), undefined, s.yf, s.yy, s.ff, s.y, s.f)


def _ccc(s: Any) -> pl.Expr:
    shift = (s.y - s.f) / s.w
    den = (_sst(s) + _ssf(s)) / s.w + shift * shift
    undefined = (_constant(s, "y_min", "y_max") & _constant(s, "f_min", "f_max") & (shift == 0)) | (
        s.w <= 0
    )
    value = 2.0 * _sxy(s) / s.w / positive_part(den)
    return _defined(value.clip(-1.0, 1.0), undefined, s.yf, s.yy, s.ff, s.y, s.f)


def _mape(s: Any) -> pl.Expr:
    # ``s.row``: Σ w·|e|/|y|; ``s.zero``: null (no row) counts as no zero truth.
    # names Σ w·|e|/|y| once, without ``_defined``'s fill_nan, which names its value three
    # times: in a select Polars then shares the sums through a with_columns over every row
    # (fe.mape in a lazy select of 10M rows: 0.34 s of CPU, 0.10 s this way; group_by().agg()
    # measured the same either way). ape / w is NaN only at 0/0 (Σw = 0) or inf/inf (Σw
    # overflowed), both undefined here.
    defined = (s.zero.fill_null(0.0) == 0) & (s.w > 0) & s.w.is_finite()
    return pl.when(defined).then(s.row / s.w)


# -- parameters ---------------------------------------------------------------------------------
_QUANTILE = Number(low=0.0, high=1.0, text="in [0, 1]")


def _check_delta(func: str, delta: Any, **_: Any) -> None:
    POSITIVE(func, "delta", delta)


def _check_alpha(func: str, alpha: Any, **_: Any) -> None:
    _QUANTILE(func, "alpha", alpha)


def _check_power(func: str, power: Any, **_: Any) -> None:
    check_parameter(
        finite_number(power) and not 0 < power < 1,
        func,
        f"power must be a finite number <= 0 or >= 1 (no Tweedie distribution has a power in "
        f"(0, 1)), got {power!r}.",
    )


def _huber(y: pl.Expr, f: pl.Expr, delta: float = 1.0) -> pl.Expr:
    """m·(|e| − m/2) with m = min(|e|, δ): (|e|/2)·|e| where |e| ≤ δ (|e| − |e|/2 is exact)
    and δ(|e| − δ/2) beyond — the two branches' very products, without a ``when``."""
    e = (f - y).abs()
    m = e.clip(upper_bound=delta)
    return m * (e - 0.5 * m)


def _pinball(y: pl.Expr, f: pl.Expr, alpha: float = 0.5) -> pl.Expr:
    d = y - f
    return pl.when(d >= 0).then(alpha * d).otherwise((alpha - 1.0) * d)


def _xlogy(x: pl.Expr, y: pl.Expr) -> pl.Expr:
    return pl.when(x == 0).then(0.0).otherwise(x * y.log())


def _tweedie(y: pl.Expr, f: pl.Expr, power: float = 0.0) -> pl.Expr:
    p = float(power)
    if p == 0:
        return (y - f) ** 2
    if p == 1:
        return 2.0 * (_xlogy(y, y / f) - y + f)
    if p == 2:
        return 2.0 * ((f / y).log() + y / f - 1.0)
    positive = pl.when(y > 0).then(y).otherwise(0.0) if p < 0 else y
    return 2.0 * (
        positive.pow(2 - p) / ((1 - p) * (2 - p))
        - y * f.pow(1 - p) / (1 - p)
        + f.pow(2 - p) / (2 - p)
    )


def _tweedie_domain(power: float = 0.0, why: str | None = None, **_: Any) -> tuple[Bound, ...]:
    """scikit-learn's domain of the Tweedie deviance of a power."""
    why = f"(power={power!r})" if why is None else why
    if power < 0:
        return (Bound("pred", ">", 0.0, why),)
    if power == 0:
        return ()
    if power < 2:
        return (Bound("truth", ">=", 0.0, why), Bound("pred", ">", 0.0, why))
    return (Bound("truth", ">", 0.0, why), Bound("pred", ">", 0.0, why))


def _mean_of(name: str) -> Any:
    return lambda s, **_: ratio(getattr(s, name), s.w)


#: the direction and range of an error measure: 0 for a perfect prediction, lower is better,
#: unbounded above
_LOSS = {"higher_is_better": False, "lower": 0.0, "upper": None, "equation": "—"}
#: the direction and range of a score whose best value is 1 (R², explained variance)
_SCORE = {"higher_is_better": True, "lower": -math.inf, "upper": 1.0, "equation": "—"}
_CORRELATION = {**_SCORE, "lower": -1.0}
_CONSTANT_TRUTH = (
    "the truth is constant in the group ({}; scikit-learn returns 1.0 or 0.0 there) or the "
    "group is empty"
)


def _declare(**declaration: Any) -> Measure:
    """A regression measure (``kind="regression"``; null on an empty group unless it says more)."""
    return declare(**{"kind": "regression", "undefined": UNDEFINED_EMPTY, **declaration})


def _mean_loss(
    name: str, row: Statistic, description: str, text: str, example: str, **more: Any
) -> Measure:
    """A loss that is the weighted mean of one per-row statistic, Σ w·row / Σ w (``more``
    may give another formula of it, ``stats`` the further statistics that formula reads)."""
    stats = {"w": W, "row": row, **more.pop("stats", {})}
    more = {"formula": _mean_of("row"), **_LOSS, **more}
    return _declare(
        name=name, stats=stats, description=description, formula_text=text, example=example, **more
    )


# ---------------------------------------------------------------------------------------------
# the declarations (in the order of fe.MEASURES)
# ---------------------------------------------------------------------------------------------
MSE = _mean_loss(
    "mse",
    EE,
    "mean squared error",
    "E(f; D) = Σ w·(f(x) − y)² / Σ w  (over a density: eq 2.3)",
    "0.4167",
    equation="2.2",
    display="MSE",
)
RMSE = _mean_loss(
    "rmse",
    EE,
    "root mean squared error, √MSE (same units as the target)",
    "RMSE = √(Σ w·(f(x) − y)² / Σ w)",
    "0.6455",
    formula=_rmse,
    stats={"ee_scaled": EE_SCALED},
    equation="2.2",
    display="RMSE",
)
MAE = _mean_loss(
    "mae", AE, "mean absolute error", "MAE = Σ w·|f(x) − y| / Σ w", "0.5", display="MAE"
)
R2 = _declare(
    name="r2",
    formula=_r2,
    stats={**MOMENTS, "ee_scaled": EE_SCALED, "yy_scaled": YY_SCALED},
    **_SCORE,
    description="coefficient of determination: the share of the truth's variance the "
    "predictions explain (1 − SSE / SST)",
    formula_text="R² = 1 − Σ w·(y − f)² / Σ w·(y − ȳ)²,  ȳ = Σ w·y / Σ w",
    undefined=_CONSTANT_TRUTH.format("SST = 0"),
    references=(
        "Wright, S. (1921). Correlation and causation. *J. Agricultural Research* 20, 557–585.",
    ),
    example="0.8571",
    display="R²",
)
EXPLAINED_VARIANCE = _declare(
    name="explained_variance",
    formula=_explained_variance,
    stats={**MOMENTS, "f": F},
    **_SCORE,
    description="explained variance: 1 − Var(f − y) / Var(y) (R² without the penalty for a "
    "constant bias)",
    formula_text="EV = 1 − Var_w(f − y) / Var_w(y)",
    undefined=_CONSTANT_TRUTH.format("Var(y) = 0"),
    example="0.8667",
)
MAPE = _mean_loss(
    "mape",
    APE,
    "mean absolute percentage error, as a fraction (0.1 = 10 %)",
    "MAPE = Σ w·|f − y| / |y| / Σ w",
    "0.1875",
    formula=_mape,
    stats={"zero": ZERO_TRUTH},
    undefined="a truth of positive weight is 0 (|f − y| / 0 is undefined; scikit-learn "
    "divides by 2.2e-16 instead and returns about 4.5e15 × |f|) or so close to 0 that "
    "|f − y| / |y| overflows, or the group is empty (or its total weight is 0, or "
    "overflows)",
    references=(
        "de Myttenaere, A. et al. (2016). Mean absolute percentage error for regression "
        "models. *Neurocomputing* 192, 38–48.",
    ),
    display="MAPE",
)
SMAPE = _mean_loss(
    "smape",
    SAPE,
    "symmetric mean absolute percentage error (range [0, 2])",
    "sMAPE = Σ w·2|f − y| / (|y| + |f|) / Σ w  (a row with y = f = 0 adds 0)",
    "0.1786",
    upper=2.0,
    references=(
        "Makridakis, S. (1993). Accuracy measures: theoretical and practical concerns. "
        "*Int. J. Forecasting* 9, 527–529.",
    ),
    display="SMAPE",
)
_LOG_DOMAIN = (Bound("truth", ">", -1.0, "(log1p)"), Bound("pred", ">", -1.0, "(log1p)"))
#: MSLE and its root: (name, formula, description, formula text, example, display)
MSLE, RMSLE = (
    _mean_loss(name, SLE, description, text, example, domain=lambda **_: _LOG_DOMAIN, **more)
    for name, description, text, example, more in (
        (
            "msle",
            "mean squared logarithmic error (of log(1 + y); truth and pred > −1)",
            "MSLE = Σ w·(log(1 + f) − log(1 + y))² / Σ w",
            "0.0266",
            {},
        ),
        (
            "rmsle",
            "root mean squared logarithmic error, √MSLE",
            "RMSLE = √(Σ w·(log(1 + f) − log(1 + y))² / Σ w)",
            "0.163",
            {"formula": lambda s: ratio(s.row, s.w).sqrt(), "display": "RMSLE"},
        ),
    )
)
#: the median and the largest absolute error: order statistics of |f − y|, read as they are
MEDIAN_ABSOLUTE_ERROR, MAX_ERROR = (
    _declare(
        name=name,
        formula=lambda s: s.value,
        stats={"value": statistic},
        **_LOSS,
        description=description,
        formula_text=text,
        example=example,
    )
    for name, statistic, description, text, example in (
        (
            "median_absolute_error",
            AE_MEDIAN,
            "median absolute error (robust to outliers; not a sum: on Dask the rows are "
            "shuffled by group)",
            "MedAE = weighted median of |f − y| (the midpoint when the cumulative weight "
            "is exactly half, scikit-learn's rule)",
            "0.5",
        ),
        (
            "max_error",
            AE_MAX,
            "maximum absolute error (over rows of positive weight; merges by max)",
            "max |f − y| over rows with w > 0",
            "1.0",
        ),
    )
)
HUBER_LOSS = _mean_loss(
    "huber_loss",
    Statistic(_huber, parametric=True),
    "mean Huber loss: squared for |e| ≤ delta, linear beyond",
    "Σ w·h(f − y) / Σ w,  h(e) = e²/2 if |e| ≤ δ else δ(|e| − δ/2)",
    "0.2083",
    references=(
        "Huber, P. J. (1964). Robust estimation of a location parameter. *Ann. Math. "
        "Statist.* 35, 73–101.",
    ),
    parameters={"delta": 1.0},
    check=_check_delta,
)
PINBALL_LOSS = _mean_loss(
    "pinball_loss",
    Statistic(_pinball, parametric=True),
    "mean pinball (quantile) loss of a prediction of the alpha-quantile",
    "Σ w·ρ(y − f) / Σ w,  ρ(d) = α·d if d ≥ 0 else (α − 1)·d",
    "0.25",
    references=(
        "Koenker, R. & Bassett, G. (1978). Regression quantiles. *Econometrica* 46, 33–50.",
    ),
    parameters={"alpha": 0.5},
    check=_check_alpha,
)
TWEEDIE_DEVIANCE = _mean_loss(
    "tweedie_deviance",
    Statistic(_tweedie, parametric=True),
    "mean Tweedie deviance of power p (0: squared error, 1: Poisson, 2: Gamma)",
    "Σ w·d_p(y, f) / Σ w,  d_p = 2(max(y,0)^(2−p)/((1−p)(2−p)) − y·f^(1−p)/(1−p) "
    "+ f^(2−p)/(2−p)), with the limits at p = 0, 1, 2",
    "0.4167",
    references=(
        "Jørgensen, B. (1987). Exponential dispersion models. *J. R. Statist. Soc. B* 49, 127–162.",
    ),
    parameters={"power": 0.0},
    check=_check_power,
    domain=_tweedie_domain,
)
#: the Tweedie deviance at a fixed power: (distribution, power, truth's rule, text, example)
POISSON_DEVIANCE, GAMMA_DEVIANCE = (
    _mean_loss(
        f"{distribution.lower()}_deviance",
        Statistic(lambda y, f, p=power: _tweedie(y, f, p)),
        f"mean {distribution} deviance (Tweedie power {power:g}; truth {rule} 0, pred > 0)",
        text,
        example,
        domain=lambda p=power, **_: _tweedie_domain(p, ""),
    )
    for distribution, power, rule, text, example in (
        ("Poisson", 1.0, ">=", "Σ w·2(y·log(y/f) − y + f) / Σ w", "0.1383"),
        ("Gamma", 2.0, ">", "Σ w·2(log(f/y) + y/f − 1) / Σ w", "0.0615"),
    )
)
PEARSON_R = _declare(
    name="pearson_r",
    formula=_pearson,
    stats={**MOMENTS, "f": F, "ff": FF, "yf": YF, "f_min": F_MIN, "f_max": F_MAX},
    **_CORRELATION,
    description="Pearson's correlation of truth and prediction (weighted)",
    formula_text="r = Σ w(y − ȳ)(f − f̄) / √(Σ w(y − ȳ)² · Σ w(f − f̄)²)",
    undefined="the truth or the prediction is constant in the group, or the group is empty",
    references=(
        "Pearson, K. (1895). Notes on regression and inheritance in the case of two "
        "parents. *Proc. R. Soc. London* 58, 240–242.",
    ),
    example="0.9548",
)
CCC = _declare(
    name="ccc",
    formula=_ccc,
    stats={**MOMENTS, "f": F, "ff": FF, "yf": YF, "f_min": F_MIN, "f_max": F_MAX},
    **_CORRELATION,
    description="Lin's concordance correlation: agreement with the diagonal f = y",
    formula_text="CCC = 2 s_yf / (s_y² + s_f² + (ȳ − f̄)²), moments with divisor Σ w",
    undefined="truth and prediction are one and the same constant in the group (0/0), or the "
    "group is empty",
    references=(
        "Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate "
        "reproducibility. *Biometrics* 45, 255–268.",
    ),
    example="0.9398",
)
MEAN_ERROR = _declare(
    name="mean_error",
    formula=lambda s: ratio(s.f - s.y, s.w),
    stats={"w": W, "y": Y, "f": F},
    **{**_LOSS, "lower": -math.inf},
    description="mean signed error (bias) f − y: positive = over-prediction; best at 0, so "
    "compare |mean_error|",
    formula_text="ME = Σ w·(f − y) / Σ w",
    example="0.1667",
)

__all__ = publish(globals())
