"""The hostile inputs of issue 14: each gives the right number or a typed frameeval error, on the
expression face (a plain Polars ``select``/``agg``, and ``fe.collect``) and on the frame face.

In a plain Polars collect the error surfaces as a Polars error whose text carries
``frameeval[<ErrorClass>]: <function>(): …``; ``fe.collect`` raises the typed error itself.
"""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import InvalidDtypeError, InvalidParameterError, MissingValueError

Y = [1, 1, 0, 0, 1, 0]
NUMERIC = [10, 9, 8, 3, 2, 1]
AUC = 7 / 9  # positives at 10, 9, 2; negatives at 8, 3, 1


def test_string_scores_are_an_error_never_ranked() -> None:
    """Issue 14 hostile input 1: "10" < "9" alphabetically gave AUC 0.556."""
    df = pl.DataFrame({"y": Y, "s": [str(v) for v in NUMERIC]})
    for builder in (fe.roc_auc, fe.average_precision, fe.rank_loss):
        name = builder.__name__
        with pytest.raises(
            InvalidDtypeError,
            match=rf"^{name}\(\): column 's' "
            r"\(score=\) must be numeric \(integer or float\), got String",
        ):
            df.select(builder("y", "s"))
        with pytest.raises(InvalidDtypeError, match=rf"^{name}\(\): column 's' \(score=\)"):
            fe.collect(df.lazy().select(builder("y", "s")))
    with pytest.raises(InvalidDtypeError, match=r"^ranking_report\(\): column 's' \(score=\)"):
        fe.ranking_report(df, truth="y", score="s")
    with pytest.raises(InvalidDtypeError, match=r"^measures\(\): column 's' \(score=\)"):
        fe.measures(df, truth="y", score="s", measures=["roc_auc"])
    numbers = df.with_columns(pl.col("s").cast(pl.Int64))
    assert numbers.select(fe.roc_auc("y", "s")).item() == pytest.approx(AUC, abs=1e-12)


def test_integer_scores_beyond_2_to_the_53_keep_their_order() -> None:
    """Issue 14 hostile input 2: nanosecond-like Int64 scores collapsed into one tie."""
    big = pl.DataFrame(
        {"y": Y, "s": [2**60 + v for v in NUMERIC]}, schema={"y": pl.Int64, "s": pl.Int64}
    )
    assert big.select(fe.roc_auc("y", "s")).item() == pytest.approx(AUC, abs=1e-12)
    report = fe.ranking_report(big, truth="y", score="s")
    assert report["roc_auc"].item() == pytest.approx(AUC, abs=1e-12)
    assert fe.measures(big, truth="y", score="s", measures=["roc_auc"])["roc_auc"].item() == (
        pytest.approx(AUC, abs=1e-12)
    )
    small = big.with_columns(pl.Series("s", NUMERIC))
    assert (
        fe.roc_curve(big, truth="y", score="s").height
        == fe.roc_curve(small, truth="y", score="s").height
    )
    assert fe.break_even_point(big, truth="y", score="s")["break_even_point"].item() == (
        pytest.approx(fe.break_even_point(small, truth="y", score="s")["break_even_point"].item())
    )


def test_mixed_integer_label_dtypes_share_int64() -> None:
    """Issue 14 hostile input 3: UInt64 truth beside Int64 pred crashed or gave Int128 labels."""
    df = pl.DataFrame(
        {
            "y": pl.Series([0, 1, 2, 2], dtype=pl.UInt64),
            "p": pl.Series([0, 2, 2, 1], dtype=pl.Int64),
        }
    )
    cm = fe.confusion_matrix(df, truth="y", pred="p")
    assert cm.schema["actual"] == pl.Int64 and cm.schema["predicted"] == pl.Int64
    report = fe.classification_report(df, truth="y", pred="p")
    assert report.filter(pl.col("average") == "micro")["f1"].item() == pytest.approx(0.5)
    huge = pl.DataFrame({"y": pl.Series([2**63 + 1, 1], dtype=pl.UInt64), "p": [1, 1]})
    with pytest.raises(fe.exceptions.UnknownLabelError, match=r"must lie in \[-2\^63, 2\^63\)"):
        fe.confusion_matrix(huge, truth="y", pred="p")


@pytest.mark.parametrize("name", ["label", "average", "precision"])
def test_a_key_named_like_an_output_column_is_refused(name: str) -> None:
    """Issue 14 hostile input 4: by="label" crashed with Polars' DuplicateError."""
    df = pl.DataFrame({name: ["a", "a", "b"], "y": [1, 0, 1], "p": [1, 1, 1]})
    with pytest.raises(
        InvalidParameterError,
        match=rf"^classification_report\(\): by= must not use the output column "
        rf"name '{name}'",
    ):
        fe.classification_report(df, truth="y", pred="p", by=name)


def test_nan_in_a_float_truth_column_is_an_error_in_expressions_too() -> None:
    """Issue 14 hostile input 5: NaN was counted as a label (accuracy 0.667, no error)."""
    df = pl.DataFrame({"y": [1.0, float("nan"), 0.0], "p": [1.0, 0.0, 0.0]})
    with pytest.raises(
        MissingValueError,
        match=r"^accuracy\(\): column 'y' "
        r"\(truth=\) must not contain NaN",
    ):
        df.select(fe.accuracy("y", "p"))
    with pytest.raises(MissingValueError, match=r"^accuracy\(\): column 'y' \(truth=\)"):
        fe.collect(df.lazy().select(fe.accuracy("y", "p")))
    with pytest.raises(MissingValueError, match=r"^confusion_matrix\(\): column 'y' \(truth=\)"):
        fe.confusion_matrix(df, truth="y", pred="p")


