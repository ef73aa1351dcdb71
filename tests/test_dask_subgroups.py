"""frameeval.dask.subgroups (``fe.subgroups.by_group`` / ``gaps`` on a Dask DataFrame) on the
session's two-process LocalCluster against the single-machine functions.

The oracle is frameeval.subgroups on one machine (a ``pl.DataFrame`` of the same rows): counts,
labels and groups are identical; floats agree to 1e-12 (bit-identical on the merged-count path;
on the shuffle path a group's rows reach its partition in another order).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import FrameEvalError, InvalidParameterError

dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")
feds = pytest.importorskip("frameeval.dask.subgroups")

#: one LocalCluster per test session (tests/conftest.py), on one xdist worker
pytestmark = pytest.mark.xdist_group("dask")


def _rows(seed: int, n: int = 400) -> pl.DataFrame:
    """Two data sets × two models, two sensitive columns (3 × 2 groups, one rare), labels,
    predictions correlated with them, scores, weights and a row id."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    race = rng.choice(["a", "b", "c"], n, p=[0.6, 0.37, 0.03])
    return pl.DataFrame(
        {
            "data": rng.choice(["d1", "d2"], n),
            "model": rng.choice(["m1", "m2"], n),
            "race": race,
            "sex": rng.choice(["F", "M"], n),
            "y": y,
            "p": np.where(rng.random(n) < 0.75, y, 1 - y),
            "s": (y * 0.3 + rng.random(n)).round(2),
            "w": rng.integers(1, 4, n).astype(float),
            "id": np.arange(n),
        }
    )


def _ddf(df: pl.DataFrame, npartitions: int = 4) -> Any:
    return dd.from_pandas(df.to_pandas(use_pyarrow_extension_array=True), npartitions=npartitions)


def _assert_equal(got: pl.DataFrame, expected: pl.DataFrame, exact: bool = False) -> None:
    floats = [c for c, t in expected.schema.items() if t == pl.Float64]
    assert_frame_equal(got.drop(floats), expected.drop(floats), check_exact=True)
    assert_frame_equal(
        got.select(floats), expected.select(floats), check_exact=exact, rel_tol=1e-12, abs_tol=1e-12
    )


CASES = {
    # merged counts: label measures, unweighted, no ci
    "counts": ({"by": ["data", "model"], "measures": None}, True),
    "counts-criteria": (
        {
            "by": "model",
            "sensitive": ["race", "sex"],
            "control": "data",
            "measures": ["demographic_parity", "equalized_odds", "accuracy"],
        },
        True,
    ),
    "counts-one-group": ({"measures": ["recall", "precision", "f1"]}, True),
    # shuffled by the keys
    "score": ({"by": "model", "score": "s", "measures": ["roc_auc", "accuracy"]}, False),
    "weighted": ({"by": ["data", "model"], "weight": "w"}, False),
    "score-one-group": ({"score": "s", "measures": ["roc_auc"]}, False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_by_group_and_gaps_equal_single_machine(
    client: Any, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kwargs, exact = CASES[case]
    if exact:  # the merged-count path: no row is shuffled

        def refuse(*_: Any) -> None:
            raise AssertionError("the counted path must not shuffle")

        monkeypatch.setattr(feds, "_shuffled", refuse)
    kwargs = {"sensitive": "race", **kwargs}
    df = _rows(sum(map(ord, case)))
    ddf = _ddf(df)
    for name in ("by_group", "gaps"):  # loop-ok: the two functions
        single = getattr(fe.subgroups, name)(df, "y", "p", **kwargs)
        got = getattr(feds, name)(ddf, "y", "p", **kwargs, client=client, split_every=2)
        _assert_equal(got, single, exact)
        assert got.height > 0


def test_fe_subgroups_hands_a_dask_frame_over(client: Any, tmp_path: Path) -> None:
    """``fe.subgroups.gaps(dask_df)`` / ``by_group(dask_df)`` run the Dask forms (on the active
    client); the Dask forms read Parquet paths too."""
    df = _rows(7)
    kwargs = {"sensitive": "sex", "by": "model", "measures": ["equal_opportunity"]}
    _assert_equal(
        fe.subgroups.gaps(_ddf(df), "y", "p", **kwargs), fe.subgroups.gaps(df, "y", "p", **kwargs)
    )
    _assert_equal(
        fe.subgroups.by_group(_ddf(df), "y", "p", **kwargs),
        fe.subgroups.by_group(df, "y", "p", **kwargs),
    )
    paths = []
    for i, part in enumerate(df.iter_slices(150)):  # loop-ok: writing test files
        paths.append(tmp_path / f"part{i}.parquet")
        part.write_parquet(paths[-1])
    got = feds.gaps([str(p) for p in paths], "y", "p", **kwargs, client=client)
    _assert_equal(got, fe.subgroups.gaps(df, "y", "p", **kwargs), exact=True)


def test_intervals_with_instance_equal_single_machine(client: Any) -> None:
    """gaps(ci=, instance=): the draws hash the instance's rank, so the cluster's replicates are
    one machine's; by_group(ci=) for shares of counts: Wilson intervals of the counts."""
    df = _rows(11, n=200)
    kwargs = {"sensitive": "sex", "by": "model", "measures": ["recall", "demographic_parity"]}
    ci = {"ci": 0.9, "n_resamples": 20, "seed": 3}
    single = fe.subgroups.gaps(df, "y", "p", **kwargs, **ci, instance="id")
    got = feds.gaps(_ddf(df), "y", "p", **kwargs, **ci, instance="id", client=client)
    _assert_equal(got, single)
    single = fe.subgroups.by_group(df, "y", "p", **kwargs, ci=0.9)
    _assert_equal(feds.by_group(_ddf(df), "y", "p", **kwargs, ci=0.9, client=client), single)


def test_intervals_that_depend_on_the_partitioning_are_refused(client: Any) -> None:
    ddf = _ddf(_rows(12, n=40))
    with pytest.raises(InvalidParameterError, match=r"gaps\(\): instance= must name"):
        feds.gaps(ddf, "y", "p", sensitive="sex", ci=0.9, client=client)
    with pytest.raises(InvalidParameterError, match=r"by_group\(\): ci= on Dask.*roc_auc"):
        feds.by_group(ddf, "y", "p", "s", sensitive="sex", measures=["roc_auc"], ci=0.9)


@pytest.mark.parametrize("measures", [None, ["roc_auc"]])
def test_errors_match_single_machine(client: Any, measures: Any) -> None:
    """A null sensitive value (counted path and shuffled path), a missing column and a bad
    parameter raise the single-machine error, with its message."""
    df = _rows(13, n=60).with_columns(
        pl.when(pl.col("id") == 17).then(None).otherwise(pl.col("race")).alias("race")
    )
    kwargs = {"sensitive": "race", "by": "model", "measures": measures, "score": "s"}
    for name in ("by_group", "gaps"):  # loop-ok: the two functions
        with pytest.raises(FrameEvalError) as one:
            getattr(fe.subgroups, name)(df, "y", "p", **kwargs)
        with pytest.raises(type(one.value)) as many:
            getattr(feds, name)(_ddf(df), "y", "p", **kwargs, client=client)
        assert str(many.value) == str(one.value)
    for bad in ({"sensitive": "nope"}, {"sensitive": "race", "measures": ["nope"]}):
        with pytest.raises(FrameEvalError) as one:
            fe.subgroups.gaps(df, "y", "p", **bad)
        with pytest.raises(type(one.value)) as many:
            feds.gaps(_ddf(df), "y", "p", **bad, client=client)
        assert str(many.value) == str(one.value)
