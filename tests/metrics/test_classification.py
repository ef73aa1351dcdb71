"""Label measures of frameeval.metrics.classification against scikit-learn, grouped.

Oracle: scikit-learn 1.9 (``precision_recall_fscore_support``, ``multilabel_confusion_matrix``,
``accuracy_score``, ``zero_one_loss``) applied to each ``partition_by`` part, compared with the
expression inside ``group_by().agg()``; tolerance 1e-9. ``cost_error`` is compared with eq 2.23
written directly in numpy.

Definitional mapping used throughout:

* our ``zero_division=None`` (0/0 → null; macro averages skip undefined classes) ↔ sklearn's
  ``zero_division=np.nan``; our ``zero_division=0.0`` / ``1.0`` ↔ the same number in sklearn;
* binary measures of a multiclass task are one-vs-rest for ``pos_label`` ↔ sklearn's per-class
  values (``average=None, labels=[...]``);
* rows of weight 0 still define the label set of a macro average (as in scikit-learn and
  ``classification_report``): a class whose rows all weigh 0 has 0/0 values, skipped by default
  and counted as ``zero_division`` otherwise. A group whose weights are all 0 has only 0/0
  values (→ ``zero_division``); scikit-learn refuses all-zero weights.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, multilabel_confusion_matrix, zero_one_loss
from sklearn.metrics import precision_recall_fscore_support as prfs

import frameeval as fe
from tests.helpers.oracle import assert_close

LABELS = [0, 1, 2, 3]
ZERO_DIVISION = [None, 0.0, 1.0]
MODES = ["random", "random", "all_correct", "all_wrong", "one_class", "one_prediction"]


# ---------------------------------------------------------------------------------------------
# data: several groups, each with its own edge case
# ---------------------------------------------------------------------------------------------
@st.composite
def label_frames(draw, weights: str = "any", n_labels: int = 4) -> pl.DataFrame:
    """Columns g, y, p (Int64 labels in 0..n_labels-1) and w (Float64; 1.0 when unweighted).

    Each group draws a mode (random, all correct, all wrong, one true class, one predicted
    class), a size from 1 row and a label range, so classes never predicted / never true, tiny
    groups and one-class groups all occur. ``weights``: "none", "int" (0..3), "float" (0 or
    (0, 10]) or "any".
    """
    kind = draw(st.sampled_from(["none", "int", "float"])) if weights == "any" else weights
    g, y, p, w = [], [], [], []
    for group in range(draw(st.integers(1, 3))):
        k = draw(st.integers(1, n_labels))
        n = draw(st.integers(1, 10))
        label = st.integers(0, k - 1)
        truth = draw(st.lists(label, min_size=n, max_size=n))
        pred = draw(st.lists(label, min_size=n, max_size=n))
        mode = draw(st.sampled_from(MODES))
        if mode == "all_correct":
            pred = list(truth)
        elif mode == "all_wrong":
            pred = [(t + 1) % max(k, 2) for t in truth]
        elif mode == "one_class":
            truth = [truth[0]] * n
        elif mode == "one_prediction":
            pred = [pred[0]] * n
        if kind == "none":
            weight = [1.0] * n
        elif kind == "int":
            weight = [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))]
        else:
            value = st.one_of(st.just(0.0), st.floats(0.01, 10.0))
            weight = draw(st.lists(value, min_size=n, max_size=n))
        g += [group] * n
        y += truth
        p += pred
        w += weight
    return pl.DataFrame(
        {"g": g, "y": y, "p": p, "w": w},
        schema={"g": pl.Int64, "y": pl.Int64, "p": pl.Int64, "w": pl.Float64},
    )


def parts(df: pl.DataFrame):
    """(key, y, p, w) per group, sorted by key: the oracle's side of every comparison."""
    for part in sorted(df.partition_by("g"), key=lambda f: f["g"][0]):
        yield part["g"][0], part["y"].to_numpy(), part["p"].to_numpy(), part["w"].to_numpy()


