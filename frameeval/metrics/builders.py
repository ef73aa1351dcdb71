"""Generate a measure's expression builder (and its docstring) from its declaration.

:func:`raw_value` turns a :class:`~frameeval.metrics.measure.Measure` and column names into the
value expression — the same code for a result frame and for a count table. :func:`make_builder`
wraps it with the input rules (:func:`input_rules`, decided when Polars plans the query) and
gives the generated function a real signature and a numpydoc docstring built from the
declaration, so ``help(fe.mcc)`` and the API docs read like a hand-written function.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from frameeval._inputs import Column, Inputs
from frameeval._params import FINITE
from frameeval._validate import (
    Checks,
    Shared,
    attach_guard,
    check_parameter,
    check_zero_division,
    failure,
    finite,
    planned,
    positive_of,
    resolve_pos_label,
    top_level,
)
from frameeval.exceptions import (
    FrameEvalError,
    InvalidParameterError,
    InvalidValueError,
    NegativeValueError,
    UnknownLabelError,
)
from frameeval.metrics.stats import (
    BinaryCounts,
    ClassCounts,
    ClassTable,
    ScoreTable,
    Sums,
    ratio,
    weight_expr,
    weight_total,
)

if TYPE_CHECKING:
    from frameeval.metrics.declared import Declared as Measure
    from frameeval.metrics.stats import Bound, Statistic

Average = Literal["binary", "macro", "macro_mean", "micro", "weighted"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""Default of a measure parameter that the caller must give (e.g. ``cost01``)."""


def resolve_parameters(measure: Measure, func: str, given: dict[str, Any]) -> dict[str, Any]:
    """The measure's parameters: defaults, overridden by ``given``; required ones checked."""
    unknown = set(given) - set(measure.parameters)
    if unknown:
        raise InvalidParameterError(
            f"{func}(): unexpected parameter {sorted(unknown)[0]}=, got "
            f"{sorted(given)}; {measure.name} takes {sorted(measure.parameters) or 'none'}."
        )
    params = {**measure.parameters, **given}
    missing = [k for k, v in params.items() if v is REQUIRED]
    check_parameter(
        not missing, func, f"{', '.join(m + '=' for m in missing)} is required, got none."
    )
    if measure.check is not None:
        measure.check(func, **params)
    params.pop("average", None)
    return params


class NotShareable(Exception):
    """A value that reads per-class vectors or ranks (not only per-group scalars): it cannot be
    written over the fields of a :class:`~frameeval._validate.Shared`."""


class _ScalarClassCounts(ClassCounts):
    """:class:`ClassCounts` whose scalars (Σ correct, Σ w) are fields of a ``Shared``; a
    per-class vector raises :class:`NotShareable` (the caller then builds the value unshared)."""

    def __init__(self, truth: pl.Expr, pred: pl.Expr, weight: str | None, shared: Shared) -> None:
        super().__init__(truth, pred, weight)
        object.__setattr__(self, "_shared", shared)

    @property
    def correct(self) -> pl.Expr:
        return self._shared(super().correct)  # type: ignore[attr-defined]

    @property
    def total(self) -> pl.Expr:
        return self._shared(super().total)  # type: ignore[attr-defined]

    def _per_class(self, labels: pl.Expr, weights: pl.Expr | None) -> pl.Expr:
        raise NotShareable

    @property
    def classes(self) -> pl.Expr:
        raise NotShareable

    def disagreement(self, power: int) -> pl.Expr:
        raise NotShareable


def _per_class_mean(values: pl.Expr, zero_division: float | None) -> pl.Expr:
    if zero_division is not None:
        values = values.fill_null(zero_division)
    return values.mean()


