"""Binary proper scoring rules (frameeval.metrics.probability) against scikit-learn, grouped.
Row order, lazy = eager, ``.over`` and integer weights = repeated rows are checked for every
registered measure by tests/metrics/test_properties.py (kind ``probability``).

Oracle: scikit-learn 1.9 ``log_loss(y, p, labels=[0, 1], sample_weight=w)`` and
``brier_score_loss(y, p, pos_label=1, sample_weight=w)`` on each ``partition_by`` part, compared
with the expression inside ``group_by().agg()``; tolerance 1e-9. Probabilities are drawn from a
few values including 0 and 1 (so log loss clips at eps), groups of one row and one class occur,
and weights include zeros. A group whose weights sum to 0 is null here (scikit-learn raises).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import brier_score_loss
from sklearn.metrics import log_loss as sk_log_loss

import frameeval as fe
from frameeval.exceptions import (
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    NegativeValueError,
)
from frameeval.metrics.probability import (
    EPS,
    brier_terms,
    log_loss_terms,
    loss_statistics,
    mean_loss_value,
)
from tests.helpers.oracle import assert_close

MEASURES = {"log_loss": fe.log_loss, "brier_score": fe.brier_score}


@st.composite
def probability_frames(draw, max_groups: int = 3, max_rows: int = 12):
    """Columns g (Int64), y (Int64 0/1), p (Float64 in [0, 1], ties, 0 and 1), w (Float64)."""
    weighted = draw(st.sampled_from(["none", "int", "float"]))
    g, y, p, w = [], [], [], []
    for group in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_rows))
        truth = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        if draw(st.booleans()):
            truth = [truth[0]] * n
        values = draw(
            st.lists(
                st.one_of(st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]), st.floats(0.0, 1.0)),
                min_size=n,
                max_size=n,
            )
        )
        if weighted == "none":
            weights = [1.0] * n
        elif weighted == "int":
            weights = [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))]
        else:
            weights = draw(
                st.lists(st.one_of(st.just(0.0), st.floats(0.01, 10.0)), min_size=n, max_size=n)
            )
        g += [group] * n
        y += truth
        p += values
        w += weights
    return pl.DataFrame({"g": g, "y": y, "p": p, "w": w})


def _oracle(part: pl.DataFrame, weighted: bool) -> dict[str, float | None]:
    y, p, w = part["y"].to_numpy(), part["p"].to_numpy(), part["w"].to_numpy()
    sw = w if weighted else None
    if weighted and w.sum() == 0:
        return {"log_loss": None, "brier_score": None}
    return {
        "log_loss": sk_log_loss(y, p, labels=[0, 1], sample_weight=sw),
        "brier_score": brier_score_loss(y, p, pos_label=1, sample_weight=sw),
    }


@pytest.mark.parametrize("weighted", [False, True])
@given(df=probability_frames())
def test_grouped_equals_scikit_learn(df: pl.DataFrame, weighted: bool) -> None:
    weight = "w" if weighted else None
    out = (
        df.group_by("g")
        .agg(fe.log_loss("y", "p", weight=weight), fe.brier_score("y", "p", weight=weight))
        .sort("g")
    )
    for row in out.iter_rows(named=True):
        expected = _oracle(df.filter(pl.col("g") == row["g"]), weighted)
        for name in MEASURES:
            assert_close(row[name], expected[name])


def test_clipping_matches_scikit_learn_at_zero_and_one() -> None:
    """A certain, wrong prediction costs −log(eps) = 52·log 2 ≈ 36.04, as in scikit-learn."""
    df = pl.DataFrame({"y": [1, 0, 1, 0], "p": [0.0, 1.0, 1.0, 0.0]})
    value = df.select(fe.log_loss("y", "p")).item()
    assert value == pytest.approx(-math.log(EPS) / 2, abs=1e-12)
    assert_close(value, sk_log_loss(df["y"], df["p"]), 1e-12)
    assert df.select(fe.log_loss("y", "p", eps=1e-3)).item() == pytest.approx(
        -math.log(1e-3) / 2 - math.log(1 - 1e-3) / 2, abs=1e-12
    )


def test_string_labels_and_pos_label() -> None:
    df = pl.DataFrame({"y": ["spam", "ham", "ham", "spam"], "p": [0.1, 0.9, 0.8, 0.3]})
    brier = df.select(fe.brier_score("y", "p", pos_label="ham")).item()
    assert brier == pytest.approx(0.0375, abs=1e-12)  # scikit-learn's docstring example


def test_zero_total_weight_is_null() -> None:
    df = pl.DataFrame({"y": [1, 0], "p": [0.2, 0.4], "w": [0.0, 0.0]})
    out = df.select(fe.log_loss("y", "p", weight="w"), fe.brier_score("y", "p", weight="w"))
    assert out.row(0) == (None, None)


def test_pieces_compose_to_the_measure() -> None:
    """The pieces a Measure declaration reuses: per-row terms → (Σ w·loss, Σ w) → formula."""
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [0.9, 0.2, 0.7, 0.6, 0.4, 0.1]})
    for name, terms in (
        ("log_loss", log_loss_terms("y", "p")),
        ("brier_score", brier_terms("y", "p")),
    ):
        loss_sum, weight_sum = loss_statistics(terms, None)
        value = df.select(mean_loss_value(loss_sum, weight_sum)).item()
        assert value == df.select(MEASURES[name]("y", "p")).item()


@pytest.mark.parametrize("name", list(MEASURES))
@pytest.mark.parametrize(
    ("column", "value", "error", "text"),
    [
        ("y", None, MissingValueError, r"column 'y' \(truth=\) must not contain nulls, got null"),
        ("p", None, MissingValueError, r"column 'p' \(score=\) must not contain nulls"),
        (
            "p",
            float("nan"),
            MissingValueError,
            r"column 'p' \(score=\) must not contain NaN, got NaN",
        ),
        (
            "p",
            float("inf"),
            MissingValueError,
            r"column 'p' \(score=\) must be finite, got inf or -inf",
        ),
        (
            "p",
            1.5,
            InvalidValueError,
            r"column 'p' \(score=\) must be a probability in \[0, 1\], got 1\.5",
        ),
        (
            "p",
            -0.1,
            InvalidValueError,
            r"column 'p' \(score=\) must be a probability in \[0, 1\], got -0\.1",
        ),
        ("w", -1.0, NegativeValueError, r"column 'w' \(weight=\) must be >= 0, got -1\.0"),
    ],
    ids=["null-truth", "null-score", "nan-score", "inf-score", "above-1", "below-0", "neg-weight"],
)
def test_invalid_values_raise(name, column, value, error, text) -> None:
    df = pl.DataFrame({"y": [1.0, 0.0, 1.0], "p": [0.5, 0.2, 0.1], "w": [1.0, 1.0, 2.0]})
    df = df.with_columns(pl.Series(column, [1.0, value, 0.0], dtype=pl.Float64))
    lazy = df.lazy().group_by("y").agg(MEASURES[name]("y", "p", weight="w"))
    with pytest.raises(error, match=rf"^{name}\(\): {text}"):
        fe.collect(lazy)


@pytest.mark.parametrize("eps", [0.0, 0.5, -1e-3, float("nan"), True])
def test_eps_must_be_in_open_interval(eps) -> None:
    with pytest.raises(InvalidParameterError, match=r"^log_loss\(\): eps must be a number in"):
        fe.log_loss("y", "p", eps=eps)


def test_against_numpy_formula() -> None:
    """A direct hand computation, independent of scikit-learn."""
    y = np.array([1, 0, 1, 1, 0, 0])
    p = np.array([0.9, 0.2, 0.7, 0.6, 0.4, 0.1])
    w = np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0])
    df = pl.DataFrame({"y": y, "p": p, "w": w})
    loss = -(w * (y * np.log(p) + (1 - y) * np.log(1 - p))).sum() / w.sum()
    brier = (w * (y - p) ** 2).sum() / w.sum()
    out = df.select(fe.log_loss("y", "p", weight="w"), fe.brier_score("y", "p", weight="w"))
    assert_close(out.row(0), [loss, brier], 1e-12)
