"""Frame functions of frameeval.curves against oracles, grouped, plus golden values and properties.

* ``roc_curve`` ↔ ``sklearn.metrics.roc_curve(drop_intermediate=False)`` (thresholds with the
  +inf start, fpr, tpr), per ``partition_by`` part, weighted and unweighted; its trapezoid area ↔
  ``fe.roc_auc`` (1e-12).
* ``pr_curve`` ↔ ``precision_recall_curve`` (without the appended (recall 0, precision 1)).
* ``ranking_report`` ↔ scikit-learn's AUC / AP / ``auc(recall, precision)`` and the expressions.
* ``best_threshold`` ↔ brute force in exact rational arithmetic (every distinct score tried).
* ``break_even_point`` ↔ the definition applied to scikit-learn's P-R points (linear in counts
  across the run of ties that holds the m⁺-th row).
* ``roc_convex_hull`` ↔ a monotone-chain hull in exact rational arithmetic on scikit-learn's ROC
  points (integer weights); for float weights, geometric checks (every point on or below it).
* ``cost_curve`` / ``expected_total_cost`` ↔ brute-force minimisation over every ROC point's
  cost line on a fine grid of P(+)cost.
* ``multiclass_roc_auc`` ↔ ``roc_auc_score`` on the binary one-vs-rest and pairwise problems
  (weighted), and ↔ ``roc_auc_score(multi_class="ovr" | "ovo")`` on probability rows.

Undefined values: a coordinate whose denominator is 0 (fpr without negatives, tpr/recall without
positives) is null where scikit-learn gives NaN (or recall 1). Golden values: the 20-sample
ranking of figure 2.3 and the tie example of the notes (``../shared/seeds/000_*.txt`` §2.3).
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.metrics import precision_recall_curve, roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    EmptyFrameError,
    InvalidDtypeError,
    InvalidParameterError,
    MissingValueError,
    NegativeValueError,
    UnknownLabelError,
)
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close
from tests.metrics.test_ranking import MEASURES, parts, score_frames, sk_measures

KW = {"truth": "y", "score": "s", "by": "g"}
FIGURE_2_3 = "++++-++-+--+--+---+-"  # the ranking behind figure 2.3 (notes 000 §2.3, item 3)


def with_positive(df: pl.DataFrame) -> pl.DataFrame:
    """Frame functions require pos_label somewhere in the frame."""
    assume((df["y"] == 1).any())
    return df


def sk_roc(y, s, w):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sk_roc_curve(y, s, sample_weight=w, drop_intermediate=False)


def nan_to_none(values) -> list:
    return [None if v is None or np.isnan(v) else float(v) for v in values]


def group(out: pl.DataFrame, key) -> pl.DataFrame:
    return out.filter(pl.col("g") == key)


def trapezoid(x, y) -> float:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))


def ranking(order: str) -> pl.DataFrame:
    """Rows ranked as ``order`` ('+' positive, '-' negative), highest score first."""
    n = len(order)
    return pl.DataFrame(
        {"y": [int(c == "+") for c in order], "s": [float(n - i) for i in range(n)]}
    )


# ---------------------------------------------------------------------------------------------
# ROC
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@given(df=score_frames())
def test_roc_curve_matches_sklearn(df: pl.DataFrame, weighted: bool) -> None:
    df = with_positive(df)
    weight = "w" if weighted else None
    out = fe.roc_curve(df, **KW, weight=weight)
    for key, y, s, w in parts(df):
        got = group(out, key)
        if weighted and w.sum() == 0:  # scikit-learn refuses; ours is the start point alone
            assert got.drop("g").rows() == [(np.inf, None, None)]
            continue
        fpr, tpr, thresholds = sk_roc(y, s, w if weighted else None)
        assert got["threshold"].to_list() == thresholds.tolist()
        assert_close(got["fpr"].to_list(), nan_to_none(fpr))
        assert_close(got["tpr"].to_list(), nan_to_none(tpr))


@given(df=score_frames())
def test_roc_area_is_roc_auc_and_drop_intermediate_keeps_it(df: pl.DataFrame) -> None:
    df = with_positive(df)
    for weight in (None, "w"):
        full = fe.roc_curve(df, **KW, weight=weight)
        thin = fe.roc_curve(df, **KW, weight=weight, drop_intermediate=True)
        auc_ = df.group_by("g").agg(fe.roc_auc("y", "s", weight=weight)).sort("g")
        for key, value in auc_.rows():
            a, b = group(full, key), group(thin, key)
            assert set(b["threshold"]) <= set(a["threshold"])
            assert (
                b["threshold"][0] == a["threshold"][0] and b["threshold"][-1] == a["threshold"][-1]
            )
            if value is None:
                continue
            assert_close(trapezoid(a["fpr"], a["tpr"]), value, 1e-12)
            assert_close(trapezoid(b["fpr"], b["tpr"]), value, 1e-12)
            # no interior point of the thinned curve lies on the line through its neighbours
            x, y = b["fpr"].to_numpy(), b["tpr"].to_numpy()
            cross = (x[1:-1] - x[:-2]) * (y[2:] - y[1:-1]) - (y[1:-1] - y[:-2]) * (x[2:] - x[1:-1])
            assert (np.abs(cross) > 1e-12).all()


def test_roc_curve_golden_figure_2_3_and_tie_example() -> None:
    """Notes 000 §2.3 item 7: the 20-sample ranking + + + + − + + − + − − + − − + − − − + − has
    TPR = [0 .1 .2 .3 .4 .4 .5 .6 .6 .7 .7 .7 .8 .8 .8 .9 .9 .9 .9 1 1] (printed there); each
    negative moves FPR by 1/m⁻ = 0.1. Item 9: a positive tied with four negatives after
    + − + + − − + is one diagonal step from (3/7, 4/5) to (1, 1)."""
    out = fe.roc_curve(ranking(FIGURE_2_3), truth="y", score="s")
    tpr = [
        0,
        0.1,
        0.2,
        0.3,
        0.4,
        0.4,
        0.5,
        0.6,
        0.6,
        0.7,
        0.7,
        0.7,
        0.8,
        0.8,
        0.8,
        0.9,
        0.9,
        0.9,
        0.9,
        1.0,
        1.0,
    ]
    negatives = np.cumsum([0] + [c == "-" for c in FIGURE_2_3]) / 10
    assert_close(out["tpr"].to_list(), tpr, 1e-12)
    assert_close(out["fpr"].to_list(), negatives.tolist(), 1e-12)
    tie = pl.DataFrame(
        {"y": [1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0], "s": [12.0, 11, 10, 9, 8, 7, 6, 1, 1, 1, 1, 1]}
    )
    curve = fe.roc_curve(tie, truth="y", score="s")
    assert curve.height == 9  # start + 7 single rows + one point for the tied run
    assert_close(list(curve.row(-2)[1:]), [3 / 7, 4 / 5], 1e-12)
    assert curve.row(-1) == (1.0, 1.0, 1.0)


# ---------------------------------------------------------------------------------------------
# precision-recall, BEP, best threshold, summaries
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@given(df=score_frames())
def test_pr_curve_matches_sklearn(df: pl.DataFrame, weighted: bool) -> None:
    df = with_positive(df)
    weight = "w" if weighted else None
    out = fe.pr_curve(df, **KW, weight=weight)
    for key, y, s, w in parts(df):
        got = group(out, key)
        ww = w if weighted else np.ones(len(y))
        if ww.sum() == 0:
            assert got.height == 0
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            precision, recall, thresholds = precision_recall_curve(y, s, sample_weight=ww)
        assert got["threshold"].to_list() == thresholds[::-1].tolist()
        assert_close(got["precision"].to_list(), precision[:-1][::-1])
        if ww[y == 1].sum() > 0:
            assert_close(got["recall"].to_list(), recall[:-1][::-1])
        else:  # no positives: recall is 0/0 (scikit-learn sets it to 1)
            assert got["recall"].null_count() == got.height


def test_pr_curve_golden_figure_2_3() -> None:
    """Notes 000 §2.3 item 3 prints the P-R sequences of the 20-sample ranking:
    x = [0.1 0.2 0.3 0.4 0.4 0.5 0.6 0.6 0.7 0.7 0.7 0.8 0.8 0.8 0.9 0.9 0.9 0.9 1 1] (recall),
    y = [1/1 2/2 3/3 4/4 4/5 5/6 6/7 6/8 7/9 7/10 7/11 8/12 8/13 8/14 9/15 9/16 9/17 9/18 10/19
    10/20] (precision). The break-even point is where they meet: 0.7 after 10 rows."""
    df = ranking(FIGURE_2_3)
    out = fe.pr_curve(df, truth="y", score="s")
    recall = [
        0.1,
        0.2,
        0.3,
        0.4,
        0.4,
        0.5,
        0.6,
        0.6,
        0.7,
        0.7,
        0.7,
        0.8,
        0.8,
        0.8,
        0.9,
        0.9,
        0.9,
        0.9,
        1,
        1,
    ]
    tp = [1, 2, 3, 4, 4, 5, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 9, 10, 10]
    assert_close(out["recall"].to_list(), recall, 1e-12)
    assert_close(out["precision"].to_list(), [t / (i + 1) for i, t in enumerate(tp)], 1e-12)
    bep = fe.break_even_point(df, truth="y", score="s")["break_even_point"].item()
    assert_close(bep, 0.7, 1e-12)
    assert_close(bep, out["recall"][9], 1e-12)
    assert_close(bep, out["precision"][9], 1e-12)


def sk_break_even(y, s, w) -> float | None:
    """The documented definition on scikit-learn's P-R thresholds: in count space (n rows
    predicted positive, TP), interpolate linearly across the threshold whose run holds the m⁺-th
    row."""
    if w[y == 1].sum() == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, recall, thresholds = precision_recall_curve(y, s, sample_weight=w)
    m_pos = w[y == 1].sum()
    tp = recall[:-1][::-1] * m_pos
    n = np.array([w[s >= t].sum() for t in thresholds[::-1]])
    n_prev, tp_prev = np.r_[0.0, n[:-1]], np.r_[0.0, tp[:-1]]
    k = int(np.argmax(n >= m_pos - 1e-12))
    share = (m_pos - n_prev[k]) / (n[k] - n_prev[k])
    return (tp_prev[k] + share * (tp[k] - tp_prev[k])) / m_pos


@given(df=score_frames())
def test_break_even_point_matches_its_definition(df: pl.DataFrame) -> None:
    df = with_positive(df)
    for weight in (None, "w"):
        out = fe.break_even_point(df, **KW, weight=weight)
        expected = [
            sk_break_even(y, s, w if weight else np.ones(len(y))) for _, y, s, w in parts(df)
        ]
        assert out.columns == ["g", "break_even_point"]
        assert_close(out["break_even_point"].to_list(), expected)


def brute_best(y, s, w, beta: float):
    """Every distinct score as threshold, F-beta in exact rationals; ties to the highest."""
    ww = [Fraction(v) for v in w]
    m_pos = sum(v for v, t in zip(ww, y, strict=True) if t == 1)
    if m_pos == 0:
        return None, None, None, None
    b2 = Fraction(beta) ** 2
    best = None
    for t in sorted({v for v, u in zip(s, ww, strict=True) if u > 0}, reverse=True):
        tp = sum(u for u, yy, ss in zip(ww, y, s, strict=True) if ss >= t and yy == 1)
        n = sum(u for u, ss in zip(ww, s, strict=True) if ss >= t)
        f = (1 + b2) * tp / (b2 * m_pos + n)
        if best is None or f > best[3]:
            best = (t, tp / n, tp / m_pos, f)
    return tuple(float(v) for v in best)


@pytest.mark.parametrize(("measure", "beta"), [("f1", 1.0), ("fbeta", 0.5), ("fbeta", 2.0)])
@settings(max_examples=budget(20))
@given(df=score_frames())
def test_best_threshold_matches_brute_force(df: pl.DataFrame, measure: str, beta: float) -> None:
    df = with_positive(df)
    for weight in (None, "w"):
        out = fe.best_threshold(df, **KW, measure=measure, beta=beta, weight=weight)
        assert out.columns == ["g", "threshold", "precision", "recall", measure]
        for i, (_, y, s, w) in enumerate(parts(df)):
            expected = brute_best(y, s, w if weight else np.ones(len(y)), beta)
            assert_close(list(out.row(i)[1:]), list(expected), 1e-12)


@given(df=score_frames())
def test_ranking_report_matches_sklearn_and_the_expressions(df: pl.DataFrame) -> None:
    df = with_positive(df)
    for weight in (None, "w"):
        out = fe.ranking_report(df, **KW, weight=weight)
        assert out.columns == ["g", *MEASURES]
        exprs = df.group_by("g").agg(m("y", "s", weight=weight) for m in MEASURES.values())
        assert_close(out.drop("g").rows(), exprs.sort("g").drop("g").rows(), 1e-12)
        for i, (_, y, s, w) in enumerate(parts(df)):
            expected = sk_measures(y, s, w if weight else None)
            assert_close(list(out.row(i)[1:]), [expected[m] for m in MEASURES])


# ---------------------------------------------------------------------------------------------
# convex hull and cost curves
# ---------------------------------------------------------------------------------------------
def exact_hull(fp: list[Fraction], tp: list[Fraction]) -> list[int]:
    """Indices of the strict upper-hull vertices of the points (in order), monotone chain."""
    hull: list[int] = []
    for i in range(len(fp)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (fp[b] - fp[a]) * (tp[i] - tp[a]) - (tp[b] - tp[a]) * (fp[i] - fp[a])
            if cross >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


def counts(y, s, w):
    """(thresholds, FP, TP) as exact rationals at every distinct score carrying weight, from the
    +inf start; scores descending."""
    ww = [Fraction(v) for v in w]
    thresholds = [np.inf] + sorted({v for v, u in zip(s, ww, strict=True) if u > 0}, reverse=True)
    fp, tp = [Fraction(0)], [Fraction(0)]
    for t in thresholds[1:]:
        fp.append(sum(u for u, yy, ss in zip(ww, y, s, strict=True) if ss >= t and yy != 1))
        tp.append(sum(u for u, yy, ss in zip(ww, y, s, strict=True) if ss >= t and yy == 1))
    return thresholds, fp, tp


@pytest.mark.parametrize("weights", ["none", "int"])
@settings(max_examples=budget(25))
@given(data=st.data())
def test_roc_convex_hull_matches_an_exact_hull(data, weights: str) -> None:
    df = with_positive(data.draw(score_frames(weights=weights, max_rows=20)))
    out = fe.roc_convex_hull(df, **KW, weight="w")
    for key, y, s, w in parts(df):
        thresholds, fp, tp = counts(y, s, w)
        expected = [thresholds[i] for i in exact_hull(fp, tp)]
        assert group(out, key)["threshold"].to_list() == expected


@settings(max_examples=budget(25))
@given(df=score_frames(weights="float", max_rows=20))
def test_roc_convex_hull_is_a_concave_majorant(df: pl.DataFrame) -> None:
    """Float weights: the hull's vertices are ROC points, its slopes fall, and no ROC point lies
    above it (tolerance 1e-12)."""
    df = with_positive(df)
    hull = fe.roc_convex_hull(df, **KW, weight="w")
    roc = fe.roc_curve(df, **KW, weight="w")
    for key, *_ in parts(df):
        h, r = group(hull, key), group(roc, key)
        assert set(h["threshold"]) <= set(r["threshold"])
        if h["fpr"].null_count() or h["tpr"].null_count():
            continue
        x, y = h["fpr"].to_numpy(), h["tpr"].to_numpy()
        above = np.interp(r["fpr"].to_numpy(), x, y, left=np.nan, right=np.nan)
        if np.any(np.diff(x) == 0):  # a vertical first edge: interpolate on the right of it
            assert x[0] == x[1] == 0
            above[r["fpr"].to_numpy() == 0] = y[1]
        assert (r["tpr"].to_numpy() <= above + 1e-12).all()


def test_roc_convex_hull_keeps_every_point_of_a_concave_chain() -> None:
    """300 distinct scores whose slopes pos/neg fall strictly: every point is a hull vertex, so
    nothing is pruned and every merge round runs. Then 5,000 more positives below all of them:
    a vertical last step, which makes the arc's points non-vertices one after the other from
    its end (the worst case for local pruning); checked against the exact hull."""
    k = np.arange(1, 301)
    pos, neg = 301 - k, k
    y = np.concatenate([np.ones(pos.sum()), np.zeros(neg.sum())]).astype(int)
    s = np.concatenate([np.repeat(-k, pos), np.repeat(-k, neg)]).astype(float)
    df = pl.DataFrame({"y": y, "s": s})
    hull = fe.roc_convex_hull(df, truth="y", score="s")
    assert hull["threshold"].to_list() == [np.inf, *(-k).astype(float).tolist()]
    thresholds = [np.inf, *(-k).astype(float).tolist(), -400.0]
    fp = [Fraction(0), *(Fraction(int(v)) for v in np.cumsum(neg)), Fraction(int(neg.sum()))]
    tp = [Fraction(0), *(Fraction(int(v)) for v in np.cumsum(pos))]
    tp.append(tp[-1] + 5_000)
    with_high = pl.concat([df, pl.DataFrame({"y": [1] * 5_000, "s": [-400.0] * 5_000})])
    hull = fe.roc_convex_hull(with_high, truth="y", score="s")
    expected = [thresholds[i] for i in exact_hull(fp, tp)]
    assert 2 < len(expected) < 300
    assert hull["threshold"].to_list() == expected


def brute_envelope(y, s, w, grid: np.ndarray) -> np.ndarray:
    fpr, tpr, _ = sk_roc(y, s, w)
    return np.min(fpr[:, None] * (1 - grid) + (1 - tpr)[:, None] * grid, axis=0)


@settings(max_examples=budget(30))
@given(df=score_frames())
def test_cost_curve_and_area_match_brute_force(df: pl.DataFrame) -> None:
    """The envelope equals min over every ROC point's cost line on 2,001 values of P(+)cost
    (1e-12); its area equals the brute-force trapezoid on 40,001 values (1e-7: a corner between
    grid values costs at most h²/4)."""
    df = with_positive(df)
    grid, fine = np.linspace(0, 1, 2_001), np.linspace(0, 1, 40_001)
    for weight in (None, "w"):
        curve = fe.cost_curve(df, **KW, weight=weight)
        area = fe.expected_total_cost(df, **KW, weight=weight)
        for i, (key, y, s, w) in enumerate(parts(df)):
            ww = w if weight else np.ones(len(y))
            got = group(curve, key)
            if ww[y == 1].sum() == 0 or ww[y != 1].sum() == 0:
                assert got.drop("g").rows() == [(None, None)]
                assert area["expected_total_cost"][i] is None
                continue
            x, v = got["p_cost"].to_numpy(), got["norm_cost"].to_numpy()
            assert (np.diff(x) > 0).all() and x[0] == 0 and x[-1] == 1
            assert v[0] == 0 and v[-1] == 0  # the envelope is 0 at P(+)cost = 0 and 1
            assert_close(np.interp(grid, x, v), brute_envelope(y, s, ww, grid), 1e-12)
            brute_area = trapezoid(fine, brute_envelope(y, s, ww, fine))
            assert_close(area["expected_total_cost"][i], brute_area, 1e-7)


@given(df=score_frames())
def test_cost_lines_are_the_roc_points(df: pl.DataFrame) -> None:
    df = with_positive(df)
    lines = fe.cost_lines(df, **KW, weight="w")
    roc = fe.roc_curve(df, **KW, weight="w")
    assert lines.columns == ["g", "threshold", "p_cost", "norm_cost"]
    assert lines.height == 2 * roc.height
    left = lines.filter(pl.col("p_cost") == 0).drop("p_cost")
    right = lines.filter(pl.col("p_cost") == 1).drop("p_cost")
    assert left.rows() == roc.select("g", "threshold", "fpr").rows()
    expected = roc.select("g", "threshold", 1 - pl.col("tpr")).rows()
    assert_close([r[2] for r in right.rows()], [r[2] for r in expected], 1e-15)


def test_cost_curve_golden_tie_example() -> None:
    """The tie example of the notes (m⁺ = 5, m⁻ = 7; §2.3 "式(2.21)和式(2.22)的推导"): its hull
    is (0,0), (0,1/5), (1/7,3/5), (3/7,4/5), (1,1). Consecutive hull lines cross at
    x = ΔFPR/(ΔFPR + ΔTPR) = 5/19, 10/17 and 20/27 (the vertical first edge gives x = 0), where
    the envelope FPR·(1 − x) + FNR·x (eqs 2.24–2.25) is 4/19, 5/17 and 7/27; the trapezoids
    over (0, 0), those corners and (1, 0) sum to 1618/8721."""
    tie = pl.DataFrame(
        {"y": [1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0], "s": [12.0, 11, 10, 9, 8, 7, 6, 1, 1, 1, 1, 1]}
    )
    hull = fe.roc_convex_hull(tie, truth="y", score="s")
    assert_close(hull["fpr"].to_list(), [0, 0, 1 / 7, 3 / 7, 1], 1e-12)
    assert_close(hull["tpr"].to_list(), [0, 1 / 5, 3 / 5, 4 / 5, 1], 1e-12)
    curve = fe.cost_curve(tie, truth="y", score="s")
    assert_close(curve["p_cost"].to_list(), [0, 5 / 19, 10 / 17, 20 / 27, 1], 1e-12)
    assert_close(curve["norm_cost"].to_list(), [0, 4 / 19, 5 / 17, 7 / 27, 0], 1e-12)
    area = fe.expected_total_cost(tie, truth="y", score="s")["expected_total_cost"].item()
    assert_close(area, 1618 / 8721, 1e-12)


# ---------------------------------------------------------------------------------------------
# multiclass
# ---------------------------------------------------------------------------------------------
@st.composite
def multiclass_frames(draw, n_classes: int = 3):
    """g, y (0..n_classes-1; classes may be absent from a group), p0..p{k-1} (few values), w."""
    rows: dict[str, list] = {"g": [], "y": [], "w": [], **{f"p{c}": [] for c in range(n_classes)}}
    for grp in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 14))
        present = draw(st.integers(1, n_classes))
        rows["g"] += [grp] * n
        rows["y"] += draw(st.lists(st.integers(0, present - 1), min_size=n, max_size=n))
        rows["w"] += [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))]
        for c in range(n_classes):
            rows[f"p{c}"] += [
                v / 4 for v in draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
            ]
    return pl.DataFrame(rows).with_columns(pl.col("y").cast(pl.Int64))


def sk_multiclass(y, scores, w, k: int) -> dict:
    """One-vs-rest and pairwise AUCs from binary roc_auc_score, and the four averages."""
    mass = np.array([w[y == c].sum() for c in range(k)])

    def auc_(truth, score, weight):
        if weight[truth].sum() == 0 or weight[~truth].sum() == 0:
            return None
        return roc_auc_score(truth, score, sample_weight=weight)

    ovr = [auc_(y == c, scores[:, c], w) for c in range(k)]
    pairs, weights = [], []
    for a in range(k):
        for b in range(a + 1, k):
            mask = (y == a) | (y == b)
            ab = auc_(y[mask] == a, scores[mask, a], w[mask])
            ba = auc_(y[mask] == b, scores[mask, b], w[mask])
            if ab is not None:
                pairs.append((ab + ba) / 2)
                weights.append(mass[a] + mass[b])
    defined = [(v, mass[c]) for c, v in enumerate(ovr) if v is not None]

    def mean(values, weight=None):
        if not values or (weight is not None and sum(weight) == 0):
            return None
        return float(np.average(values, weights=weight))

    return {
        "none": ovr,
        "macro": mean([v for v, _ in defined]),
        "weighted": mean([v for v, _ in defined], [m for _, m in defined]),
        "ovo": mean(pairs),
        "ovo_weighted": mean(pairs, weights),
    }


@settings(max_examples=budget(15))
@given(df=multiclass_frames())
def test_multiclass_roc_auc_matches_sklearn_binary_problems(df: pl.DataFrame) -> None:
    columns = ["p0", "p1", "p2"]
    for weight in (None, "w"):
        out = fe.multiclass_roc_auc(
            df, truth="y", score=columns, labels=[0, 1, 2], by="g", weight=weight
        )
        assert out.columns == ["g", "average", "label", "roc_auc"]
        for key, part in sorted((p["g"][0], p) for p in df.partition_by("g")):
            got = group(out, key)
            w = part["w"].to_numpy() if weight else np.ones(part.height)
            expected = sk_multiclass(part["y"].to_numpy(), part.select(columns).to_numpy(), w, 3)
            assert got["average"].to_list() == ["none"] * 3 + [
                "macro",
                "weighted",
                "ovo",
                "ovo_weighted",
            ]
            assert got["label"].to_list() == [0, 1, 2, None, None, None, None]
            values = [
                *expected["none"],
                expected["macro"],
                expected["weighted"],
                expected["ovo"],
                expected["ovo_weighted"],
            ]
            assert_close(got["roc_auc"].to_list(), values)


def test_multiclass_roc_auc_matches_sklearn_multiclass() -> None:
    """scikit-learn's roc_auc_score(multi_class=...) on rows of probabilities (all classes
    present, unweighted: its one-vs-one average takes no weights)."""
    rng = np.random.default_rng(3)
    n, k = 300, 4
    y = rng.integers(0, k, n)
    raw = rng.integers(1, 6, (n, k)) + 3 * np.eye(k, dtype=int)[y] * rng.integers(0, 2, n)[:, None]
    prob = raw / raw.sum(axis=1, keepdims=True)
    df = pl.DataFrame({"y": y, **{f"p{c}": prob[:, c] for c in range(k)}})
    out = fe.multiclass_roc_auc(df, truth="y", score={c: f"p{c}" for c in range(k)})
    value = dict(zip(out["average"][k:], out["roc_auc"][k:], strict=True))
    assert_close(value["macro"], roc_auc_score(y, prob, multi_class="ovr", average="macro"))
    assert_close(value["weighted"], roc_auc_score(y, prob, multi_class="ovr", average="weighted"))
    assert_close(value["ovo"], roc_auc_score(y, prob, multi_class="ovo", average="macro"))
    assert_close(
        value["ovo_weighted"], roc_auc_score(y, prob, multi_class="ovo", average="weighted")
    )
    per_class = roc_auc_score(y, prob, multi_class="ovr", average=None)
    assert_close(out["roc_auc"][:k].to_list(), per_class.tolist())


def test_multiclass_roc_auc_string_labels_and_errors() -> None:
    df = pl.DataFrame(
        {
            "y": ["a", "b", "c", "a"],
            "pa": [0.9, 0.1, 0.2, 0.6],
            "pb": [0.05, 0.8, 0.2, 0.3],
            "pc": [0.05, 0.1, 0.6, 0.1],
        }
    )
    out = fe.multiclass_roc_auc(df, truth="y", score={"a": "pa", "b": "pb", "c": "pc"})
    assert out["label"].to_list() == ["a", "b", "c", None, None, None, None]
    lazy = fe.multiclass_roc_auc(df.lazy(), truth="y", score={"a": "pa", "b": "pb", "c": "pc"})
    assert isinstance(lazy, pl.LazyFrame) and fe.collect(lazy).equals(out)
    with pytest.raises(InvalidParameterError, match=r"labels= is required when score= is a list"):
        fe.multiclass_roc_auc(df, truth="y", score=["pa", "pb", "pc"])
    with pytest.raises(InvalidParameterError, match=r"labels= must be None when score= is a map"):
        fe.multiclass_roc_auc(df, truth="y", score={"a": "pa", "b": "pb"}, labels=["a", "b"])
    with pytest.raises(InvalidParameterError, match=r"one class per score column, got 2 labels"):
        fe.multiclass_roc_auc(df, truth="y", score=["pa", "pb", "pc"], labels=["a", "b"])
    with pytest.raises(InvalidParameterError, match=r"at least two classes, got 1"):
        fe.multiclass_roc_auc(df, truth="y", score={"a": "pa"})
    with pytest.raises(UnknownLabelError, match=r"must hold only the labels \['a', 'b'\], got c"):
        fe.multiclass_roc_auc(df, truth="y", score={"a": "pa", "b": "pb"})
    bad = df.with_columns(pl.lit(float("nan")).alias("pc"))
    with pytest.raises(MissingValueError, match=r"column 'pc' \(score=\) must not contain NaN"):
        fe.multiclass_roc_auc(bad, truth="y", score={"a": "pa", "b": "pb", "c": "pc"})


# ---------------------------------------------------------------------------------------------
# the frame contract
# ---------------------------------------------------------------------------------------------
FRAME_FUNCTIONS = [
    fe.roc_curve,
    fe.roc_convex_hull,
    fe.pr_curve,
    fe.ranking_report,
    fe.break_even_point,
    fe.best_threshold,
    fe.threshold_table,
    fe.cost_lines,
    fe.cost_curve,
    fe.expected_total_cost,
]


@settings(max_examples=budget(10))
@given(df=score_frames(), seed=st.integers(0, 2**16))
def test_lazy_eager_row_order_and_grouping(df: pl.DataFrame, seed: int) -> None:
    df = with_positive(df)
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
    for func in FRAME_FUNCTIONS:
        eager = func(df, **KW, weight="w")
        lazy = func(shuffled.lazy(), **KW, weight="w")
        assert isinstance(eager, pl.DataFrame) and isinstance(lazy, pl.LazyFrame)
        assert_close(fe.collect(lazy).drop("g").rows(), eager.drop("g").rows(), 1e-12)
        for key, part in ((p["g"][0], p) for p in df.partition_by("g")):
            if not (part["y"] == 1).any():
                continue
            alone = func(part.drop("g"), truth="y", score="s", weight="w")
            assert_close(alone.rows(), group(eager, key).drop("g").rows(), 1e-12)


def test_several_keys_with_nulls_and_pandas_input() -> None:
    df = pl.DataFrame(
        {
            "a": [1, 1, 1, 1, None, None],
            "b": ["x", "x", "y", "y", "x", "x"],
            "y": [1, 0, 1, 0, 1, 0],
            "s": [0.9, 0.1, 0.2, 0.8, 0.5, 0.5],
        }
    )
    out = fe.ranking_report(df, truth="y", score="s", by=["a", "b"])
    assert out.select("a", "b", "roc_auc").rows() == [
        (1, "x", 1.0),
        (1, "y", 0.0),
        (None, "x", 0.5),
    ]
    curve = fe.roc_curve(df.to_pandas(), truth="y", score="s", by=["a", "b"])
    assert isinstance(curve, pl.DataFrame) and curve.columns == [
        "a",
        "b",
        "threshold",
        "fpr",
        "tpr",
    ]
    assert curve.height == 3 + 3 + 2


def test_integer_scores_and_negative_zero() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 0], "s": [3, 3, 1, 0]})
    assert fe.roc_curve(df, truth="y", score="s")["threshold"].to_list() == [np.inf, 3, 1, 0]
    signed = pl.DataFrame({"y": [1, 0], "s": [0.0, -0.0]})
    out = fe.roc_curve(signed, truth="y", score="s")
    assert out.height == 2 and str(out["threshold"][1]) == "0.0"


def test_lazy_empty_frame_gives_no_rows_and_eager_empty_raises() -> None:
    empty = pl.DataFrame(
        {"g": [], "y": [], "s": []}, schema={"g": pl.Int64, "y": pl.Int64, "s": pl.Float64}
    )
    with pytest.raises(EmptyFrameError, match=r"^roc_curve\(\): data must have at least one row"):
        fe.roc_curve(empty, truth="y", score="s")
    for func in FRAME_FUNCTIONS:
        assert fe.collect(func(empty.lazy(), truth="y", score="s", by="g")).height == 0


@pytest.mark.parametrize("func", FRAME_FUNCTIONS, ids=lambda f: f.__name__)
def test_invalid_input_raises(func) -> None:
    name = func.__name__
    df = pl.DataFrame(
        {
            "g": [1, 1, 2, 2],
            "y": [1, 0, 1, 0],
            "s": [0.5, 0.2, 0.1, 0.4],
            "w": [1.0, 1.0, 2.0, 1.0],
            "t": ["a", "b", "c", "d"],
        }
    )
    with pytest.raises(
        ColumnNotFoundError, match=rf"^{name}\(\): column 'sc' \(score=\) not found"
    ):
        func(df, truth="y", score="sc")
    with pytest.raises(
        InvalidDtypeError,
        match=rf"^{name}\(\): column 't' \(score=\) must be "
        r"numeric",
    ):
        func(df, truth="y", score="t")
    nan = df.with_columns(pl.when(pl.col("g") == 2).then(float("nan")).otherwise("s").alias("s"))
    with pytest.raises(
        MissingValueError,
        match=rf"^{name}\(\): column 's' \(score=\) must not contain NaN, got NaN "
        r"\(2 rows\) in group g=2\.",
    ):
        func(nan, truth="y", score="s", by="g")
    negative = df.with_columns(pl.Series("w", [1.0, -2.0, 1.0, 1.0]))
    with pytest.raises(
        NegativeValueError,
        match=rf"^{name}\(\): column 'w' \(weight=\) must be "
        r">= 0, got -2.0",
    ):
        func(negative, truth="y", score="s", weight="w")
    with pytest.raises(
        UnknownLabelError,
        match=rf"^{name}\(\): pos_label 3 must occur in "
        r"column 'y', got no such row\.",
    ):
        func(df, truth="y", score="s", pos_label=3)
    with pytest.raises(InvalidDtypeError, match=r"pos_label must match the dtype of column 'y'"):
        func(df, truth="y", score="s", pos_label="yes")
    null_truth = df.with_columns(pl.Series("y", [1, None, 1, 0]))
    with pytest.raises(MissingValueError, match=r"column 'y' \(truth=\) must not contain nulls"):
        func(null_truth.lazy(), truth="y", score="s").pipe(fe.collect)


def test_parameters_are_checked() -> None:
    df = pl.DataFrame({"threshold": [1, 1], "y": [1, 0], "s": [0.5, 0.2]})
    with pytest.raises(
        InvalidParameterError,
        match=r"by= must not use the output column name "
        r"'threshold'",
    ):
        fe.roc_curve(df, truth="y", score="s", by="threshold")
    with pytest.raises(InvalidParameterError, match=r"drop_intermediate must be True or False"):
        fe.roc_curve(df, truth="y", score="s", drop_intermediate="yes")
    with pytest.raises(InvalidParameterError, match=r"registered measure names .*, got 'f2'"):
        fe.best_threshold(df, truth="y", score="s", measure="f2")
    with pytest.raises(InvalidParameterError, match=r"beta must be a finite number > 0, got 0"):
        fe.best_threshold(df, truth="y", score="s", measure="fbeta", beta=0)


def test_string_and_boolean_labels() -> None:
    base = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    expected = fe.roc_curve(base, truth="y", score="s")
    text = base.with_columns(pl.col("y").replace_strict({1: "yes", 0: "no"}))
    with pytest.raises(InvalidParameterError, match=r"pos_label= is required for string labels"):
        fe.roc_curve(text, truth="y", score="s")
    assert fe.roc_curve(text, truth="y", score="s", pos_label="yes").equals(expected)
    flag = base.with_columns(pl.col("y").cast(pl.Boolean))
    assert fe.roc_curve(flag, truth="y", score="s").equals(expected)
    cat = text.with_columns(pl.col("y").cast(pl.Categorical))
    assert fe.roc_curve(cat, truth="y", score="s", pos_label="yes").equals(expected)


@settings(max_examples=budget(15))
@given(
    scores=st.lists(
        st.one_of(
            st.none(),
            st.sampled_from([0.0, -0.0, 0.5, 1.0, -3.25, float("nan")]),
            st.floats(-1e6, 1e6),
        ),
        min_size=0,
        max_size=60,
    ),
    parts=st.integers(1, 9),
)
def test_score_counts_pieces_are_the_one_table(scores: list[float | None], parts: int) -> None:
    """The partitioned per-(group, score) table equals the plain group_by, nulls and NaN kept."""
    from frameeval.curves import score_counts

    lf = pl.LazyFrame(
        {"g": [i % 3 for i in range(len(scores))], "s": scores},
        schema={"g": pl.Int64, "s": pl.Float64},
    )
    s = (pl.col("s") + 0.0).alias("threshold")
    aggs = [pl.len().alias("n"), pl.col("s").null_count().alias("nulls")]
    whole = lf.group_by("g", s).agg(*aggs).collect().sort("g", "threshold", nulls_last=True)
    pieces = score_counts(lf, ["g"], s, aggs, parts=parts).collect()
    assert_frame_equal(pieces.sort("g", "threshold", nulls_last=True), whole)


def test_lazy_scan_pieces_still_check_every_row() -> None:
    """A null or NaN score in a LazyFrame (counted in piece 0 / its hash piece) still raises."""
    df = pl.DataFrame({"g": [0, 0, 1, 1], "y": [1, 0, 1, 0], "s": [0.9, 0.1, 0.8, 0.2]})
    for bad, pattern in ((None, "must not contain nulls"), (float("nan"), "must not contain NaN")):
        lazy = df.with_columns(pl.Series("s", [0.9, 0.1, bad, 0.2], dtype=pl.Float64)).lazy()
        with pytest.raises(MissingValueError, match=rf"column 's' \(score=\) {pattern}.*g=1"):
            fe.collect(fe.roc_curve(lazy, truth="y", score="s", by="g"))


def test_multiclass_roc_auc_spans_groups_with_different_class_sets() -> None:
    """issue 15: a 2-class and a 3-class data set in one frame; the absent class's score column
    is null in the 2-class data set. Each group equals the call on that group alone."""
    small = pl.DataFrame(
        {"y": [0, 0, 1, 1, 1], "p0": [0.7, 0.4, 0.2, 0.5, 0.1], "p1": [0.3, 0.6, 0.8, 0.5, 0.9]}
    )
    big = pl.DataFrame(
        {
            "y": [0, 0, 1, 1, 2, 2],
            "p0": [0.6, 0.3, 0.4, 0.2, 0.2, 0.1],
            "p1": [0.3, 0.3, 0.4, 0.5, 0.3, 0.2],
            "p2": [0.1, 0.4, 0.2, 0.3, 0.5, 0.7],
        }
    )
    both = pl.concat(
        [
            small.with_columns(pl.lit("a").alias("ds"), pl.lit(None, pl.Float64).alias("p2")),
            big.with_columns(pl.lit("b").alias("ds")),
        ],
        how="diagonal_relaxed",
    )
    score = {0: "p0", 1: "p1", 2: "p2"}
    out = fe.multiclass_roc_auc(both, truth="y", score=score, by="ds")
    alone_b = fe.multiclass_roc_auc(big, truth="y", score=score)
    got_b = out.filter(pl.col("ds") == "b").drop("ds")
    assert_frame_equal(got_b, alone_b)
    alone_a = fe.multiclass_roc_auc(small, truth="y", score={0: "p0", 1: "p1"})
    got_a = (
        out.filter((pl.col("ds") == "a") & (pl.col("label") != 2) | pl.col("label").is_null())
        .filter(pl.col("ds") == "a")
        .drop("ds")
    )
    assert_frame_equal(got_a, alone_a)
    assert out.filter((pl.col("ds") == "a") & (pl.col("label") == 2))["roc_auc"].to_list() == [None]
    # a null score where the class is present is still refused
    with pytest.raises(MissingValueError, match=r"column 'p2' \(score=\) must not contain nulls"):
        fe.multiclass_roc_auc(
            both.with_columns(pl.lit(None, pl.Float64).alias("p2")), truth="y", score=score, by="ds"
        )
