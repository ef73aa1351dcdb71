"""Seeded long result frames for the benchmarks (one row per prediction)."""

from __future__ import annotations

import numpy as np
import polars as pl


def result_frame(
    n_rows: int, n_groups: int = 1_000, n_classes: int = 2, seed: int = 0
) -> pl.DataFrame:
    """``dataset, model, fold, y_true, y_pred, score`` with ``n_groups`` dataset×model×fold groups.

    Predictions agree with the truth about 80 % of the time; ``score`` is a noisy probability-like
    value rounded to 3 decimals (so it has ties, as real scores do).
    """
    rng = np.random.default_rng(seed)
    group = rng.integers(0, n_groups, n_rows)
    y_true = rng.integers(0, n_classes, n_rows)
    wrong = rng.random(n_rows) < 0.2
    y_pred = np.where(wrong, rng.integers(0, n_classes, n_rows), y_true)
    score = np.clip(0.5 * (y_true == 1) + rng.normal(0.25, 0.25, n_rows), 0, 1).round(3)
    return pl.DataFrame(
        {
            "dataset": (group // 100).astype(np.int32),
            "model": ((group // 10) % 10).astype(np.int32),
            "fold": (group % 10).astype(np.int32),
            "y_true": y_true.astype(np.int64),
            "y_pred": y_pred.astype(np.int64),
            "score": score,
        }
    )


def regression_frame(n_rows: int, n_groups: int = 1_000, seed: int = 0) -> pl.DataFrame:
    """``dataset, model, fold, y_true, y_pred`` (Float64) with ``n_groups`` groups: a positive
    target (gamma) and a noisy prediction of it, so that MAPE is defined in every group."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, n_groups, n_rows)
    y_true = rng.gamma(2.0, 10.0, n_rows) + 1.0
    y_pred = y_true + rng.normal(0.0, 3.0, n_rows)
    return pl.DataFrame(
        {
            "dataset": (group // 100).astype(np.int32),
            "model": ((group // 10) % 10).astype(np.int32),
            "fold": (group % 10).astype(np.int32),
            "y_true": y_true,
            "y_pred": y_pred,
        }
    )