def raw_value(
    measure: Measure,
    truth: str,
    other: str,
    *,
    weight: str | None = None,
    pos_label: Any = None,
    average: str = "binary",
    zero_division: float | None = None,
    func: str | None = None,
    classes: pl.Expr | None = None,
    table: ClassTable | None = None,
    shared: Shared | None = None,
    **given: Any,
) -> pl.Expr:
    """The measure's value (not aliased, not guarded) from ``truth``/``other`` columns.

    ``classes``: a fixed sorted class set for the per-class statistics; default truth ∪ pred of
    the group. ``table``: read label statistics from a per-class table instead of rows (the
    frame functions' fast path; ``truth``/``other`` are then unused for label measures).
    ``shared``: every aggregate of the value is a field of it (raises :class:`NotShareable`
    for a value that reads per-class vectors or ranks).
    """
    func = func or measure.name
    params = resolve_parameters(measure, func, given)
    kind = measure.kind
    if shared is not None and (
        table is not None
        or classes is not None
        or (kind == "score" and not scalar_rows(measure, weight))
        or (kind == "binary" and (measure.parameters.get("average") or average) != "binary")
    ):
        raise NotShareable
    if kind == "label" and shared is not None:
        value = measure.formula(
            _ScalarClassCounts(pl.col(truth), pl.col(other), weight, shared), **params
        )
        return value if zero_division is None else value.fill_null(zero_division)
    if kind == "label":
        summary_: ClassCounts | ClassTable = table or ClassCounts(
            pl.col(truth), pl.col(other), weight, classes
        )
        value = measure.formula(summary_, **params)
        return value if zero_division is None else value.fill_null(zero_division)
    if kind == "binary":
        fixed = measure.parameters.get("average")
        average = fixed or average
        if average == "binary" and table is not None:
            mine = pl.col("label") == pl.lit(pos_label)
            ovr = table.one_vs_rest()
            counts = BinaryCounts(
                ovr.tp.filter(mine).sum(),
                ovr.fp.filter(mine).sum(),
                ovr.fn.filter(mine).sum(),
                # a group without the positive class has no row for it: every row is a TN
                pl.when(mine.any()).then(ovr.tn.filter(mine).sum()).otherwise(table.total),
            )
            value = measure.formula(counts, **params)
        elif average == "binary":
            positive = positive_of(truth, pos_label)
            counts = BinaryCounts.of(pl.col(truth), pl.col(other), positive, weight, shared)
            value = measure.formula(counts, **params)
        else:
            summary: ClassCounts | ClassTable = table or ClassCounts(
                pl.col(truth), pl.col(other), weight, classes
            )
            per_class = measure.formula(summary.one_vs_rest(), **params)
            if average == "micro":
                value = measure.formula(summary.one_vs_rest().summed(), **params)
            elif average == "weighted":
                if zero_division is not None:
                    per_class = per_class.fill_null(zero_division)
                support = summary.actual
                defined = pl.when(per_class.is_not_null()).then(support).sum()
                value = ratio((per_class * support).sum(), defined)
            elif average == "macro" and measure.macro is not None:

                def mean_of(other_measure: Measure) -> pl.Expr:
                    values = other_measure.formula(summary.one_vs_rest())
                    return _per_class_mean(values, zero_division)

                value = measure.macro(mean_of, **params)
            else:
                value = _per_class_mean(per_class, zero_division)
        if zero_division is None or average == "weighted":
            # a weighted mean over classes of total support 0 stays undefined
            return value
        return value.fill_null(zero_division)
    if kind == "score":
        positive = positive_of(truth, pos_label)
        if measure.rows is not None and shared is not None:
            return measure.rows(truth, other, positive, weight, read=shared)
        if measure.rows is not None:
            return measure.rows(truth, other, positive, weight)
        return measure.formula(ScoreTable.of(truth, other, positive, weight), **params)
    if kind == "regression" and measure.stats is not None:
        stats = regression_sums(measure.stats, (truth, other), weight, params, shared)
        return measure.formula(Sums(stats), **params)
    # probability / regression: sums of a per-row term
    assert measure.term is not None
    if kind == "probability":
        positive = positive_of(truth, pos_label)
        actual = (pl.col(truth) == positive).cast(pl.Float64)
        term = measure.term(actual, pl.col(other).cast(pl.Float64), **params)
    else:
        term = measure.term(
            pl.col(truth).cast(pl.Float64), pl.col(other).cast(pl.Float64), **params
        )
    read = shared if shared is not None else _same
    return measure.formula(
        read(_weighted(term, weight).sum()), read(weight_total(weight)), **params
    )


def scalar_rows(measure: Measure, weight: str | None) -> bool:
    """Whether a score measure's ``rows`` form reads per-group scalars only, through the
    ``read`` it takes (unweighted AUC: the positives' rank sum, their number and the group's
    length), so an eager query can compute each of them once (:class:`Shared`)."""
    rows = measure.rows
    return weight is None and rows is not None and "read" in inspect.signature(rows).parameters


def _same(expr: pl.Expr) -> pl.Expr:
    return expr


def _weighted(row: pl.Expr, weight: str | None) -> pl.Expr:
    """w·row (row itself without weights: 1.0·x is x, and the product costs a pass)."""
    return row if weight is None else weight_expr(weight) * row


