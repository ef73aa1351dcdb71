"""Regression measures against scikit-learn (scipy / the definition where it has none), grouped.

Oracles (``tests/helpers/regression.py``): scikit-learn's ``mean_squared_error``,
``r2_score``, ``explained_variance_score``, ``mean_absolute_percentage_error``,
``mean_squared_log_error``, ``median_absolute_error``, ``max_error``, ``mean_pinball_loss``,
``mean_tweedie_deviance`` / ``mean_poisson_deviance`` / ``mean_gamma_deviance`` (with
``sample_weight``); ``scipy.special.huber``; ``scipy.stats.pearsonr`` and ``numpy.cov(aweights=)``;
the definitions of sMAPE, Lin's CCC (Lin 1989, eq 2) and the mean error. Each is run on each
``partition_by`` part and compared with the expressions inside ``group_by().agg()`` and with
``fe.measures`` (eager and lazy); tolerance 1e-9. A group whose weights are all 0 is 0/0: null
here, an error in scikit-learn.
"""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import mean_absolute_error, mean_squared_error, root_mean_squared_error

import frameeval as fe
from frameeval.exceptions import (
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    NegativeValueError,
)
from tests.helpers.oracle import assert_close
from tests.helpers.regression import oracle

SKLEARN = {"mse": mean_squared_error, "rmse": root_mean_squared_error, "mae": mean_absolute_error}
BUILDERS = {"mse": fe.mse, "rmse": fe.rmse, "mae": fe.mae}


@st.composite
def regression_frames(draw) -> pl.DataFrame:
    """Columns g, y, f (Float64, or Int64 for integer targets) and w (0..3 or floats, zeros in)."""
    value = st.floats(-1e3, 1e3, allow_nan=False)
    integer = draw(st.booleans())
    if integer:
        value = st.integers(-50, 50)
    g, y, f, w = [], [], [], []
    for group in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 8))
        truth = draw(st.lists(value, min_size=n, max_size=n))
        pred = (
            list(truth)
            if draw(st.booleans()) and n < 3
            else draw(st.lists(value, min_size=n, max_size=n))
        )
        weight = draw(
            st.lists(st.one_of(st.just(0.0), st.floats(0.01, 10.0)), min_size=n, max_size=n)
        )
        g += [group] * n
        y += truth
        f += pred
        w += weight
    dtype = pl.Int64 if integer else pl.Float64
    return pl.DataFrame(
        {"g": g, "y": y, "f": f, "w": w},
        schema={"g": pl.Int64, "y": dtype, "f": dtype, "w": pl.Float64},
    )


@given(regression_frames())
def test_regression_measures_match_sklearn(df: pl.DataFrame) -> None:
    exprs = [b("y", "f").alias(n) for n, b in BUILDERS.items()]
    exprs += [b("y", "f", weight="w").alias(f"{n}_w") for n, b in BUILDERS.items()]
    out = df.group_by("g").agg(exprs).sort("g")
    for name, metric in SKLEARN.items():
        plain, weighted = [], []
        for part in sorted(df.partition_by("g"), key=lambda p: p["g"][0]):
            y, f, w = (part[c].to_numpy().astype(float) for c in ("y", "f", "w"))
            plain.append(metric(y, f))
            weighted.append(metric(y, f, sample_weight=w) if w.sum() > 0 else None)
        assert_close(out[name].to_list(), plain)
        assert_close(out[f"{name}_w"].to_list(), weighted)


def test_rmse_is_root_of_mse_and_perfect_prediction_is_zero() -> None:
    df = pl.DataFrame({"y": [1.0, 2.0, 4.0], "f": [1.0, 2.0, 4.0], "e": [0.0, 3.0, 1.0]})
    out = df.select(fe.mse("y", "f"), fe.rmse("y", "f"), fe.mae("y", "f"))
    assert out.row(0) == (0.0, 0.0, 0.0)
    out = df.select(fe.mse("y", "e"), fe.rmse("y", "e"))
    assert out["rmse"].item() == pytest.approx(np.sqrt(out["mse"].item()), abs=1e-12)


def test_zero_total_weight_is_null() -> None:
    df = pl.DataFrame({"y": [1.0, 2.0], "f": [0.0, 2.0], "w": [0.0, 0.0]})
    out = df.select(*(b("y", "f", weight="w") for b in BUILDERS.values()))
    assert out.row(0) == (None, None, None)


