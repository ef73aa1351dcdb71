"""Ties in the rank-based procedures (``digits=``): values equal in decimal arithmetic tie.

The oracle is exact rational arithmetic: the decimal metric values as ``fractions.Fraction``,
ranks computed by hand on them, each statistic's formula evaluated exactly, and only the last
step (the distribution's tail) in floating point with scipy. Equal rationals convert to the same
double, so scipy's Wilcoxon test on the rational differences is an exact-ranking oracle too.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import frameeval as fe
from frameeval.compare import (
    comparison_matrix,
    friedman_aligned_ranks,
    quade,
    rank_post_hoc,
    skillings_mack,
    wilcoxon,
)
from frameeval.exceptions import InvalidParameterError
from tests.helpers.examples import budget

LEARNERS = ["A", "B", "C", "D"]
pytestmark = pytest.mark.filterwarnings("ignore:friedman\\(\\)\\W+chi2_p_value:UserWarning")


@st.composite
def decimal_tables(draw, *, k_range=(2, 4), n_range=(3, 8), missing=False):
    """``(frame, scale)``: a complete block × learner table of decimals with 2 or 3 places (as
    a results table prints them), the rows of the frame holding the parsed doubles."""
    places = draw(st.sampled_from([2, 3]))
    scale = 10**places
    k = draw(st.integers(*k_range))
    n = draw(st.integers(*n_range))
    # few distinct values near each other: many decimal ties among values and differences
    low = draw(st.integers(0, scale - 12))
    rows = []
    for i in range(n):
        for j in range(k):
            units = low + draw(st.integers(0, 10))
            if missing and draw(st.integers(0, 5)) == 0:
                continue
            rows.append((f"d{i}", LEARNERS[j], units, scale))
    frame = pl.DataFrame(
        {
            "block": [r[0] for r in rows],
            "learner": [r[1] for r in rows],
            "value": [r[2] / r[3] for r in rows],
        },
        schema={"block": pl.String, "learner": pl.String, "value": pl.Float64},
    )
    exact = {(r[0], r[1]): Fraction(r[2], r[3]) for r in rows}
    return frame, exact


def mid_ranks(values: list[Fraction], descending: bool = True) -> list[Fraction]:
    """Average ranks (1 = largest when ``descending``), by hand on exact values."""
    order = sorted(values, reverse=descending)
    out = []
    for v in values:
        first = order.index(v) + 1
        count = order.count(v)
        out.append(Fraction(2 * first + count - 1, 2))
    return out


def table(exact: dict) -> tuple[list[str], list[str], dict]:
    blocks = sorted({b for b, _ in exact})
    learners = sorted({j for _, j in exact})
    return blocks, learners, exact


def within_ranks(exact: dict) -> dict:
    blocks, learners, x = table(exact)
    ranks = {}
    for b in blocks:
        present = [j for j in learners if (b, j) in x]
        for j, r in zip(present, mid_ranks([x[b, j] for j in present]), strict=True):
            ranks[b, j] = r
    return ranks


# ---------------------------------------------------------------------------------------------
# the rational oracles
# ---------------------------------------------------------------------------------------------
def friedman_oracle(exact: dict) -> float:
    blocks, learners, _ = table(exact)
    r = within_ranks(exact)
    k, n = len(learners), len(blocks)
    avg = [sum(r[b, j] for b in blocks) / n for j in learners]
    chi2 = Fraction(12 * n, k * (k + 1)) * (sum(a * a for a in avg) - Fraction(k * (k + 1) ** 2, 4))
    den = n * (k - 1) - chi2
    if den == 0:
        return 0.0
    f = (n - 1) * chi2 / den
    return float(stats.f.sf(float(f), k - 1, (k - 1) * (n - 1)))


def aligned_oracle(exact: dict) -> tuple[float, dict]:
    blocks, learners, x = table(exact)
    k, n = len(learners), len(blocks)
    cells = [(b, j) for b in blocks for j in learners]
    mean = {b: sum(x[b, j] for j in learners) / k for b in blocks}
    aligned = [x[b, j] - mean[b] for b, j in cells]
    rank = dict(zip(cells, mid_ranks(aligned), strict=True))
    rl = [sum(rank[b, j] for b in blocks) for j in learners]
    rb = [sum(rank[b, j] for j in learners) for b in blocks]
    kn = k * n
    num = (k - 1) * (sum(v * v for v in rl) - Fraction(k * n * n, 4) * (kn + 1) ** 2)
    den = Fraction(kn * (kn + 1) * (2 * kn + 1), 6) - Fraction(1, k) * sum(v * v for v in rb)
    t = num / den
    average = {j: rl[i] / n for i, j in enumerate(learners)}
    return float(stats.chi2.sf(float(t), k - 1)), average


def quade_oracle(exact: dict) -> tuple[float | None, dict]:
    blocks, learners, x = table(exact)
    k, n = len(learners), len(blocks)
    r = within_ranks(exact)
    spread = [max(x[b, j] for j in learners) - min(x[b, j] for j in learners) for b in blocks]
    q = dict(zip(blocks, mid_ranks(spread, descending=False), strict=True))
    s = {(b, j): q[b] * (r[b, j] - Fraction(k + 1, 2)) for b in blocks for j in learners}
    a = sum(v * v for v in s.values())
    sj = [sum(s[b, j] for b in blocks) for j in learners]
    bb = sum(v * v for v in sj)
    den = n * a - bb
    w = {j: sum(q[b] * r[b, j] for b in blocks) / Fraction(n * (n + 1), 2) for j in learners}
    if den <= 0:
        return None, w
    t = (n - 1) * bb / den
    return float(stats.f.sf(float(t), k - 1, (k - 1) * (n - 1))), w


def skillings_mack_oracle(exact: dict) -> float:
    blocks, learners, x = table(exact)
    r = within_ranks(exact)
    k = len(learners)
    a = np.zeros(k)
    together = np.zeros((k, k))
    for b in blocks:
        present = [i for i, j in enumerate(learners) if (b, j) in x]
        k_i = len(present)
        for i in present:
            term = (r[b, learners[i]] - Fraction(k_i + 1, 2)) * np.sqrt(12.0 / (k_i + 1))
            a[i] += float(term)
        for i in present:
            for m in present:
                if i != m:
                    together[i, m] += 1
    sigma = -together
    np.fill_diagonal(sigma, together.sum(axis=1))
    form = a @ np.linalg.pinv(sigma, hermitian=True) @ a
    df = np.linalg.matrix_rank(sigma, hermitian=True)
    return float(stats.chi2.sf(form, df))


def differences(exact: dict, a: str, b: str) -> list[float]:
    blocks, _, x = table(exact)
    return [float(x[blk, a] - x[blk, b]) for blk in blocks]


def wilcoxon_oracle(exact: dict, a: str, b: str, zero_method: str) -> float | None:
    d = differences(exact, a, b)
    if zero_method != "zsplit" and not any(d):
        return None
    return float(stats.wilcoxon(d, zero_method=zero_method, method="approx").pvalue)


def scaled(frame: pl.DataFrame, factor: float) -> pl.DataFrame:
    return frame.with_columns(pl.col("value") * factor)


def scales(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (scale 1) above ``frame`` × 100 (scale 100): one group each."""
    return pl.concat(
        [frame.with_columns(scale=pl.lit(1)), scaled(frame, 100.0).with_columns(scale=pl.lit(100))]
    )


