"""Random grouped ratings tables for the agreement tests (hypothesis, small sizes)."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import strategies as st


@st.composite
def ratings(
    draw: st.DrawFn,
    *,
    missing: bool = True,
    categories: int = 4,
    min_raters: int = 2,
    groups: int = 2,
) -> pl.DataFrame:
    """``group, item, rater, rating`` (Int64 ratings 0…categories−1, some null if ``missing``),
    every item of a group rated by every rater of the group (null = missing)."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    frames = []
    for g in range(draw(st.integers(1, groups))):  # loop-ok: test data
        n_items = draw(st.integers(2, 8))
        n_raters = draw(st.integers(min_raters, 4))
        # items lean to one category so that agreement is not always near 0
        base = rng.integers(0, categories, size=n_items)
        noise = rng.random((n_items, n_raters)) < draw(st.floats(0.0, 0.8))
        values = np.where(noise, rng.integers(0, categories, (n_items, n_raters)), base[:, None])
        mask = rng.random((n_items, n_raters)) < (0.25 if missing else 0.0)
        frames.append(
            pl.DataFrame(
                {
                    "group": [f"g{g}"] * (n_items * n_raters),
                    "item": np.repeat(np.arange(n_items), n_raters),
                    "rater": np.tile([f"r{j}" for j in range(n_raters)], n_items),
                    "rating": pl.Series(values.reshape(-1), dtype=pl.Int64),
                    "missing": mask.reshape(-1),
                }
            )
        )
    df = pl.concat(frames)
    return df.with_columns(pl.when(~pl.col("missing")).then(pl.col("rating")).alias("rating")).drop(
        "missing"
    )


def matrix(part: pl.DataFrame) -> np.ndarray:
    """raters × items matrix of one group's ratings (NaN = missing), the layout of the
    ``krippendorff`` package."""
    wide = part.pivot(on="item", index="rater", values="rating", sort_columns=True).sort("rater")
    return wide.drop("rater").to_numpy().astype(float)
