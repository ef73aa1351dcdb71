"""Tests of frameeval.decompose: bias_variance (eqs 2.37–2.42, Domingos 2000) and
bootstrap_predictions.

Oracles: direct numpy formulas on the prediction matrix (training sets × instances), and
mlxtend's ``bias_variance_decomp`` run on the same prediction matrix through a stub estimator.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mlxtend.evaluate import bias_variance_decomp

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    InsufficientDataError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
)
from tests.helpers.oracle import assert_close

SQUARED = ["error", "bias_squared", "variance"]
ZERO_ONE = ["error", "bias", "variance", "unbiased_variance", "biased_variance", "net_variance"]


# ---------------------------------------------------------------------------------------------
# building tables and the numpy oracle
# ---------------------------------------------------------------------------------------------
def long_table(
    preds: np.ndarray, truth: np.ndarray, labels: np.ndarray | None = None, **keys: object
) -> pl.DataFrame:
    """(training sets × instances) matrices → the long prediction table."""
    n_sets, n_inst = preds.shape
    cols = {
        "repeat": np.repeat(np.arange(n_sets), n_inst),
        "x": np.tile(np.arange(n_inst), n_sets),
        "y": np.tile(truth, n_sets),
        "f": preds.ravel(),
    }
    if labels is not None:
        cols["yd"] = labels.ravel()
    df = pl.DataFrame(cols)
    return df.with_columns(pl.lit(v).alias(k) for k, v in keys.items())


def main_prediction(preds: np.ndarray) -> np.ndarray:
    """Mode per column; ties to the smallest label (np.unique sorts, argmax takes the first)."""
    out = []
    for column in preds.T:
        values, counts = np.unique(column, return_counts=True)
        out.append(values[np.argmax(counts)])
    return np.array(out)


def oracle_squared(preds, truth, labels=None) -> dict[str, np.ndarray]:
    yd = np.broadcast_to(truth, preds.shape) if labels is None else labels
    fbar = preds.mean(axis=0)
    out = {
        "main_prediction": fbar,
        "error": ((preds - yd) ** 2).mean(axis=0),
        "bias_squared": (fbar - truth) ** 2,
        "variance": ((preds - fbar) ** 2).mean(axis=0),
    }
    if labels is not None:
        out["noise"] = ((labels - truth) ** 2).mean(axis=0)
        out["remainder"] = out["error"] - out["bias_squared"] - out["variance"] - out["noise"]
    return out


def oracle_zero_one(preds, truth, labels=None) -> dict[str, np.ndarray]:
    yd = np.broadcast_to(truth, preds.shape) if labels is None else labels
    main = main_prediction(preds)
    bias = (main != truth).astype(float)
    var = (preds != main).mean(axis=0)
    out = {
        "main_prediction": main,
        "error": (preds != yd).mean(axis=0),
        "bias": bias,
        "variance": var,
        "unbiased_variance": np.where(bias == 0, var, 0.0),
        "biased_variance": np.where(bias == 1, var, 0.0),
    }
    out["net_variance"] = out["unbiased_variance"] - out["biased_variance"]
    explained = out["bias"] + out["net_variance"]
    if labels is not None:
        out["noise"] = (labels != truth).mean(axis=0)
        explained = explained + out["noise"]
    out["remainder"] = out["error"] - explained
    return out


def compare(result: pl.DataFrame, expected: dict[str, np.ndarray], columns, tol=1e-12) -> None:
    for column in columns:
        assert_close(result[column].to_numpy(), expected[column], tol)


class StubEstimator:
    """Returns the rows of a fixed prediction matrix, one per fit, to drive mlxtend."""

    def __init__(self, preds: np.ndarray) -> None:
        self.preds, self.calls = preds, 0

    def fit(self, X, y):
        self.calls += 1
        return self

    def predict(self, X):
        return self.preds[self.calls - 1]


@st.composite
def matrices(draw, classes: int | None = None, noisy: bool = False):
    n_sets = draw(st.integers(1, 6))
    n_inst = draw(st.integers(1, 6))
    size = n_sets * n_inst
    if classes is None:
        value = st.floats(-5, 5, allow_nan=False, width=32)
        preds = np.array(draw(st.lists(value, min_size=size, max_size=size)), dtype=float)
        truth = np.array(draw(st.lists(value, min_size=n_inst, max_size=n_inst)), dtype=float)
        labels = (
            np.array(draw(st.lists(value, min_size=size, max_size=size))).reshape(n_sets, n_inst)
            if noisy
            else None
        )
    else:
        value = st.integers(0, classes - 1)
        preds = np.array(draw(st.lists(value, min_size=size, max_size=size)), dtype=np.int64)
        truth = np.array(draw(st.lists(value, min_size=n_inst, max_size=n_inst)), dtype=np.int64)
        labels = (
            np.array(draw(st.lists(value, min_size=size, max_size=size))).reshape(n_sets, n_inst)
            if noisy
            else None
        )
    return preds.reshape(n_sets, n_inst), truth, labels


# ---------------------------------------------------------------------------------------------
# squared loss
# ---------------------------------------------------------------------------------------------
def test_known_bias_variance_and_noise_exactly():
    """Constructed data with known components (eqs 2.37–2.42).

    f(x; D_i) = y + b + s·z_i and y_D_i = y + σ·w_i with z = (1, −1, 1, −1), w = (1, 1, −1, −1):
    z and w have mean 0, mean square 1 and are orthogonal, so f̄ = y + b, var = s², bias² = b²,
    ε² = σ², and both cross terms of eq 2.41 are exactly 0 on the sample: E = b² + s² + σ².
    """
    b, s, sigma = 0.75, 0.5, 0.25
    z = np.array([1.0, -1.0, 1.0, -1.0])[:, None]
    w = np.array([1.0, 1.0, -1.0, -1.0])[:, None]
    truth = np.array([0.0, 1.0, 4.0, 9.0, -2.0])
    preds = truth + b + s * z
    labels = truth + sigma * w
    out = fe.bias_variance(
        long_table(preds, truth, labels), truth="y", pred="f", instance="x", label="yd"
    )
    row = out.row(0, named=True)
    assert row["n_instances"] == 5 and row["n_repeats"] == 4
    assert_close(row["bias_squared"], b**2, 1e-12)
    assert_close(row["variance"], s**2, 1e-12)
    assert_close(row["noise"], sigma**2, 1e-12)
    assert_close(row["remainder"], 0.0, 1e-12)
    assert_close(row["error"], b**2 + s**2 + sigma**2, 1e-12)


def test_noise_correlated_with_prediction_leaves_a_remainder():
    """With w = z the noise moves with f (the independence of eq 2.41's 4th step fails): the
    cross term 2·mean[(f − f̄)(y − y_D)] = 2·mean[s·z·(−σ·z)] = −2sσ is reported, not hidden."""
    b, s, sigma = 0.5, 1.0, 0.5
    z = np.array([1.0, -1.0, 1.0, -1.0])[:, None]
    truth = np.array([1.0, 2.0, 3.0])
    out = fe.bias_variance(
        long_table(truth + b + s * z, truth, truth + sigma * z),
        truth="y",
        pred="f",
        instance="x",
        label="yd",
    )
    row = out.row(0, named=True)
    assert_close(row["remainder"], -2 * s * sigma, 1e-12)
    assert_close(row["error"], b**2 + s**2 + sigma**2 - 2 * s * sigma, 1e-12)


def test_generated_data_recovers_the_true_components():
    """Many training sets of a model with bias b and prediction spread s, labels with noise σ:
    the sample components approach b², s², σ² (standard errors ≈ 1e-3 here)."""
    rng = np.random.default_rng(7)
    b, s, sigma = 0.4, 0.3, 0.2
    truth = rng.uniform(-1, 1, size=50)
    preds = truth + b + s * rng.standard_normal((2000, 50))
    labels = truth + sigma * rng.standard_normal((2000, 50))
    row = fe.bias_variance(
        long_table(preds, truth, labels), truth="y", pred="f", instance="x", label="yd"
    ).row(0, named=True)
    assert abs(row["bias_squared"] - b**2) < 0.01
    assert abs(row["variance"] - s**2) < 0.01
    assert abs(row["noise"] - sigma**2) < 0.01
    assert abs(row["remainder"]) < 0.01


@given(matrices(), st.booleans())
def test_squared_per_instance_matches_numpy(data, noisy):
    preds, truth, _ = data
    labels = preds[::-1] * 0.5 + truth if noisy else None
    kw = {"label": "yd"} if noisy else {}
    got = fe.bias_variance(
        long_table(preds, truth, labels), truth="y", pred="f", instance="x", per_instance=True, **kw
    )
    expected = oracle_squared(preds, truth, labels)
    assert got["x"].to_list() == list(range(len(truth)))
    assert got["n_repeats"].to_list() == [preds.shape[0]] * len(truth)
    columns = ["main_prediction", *SQUARED] + (["noise", "remainder"] if noisy else [])
    compare(got, expected, columns, tol=1e-9)
    assert_close(got["actual"].to_numpy(), truth, 0)


@given(matrices())
def test_squared_identity_without_label(data):
    """Without label: error = bias² + variance on the sample (eq 2.42 with ε² = 0)."""
    preds, truth, _ = data
    for per_instance in (True, False):
        got = fe.bias_variance(
            long_table(preds, truth), truth="y", pred="f", instance="x", per_instance=per_instance
        )
        assert "noise" not in got.columns and "remainder" not in got.columns
        assert_close(
            got["error"].to_numpy(), (got["bias_squared"] + got["variance"]).to_numpy(), 1e-9
        )


@given(matrices(noisy=True))
def test_squared_identity_with_label(data):
    """With label: error = bias² + variance + noise + remainder on the sample."""
    preds, truth, labels = data
    got = fe.bias_variance(
        long_table(preds, truth, labels),
        truth="y",
        pred="f",
        instance="x",
        label="yd",
        per_instance=True,
    )
    total = got["bias_squared"] + got["variance"] + got["noise"] + got["remainder"]
    assert_close(got["error"].to_numpy(), total.to_numpy(), 1e-9)


@given(matrices())
def test_squared_matches_mlxtend(data):
    """mlxtend's 'mse' decomposition of the same prediction matrix: (loss, bias², variance)."""
    preds, truth, _ = data
    n_sets, n_inst = preds.shape
    loss, bias, var = bias_variance_decomp(
        StubEstimator(preds),
        np.zeros((3, 1)),
        np.zeros(3),
        np.zeros((n_inst, 1)),
        truth,
        loss="mse",
        num_rounds=n_sets,
        random_seed=0,
    )
    row = fe.bias_variance(long_table(preds, truth), truth="y", pred="f", instance="x").row(
        0, named=True
    )
    assert_close([row["error"], row["bias_squared"], row["variance"]], [loss, bias, var], 1e-9)


# ---------------------------------------------------------------------------------------------
# 0-1 loss
# ---------------------------------------------------------------------------------------------
@given(matrices(classes=3))
def test_zero_one_matches_mlxtend(data):
    """mlxtend's '0-1_loss' decomposition of the same prediction matrix: expected loss, bias
    (share of instances whose main prediction is wrong) and variance."""
    preds, truth, _ = data
    n_sets, n_inst = preds.shape
    loss, bias, var = bias_variance_decomp(
        StubEstimator(preds),
        np.zeros((3, 1)),
        np.zeros(3, dtype=int),
        np.zeros((n_inst, 1)),
        truth,
        loss="0-1_loss",
        num_rounds=n_sets,
        random_seed=0,
    )
    row = fe.bias_variance(
        long_table(preds, truth), truth="y", pred="f", instance="x", loss="0-1"
    ).row(0, named=True)
    assert_close([row["error"], row["bias"], row["variance"]], [loss, bias, var], 1e-9)


@given(matrices(classes=4), st.booleans())
def test_zero_one_per_instance_matches_numpy(data, noisy):
    preds, truth, _ = data
    labels = (preds[::-1] + 1) % 4 if noisy else None
    kw = {"label": "yd"} if noisy else {}
    got = fe.bias_variance(
        long_table(preds, truth, labels),
        truth="y",
        pred="f",
        instance="x",
        loss="0-1",
        per_instance=True,
        **kw,
    )
    expected = oracle_zero_one(preds, truth, labels)
    assert got["main_prediction"].to_list() == expected["main_prediction"].tolist()
    compare(got, expected, [*ZERO_ONE, "remainder", *(["noise"] if noisy else [])], tol=1e-12)
    means = fe.bias_variance(
        long_table(preds, truth, labels), truth="y", pred="f", instance="x", loss="0-1", **kw
    ).row(0, named=True)
    for column in [*ZERO_ONE, "remainder"]:
        assert_close(means[column], expected[column].mean(), 1e-12)


@given(matrices(classes=2))
def test_zero_one_binary_identity(data):
    """Two classes, no noise (Domingos 2000, Theorem 2): L = B + (1 − 2B)·V exactly, so
    error = bias + net_variance and the remainder is 0."""
    preds, truth, _ = data
    got = fe.bias_variance(
        long_table(preds, truth), truth="y", pred="f", instance="x", loss="0-1", per_instance=True
    )
    assert_close(got["remainder"].to_numpy(), np.zeros(len(truth)), 1e-12)
    assert_close(got["error"].to_numpy(), (got["bias"] + got["net_variance"]).to_numpy(), 1e-12)


@given(matrices(classes=4))
def test_zero_one_multiclass_remainder_is_non_negative(data):
    """More classes: on a biased instance a wrong prediction can differ from the main
    prediction and still be wrong, so error ≥ bias + net_variance (Domingos' c₂ ≥ −1)."""
    preds, truth, _ = data
    got = fe.bias_variance(
        long_table(preds, truth), truth="y", pred="f", instance="x", loss="0-1", per_instance=True
    )
    assert (got["remainder"].to_numpy() >= -1e-12).all()


def test_zero_one_ties_go_to_the_smallest_label():
    """Main prediction of a tie: the smallest label, for strings, integers and booleans."""
    df = pl.DataFrame(
        {
            "repeat": [1, 2, 1, 2, 1, 2, 3, 4],
            "x": [1, 1, 2, 2, 3, 3, 3, 3],
            "y": ["a", "a", "b", "b", "c", "c", "c", "c"],
            "f": ["b", "a", "c", "b", "c", "b", "b", "c"],
        }
    )
    df = df.filter(pl.col("x") != 3).with_columns(pl.col("repeat").cast(pl.Int64))
    got = fe.bias_variance(df, truth="y", pred="f", instance="x", loss="0-1", per_instance=True)
    assert got["main_prediction"].to_list() == ["a", "b"]
    ints = df.with_columns(pl.col("y", "f").replace_strict({"a": 2, "b": 1, "c": 0}))
    got = fe.bias_variance(ints, truth="y", pred="f", instance="x", loss="0-1", per_instance=True)
    assert got["main_prediction"].to_list() == [1, 0]
    bools = pl.DataFrame({"repeat": [1, 2], "x": [1, 1], "y": [True, True], "f": [True, False]})
    got = fe.bias_variance(bools, truth="y", pred="f", instance="x", loss="0-1", per_instance=True)
    assert got["main_prediction"].to_list() == [False]
    assert got["bias"].to_list() == [1.0]


# ---------------------------------------------------------------------------------------------
# properties: grouped = per group, row order, lazy = eager
# ---------------------------------------------------------------------------------------------
@st.composite
def grouped_tables(draw, classes: int | None):
    parts = []
    for g in range(draw(st.integers(1, 3))):
        preds, truth, labels = draw(matrices(classes=classes, noisy=True))
        parts.append(long_table(preds, truth, labels, model=f"m{g}"))
    return pl.concat(parts)


@pytest.mark.parametrize("loss", ["squared", "0-1"])
@given(data=st.data())
def test_grouped_equals_each_group_alone(loss, data):
    df = data.draw(grouped_tables(None if loss == "squared" else 3))
    seed = data.draw(st.integers(0, 2**16))
    kw = dict(truth="y", pred="f", instance="x", label="yd", loss=loss)
    for per_instance in (False, True):
        grouped = fe.bias_variance(df, by="model", per_instance=per_instance, **kw)
        alone = pl.concat(
            fe.bias_variance(part, per_instance=per_instance, **kw).select(
                pl.lit(part["model"][0]).alias("model"), pl.all()
            )
            for part in df.partition_by("model", maintain_order=True)
        ).sort("model", *(["x"] if per_instance else []))
        assert grouped.columns == alone.columns
        for column in grouped.columns:
            if grouped[column].dtype == pl.Float64:
                assert_close(grouped[column].to_numpy(), alone[column].to_numpy(), 1e-12)
            else:
                assert grouped[column].to_list() == alone[column].to_list()
        shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
        again = fe.bias_variance(shuffled, by="model", per_instance=per_instance, **kw)
        assert again.columns == grouped.columns
        for column in grouped.columns:
            if grouped[column].dtype == pl.Float64:
                assert_close(again[column].to_numpy(), grouped[column].to_numpy(), 1e-12)
            else:
                assert again[column].to_list() == grouped[column].to_list()


def test_lazy_in_lazy_out_and_pandas_in():
    preds = np.array([[1.0, 2.0], [2.0, 4.0]])
    df = long_table(preds, np.array([1.0, 3.0]), model="a")
    eager = fe.bias_variance(df, truth="y", pred="f", instance="x", by="model")
    lazy = fe.bias_variance(df.lazy(), truth="y", pred="f", instance="x", by="model")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    assert fe.bias_variance(df.to_pandas(), truth="y", pred="f", instance="x", by="model").equals(
        eager
    )


def test_null_keys_form_their_own_group():
    preds = np.array([[1.0, 2.0], [2.0, 4.0]])
    df = pl.concat(
        [
            long_table(preds, np.array([1.0, 3.0]), model="a"),
            long_table(preds * 2, np.array([1.0, 3.0])).with_columns(
                model=pl.lit(None, dtype=pl.String)
            ),
        ]
    )
    got = fe.bias_variance(df, truth="y", pred="f", instance="x", by="model")
    assert got["model"].to_list() == ["a", None]


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def table() -> pl.DataFrame:
    return long_table(
        np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]]), np.array([1.0, 2.0, 3.0]), model="a"
    )