@pytest.mark.parametrize("name", list(BUILDERS))
@pytest.mark.parametrize(
    ("column", "value", "error", "text"),
    [
        ("y", None, MissingValueError, r"column 'y' \(truth=\) must not contain nulls, got null"),
        (
            "f",
            float("nan"),
            MissingValueError,
            r"column 'f' \(pred=\) must be finite, got NaN or inf",
        ),
        (
            "f",
            float("inf"),
            MissingValueError,
            r"column 'f' \(pred=\) must be finite, got NaN or inf",
        ),
        ("w", -1.0, NegativeValueError, r"column 'w' \(weight=\) must be >= 0, got -1\.0"),
        ("w", float("nan"), MissingValueError, r"column 'w' \(weight=\) must not contain NaN"),
    ],
    ids=["null-truth", "nan-pred", "inf-pred", "negative-weight", "nan-weight"],
)
def test_invalid_values_raise(name, column, value, error, text) -> None:
    df = pl.DataFrame({"y": [1.0, 2.0, 3.0], "f": [1.5, 2.0, 2.5], "w": [1.0, 1.0, 2.0]})
    df = df.with_columns(pl.Series(column, [1.0, value, 3.0], dtype=pl.Float64))
    lazy = df.lazy().select(BUILDERS[name]("y", "f", weight="w"))
    with pytest.raises(error, match=rf"^{name}\(\): {text}"):
        fe.collect(lazy)


# ---------------------------------------------------------------------------------------------
# every regression measure against its oracle, on randomized grouped data, on both faces
# ---------------------------------------------------------------------------------------------
NAMES = [
    "mse", "rmse", "mae", "r2", "explained_variance", "mape", "smape", "msle", "rmsle",
    "median_absolute_error", "max_error", "huber_loss", "pinball_loss", "tweedie_deviance",
    "poisson_deviance", "gamma_deviance", "pearson_r", "ccc", "mean_error",
]  # fmt: skip
# (output name, measure, parameters): the defaults and some configured ones
VARIANTS = [(n, n, {}) for n in NAMES] + [
    ("huber_half", "huber_loss", {"delta": 0.5}),
    ("pinball_90", "pinball_loss", {"alpha": 0.9}),
    ("tweedie_neg", "tweedie_deviance", {"power": -0.5}),
    ("tweedie_15", "tweedie_deviance", {"power": 1.5}),
    ("tweedie_3", "tweedie_deviance", {"power": 3.0}),
]


def grouped_frame(seed: int) -> pl.DataFrame:
    """Seven groups of 1–40 rows: positive truths (gamma) and predictions (truth + noise, some
    far off), float weights with zeros, integer weights; group 6 has weights all 0."""
    rng = np.random.default_rng(seed)
    sizes = [1, 2, *rng.integers(3, 40, 5)]
    g = np.repeat(np.arange(len(sizes)), sizes)
    n = g.size
    y = rng.gamma(2.0, 2.0, n) + 0.05
    f = np.abs(y + rng.normal(0, 1.5, n) * rng.choice([0.2, 1.0, 4.0], n)) + 0.01
    w = rng.uniform(0, 3, n) * (rng.random(n) > 0.2)
    w[g == len(sizes) - 1] = 0.0
    return pl.DataFrame(
        {"g": g, "y": y, "f": f, "w": w, "wi": rng.integers(0, 4, n).astype(float)}
    ).with_columns(
        pl.when(pl.col("g") == 5).then(pl.col("y").round(0) + 1).otherwise("y").alias("y")
    )


def expected(df: pl.DataFrame, weight: str | None) -> dict[str, list[float | None]]:
    out: dict[str, list[float | None]] = {label: [] for label, _, _ in VARIANTS}
    for part in sorted(df.partition_by("g"), key=lambda p: p["g"][0]):
        y, f = part["y"].to_numpy(), part["f"].to_numpy()
        w = None if weight is None else part[weight].to_numpy()
        for label, name, params in VARIANTS:
            out[label].append(oracle(name, y, f, w, **params))
    return out


def check_against(out: pl.DataFrame, want: dict[str, list[float | None]], what: str) -> None:
    for label in want:
        try:
            assert_close(out[label].to_list(), want[label])
        except AssertionError as err:
            raise AssertionError(f"{label} ({what})\n{err}") from None


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weight", [None, "w", "wi"])
def test_every_measure_equals_its_oracle_on_both_faces(seed: int, weight: str | None) -> None:
    df = grouped_frame(seed)
    want = expected(df, weight)
    exprs = [getattr(fe, n)("y", "f", weight=weight, **p).alias(label) for label, n, p in VARIANTS]
    check_against(df.group_by("g").agg(exprs).sort("g"), want, "expression in group_by().agg()")
    chosen = [fe.MEASURES[n].configure(label, **p) for label, n, p in VARIANTS]
    eager = fe.measures(df, truth="y", pred="f", by="g", measures=chosen, weight=weight)
    check_against(eager, want, "fe.measures, eager")
    lazy = fe.measures(df.lazy(), truth="y", pred="f", by="g", measures=chosen, weight=weight)
    assert isinstance(lazy, pl.LazyFrame)
    check_against(fe.collect(lazy), want, "fe.measures, lazy")


