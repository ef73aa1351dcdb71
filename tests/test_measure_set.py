"""fe.measures: every registered measure equals its expression builder, per group, on randomized
data (the same declaration applied to statistics counted once instead of to rows), lazy = eager,
long = wide, and user-registered measures join it."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import (
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    UnknownLabelError,
)
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close
from tests.metrics.test_properties import ILL_CONDITIONED, columns_of, result_frames, unique

# the roles each kind reads in the frames of tests.metrics.test_properties
ROLES = {
    "label": ("y", "p", None),
    "binary": ("yb", "pb", None),
    "score": ("yb", None, "s"),
    "probability": ("yb", None, "s"),
    "regression": ("yr", "pr", None),
    "positive": ("yp", "pp", None),
}
PARAMETERS = {"cost01": 5.0, "cost10": 1.0}


def _configured(m: fe.Measure) -> fe.Measure:
    missing = {k: PARAMETERS[k] for k, v in m.parameters.items() if k in PARAMETERS}
    return m.configure(**missing) if missing else m


@settings(max_examples=budget(15))
@given(df=result_frames(), weighted=st.booleans())
def test_every_measure_equals_its_expression(df: pl.DataFrame, weighted: bool) -> None:
    weight = "wf" if weighted else None
    for kind, (truth, pred, score) in ROLES.items():
        if score is not None and df["yb"].sum() == 0:
            continue  # the frame functions need pos_label somewhere in the frame (roc_curve too)
        wanted = "regression" if kind == "positive" else kind
        chosen = [_configured(m) for m in unique(fe.MEASURES.values()) if m.kind == wanted]
        if wanted == "regression":  # a measure with a domain rule reads positive numbers
            chosen = [m for m in chosen if columns_of(m) == (truth, pred)]
        if weighted:  # correlation-type measures are ill-conditioned under 1e-3..1e9 weights
            chosen = [m for m in chosen if m.name not in ILL_CONDITIONED]
        out = fe.measures(
            df, truth=truth, pred=pred, score=score, by="g", measures=chosen, weight=weight
        )
        other = pred if pred is not None else score
        params = [{k: v for k, v in m.parameters.items() if k != "average"} for m in chosen]
        exprs = [
            m.builder(truth, other, weight=weight, **p).alias(m.name)
            for m, p in zip(chosen, params, strict=True)
        ]
        expected = df.group_by("g").agg(exprs).sort("g")
        assert out["g"].to_list() == expected["g"].to_list()
        for m in chosen:
            try:
                assert_close(out[m.name].to_list(), expected[m.name].to_list(), tol=1e-9)
            except AssertionError as err:
                raise AssertionError(f"{m.name} ({kind}, weight={weight}): {err}") from None


@settings(max_examples=budget(15))
@given(df=result_frames(), weighted=st.booleans())
def test_ranking_measures_from_the_score_table_equal_the_rows_form(
    df: pl.DataFrame, weighted: bool
) -> None:
    """Grouped, fe.measures evaluates the ranking measures' row forms; ungrouped, it reads the
    per-distinct-score table. Both equal the expression on the same rows."""
    weight = "wf" if weighted else None
    one = df.filter(pl.col("g") == 0)
    assume(one["yb"].sum() > 0)  # pos_label must occur in the frame
    chosen = [m for m in unique(fe.MEASURES.values()) if m.kind == "score"]
    whole = fe.measures(one, truth="yb", score="s", measures=chosen, weight=weight)
    grouped = fe.measures(one, truth="yb", score="s", by="g", measures=chosen, weight=weight)
    expected = one.select(m.builder("yb", "s", weight=weight).alias(m.name) for m in chosen)
    for m in chosen:
        assert_close(whole[m.name].to_list(), expected[m.name].to_list(), tol=1e-9)
        assert_close(grouped[m.name].to_list(), expected[m.name].to_list(), tol=1e-9)


@settings(max_examples=budget(10))
@given(df=result_frames())
def test_lazy_equals_eager_and_long_equals_wide(df: pl.DataFrame) -> None:
    names = ["accuracy", "mcc", "cohen_kappa", "balanced_accuracy"]
    eager = fe.measures(df, truth="y", pred="p", by="g", measures=names)
    lazy = fe.measures(df.lazy(), truth="y", pred="p", by="g", measures=names)
    assert isinstance(lazy, pl.LazyFrame)
    assert_close(fe.collect(lazy).to_numpy().ravel().tolist(), eager.to_numpy().ravel().tolist())
    long = fe.measures(df, truth="y", pred="p", by="g", measures=names, long=True)
    assert long.columns == ["g", "measure", "value"]
    wide = long.pivot(on="measure", index="g", values="value").sort("g").select("g", *names)
    assert_close(wide.to_numpy().ravel().tolist(), eager.to_numpy().ravel().tolist())


def test_a_registered_measure_joins_measures_and_the_docs_table() -> None:
    share = fe.Measure(
        "positive_share_test",
        "binary",
        lambda c: c.predicted / c.total,
        True,
        0.0,
        1.0,
        "—",
        "share of rows predicted positive",
        "(TP + FP) / m",
    )
    fe.register(share)
    try:
        df = pl.DataFrame({"g": [1, 1, 2, 2], "y": [1, 0, 1, 0], "p": [1, 1, 0, 0]})
        out = fe.measures(df, truth="y", pred="p", by="g", measures=["positive_share_test"])
        assert out["positive_share_test"].to_list() == [1.0, 0.0]
        assert "positive_share_test" in fe.measure_table()["name"].to_list()
        assert df.select(share.builder("y", "p", average="macro")).item() == 0.5
    finally:
        fe.MEASURES.pop("positive_share_test")


def test_errors_name_the_function() -> None:
    df = pl.DataFrame({"y": [1, 0], "p": [1, 1]})
    with pytest.raises(InvalidParameterError, match=r"^measures\(\): measures must be registered"):
        fe.measures(df, truth="y", pred="p", measures=["f_one"])
    with pytest.raises(
        InvalidParameterError,
        match=r"^measures\(\): measure 'roc_auc' reads "
        r"score=, got score=None",
    ):
        fe.measures(df, truth="y", pred="p", measures=["roc_auc"])
    with pytest.raises(InvalidParameterError, match=r"^measures\(\): by= must not use output"):
        fe.measures(
            df.with_columns(pl.lit(1).alias("f1")), truth="y", pred="p", by="f1", measures=["f1"]
        )


@settings(max_examples=budget(10))
@given(df=result_frames(), weighted=st.booleans())
def test_ranking_and_probability_measures_in_one_pass_equal_each_alone(
    df: pl.DataFrame, weighted: bool
) -> None:
    """AUC with log loss and Brier (one aggregation of rows) equals each kind asked alone."""
    assume(df["yb"].sum() > 0)  # pos_label must occur in the frame
    weight = "wf" if weighted else None
    kw = dict(truth="yb", score="s", by="g", weight=weight)
    both = fe.measures(df, **kw, measures=["roc_auc", "pr_auc", "log_loss", "brier_score"])
    ranking = fe.measures(df, **kw, measures=["roc_auc", "pr_auc"])
    scores = fe.measures(df, **kw, measures=["log_loss", "brier_score"])
    for frame in (ranking, scores):
        for name in frame.columns[1:]:
            assert_close(both[name].to_list(), frame[name].to_list(), tol=1e-12)


def test_one_pass_checks_name_the_problem() -> None:
    df = pl.DataFrame({"g": [1, 1, 2, 2], "y": [1, 0, 0, 0], "s": [0.9, 0.2, 0.4, 1.5]})
    names = ["roc_auc", "brier_score"]
    with pytest.raises(InvalidValueError, match=r"measures\(\).*'s'.*\[0, 1\], got 1.5.*g=2"):
        fe.measures(df, truth="y", score="s", by="g", measures=names)
    text = df.with_columns(pl.col("s").cast(pl.String))
    with pytest.raises(InvalidDtypeError, match=r"measures\(\).*'s'"):
        fe.measures(text, truth="y", score="s", by="g", measures=names)
    none = df.with_columns(pl.lit(0).alias("y"), pl.lit(0.5).alias("s"))
    with pytest.raises(UnknownLabelError, match=r"measures\(\): pos_label 1 must occur"):
        fe.measures(none, truth="y", score="s", by="g", measures=names)


def test_weighted_kappa_without_by_equals_scikit_learn() -> None:
    """Issue 22, defect 1: without by= the class positions of weighted κ came from a cross join
    whose row order is not kept (265 of 300 random tables disagreed with scikit-learn)."""
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(1)
    qk = fe.MEASURES["cohen_kappa"].configure("qk", weights="quadratic")
    for _ in range(60):
        n = int(rng.integers(5, 40))
        y = rng.choice(["low", "mid", "high", "x"], n)
        p = rng.choice(["low", "mid", "high", "x"], n)
        got = fe.measures(pl.DataFrame({"y": y, "p": p}), truth="y", pred="p", measures=[qk])
        expected = cohen_kappa_score(y, p, weights="quadratic", labels=sorted(set(y) | set(p)))
        assert got["qk"][0] == pytest.approx(expected, abs=1e-9)


def test_adjusted_balanced_accuracy_of_one_class_truth_is_null_on_both_faces() -> None:
    """Issue 22, defect 4: it was -inf; the docs promise null (chance = 1, 0/0 or x/0)."""
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2], "y": [1, 1, 1, 0, 1], "p": [1, 0, 1, 0, 1]})
    ba = fe.MEASURES["balanced_accuracy"].configure("ba", adjusted=True)
    expr = df.group_by("g").agg(fe.balanced_accuracy("y", "p", adjusted=True)).sort("g")
    frame = fe.measures(df, truth="y", pred="p", by="g", measures=[ba])
    assert expr["balanced_accuracy"].to_list() == [None, 1.0]
    assert frame["ba"].to_list() == [None, 1.0]


def test_a_positive_class_absent_from_the_data_is_an_error() -> None:
    """Issue 22, defect 5: fe.measures(pos_label=7, measures=["precision", "f1"]) returned nulls
    (the score measures already raised). An explicit pos_label must occur somewhere in the frame
    (a fold may lack it); the default one must be a class of every group holding two or more
    classes."""
    df = pl.DataFrame({"g": [1, 1, 2, 2], "y": [0, 1, 1, 0], "p": [1, 1, 0, 0]})
    with pytest.raises(UnknownLabelError, match=r"^measures\(\): pos_label \(7\) must occur in"):
        fe.measures(df, truth="y", pred="p", by="g", pos_label=7, measures=["precision", "f1"])
    # a class absent from one fold only is one-vs-rest of a class that fold lacks: no error
    folds = pl.DataFrame({"g": [1, 1, 2, 2], "y": [2, 0, 0, 1], "p": [2, 1, 0, 1]})
    out = fe.measures(folds, truth="y", pred="p", by="g", pos_label=2, measures=["recall"])
    assert out["recall"].to_list() == [1.0, None]
    other = pl.DataFrame({"y": [0, 2, 2, 0], "p": [0, 2, 0, 0]})
    with pytest.raises(UnknownLabelError, match=r"pos_label \(the default 1\) must be a class"):
        fe.measures(other, truth="y", pred="p", measures=["recall"])


def test_weighted_kappa_of_enum_labels_uses_the_enum_order_on_both_faces() -> None:
    """Issue 22, defect 2: the expression ordered classes by the Enum, fe.measures alphabetically
    (quadratic κ 0.590 vs 0.167); both now use the Enum's order, = scikit-learn with labels=."""
    from sklearn.metrics import cohen_kappa_score

    y = ["low", "mid", "high", "mid", "low", "high", "high", "mid"]
    p = ["mid", "mid", "high", "low", "low", "mid", "high", "high"]
    order = ["low", "mid", "high"]
    df = pl.DataFrame({"y": y, "p": p}).with_columns(pl.all().cast(pl.Enum(order)))
    qk = fe.MEASURES["cohen_kappa"].configure("qk", weights="quadratic")
    expected = cohen_kappa_score(y, p, weights="quadratic", labels=order)
    assert expected == pytest.approx(0.5897, abs=1e-4)
    expression = df.select(fe.cohen_kappa("y", "p", weights="quadratic")).item()
    frame = fe.measures(df, truth="y", pred="p", measures=[qk])["qk"][0]
    assert expression == pytest.approx(expected, abs=1e-12)
    assert frame == pytest.approx(expected, abs=1e-12)