def test_errors_on_the_schema(table):
    kw = dict(truth="y", pred="f", instance="x")
    with pytest.raises(ColumnNotFoundError, match=r"column 'rep' \(repeat=\) not found"):
        fe.bias_variance(table, repeat="rep", **kw)
    with pytest.raises(ColumnNotFoundError, match=r"column 'noisy' \(label=\) not found"):
        fe.bias_variance(table, label="noisy", **kw)
    with pytest.raises(InvalidParameterError, match=r"loss must be one of \['squared', '0-1'\]"):
        fe.bias_variance(table, loss="hinge", **kw)
    with pytest.raises(InvalidParameterError, match="by= must not contain the instance="):
        fe.bias_variance(table, by=["model", "x"], **kw)
    with pytest.raises(InvalidParameterError, match=r"must not use output column names, got"):
        fe.bias_variance(table.rename({"model": "error"}), by="error", **kw)
    with pytest.raises(InvalidDtypeError, match=r"column 'f' \(pred=\) must be numeric"):
        fe.bias_variance(table.with_columns(pl.col("f").cast(pl.String)), **kw)
    with pytest.raises(InvalidDtypeError, match="label columns must share one dtype family"):
        fe.bias_variance(table.with_columns(pl.col("f").cast(pl.String)), loss="0-1", **kw)


