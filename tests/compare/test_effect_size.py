"""Tests of frameeval.compare.effect_size: mean difference, Cohen's d_z and Cliff's δ.

Oracles: direct numpy formulas per group and pair (d_z = mean / std(ddof=1); δ = mean of
sign(aᵢ − bⱼ) over all N² pairs) and the thresholds of Cohen (1988) and Romano et al. (2006).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import frameeval as fe
from frameeval.exceptions import InsufficientDataError, InvalidParameterError
from tests.compare._tables import assert_frames_close, matrix, metric_tables, shuffled
from tests.helpers.examples import budget


def _word(value: float, thresholds: tuple[float, float, float]) -> str | None:
    if value is None or np.isnan(value):
        return None
    size = abs(value)
    for word, limit in zip(("negligible", "small", "medium"), thresholds, strict=True):
        if size < limit:
            return word
    return "large"


@given(df=metric_tables(ties=True, k_range=(2, 4), n_range=(2, 8)))
def test_effect_size_matches_numpy(df):
    out = fe.effect_size(df, "value", by="g")
    assert out.columns == [
        "g",
        "a",
        "b",
        "n_blocks",
        "mean_difference",
        "cohen_d",
        "cohen_d_magnitude",
        "cliff_delta",
        "cliff_delta_magnitude",
    ]
    rows = []
    for part in df.partition_by("g", maintain_order=True):
        values, learners = matrix(part)
        for i, j in itertools.combinations(range(len(learners)), 2):
            x, y = values[:, i], values[:, j]
            d = x - y
            sd = d.std(ddof=1)
            if d.min() == d.max():
                cohen = None if d[0] == 0 else float(np.sign(d[0]) * np.inf)
            else:
                cohen = d.mean() / sd
            delta = np.sign(x[:, None] - y[None, :]).mean()
            rows.append(
                {
                    "g": part["g"][0],
                    "a": learners[i],
                    "b": learners[j],
                    "n_blocks": d.size,
                    "mean_difference": d.mean(),
                    "cohen_d": cohen,
                    "cohen_d_magnitude": _word(np.nan if cohen is None else cohen, (0.2, 0.5, 0.8)),
                    "cliff_delta": delta,
                    "cliff_delta_magnitude": _word(delta, (0.147, 0.33, 0.474)),
                }
            )
    expected = pl.DataFrame(rows, schema=out.schema)
    assert (
        out.select("g", "a", "b", "n_blocks").rows()
        == expected.select("g", "a", "b", "n_blocks").rows()
    )
    for column in ("mean_difference", "cohen_d", "cliff_delta"):
        assert out[column].is_null().to_list() == expected[column].is_null().to_list()
        np.testing.assert_allclose(
            out[column].drop_nulls(), expected[column].drop_nulls(), rtol=1e-12, atol=1e-12
        )
    assert out["cliff_delta_magnitude"].to_list() == expected["cliff_delta_magnitude"].to_list()
    # words from the computed d (a value at a threshold may differ in the last bit)
    words = [_word(np.nan if v is None else v, (0.2, 0.5, 0.8)) for v in out["cohen_d"]]
    assert out["cohen_d_magnitude"].to_list() == words
    # another row order may move a d_z that sits exactly on a threshold by one bit, and so its
    # word: compare the numbers, and the words of each result against its own numbers (above)
    numbers = pl.exclude("cohen_d_magnitude")
    assert_frames_close(
        fe.effect_size(shuffled(df), "value", by="g").select(numbers), out.select(numbers)
    )
    assert_frames_close(fe.effect_size(df.lazy(), "value", by="g").collect(), out)


def test_effect_size_one_pair_and_errors():
    df = pl.DataFrame(
        {
            "block": list("abcd") * 3,
            "learner": ["A"] * 4 + ["B"] * 4 + ["C"] * 4,
            "acc": [0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0.0, 0.875, 0.75, 0.625, 0.5],
        }
    )
    ba = fe.effect_size(df, "acc", a="B", b="A").row(0, named=True)
    assert ba["cliff_delta"] == pytest.approx(-1.0) and ba["cliff_delta_magnitude"] == "large"
    assert ba["cohen_d"] == float("-inf") and ba["cohen_d_magnitude"] == "large"
    ac = fe.effect_size(df, "acc", a="A", b="C").row(0, named=True)
    assert ac["cohen_d"] is None and ac["cohen_d_magnitude"] is None
    assert ac["cliff_delta"] == 0.0 and ac["cliff_delta_magnitude"] == "negligible"
    with pytest.raises(InvalidParameterError, match=r"effect_size\(\): a= and b= must be given"):
        fe.effect_size(df, "acc", b="A")
    with pytest.raises(InsufficientDataError, match=r"effect_size\(\): needs at least 2 values"):
        fe.effect_size(df.filter(pl.col("block") == "a"), "acc")


# ---------------------------------------------------------------------------------------------
# the effect sizes every two-learner test ends with (issue 17, point 4)
# ---------------------------------------------------------------------------------------------
def _effects(x: np.ndarray, y: np.ndarray) -> tuple[float, float | None, float]:
    """mean difference, d_z (±inf / None for a constant difference) and Cliff's δ by brute
    force over all N² pairs."""
    d = x - y
    if d.min() == d.max():
        cohen = None if d[0] == 0 else float(np.sign(d[0]) * np.inf)
    else:
        cohen = float(d.mean() / d.std(ddof=1))
    return float(d.mean()), cohen, float(np.sign(x[:, None] - y[None, :]).mean())


def _rank_biserial(x: np.ndarray, y: np.ndarray) -> float:
    """(R⁺ − R⁻)/(R⁺ + R⁻) with Demšar's zsplit ranks of |d| (zeros split evenly)."""
    from scipy.stats import rankdata

    d = x - y
    ranks = rankdata(np.abs(d))
    zero = ranks[d == 0].sum() / 2
    r_plus, r_minus = ranks[d > 0].sum() + zero, ranks[d < 0].sum() + zero
    return float((r_plus - r_minus) / (r_plus + r_minus))


