"""fe.ratings.bradley_terry against a logistic MLE (statsmodels ``Logit`` on the ±1 design, no
intercept, ties as half wins; ≤ 1e-4 Elo points) and ``choix``; the bootstrap, ranks,
properties and bad input."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import InvalidParameterError, InvalidValueError, UnknownLabelError
from tests.helpers.examples import budget

ELO = 400.0 / math.log(10.0)


def _battles(seed: int, n_models: int, n: int, tie_share: float = 0.2) -> pl.DataFrame:
    """Random battles between models of true strength, every pair played often enough."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0.0, 1.0, n_models)
    a = rng.integers(0, n_models, n)
    b = (a + rng.integers(1, n_models, n)) % n_models
    p = 1.0 / (1.0 + np.exp(strength[b] - strength[a]))
    u = rng.random(n)
    tie = rng.random(n) < tie_share
    winner = np.where(tie, "tie", np.where(u < p, "model_a", "model_b"))
    winner = np.where(tie & (rng.random(n) < 0.3), "tie (bothbad)", winner)
    names = np.array([f"m{i}" for i in range(n_models)])
    return pl.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner})


def _logit(df: pl.DataFrame) -> dict[str, float]:
    """Elo ratings (mean 1000) from statsmodels' Logit: one row per battle on the design
    x = e_a − e_b (first model dropped: its θ is 0), no intercept; a tie enters as one win of
    each side with half the weight — every decisive battle is entered twice instead, the same
    likelihood up to a factor 2."""
    import statsmodels.api as sm

    models = sorted(set(df["model_a"]) | set(df["model_b"]))
    code = {m: i for i, m in enumerate(models)}
    a = df["model_a"].replace_strict(code).to_numpy()
    b = df["model_b"].replace_strict(code).to_numpy()
    x = np.zeros((df.height, len(models)))
    x[np.arange(df.height), a] = 1.0
    x[np.arange(df.height), b] = -1.0
    w = df["winner"].to_numpy()
    tie = np.char.startswith(w.astype(str), "tie")
    first = np.where(tie, 1.0, (w == "model_a").astype(float))
    second = np.where(tie, 0.0, first)
    rows, ys = np.vstack([x, x]), np.concatenate([first, second])
    design = rows[:, 1:]
    fit = sm.Logit(ys, design).fit(method="newton", tol=1e-14, maxiter=200, disp=0)
    theta = np.concatenate([[0.0], fit.params])
    rating = ELO * (theta - theta.mean()) + 1000.0
    return dict(zip(models, rating, strict=True))


@settings(max_examples=budget(4))
@given(seed=st.integers(0, 10_000), n_models=st.integers(2, 6))
def test_equals_statsmodels_logit(seed: int, n_models: int) -> None:
    df = _battles(seed, n_models, 60 * n_models)
    got = fe.ratings.bradley_terry(df, n_resamples=0)
    expected = _logit(df)
    for model, rating in got.select("model", "rating").iter_rows():  # loop-ok: checking
        assert rating == pytest.approx(expected[model], abs=1e-4)
    assert got["n_battles"].sum() == 2 * df.height


def test_grouped_equals_per_group_and_choix_without_ties() -> None:
    import choix

    df = pl.concat(
        [
            _battles(1, 4, 300, tie_share=0.0).with_columns(pl.lit("arena").alias("bench")),
            _battles(2, 5, 400, tie_share=0.0).with_columns(pl.lit("mt").alias("bench")),
        ]
    )
    got = fe.ratings.bradley_terry(df, by="bench", n_resamples=0)
    assert got["bench"].to_list() == sorted(got["bench"].to_list())
    for part in df.partition_by("bench"):  # loop-ok: the oracle per group
        bench = part["bench"][0]
        alone = fe.ratings.bradley_terry(part.drop("bench"), n_resamples=0)
        mine = got.filter(pl.col("bench") == bench).drop("bench")
        assert_frame_equal(mine, alone, check_exact=False, abs_tol=1e-6)
        models = sorted(set(part["model_a"]) | set(part["model_b"]))
        index = {m: i for i, m in enumerate(models)}
        pairs = [
            (index[a], index[b]) if w == "model_a" else (index[b], index[a])
            for a, b, w, _ in part.iter_rows()
        ]
        params = choix.opt_pairwise(len(models), pairs, alpha=0.0, tol=1e-12)
        expected = ELO * (params - params.mean()) + 1000.0
        rating = dict(mine.select("model", "rating").iter_rows())
        for m, value in zip(models, expected, strict=True):  # loop-ok: checking
            assert rating[m] == pytest.approx(value, abs=1e-3)


