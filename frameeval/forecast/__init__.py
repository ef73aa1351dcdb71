"""Regression forecasts beyond the point prediction: prediction intervals (coverage, width,
interval score), quantile forecasts (pinball loss and coverage per level, the weighted interval
score) and ensemble forecasts (the CRPS), grouped and lazy.

Interval scores are expressions (:mod:`frameeval.forecast.interval`); quantile and ensemble
forecasts come in long format — one row per instance × level or instance × member — and are
scored by frame functions (LazyFrame in → LazyFrame out). See docs/forecasts.md.
"""

from frameeval.forecast.ensemble import crps
from frameeval.forecast.interval import interval_coverage, interval_score, interval_width
from frameeval.forecast.quantile import quantile_scores, weighted_interval_score

__all__ = [
    "crps",
    "interval_coverage",
    "interval_score",
    "interval_width",
    "quantile_scores",
    "weighted_interval_score",
]
