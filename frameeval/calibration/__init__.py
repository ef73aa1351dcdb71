"""Probabilistic predictions as grouped, lazy frame functions: proper scoring rules of multiclass
probabilities, calibration curves with confidence intervals, calibration errors (ECE, MCE) and
the Murphy decomposition of the Brier score.

A *probability* here is a number in [0, 1]: for a binary task ``score=`` is the probability of
``pos_label``; for a multiclass task the probabilities of every class are given either as one
column per class (a mapping ``{class: column}``, or a list of columns with ``labels=``) or as a
single List / Array column whose i-th element is the probability of ``labels[i]``. Every value
outside [0, 1], null, NaN or ±inf is a typed error naming the column, the group and the value;
a multiclass row whose probabilities do not sum to 1 within ``tolerance`` (default 1e-6) is an
``InvalidValueError``. Data checks run inside the plan, in the aggregation that computes the
result (see :mod:`frameeval._validate`): a LazyFrame in gives a LazyFrame out.

Binning follows scikit-learn's ``calibration_curve`` exactly. ``strategy="uniform"``: the edges
``numpy.linspace(0, 1, bins + 1)``; ``strategy="quantile"``: per group, the edges
``numpy.percentile(score, linspace(0, 1, bins + 1) * 100)`` (linear interpolation), computed
in Polars with numpy's arithmetic. A row goes to bin i when ``edge[i] < score <= edge[i + 1]``
(the first bin also takes ``score == edge[0]``); equal quantile edges give empty bins, and
empty bins are absent from every output.
"""

from frameeval.calibration.curves import calibration_curve, calibration_error
from frameeval.calibration.decomposition import brier_decomposition
from frameeval.calibration.scoring import multiclass_brier_score, multiclass_log_loss

__all__ = [
    "brier_decomposition",
    "calibration_curve",
    "calibration_error",
    "multiclass_brier_score",
    "multiclass_log_loss",
]
