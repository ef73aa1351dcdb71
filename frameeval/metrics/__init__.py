"""Performance measures: one :class:`Measure` declaration each, and their expression builders.

The registry (:data:`MEASURES`) maps each name (and alias) to its declaration — builder, kind,
sufficient statistics, formula, direction, range, undefined cases, equation — so docs, reports,
:func:`frameeval.measures` and the property tests iterate over one list: a measure registered
here (built-in or the user's own) joins all of them.
"""

from __future__ import annotations

from frameeval.metrics.classification import (
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    cost_error,
    error_rate,
    f1,
    fbeta,
    fnr,
    fpr,
    markedness,
    mcc,
    npv,
    precision,
    recall,
    specificity,
    tnr,
    tpr,
    youden_j,
)
from frameeval.metrics.measure import (
    MEASURES,
    REQUIRED,
    Measure,
    lookup,
    measure_table,
    register,
)
from frameeval.metrics.probability import brier_score, log_loss
from frameeval.metrics.ranking import (
    average_precision,
    normalized_cost,
    p_cost,
    pr_auc,
    rank_loss,
    roc_auc,
)
from frameeval.metrics.regression import mae, mse, rmse

__all__ = [
    "MEASURES",
    "REQUIRED",
    "Measure",
    "accuracy",
    "average_precision",
    "balanced_accuracy",
    "brier_score",
    "cohen_kappa",
    "cost_error",
    "error_rate",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "log_loss",
    "lookup",
    "mae",
    "markedness",
    "mcc",
    "measure_table",
    "mse",
    "normalized_cost",
    "npv",
    "p_cost",
    "pr_auc",
    "precision",
    "rank_loss",
    "recall",
    "register",
    "rmse",
    "roc_auc",
    "specificity",
    "tnr",
    "tpr",
    "youden_j",
]