def test_measures_by_name_and_long_output() -> None:
    df = grouped_frame(3)
    wide = fe.measures(df, truth="y", pred="f", by="g", measures=NAMES)
    assert wide.columns == ["g", *NAMES]
    long = fe.measures(df, truth="y", pred="f", by="g", measures=["rmse", "r2"], long=True)
    assert long.columns == ["g", "measure", "value"]
    assert_close(long.filter(pl.col("measure") == "r2")["value"].to_list(), wide["r2"].to_list())


def test_integer_valued_and_negative_data_for_the_unrestricted_measures() -> None:
    """Measures without a domain rule on integer and negative data (hypothesis frames cover the
    sign; this pins integer dtypes through both faces)."""
    df = pl.DataFrame({"g": [0, 0, 0, 1, 1, 1, 1], "y": [-3, 0, 4, 2, 2, 5, -1],
                       "f": [-2, 1, 4, 3, 1, 5, 0]})  # fmt: skip
    names = ["r2", "explained_variance", "smape", "median_absolute_error", "max_error",
             "huber_loss", "pinball_loss", "tweedie_deviance", "pearson_r", "ccc", "mean_error"]  # fmt: skip
    out = df.group_by("g").agg(getattr(fe, n)("y", "f") for n in names).sort("g")
    table = fe.measures(df, truth="y", pred="f", by="g", measures=names)
    for name in names:
        want = [oracle(name, p["y"], p["f"]) for p in df.partition_by("g", maintain_order=True)]
        assert_close(out[name].to_list(), want)
        assert_close(table[name].to_list(), want)


# ---------------------------------------------------------------------------------------------
# the undefined cases: null, never inf / NaN (scikit-learn's own rules are documented beside)
# ---------------------------------------------------------------------------------------------
def test_constant_truth_gives_null_r2_and_explained_variance() -> None:
    """scikit-learn returns 1.0 (perfect) or 0.0 there (force_finite); frameeval: null."""
    df = pl.DataFrame({"g": [0, 0, 0, 1, 1], "y": [0.1, 0.1, 0.1, 2.0, 2.0],
                       "f": [0.1, 0.1, 0.1, 1.0, 3.0]})  # fmt: skip
    names = ["r2", "explained_variance", "pearson_r", "ccc"]
    out = df.group_by("g").agg(getattr(fe, n)("y", "f") for n in names).sort("g")
    assert out.select(names).rows() == [(None,) * 4, (None, None, None, 0.0)]
    table = fe.measures(df, truth="y", pred="f", by="g", measures=names)
    assert table.select(names).rows() == out.select(names).rows()


def test_zero_truth_gives_null_mape_unless_its_weight_is_zero() -> None:
    df = pl.DataFrame({"y": [0.0, 2.0, 4.0], "f": [1.0, 1.0, 5.0], "w": [0.0, 1.0, 1.0]})
    assert df.select(fe.mape("y", "f")).item() is None
    assert df.select(fe.mape("y", "f", weight="w")).item() == pytest.approx(0.375, abs=1e-12)
    assert fe.measures(df, truth="y", pred="f", measures=["mape"])["mape"].item() is None


