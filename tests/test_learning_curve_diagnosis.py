"""fe.learning_curve_diagnosis: the textbook cases of notes §2.5.3 on real learning curves, the
numbers it reads against a NumPy oracle, its rules at their thresholds, and bad input."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.datasets import make_blobs, make_classification, make_moons
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidParameterError,
    MissingValueError,
    UnknownLabelError,
)
from tests.helpers.examples import budget


def _frame(x: np.ndarray, y: np.ndarray) -> pl.DataFrame:
    data = pl.DataFrame(x, schema=[f"x{i}" for i in range(x.shape[1])])
    return data.with_columns(pl.Series("y", y).cast(pl.Int64)).with_row_index("id")


def _curve(data: pl.DataFrame, estimator: object) -> pl.DataFrame:
    splits = fe.split.kfold(data, k=3, stratify="y", instance="id", seed=0)
    learner = fe.split.sklearn_learner(estimator, truth="y", score=False)
    return fe.learning_curve(
        data,
        splits,
        {"model": learner},
        truth="y",
        instance="id",
        features=[c for c in data.columns if c.startswith("x")],
        train_sizes=(0.25, 0.5, 1.0),
    )


def test_textbook_high_bias_a_straight_line_on_a_curved_boundary() -> None:
    """Notes §2.5.3, the first figure and quiz 1: a linear model on data it cannot fit — the
    training and validation errors are both high and close, and more data does not help."""
    x, y = make_moons(n_samples=300, noise=0.3, random_state=0)
    curve = _curve(_frame(x, y), LogisticRegression())
    got = fe.learning_curve_diagnosis(curve).row(0, named=True)
    assert got["diagnosis"] == "high bias", got
    assert got["validation"] > 0.15 and got["train"] > 0.15
    assert got["slope"] < 0.01
    assert abs(got["gap"]) <= 0.05
    assert "high bias" in got["explanation"] and "will not help" in got["explanation"]


def test_textbook_high_variance_a_model_that_memorises_noisy_labels() -> None:
    """Notes §2.5.3, the second figure: a very flexible model (1-nearest neighbour, the
    analogue of a high-degree polynomial with no regularisation) — training error far below
    validation error."""
    x, y = make_classification(
        n_samples=300, n_features=5, n_informative=3, flip_y=0.25, random_state=0
    )
    curve = _curve(_frame(x, y), KNeighborsClassifier(n_neighbors=1))
    got = fe.learning_curve_diagnosis(curve).row(0, named=True)
    assert got["diagnosis"] == "high variance", got
    assert got["train"] == 0.0
    assert got["gap"] > 0.15
    assert "over-fitting" in got["explanation"]


def test_a_good_fit_on_separable_classes() -> None:
    x, y = make_blobs(n_samples=300, centers=[[-3, -3], [3, 3]], cluster_std=1.0, random_state=0)
    curve = _curve(_frame(x, y), LogisticRegression())
    got = fe.learning_curve_diagnosis(curve).row(0, named=True)
    assert got["diagnosis"] == "good fit", got
    assert got["validation"] <= 0.1 and abs(got["gap"]) <= 0.05


def test_higher_is_better_is_read_from_the_registry_and_flips_the_gap() -> None:
    lc = pl.DataFrame(
        {
            "train_size": [10, 10, 20, 20],
            "role": ["train", "validation"] * 2,
            "accuracy": [1.0, 0.7, 1.0, 0.8],
        }
    )
    got = fe.learning_curve_diagnosis(lc).row(0, named=True)
    assert got["gap"] == pytest.approx(0.2)
    assert got["slope"] == pytest.approx(0.1)
    assert got["diagnosis"] == "high variance"
    assert "still improves by 0.1 per doubling" in got["explanation"]


@pytest.mark.parametrize(
    ("validation", "expected"),
    [
        ([0.30, 0.25], "more data would help"),  # slope 0.05 per doubling
        ([0.30, 0.295], "high bias"),  # flat and high
        ([0.06, 0.055], "good fit"),  # flat and low
    ],
)
def test_the_rules_in_order(validation: list[float], expected: str) -> None:
    lc = pl.DataFrame(
        {
            "train_size": [50, 50, 100, 100],
            "role": ["train", "validation"] * 2,
            "error_rate": [
                validation[0] - 0.02,
                validation[0],
                validation[1] - 0.02,
                validation[1],
            ],
        }
    )
    assert fe.learning_curve_diagnosis(lc)["diagnosis"].to_list() == [expected]


def test_thresholds_are_overridable() -> None:
    lc = pl.DataFrame(
        {
            "train_size": [50, 50, 100, 100],
            "role": ["train", "validation"] * 2,
            "error_rate": [0.28, 0.305, 0.29, 0.30],
        }
    )
    assert fe.learning_curve_diagnosis(lc)["diagnosis"].item() == "high bias"
    assert fe.learning_curve_diagnosis(lc, acceptable=0.35)["diagnosis"].item() == "good fit"
    assert fe.learning_curve_diagnosis(lc, max_gap=0.001)["diagnosis"].item() == "high variance"
    got = fe.learning_curve_diagnosis(lc, min_slope=0.001, acceptable=0.35)
    assert got["diagnosis"].item() == "more data would help"


def test_a_validation_curve_is_read_per_parameter_value_without_a_slope() -> None:
    vc = pl.DataFrame(
        {
            "max_depth": [1, 1, 8, 8, 3, 3],
            "repeat": [0] * 6,
            "fold": [0] * 6,
            "role": ["train", "validation"] * 3,
            "error_rate": [0.4, 0.42, 0.0, 0.2, 0.05, 0.07],
        }
    )
    got = fe.learning_curve_diagnosis(vc)
    assert got["max_depth"].to_list() == [1, 3, 8]
    assert got["diagnosis"].to_list() == ["high bias", "good fit", "high variance"]
    assert got["slope"].null_count() == 3
    assert "train_size" not in got.columns


def test_test_role_is_read_as_validation() -> None:
    lc = pl.DataFrame({"train_size": [5, 5], "role": ["train", "test"], "error_rate": [0.0, 0.3]})
    got = fe.learning_curve_diagnosis(lc).row(0, named=True)
    assert got["validation"] == 0.3 and got["slope"] is None


def _oracle(curve: pl.DataFrame, higher: bool) -> dict[str, dict[str, float | None]]:
    """Per learner, with NumPy: means per (size, role), then gap and slope at the two largest."""
    out: dict[str, dict[str, float | None]] = {}
    sign = 1.0 if higher else -1.0
    for (learner,), part in curve.partition_by("learner", as_dict=True).items():
        sizes = np.unique(part["train_size"].to_numpy())
        mean: dict[tuple[int, str], float] = {}
        for n in sizes:
            for role in ("train", "validation"):
                values = part.filter((pl.col("train_size") == n) & (pl.col("role") == role))
                mean[(int(n), role)] = float(np.mean(values["m"].to_numpy()))
        last = int(sizes[-1])
        slope = None
        if len(sizes) > 1:
            prev = int(sizes[-2])
            change = mean[(last, "validation")] - mean[(prev, "validation")]
            slope = sign * change / math.log2(last / prev)
        out[str(learner)] = {
            "train": mean[(last, "train")],
            "validation": mean[(last, "validation")],
            "gap": sign * (mean[(last, "train")] - mean[(last, "validation")]),
            "slope": slope,
        }
    return out


@settings(max_examples=budget(25))
@given(
    seed=st.integers(0, 2**32 - 1),
    n_learners=st.integers(1, 3),
    n_sizes=st.integers(1, 4),
    higher=st.booleans(),
)
def test_numbers_equal_a_numpy_oracle_grouped_lazy_and_shuffled(
    seed: int, n_learners: int, n_sizes: int, higher: bool
) -> None:
    rng = np.random.default_rng(seed)
    rows = [
        (f"l{i}", int(n), fold, role)
        for i in range(n_learners)
        for n in sorted(rng.choice(np.arange(5, 200), n_sizes, replace=False))
        for fold in range(3)
        for role in ("train", "validation")
    ]
    curve = pl.DataFrame(
        rows, schema=["learner", "train_size", "fold", "role"], orient="row"
    ).with_columns(pl.Series("m", rng.random(len(rows))))
    expected = _oracle(curve, higher)
    got = fe.learning_curve_diagnosis(curve, metric="m", higher_is_better=higher)
    assert got["learner"].to_list() == sorted(expected)
    for row in got.iter_rows(named=True):
        want = expected[row["learner"]]
        for name in ("train", "validation", "gap"):
            assert row[name] == pytest.approx(want[name], abs=1e-12)
        if want["slope"] is None:
            assert row["slope"] is None
        else:
            assert row["slope"] == pytest.approx(want["slope"], abs=1e-12)
    shuffled = curve.sample(fraction=1.0, shuffle=True, seed=seed % 1000).lazy()
    lazy = fe.learning_curve_diagnosis(shuffled, metric="m", higher_is_better=higher)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), got, abs_tol=1e-12)  # sums in another order


def test_bad_input_is_a_typed_error() -> None:
    lc = pl.DataFrame({"train_size": [5, 5], "role": ["train", "validation"], "m": [0.1, 0.2]})
    with pytest.raises(InvalidParameterError, match=r"learning_curve_diagnosis\(\): higher_is"):
        fe.learning_curve_diagnosis(lc)
    with pytest.raises(ColumnNotFoundError, match=r"column 'nope' \(metric=\) not found"):
        fe.learning_curve_diagnosis(lc, metric="nope", higher_is_better=False)
    with pytest.raises(ColumnNotFoundError, match=r"\(role=\) not found"):
        fe.learning_curve_diagnosis(lc.drop("role"), metric="m", higher_is_better=False)
    with pytest.raises(InvalidParameterError, match=r"max_gap must be a non-negative"):
        fe.learning_curve_diagnosis(lc, metric="m", higher_is_better=False, max_gap=-1)
    with pytest.raises(InvalidParameterError, match=r"min_slope must be a positive"):
        fe.learning_curve_diagnosis(lc, metric="m", higher_is_better=False, min_slope=0)
    with pytest.raises(InvalidParameterError, match=r"higher_is_better must be True or False"):
        fe.learning_curve_diagnosis(lc, metric="m", higher_is_better="yes")  # type: ignore[arg-type]


def test_a_group_without_validation_rows_has_a_null_diagnosis() -> None:
    lc = pl.DataFrame(
        {
            "learner": ["a", "a", "b"],
            "train_size": [5, 5, 5],
            "role": ["train", "validation", "train"],
            "error_rate": [0.1, 0.2, 0.1],
        }
    )
    got = fe.learning_curve_diagnosis(lc)
    assert got["diagnosis"].to_list() == ["high variance", None]
    assert got["explanation"][1].startswith("no training or no validation rows")


def test_the_chart_writes_the_diagnosis_under_the_curve() -> None:
    lc = pl.DataFrame(
        {
            "learner": ["a"] * 4,
            "train_size": [10, 10, 20, 20],
            "fold": [0] * 4,
            "role": ["train", "validation"] * 2,
            "error_rate": [0.1, 0.3, 0.12, 0.2],
        }
    )
    spec = fe.charts.learning_curve(lc, diagnosis=True).to_dict()
    assert len(spec["vconcat"]) == 2
    text = spec["vconcat"][1]
    assert text["mark"]["type"] == "text"
    lines = spec["datasets"][text["data"]["name"]][0]["__fe_text"]
    assert " ".join(lines).startswith("a: high variance — training error_rate 0.12")
    own = fe.learning_curve_diagnosis(lc, max_gap=0.5)
    spec = fe.charts.learning_curve(lc, diagnosis=own).to_dict()
    lines = spec["datasets"][spec["vconcat"][1]["data"]["name"]][0]["__fe_text"]
    assert "good fit" in " ".join(lines) or "more data" in " ".join(lines)
    assert "vconcat" not in fe.charts.learning_curve(lc).to_dict()


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("lazy", [False, True])
def test_a_nan_or_infinite_error_value_is_a_typed_error(bad: float, lazy: bool) -> None:
    """A NaN or ±inf metric value would make a confident diagnosis out of nothing."""
    lc = pl.DataFrame(
        {
            "learner": ["line"] * 4,
            "train_size": [50, 50, 100, 100],
            "role": ["train", "validation"] * 2,
            "error_rate": [0.28, 0.315, bad, 0.31],
        }
    )
    data = lc.lazy() if lazy else lc
    with pytest.raises(MissingValueError, match=r"column 'error_rate' \(metric=\) must be finite"):
        out = fe.learning_curve_diagnosis(data)
        if isinstance(out, pl.LazyFrame):
            out.collect()


@pytest.mark.parametrize("lazy", [False, True])
def test_a_role_holding_neither_train_nor_validation_is_a_typed_error(lazy: bool) -> None:
    """Before: 0 rows, silently."""
    lc = pl.DataFrame(
        {
            "train_size": [50, 50, 100, 100],
            "role": ["training", "valid"] * 2,
            "error_rate": [0.28, 0.315, 0.30, 0.31],
        }
    )
    data = lc.lazy() if lazy else lc
    with pytest.raises(
        UnknownLabelError, match=r"column 'role' \(role=\) must hold only the labels"
    ):
        out = fe.learning_curve_diagnosis(data)
        if isinstance(out, pl.LazyFrame):
            out.collect()
