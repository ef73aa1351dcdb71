"""frameeval.calibration against scikit-learn, statsmodels and hand computations, grouped.

Oracles (tolerance 1e-9 unless said): scikit-learn 1.9 ``log_loss`` / ``brier_score_loss`` with
a probability matrix, ``calibration_curve`` (both strategies; its bin edges recomputed with
``numpy.linspace`` / ``numpy.percentile`` exactly as scikit-learn does), statsmodels
``proportion_confint`` (wilson, beta); ECE/MCE, top-label, class-wise ECE and the Murphy terms
by direct numpy computation over the same bins. Scores come from a grid of tenths plus free
floats, so many rows sit exactly on a bin edge (where the left/right convention matters).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve as sk_calibration_curve
from sklearn.metrics import brier_score_loss, log_loss
from statsmodels.stats.proportion import proportion_confint

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    UnknownLabelError,
)
from tests.helpers.oracle import assert_close

GRID = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


@st.composite
def binary_frames(draw, max_groups: int = 3, max_rows: int = 25):
    """Columns g (Int64), y (Int64 0/1), p (Float64 in [0, 1]); one-class groups occur."""
    g, y, p = [], [], []
    for group in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_rows))
        truth = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        if draw(st.integers(0, 3)) == 0:
            truth = [truth[0]] * n
        values = draw(
            st.lists(st.one_of(st.sampled_from(GRID), st.floats(0.0, 1.0)), min_size=n, max_size=n)
        )
        g += [group] * n
        y += truth
        p += values
    if 1 not in y:  # pos_label must occur somewhere in the frame (one-class groups stay)
        y[-1] = 1
    return pl.DataFrame({"g": g, "y": y, "p": p})


@st.composite
def multiclass_frames(draw, k: int = 3, max_groups: int = 3, max_rows: int = 15):
    """Columns g, y (Int64 in 0..k−1), p0..p{k−1} (a probability vector per row), w."""
    g, y, w, rows = [], [], [], []
    for group in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_rows))
        y += draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
        for _ in range(n):
            raw = draw(st.lists(st.integers(0, 6), min_size=k, max_size=k))
            if sum(raw) == 0:
                raw[0] = 1
            rows.append([v / sum(raw) for v in raw])
        w += draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0]), min_size=n, max_size=n))
        g += [group] * n
    data = {"g": g, "y": y, **{f"p{i}": [r[i] for r in rows] for i in range(k)}, "w": w}
    return pl.DataFrame(data)


def _sk_edges(p: np.ndarray, bins: int, strategy: str) -> np.ndarray:
    if strategy == "quantile":
        return np.percentile(p, np.linspace(0, 1, bins + 1) * 100)
    return np.linspace(0.0, 1.0, bins + 1)


def _sk_bins(y: np.ndarray, p: np.ndarray, bins: int, strategy: str):
    """scikit-learn's binning, spelled out: (bin ids, counts, mean score, fraction positive)."""
    edges = _sk_edges(p, bins, strategy)
    ids = np.searchsorted(edges[1:-1], p)
    total = np.bincount(ids, minlength=bins)
    sums = np.bincount(ids, weights=p, minlength=bins)
    trues = np.bincount(ids, weights=y, minlength=bins)
    nz = total != 0
    return edges, np.flatnonzero(nz), total[nz], sums[nz] / total[nz], trues[nz] / total[nz]


# ---------------------------------------------------------------------------------------------
# multiclass proper scoring rules
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["mapping", "columns", "list", "array"])
@pytest.mark.parametrize("weighted", [False, True])
@given(df=multiclass_frames())
def test_multiclass_scores_equal_scikit_learn(df: pl.DataFrame, form: str, weighted: bool) -> None:
    labels = [0, 1, 2]
    columns = ["p0", "p1", "p2"]
    if form == "mapping":
        score, kw = dict(zip(labels, columns, strict=True)), {}
    elif form == "columns":
        score, kw = columns, {"labels": labels}
    else:
        df = df.with_columns(pl.concat_list(columns).alias("pl"))
        if form == "array":
            df = df.with_columns(pl.col("pl").cast(pl.Array(pl.Float64, 3)))
        score, kw = "pl", {"labels": labels}
    weight = "w" if weighted else None
    ll = fe.multiclass_log_loss(df, truth="y", score=score, by="g", weight=weight, **kw)
    bs = fe.multiclass_brier_score(df, truth="y", score=score, by="g", weight=weight, **kw)
    assert ll.columns == ["g", "log_loss"] and bs.columns == ["g", "brier_score"]
    for part in df.partition_by("g", maintain_order=True):
        group = part["g"][0]
        proba = part.select(columns).to_numpy()
        sw = part["w"].to_numpy() if weighted else None
        expected_ll = log_loss(part["y"], proba, labels=labels, sample_weight=sw)
        expected_bs = brier_score_loss(part["y"], proba, labels=labels, sample_weight=sw)
        assert_close(ll.filter(pl.col("g") == group)["log_loss"].item(), expected_ll)
        assert_close(bs.filter(pl.col("g") == group)["brier_score"].item(), expected_bs)