def test_mape_equals_its_previous_three_ratio_form_bit_for_bit() -> None:
    """Issue 25: MAPE computes |f − y| / |y| as |(f − y) / y| and its zero-truth flag as a max;
    the values are those of the previous form (the ratio three times, a sum of flags, NaN to
    null), exactly, per group — with zero truths of zero and of positive weight, 0/0 rows,
    tiny truths whose ratio overflows, a group of zero total weight and an empty one."""
    rng = np.random.default_rng(25)
    n = 4_000
    y = rng.normal(0, 10, n)
    y[rng.random(n) < 0.01] = 0.0
    y[rng.random(n) < 0.005] = 1e-320  # subnormal: |f − y| / |y| overflows
    f = y + rng.normal(0, 3, n)
    f[rng.random(n) < 0.005] = 0.0
    w = rng.integers(0, 3, n).astype(np.float64)
    g = rng.integers(0, 40, n)
    w[g == 7] = 0.0  # zero total weight
    df = pl.DataFrame({"g": g, "y": y, "f": f, "w": w}).filter(pl.col("g") != 8)
    for weight in (None, "w"):
        ww = pl.col(weight) if weight else pl.lit(1.0)
        ape = (pl.col("f") - pl.col("y")).abs() / pl.col("y").abs()
        zero = (ww * (~ape.is_finite()).cast(pl.Float64)).sum()
        total = (ww * pl.when(ape.is_finite()).then(ape).otherwise(0.0)).sum()
        mass = ww.sum() if weight else pl.len().cast(pl.Float64)
        previous = (
            pl.when((zero > 0).fill_null(True)).then(None).otherwise(total / mass).fill_nan(None)
        )
        expected = df.group_by("g").agg(previous.alias("mape")).sort("g")
        got = df.group_by("g").agg(fe.mape("y", "f", weight=weight)).sort("g")
        assert got.equals(expected, null_equal=True)
        assert 0 < got["mape"].null_count() < got.height  # both cases are exercised
        assert got.filter(pl.col("g") == 7)["mape"].item() is None or weight is None
        # fe.measures sums in its own plan (the order of the additions may differ): same nulls,
        # values to 1e-12
        table = fe.measures(df, truth="y", pred="f", weight=weight, by="g", measures=["mape"])
        table = table.sort("g")
        assert table["mape"].is_null().equals(expected["mape"].is_null())
        diff = ((table["mape"] - expected["mape"]).abs() / expected["mape"].abs()).max()
        assert diff is not None and diff < 1e-12


def test_smape_counts_a_zero_truth_and_zero_prediction_as_no_error() -> None:
    df = pl.DataFrame({"y": [0.0, 2.0], "f": [0.0, 1.0]})
    assert df.select(fe.smape("y", "f")).item() == pytest.approx((0 + 2 / 3) / 2, abs=1e-12)


def test_weighted_median_takes_the_midpoint_at_exactly_half() -> None:
    """scikit-learn's _weighted_percentile(average=True): |e| = 1, 2, 3, 4 with weights 1, 1,
    0, 2 reaches half (2 of 4) at 2, so the midpoint of 2 and the next of positive weight, 4."""
    df = pl.DataFrame({"y": [0.0] * 4, "f": [1.0, 2.0, 3.0, 4.0], "w": [1.0, 1.0, 0.0, 2.0]})
    assert df.select(fe.median_absolute_error("y", "f", weight="w")).item() == 3.0
    assert oracle("median_absolute_error", df["y"], df["f"], df["w"]) == 3.0


# ---------------------------------------------------------------------------------------------
# bad input: parameters, domains, dtypes, NaN — typed errors on both faces
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "parameters", "text"),
    [
        ("huber_loss", {"delta": 0.0}, r"delta must be a finite number > 0, got 0\.0"),
        ("pinball_loss", {"alpha": 1.5}, r"alpha must be in \[0, 1\], got 1\.5"),
        ("tweedie_deviance", {"power": 0.5}, r"power must be a finite number <= 0 or >= 1"),
    ],
)
def test_invalid_parameters_raise_on_both_faces(name: str, parameters: dict, text: str) -> None:
    with pytest.raises(InvalidParameterError, match=rf"^{name}\(\): {text}"):
        getattr(fe, name)("y", "f", **parameters)
    df = pl.DataFrame({"y": [1.0, 2.0], "f": [1.0, 3.0]})
    with pytest.raises(InvalidParameterError, match=text):
        fe.measures(df, truth="y", pred="f", measures=[fe.MEASURES[name].configure(**parameters)])
    with pytest.raises(InvalidParameterError, match="has no parameter"):
        fe.MEASURES[name].configure(nope=1)


DOMAIN = [
    # (measure, parameters, column, value, error, rule)
    ("msle", {}, "f", -1.0, InvalidValueError, "column 'f' (pred=) must be > -1"),
    ("rmsle", {}, "y", -2.5, InvalidValueError, "column 'y' (truth=) must be > -1"),
    ("poisson_deviance", {}, "y", -0.5, NegativeValueError, "column 'y' (truth=) must be >= 0"),
    ("poisson_deviance", {}, "f", 0.0, InvalidValueError, "column 'f' (pred=) must be > 0"),
    ("gamma_deviance", {}, "y", 0.0, InvalidValueError, "column 'y' (truth=) must be > 0"),
    ("tweedie_deviance", {"power": -1.0}, "f", -3.0, InvalidValueError,
     "column 'f' (pred=) must be > 0"),
    ("tweedie_deviance", {"power": 1.5}, "y", -1.0, NegativeValueError,
     "column 'y' (truth=) must be >= 0"),
    ("tweedie_deviance", {"power": 3.0}, "y", 0.0, InvalidValueError,
     "column 'y' (truth=) must be > 0"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "parameters", "column", "value", "error", "rule"), DOMAIN)
