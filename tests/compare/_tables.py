"""Hypothesis strategies and reshaping helpers for the comparison-test suites.

The tables are long frames ``g, block, learner, value`` (several groups ``g``) — the shape the
tests take — and :func:`matrix` turns one group back into the N × k matrix the oracles want.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import strategies as st

LEARNERS = ["A", "B", "C", "D", "E"]


@st.composite
def metric_tables(
    draw,
    *,
    ties: bool = True,
    k_range: tuple[int, int] = (2, 5),
    n_range: tuple[int, int] = (2, 7),
    groups: tuple[int, int] = (1, 3),
) -> pl.DataFrame:
    """Complete block × learner tables, one per group. With ``ties=False`` every block holds
    distinct values (a random ranking); otherwise values come from a 5-point grid."""
    frames = []
    for g in range(draw(st.integers(*groups))):
        k = draw(st.integers(*k_range))
        n = draw(st.integers(*n_range))
        rows = []
        for block in range(n):
            if ties:
                values = draw(st.lists(st.integers(0, 4), min_size=k, max_size=k))
                values = [v / 4 for v in values]
            else:
                order = draw(st.permutations(list(range(k))))
                offset = draw(st.integers(0, 3))
                values = [0.1 * v + 0.01 * offset for v in order]
            rows += [(g, f"d{block}", LEARNERS[j], values[j]) for j in range(k)]
        frames.append(pl.DataFrame(rows, schema=["g", "block", "learner", "value"], orient="row"))
    return pl.concat(frames)


def matrix(part: pl.DataFrame, value: str = "value") -> tuple[np.ndarray, list[str]]:
    """One group's long table as an (N blocks × k learners) matrix, learners sorted."""
    wide = part.pivot(on="learner", index="block", values=value).sort("block")
    learners = sorted(c for c in wide.columns if c != "block")
    return wide.select(learners).to_numpy().astype(float), learners


@st.composite
def paired_samples(draw, *, pairs: tuple[int, int] = (2, 8), groups: tuple[int, int] = (1, 3)):
    """Long ``g, fold, learner, value`` frames for learners A and B with k folds per group;
    values on a 1/100 grid, and at least two distinct differences per group."""
    frames = []
    for g in range(draw(st.integers(*groups))):
        k = draw(st.integers(*pairs))
        a = draw(st.lists(st.integers(0, 100), min_size=k, max_size=k))
        b = draw(st.lists(st.integers(0, 100), min_size=k, max_size=k))
        if len({x - y for x, y in zip(a, b, strict=True)}) < 2:
            b[0] += 1
        rows = [(g, i, "A", a[i] / 100) for i in range(k)]
        rows += [(g, i, "B", b[i] / 100) for i in range(k)]
        frames.append(pl.DataFrame(rows, schema=["g", "fold", "learner", "value"], orient="row"))
    return pl.concat(frames)


def shuffled(df: pl.DataFrame, seed: int = 7) -> pl.DataFrame:
    return df.sample(fraction=1.0, shuffle=True, seed=seed)


def assert_frames_close(actual: pl.DataFrame, expected: pl.DataFrame, tol: float = 1e-12) -> None:
    """Same columns, dtypes and non-float values; float columns equal within ``tol`` (a different
    row order may change float sums in the last bits), nulls in the same places."""
    assert actual.columns == expected.columns
    assert actual.schema == expected.schema
    assert actual.height == expected.height
    for name, dtype in actual.schema.items():
        if dtype.is_float():
            a, e = actual[name], expected[name]
            assert a.is_null().to_list() == e.is_null().to_list(), name
            a, e = a.drop_nulls().to_numpy(), e.drop_nulls().to_numpy()
            np.testing.assert_allclose(a, e, rtol=tol, atol=tol, err_msg=name)
        else:
            assert actual[name].to_list() == expected[name].to_list(), name