def test_two_class_brier_is_halved_like_the_binary_measure() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 0], "p1": [0.8, 0.3, 0.4, 0.9]})
    df = df.with_columns((1 - pl.col("p1")).alias("p0"))
    two = fe.multiclass_brier_score(df, truth="y", score={0: "p0", 1: "p1"}).item()
    assert two == pytest.approx(df.select(fe.brier_score("y", "p1")).item(), abs=1e-12)
    full = fe.multiclass_brier_score(df, truth="y", score={0: "p0", 1: "p1"}, scale_by_half=False)
    assert full.item() == pytest.approx(2 * two, abs=1e-12)
    loss = fe.multiclass_log_loss(df, truth="y", score={0: "p0", 1: "p1"}).item()
    assert loss == pytest.approx(df.select(fe.log_loss("y", "p1")).item(), abs=1e-12)


def test_multiclass_string_labels_and_lazy() -> None:
    """scikit-learn's log_loss docstring example: 0.21616 (rounded)."""
    df = pl.LazyFrame(
        {
            "y": ["spam", "ham", "ham", "spam"],
            "p": [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]],
        }
    )
    out = fe.multiclass_log_loss(df, truth="y", score="p", labels=["ham", "spam"])
    assert isinstance(out, pl.LazyFrame)
    assert out.collect().item() == pytest.approx(0.21616, abs=5e-6)


# ---------------------------------------------------------------------------------------------
# calibration curve
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("bins", [1, 3, 5, 10])
@given(df=binary_frames())
def test_calibration_curve_equals_scikit_learn(df: pl.DataFrame, strategy: str, bins: int) -> None:
    out = fe.calibration_curve(df, truth="y", score="p", by="g", bins=bins, strategy=strategy)
    assert out.columns == [
        "g", "bin", "bin_lower", "bin_upper", "mean_score", "fraction_positive", "count",
        "ci_low", "ci_high",
    ]  # fmt: skip
    for part in df.partition_by("g", maintain_order=True):
        y, p = part["y"].to_numpy(), part["p"].to_numpy()
        mine = out.filter(pl.col("g") == part["g"][0])
        if len(np.unique(y)) <= 2 and len(np.unique(y)) >= 1:
            prob_true, prob_pred = sk_calibration_curve(y, p, n_bins=bins, strategy=strategy)
            assert_close(mine["fraction_positive"].to_list(), prob_true)
            assert_close(mine["mean_score"].to_list(), prob_pred)
        edges, ids, counts, _, _ = _sk_bins(y, p, bins, strategy)
        assert mine["bin"].to_list() == ids.tolist()
        assert mine["count"].to_list() == counts.tolist()  # exact
        assert mine["bin_lower"].to_list() == edges[ids].tolist()  # exact
        assert mine["bin_upper"].to_list() == edges[ids + 1].tolist()


@pytest.mark.parametrize("method", [("wilson", "wilson"), ("clopper_pearson", "beta")])
@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.32])
@given(df=binary_frames())
def test_intervals_equal_statsmodels(df: pl.DataFrame, method, alpha: float) -> None:
    ours, theirs = method
    out = fe.calibration_curve(df, truth="y", score="p", by="g", bins=4, ci=ours, alpha=alpha)
    k = np.rint(out["fraction_positive"].to_numpy() * out["count"].to_numpy())
    low, high = proportion_confint(k, out["count"].to_numpy(), alpha=alpha, method=theirs)
    assert_close(out["ci_low"].to_list(), low)
    assert_close(out["ci_high"].to_list(), high)