def test_values_outside_the_domain_raise_on_both_faces(
    name: str, parameters: dict, column: str, value: float, error: type, rule: str
) -> None:
    df = pl.DataFrame({"g": [0, 0, 1, 1], "y": [1.0, 2.0, 3.0, 4.0], "f": [1.5, 2.0, 2.5, 4.0]})
    df = df.with_columns(pl.Series(column, [1.0, 2.0, 3.0, value]))
    shown = f"{value:g}" if value != int(value) else f"{value}"
    with pytest.raises(error, match=rf"^{name}\(\): {re.escape(rule)}.*, got {shown}\."):
        df.group_by("g").agg(getattr(fe, name)("y", "f", **parameters))
    with pytest.raises(error, match=rf"^{name}\(\): {re.escape(rule)}"):
        fe.collect(df.lazy().select(getattr(fe, name)("y", "f", **parameters)))
    measure = fe.MEASURES[name].configure(**parameters)
    face = rf"^measures\(\): {re.escape(rule)} for {name}.*, got {shown} \(1 rows\) in group g=1\."
    with pytest.raises(error, match=face):
        fe.measures(df, truth="y", pred="f", by="g", measures=[measure])
    with pytest.raises(error, match=face):
        fe.collect(fe.measures(df.lazy(), truth="y", pred="f", by="g", measures=[measure]))


def test_inside_the_domain_nothing_is_raised() -> None:
    """The boundaries scikit-learn allows: a zero truth for Poisson, a negative truth for
    Tweedie power < 0, truth and pred just above -1 for MSLE."""
    df = pl.DataFrame({"y": [0.0, 2.0, -0.5], "f": [0.5, 1.0, 0.25]})
    out = df.select(fe.msle("y", "f"), fe.tweedie_deviance("y", "f", power=-1.0))
    assert out.null_count().row(0) == (0, 0)
    positive = df.filter(pl.col("y") >= 0)
    assert positive.select(fe.poisson_deviance("y", "f")).item() == pytest.approx(
        oracle("poisson_deviance", positive["y"], positive["f"]), rel=1e-12
    )


@pytest.mark.parametrize("name", ["r2", "mape", "gamma_deviance", "median_absolute_error"])
def test_strings_and_nan_are_typed_errors_on_both_faces(name: str) -> None:
    df = pl.DataFrame({"y": [1.0, 2.0, 3.0], "f": ["1", "2", "3"]})
    with pytest.raises(
        InvalidDtypeError, match=rf"^{name}\(\): column 'f' \(pred=\) must be numeric"
    ):
        df.select(getattr(fe, name)("y", "f"))
    with pytest.raises(
        InvalidDtypeError, match=r"^measures\(\): column 'f' \(pred=\) must be numeric"
    ):
        fe.measures(df, truth="y", pred="f", measures=[name])
    nan = pl.DataFrame({"g": [0, 0, 1], "y": [1.0, float("nan"), 3.0], "f": [1.0, 2.0, 3.0]})
    with pytest.raises(
        MissingValueError, match=rf"^{name}\(\): column 'y' \(truth=\) must be finite"
    ):
        nan.group_by("g").agg(getattr(fe, name)("y", "f"))
    with pytest.raises(
        MissingValueError,
        match=r"^measures\(\): column 'y' \(truth=\) must be finite, got NaN or inf",
    ):
        fe.measures(nan, truth="y", pred="f", by="g", measures=[name])


def test_the_worked_example_of_docs_regression() -> None:
    """docs/regression.md, "A worked example": the table printed there, and R² / RMSE of ridge
    by hand (SSE = 2.75, SST = 15.2083) and by scikit-learn."""
    df = pl.DataFrame(
        {
            "model": ["ridge"] * 6 + ["forest"] * 6,
            "y_true": [3.0, 5.0, 2.5, 7.0, 4.0, 6.0] * 2,
            "y_pred": [2.5, 5.0, 3.0, 8.0, 4.5, 5.0, 3.2, 4.4, 2.5, 6.1, 4.0, 6.3],
        }
    )
    names = ["rmse", "mae", "r2", "mape", "ccc", "mean_error"]
    out = fe.measures(df, truth="y_true", pred="y_pred", by="model", measures=names)
    assert out["model"].to_list() == ["forest", "ridge"]
    printed = {
        "forest": (0.4655, 0.3333, 0.9145, 0.0609, 0.9520, -0.1667),
        "ridge": (0.6770, 0.5833, 0.8192, 0.1335, 0.9193, 0.0833),
    }
    for row in out.iter_rows(named=True):
        assert tuple(round(row[n], 4) for n in names) == printed[row["model"]]
    ridge = out.filter(pl.col("model") == "ridge")
    assert ridge["rmse"].item() == pytest.approx((2.75 / 6) ** 0.5, abs=1e-12)
    sst = sum((v - 27.5 / 6) ** 2 for v in [3.0, 5.0, 2.5, 7.0, 4.0, 6.0])
    assert ridge["r2"].item() == pytest.approx(1 - 2.75 / sst, abs=1e-12)
    part = df.filter(pl.col("model") == "ridge")
    assert ridge["r2"].item() == pytest.approx(oracle("r2", part["y_true"], part["y_pred"]))


