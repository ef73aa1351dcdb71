"""frameeval — model evaluation and selection on long-format result frames in Polars.

Measures are Polars expressions (``fe.accuracy``, ``fe.f1``…) that work inside any
``group_by().agg()``; frame functions (``fe.confusion_matrix``, ``fe.classification_report``…)
take a DataFrame or LazyFrame and return the same kind.
"""

from frameeval import charts, compare, datasets, exceptions, report, split
from frameeval._frame import collect
from frameeval._version import __version__
from frameeval.compare import (
    average_ranks,
    binomial_distribution,
    binomial_test,
    bonferroni_dunn,
    bonferroni_dunn_q,
    contingency_table,
    cv5x2_t_test,
    friedman,
    holm,
    mcnemar,
    nemenyi,
    nemenyi_q,
    paired_t_test,
    rank_table,
    t_test,
    wilcoxon,
)
from frameeval.confusion import (
    classification_report,
    confusion_matrix,
    cost_sensitive_error,
    macro_micro,
)
from frameeval.decompose import bias_variance, bootstrap_predictions
from frameeval.evaluate import evaluate, learning_curve, validation_curve
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
from frameeval.uncertainty import (
    bootstrap_ci,
    bootstrap_replicates,
    corrected_resampled_t_test,
    cv5x2_f_test,
    delong_ci,
    delong_test,
    roc_band,
)

from frameeval.report import report as write_report  # noqa: E402

__all__ = [
    "MEASURES",
    "FrameEvalError",
    "__version__",
    "accuracy",
    "average_ranks",
    "bias_variance",
    "binomial_distribution",
    "binomial_test",
    "bonferroni_dunn",
    "bonferroni_dunn_q",
    "bootstrap_ci",
    "bootstrap_predictions",
    "bootstrap_replicates",
    "charts",
    "datasets",
    "classification_report",
    "collect",
    "report",
    "write_report",
    "compare",
    "confusion_matrix",
    "contingency_table",
    "corrected_resampled_t_test",
    "cost_error",
    "cost_sensitive_error",
    "cv5x2_f_test",
    "cv5x2_t_test",
    "delong_ci",
    "delong_test",
    "error_rate",
    "evaluate",
    "exceptions",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "friedman",
    "holm",
    "learning_curve",
    "macro_micro",
    "mae",
    "mcnemar",
    "mse",
    "nemenyi",
    "nemenyi_q",
    "paired_t_test",
    "precision",
    "rank_table",
    "recall",
    "rmse",
    "roc_band",
    "split",
    "t_test",
    "tnr",
    "tpr",
    "validation_curve",
    "wilcoxon",
]
