"""frameeval.dask.items (``fe.items.means`` / ``fe.items.compare`` on a Dask DataFrame) on the
session's two-process LocalCluster against the single-machine functions.

The oracle is frameeval.items on one machine (a ``pl.DataFrame`` of the same rows): counts,
labels and the chosen method are identical; floats agree to 1e-12 (a group's rows reach its
partition in another order, so float sums can differ in the last bit). ``compare``'s
``p_adjusted`` is over all pairs × benchmarks, so it also checks that the family is whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import ColumnNotFoundError, FrameEvalError, InvalidParameterError

dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")
fedi = pytest.importorskip("frameeval.dask.items")

#: one LocalCluster per test session (tests/conftest.py), on one xdist worker
pytestmark = pytest.mark.xdist_group("dask")


def _items(seed: int, *, binary: bool = False, samples: int = 1) -> pl.DataFrame:
    """Three benchmarks (3, 4 and 2 models; 12–30 items in 3–6 clusters), every model on every
    item of its benchmark, ``samples`` answers per item; the rows shuffled."""
    rng = np.random.default_rng(seed)
    frames = []
    for bench, k, n, c in [("b1", 3, 30, 6), ("b2", 4, 20, 5), ("b3", 2, 12, 3)]:
        skill = rng.normal(0.0, 0.3, k)
        difficulty = rng.normal(0.0, 1.0, n)
        for m in range(k):  # loop-ok: building test data
            for s in range(samples):  # loop-ok: building test data
                logit = skill[m] - difficulty + rng.normal(0.0, 0.5, n)
                p = 1.0 / (1.0 + np.exp(-logit))
                score = (rng.random(n) < p).astype(float) if binary else p.round(3)
                frames.append(
                    pl.DataFrame(
                        {
                            "bench": bench,
                            "model": f"m{m}",
                            "item": np.arange(n),
                            "cluster": np.arange(n) % c,
                            "sample": s,
                            "score": score,
                        }
                    )
                )
    df = pl.concat(frames)
    return df.sample(fraction=1.0, shuffle=True, seed=seed)


def _ddf(df: pl.DataFrame, npartitions: int = 3) -> Any:
    return dd.from_pandas(df.to_pandas(use_pyarrow_extension_array=True), npartitions=npartitions)


def _assert_equal(got: pl.DataFrame, expected: pl.DataFrame) -> None:
    floats = [c for c, t in expected.schema.items() if t == pl.Float64]
    assert_frame_equal(got.drop(floats), expected.drop(floats), check_exact=True)
    assert_frame_equal(
        got.select(floats), expected.select(floats), check_exact=False, rel_tol=1e-12, abs_tol=1e-12
    )


MEANS = {
    "clustered": (1, {}, {"by": "bench", "cluster": "cluster"}),
    "clt": (2, {}, {"by": "bench", "method": "clt", "level": 0.9}),
    "wilson-auto": (3, {"binary": True}, {"by": "bench"}),
    "one-group": (4, {}, {"cluster": "cluster"}),
    "samples": (5, {"samples": 3}, {"by": ["bench"], "sample": "sample", "at_samples": 10}),
    "bootstrap": (6, {}, {"by": "bench", "cluster": "cluster", "method": "bootstrap"}),
}


@pytest.mark.parametrize("case", list(MEANS))
def test_means_equals_single_machine(client: Any, case: str) -> None:
    seed, shape, kwargs = MEANS[case]
    df = _items(seed, **shape)
    if "by" not in kwargs:
        df = df.filter(pl.col("bench") == "b1")
    if kwargs.get("method") == "bootstrap":
        kwargs = {**kwargs, "n_resamples": 50, "seed": 3}
    got = fedi.means(_ddf(df), "score", **kwargs, client=client)
    expected = fe.items.means(df, "score", **kwargs)
    _assert_equal(got, expected)


COMPARE = {
    "holm": (1, {}, {"by": "bench"}),
    "shaffer-clustered": (2, {}, {"by": "bench", "cluster": "cluster", "adjust": "shaffer"}),
    "bh-mcnemar": (3, {"binary": True}, {"by": "bench", "adjust": "bh", "alpha": 0.1}),
    "none": (4, {}, {"by": "bench", "adjust": None}),
    "one-group-samples": (5, {"samples": 2}, {"sample": "sample"}),
}


@pytest.mark.parametrize("case", list(COMPARE))
def test_compare_equals_single_machine(client: Any, case: str) -> None:
    seed, shape, kwargs = COMPARE[case]
    df = _items(seed, **shape)
    if "by" not in kwargs:
        df = df.filter(pl.col("bench") == "b2")
    got = fedi.compare(_ddf(df), "score", **kwargs, client=client)
    expected = fe.items.compare(df, "score", **kwargs)
    _assert_equal(got, expected)
    if kwargs.get("adjust", "holm") is not None:
        # the family is all pairs × benchmarks: per-benchmark adjustment would differ
        assert got["p_adjusted"].to_list() != got["p_value"].to_list()


def test_fe_items_hands_a_dask_frame_to_the_dask_forms(client: Any) -> None:
    """``fe.items.means`` / ``compare`` on a Dask DataFrame run the Dask forms (on the active
    client) and give the single-machine frames."""
    df = _items(7)
    ddf = _ddf(df)
    _assert_equal(
        fe.items.means(ddf, "score", by="bench", cluster="cluster"),
        fe.items.means(df, "score", by="bench", cluster="cluster"),
    )
    _assert_equal(
        fe.items.compare(ddf, "score", by="bench", adjust="shaffer"),
        fe.items.compare(df, "score", by="bench", adjust="shaffer"),
    )


def test_parquet_paths(client: Any, tmp_path: Path) -> None:
    df = _items(8)
    paths = []
    for i, part in enumerate(df.iter_slices(100)):  # loop-ok: writing test files
        path = tmp_path / f"part-{i}.parquet"
        part.write_parquet(path)
        paths.append(str(path))
    _assert_equal(
        fedi.compare(paths, "score", by="bench", client=client),
        fe.items.compare(df, "score", by="bench"),
    )


def _error(call: Any) -> FrameEvalError:
    with pytest.raises(FrameEvalError) as info:
        call()
    return info.value


@pytest.mark.parametrize(
    ("func", "mutate", "kwargs"),
    [
        ("means", lambda df: df, {"by": "bench", "cluster": "nope"}),
        ("means", lambda df: df, {"by": "bench", "method": "nope"}),
        ("compare", lambda df: df, {"by": "bench", "adjust": "nope"}),
        (
            "means",
            lambda df: df.with_columns(
                pl.when(
                    (pl.col("bench") == "b2") & (pl.col("item") == 3) & (pl.col("model") == "m1")
                )
                .then(None)
                .otherwise(pl.col("score"))
                .alias("score")
            ),
            {"by": "bench"},
        ),
        (
            "compare",
            lambda df: df.filter(
                ~((pl.col("bench") == "b3") & (pl.col("item") == 5) & (pl.col("model") == "m0"))
            ),
            {"by": "bench"},
        ),
    ],
    ids=["missing-column", "bad-method", "bad-adjust", "null-score", "unpaired-item"],
)
def test_bad_input_gives_the_single_machine_error(
    client: Any, func: str, mutate: Any, kwargs: dict[str, Any]
) -> None:
    df = mutate(_items(9))
    got = _error(lambda: getattr(fedi, func)(_ddf(df), "score", **kwargs, client=client))
    expected = _error(lambda: getattr(fe.items, func)(df, "score", **kwargs))
    assert type(got) is type(expected)
    assert str(got) == str(expected)


def test_the_typed_errors_of_the_schema_checks() -> None:
    """Schema and parameter errors are raised before any data is read (no client needed)."""
    ddf = _ddf(_items(10))
    with pytest.raises(ColumnNotFoundError):
        fedi.means(ddf, "nope")
    with pytest.raises(InvalidParameterError):
        fedi.compare(ddf, "score", alpha=2.0)
