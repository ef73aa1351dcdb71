"""Oracle-free properties of every measure in the registry ``frameeval.metrics.MEASURES``.

The tests iterate over the registry, so a measure registered later joins them automatically;
a measure of a kind these tests do not know fails loudly (extend ``COLUMNS`` below). For each kind
all its measures (and each ``average=`` a builder offers) are evaluated in one aggregation per
example, and every property names the measure that breaks it:

* row-order invariance;
* grouped (``group_by(g).agg``) = each group alone (``partition_by`` → ``select``) = ``.over(g)``;
* lazy = eager;
* the value lies within the registered range, or is null (never NaN);
* integer weights = repeated rows (a weight of 0 = the row is absent);
* the expression is named after the measure and is Float64.

Kinds: ``label`` and ``binary`` read (truth, pred) labels, ``regression`` (truth, pred)
numbers (positive ones for a measure with a domain rule, such as MSLE), ``score`` (truth, score) with a binary truth and a continuous score (larger = more
positive). Identities checked here as well: micro-F1 = accuracy for single-label multiclass data,
and the two macro-F1 definitions (eq 2.14; mean of per-class F, Wu & Zhou 2017) agree when every
class has P = R.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import frameeval as fe
from frameeval.metrics import MEASURES, Measure
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close

TOL = 1e-12  # same numbers up to summation order

# the columns each kind reads, as (truth, second argument); binary measures with
# average="binary" read a two-class pair (a third class is an error there)
COLUMNS = {
    "label": ("y", "p"),
    "binary": ("y", "p"),
    "regression": ("yr", "pr"),
    "score": ("yb", "s"),
    "probability": ("yb", "s"),
}
BINARY_COLUMNS = ("yb", "pb")
# regression measures with a domain (MSLE, the Poisson / Gamma deviances) read positive numbers
POSITIVE_COLUMNS = ("yp", "pp")
# values for required keyword-only parameters (no default) of a builder
PARAMETERS = {"cost01": 5.0, "cost10": 1.0}
AVERAGES = ("binary", "macro", "micro")


@dataclass(frozen=True)
class Variant:
    """One expression to test: a registered measure, with one ``average=`` if it has them."""

    label: str
    measure: Measure
    average: str | None

    def expr(self, weight: str | None = None) -> pl.Expr:
        return build(self.measure, self.average, weight).alias(self.label)


def build(measure: Measure, average: str | None = None, weight: str | None = None) -> pl.Expr:
    """Call the builder as its kind prescribes; fail loudly on anything unknown."""
    if measure.kind not in COLUMNS:
        pytest.fail(
            f"measure {measure.name!r} has kind {measure.kind!r}, which the property tests do "
            f"not know: add it to COLUMNS (and the data) in {__name__}."
        )
    parameters = inspect.signature(measure.builder).parameters
    kw: dict[str, object] = {}
    for name, parameter in parameters.items():
        if parameter.kind is parameter.KEYWORD_ONLY and parameter.default is parameter.empty:
            if name not in PARAMETERS:
                pytest.fail(
                    f"measure {measure.name!r} requires {name}=, which the property tests do not "
                    f"know: add a value to PARAMETERS in {__name__}."
                )
            kw[name] = PARAMETERS[name]
    if weight is not None:
        if "weight" not in parameters:
            pytest.fail(f"measure {measure.name!r} has no weight= (DESIGN §3: every measure has)")
        kw["weight"] = weight
    if average is not None:
        kw["average"] = average
    return measure.builder(*columns_of(measure, average), **kw)


def columns_of(measure: Measure, average: str | None = None) -> tuple[str, str]:
    """The two columns the tests give ``measure``'s builder."""
    columns = COLUMNS[measure.kind]
    if measure.kind == "binary" and (average or "binary") == "binary":
        columns = BINARY_COLUMNS
    if measure.kind == "regression" and measure.domain is not None:
        params = {k: v for k, v in measure.parameters.items() if k != "average"}
        if measure.domain(**params):
            columns = POSITIVE_COLUMNS
    return columns