def test_a_third_class_with_a_binary_average_is_an_error_on_both_faces() -> None:
    """fe.f1 on a 3-class column silently returned class 1's F1 (scikit-learn raises)."""
    df = pl.DataFrame({"g": [1] * 5, "y": [0, 1, 2, 1, 0], "p": [0, 1, 1, 2, 0]})
    with pytest.raises(
        InvalidParameterError,
        match=r"^f1\(\): average='binary' "
        r"needs two classes",
    ):
        df.select(fe.f1("y", "p"))
    with pytest.raises(InvalidParameterError, match=r"^f1\(\): average='binary' needs two "):
        fe.collect(df.lazy().group_by("g").agg(fe.f1("y", "p")))
    with pytest.raises(
        InvalidParameterError,
        match=r"^measures\(\): average='binary' needs two classes .* in group "
        r"g=1",
    ):
        fe.measures(df, truth="y", pred="p", by="g", measures=["f1"])
    # an explicit pos_label asks for that class's one-vs-rest value; a multiclass average works
    assert df.select(fe.f1("y", "p", pos_label=2)).item() == 0.0
    assert df.select(fe.f1("y", "p", average="micro")).item() == pytest.approx(0.6)


def test_string_labels_need_pos_label_on_both_faces() -> None:
    """With string labels fe.roc_auc raised a raw ComputeError while fe.roc_curve explained."""
    df = pl.DataFrame({"y": ["yes", "no", "yes"], "s": [0.9, 0.2, 0.4]})
    with pytest.raises(
        InvalidParameterError, match=r"^roc_auc\(\): pos_label= is required for string labels"
    ):
        fe.collect(df.lazy().select(fe.roc_auc("y", "s")))
    with pytest.raises(
        InvalidParameterError, match=r"^roc_curve\(\): pos_label= is required for string labels"
    ):
        fe.roc_curve(df, truth="y", score="s")
    assert df.select(fe.roc_auc("y", "s", pos_label="yes")).item() == 1.0


def test_the_two_macro_f1s_have_two_names_on_every_face() -> None:
    """The 10-row 3-class frame of issue 14: mean of per-class F1 0.603, F1 of macro-P/R 0.611."""
    df = pl.DataFrame({"y": [0, 0, 0, 1, 1, 1, 2, 2, 2, 2], "p": [0, 0, 1, 1, 1, 2, 2, 2, 0, 1]})
    report = fe.classification_report(df, truth="y", pred="p")
    rows = dict(zip(report["average"], report["f1"], strict=True))
    book = df.select(fe.f1("y", "p", average="macro")).item()
    mean = df.select(fe.f1("y", "p", average="macro_mean")).item()
    assert book == pytest.approx(rows["macro"], abs=1e-12)
    assert mean == pytest.approx(rows["macro_mean"], abs=1e-12)
    assert abs(book - mean) > 1e-3
    listed = fe.measures(
        df, truth="y", pred="p", measures=[fe.MEASURES["f1"].configure("book", average="macro")]
    )
    assert listed["book"].item() == pytest.approx(book, abs=1e-12)


_LABEL_DTYPES = [pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64]


def _third_class_cases(t: pl.DataType, p: pl.DataType) -> list[tuple[list[int], list[int]]]:
    """Label pairs that pass or fail the binary check, at the edges of the dtypes' ranges (the
    check's 64-bit offsets wrap there)."""
    lo = max(pl.select(pl.lit(0, t).lower_bound()).item(), -(2**63))
    hi = pl.select(pl.lit(0, t).upper_bound()).item()
    lo = max(lo, pl.select(pl.lit(0, p).lower_bound()).item())
    hi = min(hi, pl.select(pl.lit(0, p).upper_bound()).item())
    cases = []
    for other in {lo, 0, 2, hi} - {1}:
        cases.append(([1, other, 1, other], [other, 1, 1, other]))  # binary
        cases.append(([other, other], [other, other]))  # one class, not the positive one
        for third in {lo, 0, 2, 3, hi} - {1, other}:
            cases.append(([1, other, third], [1, other, other]))  # a third class in truth
            cases.append(([1, other, 1], [third, other, other]))  # a third class in pred
    return cases


@pytest.mark.parametrize(
    ("t", "p"),
    [(t, t) for t in _LABEL_DTYPES]
    + [(pl.UInt8, pl.Int32), (pl.Int16, pl.UInt32), (pl.UInt32, pl.Int64), (pl.Int8, pl.UInt64)],
)
def test_the_binary_check_decides_as_a_set_of_classes_would(t: pl.DataType, p: pl.DataType) -> None:
    """The expression face decides "a third class" from a bitwise OR and a sum of offsets (no
    min/max): on every integer dtype pair and at the ends of each range it raises exactly when
    the rows hold two or more classes besides the positive one (scikit-learn's rule)."""
    for y, pred in _third_class_cases(t, p):
        df = pl.DataFrame({"y": pl.Series(y, dtype=t), "p": pl.Series(pred, dtype=p)})
        third = len(set(y + pred) - {1}) > 1
        if third:
            with pytest.raises(InvalidParameterError, match=r"^precision\(\): average='binary'"):
                df.select(fe.precision("y", "p"))
        else:
            got = df.select(fe.precision("y", "p")).item()
            tp = sum(a == b == 1 for a, b in zip(y, pred, strict=True))
            predicted = sum(b == 1 for b in pred)
            assert got == (tp / predicted if predicted else None), (t, p, y, pred)
