"""Performance measures as Polars expressions, and the registry that describes them.

The registry (:data:`MEASURES`) declares each measure once — its builder, the kind of input it
reads, its direction, its range and its equation — so docs, reports and the property tests
iterate over one list: a measure added here joins the property tests automatically.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import polars as pl

from frameeval.metrics.classification import (
    accuracy,
    cost_error,
    error_rate,
    f1,
    fbeta,
    fnr,
    fpr,
    precision,
    recall,
    tnr,
    tpr,
)
from frameeval.metrics.ranking import (
    average_precision,
    normalized_cost,
    p_cost,
    pr_auc,
    rank_loss,
    roc_auc,
)
from frameeval.metrics.regression import mae, mse, rmse


@dataclass(frozen=True)
class Measure:
    """Metadata of one measure: what it reads, which way is better, its range, its equation."""

    name: str
    builder: Callable[..., pl.Expr]
    kind: Literal["label", "binary", "score", "regression"]
    higher_is_better: bool
    lower: float
    upper: float | None
    equation: str

    @property
    def columns(self) -> tuple[str, str]:
        """Roles of the builder's two positional columns: ``("truth", "score")`` for ranking
        measures (kind ``"score"``), ``("truth", "pred")`` for every other kind."""
        return ("truth", "score") if self.kind == "score" else ("truth", "pred")


MEASURES: dict[str, Measure] = {}


def register(measure: Measure) -> Measure:
    """Add a measure to the registry (later modules register ranking measures the same way)."""
    MEASURES[measure.name] = measure
    return measure


for _m in (
    Measure("accuracy", accuracy, "label", True, 0.0, 1.0, "2.2"),
    Measure("error_rate", error_rate, "label", False, 0.0, 1.0, "2.1"),
    Measure("precision", precision, "binary", True, 0.0, 1.0, "2.8"),
    Measure("recall", recall, "binary", True, 0.0, 1.0, "2.9"),
    Measure("tpr", tpr, "binary", True, 0.0, 1.0, "2.18"),
    Measure("fpr", fpr, "binary", False, 0.0, 1.0, "2.19"),
    Measure("tnr", tnr, "binary", True, 0.0, 1.0, "—"),
    Measure("fnr", fnr, "binary", False, 0.0, 1.0, "2.25"),
    Measure("f1", f1, "binary", True, 0.0, 1.0, "2.10"),
    Measure("fbeta", fbeta, "binary", True, 0.0, 1.0, "2.11"),
    Measure("cost_error", cost_error, "binary", False, 0.0, None, "2.23"),
    Measure("mse", mse, "regression", False, 0.0, None, "2.2"),
    Measure("rmse", rmse, "regression", False, 0.0, None, "2.2"),
    Measure("mae", mae, "regression", False, 0.0, None, "—"),
    Measure("roc_auc", roc_auc, "score", True, 0.0, 1.0, "2.22"),
    Measure("rank_loss", rank_loss, "score", False, 0.0, 1.0, "2.21"),
    Measure("average_precision", average_precision, "score", True, 0.0, 1.0, "—"),
    Measure("pr_auc", pr_auc, "score", True, 0.0, 1.0, "2.20"),
):
    register(_m)

__all__ = [
    "MEASURES",
    "Measure",
    "accuracy",
    "average_precision",
    "cost_error",
    "error_rate",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "mae",
    "mse",
    "normalized_cost",
    "p_cost",
    "pr_auc",
    "precision",
    "rank_loss",
    "recall",
    "register",
    "rmse",
    "roc_auc",
    "tnr",
    "tpr",
]