# every average of these measures; "binary" and "macro" of the others (the averaging code is
# one shared path, so two measures cover it, and the suite stays fast on 2 cores)
ALL_AVERAGES = ("precision", "fbeta")


def variants_of(measures: list[Measure]) -> list[Variant]:
    out = []
    for m in measures:
        if m.averages and "average" not in m.parameters:
            averages = m.averages if m.name in ALL_AVERAGES else ("binary",)
            out += [Variant(f"{m.name}[{a}]", m, a) for a in averages]
        else:
            out.append(Variant(m.name, m, None))
    return out


def unique(measures) -> list[Measure]:
    """Registry values without the aliases' repeats."""
    out: list[Measure] = []
    for m in measures:
        if not any(m is o for o in out):
            out.append(m)
    return out


KINDS = sorted({m.kind for m in MEASURES.values()})


def registered(kind: str) -> list[Variant]:
    return variants_of([m for m in unique(MEASURES.values()) if m.kind == kind])


# ---------------------------------------------------------------------------------------------
# data: one frame with the columns of every kind
# ---------------------------------------------------------------------------------------------
@st.composite
def result_frames(draw) -> pl.DataFrame:
    """g; labels y, p (0..2); numbers yr, pr; binary truth yb with score s in [0, 1] (ties);
    integer weights w in 0..3 and float weights wf from 0 and 1e-3 to 1e9 (sums of very
    different magnitudes). Groups of 1-8 rows with their own edge cases."""
    names = ("g", "y", "p", "yr", "pr", "yp", "pp", "yb", "pb", "s", "w", "wf")
    cols: dict[str, list] = {k: [] for k in names}
    wide = st.one_of(st.just(0.0), st.floats(1e-3, 10.0), st.sampled_from([1e-3, 1e6, 1e9]))
    number = st.one_of(st.integers(-20, 20).map(float), st.floats(-100, 100))
    score = st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.floats(0, 1))
    for group in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 8))
        rows = st.lists(st.integers(0, draw(st.integers(0, 2))), min_size=n, max_size=n)
        y, p = draw(rows), draw(rows)
        mode = draw(st.sampled_from(["random", "random", "correct", "one_class"]))
        if mode == "correct":
            p = list(y)
        elif mode == "one_class":
            y = [y[0]] * n
        yb = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        if draw(st.booleans()):
            yb = [yb[0]] * n  # a one-class group: score measures are undefined there
        cols["g"] += [group] * n
        cols["y"] += y
        cols["p"] += p
        cols["yr"] += draw(st.lists(number, min_size=n, max_size=n))
        cols["pr"] += draw(st.lists(number, min_size=n, max_size=n))

        cols["yb"] += yb
        cols["pb"] += draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        cols["s"] += draw(st.lists(score, min_size=n, max_size=n))
        cols["w"] += draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
        cols["wf"] += draw(st.lists(wide, min_size=n, max_size=n))
    schema = {
        "g": pl.Int64,
        "y": pl.Int64,
        "p": pl.Int64,
        "yr": pl.Float64,
        "pr": pl.Float64,
        "yp": pl.Float64,
        "pp": pl.Float64,
        "yb": pl.Int64,
        "pb": pl.Int64,
        "s": pl.Float64,
        "w": pl.Int64,
        "wf": pl.Float64,
    }
    # positive numbers derived from yr, pr (no extra draw: the examples of the other columns
    # stay those the suite has always run)
    cols["yp"] = [abs(v) + 0.5 for v in cols["yr"]]
    cols["pp"] = [abs(v) + 0.25 for v in cols["pr"]]
    return pl.DataFrame(cols, schema=schema)