def regression_sums(
    stats: Mapping[str, Statistic],
    columns: tuple[str, str],
    weight: str | None,
    params: dict[str, Any],
    shared: Shared | None,
) -> dict[str, pl.Expr]:
    """The statistics of a regression measure by name, over the truth and prediction
    ``columns`` (each a field of ``shared`` when given). Over a whole frame without weights
    (:attr:`Shared.whole`) a statistic declared ``unless_finite`` reads its rows only when a
    sum the value reads anyway is not finite, and a sum that ``proves_finite`` is recorded as
    the proof that both columns are finite (:meth:`Shared.prove`)."""
    y, f = (pl.col(c).cast(pl.Float64) for c in columns)
    read = shared if shared is not None else _same
    whole = shared is not None and shared.whole and weight is None
    plain = {n: s for n, s in stats.items() if s.unless_finite is None or not whole}
    out = {n: read(statistic_value(s, y, f, weight, params, whole)) for n, s in plain.items()}
    if not whole:
        return out
    assert shared is not None
    fallbacks = {n: s for n, s in stats.items() if n not in plain}
    unless = dict.fromkeys(s.unless_finite for s in fallbacks.values() if s.unless_finite)
    sums = [read(statistic_value(s, y, f, None, params, whole)) for s in unless]
    if sums:  # one predicate for all: R² reads both scaled sums when either plain one overflows
        need = ~pl.sum_horizontal(sums).is_finite()  # all ≥ 0: finite iff each is
        for name, stat in fallbacks.items():
            out[name] = read(statistic_value(stat, y, f, None, params, whole, need))
    for name, stat in plain.items():
        if stat.proves_finite:
            shared.prove(columns, out[name])
    return out


def statistic_value(
    stat: Statistic,
    y: pl.Expr,
    f: pl.Expr,
    weight: str | None,
    params: dict[str, Any],
    whole: bool = False,
    need: pl.Expr | None = None,
) -> pl.Expr:
    """One regression statistic of a group (see :class:`~frameeval.metrics.measure.Statistic`)
    from Float64 truth ``y`` and prediction ``f``. ``whole``: the context is a whole frame (an
    eager ``select``), where a statistic given the one-row predicate ``need`` reads its rows
    only when it holds: the rows pass through one struct filtered by
    it (evaluated once), and the per-row value is computed over its fields."""
    if stat.row is None:
        return weight_total(weight)
    rows = stat.unweighted if weight is None and stat.unweighted is not None else stat.row
    gated: pl.Expr | None = None
    if whole and weight is None and need is not None:
        gated = pl.struct(y.alias("y"), f.alias("f")).filter(need)
        y, f = pl.field("y"), pl.field("f")
    row = rows(y, f, **params) if stat.parametric else rows(y, f)
    row = row.cast(pl.Float64)
    if gated is not None:
        row = gated.struct.with_fields(row.alias("value")).struct.field("value")
    if stat.merge == "sum":
        return _weighted(row, weight).sum()
    if stat.merge == "median":
        return weighted_median(row, weight)
    kept = row.filter(pl.col(weight) > 0) if weight else row
    return kept.max() if stat.merge == "max" else kept.min()


def weighted_median(values: pl.Expr, weight: str | None) -> pl.Expr:
    """The weighted median of ``values`` by scikit-learn's rule (``_weighted_percentile`` with
    ``average=True``): the smallest value whose cumulative weight reaches half the total, or
    the midpoint of it and the next value of positive weight when it reaches exactly half
    (within 1e-12 of the total weight: scikit-learn compares with an absolute 2.2e-16).
    Without weights: the median (the midpoint of the two middle values of an even count)."""
    if weight is None:
        return values.median()
    w = pl.col(weight).cast(pl.Float64)
    order = values.arg_sort()
    ordered, cum = values.gather(order), w.gather(order).cum_sum()
    half = 0.5 * w.sum()
    # "exactly half" up to the rounding of the sums (relative 1e-12 of the total weight), so
    # that the order of the rows (of tied values, or the summation order) cannot flip it
    tol = 1e-12 * w.sum()
    reached = cum >= half - tol
    low = ordered.filter(reached).first()
    high = pl.coalesce(ordered.filter(cum > half + tol).first(), low)
    exact = cum.filter(reached).first() <= half + tol
    value = pl.when(exact).then((low + high) / 2.0).otherwise(low)
    return pl.when(w.sum() > 0).then(value)  # no weight: 0/0, null