def sk_zd(zero_division: float | None) -> float:
    return np.nan if zero_division is None else zero_division


def nan_to_none(values) -> list:
    return [None if v is None or np.isnan(v) else float(v) for v in np.atleast_1d(values)]


def agg(df: pl.DataFrame, exprs: dict[str, pl.Expr]) -> pl.DataFrame:
    return df.group_by("g").agg(e.alias(n) for n, e in exprs.items()).sort("g")


# ---------------------------------------------------------------------------------------------
# accuracy / error rate (eqs 2.1-2.5)
# ---------------------------------------------------------------------------------------------
@given(label_frames())
def test_accuracy_and_error_rate_match_sklearn(df: pl.DataFrame) -> None:
    out = agg(
        df,
        {
            "acc": fe.accuracy("y", "p"),
            "err": fe.error_rate("y", "p"),
            "acc_w": fe.accuracy("y", "p", weight="w"),
            "err_w": fe.error_rate("y", "p", weight="w"),
        },
    )
    expected = {"acc": [], "err": [], "acc_w": [], "err_w": []}
    for _, y, p, w in parts(df):
        expected["acc"].append(accuracy_score(y, p))
        expected["err"].append(zero_one_loss(y, p))
        positive = w.sum() > 0  # sklearn refuses all-zero weights; ours is 0/0 = null
        expected["acc_w"].append(accuracy_score(y, p, sample_weight=w) if positive else None)
        expected["err_w"].append(zero_one_loss(y, p, sample_weight=w) if positive else None)
    for name, values in expected.items():
        assert_close(out[name].to_list(), values)