# correlation-type measures are ill-conditioned under weights spanning 1e-3..1e9 (s² − Σp²
# and c·s − Σt·p cancel; so do the one-pass moments Σw·y² − (Σw·y)²/Σw of R², explained
# variance, Pearson's r and CCC): summation order moves them by ~1e-8, so the exact-equality properties
# run them with the unit and integer weights only (scikit-learn checks them with float weights)
ILL_CONDITIONED = {"mcc", "cohen_kappa", "r2", "explained_variance", "pearson_r", "ccc"}


def usable(variants: list[Variant], weight: str | None) -> list[Variant]:
    if weight == "wf":
        return [v for v in variants if v.measure.name not in ILL_CONDITIONED]
    return variants


def agg(df: pl.DataFrame | pl.LazyFrame, variants: list[Variant], weight: str | None):
    variants = usable(variants, weight)
    return df.group_by("g").agg(v.expr(weight) for v in variants)


def compare(actual: pl.DataFrame, expected: pl.DataFrame, variants: list[Variant], what: str):
    assert actual["g"].to_list() == expected["g"].to_list(), what
    for v in variants:
        if v.label not in actual.columns:  # left out (ILL_CONDITIONED under wide weights)
            continue
        try:
            assert_close(actual[v.label].to_list(), expected[v.label].to_list(), tol=TOL)
        except AssertionError as err:
            raise AssertionError(f"{v.label}: {what}\n{err}") from None


# ---------------------------------------------------------------------------------------------
# the properties, as functions of (frame, variants), so any list of measures can be checked
# ---------------------------------------------------------------------------------------------
def assert_row_order_invariant(df: pl.DataFrame, order: list[int], variants: list[Variant]) -> None:
    shuffled = df[order]
    for weight in (None, "wf"):
        compare(
            agg(shuffled, variants, weight).sort("g"),
            agg(df, variants, weight).sort("g"),
            variants,
            f"row order changes the value (weight={weight})",
        )


def assert_grouped_equals_alone(df: pl.DataFrame, variants: list[Variant]) -> None:
    for weight in (None, "wf"):
        grouped = agg(df, variants, weight).sort("g")
        alone = pl.concat(
            part.select(pl.col("g").first(), *(v.expr(weight) for v in usable(variants, weight)))
            for part in df.partition_by("g")
        ).sort("g")
        compare(grouped, alone, variants, f"grouped != the group alone (weight={weight})")
        over = (
            df.select("g", *(v.expr(weight).over("g") for v in usable(variants, weight)))
            .unique("g", keep="first")
            .sort("g")
        )
        compare(over, grouped, variants, f".over(g) != group_by(g) (weight={weight})")


def assert_lazy_equals_eager(df: pl.DataFrame, variants: list[Variant]) -> None:
    for weight in (None, "wf"):
        lazy = agg(df.lazy(), variants, weight)
        assert isinstance(lazy, pl.LazyFrame)
        compare(
            fe.collect(lazy).sort("g"),
            agg(df, variants, weight).sort("g"),
            variants,
            f"lazy != eager (weight={weight})",
        )
    # without grouping too (weighted only: the streaming engine's fixed cost is high here, and
    # for the per-class averages it is ~0.5 s per expression, so those are left to group_by)
    light = [v for v in variants if v.average in (None, "binary")]
    whole = [pl.lit(0).alias("g"), *(v.expr("wf") for v in usable(light, "wf"))]
    compare(
        fe.collect(df.lazy().select(whole)), df.select(whole), light, "lazy select != eager select"
    )


def assert_in_range_or_null(df: pl.DataFrame, variants: list[Variant]) -> None:
    # integer weights are covered through assert_weights_equal_repeats (= unweighted on repeated rows)
    for weight in (None, "wf"):
        out = agg(df, variants, weight)
        for v in usable(variants, weight):
            upper = math.inf if v.measure.upper is None else v.measure.upper
            for value in out[v.label].to_list():
                if value is None:
                    continue
                assert not math.isnan(value), f"{v.label}: NaN (weight={weight})"
                assert v.measure.lower <= value <= upper, (
                    f"{v.label}: {value!r} outside [{v.measure.lower}, {upper}] (weight={weight})"
                )


