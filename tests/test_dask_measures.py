"""frameeval.dask.measures on a two-process LocalCluster against fe.measures on one machine.

Label and ranking measures come from the merged count table: equal to one machine (the
macro / weighted averages sum non-integral ratios, so to the last bit or two). Probability and
regression measures come from merged sums, added in another order than on one machine: equal
to rounding.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import InvalidParameterError, InvalidValueError, MissingValueError

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
fed = pytest.importorskip("frameeval.dask")

LABEL = ["accuracy", "precision", "recall", "f1", "mcc", "cohen_kappa", "balanced_accuracy"]
SCORE = ["roc_auc", "average_precision"]
SUMS = ["log_loss", "brier_score"]
# every regression measure: sums (R², r, CCC from the moments), min / max (constant truth, max
# error) and the median absolute error (a shuffle by group), plus a configured Tweedie
REGRESSION = [
    "mse", "rmse", "mae", "r2", "explained_variance", "mape", "smape", "msle", "rmsle",
    "median_absolute_error", "max_error", "huber_loss", "pinball_loss", "poisson_deviance",
    "gamma_deviance", "pearson_r", "ccc", "mean_error",
]  # fmt: skip


#: one LocalCluster per test session (tests/conftest.py), on one xdist worker
pytestmark = pytest.mark.xdist_group("dask")


def _frame(seed: int, n: int = 1500) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "fold": rng.integers(0, 3, n),
            "y": rng.integers(0, 2, n),
            "y3": rng.integers(0, 3, n),
            "p": rng.integers(0, 2, n),
            "p3": rng.integers(0, 3, n),
            "s": rng.random(n).round(2),
            "r": rng.normal(size=n),
            "w": rng.integers(0, 4, n).astype(float),
            "q": rng.gamma(2.0, 2.0, n) + 0.1,  # positive: for MSLE and the deviances
            "qf": rng.gamma(2.0, 2.0, n) + 0.1,
        }
    )


def _paths(df: pl.DataFrame, root: Path) -> list[str]:
    paths = []
    for i, part in enumerate(df.iter_slices(250)):  # 6 files: two levels with split_every=3
        paths.append(str(root / f"part-{i}.parquet"))
        part.write_parquet(paths[-1])
    return paths


CASES: dict[str, dict[str, Any]] = {
    "label-by-g": {"truth": "y", "pred": "p", "by": "g", "measures": LABEL},
    "label-score-sums-weighted": {
        "truth": "y",
        "pred": "p",
        "score": "s",
        "by": ["g", "fold"],
        "weight": "w",
        "measures": [*LABEL, *SCORE, *SUMS],
    },
    "multiclass-macro": {
        "truth": "y3",
        "pred": "p3",
        "by": "g",
        "measures": ["accuracy", "f1", "mcc"],
        "average": "macro",
    },
    "regression-long": {
        "truth": "r",
        "pred": "s",
        "by": "g",
        "measures": ["mse", "rmse", "mae"],
        "long": True,
    },
    "defaults-one-group": {"truth": "y", "pred": "p", "score": "s"},
    "regression-all-weighted": {
        "truth": "q",
        "pred": "qf",
        "by": ["g", "fold"],
        "weight": "w",
        "measures": REGRESSION,
    },
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_measures_equal_single_machine(client: Any, tmp_path: Path, case: str) -> None:
    kwargs = CASES[case]
    df = _frame(len(case))
    expected = fe.measures(df, **kwargs)
    got = fed.measures(_paths(df, tmp_path), **kwargs, client=client, split_every=3)
    assert_frame_equal(got, expected, check_exact=False, rel_tol=1e-12, abs_tol=1e-15)
    # the counted measures (integer counts) are exact, and so are a max and a median
    exact = [
        c
        for c in expected.columns
        if c in {"accuracy", "precision", "recall", "roc_auc", "max_error", "median_absolute_error"}
    ]
    assert_frame_equal(got.select(exact), expected.select(exact), check_exact=True)


def test_dask_dataframe_through_fe_measures(client: Any) -> None:
    """fe.measures hands a Dask DataFrame to frameeval.dask.measures (DASK_FORMS)."""
    df = _frame(7)
    ddf = dd.from_pandas(df.to_pandas(), npartitions=4)
    kwargs = {
        "truth": "y",
        "pred": "p",
        "score": "s",
        "by": "g",
        "measures": ["f1", "roc_auc", "brier_score"],
    }
    assert_frame_equal(
        fe.measures(ddf, **kwargs),
        fe.measures(df, **kwargs),
        check_exact=False,
        rel_tol=1e-12,
        abs_tol=1e-15,
    )


def test_errors_match_single_machine(client: Any, tmp_path: Path) -> None:
    df = _frame(8).with_columns(
        pl.when(pl.col("g") == "b").then(None).otherwise(pl.col("s")).alias("s")
    )
    kwargs = {"truth": "y", "score": "s", "by": "g", "measures": ["brier_score"]}
    with pytest.raises(MissingValueError) as single:
        fe.measures(df, **kwargs)
    with pytest.raises(MissingValueError, match=re.escape(str(single.value))):
        fed.measures(_paths(df, tmp_path), **kwargs, client=client)
    with pytest.raises(
        InvalidParameterError,
        match=re.escape("measures(): measure 'roc_auc' reads score=, got score=None."),
    ):
        fed.measures(_paths(df, tmp_path), truth="y", pred="p", measures=["roc_auc"])


def test_regression_measures_configured_and_their_errors(client: Any, tmp_path: Path) -> None:
    """A configured Tweedie power merges like the rest; a value outside a measure's domain is
    the single-machine error, found in the partition that holds it."""
    df = _frame(11)
    tweedie = fe.MEASURES["tweedie_deviance"].configure("tweedie_15", power=1.5)
    kwargs = {"truth": "q", "pred": "qf", "by": "g", "measures": [tweedie, "median_absolute_error"]}
    assert_frame_equal(
        fed.measures(_paths(df, tmp_path), **kwargs, client=client, split_every=3),
        fe.measures(df, **kwargs),
        check_exact=False,
        rel_tol=1e-12,
    )
    bad = df.with_columns(pl.when(pl.col("g") == "c").then(-1.0).otherwise("q").alias("q"))
    kwargs = {"truth": "q", "pred": "qf", "by": "g", "measures": ["gamma_deviance"]}
    with pytest.raises(InvalidValueError) as single:
        fe.measures(bad, **kwargs)
    assert "column 'q' (truth=) must be > 0 for gamma_deviance, got -1.0" in str(single.value)
    (tmp_path / "bad").mkdir()
    with pytest.raises(InvalidValueError, match=re.escape(str(single.value))):
        fed.measures(_paths(bad, tmp_path / "bad"), **kwargs, client=client)


def test_intervals_are_refused_on_dask() -> None:
    """ci= runs on one machine only: a typed error before any data is read (the report's merged
    counts would otherwise reach the bootstrap as weights)."""
    for function in (fed.measures, fed.classification_report):
        with pytest.raises(
            InvalidParameterError,
            match=r"\(\): ci= is not supported on a Dask DataFrame, got ci=0.95",
        ):
            function(["unused.parquet"], "y", "p", ci=0.95, client=None)