@settings(max_examples=budget(15))
@given(
    df=result_frames(),
    weight=st.sampled_from([None, "w", "wf"]),
    labels=st.sampled_from(["int", "int8", "bool", "explicit", "three"]),
    zero_division=st.sampled_from([None, 0.0, 1.0]),
)
def test_the_rows_path_equals_the_count_table_path(
    df: pl.DataFrame, weight: str | None, labels: str, zero_division: float | None
) -> None:
    """Binary measures (average="binary") and accuracy are computed from the rows in one
    group_by; any measure needing the per-class table (MCC) sends all of them through the count
    table. Both paths give the same values, nulls and errors."""
    truth, pred, pos_label = "yb", "pb", None
    if labels == "int8":
        df = df.with_columns(pl.col("yb", "pb").cast(pl.Int8))
    elif labels == "bool":
        df = df.with_columns(pl.col("yb", "pb").cast(pl.Boolean))
    elif labels == "explicit":
        truth, pred, pos_label = "y", "p", 2
        if not (df["y"] == 2).any() and not (df["p"] == 2).any():
            df = df.with_columns(p=pl.lit(2, dtype=pl.Int64))
    elif labels == "three":  # 0..2 labels, the default positive 1: a class error or values
        truth, pred = "y", "p"
    names = ["precision", "recall", "f1", "accuracy", "npv", "error_rate"]
    common = dict(truth=truth, pred=pred, by="g", weight=weight, pos_label=pos_label)

    def run(chosen: list[str]) -> pl.DataFrame | type[Exception]:
        try:
            return fe.measures(df, **common, measures=chosen, zero_division=zero_division)
        except (InvalidParameterError, UnknownLabelError) as error:
            return type(error)

    rows, table = run(names), run([*names, "mcc"])
    if not isinstance(rows, pl.DataFrame) or not isinstance(table, pl.DataFrame):
        assert rows == table
        return
    for name in names:
        assert_close(rows[name].to_list(), table[name].to_list(), tol=1e-12)


