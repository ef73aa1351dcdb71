"""Independent oracles of the regression measures: scikit-learn where it has the measure, scipy
(Huber, Pearson's r) or the textbook definition in numpy (sMAPE, CCC, mean error) otherwise.

Each oracle takes float arrays ``y``, ``f`` and optional weights ``w`` (and the measure's
parameters) and returns the value or None where frameeval documents a null: an empty group or
zero total weight, a constant truth for R² / explained variance (scikit-learn: 1.0 or 0.0),
a zero truth of positive weight for MAPE (scikit-learn: ~4.5e15 × |f|), a constant truth or
prediction for Pearson's r, one shared constant for CCC.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special
import scipy.stats
from sklearn import metrics as skm

Oracle = Callable[..., float | None]


def _kept(y: np.ndarray, f: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    return (y, f) if w is None else (y[w > 0], f[w > 0])


def _constant(x: np.ndarray) -> bool:
    return bool(x.min() == x.max())


def _sk(metric: Callable[..., float], **fixed: Any) -> Oracle:
    def oracle(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None, **kw: Any) -> float:
        return float(metric(y, f, sample_weight=w, **fixed, **kw))

    return oracle


def _average(values: np.ndarray, w: np.ndarray | None) -> float:
    return float(np.average(values, weights=w))


def r2(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float | None:
    return None if _constant(_kept(y, f, w)[0]) else float(skm.r2_score(y, f, sample_weight=w))


def explained_variance(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float | None:
    if _constant(_kept(y, f, w)[0]):
        return None
    return float(skm.explained_variance_score(y, f, sample_weight=w))


def mape(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float | None:
    if (_kept(y, f, w)[0] == 0).any():
        return None
    return float(skm.mean_absolute_percentage_error(y, f, sample_weight=w))


def smape(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float:
    den = np.abs(y) + np.abs(f)
    safe = np.where(den == 0, 1.0, den)
    return _average(np.where(den == 0, 0.0, 2 * np.abs(f - y) / safe), w)


def max_error(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float:
    return float(skm.max_error(*_kept(y, f, w)))  # scikit-learn takes no weights


def huber_loss(
    y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None, delta: float = 1.0
) -> float:
    return _average(scipy.special.huber(delta, f - y), w)


def pearson_r(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float | None:
    ky, kf = _kept(y, f, w)
    if _constant(ky) or _constant(kf):
        return None
    if w is None:
        return float(scipy.stats.pearsonr(y, f).statistic)
    c = np.cov(y, f, aweights=w)
    return float(c[0, 1] / np.sqrt(c[0, 0] * c[1, 1]))


def ccc(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float | None:
    """Lin (1989), eq 2: 2·s_yf / (s_y² + s_f² + (ȳ − f̄)²), moments with divisor Σw."""
    my, mf = np.average(y, weights=w), np.average(f, weights=w)
    vy = np.average((y - my) ** 2, weights=w)
    vf = np.average((f - mf) ** 2, weights=w)
    cov = np.average((y - my) * (f - mf), weights=w)
    den = vy + vf + (my - mf) ** 2
    return None if den == 0 else float(2 * cov / den)


def mean_error(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float:
    return _average(f - y, w)


ORACLES: dict[str, Oracle] = {
    "mse": _sk(skm.mean_squared_error),
    "rmse": _sk(skm.root_mean_squared_error),
    "mae": _sk(skm.mean_absolute_error),
    "r2": r2,
    "explained_variance": explained_variance,
    "mape": mape,
    "smape": smape,
    "msle": _sk(skm.mean_squared_log_error),
    "rmsle": _sk(skm.root_mean_squared_log_error),
    "median_absolute_error": _sk(skm.median_absolute_error),
    "max_error": max_error,
    "huber_loss": huber_loss,
    "pinball_loss": _sk(skm.mean_pinball_loss),
    "tweedie_deviance": _sk(skm.mean_tweedie_deviance),
    "poisson_deviance": _sk(skm.mean_poisson_deviance),
    "gamma_deviance": _sk(skm.mean_gamma_deviance),
    "pearson_r": pearson_r,
    "ccc": ccc,
    "mean_error": mean_error,
}


def oracle(name: str, y: Any, f: Any, w: Any = None, **parameters: Any) -> float | None:
    """The value of measure ``name``; None for an empty group or zero total weight."""
    y, f = np.asarray(y, dtype=float), np.asarray(f, dtype=float)
    w = None if w is None else np.asarray(w, dtype=float)
    if y.size == 0 or (w is not None and w.sum() == 0):
        return None
    return ORACLES[name](y, f, w, **parameters)
