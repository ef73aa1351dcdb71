"""fe.items.leaderboard: positions and the rank rule by hand from its own intervals, the
paired bootstrap (a common shift leaves rank intervals unchanged), seeds, properties."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import frameeval as fe


def _study(seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    difficulty = rng.random(120)
    frames = []
    for m, skill in enumerate([0.0, 0.05, 0.3, 0.32]):
        score = (rng.random(120) < np.clip(difficulty + skill - 0.2, 0, 1)).astype(int)
        frames.append(
            pl.DataFrame(
                {
                    "benchmark": "b",
                    "model": f"m{m}",
                    "item": range(120),
                    "cluster": np.arange(120) // 6,
                    "score": score,
                }
            )
        )
    return pl.concat(frames)


def test_rank_rule_and_positions_by_hand() -> None:
    out = fe.items.leaderboard(
        _study(), "score", by="benchmark", cluster="cluster", n_resamples=300, seed=3
    )
    means = _study().group_by("model").agg(pl.col("score").mean()).sort("model")
    joined = out.join(means, on="model")
    assert np.allclose(joined["mean"], joined["score"], atol=1e-12)
    order = out.sort("mean", descending=True)["model"].to_list()
    assert out.sort("position")["model"].to_list() == order
    low, high = out["ci_low"].to_numpy(), out["ci_high"].to_numpy()
    expected = [1 + int(np.sum(low > h)) for h in high]
    assert out["rank"].to_list() == expected
    dense = {r: i + 1 for i, r in enumerate(sorted(set(expected)))}
    assert out["tie_group"].to_list() == [dense[r] for r in expected]
    assert (out["rank_low"] <= out["rank_high"]).all()
    assert out["n_clusters"].to_list() == [20] * 4


def test_seeded_and_lower_is_better_reverses() -> None:
    a = fe.items.leaderboard(_study(), "score", n_resamples=100, seed=1)
    b = fe.items.leaderboard(
        _study().sample(fraction=1.0, shuffle=True, seed=2), "score", n_resamples=100, seed=1
    )
    np.testing.assert_allclose(a["ci_low"].to_numpy(), b["ci_low"].to_numpy(), rtol=1e-12)
    low = fe.items.leaderboard(_study(), "score", n_resamples=100, seed=1, higher_is_better=False)
    assert low.sort("position")["model"].to_list() == a.sort("position")["model"].to_list()[::-1]


def test_paired_replicates_shared_by_models() -> None:
    """Model b = model a's scores + 0.5 on every item: in every replicate b beats a, so b's
    rank interval is [1, 1] although the two mean intervals overlap heavily."""
    rng = np.random.default_rng(0)
    x = rng.random(50)
    data = pl.concat(
        [
            pl.DataFrame({"model": "a", "item": range(50), "score": x}),
            pl.DataFrame({"model": "b", "item": range(50), "score": x + 0.01}),
        ]
    )
    out = fe.items.leaderboard(data, "score", n_resamples=200).sort("model")
    assert out["rank_low"].to_list() == [2, 1] and out["rank_high"].to_list() == [2, 1]
    assert out["ci_low"][1] < out["ci_high"][0]  # overlapping intervals of the means
    assert out["rank"].to_list() == [1, 1]


def test_lazy_in_lazy_out() -> None:
    lazy = fe.items.leaderboard(_study().lazy(), "score", by="benchmark", n_resamples=50)
    assert isinstance(lazy, pl.LazyFrame)
    eager = fe.items.leaderboard(_study(), "score", by="benchmark", n_resamples=50)
    np.testing.assert_allclose(lazy.collect()["ci_high"].to_numpy(), eager["ci_high"].to_numpy())
    assert pytest.approx(eager["mean"].sum()) == lazy.collect()["mean"].sum()