def test_errors_on_the_data(table):
    kw = dict(truth="y", pred="f", instance="x", by="model")
    with pytest.raises(MissingValueError, match=r"column 'f' \(pred=\) must not contain NaN"):
        fe.bias_variance(table.with_columns(pl.col("f").replace(3.0, float("nan"))), **kw)
    with pytest.raises(
        MissingValueError, match=r"column 'repeat' \(repeat=\) must not contain nulls.*model=a"
    ):
        fe.bias_variance(table.with_columns(pl.col("repeat").replace(1, None)), **kw)
    with pytest.raises(MissingValueError, match=r"column 'x' \(instance=\) must not contain"):
        fe.bias_variance(table.with_columns(pl.col("x").replace(2, None)), **kw)
    duplicated = pl.concat([table, table.head(1)])
    with pytest.raises(
        DuplicateKeyError,
        match=r"bias_variance\(\): rows must be unique per \('repeat', 'x'\) .*got 3 rows from "
        r"2 training sets for x=0 in group model=a\.",
    ):
        fe.bias_variance(duplicated, **kw)
    with pytest.raises(
        InsufficientDataError,
        match=r"bias_variance\(\): every instance must be predicted by every training set \(2 "
        r"values of 'repeat'\), got x=2 in group model=a predicted by only 1\.",
    ):
        fe.bias_variance(table.filter((pl.col("x") != 2) | (pl.col("repeat") == 0)), **kw)
    with pytest.raises(
        InvalidValueError,
        match=r"column 'y' \(truth=\) must be the same in every row of an instance",
    ):
        fe.bias_variance(table.with_columns(pl.col("y") + pl.col("repeat")), **kw)
    with pytest.raises(InvalidValueError, match="must have at least one row"):
        fe.bias_variance(table.clear(), **kw)