def domain_rules(measure: Measure, params: dict[str, Any]) -> tuple[Bound, ...]:
    """The measure's domain rules for these parameters (none for most measures)."""
    return () if measure.domain is None else tuple(measure.domain(**params))


def domain_message(rule: Bound, column: str, measure: str | None = None) -> str:
    """``column 'y' (truth=) must be > 0 for gamma_deviance, got`` (the value follows)."""
    why = f" {rule.why}" if rule.why else ""
    of = f" for {measure}" if measure else ""
    return f"column {column!r} ({rule.role}=) must be {rule.op} {rule.value:g}{of}{why}, got"


def domain_checks(
    checks: Checks,
    measure: Measure,
    params: dict[str, Any],
    truth: str,
    pred: str | None,
    ruled: set[tuple[str, str, float]] | None = None,
    name: str | None = None,
) -> None:
    """Add the measure's domain rules (``y > 0`` for a Poisson deviance…) to ``checks``, each
    once per column (``ruled``: the rules already added, shared by the measures of one call);
    ``name`` names the measure in the message."""
    ruled = set() if ruled is None else ruled
    for rule in domain_rules(measure, params):
        column = truth if rule.role == "truth" else pred
        assert column is not None
        if (column, rule.op, rule.value) in ruled:
            continue
        ruled.add((column, rule.op, rule.value))
        x = pl.col(column).cast(pl.Float64)
        checks.rule(
            outside(rule, x) & finite(x),
            domain_error(rule),
            domain_message(rule, column, name),
            example=x,
        )


def domain_error(rule: Bound) -> type[FrameEvalError]:
    return NegativeValueError if (rule.op, rule.value) == (">=", 0.0) else InvalidValueError


def outside(rule: Bound, column: pl.Expr) -> pl.Expr:
    """Per row: the value breaks ``rule``."""
    return column < rule.value if rule.op == ">=" else column <= rule.value


def guarded_value(
    measure: Measure,
    truth: str,
    other: str,
    *,
    name: str | None = None,
    weight: str | None = None,
    pos_label: Any = None,
    average: str = "binary",
    zero_division: Any = None,
    **given: Any,
) -> pl.Expr:
    """The builder's body: parameter checks, the value, the input guard, the output name."""
    func = name or measure.name
    for role, column in ((measure.columns[0], truth), (measure.columns[1], other)):
        check_parameter(
            isinstance(column, str),
            func,
            f"{role} must be a column name (a string), got {column!r}.",
        )
    check_parameter(
        weight is None or isinstance(weight, str),
        func,
        f"weight must be a column name or None, got {weight!r}.",
    )
    zero_division = check_zero_division(func, zero_division)
    if measure.kind == "binary":
        allowed = measure.averages
        check_parameter(
            average in allowed, func, f"average must be one of {list(allowed)}, got {average!r}."
        )
    params = resolve_parameters(measure, func, given)  # parameter errors at once
    average = measure.parameters.get("average") or average
    columns = [truth, other, *([weight] if weight else [])]

    def plan(inputs: list[tuple[pl.Expr, pl.DataType]], shared: Shared | None = None) -> pl.Expr:
        # run by Polars at plan time, once the dtypes are known: a schema rule raises here
        # (typed, before any data is read); a data rule is declared only for the dtypes that
        # can break it (an Int8 column is never scanned for NaN)
        schema = pl.Schema({c: dtype for c, (_, dtype) in zip(columns, inputs, strict=True)})
        if shared is not None:
            # every aggregate of the value and of its guard computed once (a Shared), where
            # the value reads only per-group scalars: an eager query shares nothing by itself
            try:
                return _planned_value(shared, schema)
            except NotShareable:
                pass
        return _planned_value(None, schema)

    def _planned_value(shared: Shared | None, schema: pl.Schema) -> pl.Expr:
        checks, failures, positive = input_rules(
            measure, func, schema, truth, other, weight, pos_label, average, params, shared
        )
        value = raw_value(
            measure,
            truth,
            other,
            weight=weight,
            pos_label=positive,
            average=average,
            zero_division=zero_division,
            func=func,
            shared=shared,
            **given,
        )
        guard = checks.guard(*failures, shared=shared)
        guarded = value if guard is None else attach_guard(value, guard)
        return guarded if shared is None else shared.bind(guarded)

    owner = object()  # who claims this builder's rules in an eager query
    # F-beta's value reads both positive counts, as the class rule does: it prefers to check it
    both = weight is None and binary_rule(measure, average, pos_label)
    prefers = ((THIRD_CLASS, truth, other),) if both and reads_both_counts(measure, params) else ()
    return top_level(planned(columns, plan, plan, owner).alias(func), owner, prefers)


