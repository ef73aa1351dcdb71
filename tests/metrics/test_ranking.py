"""Ranking measures of frameeval.metrics.ranking against scikit-learn, grouped, plus properties.
Row order, lazy = eager, ``.over``, grouped = each group alone and integer weights = repeated
rows are checked for every registered measure by tests/metrics/test_properties.py (kind
``score``), not repeated here.

Oracle: scikit-learn 1.9 (``roc_auc_score``, ``average_precision_score``,
``precision_recall_curve`` + ``auc``) on each ``partition_by`` part, compared with the expression
inside ``group_by().agg()``; tolerance 1e-9. Scores are drawn from a handful of values, so most
groups have heavy ties; groups of one row, one class and all-tied scores occur, and weights
include zeros.

Mapping of undefined values: where the group has no positive or no negative mass our AUC and
rank loss are null (scikit-learn raises, or returns NaN when a class is present with zero
weight); where it has no positive mass AP and the P-R area are null (scikit-learn warns and sets
recall to 1). scikit-learn drops zero-weight rows before building its curves; ours gives them no
point either.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import auc, average_precision_score, precision_recall_curve, roc_auc_score

import frameeval as fe
from frameeval.exceptions import InvalidParameterError, MissingValueError, NegativeValueError
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close

MEASURES = {
    "roc_auc": fe.roc_auc,
    "rank_loss": fe.rank_loss,
    "average_precision": fe.average_precision,
    "pr_auc": fe.pr_auc,
}
MODES = ["random", "random", "one_class", "tied", "separated"]


@st.composite
def score_frames(draw, weights: str = "any", max_groups: int = 3, max_rows: int = 12):
    """Columns g (Int64), y (Int64 0/1), s (Float64 from a few values: heavy ties), w (Float64).

    Per group a mode — random, one class, all scores tied, scores that separate the classes —
    and a size from 1. ``weights``: "none" (all 1), "int" (0..3), "float" (0 or (0, 10]), "any".
    """
    kind = draw(st.sampled_from(["none", "int", "float"])) if weights == "any" else weights
    g, y, s, w = [], [], [], []
    for group in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_rows))
        levels = draw(st.integers(1, 5))
        truth = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        score = [
            v / levels - 0.3 for v in draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))
        ]
        mode = draw(st.sampled_from(MODES))
        if mode == "one_class":
            truth = [truth[0]] * n
        elif mode == "tied":
            score = [score[0]] * n
        elif mode == "separated":
            score = [t + v for t, v in zip(truth, score, strict=True)]
        if kind == "none":
            weight = [1.0] * n
        elif kind == "int":
            weight = [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))]
        else:
            value = st.one_of(st.just(0.0), st.floats(0.01, 10.0))
            weight = draw(st.lists(value, min_size=n, max_size=n))
        g += [group] * n
        y += truth
        s += score
        w += weight
    return pl.DataFrame(
        {"g": g, "y": y, "s": s, "w": w},
        schema={"g": pl.Int64, "y": pl.Int64, "s": pl.Float64, "w": pl.Float64},
    )


def parts(df: pl.DataFrame):
    """(key, y, s, w) per group, sorted by key."""
    for part in sorted(df.partition_by("g"), key=lambda f: f["g"][0]):
        yield part["g"][0], part["y"].to_numpy(), part["s"].to_numpy(), part["w"].to_numpy()


def sk_measures(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> dict[str, float | None]:
    """scikit-learn's values, None where ours is undefined (see the module docstring)."""
    ww = np.ones(len(y)) if w is None else w
    w_pos, w_neg = ww[y == 1].sum(), ww[y != 1].sum()
    out: dict[str, float | None] = dict.fromkeys(MEASURES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if w_pos > 0 and w_neg > 0:
            out["roc_auc"] = roc_auc_score(y, s, sample_weight=w)
            out["rank_loss"] = 1.0 - out["roc_auc"]
        if w_pos > 0:
            out["average_precision"] = average_precision_score(y, s, sample_weight=w)
            precision, recall, _ = precision_recall_curve(y, s, sample_weight=w)
            out["pr_auc"] = auc(recall, precision)
    return out


def agg(df: pl.DataFrame, weight: str | None, **kw) -> pl.DataFrame:
    return (
        df.group_by("g").agg(m("y", "s", weight=weight, **kw) for m in MEASURES.values()).sort("g")
    )


# ---------------------------------------------------------------------------------------------
# oracle
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@given(df=score_frames())
def test_ranking_measures_match_sklearn(df: pl.DataFrame, weighted: bool) -> None:
    weight = "w" if weighted else None
    out = agg(df, weight)
    expected: dict[str, list] = {name: [] for name in MEASURES}
    for _, y, s, w in parts(df):
        for name, value in sk_measures(y, s, w if weighted else None).items():
            expected[name].append(value)
    for name, values in expected.items():
        try:
            assert_close(out[name].to_list(), values)
        except AssertionError as err:
            raise AssertionError(f"{name}: {err}") from None


def test_roc_auc_matches_sklearn_on_a_larger_tied_sample() -> None:
    """1,000 rows, 20 groups, scores rounded to one decimal: the rank path and the sorted path."""
    rng = np.random.default_rng(7)
    n = 1_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(y * 0.8, 1.0), 1)
    w = rng.integers(0, 4, n).astype(float)
    df = pl.DataFrame({"g": rng.integers(0, 20, n), "y": y, "s": s, "w": w})
    for weight in (None, "w"):
        out = agg(df, weight)
        for i, (_, yy, ss, ww) in enumerate(parts(df)):
            expected = sk_measures(yy, ss, ww if weight else None)
            for name in MEASURES:
                assert_close(out[name][i], expected[name])