def test_an_instance_set_split_between_training_sets_is_caught():
    """Each instance seen by 2 training sets, but the group has 4: the per-instance counts agree
    with each other, so only the group's number of training sets reveals it."""
    df = pl.DataFrame(
        {"repeat": [1, 2, 3, 4], "x": [1, 1, 2, 2], "y": [0.0] * 4, "f": [1.0, 2.0, 3.0, 4.0]}
    )
    with pytest.raises(InsufficientDataError, match=r"\(4 values of 'repeat'\), got x=\d"):
        fe.bias_variance(df, truth="y", pred="f", instance="x")


def test_lazy_errors_surface_on_collect(table):
    lazy = fe.bias_variance(
        pl.concat([table, table.head(1)]).lazy(), truth="y", pred="f", instance="x"
    )
    with pytest.raises(DuplicateKeyError):
        fe.collect(lazy)


# ---------------------------------------------------------------------------------------------
# bootstrap_predictions
# ---------------------------------------------------------------------------------------------
def fit_polynomial(degree: int):
    def fit_predict(train: pl.DataFrame, test: pl.DataFrame) -> np.ndarray:
        coef = np.polyfit(train["x"].to_numpy(), train["y"].to_numpy(), degree)
        return np.polyval(coef, test["x"].to_numpy())

    return fit_predict