def binary_rule(measure: Measure, average: str, pos_label: Any) -> bool:
    """Whether a builder declares the ``average="binary"`` class rule (:func:`third_class`)
    on label columns other than boolean ones."""
    return measure.kind == "binary" and average == "binary" and pos_label is None


def reads_both_counts(measure: Measure, params: dict[str, Any]) -> bool:
    """Whether the unweighted value of a binary measure reads both the actual and the
    predicted positive count (F-beta does, precision and recall read one each)."""
    tp, n, actual, predicted = (pl.col(c) for c in ("tp", "n", "actual", "predicted"))
    fp, fn = predicted - tp, actual - tp
    counts = BinaryCounts(tp, fp, fn, n - actual - fp, actual, predicted)
    roots = measure.formula(counts, **params).meta.root_names()
    return "actual" in roots and "predicted" in roots


#: the first word of the class rule's text (:meth:`~frameeval._validate.Shared.carries`)
THIRD_CLASS = "third class"
#: the input columns of a measure, by kind: its truth and the column it compares it with (the
#: builders and :func:`frameeval.measures` read scores and predictions as Float64, so a Decimal
#: is fine; NaN and ±inf of a regression column in one count, as its statistics check them)
MEASURE_INPUTS: dict[str, tuple[Column, Column]] = {
    "label": (Column("truth", "label", "label"), Column("pred", "label", "label")),
    "binary": (Column("truth", "label", "label"), Column("pred", "label", "label")),
    "score": (Column("truth", "label", "label"), Column("score", "numeric_or_decimal", "finite")),
    "probability": (
        Column("truth", "label", "label"),
        Column("score", "numeric_or_decimal", "finite", "unit"),
    ),
    "regression": (
        Column("truth", "numeric_or_decimal", "finite_one_count"),
        Column("pred", "numeric_or_decimal", "finite_one_count"),
    ),
}
#: a builder's weight (read as Float64: a Decimal is fine)
BUILDER_WEIGHT = Column("weight", "numeric_or_decimal", "weight")


def input_rules(
    measure: Measure,
    func: str,
    schema: pl.Schema,
    truth: str,
    other: str,
    weight: str | None,
    pos_label: Any,
    average: str,
    params: dict[str, Any] | None = None,
    shared: Shared | None = None,
) -> tuple[Checks, list[pl.Expr], Any]:
    """The input rules of a measure's builder, from the dtypes of its columns.

    The schema rules are the frame functions' own (:func:`check_labels`,
    :func:`check_numeric`, :func:`resolve_pos_label`) and raise at once; the data rules are
    the frame functions' :class:`Checks`, compiled by :meth:`Checks.guard` into the
    expression. Returns the checks, the per-group failures that have no per-row form (a third
    class under ``average="binary"``) and the positive class (None where the measure has none).
    """
    kind = measure.kind
    other_role = "pred" if kind in ("label", "binary", "regression") else "score"
    checks = Inputs(*MEASURE_INPUTS[kind], BUILDER_WEIGHT).compile(
        schema, func, truth=truth, weight=weight, **{other_role: other}
    )
    failures: list[pl.Expr] = []
    if kind == "regression" and weight is None:
        # unweighted: one min per rule, read after the null and finiteness checks
        for rule in domain_rules(measure, params or {}):
            column = truth if rule.role == "truth" else other
            failures.append(domain_failure(func, rule, column, shared))
    elif kind == "regression":
        domain_checks(checks, measure, params or {}, truth, other)
    positive = None
    binary = kind == "binary" and average == "binary"
    if kind in ("score", "probability") or binary:
        positive = resolve_pos_label(schema, func, truth, pos_label)
    if kind in ("score", "probability") and pos_label is not None:
        # a label measure's explicit pos_label may be absent: that is the one-vs-rest value of
        # a class the rows lack (scikit-learn's multilabel_confusion_matrix(labels=))
        failures.append(absent_positive(func, truth, positive, shared))
    if binary_rule(measure, average, pos_label) and schema[truth] != pl.Boolean:
        # a third class is an error only when the positive class is the default one: an
        # explicit pos_label on a multiclass column asks for that class's one-vs-rest value;
        # in an eager query one builder checks it for every builder of the same columns
        # (one whose value reads both positive counts, if any: see guarded_value)
        text = (THIRD_CLASS, truth, other, repr(positive), str(schema[truth]), str(schema[other]))
        if shared is None or shared.carries(text):
            failures.append(third_class(func, truth, other, positive, schema, shared))
    return checks, failures, positive


