"""Altair charts of frameeval's result frames: one function per picture.

Every function takes the frames the computational modules return (DataFrame or LazyFrame, or
pandas / pyarrow; charts collect them, after thinning large curves, as charts are a boundary) and
returns an Altair chart; nothing is recomputed. :func:`save` writes a chart as self-contained
HTML, SVG, PNG or the Vega-Lite JSON spec. See docs/charts.md for a picture of each.
"""

from frameeval.charts.bayes import bayes_matrix, posterior_simplex
from frameeval.charts.calibration import calibration
from frameeval.charts.compare import (
    binomial,
    cd_diagram,
    metric_distribution,
    rank_heatmap,
    t_distribution,
)
from frameeval.charts.confusion import confusion_heatmap
from frameeval.charts.curves import cost_curve, pr, roc
from frameeval.charts.decompose import bias_variance, learning_curve, validation_curve
from frameeval.charts.items import leaderboard
from frameeval.charts.matrix import comparison_matrix
from frameeval.charts.regression import (
    predicted_actual,
    quantile_coverage,
    residual_distribution,
    residuals,
)
from frameeval.charts.save import save, to_html
from frameeval.charts.subgroups import subgroup_gaps
from frameeval.charts.targeting import gains, ks, lift
from frameeval.charts.threshold import threshold
from frameeval.charts.uncertainty import forest, roc_band

__all__ = [
    "bayes_matrix",
    "comparison_matrix",
    "posterior_simplex",
    "bias_variance",
    "binomial",
    "calibration",
    "cd_diagram",
    "confusion_heatmap",
    "cost_curve",
    "leaderboard",
    "learning_curve",
    "metric_distribution",
    "pr",
    "predicted_actual",
    "quantile_coverage",
    "rank_heatmap",
    "residual_distribution",
    "residuals",
    "roc",
    "forest",
    "gains",
    "ks",
    "lift",
    "roc_band",
    "save",
    "subgroup_gaps",
    "t_distribution",
    "threshold",
    "to_html",
    "validation_curve",
]
