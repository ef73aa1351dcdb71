"""Cliques from pairwise results: brute force over all rank intervals, Demšar's (2006) figure,
the Wilcoxon–Holm inputs against scipy and statsmodels, grouped and lazy."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

import frameeval as fe
from frameeval.charts.compare import cliques as cd_layout
from frameeval.exceptions import ColumnNotFoundError, InvalidDtypeError
from tests.compare._tables import LEARNERS, matrix
from tests.compare.test_demsar_example import table


def brute_force(ranks: dict[str, float], rejected: set[frozenset[str]]) -> set[frozenset[str]]:
    """Maximal runs (in rank order, ties by name) of ≥ 2 learners with no rejected pair."""
    order = sorted(ranks, key=lambda name: (ranks[name], name))
    runs = []
    for i, j in itertools.combinations(range(len(order)), 2):
        members = order[i : j + 1]
        if not any(frozenset(p) in rejected for p in itertools.combinations(members, 2)):
            runs.append((i, j))
    maximal = [
        (i, j) for i, j in runs if not any(a <= i and j <= b and (a, b) != (i, j) for a, b in runs)
    ]
    return {frozenset(order[i : j + 1]) for i, j in maximal}


def found(out: pl.DataFrame) -> set[frozenset[str]]:
    return {frozenset(p["learner"]) for p in out.partition_by("clique")} if out.height else set()


@st.composite
def pairwise_frames(draw):
    k = draw(st.integers(2, 7))
    names = [f"L{i}" for i in range(k)]
    ranks = {n: draw(st.integers(4, 28)) / 4 for n in names}
    rows = [
        (a, b, ranks[a], ranks[b], draw(st.booleans())) for a, b in itertools.combinations(names, 2)
    ]
    return pl.DataFrame(
        rows, schema=["a", "b", "average_rank_a", "average_rank_b", "reject"], orient="row"
    ), ranks


@given(data=pairwise_frames())
def test_cliques_against_brute_force(data):
    frame, ranks = data
    out = fe.cliques(frame)
    rejected = {frozenset((r["a"], r["b"])) for r in frame.iter_rows(named=True) if r["reject"]}
    assert found(out) == brute_force(ranks, rejected)
    assert out.columns == ["clique", "learner", "average_rank"]
    numbers = out["clique"].unique().sort().to_list()
    assert numbers == list(range(1, len(numbers) + 1))
    # same result from a ranks= frame, in any row order, lazily
    rank_frame = pl.DataFrame({"learner": list(ranks), "average_rank": list(ranks.values())})
    again = fe.cliques(frame.select("a", "b", "reject").reverse(), rank_frame)
    assert again.equals(out)
    lazy = fe.cliques(frame.lazy())
    assert isinstance(lazy, pl.LazyFrame) and lazy.collect().equals(out)


@given(ranks=st.lists(st.integers(4, 28), min_size=2, max_size=7), cd=st.integers(1, 12))
def test_nemenyi_style_rejections_give_the_cd_layout(ranks, cd):
    """With reject = |r_a − r_b| > CD the cliques are the CD diagram's bars (charts' layout)."""
    r = {f"L{i}": v / 4 for i, v in enumerate(ranks)}
    rows = [(a, b, r[a], r[b], abs(r[a] - r[b]) > cd / 4) for a, b in itertools.combinations(r, 2)]
    frame = pl.DataFrame(
        rows, schema=["a", "b", "average_rank_a", "average_rank_b", "reject"], orient="row"
    )
    out = fe.cliques(frame)
    layout = cd_layout(
        pl.DataFrame({"learner": list(r), "average_rank": list(r.values()), "cd": cd / 4}),
        "learner",
        "average_rank",
        [],
    )
    spans = (
        {(p["average_rank"].min(), p["average_rank"].max()) for p in out.partition_by("clique")}
        if out.height
        else set()
    )
    assert spans == set(layout.select("low", "high").rows())


def test_demsar_cliques_from_nemenyi():
    """Demšar (2006) §3.2.4, figure 1: at α = 0.10 C4.5 is worse than C4.5+m and C4.5+m+cf;
    cliques {C4.5+m+cf, C4.5+m, C4.5+cf} and {C4.5+cf, C4.5}. At α = 0.05 one clique."""
    df = table(paper_order=True)
    kw = dict(block="data_set", higher_is_better=True)
    at_10 = fe.cliques(fe.nemenyi(df, "auc", alpha=0.10, **kw))
    assert found(at_10) == {
        frozenset({"C4.5+m+cf", "C4.5+m", "C4.5+cf"}),
        frozenset({"C4.5+cf", "C4.5"}),
    }
    at_05 = fe.cliques(fe.nemenyi(df, "auc", alpha=0.05, **kw))
    assert found(at_05) == {frozenset({"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"})}


@st.composite
def wilcoxon_tables(draw):
    """Long ``g, block, learner, value`` tables (1–2 groups, 3–5 learners, 6–14 blocks) on a
    grid of 4, 20 or 10⁶ steps: the coarse grids give zero and tied differences (scipy's normal
    approximation with zsplit), the fine one distinct differences (the exact distribution).
    Each learner gets a shift of 0–3 grid units per step of 4, so some pairs differ."""
    grid = draw(st.sampled_from([4, 20, 10**6]))
    frames = []
    for g in range(draw(st.integers(1, 2))):
        k = draw(st.integers(3, 5))
        n = draw(st.integers(6, 14))
        shift = [draw(st.integers(0, 3)) * grid // 4 for _ in range(k)]
        cells = draw(st.lists(st.integers(0, grid), min_size=n * k, max_size=n * k))
        rows = [
            (g, f"d{i}", LEARNERS[j], (cells[i * k + j] + shift[j]) / grid)
            for i in range(n)
            for j in range(k)
        ]
        frames.append(pl.DataFrame(rows, schema=["g", "block", "learner", "value"], orient="row"))
    return pl.concat(frames)


@pytest.mark.slow
@given(df=wilcoxon_tables())
def test_wilcoxon_holm_cliques_inputs_match_scipy_and_statsmodels(df):
    """The Wilcoxon–Holm CD diagram on randomized grouped tables: per group, the p-values of
    scipy.stats.wilcoxon (zsplit, as Demšar; exact when no difference is zero or tied, else the
    normal approximation with the tie correction), Holm by statsmodels' multipletests, then the
    cliques of those decisions against the brute force. ``digits=None``: the doubles are ranked
    as they are, as scipy ranks them (the default rounds decimal ties first; test_ties.py)."""
    pairs = fe.wilcoxon(df, "value", by="g", adjust="holm", higher_is_better=True, digits=None)
    ranks = fe.average_ranks(df, "value", by="g", higher_is_better=True, digits=None)
    together = fe.cliques(pairs, ranks, by="g")
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, names = matrix(part.drop("g"))
        mine = pairs.filter(pl.col("g") == g).sort("a", "b")
        raw, exact = [], []
        for r in mine.iter_rows(named=True):
            x, y = values[:, names.index(r["a"])], values[:, names.index(r["b"])]
            d = np.abs(x - y)
            use_exact = bool(d.all()) and len(np.unique(d)) == len(d)
            method = "exact" if use_exact else "approx"
            raw.append(stats.wilcoxon(x, y, zero_method="zsplit", method=method).pvalue)
            exact.append(use_exact)
        assert mine["exact"].to_list() == exact
        np.testing.assert_allclose(mine["p_value"], raw, rtol=1e-9, atol=1e-12)
        reject, holm, _, _ = multipletests(raw, alpha=0.05, method="holm")
        np.testing.assert_allclose(mine["p_adjusted"], holm, rtol=1e-9, atol=1e-12)
        assert mine["reject"].to_list() == reject.tolist()
        r = dict(ranks.filter(pl.col("g") == g).select("learner", "average_rank").rows())
        rejected = {frozenset((x["a"], x["b"])) for x in mine.iter_rows(named=True) if x["reject"]}
        assert found(together.filter(pl.col("g") == g)) == brute_force(r, rejected)


def test_wilcoxon_holm_cliques_on_a_fixed_table():
    """A fixed table with well-separated learners: scipy's exact p-values (no zeros or ties),
    Holm, and cliques that are not all one group."""
    rng = np.random.default_rng(4)
    values = rng.random((15, 5)) + np.array([0.0, 0.05, 0.1, 0.4, 0.45])
    names = [f"L{j}" for j in range(5)]
    df = pl.DataFrame(
        [(f"d{i}", names[j], values[i, j]) for i in range(15) for j in range(5)],
        schema=["block", "learner", "value"],
        orient="row",
    )
    pairs = fe.wilcoxon(df, "value", adjust="holm", method="exact", higher_is_better=True)
    raw = [
        stats.wilcoxon(values[:, names.index(r["a"])], values[:, names.index(r["b"])]).pvalue
        for r in pairs.iter_rows(named=True)
    ]
    np.testing.assert_allclose(pairs["p_value"], raw, rtol=1e-9)
    np.testing.assert_allclose(pairs["p_adjusted"], multipletests(raw, method="holm")[1], rtol=1e-9)
    ranks = fe.average_ranks(df, "value", higher_is_better=True)
    out = fe.cliques(pairs, ranks)
    rejected = {frozenset((r["a"], r["b"])) for r in pairs.iter_rows(named=True) if r["reject"]}
    r = dict(ranks.select("learner", "average_rank").rows())
    assert found(out) == brute_force(r, rejected)
    assert out.height > 0 and len(found(out)) > 1


def test_cliques_errors():
    frame = pl.DataFrame({"a": ["A"], "b": ["B"], "reject": [True]})
    with pytest.raises(ColumnNotFoundError, match=r"cliques\(\): the rank order needs columns"):
        fe.cliques(frame)
    with pytest.raises(InvalidDtypeError, match=r"cliques\(\): column 'reject' must be Boolean"):
        fe.cliques(frame.with_columns(reject=pl.lit(1)), frame)
    with pytest.raises(ColumnNotFoundError, match=r"column 'reject'"):
        fe.cliques(frame.drop("reject"))