def assert_weights_equal_repeats(df: pl.DataFrame, variants: list[Variant]) -> None:
    weighted = agg(df, variants, "w").sort("g")
    repeated = df.select(pl.all().repeat_by("w").explode()).drop_nulls("g")
    plain = agg(repeated, variants, None).sort("g")
    # a group whose weights are all 0 has no rows once repeated: its weighted values are 0/0
    vanished = weighted.join(plain.select("g"), on="g", how="anti")
    for v in variants:
        assert vanished[v.label].null_count() == vanished.height, (
            f"{v.label}: a group of zero total weight must be null, got "
            f"{vanished[v.label].to_list()}"
        )
    kept = weighted.join(plain.select("g"), on="g", how="semi").sort("g")
    compare(kept, plain, variants, "integer weights != repeated rows")


def assert_name_and_dtype(df: pl.DataFrame, variants: list[Variant]) -> None:
    for v in variants:
        out = df.select(build(v.measure, v.average))
        assert out.columns == [v.measure.name], f"{v.label}: named {out.columns}"
        assert out.schema[v.measure.name] == pl.Float64, f"{v.label}: {out.schema}"


# ---------------------------------------------------------------------------------------------
# the tests, one per property, parametrised over the kinds in the registry
# ---------------------------------------------------------------------------------------------
kinds = pytest.mark.parametrize("kind", KINDS)
# each example evaluates every registered measure (and average) several ways, grouped and not,
# weighted and not: a dozen examples per property keep the suite within minutes on 2 cores
# (HYPOTHESIS_PROFILE=dev does not raise this; change it here for a longer local run)
few = settings(max_examples=budget(12))


def test_every_registered_measure_is_handled() -> None:
    """A new kind must be taught to these tests rather than be skipped silently."""
    unknown = {m.name: m.kind for m in MEASURES.values() if m.kind not in COLUMNS}
    assert not unknown, f"kinds unknown to {__name__}: {unknown}; extend COLUMNS"
    for name, m in MEASURES.items():
        assert m.name == name or name in m.aliases
        build(m)  # fails loudly on an unknown required parameter


@kinds
@few
@given(df=result_frames(), data=st.data())
def test_row_order_invariance(kind: str, df: pl.DataFrame, data: st.DataObject) -> None:
    assert_row_order_invariant(df, data.draw(st.permutations(range(df.height))), registered(kind))


@kinds
@few
@given(df=result_frames())
def test_grouped_equals_each_group_alone(kind: str, df: pl.DataFrame) -> None:
    assert_grouped_equals_alone(df, registered(kind))


@kinds
@few
@given(df=result_frames())
def test_lazy_equals_eager(kind: str, df: pl.DataFrame) -> None:
    assert_lazy_equals_eager(df, registered(kind))


@kinds
@few
@given(df=result_frames())
def test_value_in_range_or_null(kind: str, df: pl.DataFrame) -> None:
    assert_in_range_or_null(df, registered(kind))


@kinds
@few
@given(df=result_frames())
def test_integer_weights_equal_repeated_rows(kind: str, df: pl.DataFrame) -> None:
    assert_weights_equal_repeats(df, registered(kind))


@kinds
def test_expression_is_named_after_the_measure(kind: str) -> None:
    df = pl.DataFrame(
        {
            "y": [0, 1, 1],
            "p": [0, 1, 0],
            "yr": [0.5, 1.0, 2.0],
            "pr": [0.0, 1.0, 2.5],
            "yp": [0.5, 1.0, 2.0],
            "pp": [0.25, 1.0, 2.5],
            "yb": [0, 1, 1],
            "pb": [1, 1, 0],
            "s": [0.2, 0.9, 0.4],
            "w": [1, 2, 1],
        }
    )
    assert_name_and_dtype(df, registered(kind))


def test_an_unknown_kind_fails_loudly() -> None:
    with pytest.raises(fe.exceptions.InvalidParameterError, match="kind must be one of"):
        Measure("rank_thing", "ranking", lambda t: t.tp, True, 0.0, 1.0, "—", "x", "x")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# identities
