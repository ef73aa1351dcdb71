"""Shaffer's static and Bergmann–Hommel's exhaustive corrections (García & Herrera 2008) against
independent implementations written here, statsmodels' Holm, and the procedures' properties.

The oracles enumerate the partitions of the learners as restricted-growth strings (a different
enumeration from frameeval's recursive one) and apply the textbook definitions directly:

* Shaffer (1986): t_i = max{ s ∈ S(k) : s ≤ m − i + 1 }, S(k) = the numbers Σ C(|g|, 2) over
  all partitions of the k learners; APV_(i) = min(1, max_{j≤i} t_j p_(j)).
* Bergmann & Hommel (1988): APV_i = min(1, max{ |I| min_{j∈I} p_j : I exhaustive, i ∈ I }).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from statsmodels.stats.multitest import multipletests

import frameeval as fe
from frameeval.compare.multiple import shaffer_counts
from frameeval.exceptions import InvalidParameterError
from tests.compare._tables import assert_frames_close, metric_tables, shuffled
from tests.helpers.examples import budget


def restricted_growth_strings(k: int):
    """Every partition of range(k) as a labelling a with a[0] = 0, a[i] ≤ max(a[:i]) + 1."""

    def extend(prefix, top):
        if len(prefix) == k:
            yield tuple(prefix)
            return
        for label in range(top + 2):
            yield from extend([*prefix, label], max(top, label))

    yield from extend([0], 0) if k else iter([()])


def true_pairs(labels) -> frozenset[tuple[int, int]]:
    return frozenset(
        (i, j) for i, j in itertools.combinations(range(len(labels)), 2) if labels[i] == labels[j]
    )


def shaffer_oracle(k: int, p: dict[tuple[int, int], float]) -> dict[tuple[int, int], float]:
    s = sorted({len(true_pairs(lab)) for lab in restricted_growth_strings(k)})
    m = k * (k - 1) // 2
    order = sorted(p, key=lambda pair: p[pair])
    out, running = {}, 0.0
    for i, pair in enumerate(order, start=1):
        t = max(x for x in s if x <= m - i + 1)
        running = max(running, t * p[pair])
        out[pair] = min(1.0, running)
    return out


def bergmann_hommel_oracle(k: int, p: dict[tuple[int, int], float]) -> dict[tuple[int, int], float]:
    sets = {true_pairs(lab) for lab in restricted_growth_strings(k)} - {frozenset()}
    return {
        pair: min(1.0, max(len(s) * min(p[h] for h in s) for s in sets if pair in s)) for pair in p
    }


def raw_p(out: pl.DataFrame) -> tuple[int, list[str], dict[tuple[int, int], float]]:
    learners = sorted(set(out["a"]) | set(out["b"]))
    p = {
        (learners.index(r["a"]), learners.index(r["b"])): r["p_value"]
        for r in out.iter_rows(named=True)
    }
    return len(learners), learners, p


def test_shaffer_counts_golden():
    """S(k) as listed by Shaffer (1986) and García & Herrera (2008, §4.1)."""
    assert shaffer_counts(3) == (0, 1, 3)
    assert shaffer_counts(4) == (0, 1, 2, 3, 6)
    assert shaffer_counts(5) == (0, 1, 2, 3, 4, 6, 10)
    for k in range(1, 9):
        brute = sorted({len(true_pairs(lab)) for lab in restricted_growth_strings(k)})
        assert list(shaffer_counts(k)) == brute


@pytest.mark.slow
@settings(max_examples=budget(18))
@given(df=metric_tables(ties=True, k_range=(2, 5), n_range=(2, 8), groups=(3, 6)))
def test_shaffer_and_bergmann_hommel_against_the_definitions(df):
    """Both adjustments equal the definitions on 2 to 5 learners (the seven-learner test below
    takes a larger k), Holm equals statsmodels, Bergmann–Hommel ≤ Shaffer ≤ Holm. The eager
    frames are reused for the column list, and one shuffled lazy plan checks row-order
    invariance and lazy = eager at once (the eager face is the lazy plan collected).

    Each table is a group (``by="g"``): 18 examples of 3–6 groups check as many random tables
    (≈ 80) as 40 examples of 1–3 did, in half the calls (a call costs the same for one group or
    six, and each group is checked against the definitions on its own p-values)."""
    kw = dict(by="g", higher_is_better=True)
    holm = fe.rank_post_hoc(df, "value", adjust="holm", **kw)
    sh = fe.shaffer(df, "value", **kw)
    bh = fe.bergmann_hommel(df, "value", **kw)
    for (g,), part in holm.partition_by("g", as_dict=True).items():
        k, learners, p = raw_p(part)
        assert part["p_adjusted"].to_list() == pytest.approx(
            multipletests(part["p_value"].to_numpy(), method="holm")[1].tolist(), abs=1e-12
        )
        expected_sh = shaffer_oracle(k, p)
        expected_bh = bergmann_hommel_oracle(k, p)
        for out, expected in ((sh, expected_sh), (bh, expected_bh)):
            mine = out.filter(pl.col("g") == g)
            for row in mine.iter_rows(named=True):
                pair = (learners.index(row["a"]), learners.index(row["b"]))
                assert row["p_adjusted"] == pytest.approx(expected[pair], abs=1e-12)
                assert row["reject"] == (row["p_adjusted"] < 0.05)
        # Bergmann–Hommel ≤ Shaffer ≤ Holm
        h = part.sort("a", "b")["p_adjusted"].to_numpy()
        s = sh.filter(pl.col("g") == g).sort("a", "b")["p_adjusted"].to_numpy()
        b = bh.filter(pl.col("g") == g).sort("a", "b")["p_adjusted"].to_numpy()
        assert np.all(s <= h + 1e-12) and np.all(b <= s + 1e-12)
    for func, out in ((fe.shaffer, sh), (fe.bergmann_hommel, bh)):
        assert out.columns == [
            "g",
            "a",
            "b",
            "average_rank_a",
            "average_rank_b",
            "statistic",
            "p_value",
            "p_adjusted",
            "alpha",
            "reject",
        ]
        # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
        lazy = func(shuffled(df).lazy(), "value", **kw)
        assert isinstance(lazy, pl.LazyFrame)
        assert_frames_close(lazy.collect(), out, 1e-12)


def test_shaffer_and_bergmann_hommel_on_seven_learners():
    """A larger k (877 exhaustive sets) on random data, both tests."""
    rng = np.random.default_rng(11)
    values = rng.random((10, 7)) + np.linspace(0, 0.6, 7)
    df = pl.DataFrame(
        [(f"d{i}", f"L{j}", values[i, j]) for i in range(10) for j in range(7)],
        schema=["block", "learner", "value"],
        orient="row",
    )
    for test in ("friedman", "quade"):
        sh = fe.shaffer(df, "value", test=test, higher_is_better=True)
        bh = fe.bergmann_hommel(df, "value", test=test, higher_is_better=True)
        k, learners, p = raw_p(sh)
        for out, expected in ((sh, shaffer_oracle(k, p)), (bh, bergmann_hommel_oracle(k, p))):
            for row in out.iter_rows(named=True):
                pair = (learners.index(row["a"]), learners.index(row["b"]))
                assert row["p_adjusted"] == pytest.approx(expected[pair], abs=1e-12)


def test_nemenyi_statistic_relates_to_the_z_of_rank_post_hoc():
    """Same rank differences: z = |r_a − r_b| / √(k(k + 1)/6N) (Demšar 2006, §3.2.2)."""
    rng = np.random.default_rng(5)
    values = rng.random((9, 4))
    frame = pl.DataFrame(
        [(f"d{i}", f"L{j}", values[i, j]) for i in range(9) for j in range(4)],
        schema=["block", "learner", "value"],
        orient="row",
    )
    ne = fe.nemenyi(frame, "value", higher_is_better=True)
    z = fe.rank_post_hoc(frame, "value", adjust=None, higher_is_better=True)
    se = math.sqrt(4 * 5 / (6 * 9))
    np.testing.assert_allclose(z["statistic"], ne["statistic"] / se, rtol=1e-12)


def test_control_comparisons():
    rng = np.random.default_rng(2)
    values = rng.random((8, 4))
    frame = pl.DataFrame(
        [(f"d{i}", f"L{j}", values[i, j]) for i in range(8) for j in range(4)],
        schema=["block", "learner", "value"],
        orient="row",
    )
    out = fe.rank_post_hoc(frame, "value", control="L0", higher_is_better=True)
    assert out["b"].to_list() == ["L0"] * 3 and out["a"].to_list() == ["L1", "L2", "L3"]
    assert out["p_adjusted"].to_list() == pytest.approx(
        multipletests(out["p_value"].to_numpy(), method="holm")[1].tolist(), abs=1e-12
    )
    dunn = fe.bonferroni_dunn(frame, "value", control="L0", higher_is_better=True)
    bonf = fe.rank_post_hoc(
        frame, "value", control="L0", adjust="bonferroni", higher_is_better=True
    )
    np.testing.assert_allclose(bonf["p_adjusted"], dunn["p_value"], rtol=1e-12)


def test_multiple_errors():
    rng = np.random.default_rng(0)
    values = rng.random((3, 10))
    ten = pl.DataFrame(
        [(f"d{i}", f"L{j}", values[i, j]) for i in range(3) for j in range(10)],
        schema=["block", "learner", "value"],
        orient="row",
    )
    with pytest.raises(
        InvalidParameterError,
        match=r"bergmann_hommel\(\): Bergmann–Hommel's procedure needs at most 9 learners "
        r"\(it enumerates every partition of them\), got 10\. Hint: use shaffer\(\)\.",
    ):
        fe.bergmann_hommel(ten, "value", higher_is_better=True)
    assert fe.shaffer(ten, "value", higher_is_better=True).height == 45
    with pytest.raises(InvalidParameterError, match=r"rank_post_hoc\(\): test must be one of"):
        fe.rank_post_hoc(ten, "value", test="anova", higher_is_better=True)
    with pytest.raises(InvalidParameterError, match=r"rank_post_hoc\(\): adjust must be"):
        fe.rank_post_hoc(ten, "value", adjust="hochberg", higher_is_better=True)
    with pytest.raises(InvalidParameterError, match=r"adjust='shaffer' corrects all pairwise"):
        fe.rank_post_hoc(ten, "value", adjust="shaffer", control="L0", higher_is_better=True)
    with pytest.raises(fe.exceptions.InvalidDtypeError, match=r"control= must match the dtype"):
        fe.rank_post_hoc(ten, "value", control=3, higher_is_better=True)
    with pytest.raises(
        fe.exceptions.InsufficientDataError,
        match=r"the control learner 'Z' must have values, got none",
    ):
        fe.rank_post_hoc(ten, "value", control="Z", higher_is_better=True)
    with warnings.catch_warnings(action="error"):
        fe.shaffer(ten.lazy(), "value", higher_is_better=True)  # nothing runs before collect