def test_the_rows_path_names_the_group_in_its_class_errors() -> None:
    """The rows path decides the binary class rules with the 64-bit offset test: the messages
    name the group, the positive class and the share of labels that are not positive."""
    df = pl.DataFrame({"g": [1] * 5 + [2] * 3, "y": [0, 1, 2, 1, 0, 1, 0, 0],
                       "p": [0, 1, 1, 1, 0, 1, 1, 0]})  # fmt: skip
    with pytest.raises(
        InvalidParameterError,
        match=r"^measures\(\): average='binary' needs two classes \(pos_label=1 and one other\), "
        r"got more than one class besides 1 \(5 of the 10 labels of columns 'y' and 'p' are not "
        r"1\) in group g=1; pass average=",
    ):
        fe.measures(df, truth="y", pred="p", by="g", measures=["f1", "accuracy"])
    twice = df.with_columns(pl.col("y", "p") * 2)
    with pytest.raises(
        UnknownLabelError,
        match=r"^measures\(\): pos_label \(the default 1\) must be a class of column 'y' "
        r"\(truth=\) or 'p' \(pred=\), got 10 labels of two or more other classes without it "
        r"in group g=1\.\nHint: pass the positive class as pos_label=\.$",
    ):
        fe.measures(twice, truth="y", pred="p", by="g", measures=["recall"])
    with pytest.raises(UnknownLabelError, match=r"pos_label \(7\) must occur .*\nHint: pass"):
        fe.measures(df, truth="y", pred="p", by="g", measures=["f1"], pos_label=7)


def test_an_alias_names_its_column_as_asked_on_every_face() -> None:
    """fe.measures(measures=["specificity"]) used to name its column tnr, while the expression
    fe.specificity names it specificity: the column is the name the user asked for."""
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2, 2], "y": [0, 1, 0, 1, 1, 0], "p": [0, 1, 1, 1, 0, 0]})
    expr = df.group_by("g").agg(fe.specificity("y", "p")).sort("g")
    frame = fe.measures(df, "y", "p", by="g", measures=["specificity"])
    assert frame.columns == ["g", "specificity"]
    assert_frame_equal(frame, expr)
    lazy = fe.measures(df.lazy(), "y", "p", by="g", measures=["specificity"]).collect()
    assert_frame_equal(lazy, expr)
    long = fe.measures(df, "y", "p", by="g", measures=["specificity"], long=True)
    assert long["measure"].unique().to_list() == ["specificity"]
    ci = fe.measures(df, "y", "p", by="g", measures=["specificity"], ci=0.9)
    assert ci.columns == ["g", "specificity", "specificity_low", "specificity_high"]
    both = fe.measures(df, "y", "p", by="g", measures=["specificity", "tnr"])
    assert both["specificity"].to_list() == both["tnr"].to_list() == expr["specificity"].to_list()
