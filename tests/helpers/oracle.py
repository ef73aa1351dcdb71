"""Helpers for oracle tests: run a per-group oracle on ``partition_by`` and compare frames."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import polars as pl


def per_group(
    df: pl.DataFrame, by: Sequence[str], oracle: Callable[[pl.DataFrame], dict[str, Any]]
) -> pl.DataFrame:
    """Apply ``oracle`` to each group alone (``partition_by``) and stack the results, sorted."""
    rows = []
    for part in df.partition_by(list(by), maintain_order=True):
        row = {k: part[k][0] for k in by}
        row.update(oracle(part))
        rows.append(row)
    return pl.DataFrame(rows).sort(list(by))


def assert_close(actual: Any, expected: Any, tol: float = 1e-9) -> None:
    """Equal within ``tol``, treating None/NaN as 'undefined' on both sides."""
    a = np.asarray([np.nan if v is None else v for v in np.atleast_1d(actual)], dtype=float)
    e = np.asarray([np.nan if v is None else v for v in np.atleast_1d(expected)], dtype=float)
    np.testing.assert_allclose(a, e, rtol=tol, atol=tol, equal_nan=True)
