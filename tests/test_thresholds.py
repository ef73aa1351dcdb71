"""frameeval.thresholds against scikit-learn and brute force, grouped, weighted.

* ``threshold_table`` ↔ ``sklearn.metrics.confusion_matrix(y, s >= t)`` at every threshold
  (+inf included), and each measure column ↔ scikit-learn's measure of the same predictions.
* ``best_threshold`` by MCC, Youden's J, expected cost and F1 under ``min_recall`` ↔ brute force
  over all thresholds with scikit-learn's metrics (ties: the highest threshold).
* the cost optimum ↔ the lower envelope of ``fe.cost_curve`` at the objective's P(+)cost.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)

import frameeval as fe
from frameeval.exceptions import InvalidParameterError
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close
from tests.metrics.test_ranking import parts, score_frames
from tests.test_curves import KW, with_positive


def thresholds(s: np.ndarray, w: np.ndarray) -> list[float]:
    """+inf, then every distinct score whose rows do not all weigh 0, descending."""
    return [np.inf, *sorted({float(v) for v, u in zip(s, w, strict=True) if u > 0}, reverse=True)]


def cells(y, s, w, t) -> tuple[float, float, float, float]:
    if w.sum() == 0:  # scikit-learn refuses all-zero weights
        return 0.0, 0.0, 0.0, 0.0
    tn, fp, fn, tp = confusion_matrix(y == 1, s >= t, labels=[False, True], sample_weight=w).ravel()
    return float(tp), float(fp), float(tn), float(fn)


def sk(measure: str, y, pred, w) -> float | None:
    """scikit-learn's value; None where frameeval's is undefined (null)."""
    yy = (y == 1).astype(int)
    ww = np.ones(len(y)) if w is None else w
    w_pos, w_neg = ww[yy == 1].sum(), ww[yy == 0].sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if measure == "mcc":
            cm = confusion_matrix(yy, pred, labels=[0, 1], sample_weight=w)
            if cm.sum(axis=0).min() == 0 or cm.sum(axis=1).min() == 0:
                return None
            return matthews_corrcoef(yy, pred, sample_weight=w)
        if measure == "youden_j":
            if w_pos == 0 or w_neg == 0:
                return None
            return (
                recall_score(yy, pred, pos_label=1, sample_weight=w)
                + recall_score(yy, pred, pos_label=0, sample_weight=w)
                - 1.0
            )
        if measure == "precision":
            return None if ww[pred == 1].sum() == 0 else precision_score(yy, pred, sample_weight=w)
        if measure == "recall":
            return None if w_pos == 0 else recall_score(yy, pred, sample_weight=w)
        if measure == "f1":
            return (
                f1_score(yy, pred, sample_weight=w, zero_division=np.nan)
                if (w_pos + ww[pred == 1].sum() > 0)
                else None
            )
        if measure == "balanced_accuracy":
            return balanced_accuracy_score(yy, pred, sample_weight=w)
        if measure == "cohen_kappa":
            cm = confusion_matrix(yy, pred, labels=[0, 1], sample_weight=w)
            expected = 1 - (cm.sum(axis=0) * cm.sum(axis=1)).sum() / cm.sum() ** 2
            return None if abs(expected) < 1e-15 else cohen_kappa_score(yy, pred, sample_weight=w)
    raise AssertionError(measure)


TABLE_MEASURES = [
    "precision",
    "recall",
    "f1",
    "mcc",
    "youden_j",
    "balanced_accuracy",
    "cohen_kappa",
]


@settings(max_examples=budget(25))
@given(df=score_frames())
def test_threshold_table_matches_sklearn_at_every_threshold(df: pl.DataFrame) -> None:
    df = with_positive(df)
    for weight in (None, "w"):
        out = fe.threshold_table(df, **KW, weight=weight, measures=TABLE_MEASURES)
        assert out.columns == ["g", "threshold", "tp", "fp", "tn", "fn", *TABLE_MEASURES]
        for key, y, s, w in parts(df):
            ww = w if weight else np.ones(len(y))
            got = out.filter(pl.col("g") == key)
            ts = thresholds(s, ww)
            assert got["threshold"].to_list() == ts
            for row, t in zip(got.iter_rows(named=True), ts, strict=True):
                expected = cells(y, s, ww, t)
                counts = (row["tp"], row["fp"], row["tn"], row["fn"])
                if weight is None:
                    assert counts == expected  # exact
                else:
                    assert_close(list(counts), list(expected), 1e-9)
                if ww.sum() == 0:
                    continue
                pred = (s >= t).astype(int)
                for m in TABLE_MEASURES:
                    assert_close([row[m]], [sk(m, y, pred, w if weight else None)], 1e-9)


def brute(y, s, w, objective, feasible=lambda tp, fp, tn, fn: True):
    """(threshold, value) of the best feasible threshold (highest on ties), by enumeration."""
    best = []
    for t in thresholds(s, w):
        tp, fp, tn, fn = cells(y, s, w, t)
        v = objective(y, (s >= t).astype(int), w, (tp, fp, tn, fn))
        if v is not None and feasible(tp, fp, tn, fn):
            best.append((t, v))
    if not best:
        return None, None
    top = max(v for _, v in best)
    t = max(t for t, v in best if v >= top - 1e-9 * max(1.0, abs(top)))
    return t, dict(best)[t]


def neg_cost(c01: float, c10: float, p: float | None):
    def objective(y, pred, w, counts):
        tp, fp, tn, fn = counts
        if tp + fn == 0 or tn + fp == 0:
            return None
        share = (tp + fn) / (tp + fp + tn + fn) if p is None else p
        miss, alarm = share * c01, (1 - share) * c10
        return -(miss * fn / (tp + fn) + alarm * fp / (tn + fp)) / (miss + alarm)

    return objective


CASES = {
    "mcc": ({"measure": "mcc"}, lambda y, pr, w, c: sk("mcc", y, pr, w), None),
    "youden_j": ({"measure": "youden_j"}, lambda y, pr, w, c: sk("youden_j", y, pr, w), None),
    "cost": ({"costs": (1.0, 3.0)}, neg_cost(1.0, 3.0, None), None),
    "cost_prior": ({"costs": (2.0, 1.0), "p": 0.2}, neg_cost(2.0, 1.0, 0.2), None),
    "f1_min_recall": (
        {"min_recall": 0.75},
        lambda y, pr, w, c: sk("f1", y, pr, w),
        lambda tp, fp, tn, fn: tp + fn > 0 and tp / (tp + fn) >= 0.75,
    ),
    "precision_min_recall": (
        {"measure": "precision", "min_recall": 0.5},
        lambda y, pr, w, c: sk("precision", y, pr, w),
        lambda tp, fp, tn, fn: tp + fn > 0 and tp / (tp + fn) >= 0.5,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
@settings(max_examples=budget(20))
@given(df=score_frames())
def test_best_threshold_matches_brute_force(df: pl.DataFrame, case: str) -> None:
    df = with_positive(df)
    kwargs, objective, feasible = CASES[case]
    for weight in (None, "w"):
        out = fe.best_threshold(df, **KW, weight=weight, **kwargs)
        name = "expected_cost" if "costs" in kwargs else kwargs.get("measure", "f1")
        assert out.columns == list(dict.fromkeys(["g", "threshold", "precision", "recall", name]))
        for i, (_, y, s, w) in enumerate(parts(df)):
            ww = w if weight else np.ones(len(y))
            row = out.row(i, named=True)
            if ww[y == 1].sum() == 0:
                assert row["threshold"] is None
                continue
            t, v = brute(y, s, ww, objective, feasible or (lambda *_: True))
            assert row["threshold"] == t
            if t is None:
                assert all(v is None for v in row.values() if v != row["g"])
                continue
            got = row[name]
            assert_close([-got if "costs" in kwargs else got], [v], 1e-9)
            tp, fp, tn, fn = cells(y, s, ww, t)
            assert_close([row["recall"]], [tp / (tp + fn)], 1e-9)


@settings(max_examples=budget(20))
@given(df=score_frames(), c01=st.floats(0.1, 10), c10=st.floats(0.1, 10), p=st.floats(0.05, 0.95))
def test_cost_optimum_touches_the_cost_curve(
    df: pl.DataFrame, c01: float, c10: float, p: float
) -> None:
    df = with_positive(df)
    best = fe.best_threshold(df, **KW, weight="w", costs=(c01, c10), p=p)
    curve = fe.cost_curve(df, **KW, weight="w")
    x = p * c01 / (p * c01 + (1 - p) * c10)
    for key, part in curve.group_by("g"):
        if part["norm_cost"].null_count():
            continue
        part = part.sort("p_cost")
        envelope = np.interp(x, part["p_cost"].to_numpy(), part["norm_cost"].to_numpy())
        got = best.filter(pl.col("g") == key[0])["expected_cost"].item()
        assert_close([got], [float(envelope)], 1e-9)


def test_golden_and_tie_rule() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    # Youden's J: 0.4 (J = 2/3) is the unique best; at max_fpr=0 only +inf and 0.9 remain
    assert (
        fe.best_threshold(df, truth="y", score="s", measure="youden_j")["threshold"].item() == 0.4
    )
    out = fe.best_threshold(df, truth="y", score="s", measure="youden_j", max_fpr=0.0)
    assert out.row(0) == (0.9, 1.0, 1 / 3, pytest.approx(1 / 3))
    # J ties between 0.9 and 0.4 (both 1/2): the higher threshold wins
    tie = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    out = fe.best_threshold(tie, truth="y", score="s", measure="youden_j")
    assert out.row(0) == (0.9, 1.0, 0.5, 0.5)
    # infeasible: all null
    out = fe.best_threshold(df, truth="y", score="s", min_recall=1.0, min_precision=0.9)
    assert out.row(0) == (None, None, None, None)
    # huge false-alarm cost: predict nothing positive
    out = fe.best_threshold(df, truth="y", score="s", costs=(1.0, 100.0))
    assert out["threshold"].item() == 0.9
    # the top score is a negative: every finite threshold has a false alarm
    flipped = tie.with_columns(pl.col("s").reverse())
    out = fe.best_threshold(flipped, truth="y", score="s", costs=(1.0, 1e6), p=0.01)
    assert out.row(0) == (np.inf, None, 0.0, pytest.approx(0.01 / (0.01 + 0.99 * 1e6)))


@settings(max_examples=budget(10))
@given(df=score_frames(), seed=st.integers(0, 2**16))
def test_lazy_eager_and_row_order(df: pl.DataFrame, seed: int) -> None:
    df = with_positive(df)
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
    for func, kwargs in (
        (fe.threshold_table, {"measures": ["mcc", "f1"]}),
        (fe.best_threshold, {"measure": "mcc", "min_recall": 0.5}),
        (fe.best_threshold, {"costs": (1.0, 2.0)}),
    ):
        eager = func(df, **KW, weight="w", **kwargs)
        lazy = func(shuffled.lazy(), **KW, weight="w", **kwargs)
        assert isinstance(lazy, pl.LazyFrame)
        assert_close(fe.collect(lazy).rows(), eager.rows(), 1e-12)


def test_configured_measure_and_no_keys() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})
    f2 = fe.MEASURES["fbeta"].configure("f2", beta=2.0)
    out = fe.threshold_table(df, truth="y", score="s", measures=[f2, "fbeta"])
    assert out.columns == ["threshold", "tp", "fp", "tn", "fn", "f2", "fbeta"]
    best = fe.best_threshold(df, truth="y", score="s", measure="fbeta", beta=2.0)
    assert best["fbeta"].item() == out["f2"].max()


def test_typed_errors() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    kw = {"truth": "y", "score": "s"}
    with pytest.raises(InvalidParameterError, match=r"registered measure names .*got 'f3'"):
        fe.best_threshold(df, **kw, measure="f3")
    with pytest.raises(InvalidParameterError, match=r"registered measure names .*got 'nope'"):
        fe.threshold_table(df, **kw, measures=["f1", "nope"])
    with pytest.raises(
        InvalidParameterError,
        match=r"best_threshold\(\): measure must be a label or binary measure, "
        r"got 'mae' \(a regression measure\)\.",
    ):
        fe.best_threshold(df, **kw, measure="mae")
    with pytest.raises(InvalidParameterError, match=r"got 'roc_auc' \(a score measure\)"):
        fe.threshold_table(df, **kw, measures=["roc_auc"])
    with pytest.raises(
        InvalidParameterError,
        match=r"best_threshold\(\): cost01 must be a finite number >= 0, got -1",
    ):
        fe.best_threshold(df, **kw, costs=(-1, 2))
    with pytest.raises(InvalidParameterError, match=r"costs must not both be 0, got \(0, 0\)"):
        fe.best_threshold(df, **kw, costs=(0, 0))
    with pytest.raises(InvalidParameterError, match=r"costs must be a pair"):
        fe.best_threshold(df, **kw, costs=(1, 2, 3))
    with pytest.raises(
        InvalidParameterError,
        match=r"best_threshold\(\): min_recall must be a number in \[0, 1\], "
        r"got 1\.5\.",
    ):
        fe.best_threshold(df, **kw, min_recall=1.5)
    with pytest.raises(InvalidParameterError, match=r"max_fpr must be a number in \[0, 1\]"):
        fe.best_threshold(df, **kw, max_fpr=-0.1)
    with pytest.raises(InvalidParameterError, match=r"p must be a number in \[0, 1\], got 2"):
        fe.best_threshold(df, **kw, costs=(1, 1), p=2)
    with pytest.raises(InvalidParameterError, match=r"p= is the class prior of costs="):
        fe.best_threshold(df, **kw, p=0.5)
    with pytest.raises(InvalidParameterError, match=r"measure= and costs= are two objectives"):
        fe.best_threshold(df, **kw, measure="mcc", costs=(1, 1))
    with pytest.raises(InvalidParameterError, match=r"must not repeat a name, got \['f1'\]"):
        fe.threshold_table(df, **kw, measures=["f1", "f1"])
    with pytest.raises(
        InvalidParameterError, match=r"by= must not use the output column name 'tp'"
    ):
        fe.threshold_table(df.with_columns(tp=1), **kw, by="tp")