def test_ties_drop_and_anchor() -> None:
    df = _battles(5, 4, 500)
    decisive = df.filter(~pl.col("winner").str.starts_with("tie"))
    dropped = fe.ratings.bradley_terry(df, ties="drop", n_resamples=0)
    assert_frame_equal(
        dropped, fe.ratings.bradley_terry(decisive, n_resamples=0), check_exact=False
    )
    half = fe.ratings.bradley_terry(df, n_resamples=0)
    pinned = fe.ratings.bradley_terry(df, n_resamples=0, anchor=("m2", 1114))
    shift = 1114 - half.filter(pl.col("model") == "m2")["rating"][0]
    assert np.allclose(pinned["rating"].to_numpy(), half["rating"].to_numpy() + shift)
    mean = fe.ratings.bradley_terry(df, n_resamples=0, anchor=1500)
    assert mean["rating"].mean() == pytest.approx(1500.0, abs=1e-9)


def test_bootstrap_intervals_and_ranks() -> None:
    df = _battles(7, 5, 3000)
    out = fe.ratings.bradley_terry(df, n_resamples=60, seed=3)
    again = fe.ratings.bradley_terry(df.reverse(), n_resamples=60, seed=3)
    assert_frame_equal(out, again, check_exact=False, abs_tol=1e-9)
    assert (out["ci_low"] <= out["rating"]).all() and (out["rating"] <= out["ci_high"]).all()
    assert (out["rank_low"] <= out["rank_high"]).all()
    low, high = out["ci_low"].to_numpy(), out["ci_high"].to_numpy()
    rank = 1 + (low[None, :] > high[:, None]).sum(axis=1)
    assert out["rank"].to_list() == rank.tolist()
    assert out["rating"].to_list() == sorted(out["rating"].to_list(), reverse=True)
    lazy = fe.collect(fe.ratings.bradley_terry(df.lazy(), n_resamples=60, seed=3))
    assert_frame_equal(out, lazy)


def test_no_mle_is_null() -> None:
    df = pl.DataFrame(
        {"model_a": ["x", "x", "y"], "model_b": ["y", "z", "z"],
         "winner": ["model_a", "model_a", "model_b"]}
    )  # fmt: skip
    out = fe.ratings.bradley_terry(df, n_resamples=5)
    assert out["rating"].null_count() == 3


def test_from_items_equals_battles_built_by_hand() -> None:
    rng = np.random.default_rng(0)
    models = ["a", "b", "c", "d"]
    skill = {"a": 0.8, "b": 0.6, "c": 0.5, "d": 0.3}
    rows = [
        (bench, i, m, float(rng.random() < skill[m]))
        for bench in ("b1", "b2")
        for i in range(80)
        for m in models
    ]
    df = pl.DataFrame(rows, schema=["bench", "item", "model", "correct"], orient="row")
    got = fe.ratings.bradley_terry_from_items(df, "correct", by="bench", n_resamples=0)
    battles = []
    for (bench, _item), part in df.group_by("bench", "item"):  # loop-ok: the oracle
        score = dict(part.select("model", "correct").iter_rows())
        for i, x in enumerate(models):  # loop-ok: the oracle
            for y in models[i + 1 :]:  # loop-ok: the oracle
                w = (
                    "model_a"
                    if score[x] > score[y]
                    else "model_b"
                    if score[x] < score[y]
                    else "tie"
                )
                battles.append((bench, x, y, w))
    by_hand = pl.DataFrame(battles, schema=["bench", "model_a", "model_b", "winner"], orient="row")
    expected = fe.ratings.bradley_terry(by_hand, by="bench", n_resamples=0)
    assert_frame_equal(got, expected, check_exact=False, abs_tol=1e-9)


def test_bad_input() -> None:
    df = pl.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "x"], "winner": ["a", "tie"]})
    with pytest.raises(
        UnknownLabelError,
        match=r"bradley_terry\(\): column 'winner' \(winner=\) must hold only \['model_a', "
        r"'model_b', 'tie', 'tie \(bothbad\)'\], got a \(1 rows\)",
    ):
        fe.ratings.bradley_terry(df)
    same = pl.DataFrame({"model_a": ["x"], "model_b": ["x"], "winner": ["tie"]})
    with pytest.raises(InvalidValueError, match=r"a battle needs two different models .*got x"):
        fe.ratings.bradley_terry(same)
    ok = df.with_columns(pl.lit("tie").alias("winner"))
    with pytest.raises(InvalidParameterError, match=r"ties must be one of"):
        fe.ratings.bradley_terry(ok, ties="win")
    with pytest.raises(UnknownLabelError, match=r"anchor model 'w' must have a battle"):
        fe.ratings.bradley_terry(ok, anchor=("w", 1000))
    items = pl.DataFrame({"model": ["x", "x"], "item": [1, 1], "score": [1.0, 0.0]})
    with pytest.raises(Exception, match=r"rows must be unique per \['item', 'model'\]"):
        fe.ratings.bradley_terry_from_items(items, "score")
