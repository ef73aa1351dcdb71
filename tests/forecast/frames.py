"""Random grouped forecast frames for the oracle tests (numpy generators, seeded by hypothesis)."""

from __future__ import annotations

import numpy as np
import polars as pl


def interval_frame(seed: int, n: int = 60, groups: int = 3) -> pl.DataFrame:
    """``g, y, lo, hi, w``: intervals around a noisy centre, some missing the truth; integer and
    zero weights included."""
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    centre = y + rng.normal(scale=0.8, size=n)
    half = rng.exponential(0.7, size=n)
    return pl.DataFrame(
        {
            "g": rng.integers(0, groups, size=n),
            "y": y,
            "lo": centre - half,
            "hi": centre + half,
            "w": rng.integers(0, 4, size=n).astype(float),
        }
    )


def quantile_frame(
    seed: int, levels: list[float], instances: int = 12, groups: int = 2
) -> pl.DataFrame:
    """``g, id, y, q, f``: per instance the given levels of a normal forecast (sorted, so no
    crossing), one truth per instance; rows shuffled."""
    from scipy.stats import norm

    rng = np.random.default_rng(seed)
    rows = []
    for g in range(groups):
        for i in range(instances):
            y = rng.normal()
            mu, sigma = rng.normal(scale=0.7), rng.uniform(0.3, 2.0)
            for level in levels:
                rows.append((g, i, y, level, mu + sigma * norm.ppf(level)))
    df = pl.DataFrame(rows, schema=["g", "id", "y", "q", "f"], orient="row")
    return df.sample(fraction=1.0, shuffle=True, seed=seed)


def ensemble_frame(seed: int, instances: int = 10, groups: int = 3) -> pl.DataFrame:
    """``g, id, y, x``: ensembles of 1–9 members (ties included), one truth per instance."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(groups):
        for i in range(instances):
            y = float(rng.normal())
            m = int(rng.integers(1, 10))
            members = np.round(rng.normal(size=m), 1)  # rounding makes ties
            rows += [(g, i, y, float(x)) for x in members]
    df = pl.DataFrame(rows, schema=["g", "id", "y", "x"], orient="row")
    return df.sample(fraction=1.0, shuffle=True, seed=seed)