def domain_failure(func: str, rule: Bound, column: str, shared: Shared | None = None) -> pl.Expr:
    """A domain rule of an unweighted regression measure, as a failure after the null and
    finiteness checks of both columns (its place among the checks: no weight check follows).

    Those fail first whenever a value is null, NaN or ±inf, so where this one is read every
    value is finite, and some value breaks ``rule`` (``x >= v`` or ``x > v``) exactly when the
    smallest one does, which is then the smallest offending value the message reports: one
    ``min`` instead of a count and a filtered ``min`` over the rows (four comparisons each)."""
    read = shared if shared is not None else _same
    least = read(pl.col(column).cast(pl.Float64).min())
    return failure(
        outside(rule, least),
        domain_error(rule),
        f"{func}(): {domain_message(rule, column)} {{}}.",
        least,
    )


def absent_positive(func: str, truth: str, positive: Any, shared: Shared | None = None) -> pl.Expr:
    """A score measure's explicit ``pos_label`` must be a class of the truth column of the rows
    in context whenever they hold two or more classes: a typo (``pos_label=7`` on 0/1 labels)
    is an error, as in scikit-learn, while a group of one class (a fold of negatives only)
    keeps its documented value (null for AUC)."""
    y = pl.col(truth)
    read = shared if shared is not None else _same
    low, high = read(y.min()), read(y.max())
    return failure(
        ~read((y == pl.lit(positive)).any()) & (low != high).fill_null(False),
        UnknownLabelError,
        f"{func}(): pos_label ({positive!r}) must be a class of column {truth!r} (truth=), got "
        "classes {} to {} without it.\nHint: pass the positive class as pos_label=.",
        low,
        high,
    )


def class_spread(
    truth: str, pred: str, positive: Any, schema: pl.Schema, shared: Shared | None = None
) -> tuple[pl.Expr, pl.Expr, pl.Expr] | None:
    """Aggregates deciding whether the integer labels of ``truth`` and ``pred`` hold at most
    one class besides ``positive`` (see :func:`third_class`): ``(spread, others, labels)``,
    ``spread`` zero exactly when they do, ``others`` the number of labels that are not
    ``positive`` and ``labels`` the number of labels (2n). None for dtypes without the 64-bit
    form (those take a min/max)."""
    small = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32)
    if not all(schema[c] in small or schema[c] == pl.UInt64 for c in (truth, pred)):
        return None
    unsigned = all(schema[c].is_unsigned_integer() for c in (truth, pred))
    if pl.UInt64 in (schema[truth], schema[pred]) and not unsigned:
        return None  # a signed column beside a UInt64 one: no common 64-bit type
    wide: pl.DataType = pl.UInt64() if unsigned else pl.Int64()
    labels = [pl.col(c) if schema[c] == wide else pl.col(c).cast(wide) for c in (truth, pred)]
    pos = pl.lit(positive, dtype=wide)
    read = shared if shared is not None else _same
    n = read(pl.len()).cast(wide)
    # the value's own positive counts (the same expressions, so Polars computes them once; in
    # an eager group_by, where it does not, the same fields of ``shared``)
    k = [read((pl.col(c) == pl.lit(positive)).sum()).cast(wide) for c in (truth, pred)]
    others = n + n - k[0] - k[1]
    bits = read(((labels[0] - pos) | (labels[1] - pos)).bitwise_or())
    # Σ offsets = Σ labels − 2n·pos (mod 2^64): one addition per row instead of three
    offsets = read((labels[0] + labels[1]).sum()) - (n + n) * pos
    return others * bits - offsets, others, n + n