def test_bootstrap_predictions_draws_seeded_paired_training_sets():
    pool = pl.DataFrame({"id": np.arange(8), "x": np.linspace(0, 1, 8), "y": np.arange(8.0)})
    test = pl.DataFrame({"x": [0.25, 0.5, 0.75], "y": [1.0, 2.0, 3.0], "yd": [1.1, 2.0, 2.9]})
    seen: dict[str, list[list[int]]] = {"a": [], "b": []}

    def recorder(key):
        def fit_predict(train, cases):
            seen[key].append(train["id"].to_list())
            return np.full(cases.height, train["y"].mean())

        return fit_predict

    out = fe.bootstrap_predictions(
        pool,
        test,
        {"a": recorder("a"), "b": recorder("b")},
        truth="y",
        label="yd",
        repeats=4,
        seed=11,
    )
    draws = np.random.default_rng(11).integers(0, 8, size=(4, 8))
    assert seen["a"] == seen["b"] == draws.tolist()
    assert out.columns == ["learner", "repeat", "instance", "y", "yd", "pred"]
    assert out.height == 2 * 4 * 3
    assert out["learner"].to_list() == ["a"] * 12 + ["b"] * 12
    assert out["repeat"].to_list() == [r for r in range(1, 5) for _ in range(3)] * 2
    assert out["instance"].to_list() == [0, 1, 2] * 8
    means = pool["y"].to_numpy()[draws].mean(axis=1)
    assert_close(out["pred"].to_numpy()[:12], np.repeat(means, 3), 1e-12)
    again = fe.bootstrap_predictions(
        pool,
        test,
        {"a": recorder("a"), "b": recorder("b")},
        truth="y",
        label="yd",
        repeats=4,
        seed=11,
    )
    assert again.equals(out)
    assert isinstance(
        fe.bootstrap_predictions(pool.lazy(), test, {"a": recorder("a")}, truth="y", repeats=1),
        pl.LazyFrame,
    )


