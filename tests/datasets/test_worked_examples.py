"""The made-up worked-example tables of ``fe.datasets`` (frameeval/datasets/__init__.py) are what
their docstrings say: columns, dtypes, values and the facts stated about them, each computed here
in plain Python; the lazy form is the same table."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl
import pytest

import frameeval as fe

D = fe.datasets

TABLES: dict[str, tuple[Callable[..., pl.DataFrame | pl.LazyFrame], dict[str, pl.DataType]]] = {
    "block_error_rates": (
        D.block_error_rates,
        {"block": pl.String(), "learner": pl.String(), "error_rate": pl.Float64()},
    ),
    "paired_accuracies": (
        D.paired_accuracies,
        {"block": pl.String(), "learner": pl.String(), "accuracy": pl.Float64()},
    ),
    "binary_scores": (D.binary_scores, {"y": pl.Int64(), "s": pl.Float64()}),
    "interval_forecasts": (
        D.interval_forecasts,
        {"y": pl.Float64(), "lo": pl.Float64(), "hi": pl.Float64()},
    ),
    "quantile_forecasts": (
        D.quantile_forecasts,
        {"id": pl.Int64(), "y": pl.Float64(), "q": pl.Float64(), "f": pl.Float64()},
    ),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_schema_public_name_and_lazy_form(name: str) -> None:
    make, schema = TABLES[name]
    eager = make()
    assert isinstance(eager, pl.DataFrame)
    assert dict(eager.schema) == schema
    lazy = make(lazy=True)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    assert name in D.__all__ and f"``{name}()``" in (D.__doc__ or "")
    assert make() is not eager  # a fresh table each call: a caller may change it


def _cells(df: pl.DataFrame, value: str) -> dict[tuple[str, str], float]:
    return {(b, a): v for b, a, v in df.select("block", "learner", value).rows()}


def test_block_error_rates_ranks_and_friedman_statistic() -> None:
    cells = _cells(D.block_error_rates(), "error_rate")
    blocks, learners = sorted({b for b, _ in cells}), sorted({a for _, a in cells})
    assert (blocks, learners, len(cells)) == (["1", "2", "3", "4"], ["A", "B", "C"], 12)
    rows = [[cells[b, a] for a in learners] for b in blocks]
    assert rows == [[0.1, 0.2, 0.3], [0.1, 0.3, 0.2], [0.2, 0.1, 0.3], [0.1, 0.2, 0.3]]
    # lower error is better, no ties in a block: rank = 1 + the number of smaller values
    ranks = [[1 + sum(x < v for x in row) for v in row] for row in rows]
    mean = [sum(r[j] for r in ranks) / len(blocks) for j in range(3)]
    assert mean == [1.25, 2.0, 2.75]
    assert sum(r[0] == 1 for r in ranks) == 3  # A first on three blocks
    n, k = len(blocks), len(learners)
    chi2 = 12 * n / (k * (k + 1)) * (sum(m * m for m in mean) - k * (k + 1) ** 2 / 4)
    assert chi2 == pytest.approx(4.5, abs=1e-12)


def test_paired_accuracies_a_wins_every_block() -> None:
    cells = _cells(D.paired_accuracies(), "accuracy")
    blocks = [f"d{i}" for i in range(6)]
    assert sorted({b for b, _ in cells}) == blocks and len(cells) == 12
    gaps = [cells[b, "A"] - cells[b, "B"] for b in blocks]
    assert gaps == pytest.approx([0.01, 0.02, 0.03, 0.04, 0.05, 0.06], abs=1e-12)


def test_binary_scores_tie_and_auc() -> None:
    df = D.binary_scores()
    y, s = df["y"].to_list(), df["s"].to_list()
    assert s == sorted(s, reverse=True) and (sum(y), len(y)) == (3, 6)
    pos = [v for t, v in zip(y, s, strict=True) if t == 1]
    neg = [v for t, v in zip(y, s, strict=True) if t == 0]
    assert set(pos) & set(neg) == {0.8}  # one positive-negative tie
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    assert wins / (len(pos) * len(neg)) == pytest.approx(5 / 6, abs=1e-12)


def test_interval_forecasts_coverage_misses_and_width() -> None:
    rows = D.interval_forecasts().rows()
    assert all(lo <= hi for _, lo, hi in rows)
    inside = [i + 1 for i, (y, lo, hi) in enumerate(rows) if lo <= y <= hi]
    below = [i + 1 for i, (y, lo, _) in enumerate(rows) if y < lo]
    above = [i + 1 for i, (y, _, hi) in enumerate(rows) if y > hi]
    assert (inside, below, above) == ([1, 3, 4], [2, 6], [5])
    width = sum(hi - lo for _, lo, hi in rows) / len(rows)
    assert width == pytest.approx(13 / 12, abs=1e-12)


def test_quantile_forecasts_long_format() -> None:
    rows = D.quantile_forecasts().rows()
    by_id: dict[int, list[tuple[float, float, float]]] = {}
    for i, y, q, f in rows:
        by_id.setdefault(i, []).append((y, q, f))
    assert sorted(by_id) == [1, 2]
    for i, truth, forecasts in [(1, 3.0, [1.0, 2.0, 4.0]), (2, 5.0, [4.0, 6.0, 9.0])]:
        assert [y for y, _, _ in by_id[i]] == [truth] * 3
        assert [q for _, q, _ in by_id[i]] == [0.1, 0.5, 0.9]
        assert [f for _, _, f in by_id[i]] == forecasts