# ---------------------------------------------------------------------------------------------
@given(df=result_frames())
def test_micro_f1_equals_accuracy(df: pl.DataFrame) -> None:
    """Single-label multiclass: micro-P = micro-R = micro-F1 = accuracy (eqs 2.15-2.17), for the
    expressions and for classification_report's micro row, weighted or not."""
    for weight in (None, "w"):
        out = (
            df.group_by("g")
            .agg(
                fe.accuracy("y", "p", weight=weight),
                fe.precision("y", "p", average="micro", weight=weight),
                fe.recall("y", "p", average="micro", weight=weight),
                fe.f1("y", "p", average="micro", weight=weight),
                fe.fbeta("y", "p", beta=3.0, average="micro", weight=weight),
            )
            .sort("g")
        )
        for name in ("precision", "recall", "f1", "fbeta"):
            assert_close(out[name].to_list(), out["accuracy"].to_list(), tol=TOL)
        report = fe.classification_report(df, truth="y", pred="p", by="g", weight=weight)
        micro = report.filter(pl.col("average") == "micro").sort("g")
        for name in ("precision", "recall", "f1"):
            assert_close(micro[name].to_list(), out["accuracy"].to_list(), tol=TOL)


@st.composite
def balanced_frames(draw) -> pl.DataFrame:
    """pred a permutation of truth within each group (and fold): every class has FP = FN, so
    P = R per class (and per fold for the binary positive class)."""
    g, fold, y, p = [], [], [], []
    for group in range(draw(st.integers(1, 3))):
        for f in range(draw(st.integers(1, 3))):
            truth = draw(st.lists(st.integers(0, 3), min_size=1, max_size=10))
            g += [group] * len(truth)
            fold += [f] * len(truth)
            y += truth
            p += draw(st.permutations(truth))
    return pl.DataFrame({"g": g, "fold": fold, "y": y, "p": p})


@given(df=balanced_frames(), beta=st.sampled_from([1.0, 0.5, 2.0]))
def test_two_macro_f_definitions_agree_when_p_equals_r(df: pl.DataFrame, beta: float) -> None:
    report = fe.classification_report(df, truth="y", pred="p", by="g", beta=beta)
    per_class = report.filter(pl.col("average") == "none")
    assert_close(per_class["precision"].to_list(), per_class["recall"].to_list(), tol=TOL)
    f = "f1" if beta == 1 else "fbeta"
    book = report.filter(pl.col("average") == "macro").sort("g")[f].to_list()
    mean = report.filter(pl.col("average") == "macro_mean").sort("g")[f].to_list()
    assert_close(book, mean, tol=TOL)
    expr = (
        df.group_by("g")
        .agg(
            fe.fbeta("y", "p", beta=beta, average="macro").alias("book"),
            fe.fbeta("y", "p", beta=beta, average="macro_mean").alias("mean"),
        )
        .sort("g")
    )
    assert_close(expr["book"].to_list(), book, tol=TOL)
    assert_close(expr["mean"].to_list(), mean, tol=TOL)
    pos = df["y"][0]  # a class that occurs
    folds = fe.macro_micro(df, truth="y", pred="p", by="g", across="fold", pos_label=pos)
    defined = folds.filter(pl.col("macro_f1").is_not_null() | pl.col("macro_mean_f1").is_not_null())
    assert_close(defined["macro_f1"].to_list(), defined["macro_mean_f1"].to_list(), tol=TOL)


def test_the_macro_f_definitions_can_differ() -> None:
    """The identity above is not vacuous: with P != R per class the two macro-F1 differ."""
    df = pl.DataFrame({"y": [0, 0, 0, 1], "p": [0, 1, 1, 1]})
    report = fe.classification_report(df, truth="y", pred="p")
    f = dict(zip(report["average"], report["f1"], strict=True))
    assert abs(f["macro"] - f["macro_mean"]) > 0.01