def test_bootstrap_predictions_errors():
    pool = pl.DataFrame({"x": [0.0, 1.0, 2.0], "y": [0.0, 1.0, 2.0]})
    test = pl.DataFrame({"x": [0.5, 1.5], "y": [0.5, 1.5], "id": [1, 1]})
    ok = {"m": fit_polynomial(0)}
    with pytest.raises(InvalidParameterError, match="repeats must be an integer >= 1, got 0"):
        fe.bootstrap_predictions(pool, test, ok, truth="y", repeats=0)
    with pytest.raises(InvalidParameterError, match="learners must be a non-empty mapping"):
        fe.bootstrap_predictions(pool, test, {}, truth="y")
    with pytest.raises(InvalidValueError, match=r"column 'id' \(instance=\) must be unique"):
        fe.bootstrap_predictions(pool, test, ok, truth="y", instance="id")
    with pytest.raises(
        InvalidValueError,
        match=r"learner 'short' must return one prediction per test row \(2\), "
        r"got 1 on repeat 1",
    ):
        fe.bootstrap_predictions(pool, test, {"short": lambda tr, te: [0.0]}, truth="y")

    def broken(train, cases):
        raise RuntimeError("singular matrix")

    with pytest.raises(RuntimeError, match="singular matrix") as info:
        fe.bootstrap_predictions(pool, test, {"bad": broken}, truth="y")
    assert "learner 'bad' failed on repeat 1" in "\n".join(info.value.__notes__)