# ---------------------------------------------------------------------------------------------
# golden values from the notes
# ---------------------------------------------------------------------------------------------
def test_rank_loss_of_the_tie_example_in_the_notes() -> None:
    """Notes 000 §2.3 "式(2.21)和式(2.22)的推导": the ranking + − + + − − + followed by one
    positive tied with four negatives. The positives have 0, 1, 1 and 3 negatives ranked above
    them; the tied positive has 3 above and 4 tied (area ④ = (3 + 4/2)·1/(m⁺m⁻)). With m⁺ = 5,
    m⁻ = 7: ℓ_rank = (0 + 1 + 1 + 3 + 5) / 35 = 2/7 and AUC = 5/7 (eq 2.22)."""
    order = "+-++--+"
    y = [int(c == "+") for c in order] + [1, 0, 0, 0, 0]
    s = [float(v) for v in range(12, 12 - len(order), -1)] + [1.0] * 5
    df = pl.DataFrame({"y": y, "s": s})
    out = df.select(fe.rank_loss("y", "s"), fe.roc_auc("y", "s"))
    assert_close(out["rank_loss"].item(), 10 / 35, 1e-12)
    assert_close(out["roc_auc"].item(), 5 / 7, 1e-12)
    # the tied block alone: one positive, four negatives sharing a score -> a diagonal, AUC = 1/2
    tied = pl.DataFrame({"y": [1, 0, 0, 0, 0], "s": [0.5] * 5})
    assert tied.select(fe.roc_auc("y", "s")).item() == 0.5


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------
@settings(max_examples=budget(20))
@given(df=score_frames())
def test_auc_plus_rank_loss_is_one_and_values_in_range(df: pl.DataFrame) -> None:
    for weight in (None, "w"):
        out = agg(df, weight)
        defined = out.filter(pl.col("roc_auc").is_not_null())
        assert defined["rank_loss"].null_count() == 0
        assert_close(
            (defined["roc_auc"] + defined["rank_loss"]).to_list(), [1.0] * defined.height, 1e-12
        )
        assert out["rank_loss"].is_null().sum() == out["roc_auc"].is_null().sum()
        for name in MEASURES:
            values = out[name].drop_nulls()
            assert ((values >= -1e-12) & (values <= 1 + 1e-12)).all(), name
            assert not out[name].is_nan().any(), name


@pytest.mark.parametrize(
    "transform",
    [pl.col("s") * 3 + 1, pl.col("s").exp(), pl.col("s").rank("dense"), pl.col("s") ** 3],
    ids=["affine", "exp", "dense-rank", "cube"],
)
@settings(max_examples=budget(10))
@given(df=score_frames())
def test_invariant_under_strictly_increasing_transforms(df: pl.DataFrame, transform) -> None:
    moved = df.with_columns(transform.cast(pl.Float64).alias("s"))
    for weight in (None, "w"):
        a, b = agg(df, weight), agg(moved, weight)
        for name in MEASURES:
            assert_close(a[name].to_list(), b[name].to_list(), 1e-12)


