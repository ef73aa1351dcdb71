"""Tests of frameeval.compare.mcnemar: contingency_table (Table 2.4) and mcnemar (eq 2.33).

Oracles: mlxtend's mcnemar_table / mcnemar and statsmodels' mcnemar, per group.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mlxtend.evaluate import mcnemar as mlx_mcnemar
from mlxtend.evaluate import mcnemar_table
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

import frameeval as fe
from frameeval.exceptions import (
    DuplicateKeyError,
    InsufficientDataError,
    InvalidValueError,
    MissingValueError,
)
from tests.compare._tables import shuffled
from tests.helpers.oracle import assert_close


@st.composite
def prediction_pairs(draw):
    """Long frames ``g, instance, learner, y, p`` for learners A and B (and a C to ignore)."""
    frames = []
    for g in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 40))
        y = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
        for learner in ("A", "B", "C"):
            p = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
            frames.append(
                pl.DataFrame(
                    {"g": g, "instance": list(range(n)), "learner": learner, "y": y, "p": p}
                )
            )
    return pl.concat(frames)


def arrays(part: pl.DataFrame):
    a = part.filter(pl.col("learner") == "A").sort("instance")
    b = part.filter(pl.col("learner") == "B").sort("instance")
    return a["y"].to_numpy(), a["p"].to_numpy(), b["p"].to_numpy()


@given(df=prediction_pairs())
def test_contingency_table_matches_mlxtend(df):
    """mlxtend's table with model 1 = B and model 2 = A is the book's Table 2.4: rows B
    correct / wrong, columns A correct / wrong."""
    out = fe.contingency_table(df, "y", "p", a="A", b="B", by="g")
    assert out["cell"].to_list() == ["e00", "e01", "e10", "e11"] * df["g"].n_unique()
    for (g,), part in df.partition_by("g", as_dict=True).items():
        y, pa, pb = arrays(part)
        table = mcnemar_table(y_target=y, y_model1=pb, y_model2=pa)
        mine = out.filter(pl.col("g") == g)
        assert mine["count"].to_list() == table.ravel().tolist()
        assert mine["count"].sum() == y.size
        assert mine["b_correct"].to_list() == [True, True, False, False]
        assert mine["a_correct"].to_list() == [True, False, True, False]
    assert fe.contingency_table(shuffled(df), "y", "p", a="A", b="B", by="g").equals(out)


@given(df=prediction_pairs(), exact=st.booleans(), alpha=st.sampled_from([0.05, 0.1]))
def test_mcnemar_matches_statsmodels_and_mlxtend(df, exact, alpha):
    out = fe.mcnemar(df, "y", "p", a="A", b="B", by="g", exact=exact, alpha=alpha)
    assert out["g"].to_list() == sorted(df["g"].unique().to_list())
    for row, ((_,), part) in zip(
        out.iter_rows(named=True), sorted(df.partition_by("g", as_dict=True).items()), strict=True
    ):
        y, pa, pb = arrays(part)
        table = mcnemar_table(y_target=y, y_model1=pb, y_model2=pa)
        assert [row[c] for c in ("e00", "e01", "e10", "e11")] == table.ravel().tolist()
        disagreements = table[0, 1] + table[1, 0]
        if not exact and disagreements == 0:
            assert row["statistic"] is None and row["p_value"] is None and row["reject"] is None
            continue
        reference = sm_mcnemar(table, exact=exact, correction=True)
        _, mlx_p = mlx_mcnemar(table, exact=exact, corrected=True)
        assert_close(row["statistic"], reference.statistic, 1e-12)
        assert_close(row["p_value"], reference.pvalue, 1e-9)
        assert_close(row["p_value"], mlx_p, 1e-9)
        assert row["reject"] == (reference.pvalue < alpha)
        assert row["df"] == (None if exact else 1)
        if row["reject"]:
            assert row["better"] == ("A" if table[0, 1] < table[1, 0] else "B")
        else:
            assert row["better"] is None


def test_mcnemar_critical_values_from_the_notes():
    """Notes (shared/seeds/001 and 003): the χ² critical value with 1 df is 3.8415 at
    α = 0.05 and 2.7055 at α = 0.1."""
    df = pl.DataFrame(
        {
            "learner": ["A"] * 3 + ["B"] * 3,
            "instance": [1, 2, 3] * 2,
            "y": [1] * 6,
            "p": [1, 0, 1, 0, 0, 1],
        }
    )
    for alpha, notes in ((0.05, 3.8415), (0.1, 2.7055)):
        out = fe.mcnemar(df, "y", "p", a="A", b="B", alpha=alpha)
        assert out["critical_value"].item() == pytest.approx(notes, abs=1e-4)


def test_mcnemar_exact_critical_value_is_the_largest_rejecting_count():
    """Exact form: with e01 + e10 = 20, 2 P(X ≤ 5) = 0.041 < 0.05 ≤ 2 P(X ≤ 6) = 0.115."""
    from scipy import stats

    rows = []
    for i in range(20):  # A wrong on 15 of the 20 disagreements, B wrong on 5
        a_ok, b_ok = (i >= 15), (i < 15)
        rows += [("A", i, 1, int(a_ok)), ("B", i, 1, int(b_ok))]
    df = pl.DataFrame(rows, schema=["learner", "instance", "y", "p"], orient="row")
    out = fe.mcnemar(df, "y", "p", a="A", b="B", exact=True).row(0, named=True)
    assert (out["e01"], out["e10"]) == (15, 5)
    assert out["statistic"] == 5 and out["critical_value"] == 5
    assert 2 * stats.binom.cdf(5, 20, 0.5) < 0.05 <= 2 * stats.binom.cdf(6, 20, 0.5)
    assert out["reject"] is True and out["better"] == "B"
    small = fe.mcnemar(df.filter(pl.col("instance") < 4), "y", "p", a="A", b="B", exact=True)
    assert small["critical_value"].item() is None and small["reject"].item() is False


def test_mcnemar_pairing_checks():
    df = pl.DataFrame(
        {
            "learner": ["A", "A", "B", "B"],
            "instance": [1, 2, 1, 2],
            "y": [1, 0, 1, 0],
            "p": [1, 1, 0, 0],
        }
    )
    kw = {"a": "A", "b": "B"}
    dup = pl.concat([df, df.head(1)])
    with pytest.raises(
        DuplicateKeyError,
        match=r"mcnemar\(\): rows must be unique per "
        r"\['instance', 'learner'\] \(one prediction per learner and instance\), "
        r"got 2 rows for instance=1, learner=A\.",
    ):
        fe.mcnemar(dup, "y", "p", **kw)
    with pytest.raises(
        InsufficientDataError,
        match=r"must both have a value for every instance, "
        r"got 1 missing: instance=2 has no value for b='B'\.",
    ):
        fe.mcnemar(df.head(3), "y", "p", **kw)
    other = df.with_columns(
        pl.when(pl.col("learner") == "B").then(1 - pl.col("y")).otherwise("y").alias("y")
    )
    with pytest.raises(
        InvalidValueError,
        match=r"column 'y' \(truth=\) must be the same for both "
        r"learners of an instance, got 2 different values for instance=1\.",
    ):
        fe.mcnemar(other, "y", "p", **kw)
    with pytest.raises(
        MissingValueError,
        match=r"column 'instance' \(instance=\) must not "
        r"contain nulls, got null\.",
    ):
        fe.mcnemar(df.with_columns(instance=pl.lit(None, pl.Int64)), "y", "p", **kw)