def test_complexity_grid_to_bias_variance_curve():
    """Figure 2.9 end to end: polynomial degrees on bootstrap samples of a noisy sine.

    A constant cannot follow the sine (bias dominates), a degree-9 polynomial on 30 points
    follows the noise of each training set (variance dominates), and the generalisation error is
    lowest in between (the bias–variance dilemma of §2.5)."""
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, 30)
    pool = pl.DataFrame({"x": x, "y": np.sin(2 * np.pi * x) + rng.normal(0, 0.3, 30)})
    grid = np.linspace(0.05, 0.95, 15)
    test = pl.DataFrame({"x": grid, "y": np.sin(2 * np.pi * grid)})
    learners = {degree: fit_polynomial(degree) for degree in (0, 3, 9)}
    preds = fe.bootstrap_predictions(pool, test, learners, truth="y", repeats=30, seed=0)
    curve = fe.bias_variance(preds, truth="y", pred="pred", instance="instance", by="learner")
    assert curve["learner"].dtype == pl.Int64
    assert curve["learner"].to_list() == [0, 3, 9]
    assert curve["n_repeats"].to_list() == [30, 30, 30]
    bias, var = curve["bias_squared"].to_numpy(), curve["variance"].to_numpy()
    error = curve["error"].to_numpy()
    assert bias[0] > var[0] and var[2] > bias[2]
    assert bias[0] > bias[1] and var[1] < var[2]
    assert error[1] < error[0] and error[1] < error[2]
