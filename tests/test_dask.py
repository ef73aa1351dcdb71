"""frameeval.dask on a real two-process LocalCluster against the single-machine functions.

The oracle is frameeval itself on one machine (a ``pl.DataFrame`` of the same rows): the
distributed path must give the same frame — bit-identical where the result is built from
integer-valued sums, and to the last bit or two where the single-machine function itself sums
non-integral floats in an unspecified order (see ``UNORDERED_FLOAT_SUMS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    EmptyFrameError,
    InsufficientDataError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    NegativeValueError,
    UnknownLabelError,
)

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
fed = pytest.importorskip("frameeval.dask")

UNORDERED_FLOAT_SUMS = {"classification_report", "macro_micro", "ranking_report"}
COSTS = {(0, 1): 1.0, (1, 0): 5.0, (2, 0): 2.0, (0, 2): 3.0, (1, 2): 1.0, (2, 1): 4.0}


#: one LocalCluster per test session (tests/conftest.py), on one xdist worker
pytestmark = pytest.mark.xdist_group("dask")


def _frame(seed: int, n: int = 2000) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c", "d"], n),
            "fold": rng.integers(0, 3, n),
            "y": rng.integers(0, 2, n),
            "y3": rng.integers(0, 3, n),
            "p": rng.integers(0, 2, n),
            "p3": rng.integers(0, 3, n),
            "s": rng.random(n).round(2),
            "w": rng.integers(0, 4, n).astype(float),
        }
    )


@pytest.fixture(scope="module", params=[1, 2])
def data(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[pl.DataFrame, list[str]]:
    df = _frame(request.param)
    root = tmp_path_factory.mktemp(f"parquet{request.param}")
    paths = []
    for i, part in enumerate(df.iter_slices(300)):  # 7 files: two levels with split_every=3
        path = root / f"part-{i}.parquet"
        part.write_parquet(path)
        paths.append(str(path))
    return df, paths


CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "confusion_matrix": ("confusion_matrix", {"truth": "y3", "pred": "p3", "by": "g"}),
    "confusion_matrix_weighted": (
        "confusion_matrix",
        {"truth": "y3", "pred": "p3", "by": ["g", "fold"], "weight": "w"},
    ),
    "confusion_matrix_labels": (
        "confusion_matrix",
        {"truth": "y3", "pred": "p3", "labels": [0, 1, 2, 3]},
    ),
    "classification_report": ("classification_report", {"truth": "y3", "pred": "p3", "by": "g"}),
    "macro_micro": ("macro_micro", {"truth": "y", "pred": "p", "by": "g", "across": "fold"}),
    "cost_sensitive_error": (
        "cost_sensitive_error",
        {"truth": "y3", "pred": "p3", "by": "g", "costs": COSTS},
    ),
    "roc_curve": ("roc_curve", {"truth": "y", "score": "s", "by": "g"}),
    "roc_curve_weighted": ("roc_curve", {"truth": "y", "score": "s", "by": "g", "weight": "w"}),
    "roc_convex_hull": ("roc_convex_hull", {"truth": "y", "score": "s", "by": "g"}),
    "pr_curve": ("pr_curve", {"truth": "y", "score": "s", "by": ["g", "fold"]}),
    "ranking_report": ("ranking_report", {"truth": "y", "score": "s", "by": "g"}),
    "ranking_report_weighted": (
        "ranking_report",
        {"truth": "y", "score": "s", "by": "g", "weight": "w"},
    ),
    "break_even_point": ("break_even_point", {"truth": "y", "score": "s", "by": "g"}),
    "best_threshold": ("best_threshold", {"truth": "y", "score": "s", "by": "g"}),
    "cost_lines": ("cost_lines", {"truth": "y", "score": "s"}),
    "cost_curve": ("cost_curve", {"truth": "y", "score": "s", "by": "g"}),
    "expected_total_cost": ("expected_total_cost", {"truth": "y", "score": "s", "by": "g"}),
}


def assert_same_as_single_machine(name: str, got: pl.DataFrame, expected: pl.DataFrame) -> None:
    exact = name not in UNORDERED_FLOAT_SUMS
    tolerance = {} if exact else {"rel_tol": 1e-14, "abs_tol": 0.0}
    assert_frame_equal(got, expected, check_exact=exact, **tolerance)


@pytest.mark.parametrize("case", sorted(CASES))
def test_parquet_paths_equal_single_machine(
    client: Any, data: tuple[pl.DataFrame, list[str]], case: str
) -> None:
    func, kwargs = CASES[case]
    df, paths = data
    expected = getattr(fe, func)(df, **kwargs)
    got = getattr(fed, func)(paths, **kwargs, client=client, split_every=3)
    assert_same_as_single_machine(func, got, expected)


@pytest.mark.parametrize(
    "case",
    [
        "confusion_matrix",
        "classification_report",
        "ranking_report",
        "roc_curve_weighted",
        "macro_micro",
    ],
)
def test_dask_dataframe_equals_single_machine(
    client: Any, data: tuple[pl.DataFrame, list[str]], case: str
) -> None:
    func, kwargs = CASES[case]
    df, _ = data
    ddf = dd.from_pandas(df.to_pandas(), npartitions=5)
    expected = getattr(fe, func)(df, **kwargs)
    assert_same_as_single_machine(func, getattr(fed, func)(ddf, **kwargs, client=client), expected)


def test_string_and_categorical_labels(client: Any, tmp_path: Path) -> None:
    df = _frame(3, 600).with_columns(
        pl.col("y").replace_strict({0: "no", 1: "yes"}).alias("ys"),
        pl.col("p").replace_strict({0: "no", 1: "yes"}).cast(pl.Categorical).alias("pc"),
    )
    ddf = dd.from_pandas(df.to_pandas(), npartitions=3)
    assert_frame_equal(
        fed.confusion_matrix(ddf, truth="ys", pred="pc", by="g", client=client),
        fe.confusion_matrix(df, truth="ys", pred="pc", by="g"),
        check_exact=True,
    )
    assert_frame_equal(
        fed.roc_curve(ddf, truth="ys", score="s", pos_label="yes", client=client),
        fe.roc_curve(df, truth="ys", score="s", pos_label="yes"),
        check_exact=True,
    )


def _message(call: Callable[[], Any]) -> tuple[type[BaseException], str]:
    with pytest.raises(fe.FrameEvalError) as info:
        call()
    return type(info.value), str(info.value)


def _bad(df: pl.DataFrame, tmp_path: Path) -> list[str]:
    paths = []
    for i, part in enumerate(df.iter_slices(200)):
        paths.append(str(tmp_path / f"bad-{i}.parquet"))
        part.write_parquet(paths[-1])
    return paths


@pytest.mark.parametrize(
    ("func", "kwargs", "corrupt", "error"),
    [
        (
            "confusion_matrix",
            {"truth": "y3", "pred": "p3", "by": "g"},
            pl.when(pl.col("g") == "b").then(None).otherwise(pl.col("y3")).alias("y3"),
            MissingValueError,
        ),
        (
            "ranking_report",
            {"truth": "y", "score": "s", "by": "g"},
            pl.when(pl.col("g") == "c").then(float("nan")).otherwise(pl.col("s")).alias("s"),
            MissingValueError,
        ),
        (
            "roc_curve",
            {"truth": "y", "score": "s", "by": "g", "weight": "w"},
            pl.when((pl.col("g") == "a") & (pl.col("p") == 1))
            .then(-1.5)
            .otherwise(pl.col("w"))
            .alias("w"),
            NegativeValueError,
        ),
        (
            "confusion_matrix",
            {"truth": "y3", "pred": "p3", "labels": [0, 1]},
            pl.col("y3"),
            UnknownLabelError,
        ),
        ("roc_curve", {"truth": "y", "score": "s", "pos_label": 7}, pl.col("y"), UnknownLabelError),
    ],
    ids=["null-truth", "nan-score", "negative-weight", "outside-labels", "absent-pos-label"],
)
def test_errors_match_single_machine(
    client: Any,
    tmp_path: Path,
    func: str,
    kwargs: dict[str, Any],
    corrupt: pl.Expr,
    error: type[Exception],
) -> None:
    """Same typed error and the same text (group, row count, value) as on one machine."""
    df = _frame(4, 800).with_columns(corrupt)
    paths = _bad(df, tmp_path)
    single = _message(lambda: getattr(fe, func)(df, **kwargs))
    distributed_ = _message(lambda: getattr(fed, func)(paths, **kwargs, client=client))
    assert single[0] is error
    assert distributed_ == single


def test_schema_errors_before_reading(client: Any, data: tuple[pl.DataFrame, list[str]]) -> None:
    _, paths = data
    with pytest.raises(
        ColumnNotFoundError, match=re.escape("confusion_matrix(): column 'yy' (truth=) not found")
    ):
        fed.confusion_matrix(paths, truth="yy", pred="p", client=client)
    with pytest.raises(
        InvalidParameterError,
        match=re.escape("roc_curve(): data must name at least one path, got []."),
    ):
        fed.roc_curve([], truth="y", score="s", client=client)
    with pytest.raises(
        InvalidParameterError,
        match=re.escape(
            "roc_curve(): data must be a dask DataFrame or Parquet path(s), got DataFrame."
        ),
    ):
        fed.roc_curve(pl.DataFrame({"y": [1]}), truth="y", score="s", client=client)
    with pytest.raises(
        InvalidParameterError,
        match=re.escape("pr_curve(): split_every must be an int >= 2, got 1."),
    ):
        fed.pr_curve(paths, truth="y", score="s", client=client, split_every=1)


def test_default_scheduler_without_client(data: tuple[pl.DataFrame, list[str]]) -> None:
    """client=None runs on Dask's current scheduler (here: the module's LocalCluster client or
    the local threads) with the same result."""
    df, paths = data
    assert_frame_equal(
        fed.ranking_report(paths, truth="y", score="s", by="g").select("g", "roc_auc"),
        fe.ranking_report(df, truth="y", score="s", by="g").select("g", "roc_auc"),
        check_exact=True,
    )


# ---------------------------------------------------------------------------------------------
# shuffle by key: McNemar / contingency table (by *by, instance), bootstrap (by the by keys)
# ---------------------------------------------------------------------------------------------
def _predictions(seed: int, n: int = 240) -> pl.DataFrame:
    """Predictions of learners A, B and C (ignored by the pairing) on n instances, each in one
    group ``g``, in random row order."""
    rng = np.random.default_rng(seed)
    base = pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "fold": rng.integers(0, 2, n),
            "instance": rng.permutation(n),
            "y": rng.integers(0, 3, n),
        }
    )
    learners = [
        base.with_columns(
            pl.lit(name).alias("learner"),
            pl.Series("p", rng.integers(0, 3, n)),
            pl.Series("s", rng.random(n).round(2)),
        )
        for name in "ABC"
    ]
    df = pl.concat(learners).with_columns((pl.col("y") == 1).cast(pl.Int64).alias("yb"))
    return df.sample(fraction=1.0, shuffle=True, seed=seed)


def _ddf(df: pl.DataFrame, npartitions: int = 4) -> Any:
    """A dask DataFrame of ``df`` with Arrow dtypes (Int64 with nulls stays Int64)."""
    return dd.from_pandas(df.to_pandas(use_pyarrow_extension_array=True), npartitions=npartitions)


@pytest.mark.parametrize(
    ("seed", "kwargs"),
    [(1, {}), (2, {"by": "g"}), (3, {"by": ["g", "fold"], "exact": True, "alpha": 0.1})],
    ids=["no-by", "by-g", "by-g-fold-exact"],
)
def test_mcnemar_and_contingency_table_equal_single_machine(
    client: Any, seed: int, kwargs: dict[str, Any]
) -> None:
    """Bit-identical: the cells are integer counts and the test is the same code on them."""
    df = _predictions(seed)
    ddf = _ddf(df)
    pairing = {"a": "A", "b": "B"}
    got = fed.mcnemar(ddf, "y", "p", **pairing, **kwargs, client=client, split_every=2)
    assert_frame_equal(got, fe.mcnemar(df, "y", "p", **pairing, **kwargs), check_exact=True)
    table = {k: v for k, v in kwargs.items() if k == "by"}
    assert_frame_equal(
        fed.contingency_table(ddf, "y", "p", **pairing, **table, client=client),
        fe.contingency_table(df, "y", "p", **pairing, **table),
        check_exact=True,
    )


# float summaries of the replicates (sums whose rounding in Polars depends on the other groups
# of the frame, on one machine too): equal to rounding
LOOSE = {"percentile": ["bias", "std_error"], "bca": ["bias", "std_error", "lower", "upper"]}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"by": ["g", "learner"]},
        {"by": ["g", "learner"], "stratify": "yb"},
        {"by": "learner", "method": "bca"},
        {},
    ],
    ids=["by-g-learner", "stratified", "bca", "one-group"],
)
def test_bootstrap_equals_single_machine(client: Any, kwargs: dict[str, Any]) -> None:
    """The draws hash (seed, replicate, slot) with the units in instance order: a group gives
    the same replicates in any partition, so the replicates are bit-identical."""
    df = _predictions(4)
    if "by" not in kwargs:
        df = df.filter(pl.col("learner") == "A")  # one group: one row per instance
    ddf = _ddf(df)
    measures = [fe.accuracy("y", "p"), fe.roc_auc("yb", "s")]
    common = {"instance": "instance", "seed": 7, **kwargs}
    method = common.get("method", "percentile")
    got = fed.bootstrap_ci(ddf, measures, repeats=60, **common, client=client)
    expected = fe.bootstrap_ci(df, measures, repeats=60, **common)
    loose = LOOSE[method]
    assert_frame_equal(got.drop(loose), expected.drop(loose), check_exact=True)
    assert_frame_equal(
        got.select(loose), expected.select(loose), check_exact=False, rel_tol=1e-13, abs_tol=1e-15
    )
    common.pop("method", None)
    assert_frame_equal(
        fed.bootstrap_replicates(ddf, measures, repeats=20, **common, client=client),
        fe.bootstrap_replicates(df, measures, repeats=20, **common),
        check_exact=True,
    )


def test_shuffle_from_parquet_paths(client: Any, tmp_path: Path) -> None:
    df = _predictions(5)
    paths = []
    for i, part in enumerate(df.iter_slices(250)):
        paths.append(str(tmp_path / f"pairs-{i}.parquet"))
        part.write_parquet(paths[-1])
    pairing = {"a": "A", "b": "B", "by": "g"}
    assert_frame_equal(
        fed.mcnemar(paths, "y", "p", **pairing, client=client, split_every=2),
        fe.mcnemar(df, "y", "p", **pairing),
        check_exact=True,
    )
    common = {"by": ["g", "learner"], "instance": "instance", "repeats": 20, "seed": 3}
    assert_frame_equal(
        fed.bootstrap_replicates(
            str(tmp_path / "pairs-*.parquet"), fe.accuracy("y", "p"), **common, client=client
        ),
        fe.bootstrap_replicates(df, fe.accuracy("y", "p"), **common),
        check_exact=True,
    )


def _where(**values: Any) -> pl.Expr:
    return pl.all_horizontal([pl.col(k) == v for k, v in values.items()])


def _set(column: str, value: Any, condition: pl.Expr) -> Callable[[pl.DataFrame], pl.DataFrame]:
    return lambda df: df.with_columns(
        pl.when(condition).then(pl.lit(value)).otherwise(pl.col(column)).alias(column)
    )


def _unpaired(df: pl.DataFrame) -> pl.DataFrame:
    """B loses 7 instances of group a: more than the five the message lists."""
    gone = df.filter(_where(g="a", learner="B"))["instance"].sort().head(7)
    return df.filter(~(_where(g="a", learner="B") & pl.col("instance").is_in(gone.implode())))


def _first(df: pl.DataFrame, **values: Any) -> int:
    return df.filter(_where(**values))["instance"].min()


PAIRED = {"truth": "y", "pred": "p", "a": "A", "b": "B", "by": "g"}
BOOT = {"measure": fe.accuracy("y", "p"), "by": "learner", "instance": "instance", "repeats": 10}


@pytest.mark.parametrize(
    ("func", "kwargs", "corrupt", "error"),
    [
        (
            "mcnemar",
            PAIRED,
            _set("y", None, _where(g="b") & (pl.col("instance") % 5 == 0)),
            MissingValueError,
        ),
        (
            "contingency_table",
            PAIRED,
            lambda df: _set("p", 1.5, _where(g="c", learner="B") & (pl.col("instance") % 7 == 0))(
                df.with_columns(pl.col("p").cast(pl.Float64))
            ),
            UnknownLabelError,
        ),
        (
            "mcnemar",
            PAIRED,
            lambda df: pl.concat([df, df.filter(_where(learner="A")).head(1)]),
            DuplicateKeyError,
        ),
        ("mcnemar", PAIRED, _unpaired, InsufficientDataError),
        (
            "mcnemar",
            PAIRED,
            lambda df: _set("y", 9, _where(learner="A", instance=_first(df, g="b")))(df),
            InvalidValueError,
        ),
        (
            "mcnemar",
            PAIRED,
            lambda df: _set("instance", None, _where(learner="B", instance=_first(df, g="a")))(df),
            MissingValueError,
        ),
        (
            "mcnemar",
            PAIRED,
            lambda df: df.filter(~_where(g="c", learner="B")),
            InsufficientDataError,
        ),
        (
            "bootstrap_ci",
            BOOT,
            lambda df: pl.concat([df, df.filter(_where(learner="C")).head(1)]),
            DuplicateKeyError,
        ),
        (
            "bootstrap_replicates",
            BOOT,
            lambda df: _set("instance", None, _where(learner="B") & (pl.col("y") == 2))(df),
            MissingValueError,
        ),
    ],
    ids=[
        "null-truth",
        "float-label",
        "duplicate-prediction",
        "unpaired-instances",
        "two-truths",
        "null-instance",
        "learner-without-rows",
        "bootstrap-duplicate-instance",
        "bootstrap-null-instance",
    ],
)
def test_shuffle_errors_match_single_machine(
    client: Any,
    func: str,
    kwargs: dict[str, Any],
    corrupt: Callable[[pl.DataFrame], pl.DataFrame],
    error: type[Exception],
) -> None:
    """Same typed error and the same text (column, group, count, value) as on one machine,
    whether the check is merged over partitions or made in the partition holding the rows."""
    df = corrupt(_predictions(6))
    single = _message(lambda: getattr(fe, func)(df, **kwargs))
    distributed_ = _message(lambda: getattr(fed, func)(_ddf(df), **kwargs, client=client))
    assert single[0] is error
    assert distributed_ == single


def test_shuffle_parameter_errors(client: Any) -> None:
    df = _predictions(7, 30)
    ddf = _ddf(df, 2)
    with pytest.raises(
        ColumnNotFoundError, match=re.escape("mcnemar(): column 'row' (instance=) not found")
    ):
        fed.mcnemar(ddf, "y", "p", a="A", b="B", instance="row", client=client)
    with pytest.raises(
        InvalidParameterError,
        match=re.escape("contingency_table(): a= and b= must be different learners, got 'A'"),
    ):
        fed.contingency_table(ddf, "y", "p", a="A", b="A", client=client)
    with pytest.raises(
        InvalidParameterError, match=re.escape("mcnemar(): split_every must be an int >= 2, got 1.")
    ):
        fed.mcnemar(ddf, "y", "p", a="A", b="B", client=client, split_every=1)
    with pytest.raises(
        InvalidParameterError,
        match=re.escape(
            "bootstrap_ci(): instance= must name the resampling unit on Dask, got None."
        ),
    ):
        fed.bootstrap_ci(ddf, fe.accuracy("y", "p"), by="learner", client=client)
    empty = df.head(0)
    single = _message(lambda: fe.mcnemar(empty, "y", "p", a="A", b="B", by="g"))
    assert single[0] is EmptyFrameError
    assert (
        _message(lambda: fed.mcnemar(_ddf(empty, 1), "y", "p", a="A", b="B", by="g", client=client))
        == single
    )


def test_mergeable_functions_on_empty_data_raise_like_one_machine(client: Any) -> None:
    """An empty input is the single-machine EmptyFrameError (the Dask result is eager)."""
    empty = pl.DataFrame({"g": [1], "y": [1], "p": [0], "s": [0.5]}).head(0)
    single = _message(lambda: fe.confusion_matrix(empty, truth="y", pred="p", by="g"))
    assert single[0] is EmptyFrameError
    assert (
        _message(
            lambda: fed.confusion_matrix(_ddf(empty, 1), truth="y", pred="p", by="g", client=client)
        )
        == single
    )
    single = _message(lambda: fe.ranking_report(empty, truth="y", score="s", by="g"))
    assert single[0] is EmptyFrameError
    assert (
        _message(
            lambda: fed.ranking_report(_ddf(empty, 1), truth="y", score="s", by="g", client=client)
        )
        == single
    )