def test_interval_none_gives_null_columns() -> None:
    df = pl.DataFrame({"y": [0, 1, 1], "p": [0.1, 0.5, 0.9]})
    out = fe.calibration_curve(df, truth="y", score="p", bins=2, ci=None)
    assert out["ci_low"].null_count() == out.height and out["ci_high"].dtype == pl.Float64


@given(df=binary_frames(), seed=st.integers(0, 2**16))
def test_calibration_lazy_equals_eager_and_row_order(df: pl.DataFrame, seed: int) -> None:
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
    for strategy in ("uniform", "quantile"):
        kw = {"truth": "y", "score": "p", "by": "g", "bins": 4, "strategy": strategy}
        eager = fe.calibration_curve(df, **kw)
        lazy = fe.calibration_curve(shuffled.lazy(), **kw)
        assert isinstance(lazy, pl.LazyFrame)
        lazy = lazy.collect()
        assert lazy.select("g", "bin", "count").equals(eager.select("g", "bin", "count"))
        for c in ("mean_score", "fraction_positive", "ci_low", "ci_high"):
            assert_close(lazy[c].to_list(), eager[c].to_list(), 1e-12)
        e1 = fe.calibration_error(df, **kw)
        e2 = fe.calibration_error(shuffled.lazy(), **kw).collect()
        assert_close(e1.to_numpy(), e2.to_numpy(), 1e-12)
        d1 = fe.brier_decomposition(df, truth="y", score="p", by="g", bins=4, strategy=strategy)
        d2 = fe.brier_decomposition(shuffled.lazy(), truth="y", score="p", by="g", bins=4,
                                    strategy=strategy).collect()  # fmt: skip
        assert_close(d1.to_numpy(), d2.to_numpy(), 1e-12)


def test_keys_first_and_no_by() -> None:
    df = pl.DataFrame(
        {"b": ["x", "x", "y", "y"], "a": [2, 1, 1, 1], "y": [1, 0, 1, 0], "p": [0.9, 0.1, 0.6, 0.4]}
    )
    out = fe.calibration_curve(df, truth="y", score="p", by=["b", "a"], bins=2)
    assert out.columns[:3] == ["b", "a", "bin"]
    assert out.select("b", "a").rows() == sorted(out.select("b", "a").rows())
    whole = fe.calibration_curve(df, truth="y", score="p", bins=2)
    assert whole.columns[0] == "bin" and whole["count"].sum() == 4


# ---------------------------------------------------------------------------------------------
# ECE / MCE
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=binary_frames())
def test_ece_mce_equal_hand_computation(df: pl.DataFrame, strategy: str) -> None:
    out = fe.calibration_error(df, truth="y", score="p", by="g", bins=5, strategy=strategy)
    assert out.columns == ["g", "ece", "mce"]
    for part in df.partition_by("g", maintain_order=True):
        y, p = part["y"].to_numpy().astype(float), part["p"].to_numpy()
        _, _, counts, mean, frac = _sk_bins(y, p, 5, strategy)
        gaps = np.abs(frac - mean)
        row = out.filter(pl.col("g") == part["g"][0])
        assert_close(row["ece"].item(), (counts / counts.sum() * gaps).sum(), 1e-12)
        assert_close(row["mce"].item(), gaps.max(), 1e-12)


def test_one_class_group_has_a_defined_ece() -> None:
    df = pl.DataFrame({"g": [0, 0, 1, 1], "y": [1, 1, 0, 1], "p": [0.7, 0.9, 0.2, 0.8]})
    out = fe.calibration_error(df, truth="y", score="p", by="g", bins=2)
    assert out.filter(pl.col("g") == 0)["ece"].item() == pytest.approx(0.2, abs=1e-12)


def _multiclass_oracle(part: pl.DataFrame, k: int, bins: int, strategy: str, how: str):
    proba = part.select([f"p{i}" for i in range(k)]).to_numpy()
    y = part["y"].to_numpy()
    pairs = []
    if how == "top_label":
        pairs.append(((proba.argmax(axis=1) == y).astype(float), proba.max(axis=1)))
    else:
        pairs += [((y == i).astype(float), proba[:, i]) for i in range(k)]
    eces, mces = [], []
    for outcome, conf in pairs:
        _, _, counts, mean, frac = _sk_bins(outcome, conf, bins, strategy)
        gaps = np.abs(frac - mean)
        eces.append((counts / counts.sum() * gaps).sum())
        mces.append(gaps.max())
    return np.mean(eces), np.max(mces)