def test_a_user_measure_declared_with_one_term_still_works_everywhere() -> None:
    """Backwards compatibility: a regression Measure declared the old way (term= and
    formula(term_sum, weight_sum)) works as a builder and in fe.measures, beside the new ones."""
    cubed = fe.Measure(
        "mean_cubed_error", "regression", lambda s, w: s / w, False, 0.0, None, "—",
        "mean |e|³", "Σ w·|f − y|³ / Σ w", term=lambda y, f: (f - y).abs() ** 3,
    )  # fmt: skip
    assert cubed.stats is None
    df = pl.DataFrame(
        {"g": [0, 0, 1], "y": [1.0, 2.0, 3.0], "f": [2.0, 4.0, 3.5], "w": [1.0, 3.0, 1.0]}
    )
    fe.register(cubed)
    try:
        out = fe.measures(df, truth="y", pred="f", by="g", weight="w",
                          measures=["mean_cubed_error", "r2", "mse"])  # fmt: skip
        expr = df.group_by("g").agg(cubed.builder("y", "f", weight="w")).sort("g")
    finally:
        fe.MEASURES.pop("mean_cubed_error")
    assert_close(out["mean_cubed_error"].to_list(), [(1 + 3 * 8) / 4, 0.125])
    assert_close(expr["mean_cubed_error"].to_list(), [(1 + 3 * 8) / 4, 0.125])
    assert_close(out["mse"].to_list(), [(1 + 3 * 4) / 4, 0.25])
    assert out["r2"].to_list()[1] is None  # one row: a constant truth


def test_overflowing_moments_are_undefined_never_nan() -> None:
    """explained_variance, pearson_r and ccc read second moments (Σy², Σy·f): values near
    1e200 overflow them to inf, and inf − inf would be NaN. The measures are null there, on
    both faces, without a fill_nan of the result (which an eager group_by evaluates group by
    group). r2 is computed from sums scaled by 2⁻⁵²⁰ there (see the next test)."""
    df = pl.DataFrame(
        {
            "g": [1, 1, 1, 2, 2, 2],
            "y": [1e200, -1e200, 2e200, 1.0, 2.0, 4.0],
            "f": [2e200, -1e200, 1e200, 1.5, 2.0, 3.0],
        }
    )
    names = ["explained_variance", "pearson_r", "ccc"]
    eager = df.group_by("g").agg(getattr(fe, n)("y", "f") for n in names).sort("g")
    lazy = df.lazy().group_by("g").agg(getattr(fe, n)("y", "f") for n in names).sort("g")
    frame = fe.measures(df, truth="y", pred="f", by="g", measures=names).sort("g")
    for out in (eager, lazy.collect(), frame):
        for n in names:
            first, second = out.get_column(n).to_list()
            assert first is None, (n, first)
            assert second is not None and math.isfinite(second), (n, second)


@pytest.mark.parametrize("scale", [1e150, 1e154, 1e200, 1e300])
def test_rmse_and_r2_of_huge_values_are_representable_not_inf_or_null(scale: float) -> None:
    """Σ w·e² and Σ w·y² overflow Float64 past ~1e154: fe.rmse returned inf and fe.r2 an
    undocumented null though both answers are representable. Both now come from sums of
    squares scaled by the power of two 2⁻⁵²⁰ (exact scaling) when the plain ones overflow:
    equal, on both faces and grouped, to the values on data divided by ``scale`` (rmse times
    ``scale``), scikit-learn's r2_score and mean_squared_error as the oracle."""
    from sklearn.metrics import mean_squared_error, r2_score

    y = np.array([1.0, 2.0, 3.0, 4.5, -2.0])
    f = np.array([1.5, 1.8, 3.3, 4.0, -1.0])
    df = pl.DataFrame({"g": [1] * 5 + [2] * 5, "y": np.r_[y * scale, y], "f": np.r_[f * scale, f]})
    expected_rmse = [np.sqrt(mean_squared_error(y, f)) * scale, np.sqrt(mean_squared_error(y, f))]
    expected_r2 = [r2_score(y, f)] * 2
    eager = df.group_by("g").agg(fe.rmse("y", "f"), fe.r2("y", "f")).sort("g")
    lazy = df.lazy().group_by("g").agg(fe.rmse("y", "f"), fe.r2("y", "f")).sort("g").collect()
    frame = fe.measures(df, truth="y", pred="f", by="g", measures=["rmse", "r2"])
    for out in (eager, lazy, frame):
        for got, want in zip(out["rmse"].to_list(), expected_rmse, strict=True):
            assert math.isfinite(got) and got == pytest.approx(want, rel=1e-12)
        assert_close(out["r2"].to_list(), expected_r2, tol=1e-12)