def _check(out: pl.DataFrame, expected: dict[tuple, tuple], columns: tuple[str, ...]) -> None:
    assert [c for c in out.columns if c in columns] == list(columns)
    for row in out.iter_rows(named=True):
        want = expected[(row["g"], row["a"], row["b"])]
        for column, value in zip(columns, want, strict=True):
            if value is None:
                assert row[column] is None, column
            elif np.isinf(value):
                assert row[column] == value, column
            else:
                assert row[column] == pytest.approx(value, rel=1e-12, abs=1e-12), column


def _pairs(df: pl.DataFrame, ordered: bool = False) -> dict[tuple, tuple]:
    """(g, a, b) → (mean difference, d_z, δ, rank-biserial) of every pair of every group."""
    found = {}
    for part in df.partition_by("g", maintain_order=True):
        values, learners = matrix(part)
        combos = itertools.permutations if ordered else itertools.combinations
        for i, j in combos(range(len(learners)), 2):
            x, y = values[:, i], values[:, j]
            key = (part["g"][0], learners[i], learners[j])
            found[key] = (*_effects(x, y), _rank_biserial(x, y))
    return found


@pytest.mark.slow
@settings(max_examples=budget(18))
@given(df=metric_tables(ties=True, k_range=(2, 3), n_range=(10, 10), groups=(3, 6)))
def test_every_two_learner_test_ends_with_the_effect_sizes(df):
    """paired t, 5×2cv t and F, corrected resampled t, Wilcoxon, both Bayesian tests and the
    comparison matrix: ``mean_difference, cohen_d, cliff_delta`` equal numpy per group and pair
    (Wilcoxon adds the matched-pairs rank-biserial r).

    Each table is a group (``by="g"``): 18 examples of 3–6 groups check as many random tables
    (≈ 80) as 40 examples of 1–3 did, in half the calls — a call costs the same for one group
    or six, and every value is checked per group against its own numpy oracle."""
    df = df.with_columns(
        (pl.col("block").str.slice(1).cast(pl.Int64) // 2).alias("repeat"),
        (pl.col("block").str.slice(1).cast(pl.Int64) % 2).alias("fold"),
    )
    pairs = _pairs(df)
    effects = ("mean_difference", "cohen_d", "cliff_delta")
    ab = {"a": "A", "b": "B", "by": "g", "higher_is_better": True}
    one_pair = {k: v for k, v in pairs.items() if k[1:] == ("A", "B")}
    with warnings.catch_warnings(action="ignore"):
        for out in (
            fe.paired_t_test(df, "value", block="block", **ab),
            fe.cv5x2_t_test(df, "value", repeat="repeat", fold="fold", **ab),
            fe.compare.cv5x2_f_test(df, "value", repeat="repeat", fold="fold", **ab),
            fe.compare.corrected_resampled_t_test(
                df, "value", block="block", n_train=9, n_test=1, **ab
            ),
        ):
            assert out.columns[-3:] == list(effects)
            _check(out, {k: v[:3] for k, v in one_pair.items()}, effects)
        wilcoxon = fe.wilcoxon(
            df, "value", block="block", by="g", adjust="holm", higher_is_better=True
        )
        assert wilcoxon.columns[-4:] == [*effects, "rank_biserial"]
        _check(wilcoxon, pairs, (*effects, "rank_biserial"))
        kw = {"by": "g", "higher_is_better": True}
        correlated = fe.bayes_correlated_t(df, "value", fold="block", rope=0.01, **kw)
        signed = fe.bayes_signed_rank(df, "value", block="block", rope=0.01, n_samples=50, **kw)
        mcm = fe.comparison_matrix(df, "value", block="block", **kw)
    for out in (correlated, signed):
        _check(out, {k: v[:3] for k, v in pairs.items()}, effects)
    _check(mcm, {k: v[:3] for k, v in _pairs(df, ordered=True).items()}, effects)


@given(
    st.lists(st.tuples(st.integers(1, 2), st.booleans(), st.booleans()), min_size=1, max_size=30)
)
def test_mcnemar_effect_sizes_are_those_of_the_paired_correctness(rows):
    """McNemar: d = [a right] − [b right] per instance; the effect sizes from the cell counts
    equal numpy on the 0/1 vectors (and Cliff's δ of two 0/1 samples is the accuracy
    difference)."""
    frame = pl.DataFrame(
        [
            (g, i, learner, 1, int(right))
            for i, (g, right_a, right_b) in enumerate(rows)
            for learner, right in (("A", right_a), ("B", right_b))
        ],
        schema=["g", "instance", "learner", "y", "p"],
        orient="row",
    )
    out = fe.mcnemar(frame, "y", "p", a="A", b="B", by="g")
    assert out.columns[-3:] == ["mean_difference", "cohen_d", "cliff_delta"]
    expected = {}
    for (g,), part in frame.partition_by("g", as_dict=True).items():
        wide = part.pivot(on="learner", index="instance", values="p").sort("instance")
        x, y = wide["A"].to_numpy().astype(float), wide["B"].to_numpy().astype(float)
        mean, cohen, _ = _effects(x, y)
        delta = float(np.sign(x[:, None] - y[None, :]).mean())
        if x.size == 1:  # one instance: constant difference (mean_std's rule)
            cohen = None if mean == 0 else float(np.sign(mean) * np.inf)
        expected[(g, "A", "B")] = (mean, cohen, delta)
    _check(out, expected, ("mean_difference", "cohen_d", "cliff_delta"))
