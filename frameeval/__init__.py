"""frameeval — model evaluation and selection on long-format result frames in Polars.

Measures are Polars expressions (``fe.accuracy``, ``fe.f1``…) that work inside any
``group_by().agg()``; frame functions (``fe.confusion_matrix``, ``fe.classification_report``…)
take a DataFrame or LazyFrame and return the same kind.
"""

import functools
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from frameeval import _extensions, datasets, exceptions, split
from frameeval._frame import DASK_FORMS as _DASK_FORMS
from frameeval._frame import collect
from frameeval._frame import is_dask as _is_dask
from frameeval._version import __version__
from frameeval.confusion import (
    classification_report,
    confusion_matrix,
    cost_sensitive_error,
    macro_micro,
)
from frameeval.curves import (
    break_even_point,
    cost_curve,
    cost_lines,
    expected_total_cost,
    gains_curve,
    ks_statistic,
    lift_curve,
    multiclass_roc_auc,
    pr_curve,
    ranking_report,
    roc_convex_hull,
    roc_curve,
)
from frameeval.decompose import bias_variance, bootstrap_predictions
from frameeval.evaluate import evaluate, learning_curve, learning_curve_diagnosis, validation_curve
from frameeval.exceptions import FrameEvalError
from frameeval.measure_set import measures
from frameeval.metrics import MEASURES, Measure, measure_table, normalized_cost, p_cost, register
from frameeval.metrics import builtin as _builtin
from frameeval.metrics.builtin import *  # noqa: F403  (the built-in measures' builders)
from frameeval.thresholds import best_threshold, threshold_table

_F = TypeVar("_F", bound=Callable[..., Any])