_NAN, _INF = float("nan"), float("inf")
#: frames that reach each branch of the whole-frame plan of an eager select (issue 31): the
#: finiteness counts (their column sums non-finite or overflowing), the scaled sums of RMSE and
#: R² (values past 1e154), MAPE's zero-truth max (a zero, a subnormal, truths of both signs)
HOSTILE = {
    "plain": ([1.0, 2.0, 3.0, 4.5], [1.5, 1.8, 3.3, 4.0]),
    "nan truth": ([1.0, _NAN, 3.0], [1.0, 2.0, 3.0]),
    "inf pred": ([1.0, 2.0, 3.0], [1.0, _INF, 3.0]),
    "-inf truth, nan pred": ([1.0, -_INF, 3.0], [_NAN, 2.0, 3.0]),
    "null truth": ([1.0, None, 3.0], [1.0, 2.0, 3.0]),
    "1e200": ([1e200, -1e200, 2e200, 3e200], [2e200, -1e200, 1e200, 3.5e200]),
    "1e154": ([1e154, 2e154, 3e154], [1.1e154, 2.5e154, 2e154]),
    "sums overflow, values finite": ([1.7e308, 1.7e308, 1.0], [1.7e308, 1.6e308, 2.0]),
    "zero truth": ([0.0, 1.0, 2.0], [0.5, 1.0, 2.5]),
    "zero truth and pred": ([0.0, 1.0], [0.0, 1.0]),
    "subnormal truth": ([1e-320, 1.0, 2.0], [1.0, 1.0, 2.0]),
    "ratio overflows": ([1e-300, 1.0], [1e10, 2.0]),
    "both signs": ([-1.0, 2.0, -3.0, 4.0], [-1.5, 2.5, -2.0, 3.0]),
    "negative": ([-1.0, -2.0, -3.0], [-1.5, -2.5, -2.0]),
    "constant truth": ([2.0, 2.0, 2.0], [1.0, 2.0, 3.0]),
    "one row": ([2.0], [3.0]),
    "no row": ([], []),
}
REGRESSION = [name for name, m in fe.MEASURES.items() if m.kind == "regression"]


@pytest.fixture
def whole_frames(monkeypatch):
    """Every eager select planned for the whole frame, however few its rows."""
    monkeypatch.setattr("frameeval._validate.WHOLE_ROWS", 0)


def _outcome(run) -> tuple[str, object]:
    try:
        return "value", run().item()
    except fe.FrameEvalError as error:
        return type(error).__name__, str(error)


@pytest.mark.parametrize("case", list(HOSTILE))
def test_an_eager_select_gives_the_lazy_select_everywhere(case, whole_frames) -> None:
    """``df.select`` / ``df.with_columns`` of one builder run its whole-frame plan (finiteness
    counts gated by the column sums or by the value's own Σe², Σ|e| or Σ|e|/|y|, RMSE/R²'s
    scaled sums gated by Σe² and Σy², MAPE's zero-truth max by Σ|e|/|y|): the same value (or
    null), error class and message as the lazy plan, which reads every row, for every
    regression measure."""
    t, f = HOSTILE[case]
    df = pl.DataFrame({"t": t, "f": f}, schema={"t": pl.Float64, "f": pl.Float64})
    for name in REGRESSION:
        expr = getattr(fe, name)("t", "f")
        lazy = _outcome(lambda e=expr: df.lazy().select(e).collect())
        faces = [lambda e=expr: df.select(e)]
        if df.height:  # with_columns keeps the rows: none to read on an empty frame
            faces.append(lambda e=expr, n=name: df.with_columns(e).select(n).head(1))
        for eager in map(_outcome, faces):
            kind, value = lazy
            assert eager[0] == kind, (name, eager, lazy)
            if kind != "value" or value is None or math.isnan(value):
                assert eager == lazy or (value is not None and math.isnan(eager[1])), (name,)
            else:
                assert eager[1] == pytest.approx(value, rel=1e-12), (name, eager, lazy)


