"""Comparison charts: the binomial and t tests (figures 2.6, 2.7), CD diagrams (figure 2.8 and
Demšar's), rank heatmaps (Table 2.5) and per-fold metric distributions."""

from frameeval.charts.compare.critical_difference import cd_diagram, cliques
from frameeval.charts.compare.null_distribution import binomial, t_distribution
from frameeval.charts.compare.ranks import rank_heatmap
from frameeval.charts.compare.scores import metric_distribution

__all__ = [
    "binomial",
    "cd_diagram",
    "cliques",
    "metric_distribution",
    "rank_heatmap",
    "t_distribution",
]
