"""Random item-level studies for the tests of frameeval.items (hypothesis strategies)."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import strategies as st


@st.composite
def studies(draw, *, binary: bool = False, samples: bool = False, models: int = 3):
    """``benchmark, model, item, cluster, [epoch], score``: 1–2 benchmarks, ``models`` models
    on every item, 3–15 items in 2–5 clusters, K = 1–3 answers with ``samples``."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    frames = []
    for benchmark in range(draw(st.integers(1, 2))):
        n = draw(st.integers(3, 15))
        n_clusters = draw(st.integers(2, min(5, n)))
        cluster = np.concatenate(
            [np.arange(n_clusters), rng.integers(0, n_clusters, n - n_clusters)]
        )
        k = int(rng.integers(1, 4)) if samples else 1
        for m in range(models):
            for epoch in range(k):
                if binary:
                    score = (rng.random(n) < 0.3 + 0.2 * m).astype(np.int64)
                else:
                    score = rng.random(n).round(3)
                frame = pl.DataFrame(
                    {
                        "benchmark": f"b{benchmark}",
                        "model": f"m{m}",
                        "item": np.arange(n),
                        "cluster": cluster,
                        "score": score,
                    }
                )
                if samples:
                    frame = frame.with_columns(pl.lit(epoch).alias("epoch"))
                frames.append(frame)
    return pl.concat(frames)


def shuffled(frame: pl.DataFrame, seed: int = 1) -> pl.DataFrame:
    return frame.sample(fraction=1.0, shuffle=True, seed=seed)