@settings(max_examples=budget(20))
@given(df=score_frames())
def test_flipped_labels_or_negated_score_give_one_minus_auc(df: pl.DataFrame) -> None:
    for weight in (None, "w"):
        auc_ = agg(df, weight)["roc_auc"]
        flipped = df.group_by("g").agg(fe.roc_auc("y", "s", pos_label=0, weight=weight)).sort("g")
        negated = df.with_columns(-pl.col("s")).pipe(agg, weight)["roc_auc"]
        expected = [None if v is None else 1.0 - v for v in auc_.to_list()]
        assert_close(flipped["roc_auc"].to_list(), expected, 1e-12)
        assert_close(negated.to_list(), expected, 1e-12)


def test_one_class_and_zero_weight_groups_are_null() -> None:
    df = pl.DataFrame(
        {
            "g": [1, 1, 2, 2, 3, 3],
            "y": [1, 1, 0, 0, 1, 0],
            "s": [0.1, 0.9, 0.3, 0.4, 0.5, 0.2],
            "w": [1.0, 1.0, 1.0, 1.0, 0.0, 2.0],
        }
    )
    out = agg(df, None)
    assert out.filter(pl.col("g") < 3)[["roc_auc", "rank_loss"]].null_count().row(0) == (2, 2)
    # g=1 has only positives: AP and the P-R area are defined (precision 1 at every threshold)
    assert out.filter(pl.col("g") == 1)[["average_precision", "pr_auc"]].row(0) == (1.0, 1.0)
    assert out.filter(pl.col("g") == 2)[["average_precision", "pr_auc"]].row(0) == (None, None)
    weighted = agg(df, "w").filter(pl.col("g") == 3)
    assert weighted.row(0) == (3, None, None, None, None)  # its only positive weighs 0


def test_integer_score_and_string_or_boolean_labels() -> None:
    base = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "s": [9, 8, 8, 4, 3, 1]})
    expected = base.select(fe.roc_auc("y", "s")).item()
    assert_close(expected, 7.5 / 9, 1e-12)
    text = base.with_columns(
        pl.when(pl.col("y") == 1).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("y")
    )
    assert text.select(fe.roc_auc("y", "s", pos_label="yes")).item() == expected
    flag = base.with_columns(pl.col("y").cast(pl.Boolean))
    assert flag.select(fe.roc_auc("y", "s", pos_label=True)).item() == expected


# ---------------------------------------------------------------------------------------------
# guards
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(MEASURES))
@pytest.mark.parametrize(
    ("column", "value", "error", "text"),
    [
        ("y", None, MissingValueError, r"column 'y' \(truth=\) must not contain nulls, got null"),
        (
            "s",
            float("nan"),
            MissingValueError,
            r"column 's' \(score=\) must not contain NaN, got NaN",
        ),
        (
            "s",
            float("inf"),
            MissingValueError,
            r"column 's' \(score=\) must be finite, got inf or -inf",
        ),
        ("s", None, MissingValueError, r"column 's' \(score=\) must not contain nulls"),
        ("w", -1.0, NegativeValueError, r"column 'w' \(weight=\) must be >= 0, got -1\.0"),
    ],
    ids=["null-truth", "nan-score", "inf-score", "null-score", "negative-weight"],
)
def test_invalid_values_raise(name, column, value, error, text) -> None:
    df = pl.DataFrame({"y": [1.0, 0.0, 1.0], "s": [0.5, 0.2, 0.1], "w": [1.0, 1.0, 2.0]})
    df = df.with_columns(pl.Series(column, [1.0, value, 0.0], dtype=pl.Float64))
    lazy = df.lazy().select(MEASURES[name]("y", "s", weight="w"))
    with pytest.raises(error, match=rf"^{name}\(\): {text}"):
        fe.collect(lazy)


def test_registry_declares_the_ranking_measures() -> None:
    for name, builder in MEASURES.items():
        measure = fe.MEASURES[name]
        assert measure.builder is builder
        assert measure.kind == "score"
        assert measure.columns == ("truth", "score")
        assert (measure.lower, measure.upper) == (0.0, 1.0)
    assert fe.MEASURES["roc_auc"].higher_is_better and not fe.MEASURES["rank_loss"].higher_is_better
    assert fe.MEASURES["accuracy"].columns == ("truth", "pred")