def _dask_form(fn: _F) -> _F:
    """``fn`` that hands a Dask DataFrame (first argument or ``data=``) to
    ``frameeval.dask.<name>``, the same call on the cluster; other inputs go to ``fn``.

    It lives here, in the top layer, because only the flat namespace wraps its functions: the
    frame layer below knows Dask collections by name only (``_frame.is_dask``) and never imports
    the backend. ``fn``'s static type (its overloads) is kept as it is."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        data = args[0] if args else kwargs.get("data")
        if _is_dask(data):
            from frameeval import dask as backend

            form: Callable[..., Any] = getattr(backend, fn.__name__)
            return form(*args, **kwargs)
        return fn(*args, **kwargs)

    return cast(_F, wrapper)


# what a lower layer hands to a higher one, wired here at the top (docs/architecture.md):
# Comparison.chart() (layer 5) draws with frameeval.charts (layer 7); fe.measures(ci=) and
# classification_report(ci=) (layer 3) hand their intervals to frameeval.uncertainty (layer 5),
# which calls them back without ci= for the values; fe.items.means / compare and
# fe.subgroups.by_group / gaps (layer 5) hand a Dask DataFrame to frameeval.dask (layer 6)
_extensions.provide(
    cd_diagram=("frameeval.charts", "cd_diagram"),
    measures_with_intervals=("frameeval.uncertainty.intervals", "measures_with_intervals"),
    report_with_intervals=("frameeval.uncertainty.intervals", "report_with_intervals"),
    dask_items_means=("frameeval.dask.items", "means"),
    dask_items_compare=("frameeval.dask.items", "compare"),
    dask_subgroups_by_group=("frameeval.dask.subgroups", "by_group"),
    dask_subgroups_gaps=("frameeval.dask.subgroups", "gaps"),
)

# a Dask DataFrame given to a top-level function with a Dask form runs through frameeval.dask
# (the lazy names are wrapped by __getattr__ when first read)
globals().update({name: _dask_form(globals()[name]) for name in _DASK_FORMS & set(globals())})

# Heavy parts load on first use (PEP 562): the comparison tests and the uncertainty module need
# scipy, charts and the report need altair / vl-convert. ``fe.friedman``, ``fe.charts.roc`` and
# ``from frameeval import friedman`` work as before; ``import frameeval`` stays light.
_LAZY_MODULES = {
    "agreement",
    "charts",
    "compare",
    "io",
    "items",
    "ratings",
    "report",
    "subgroups",
    "uncertainty",
}
_LAZY_NAMES: dict[str, tuple[str, str]] = {
    **{
        name: ("frameeval.compare", name)
        for name in (
            "Comparison",
            "average_ranks",
            "bayes_correlated_t",
            "bayes_signed_rank",
            "bayes_signed_rank_samples",
            "bergmann_hommel",
            "binomial_distribution",
            "binomial_test",
            "bonferroni_dunn",
            "bonferroni_dunn_q",
            "cliques",
            "compare_learners",
            "comparison_matrix",
            "contingency_table",
            "cv5x2_t_test",
            "effect_size",
            "friedman",
            "friedman_aligned_ranks",
            "holm",
            "mcnemar",
            "nemenyi",
            "nemenyi_q",
            "paired_t_test",
            "quade",
            "rank_post_hoc",
            "rank_table",
            "results_table",
            "shaffer",
            "skillings_mack",
            "t_test",
            "wilcoxon",
        )
    },
    **{
        name: ("frameeval.uncertainty", name)
        for name in (
            "bootstrap_ci",
            "bootstrap_replicates",
            "corrected_resampled_t_test",
            "cv5x2_f_test",
            "delong_ci",
            "delong_test",
            "roc_band",
        )
    },
    **{
        name: ("frameeval.calibration", name)
        for name in (
            "brier_decomposition",
            "calibration_curve",
            "calibration_error",
            "multiclass_brier_score",
            "multiclass_log_loss",
        )
    },
    **{
        name: ("frameeval.forecast", name)
        for name in (
            "crps",
            "interval_coverage",
            "interval_score",
            "interval_width",
            "quantile_scores",
            "weighted_interval_score",
        )
    },
    **{
        name: ("frameeval.items.pass_at_k", name)
        for name in ("g_pass_at_k", "pass_at_k", "pass_hat_k")
    },
    "write_report": ("frameeval.report", "report"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY_MODULES:
        module = importlib.import_module(f"frameeval.{name}")
        globals()[name] = module
        return module
    if name in _LAZY_NAMES:
        module_name, attr = _LAZY_NAMES[name]
        value = getattr(importlib.import_module(module_name), attr)
        if name in _DASK_FORMS:
            value = _dask_form(value)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'frameeval' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_NAMES))


if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from frameeval.calibration import (
        brier_decomposition,
        calibration_curve,
        calibration_error,
        multiclass_brier_score,
        multiclass_log_loss,
    )
    from frameeval.compare import (
        Comparison,
        average_ranks,
        bayes_correlated_t,
        bayes_signed_rank,
        bayes_signed_rank_samples,
        bergmann_hommel,
        binomial_distribution,
        binomial_test,
        bonferroni_dunn,
        bonferroni_dunn_q,
        compare_learners,
        comparison_matrix,
        contingency_table,
        cv5x2_t_test,
        friedman,
        friedman_aligned_ranks,
        holm,
        nemenyi,
        nemenyi_q,
        paired_t_test,
        quade,
        rank_post_hoc,
        rank_table,
        results_table,
        shaffer,
        skillings_mack,
        t_test,
        wilcoxon,
    )

    # the functions named like their module: imported from it (via the package, a type
    # checker may take the name for the submodule)
    from frameeval.compare.cliques import cliques
    from frameeval.compare.effect_size import effect_size
    from frameeval.compare.mcnemar import mcnemar
    from frameeval.forecast import (
        crps,
        interval_coverage,
        interval_score,
        interval_width,
        quantile_scores,
        weighted_interval_score,
    )
    from frameeval.items.pass_at_k import g_pass_at_k, pass_at_k, pass_hat_k
    from frameeval.report import report as write_report
    from frameeval.uncertainty import (
        bootstrap_ci,
        bootstrap_replicates,
        corrected_resampled_t_test,
        cv5x2_f_test,
        delong_ci,
        delong_test,
    )
    from frameeval.uncertainty.roc_band import roc_band

__all__ = [
    "Comparison",
    "FrameEvalError",
    "MEASURES",
    "Measure",
    "__version__",
    "average_ranks",
    "bayes_correlated_t",
    "bayes_signed_rank",
    "bayes_signed_rank_samples",
    "bergmann_hommel",
    "best_threshold",
    "threshold_table",
    "bias_variance",
    "binomial_distribution",
    "binomial_test",
    "bonferroni_dunn",
    "bonferroni_dunn_q",
    "bootstrap_ci",
    "bootstrap_predictions",
    "bootstrap_replicates",
    "break_even_point",
    "brier_decomposition",
    "calibration_curve",
    "calibration_error",
    "charts",
    "classification_report",
    "cliques",
    "collect",
    "compare",
    "compare_learners",
    "g_pass_at_k",
    "items",
    "pass_at_k",
    "pass_hat_k",
    "comparison_matrix",
    "confusion_matrix",
    "contingency_table",
    "corrected_resampled_t_test",
    "cost_curve",
    "cost_lines",
    "cost_sensitive_error",
    "crps",
    "cv5x2_f_test",
    "cv5x2_t_test",
    "datasets",
    "delong_ci",
    "delong_test",
    "effect_size",
    "evaluate",
    "exceptions",
    "expected_total_cost",
    "friedman",
    "friedman_aligned_ranks",
    "gains_curve",
    "holm",
    "interval_coverage",
    "interval_score",
    "interval_width",
    "ks_statistic",
    "learning_curve",
    "learning_curve_diagnosis",
    "lift_curve",
    "macro_micro",
    "mcnemar",
    "measure_table",
    "measures",
    "multiclass_brier_score",
    "multiclass_log_loss",
    "multiclass_roc_auc",
    "nemenyi",
    "nemenyi_q",
    "normalized_cost",
    "p_cost",
    "paired_t_test",
    "pr_curve",
    "quade",
    "quantile_scores",
    "rank_post_hoc",
    "rank_table",
    "ranking_report",
    "register",
    "report",
    "results_table",
    "roc_band",
    "roc_convex_hull",
    "roc_curve",
    "shaffer",
    "skillings_mack",
    "split",
    "t_test",
    "validation_curve",
    "weighted_interval_score",
    "wilcoxon",
    "write_report",
]
__all__ += _builtin.__all__