def third_class(
    func: str, truth: str, pred: str, positive: Any, schema: pl.Schema, shared: Shared | None = None
) -> pl.Expr:
    """``average="binary"``: truth and pred hold at most one class besides the positive one
    (scikit-learn raises too).

    Integer labels are checked with two cheap aggregates and the positive counts the value
    already reads (no min/max, which cost three sums each in a ``group_by``). With 64-bit
    wrapping arithmetic, each row's offset ``t = v − pos`` is 0 exactly for the positive class
    and distinct for distinct classes; let ``O`` be the bitwise OR of every offset of both
    columns, ``S`` their sum and ``m`` the number of rows that are not positive. Every offset's
    bits lie within ``O``'s, so ``O − t ≥ 0`` (as an unsigned 64-bit number) and
    ``m·O − S = Σ (O − t)`` is zero exactly when every other row has the same offset ``O``:
    one class besides the positive one, the same in truth and pred. The test is modulo 2^64: a
    valid group never fails; a third class could pass only if ``Σ (O − t)`` were a multiple of
    2^64, i.e. with labels about 2^63 apart (or 2^32 apart over 2^32 rows). UInt64 labels
    compute in UInt64, other integer labels in Int64. Other dtypes (strings, categoricals,
    integral floats, 128-bit integers) take the min/max of the rows that are not positive.

    The error names the function, the positive class and the columns; ``fe.measures`` (the
    same test, per group of its ``by=``) also names the group.
    """
    spread = class_spread(truth, pred, positive, schema, shared)
    read = shared if shared is not None else _same
    if spread is not None:
        off, others, labels = spread
        return failure(
            off != 0,
            InvalidParameterError,
            f"{func}(): average='binary' needs two classes (pos_label={positive!r} and one "
            f"other), got more than one class besides {positive!r} in columns {truth!r} "
            f"(truth=) and {pred!r} (pred=) ({{}} of their {{}} labels are not "
            f"{positive!r}); pass average='macro', 'micro' or 'weighted'.",
            others,
            labels,
        )
    pos = pl.lit(positive)
    others_ = [pl.col(c).filter(pl.col(c) != pos) for c in (truth, pred)]
    lows = [read(o.min()) for o in others_]
    highs = [read(o.max()) for o in others_]
    third = (lows[0] != lows[1]).fill_null(False)
    for low, high in zip(lows, highs, strict=True):
        third = third | (low != high).fill_null(False)
    return failure(
        third,
        InvalidParameterError,
        f"{func}(): average='binary' needs two classes (pos_label and one other), got classes "
        "{} and {} besides the positive one; pass average='macro', 'micro' or 'weighted'.",
        pl.min_horizontal(*lows),
        pl.max_horizontal(*highs),
    )


# ---------------------------------------------------------------------------------------------
# the generated builder
# ---------------------------------------------------------------------------------------------
_SIX_ROWS = {
    "label": ('{"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}', '"y", "p"'),
    "binary": ('{"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}', '"y", "p"'),
    "score": ('{"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]}', '"y", "s"'),
    "probability": ('{"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]}', '"y", "s"'),
    "regression": (
        '{"y": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "f": [1.5, 2.0, 2.0, 4.5, 5.0, 7.0]}',
        '"y", "f"',
    ),
}

_ROLE_TEXT = {
    "truth": "Column with the true label (the true value for a regression measure).",
    "pred": "Column with the predicted label (the prediction for a regression measure).",
    "score": "Numeric, finite column; larger means more positive (a probability in [0, 1] for "
    "a probability measure).",
}


def _docstring(measure: Measure, name: str) -> str:
    direction = "higher is better" if measure.higher_is_better else "lower is better"
    upper = "∞" if measure.upper is None else f"{measure.upper:g}"
    eq = f" (eq {measure.equation})" if measure.equation not in ("", "—") else ""
    lines = [
        f"{measure.description[0].upper()}{measure.description[1:]}.",
        "",
        f"Generated from the declaration ``fe.MEASURES[{measure.name!r}]`` (kind "
        f"``{measure.kind}``; statistics: {measure.statistics}). Use it in any ``select``, "
        "``group_by().agg()`` or ``.over()``; :func:`frameeval.measures` computes many measures "
        "from statistics counted once.",
        "",
        *_parameters_section(measure),
        "",
        "Returns",
        "-------",
        "pl.Expr",
        f"    Float64 aggregate named ``{name}``.",
        "",
        "Notes",
        "-----",
        f"{measure.formula_text}{eq}. Range [{measure.lower:g}, {upper}], {direction}. "
        f"Null when {measure.undefined}.",
    ]
    if measure.references:
        lines += ["", "References", "----------", *measure.references]
    if measure.example:
        lines += _examples_section(measure, name)
    return "\n".join(lines) + "\n"