# ---------------------------------------------------------------------------------------------
# cost-curve coordinates (eqs 2.24-2.25)
# ---------------------------------------------------------------------------------------------
def test_p_cost_golden_values_from_the_notes() -> None:
    """Notes 000 §2.3 "式(2.24)的解释": p = 0.2 with cost₊₋ = 4, cost₋₊ = 1 gives P(+)cost = 0.5
    (each positive counted four times), and 40 / 10 gives the same (only the ratio matters); with
    equal costs P(+)cost = p."""
    out = pl.select(a=fe.p_cost(0.2, 4, 1), b=fe.p_cost(0.2, 40, 10), c=fe.p_cost(0.37, 2.5, 2.5))
    assert_close(list(out.row(0)), [0.5, 0.5, 0.37], 1e-12)


@given(
    st.lists(
        st.tuples(
            st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 50), st.floats(0, 50)
        ),
        min_size=1,
        max_size=20,
    )
)
def test_cost_coordinates_match_the_closed_forms(rows) -> None:
    df = pl.DataFrame(rows, schema=["fpr", "fnr", "p", "c01", "c10"], orient="row")
    out = df.select(
        fe.p_cost("p", "c01", "c10"),
        fe.normalized_cost("fpr", "fnr", "p", "c01", "c10"),
        fe.normalized_cost("fpr", pl.col("fnr"), "p", 1.0, 1.0).alias("unit"),
    )
    p, c01, c10 = df["p"].to_numpy(), df["c01"].to_numpy(), df["c10"].to_numpy()
    fpr, fnr = df["fpr"].to_numpy(), df["fnr"].to_numpy()
    den = p * c01 + (1 - p) * c10
    with np.errstate(invalid="ignore", divide="ignore"):
        x = np.where(den > 0, p * c01 / den, np.nan)
        cost = np.where(den > 0, (fnr * p * c01 + fpr * (1 - p) * c10) / den, np.nan)
    assert_close(out["p_cost"].to_list(), x, 1e-12)
    assert_close(out["norm_cost"].to_list(), cost, 1e-12)
    # with unit costs the normalised cost is the error rate FNR·p + FPR·(1 − p) (eq 2.23)
    assert_close(out["unit"].to_list(), fnr * p + fpr * (1 - p), 1e-12)
    # and in terms of x = P(+)cost it is the segment from (0, FPR) to (1, FNR)
    defined = ~np.isnan(x)
    assert_close(out["norm_cost"].to_numpy()[defined], (fnr * x + fpr * (1 - x))[defined], 1e-9)
    assert not out["p_cost"].is_nan().any()


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (
            (1.5, 1, 1),
            r"p_cost\(\): p must be a column name, an expression or a number in \[0, 1\]",
        ),
        ((0.5, -1, 1), r"p_cost\(\): cost01 must be .* a finite number >= 0, got -1"),
        ((0.5, 1, math.inf), r"p_cost\(\): cost10 must be .* a finite number >= 0, got inf"),
        ((0.5, True, 1), r"p_cost\(\): cost01 must be .*, got True"),
    ],
)
def test_p_cost_rejects_invalid_numbers(args, text) -> None:
    with pytest.raises(InvalidParameterError, match=text):
        fe.p_cost(*args)


def test_weighted_auc_stays_within_its_range() -> None:
    """Float rounding of large weights put the pair mass 1 ulp above W⁺·W⁻ (AUC
    1.0000000000000002, found by the property tests); the pairs are capped at the total."""
    df = pl.DataFrame(
        {
            "y": [1, 0, 1, 1, 0, 0],
            "s": [0.25, 0.0816, 1.0, 0.0816, 0.0816, 0.0816],
            "w": [1e6, 1.0, 4.719, 0.0, 4.719, 1e6],
        }
    )
    expr = df.select(fe.roc_auc("y", "s", weight="w")).item()
    frame = fe.measures(df, truth="y", score="s", weight="w", measures=["roc_auc"]).item()
    for value in (expr, frame):
        assert 0.0 <= value <= 1.0
        assert value == pytest.approx(1.0, abs=1e-12)  # every weighted pair is ordered