# ---------------------------------------------------------------------------------------------
# binary measures, one-vs-rest for every pos_label (eqs 2.8-2.11, 2.18, 2.19)
# ---------------------------------------------------------------------------------------------
def sk_one_vs_rest(y, p, w, beta: float, zero_division: float | None):
    """Per-class P, R, F-beta for every label in LABELS (absent labels included)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return prfs(
            y,
            p,
            labels=LABELS,
            average=None,
            beta=beta,
            zero_division=sk_zd(zero_division),
            sample_weight=w,
        )[:3]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@given(df=label_frames())
def test_binary_measures_match_sklearn_one_vs_rest(df: pl.DataFrame, weighted: bool) -> None:
    weight = "w" if weighted else None
    exprs: dict[str, pl.Expr] = {}
    undefined: dict[str, float | None] = {}  # the value of each expression when 0/0
    for pos in LABELS:
        kw = {"pos_label": pos, "weight": weight}
        for zd in ZERO_DIVISION:
            exprs[f"precision_{pos}_{zd}"] = fe.precision("y", "p", zero_division=zd, **kw)
            exprs[f"recall_{pos}_{zd}"] = fe.recall("y", "p", zero_division=zd, **kw)
            exprs[f"f1_{pos}_{zd}"] = fe.f1("y", "p", zero_division=zd, **kw)
            for m in ("precision", "recall", "f1"):
                undefined[f"{m}_{pos}_{zd}"] = zd
        for beta in (0.5, 2.0):
            exprs[f"fbeta{beta}_{pos}_None"] = fe.fbeta("y", "p", beta=beta, **kw)
        exprs[f"tpr_{pos}"] = fe.tpr("y", "p", **kw)
        exprs[f"fpr_{pos}"] = fe.fpr("y", "p", **kw)
        exprs[f"tnr_{pos}"] = fe.tnr("y", "p", **kw)
        exprs[f"fnr_{pos}"] = fe.fnr("y", "p", **kw)
    out = agg(df, exprs)

    expected: dict[str, list] = {name: [] for name in exprs}
    for _, y, p, w in parts(df):
        w = w if weighted else None
        if w is not None and w.sum() == 0:  # no mass: every ratio is 0/0
            for name in exprs:
                expected[name].append(undefined.get(name))
            continue
        for zd in ZERO_DIVISION:
            precision, recall, f = sk_one_vs_rest(y, p, w, 1.0, zd)
            for i, pos in enumerate(LABELS):
                expected[f"precision_{pos}_{zd}"] += nan_to_none(precision[i])
                expected[f"recall_{pos}_{zd}"] += nan_to_none(recall[i])
                expected[f"f1_{pos}_{zd}"] += nan_to_none(f[i])
        for beta in (0.5, 2.0):
            f = sk_one_vs_rest(y, p, w, beta, None)[2]
            for i, pos in enumerate(LABELS):
                expected[f"fbeta{beta}_{pos}_None"] += nan_to_none(f[i])
        # sklearn derives TN as Σw − TP − FP − FN, which leaves ~1e-16 where TN is 0: take the
        # counts from sklearn but decide "no positive / no negative row" from the data
        matrices = multilabel_confusion_matrix(y, p, labels=LABELS, sample_weight=w)
        ww = np.ones(len(y)) if w is None else w
        for pos, ((tn, fp), (fn, tp)) in zip(LABELS, matrices, strict=True):
            positives, negatives = ww[y == pos].sum() > 0, ww[y != pos].sum() > 0
            expected[f"tpr_{pos}"].append(tp / (tp + fn) if positives else None)
            expected[f"fpr_{pos}"].append(fp / (fp + tn) if negatives else None)
            expected[f"tnr_{pos}"].append(tn / (fp + tn) if negatives else None)
            expected[f"fnr_{pos}"].append(fn / (tp + fn) if positives else None)
    for name, values in expected.items():
        try:
            assert_close(out[name].to_list(), values)
        except AssertionError as err:
            raise AssertionError(f"{name}: {err}") from None


@given(
    df=label_frames(weights="float"),
    pos=st.sampled_from(LABELS[:2]),
    scales=st.sampled_from([(1e9, 1e-3), (1e-3, 1e9), (1e6, 1.0)]),
)
def test_binary_measures_with_weights_of_any_magnitude(df: pl.DataFrame, pos: int, scales) -> None:
    """Class weights of very different magnitudes (positives × 1e9, negatives × 1e-3, or the
    reverse): each count is its own exactly rounded sum (math.fsum) here, so a count obtained as
    a difference of large sums (catastrophic cancellation) shows. sklearn is not the oracle
    here: it derives TN as Σw − TP − FP − FN."""
    df = df.with_columns(
        pl.col("w") * pl.when(pl.col("y") == pos).then(scales[0]).otherwise(scales[1])
    )
    kw = {"pos_label": pos, "weight": "w"}
    out = agg(
        df,
        {
            "precision": fe.precision("y", "p", **kw),
            "recall": fe.recall("y", "p", **kw),
            "fpr": fe.fpr("y", "p", **kw),
            "tnr": fe.tnr("y", "p", **kw),
            "fnr": fe.fnr("y", "p", **kw),
            "f1": fe.f1("y", "p", **kw),
            "cost_error": fe.cost_error("y", "p", cost01=3.0, cost10=0.5, **kw),
            "accuracy": fe.accuracy("y", "p", weight="w"),
        },
    )
    expected: dict[str, list] = {name: [] for name in out.columns[1:]}

    def div(a: float, b: float) -> float | None:
        return a / b if b > 0 else None

    for _, y, p, w in parts(df):
        actual, predicted = y == pos, p == pos
        tp, fp = math.fsum(w[actual & predicted]), math.fsum(w[~actual & predicted])
        fn, tn = math.fsum(w[actual & ~predicted]), math.fsum(w[~actual & ~predicted])
        m = math.fsum(w)
        expected["precision"].append(div(tp, tp + fp))
        expected["recall"].append(div(tp, tp + fn))
        expected["fpr"].append(div(fp, fp + tn))
        expected["tnr"].append(div(tn, fp + tn))
        expected["fnr"].append(div(fn, tp + fn))
        expected["f1"].append(div(2 * tp, 2 * tp + fp + fn))
        expected["cost_error"].append(div(3.0 * fn + 0.5 * fp, m))
        expected["accuracy"].append(div(math.fsum(w[y == p]), m))
    for name, values in expected.items():
        try:
            assert_close(out[name].to_list(), values)
        except AssertionError as err:
            raise AssertionError(f"{name}: {err}") from None


def test_recall_is_tpr_and_rates_complement() -> None:
    """recall = tpr, tnr = 1 - fpr, fnr = 1 - tpr on a fixed multiclass frame (identities)."""
    df = pl.DataFrame({"y": [0, 1, 2, 2, 1, 0, 1], "p": [0, 2, 2, 1, 1, 1, 1]})
    # an explicit pos_label on a multiclass column: that class's one-vs-rest value
    out = df.select(
        fe.recall("y", "p", pos_label=1),
        fe.tpr("y", "p", pos_label=1),
        fe.fpr("y", "p", pos_label=1),
        fe.tnr("y", "p", pos_label=1),
        fe.fnr("y", "p", pos_label=1),
    ).row(0, named=True)
    assert out["recall"] == out["tpr"]
    assert abs(out["tnr"] - (1 - out["fpr"])) < 1e-12
    assert abs(out["fnr"] - (1 - out["tpr"])) < 1e-12


# ---------------------------------------------------------------------------------------------
# multiclass averages (eqs 2.12-2.17 over classes)
# ---------------------------------------------------------------------------------------------
@given(df=label_frames(), zero_division=st.sampled_from(ZERO_DIVISION))
def test_macro_and_micro_averages_match_sklearn(
    df: pl.DataFrame, zero_division: float | None
) -> None:
    # scikit-learn's average="macro" is frameeval's "macro_mean" (the mean of per-class values;
    # frameeval's "macro" F is eq 2.14, checked against the report in test_confusion.py)
    exprs: dict[str, pl.Expr] = {}
    for average in ("macro", "micro"):
        for weight in (None, "w"):
            ours = "macro_mean" if average == "macro" else average
            kw = {"average": ours, "weight": weight, "zero_division": zero_division}
            exprs[f"precision_{average}_{weight}"] = fe.precision("y", "p", **kw)
            exprs[f"recall_{average}_{weight}"] = fe.recall("y", "p", **kw)
            exprs[f"f1_{average}_{weight}"] = fe.f1("y", "p", **kw)
            exprs[f"fbeta_{average}_{weight}"] = fe.fbeta("y", "p", beta=2.0, **kw)
    out = agg(df, exprs)

    expected: dict[str, list] = {name: [] for name in exprs}
    for _, y, p, w in parts(df):
        for average in ("macro", "micro"):
            for weight in (None, "w"):
                ww = None if weight is None else w
                names = [f"{m}_{average}_{weight}" for m in ("precision", "recall", "f1", "fbeta")]
                if ww is not None and ww.sum() == 0:  # every class (and the pooled count) is 0/0
                    for name in names:
                        expected[name].append(zero_division)
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    zd = sk_zd(zero_division)
                    p1, r1, f1, _ = prfs(y, p, average=average, zero_division=zd, sample_weight=ww)
                    f2 = prfs(y, p, average=average, beta=2.0, zero_division=zd, sample_weight=ww)[
                        2
                    ]
                for name, value in zip(names, (p1, r1, f1, f2), strict=True):
                    expected[name] += nan_to_none(value)
    for name, values in expected.items():
        try:
            assert_close(out[name].to_list(), values)
        except AssertionError as err:
            raise AssertionError(f"{name}: {err}") from None


@given(label_frames(weights="none"))
def test_micro_f1_equals_accuracy(df: pl.DataFrame) -> None:
    """Single-label multiclass: micro-P = micro-R = micro-F1 = accuracy (eqs 2.15-2.17)."""
    out = agg(
        df,
        {
            "acc": fe.accuracy("y", "p"),
            "p": fe.precision("y", "p", average="micro"),
            "r": fe.recall("y", "p", average="micro"),
            "f": fe.f1("y", "p", average="micro"),
        },
    )
    for name in ("p", "r", "f"):
        assert_close(out[name].to_list(), out["acc"].to_list(), tol=1e-12)


# ---------------------------------------------------------------------------------------------
# cost-sensitive error (eq 2.23)
# ---------------------------------------------------------------------------------------------
def eq_2_23(y, p, w, pos, cost01: float, cost10: float) -> float | None:
    """E(f; D; cost) = (Σ_{D+} I(f(x)≠y)·cost01 + Σ_{D-} I(f(x)≠y)·cost10) / m, weighted by w,
    on the binary task pos vs rest (positive = the book's class 0)."""
    positive, predicted = y == pos, p == pos
    wrong = positive != predicted
    m = w.sum()
    if m == 0:
        return None
    return float((w * wrong * positive).sum() * cost01 + (w * wrong * ~positive).sum() * cost10) / m


@given(
    df=label_frames(),
    costs=st.tuples(st.floats(0, 10), st.floats(0, 10)),
    pos=st.sampled_from(LABELS),
)
def test_cost_error_matches_eq_2_23(df: pl.DataFrame, costs: tuple[float, float], pos) -> None:
    cost01, cost10 = costs
    out = agg(
        df,
        {
            "plain": fe.cost_error("y", "p", cost01=cost01, cost10=cost10, pos_label=pos),
            "weighted": fe.cost_error(
                "y", "p", cost01=cost01, cost10=cost10, pos_label=pos, weight="w"
            ),
        },
    )
    plain, weighted = [], []
    for _, y, p, w in parts(df):
        plain.append(eq_2_23(y, p, np.ones_like(w), pos, cost01, cost10))
        weighted.append(eq_2_23(y, p, w, pos, cost01, cost10))
    assert_close(out["plain"].to_list(), plain)
    assert_close(out["weighted"].to_list(), weighted)


def test_cost_error_with_unit_costs_is_error_rate_on_binary_data() -> None:
    """cost01 = cost10 = 1 turns eq 2.23 into eq 2.1 for a binary task."""
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0, 1], "p": [1, 0, 0, 1, 1, 0, 0]})
    out = df.select(fe.cost_error("y", "p", cost01=1, cost10=1), fe.error_rate("y", "p"))
    assert out["cost_error"].item() == pytest.approx(out["error_rate"].item(), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# label dtypes, .over(), lazy frames
# ---------------------------------------------------------------------------------------------
def all_measures(pos_label) -> list[pl.Expr]:
    kw = {"pos_label": pos_label}
    return [
        fe.accuracy("y", "p"),
        fe.error_rate("y", "p"),
        fe.precision("y", "p", **kw),
        fe.recall("y", "p", **kw),
        fe.tpr("y", "p", **kw),
        fe.fpr("y", "p", **kw),
        fe.tnr("y", "p", **kw),
        fe.fnr("y", "p", **kw),
        fe.f1("y", "p", **kw),
        fe.fbeta("y", "p", beta=2.0, **kw),
        fe.cost_error("y", "p", cost01=3.0, cost10=1.0, **kw),
        fe.precision("y", "p", average="macro").alias("macro_precision"),
        fe.recall("y", "p", average="macro").alias("macro_recall"),
        fe.f1("y", "p", average="macro").alias("macro_f1"),
        fe.f1("y", "p", average="micro").alias("micro_f1"),
    ]


@pytest.mark.parametrize(
    ("cast", "pos_label"),
    [
        (lambda s: s.cast(pl.String).str.replace("^", "c"), "c1"),
        (lambda s: s.cast(pl.String).str.replace("^", "c").cast(pl.Categorical), "c1"),
        (lambda s: s.cast(pl.Float64), 1),
        (lambda s: s.cast(pl.Int8), 1),
        (lambda s: s.cast(pl.UInt64), 1),
        (lambda s: s == 1, True),
    ],
    ids=["string", "categorical", "float", "int8", "uint64", "boolean"],
)
def test_label_dtypes_give_the_integer_results(cast, pos_label) -> None:
    """Relabelling classes (and changing their dtype) changes no measure."""
    df = pl.DataFrame(
        {
            "g": [0] * 7 + [1] * 5,
            "y": [0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1],
            "p": [0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1],
        }
    )
    expected = df.group_by("g").agg(all_measures(1)).sort("g")
    relabelled = df.with_columns(cast(pl.col("y")), cast(pl.col("p")))
    out = relabelled.group_by("g").agg(all_measures(pos_label)).sort("g")
    for name in expected.columns[1:]:
        assert_close(out[name].to_list(), expected[name].to_list(), tol=1e-12)


@given(label_frames())
def test_over_equals_group_by(df: pl.DataFrame) -> None:
    """``expr.over("g")`` broadcasts the group_by value to every row of the group."""
    exprs = [*all_measures(1), fe.f1("y", "p", average="macro", weight="w").alias("wf1")]
    grouped = df.group_by("g").agg(exprs).sort("g")
    windowed = df.select("g", *[e.over("g") for e in exprs]).unique(maintain_order=True).sort("g")
    assert windowed.height == grouped.height
    for name in grouped.columns[1:]:
        assert_close(windowed[name].to_list(), grouped[name].to_list(), tol=1e-12)


def test_macro_fbeta_reads_the_precision_and_recall_declarations_not_registry_names() -> None:
    """Issue 22, part 6: F-beta's macro average looked up MEASURES["precision"] by name, so
    registering another "precision" silently changed F-beta (eq 2.14)."""
    df = pl.DataFrame({"y": [0, 1, 2, 1, 0, 2], "p": [0, 2, 2, 1, 0, 1]})
    before = df.select(fe.fbeta("y", "p", beta=2.0, average="macro")).item()
    original = fe.MEASURES["precision"]
    impostor = fe.Measure(
        "precision", "binary", lambda c: c.tp * 0.0, True, 0.0, 1.0, "—", "zero", "0"
    )
    fe.register(impostor, replace_existing=True)
    try:
        assert df.select(fe.fbeta("y", "p", beta=2.0, average="macro")).item() == before
    finally:
        fe.register(original, replace_existing=True)


def test_kappa_of_one_class_with_float_weights_is_undefined_on_both_faces() -> None:
    """One class in truth and prediction: κ = 0/0. With non-integer weights the chance
    disagreement s − Σtp/s rounds to −1.8e-15 instead of 0, and κ used to come out as ε/ε = 1
    (found by the threshold-table property test against scikit-learn)."""
    w = [0.0, 0.0, 1.0, 1.5, 1.484375, 1.303439099044387, 8.5]
    df = pl.DataFrame({"y": [0] * 7, "p": [0] * 7, "w": w})
    assert df.select(fe.cohen_kappa("y", "p", weight="w")).item() is None
    assert fe.measures(df, "y", "p", weight="w", measures=["cohen_kappa"]).item() is None
    # two classes: a defined κ keeps its value
    two = pl.DataFrame({"y": [0, 1, 0, 1], "p": [0, 1, 1, 1], "w": [1.3, 0.7, 2.1, 1.9]})
    from sklearn.metrics import cohen_kappa_score

    expected = cohen_kappa_score(two["y"], two["p"], sample_weight=two["w"])
    assert two.select(fe.cohen_kappa("y", "p", weight="w")).item() == pytest.approx(expected)