def _parameters_section(measure: Measure) -> list[str]:
    a, b = measure.columns
    lines = [
        "Parameters",
        "----------",
        f"{a}, {b}",
        f"    Column names. {_ROLE_TEXT[a]} {_ROLE_TEXT[b]}",
    ]
    if measure.kind in ("binary", "score", "probability"):
        lines += [
            "pos_label",
            "    The positive class. Default None: ``1`` for numeric labels, ``True`` for "
            "booleans; required for string labels.",
        ]
    if measure.kind == "binary" and "average" not in measure.parameters:
        lines += [
            "average",
            '    ``"binary"`` (the class ``pos_label``; a third class is an error), '
            '``"macro"`` (over the classes of truth ∪ pred: '
            + (
                "the formula applied to the macro averages of its parts, eq 2.14"
                if measure.macro is not None
                else "the mean of the per-class values, eq 2.12"
            )
            + '), ``"macro_mean"`` (the mean of the per-class values), ``"micro"`` (the '
            'formula on the summed per-class counts, eqs 2.15–2.17), ``"weighted"`` (the '
            "support-weighted mean of the per-class values).",
        ]
    lines += [
        "weight",
        "    Optional column of non-negative weights (the data distribution 𝒟, eqs 2.3, 2.5).",
    ]
    if measure.kind in ("binary", "label"):
        lines += [
            "zero_division",
            "    Value in [0, 1] for an undefined (0/0) value. Default "
            "None: null (and a class whose value is 0/0 is left out of a macro mean).",
        ]
    for param, default in measure.parameters.items():
        if param != "average":
            lines += [param, f"    Measure parameter (default {default!r})."]
    return lines


def _examples_section(measure: Measure, name: str) -> list[str]:
    frame, cols = _SIX_ROWS[measure.kind]
    extra = "".join(
        f", {param}=1" for param, default in measure.parameters.items() if default is REQUIRED
    )
    return [
        "",
        "Examples",
        "--------",
        f">>> df = pl.DataFrame({frame})",
        f">>> round(df.select(fe.{name}({cols}{extra})).item(), 4)",
        measure.example,
    ]


def make_builder(measure: Measure, name: str | None = None) -> Callable[..., pl.Expr]:
    """The expression builder of ``measure`` (public name ``name``, default the measure's)."""
    public = name or measure.name
    a, b = measure.columns

    def build(*args: Any, **kwargs: Any) -> pl.Expr:
        bound = build.__signature__.bind(*args, **kwargs)  # type: ignore[attr-defined]
        arguments = dict(bound.arguments)
        truth = arguments.pop(a)
        other = arguments.pop(b)
        defaults = {
            p.name: p.default
            for p in build.__signature__.parameters.values()  # type: ignore[attr-defined]
            if p.default is not inspect.Parameter.empty
        }
        values = {**defaults, **arguments}
        core = {
            k: values.pop(k)
            for k in ("weight", "pos_label", "average", "zero_division")
            if k in values
        }
        return guarded_value(measure, truth, other, name=public, **core, **values)

    positional = [
        inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
        inspect.Parameter(b, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
    ]
    build.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [*positional, *signature_parameters(measure)], return_annotation=pl.Expr
    )
    build.__name__ = public
    build.__qualname__ = public
    build.__doc__ = _docstring(measure, public)
    build.__annotations__ = {
        p.name: p.annotation
        for p in build.__signature__.parameters.values()  # type: ignore[attr-defined]
    } | {"return": pl.Expr}
    build.measure = measure  # type: ignore[attr-defined]
    if name is None and "_builder" not in measure.__dict__:
        object.__setattr__(measure, "_builder", build)  # Measure.builder returns this one
    return build


def finite_number(value: Any) -> bool:
    return FINITE.holds(value)


def signature_parameters(measure: Measure) -> list[inspect.Parameter]:
    """The keyword parameters of the measure's builder, for its generated signature."""
    kw = inspect.Parameter.KEYWORD_ONLY
    out: list[inspect.Parameter] = []
    if measure.kind in ("binary", "score", "probability"):
        out.append(inspect.Parameter("pos_label", kw, default=None, annotation=Any))
    if measure.kind == "binary" and "average" not in measure.parameters:
        out.append(inspect.Parameter("average", kw, default="binary", annotation=Average))
    out.append(inspect.Parameter("weight", kw, default=None, annotation=str | None))
    if measure.kind in ("binary", "label"):
        out.append(inspect.Parameter("zero_division", kw, default=None, annotation=float | None))
    for name, default in measure.parameters.items():
        if name == "average":
            continue
        value = inspect.Parameter.empty if default is REQUIRED else default
        out.append(inspect.Parameter(name, kw, default=value, annotation=Any))
    return out
