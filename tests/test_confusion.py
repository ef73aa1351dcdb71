"""Frame-level confusion functions of frameeval.confusion against oracles, grouped.

* ``confusion_matrix`` ↔ ``sklearn.metrics.confusion_matrix`` (with ``labels=`` and
  ``sample_weight``), zero cells included; counts exact (weighted sums to 1e-9).
* ``classification_report`` ↔ ``precision_recall_fscore_support`` for ``average=None`` (the
  per-class rows), ``"macro"`` (our ``macro_mean`` row: mean of per-class F), ``"micro"`` and
  ``"weighted"``; the book's ``macro`` row (F of macro-P and macro-R, eq 2.14) ↔ numpy on
  sklearn's per-class P and R.
* ``macro_micro`` ↔ numpy, eqs 2.12–2.17 over the per-fold binary confusion matrices.
* ``cost_sensitive_error`` ↔ numpy Σ w·cost[y, f(x)] / Σ w with random cost matrices (non-zero
  diagonal included); binary costs ↔ ``cost_error`` (eq 2.23).

Mapping of undefined values: our ``zero_division=None`` ↔ sklearn's ``np.nan`` (averages skip
the class), ``0.0`` / ``1.0`` ↔ the same number. Known difference: when every class whose value
is defined has support 0, our ``weighted`` average is 0/0 = null; sklearn falls back to the
unweighted mean. sklearn refuses all-zero weights; ours gives ``zero_division`` per class and
null weighted averages.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix
from sklearn.metrics import precision_recall_fscore_support as prfs

import frameeval as fe
from tests.helpers.oracle import assert_close

ZERO_DIVISION = [None, 0.0, 1.0]


@st.composite
def label_frames(draw, weights: str = "any", n_labels: int = 4, folds: bool = False):
    """Columns g, (fold), y, p (Int64 labels 0..n_labels-1), w (Float64, zeros included).

    Per group (and fold) a mode — random, all correct, all wrong, one true class, one predicted
    class — and a size from 1, so one-class groups, tiny groups and classes never predicted or
    never true all occur.
    """
    kind = draw(st.sampled_from(["none", "int", "float"])) if weights == "any" else weights
    rows: dict[str, list] = {"g": [], "fold": [], "y": [], "p": [], "w": []}
    for group in range(draw(st.integers(1, 3))):
        for fold in range(draw(st.integers(1, 4)) if folds else 1):
            k = draw(st.integers(1, n_labels))
            n = draw(st.integers(1, 8))
            label = st.integers(0, k - 1)
            truth = draw(st.lists(label, min_size=n, max_size=n))
            pred = draw(st.lists(label, min_size=n, max_size=n))
            mode = draw(st.sampled_from(["random", "random", "correct", "wrong", "one", "flat"]))
            if mode == "correct":
                pred = list(truth)
            elif mode == "wrong":
                pred = [(t + 1) % max(k, 2) for t in truth]
            elif mode == "one":
                truth = [truth[0]] * n
            elif mode == "flat":
                pred = [pred[0]] * n
            if kind == "none":
                weight = [1.0] * n
            elif kind == "int":
                weight = [
                    float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
                ]
            else:
                value = st.one_of(st.just(0.0), st.floats(0.01, 10.0))
                weight = draw(st.lists(value, min_size=n, max_size=n))
            rows["g"] += [group] * n
            rows["fold"] += [fold] * n
            rows["y"] += truth
            rows["p"] += pred
            rows["w"] += weight
    schema = {"g": pl.Int64, "fold": pl.Int64, "y": pl.Int64, "p": pl.Int64, "w": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def parts(df: pl.DataFrame):
    for part in sorted(df.partition_by("g"), key=lambda f: f["g"][0]):
        yield part["g"][0], part


def nan_to_none(values) -> list:
    return [None if v is None or np.isnan(v) else float(v) for v in np.atleast_1d(values)]


# ---------------------------------------------------------------------------------------------
# confusion_matrix
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weighted"])
@pytest.mark.parametrize("given_labels", [False, True], ids=["seen-labels", "labels="])
@given(df=label_frames())
def test_confusion_matrix_matches_sklearn(df, weighted: bool, given_labels: bool) -> None:
    labels = [0, 1, 2, 3, 4] if given_labels else None
    out = fe.confusion_matrix(
        df, truth="y", pred="p", by="g", weight="w" if weighted else None, labels=labels
    )
    assert out.columns == ["g", "actual", "predicted", "count"]
    assert out["count"].dtype == (pl.Float64 if weighted else pl.Int64)
    for key, part in parts(df):
        y, p = part["y"].to_numpy(), part["p"].to_numpy()
        seen = labels if given_labels else sorted(set(y) | set(p))
        w = part["w"].to_numpy() if weighted else None
        if w is not None and w.sum() == 0:  # sklearn refuses all-zero weights: all cells 0
            expected = np.zeros((len(seen), len(seen)))
        else:
            with warnings.catch_warnings():  # "a single label was found": labels= is given
                warnings.simplefilter("ignore")
                expected = sk_confusion_matrix(y, p, labels=seen, sample_weight=w)
        mine = out.filter(pl.col("g") == key)
        # every (actual, predicted) pair of the label set, zero cells included, sorted
        assert mine.height == len(seen) ** 2
        assert mine["actual"].to_list() == [a for a in seen for _ in seen]
        assert mine["predicted"].to_list() == [b for _ in seen for b in seen]
        if weighted:
            assert_close(mine["count"].to_list(), expected.ravel().tolist())
        else:
            assert mine["count"].to_list() == expected.ravel().tolist()


def test_confusion_matrix_binary_cells_are_table_2_1() -> None:
    """TP, FN, FP, TN of Table 2.1, counted by hand on six rows; TP + FP + TN + FN = m."""
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    cells = {(a, b): c for a, b, c in fe.confusion_matrix(df, truth="y", pred="p").iter_rows()}
    assert cells == {(1, 1): 2, (1, 0): 1, (0, 1): 1, (0, 0): 2}


# ---------------------------------------------------------------------------------------------
# classification_report
# ---------------------------------------------------------------------------------------------
def sk_report(y, p, w, labels, beta: float, zero_division: float | None) -> dict:
    zd = np.nan if zero_division is None else zero_division
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {
            average: prfs(
                y, p, labels=labels, average=average, beta=beta, zero_division=zd, sample_weight=w
            )
            for average in (None, "macro", "micro", "weighted")
        }
    return out


@given(
    zero_division=st.sampled_from(ZERO_DIVISION),
    df=label_frames(),
    beta=st.sampled_from([1.0, 0.5, 2.0]),
    weighted=st.booleans(),
    given_labels=st.booleans(),
)
def test_classification_report_matches_sklearn(
    df, beta, weighted, given_labels, zero_division
) -> None:
    weight = "w" if weighted else None
    report = fe.classification_report(
        df,
        truth="y",
        pred="p",
        by="g",
        beta=beta,
        weight=weight,
        zero_division=zero_division,
        labels=[0, 1, 2, 3, 4] if given_labels else None,
    )
    f_name = "f1" if beta == 1 else "fbeta"
    report = report.rename({f_name: "fbeta"})
    assert report.columns == ["g", "average", "label", "precision", "recall", "fbeta", "support"]
    for key, part in parts(df):
        y, p = part["y"].to_numpy(), part["p"].to_numpy()
        w = part["w"].to_numpy() if weighted else np.ones(len(y))
        labels = [0, 1, 2, 3, 4] if given_labels else sorted(set(y) | set(p))
        mine = report.filter(pl.col("g") == key)
        rows = {a: mine.filter(pl.col("average") == a) for a in mine["average"].unique()}
        assert rows["none"]["label"].to_list() == labels
        assert mine["average"].to_list() == ["none"] * len(labels) + [
            "macro",
            "macro_mean",
            "micro",
            "weighted",
        ]
        if w.sum() == 0:  # sklearn refuses; every class is 0/0
            undefined = [zero_division] * len(labels)
            for column in ("precision", "recall", "fbeta"):
                assert_close(rows["none"][column].to_list(), undefined)
                assert_close(rows["micro"][column].to_list(), [zero_division])
                assert_close(rows["weighted"][column].to_list(), [None])
            continue
        sk = sk_report(y, p, w if weighted else None, labels, beta, zero_division)
        precision, recall, f, support = sk[None]
        assert_close(rows["none"]["precision"].to_list(), nan_to_none(precision))
        assert_close(rows["none"]["recall"].to_list(), nan_to_none(recall))
        assert_close(rows["none"]["fbeta"].to_list(), nan_to_none(f))
        assert_close(rows["none"]["support"].to_list(), support.tolist())
        for average, ours in (
            ("macro", "macro_mean"),
            ("micro", "micro"),
            ("weighted", "weighted"),
        ):
            expected = list(sk[average][:3])
            if average == "weighted":
                # our weighted mean is Σ support·v / Σ support over defined classes: 0/0 when
                # they all have support 0 (sklearn then falls back to the plain mean)
                for i, values in enumerate((precision, recall, f)):
                    if support[~np.isnan(values)].sum() == 0:
                        expected[i] = np.nan
            for column, value in zip(("precision", "recall", "fbeta"), expected, strict=True):
                try:
                    assert_close(rows[ours][column].to_list(), nan_to_none(value))
                except AssertionError as err:
                    raise AssertionError(f"{ours} {column}: {err}") from None
            assert_close(rows[ours]["support"].to_list(), [w.sum()])
        # the book's macro row: macro-P and macro-R as sklearn's, F of those two (eq 2.14)
        macro_p = np.nan if np.isnan(precision).all() else np.nanmean(precision)
        macro_r = np.nan if np.isnan(recall).all() else np.nanmean(recall)
        b2 = beta**2
        if np.isnan(macro_p) or np.isnan(macro_r):
            macro_f = np.nan
        elif b2 * macro_p + macro_r == 0:
            macro_f = 0.0
        else:
            macro_f = (1 + b2) * macro_p * macro_r / (b2 * macro_p + macro_r)
        assert_close(rows["macro"]["precision"].to_list(), nan_to_none(macro_p))
        assert_close(rows["macro"]["recall"].to_list(), nan_to_none(macro_r))
        assert_close(rows["macro"]["fbeta"].to_list(), nan_to_none(macro_f))


def test_two_macro_f1_definitions_differ_as_in_the_docs() -> None:
    """Classes with (P, R) = (1, 0.2) and (0.2, 1): per-class F1 = 1/3 each, so the mean of F1
    is 1/3, while macro-P = macro-R = 0.6 gives F1(macro-P, macro-R) = 0.6 (docs/label-measures.md,
    derived from eqs 2.10 and 2.12–2.14). Class a: TP = 1, FP = 0, FN = 4 → (1, 0.2); class b:
    TP = 1, FP = 4, FN = 0 → (0.2, 1)."""
    df = pl.DataFrame({"y": ["a"] * 5 + ["b"], "p": ["a"] + ["b"] * 5})
    report = fe.classification_report(df, truth="y", pred="p")
    f = dict(zip(report["average"], report["f1"], strict=True))
    assert f["macro"] == pytest.approx(0.6, abs=1e-12)
    assert f["macro_mean"] == pytest.approx(1 / 3, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# macro_micro: several binary matrices (the book's 2.3.2 setting)
# ---------------------------------------------------------------------------------------------
def harmonic(p: float, r: float) -> float:
    if np.isnan(p) or np.isnan(r):
        return np.nan
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def book_averages(part: pl.DataFrame, pos: int, weighted: bool) -> dict[str, float]:
    """Eqs 2.12–2.17 over the fold matrices of one group, in numpy."""
    tps, fps, fns, ps, rs, fs = [], [], [], [], [], []
    for fold in sorted(set(part["fold"].to_list())):
        rows = part.filter(pl.col("fold") == fold)
        actual = rows["y"].to_numpy() == pos
        predicted = rows["p"].to_numpy() == pos
        w = rows["w"].to_numpy() if weighted else np.ones(rows.height)
        tp, fp, fn = (
            (w * (actual & predicted)).sum(),
            (w * (~actual & predicted)).sum(),
            (w * (actual & ~predicted)).sum(),
        )
        tps.append(tp)
        fps.append(fp)
        fns.append(fn)
        ps.append(tp / (tp + fp) if tp + fp > 0 else np.nan)
        rs.append(tp / (tp + fn) if tp + fn > 0 else np.nan)
        fs.append(2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn > 0 else np.nan)

    def nanmean(values):
        values = np.asarray(values)
        return np.nan if np.isnan(values).all() else float(np.nanmean(values))

    macro_p, macro_r = nanmean(ps), nanmean(rs)
    tp, fp, fn = np.mean(tps), np.mean(fps), np.mean(fns)
    micro_p = tp / (tp + fp) if tp + fp > 0 else np.nan
    micro_r = tp / (tp + fn) if tp + fn > 0 else np.nan
    return {
        "n_matrices": len(tps),
        "macro_precision": macro_p,
        "macro_recall": macro_r,
        "macro_f1": harmonic(macro_p, macro_r),
        "macro_mean_f1": nanmean(fs),
        "micro_precision": micro_p,
        "micro_recall": micro_r,
        "micro_f1": harmonic(micro_p, micro_r),
    }


@given(df=label_frames(n_labels=3, folds=True), pos=st.sampled_from([0, 1]), weighted=st.booleans())
def test_macro_micro_matches_eqs_2_12_to_2_17(df, pos, weighted) -> None:
    columns = [
        "g",
        "n_matrices",
        "macro_precision",
        "macro_recall",
        "macro_f1",
        "macro_mean_f1",
        "micro_precision",
        "micro_recall",
        "micro_f1",
    ]
    present = df.filter((pl.col("y") == pos) | (pl.col("p") == pos)).height > 0
    if not present:
        df = df.with_columns(
            pl.when(pl.int_range(pl.len()) == 0).then(pos).otherwise("y").alias("y")
        )
    out = fe.macro_micro(
        df,
        truth="y",
        pred="p",
        across="fold",
        by="g",
        pos_label=pos,
        weight="w" if weighted else None,
    )
    assert out.columns == columns
    assert out["g"].to_list() == sorted(set(df["g"].to_list()))
    for row, (_, part) in zip(out.iter_rows(named=True), parts(df), strict=True):
        expected = book_averages(part, pos, weighted)
        assert row["n_matrices"] == expected["n_matrices"]
        for name in columns[2:]:
            try:
                assert_close([row[name]], nan_to_none(expected[name]))
            except AssertionError as err:
                raise AssertionError(f"{name}: {err}") from None


def test_macro_micro_without_by_is_one_row() -> None:
    """Two folds: P1 = 1, P2 = 1/2 → macro-P = 3/4; mean TP = 1, mean FP = 1/2 → micro-P = 2/3
    (eqs 2.12, 2.15 on matrices counted by hand)."""
    df = pl.DataFrame(
        {"fold": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}
    )
    out = fe.macro_micro(df, truth="y", pred="p", across="fold")
    assert out.height == 1
    assert out["n_matrices"].item() == 2
    assert out["macro_precision"].item() == pytest.approx(0.75, abs=1e-12)
    assert out["micro_precision"].item() == pytest.approx(2 / 3, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# cost_sensitive_error
# ---------------------------------------------------------------------------------------------
@given(
    df=label_frames(),
    costs=st.lists(st.floats(0, 10), min_size=16, max_size=16),
    as_mapping=st.booleans(),
    weighted=st.booleans(),
)
def test_cost_sensitive_error_matches_numpy(df, costs, as_mapping, weighted) -> None:
    matrix = np.asarray(costs).reshape(4, 4)  # cost[actual, predicted]; diagonal may be > 0
    cells = {(a, b): float(matrix[a, b]) for a in range(4) for b in range(4)}
    table = (
        cells
        if as_mapping
        else pl.DataFrame(
            {
                "actual": [a for a, _ in cells],
                "predicted": [b for _, b in cells],
                "cost": list(cells.values()),
            }
        )
    )
    out = fe.cost_sensitive_error(
        df, truth="y", pred="p", by="g", costs=table, weight="w" if weighted else None
    )
    assert out.columns == ["g", "cost_sensitive_error"]
    expected = []
    for _, part in parts(df):
        y, p = part["y"].to_numpy(), part["p"].to_numpy()
        w = part["w"].to_numpy() if weighted else np.ones(len(y))
        expected.append((w * matrix[y, p]).sum() / w.sum() if w.sum() > 0 else None)
    assert_close(out["cost_sensitive_error"].to_list(), expected)


@given(
    df=label_frames(n_labels=2),
    cost01=st.floats(0, 10),
    cost10=st.floats(0, 10),
    pos=st.sampled_from([0, 1]),
)
def test_cost_sensitive_error_with_binary_costs_is_cost_error(df, cost01, cost10, pos) -> None:
    """Eq 2.23: the positive class (``pos_label``) is the book's class 0, so cost01 is the cost
    of predicting a positive row negative and cost10 that of a false alarm."""
    neg = 1 - pos
    costs = {(pos, neg): cost01, (neg, pos): cost10}
    frame = fe.cost_sensitive_error(df, truth="y", pred="p", by="g", costs=costs, weight="w")
    expr = (
        df.group_by("g")
        .agg(fe.cost_error("y", "p", cost01=cost01, cost10=cost10, pos_label=pos, weight="w"))
        .sort("g")
    )
    assert_close(frame["cost_sensitive_error"].to_list(), expr["cost_error"].to_list())


def test_cost_mapping_accepts_numpy_numbers() -> None:
    """Cost matrices often come from numpy: np.int64 / np.float32 costs are numbers too."""
    df = pl.DataFrame({"y": [0, 1, 1, 2], "p": [0, 0, 1, 1]})
    matrix = np.array([[0, 1, 4], [3, 1, 2], [5, 6, 0]])
    as_numpy = {(a, b): matrix[a, b] for a in range(3) for b in range(3)}
    as_float = {key: float(value) for key, value in as_numpy.items()}
    out = fe.cost_sensitive_error(df, truth="y", pred="p", costs=as_numpy)
    expected = fe.cost_sensitive_error(df, truth="y", pred="p", costs=as_float)
    # cells (0,0), (1,0), (1,1), (2,1) cost 0 + 3 + 1 + 6
    assert out["cost_sensitive_error"].item() == expected["cost_sensitive_error"].item() == 10 / 4


@given(
    df=label_frames(),
    zero_division=st.sampled_from(ZERO_DIVISION),
    weighted=st.booleans(),
    beta=st.sampled_from([1.0, 2.0]),
)
def test_report_rows_equal_the_expression_builders(df, zero_division, weighted, beta) -> None:
    """Two faces of one measure: per-class rows = binary builders with pos_label = class,
    macro_mean / micro rows = builders with average="macro" / "micro"."""
    weight = "w" if weighted else None
    kw = {"weight": weight, "zero_division": zero_division}
    report = fe.classification_report(df, truth="y", pred="p", by="g", beta=beta, **kw)
    exprs = {}
    for average in ("macro", "macro_mean", "micro"):
        exprs[f"{average}_precision"] = fe.precision("y", "p", average=average, **kw)
        exprs[f"{average}_recall"] = fe.recall("y", "p", average=average, **kw)
        exprs[f"{average}_fbeta"] = fe.fbeta("y", "p", beta=beta, average=average, **kw)
    for c in range(4):
        exprs[f"{c}_precision"] = fe.precision("y", "p", pos_label=c, **kw)
        exprs[f"{c}_recall"] = fe.recall("y", "p", pos_label=c, **kw)
        exprs[f"{c}_fbeta"] = fe.fbeta("y", "p", beta=beta, pos_label=c, **kw)
    out = df.group_by("g").agg(e.alias(n) for n, e in exprs.items()).sort("g")
    twin = {"macro": "macro", "macro_mean": "macro_mean", "micro": "micro"}
    for row in out.iter_rows(named=True):
        for line in report.filter(pl.col("g") == row["g"]).iter_rows(named=True):
            if line["average"] == "none":
                key = line["label"]
            elif line["average"] in twin:
                key = twin[line["average"]]
            else:  # the weighted row
                continue
            for measure in ("precision", "recall", "fbeta"):
                column = measure if measure != "fbeta" or beta != 1 else "f1"
                try:
                    assert_close([row[f"{key}_{measure}"]], [line[column]], tol=1e-12)
                except AssertionError as err:
                    raise AssertionError(f"{line['average']} {key} {measure}: {err}") from None