def halves(out: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The scale-1 and the scale-100 rows of a result grouped by ``scale``."""
    return tuple(out.filter(pl.col("scale") == s).drop("scale") for s in (1, 100))


def close(x, y) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= 1e-9


# ---------------------------------------------------------------------------------------------
# (a) each procedure equals rational arithmetic on random decimal tables
# ---------------------------------------------------------------------------------------------
KW = {"higher_is_better": True}


@settings(max_examples=budget(25))
@given(decimal_tables(k_range=(3, 4)))
def test_friedman_family_equals_rational_arithmetic(case):
    frame, exact = case
    blocks, learners, _ = table(exact)
    out = fe.friedman(frame, "value", **KW)
    assert close(out["p_value"][0], friedman_oracle(exact))
    ranks = fe.average_ranks(frame, "value", **KW)
    r = within_ranks(exact)
    for j, avg in ranks.select("learner", "average_rank").rows():
        assert avg == pytest.approx(float(sum(r[b, j] for b in blocks) / len(blocks)), abs=1e-12)
    table_ = fe.rank_table(frame, "value", **KW)
    for b, j, rank in table_.select("block", "learner", "rank").rows():
        assert rank == float(r[b, j])
    nemenyi = fe.nemenyi(frame, "value", **KW)
    avg = dict(ranks.select("learner", "average_rank").rows())
    for a, b, diff in nemenyi.select("a", "b", "rank_difference").rows():
        assert diff == pytest.approx(avg[a] - avg[b], abs=1e-12)


@settings(max_examples=budget(25))
@given(decimal_tables(k_range=(2, 4)))
def test_aligned_ranks_equal_rational_arithmetic(case):
    frame, exact = case
    p, average = aligned_oracle(exact)
    assert close(friedman_aligned_ranks(frame, "value", **KW)["p_value"][0], p)
    post = rank_post_hoc(frame, "value", test="friedman_aligned_ranks", **KW)
    for a, b, ra, rb in post.select("a", "b", "average_rank_a", "average_rank_b").rows():
        assert (ra, rb) == pytest.approx((float(average[a]), float(average[b])), abs=1e-12)


@pytest.mark.slow
@settings(max_examples=budget(25))
@given(decimal_tables(k_range=(2, 4)))
def test_quade_equals_rational_arithmetic(case):
    frame, exact = case
    p, weighted = quade_oracle(exact)
    out = quade(frame, "value", **KW)["p_value"][0]
    if p is None:  # every weighted block ranks the learners alike: T = inf (p 0) or null
        assert out in (None, 0.0)
    else:
        assert close(out, p)
    post = rank_post_hoc(frame, "value", test="quade", **KW)
    for a, b, ra, rb in post.select("a", "b", "average_rank_a", "average_rank_b").rows():
        assert (ra, rb) == pytest.approx((float(weighted[a]), float(weighted[b])), abs=1e-12)


@settings(max_examples=budget(25))
@given(decimal_tables(k_range=(3, 4), n_range=(4, 8), missing=True))
def test_skillings_mack_equals_rational_ranks(case):
    frame, exact = case
    blocks, learners, x = table(exact)
    shared = [b for b in blocks if sum((b, j) in x for j in learners) >= 2]
    assume(len(learners) >= 2 and len(shared) >= 2)
    out = skillings_mack(frame, "value", **KW)
    assert close(out["p_value"][0], skillings_mack_oracle(exact))


@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
@settings(max_examples=budget(20))
@given(case=decimal_tables(k_range=(2, 2), n_range=(3, 10)))
def test_wilcoxon_equals_rational_arithmetic(zero_method, case):
    frame, exact = case
    out = wilcoxon(frame, "value", a="A", b="B", zero_method=zero_method, method="approx", **KW)
    assert close(out["p_value"][0], wilcoxon_oracle(exact, "A", "B", zero_method))


@pytest.mark.slow
@settings(max_examples=budget(20))
@given(decimal_tables(k_range=(2, 3), n_range=(3, 8)))
def test_comparison_matrix_equals_rational_arithmetic(case):
    frame, exact = case
    out = comparison_matrix(frame, "value", correction=None, **KW)
    for a, b, wins, ties, losses, p in out.select(
        "a", "b", "wins", "ties", "losses", "p_value"
    ).rows():
        d = differences(exact, a, b)
        assert (wins, ties, losses) == (
            sum(v > 0 for v in d),
            sum(v == 0 for v in d),
            sum(v < 0 for v in d),
        )
        if any(d):
            nonzero = [v for v in d if v]
            clean = len(set(map(abs, nonzero))) == len(nonzero) and len(nonzero) == len(d)
            method = "exact" if clean and len(d) <= 50 else "approx"
            expected = stats.wilcoxon(d, zero_method="pratt", method=method).pvalue
            assert close(p, float(expected))


@settings(max_examples=budget(15))
@given(decimal_tables(k_range=(3, 4), n_range=(3, 6)))
def test_compare_learners_ranks_equal_rational_arithmetic(case):
    frame, exact = case
    blocks, _, _ = table(exact)
    result = fe.compare_learners(frame, "value", procedure="friedman", **KW)
    r = within_ranks(exact)
    for j, avg in result.ranks.select("learner", "average_rank").rows():
        assert avg == pytest.approx(float(sum(r[b, j] for b in blocks) / len(blocks)), abs=1e-12)
    assert close(result.omnibus["p_value"][0], friedman_oracle(exact))


# ---------------------------------------------------------------------------------------------
# (b) invariance to scaling by 100
# ---------------------------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=budget(8))
@given(st.lists(decimal_tables(k_range=(3, 4)), min_size=2, max_size=4))
def test_rank_procedures_invariant_to_scaling_by_100(cases):
    """Each table and the table × 100 give the same p-values. All sit in one frame, a group
    per table and scale, so one call per procedure compares them: ``digits=`` rounds each value
    on its own (``frameeval.compare.precision.rounded``), and grouped = each group alone is
    tests/compare/test_properties.py's. 8 examples of 2–4 tables check as many tables (≈ 24)
    as the 20 examples of one table did."""
    both = pl.concat(
        [scales(frame).with_columns(case=pl.lit(i)) for i, (frame, _) in enumerate(cases)]
    )
    kw = {"by": ["case", "scale"], **KW}
    for test in (fe.friedman, friedman_aligned_ranks, quade, skillings_mack):
        small, large = halves(test(both, "value", **kw))
        assert small["case"].to_list() == large["case"].to_list() == list(range(len(cases)))
        assert all(close(x, y) for x, y in zip(small["p_value"], large["p_value"], strict=True))
    for test in ("friedman", "friedman_aligned_ranks", "quade"):
        small, large = halves(rank_post_hoc(both, "value", test=test, **kw))
        small_p, big_p = small["p_adjusted"].to_list(), large["p_adjusted"].to_list()
        assert all(close(x, y) for x, y in zip(small_p, big_p, strict=True))
    small, large = halves(comparison_matrix(both, "value", **kw).drop("mean_difference"))
    assert small.select("case", "a", "b", "wins", "ties", "losses").equals(
        large.select("case", "a", "b", "wins", "ties", "losses")
    )
    assert all(close(x, y) for x, y in zip(small["p_value"], large["p_value"], strict=True))


@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
@settings(max_examples=budget(20))
@given(case=decimal_tables(k_range=(2, 2), n_range=(3, 12)))
def test_wilcoxon_invariant_to_scaling_by_100(zero_method, case):
    """As above, both scales in one call (``by="scale"``)."""
    frame, _ = case
    out = wilcoxon(scales(frame), "value", a="A", b="B", zero_method=zero_method, by="scale", **KW)
    small, large = halves(out)
    assert close(small["p_value"][0], large["p_value"][0])
    assert small["statistic"][0] == large["statistic"][0]


# ---------------------------------------------------------------------------------------------
# (c) the issue's example
# ---------------------------------------------------------------------------------------------
ISSUE_A = [0.63, 0.66, 0.72, 0.70, 0.77, 0.69, 0.70, 0.73, 0.69, 0.63, 0.66]
ISSUE_B = [0.63, 0.68, 0.74, 0.68, 0.76, 0.71, 0.68, 0.72, 0.67, 0.62, 0.61]


def issue_frame(factor: float) -> pl.DataFrame:
    n = len(ISSUE_A)
    return pl.DataFrame(
        {
            "block": [f"d{i}" for i in range(n)] * 2,
            "learner": ["A"] * n + ["B"] * n,
            "value": [v * factor for v in ISSUE_A + ISSUE_B],
        }
    )


def test_issue_example_gives_one_p_value_on_both_scales():
    """Issue 22: scipy (and frameeval before ``digits=``) gave p = 0.623 on the data and
    p = 0.365 on the data × 100; exact decimal differences give one answer on both."""
    exact = {
        (f"d{i}", j): Fraction(str(v))
        for j, values in (("A", ISSUE_A), ("B", ISSUE_B))
        for i, v in enumerate(values)
    }
    for zero_method in ("zsplit", "wilcox", "pratt"):
        ps = [
            wilcoxon(
                issue_frame(f),
                "value",
                a="A",
                b="B",
                zero_method=zero_method,
                method="approx",
                **KW,
            )["p_value"][0]
            for f in (1.0, 100.0)
        ]
        assert close(ps[0], ps[1])
        assert close(ps[0], wilcoxon_oracle(exact, "A", "B", zero_method))
    # scipy ranks the floating-point differences apart: its two answers differ
    d1 = np.subtract(ISSUE_A, ISSUE_B)
    d100 = np.subtract(np.multiply(ISSUE_A, 100.0), np.multiply(ISSUE_B, 100.0))
    assert abs(stats.wilcoxon(d1).pvalue - stats.wilcoxon(d100).pvalue) > 0.1
    # digits=None keeps scipy's answer
    raw = wilcoxon(issue_frame(1.0), "value", a="A", b="B", zero_method="wilcox", digits=None, **KW)
    assert close(raw["p_value"][0], float(stats.wilcoxon(d1, method="approx").pvalue))
    matrix = [
        comparison_matrix(issue_frame(f), "value", correction=None, **KW)["p_value"][0]
        for f in (1.0, 100.0)
    ]
    assert close(matrix[0], matrix[1])


@pytest.mark.parametrize("digits", [0, 16, 2.5, True, "12"])
def test_digits_must_be_an_integer_in_range(digits):
    with pytest.raises(InvalidParameterError, match=r"friedman\(\): digits must be an integer"):
        fe.friedman(issue_frame(1.0), "value", digits=digits, **KW)
    with pytest.raises(InvalidParameterError, match=r"wilcoxon\(\): digits must be an integer"):
        wilcoxon(issue_frame(1.0), "value", a="A", b="B", digits=digits, **KW)
