"""frameeval — model evaluation and selection on long-format result frames in Polars.

Measures are Polars expressions (``fe.accuracy``, ``fe.f1``…) that work inside any
``group_by().agg()``; frame functions (``fe.confusion_matrix``, ``fe.classification_report``…)
take a DataFrame or LazyFrame and return the same kind.
"""

from frameeval import exceptions
from frameeval._frame import collect
from frameeval._version import __version__
from frameeval.confusion import (
    classification_report,
    confusion_matrix,
    cost_sensitive_error,
    macro_micro,
)
from frameeval.decompose import bias_variance, bootstrap_predictions
from frameeval.exceptions import FrameEvalError
from frameeval.metrics import (
    MEASURES,
    accuracy,
    cost_error,
    error_rate,
    f1,
    fbeta,
    fnr,
    fpr,
    mae,
    mse,
    precision,
    recall,
    rmse,
    tnr,
    tpr,
)

__all__ = [
    "MEASURES",
    "FrameEvalError",
    "__version__",
    "accuracy",
    "bias_variance",
    "bootstrap_predictions",
    "classification_report",
    "collect",
    "confusion_matrix",
    "cost_error",
    "cost_sensitive_error",
    "error_rate",
    "exceptions",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "macro_micro",
    "mae",
    "mse",
    "precision",
    "recall",
    "rmse",
    "tnr",
    "tpr",
]