@pytest.mark.parametrize("case", list(HOSTILE))
def test_an_eager_select_of_every_measure_gives_the_lazy_one(case, whole_frames) -> None:
    """All regression builders in one eager select: each builder gates its finiteness counts
    by its own sums (Σe², Σ|e|, Σ|e|/|y|, or the column's), while the query checks a rule two
    builders share once — the same values and nulls as the lazy select, or an error where it
    raises one (which builder's error comes first is Polars' order, on either face)."""
    t, f = HOSTILE[case]
    df = pl.DataFrame({"t": t, "f": f}, schema={"t": pl.Float64, "f": pl.Float64})
    exprs = [getattr(fe, name)("t", "f") for name in REGRESSION]
    eager = _outcome(lambda: df.select(exprs).select(pl.concat_list(pl.all())))
    lazy = _outcome(lambda: df.lazy().select(exprs).select(pl.concat_list(pl.all())).collect())
    assert (eager[0] == "value") is (lazy[0] == "value"), (eager, lazy)
    if eager[0] == "value" and eager[1] is not None:
        pairs = zip(eager[1], lazy[1], strict=True)
        for name, (a, b) in zip(REGRESSION, pairs, strict=True):
            if b is None or math.isnan(b) or math.isinf(b):
                assert a is b or a == b or (math.isnan(a) and math.isnan(b)), name
            else:
                assert a == pytest.approx(b, rel=1e-12), name


def test_the_value_proves_its_columns_finite_without_weights() -> None:
    """RMSE, MAE, MAPE and R² record a sum of their value as the proof that both columns are
    finite over a whole frame without weights (their guard then reads no row of a clean
    frame); with weights, or per group, nothing is proved."""
    from frameeval._validate import Shared
    from frameeval.metrics.builders import regression_sums

    for name in ("rmse", "mae", "mape", "r2", "mse"):
        stats = fe.MEASURES[name].stats
        assert stats is not None
        for weight, whole, proved in [(None, True, True), ("w", True, False), (None, False, False)]:
            shared = Shared(whole=whole)
            regression_sums(stats, ("t", "f"), weight, {}, shared)
            assert (shared.proven("t") is not None) is proved, (name, weight, whole)
            assert (shared.proven("f") is not None) is proved, (name, weight, whole)


@pytest.mark.parametrize("scale", [1e150, 1e154, 1e200, 1e300])
def test_rmse_and_r2_of_huge_values_in_an_eager_select(scale: float, whole_frames) -> None:
    """The whole-frame plan computes the scaled sums of RMSE and R² only when the plain sums
    overflow: past 1e154 they do, and the values equal
    scikit-learn's on the data divided by ``scale`` (rmse times ``scale``)."""
    from sklearn.metrics import r2_score

    y = np.array([1.0, 2.0, 3.0, 4.5, -2.0])
    f = np.array([1.5, 1.8, 3.3, 4.0, -1.0])
    df = pl.DataFrame({"y": y * scale, "f": f * scale})
    got = df.select(fe.rmse("y", "f"), fe.r2("y", "f"))
    assert got["rmse"].item() == pytest.approx(root_mean_squared_error(y, f) * scale, rel=1e-12)
    assert got["r2"].item() == pytest.approx(r2_score(y, f), rel=1e-12)


@given(
    st.lists(
        st.tuples(
            st.sampled_from([0.0, -0.0, 1e-320, 1.0, -2.0, 3.5, 1e154, -1e200, 1.7e308]),
            st.floats(-1e300, 1e300, allow_nan=False),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_the_gated_statistics_change_no_value(rows) -> None:
    """Random truths among zeros, subnormals, both signs and huge values: the eager select
    (gated statistics) gives the lazy select's RMSE, R², MAPE and MSE."""
    t, f = zip(*rows, strict=True)
    df = pl.DataFrame({"t": list(t), "f": list(f)}, schema={"t": pl.Float64, "f": pl.Float64})
    exprs = [fe.rmse("t", "f"), fe.r2("t", "f"), fe.mape("t", "f"), fe.mse("t", "f")]
    for expr in exprs:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("frameeval._validate.WHOLE_ROWS", 0)
            eager = df.select(expr).item()
        lazy = df.lazy().select(expr).collect().item()
        if lazy is None or math.isnan(lazy) or math.isinf(lazy):
            assert eager is lazy or eager == lazy or (math.isnan(eager) and math.isnan(lazy))
        else:
            assert eager == pytest.approx(lazy, rel=1e-12)