@pytest.mark.parametrize("how", ["top_label", "classwise"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=multiclass_frames())
def test_multiclass_ece_equals_hand_computation(df: pl.DataFrame, how: str, strategy: str) -> None:
    out = fe.calibration_error(
        df, truth="y", score=["p0", "p1", "p2"], labels=[0, 1, 2], by="g", bins=4,
        strategy=strategy, multiclass=how,
    )  # fmt: skip
    for part in df.partition_by("g", maintain_order=True):
        ece, mce = _multiclass_oracle(part, 3, 4, strategy, how)
        row = out.filter(pl.col("g") == part["g"][0])
        assert_close(row["ece"].item(), ece, 1e-12)
        assert_close(row["mce"].item(), mce, 1e-12)


# ---------------------------------------------------------------------------------------------
# Murphy decomposition
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bins", [None, 3, 10])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=binary_frames())
def test_murphy_identity_and_terms(df: pl.DataFrame, bins, strategy: str) -> None:
    out = fe.brier_decomposition(df, truth="y", score="p", by="g", bins=bins, strategy=strategy)
    extra = ["within_bin_variance", "within_bin_covariance"] if bins else []
    assert out.columns == ["g", "brier", "reliability", "resolution", "uncertainty", *extra]
    for row, part in zip(out.iter_rows(named=True), df.partition_by("g", maintain_order=True),
                         strict=True):  # fmt: skip
        y, p = part["y"].to_numpy().astype(float), part["p"].to_numpy()
        assert_close(row["brier"], np.mean((p - y) ** 2), 1e-12)
        total = row["reliability"] - row["resolution"] + row["uncertainty"]
        if bins:
            total += row["within_bin_variance"] - row["within_bin_covariance"]
        assert abs(total - row["brier"]) <= 1e-12
        # terms by hand over the same sets
        if bins is None:
            ids = np.unique(p, return_inverse=True)[1]
        else:
            ids = np.searchsorted(_sk_edges(p, bins, strategy)[1:-1], p)
        base = y.mean()
        rel = res = 0.0
        for b in np.unique(ids):
            sel = ids == b
            rel += sel.sum() * (p[sel].mean() - y[sel].mean()) ** 2
            res += sel.sum() * (y[sel].mean() - base) ** 2
        assert_close(row["reliability"], rel / y.size, 1e-12)
        assert_close(row["resolution"], res / y.size, 1e-12)
        assert_close(row["uncertainty"], base * (1 - base), 1e-12)


def test_murphy_one_class_group() -> None:
    df = pl.DataFrame({"y": [1, 1, 1], "p": [0.2, 0.6, 0.6]})
    row = fe.brier_decomposition(df, truth="y", score="p").row(0, named=True)
    assert row["uncertainty"] == 0.0 and row["resolution"] == 0.0
    assert row["reliability"] == pytest.approx(row["brier"], abs=1e-12)


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
FUNCS = {
    "calibration_curve": fe.calibration_curve,
    "calibration_error": fe.calibration_error,
    "brier_decomposition": fe.brier_decomposition,
}


@pytest.mark.parametrize("name", list(FUNCS))
@pytest.mark.parametrize(
    ("value", "error", "text"),
    [
        (1.5, InvalidValueError, r"column 'p' \(score=\) must be a probability in \[0, 1\], got 1.5"),
        (-0.25, InvalidValueError, r"column 'p' \(score=\) must be a probability in \[0, 1\], got -0.25"),
        (float("nan"), MissingValueError, r"column 'p' \(score=\) must not contain NaN, got NaN"),
        (float("inf"), MissingValueError, r"column 'p' \(score=\) must be finite, got inf or -inf"),
        (None, MissingValueError, r"column 'p' \(score=\) must not contain nulls, got null"),
    ],
    ids=["above-1", "below-0", "nan", "inf", "null"],
)  # fmt: skip
def test_bad_scores_name_column_group_and_value(name, value, error, text) -> None:
    df = pl.DataFrame({"g": ["a", "a", "b", "b"], "y": [1, 0, 1, 0], "p": [0.5, 0.2, value, 0.1]})
    with pytest.raises(error, match=rf"^{name}\(\): {text} \(1 rows\) in group g=b\."):
        FUNCS[name](df, truth="y", score="p", by="g")
    lazy = FUNCS[name](df.lazy(), truth="y", score="p", by="g")
    with pytest.raises(error, match=rf"^{name}\(\): {text}"):
        fe.collect(lazy)


def test_schema_errors() -> None:
    df = pl.DataFrame({"y": [1, 0], "p": [0.5, 0.2], "s": ["a", "b"]})
    with pytest.raises(ColumnNotFoundError, match=r"^calibration_curve\(\): column 'q' \(score=\)"):
        fe.calibration_curve(df, truth="y", score="q")
    with pytest.raises(
        InvalidDtypeError, match=r"^calibration_curve\(\): column 's' \(score=\) must be numeric"
    ):
        fe.calibration_curve(df, truth="y", score="s")
    with pytest.raises(
        InvalidParameterError,
        match=r"^calibration_curve\(\): bins must be an integer >= 1, got 0\.",
    ):
        fe.calibration_curve(df, truth="y", score="p", bins=0)
    with pytest.raises(
        InvalidParameterError, match=r"strategy must be 'uniform' or 'quantile', got 'x'"
    ):
        fe.calibration_error(df, truth="y", score="p", strategy="x")
    with pytest.raises(
        InvalidParameterError, match=r"ci must be 'wilson', 'clopper_pearson' or None"
    ):
        fe.calibration_curve(df, truth="y", score="p", ci="exact")
    with pytest.raises(InvalidParameterError, match=r"alpha must be a number in \(0, 1\), got 1"):
        fe.calibration_curve(df, truth="y", score="p", alpha=1)
    with pytest.raises(
        InvalidParameterError, match=r"by= must not use the output column name 'bin'"
    ):
        fe.calibration_curve(df.with_columns(bin=1), truth="y", score="p", by="bin")
    with pytest.raises(UnknownLabelError, match=r"pos_label 2 must occur in column 'y'"):
        fe.calibration_curve(df, truth="y", score="p", pos_label=2)
    with pytest.raises(InvalidParameterError, match=r"bins must be None or an integer >= 1"):
        fe.brier_decomposition(df, truth="y", score="p", bins=2.5)
    with pytest.raises(
        InvalidParameterError, match=r"multiclass must be 'top_label' or 'classwise'"
    ):
        fe.calibration_error(df, truth="y", score="p", multiclass="ovr")
    with pytest.raises(InvalidParameterError, match=r"labels= is for a multiclass score"):
        fe.calibration_error(df, truth="y", score="p", labels=[0, 1])


def test_multiclass_errors() -> None:
    df = pl.DataFrame(
        {"g": [0, 0, 1], "y": [0, 1, 2], "p0": [0.5, 0.2, 0.1], "p1": [0.3, 0.7, 0.2],
         "p2": [0.2, 0.1, 0.7]}
    )  # fmt: skip
    mapping = {0: "p0", 1: "p1", 2: "p2"}
    bad_sum = df.with_columns(pl.when(pl.col("g") == 1).then(0.8).otherwise("p2").alias("p2"))
    with pytest.raises(
        InvalidValueError,
        match=r"^multiclass_log_loss\(\): probabilities in columns \['p0', 'p1', 'p2'\] \(score=\) "
        r"must sum to 1 within 1e-06 per row, got a sum of 1.1 \(1 rows\) in group g=1\.",
    ):
        fe.multiclass_log_loss(bad_sum, truth="y", score=mapping, by="g")
    loose = fe.multiclass_log_loss(bad_sum, truth="y", score=mapping, by="g", tolerance=0.2)
    assert loose.height == 2
    with pytest.raises(
        UnknownLabelError, match=r"column 'y' \(truth=\) must hold only the labels \[0, 1\], got 2"
    ):
        fe.multiclass_brier_score(df, truth="y", score=["p0", "p1"], labels=[0, 1])
    with pytest.raises(InvalidParameterError, match=r"labels= is required when score= is a list"):
        fe.multiclass_log_loss(df, truth="y", score=["p0", "p1", "p2"])
    with pytest.raises(
        InvalidParameterError, match=r"labels= must name one class per score column"
    ):
        fe.multiclass_log_loss(df, truth="y", score=["p0", "p1"], labels=[0, 1, 2])
    with pytest.raises(
        InvalidParameterError, match=r"labels= must be None when score= is a mapping"
    ):
        fe.multiclass_log_loss(df, truth="y", score=mapping, labels=[0, 1, 2])
    listed = df.select("g", "y", pl.concat_list("p0", "p1").alias("pl"))
    with pytest.raises(
        InvalidValueError,
        match=r"column 'pl' \(score=\) must hold 3 probabilities per row \(one per label\), got 2",
    ):
        fe.calibration_error(listed, truth="y", score="pl", labels=[0, 1, 2])
    with pytest.raises(
        InvalidDtypeError, match=r"column 'y' \(score=\) must be a numeric List or Array"
    ):
        fe.multiclass_log_loss(df, truth="g", score="y", labels=[0, 1])
    nan = df.with_columns(pl.concat_list("p0", "p1", "p2").alias("pl")).with_columns(
        pl.when(pl.col("g") == 1).then(pl.lit([float("nan"), 0.5, 0.5])).otherwise("pl").alias("pl")
    )
    with pytest.raises(
        MissingValueError,
        match=r"column 'pl' \(score=\) must be finite, got NaN or inf \(1 rows\) in group g=1",
    ):
        fe.multiclass_brier_score(nan, truth="y", score="pl", labels=[0, 1, 2], by="g")
    with pytest.raises(InvalidParameterError, match=r"scale_by_half must be True, False or 'auto'"):
        fe.multiclass_brier_score(df, truth="y", score=mapping, scale_by_half="yes")


def test_empty_eager_frame_is_an_error() -> None:
    df = pl.DataFrame({"y": [], "p": []}, schema={"y": pl.Int64, "p": pl.Float64})
    with pytest.raises(
        fe.exceptions.EmptyFrameError,
        match=r"^calibration_error\(\): data must have at least one row",
    ):
        fe.calibration_error(df, truth="y", score="p")


def test_docs_worked_example() -> None:
    """The numbers of docs/probabilities.md ("Worked example"), on the embedded results."""
    df = fe.datasets.example_results().filter(pl.col("dataset") == "breast_cancer")
    scores = df.group_by("learner").agg(
        fe.log_loss("truth", "score"), fe.brier_score("truth", "score")
    )
    uniform = fe.calibration_error(df, truth="truth", score="score", by="learner")
    quantile = fe.calibration_error(
        df, truth="truth", score="score", by="learner", strategy="quantile"
    ).rename({"ece": "ece_quantile", "mce": "mce_quantile"})
    murphy = fe.brier_decomposition(df, truth="truth", score="score", by="learner", bins=10)
    table = (
        scores.join(uniform, on="learner")
        .join(quantile, on="learner")
        .join(murphy, on="learner")
        .sort("learner")
        .select(
            "learner",
            "log_loss",
            "brier_score",
            "ece",
            "ece_quantile",
            "reliability",
            "resolution",
            "uncertainty",
        )
        .with_columns(pl.exclude("learner").round(4))
    )
    assert table.rows() == [
        ("decision_tree", 2.7239, 0.0756, 0.0756, 0.0756, 0.0066, 0.1648, 0.2338),
        ("knn", 0.2604, 0.0273, 0.0179, 0.0123, 0.0018, 0.2083, 0.2338),
        ("logistic_regression", 0.0714, 0.0187, 0.0132, 0.0072, 0.002, 0.2172, 0.2338),
        ("naive_bayes", 0.5973, 0.0553, 0.0555, 0.0378, 0.0052, 0.1829, 0.2338),
        ("random_forest", 0.1666, 0.0301, 0.024, 0.0273, 0.0025, 0.2058, 0.2338),
    ]
    nb = df.filter(pl.col("learner") == "naive_bayes")
    first = fe.calibration_curve(nb, truth="truth", score="score", bins=5).row(0, named=True)
    assert first["count"] == 362
    assert round(first["mean_score"], 3) == 0.001
    assert round(first["fraction_positive"], 3) == 0.058
    assert (round(first["ci_low"], 3), round(first["ci_high"], 3)) == (0.038, 0.087)
