"""Many measures in one grouped pass: :func:`measures` (yardstick's ``metric_set``).

Each kind of measure reads one sufficient statistic, counted once per group whatever the number
of measures that read it: the confusion-count table for label and binary measures, the
per-distinct-score table for ranking measures, sums for probability and regression measures.
Each measure's formula (its :class:`~frameeval.metrics.measure.Measure` declaration) is then
applied to the statistic — the same code that the expression builders run on rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from frameeval._extensions import provider
from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import WEIGHT_INPUT, Column, Inputs, check_clash, require_positive
from frameeval._typing import Frame, Keys, frame_function
from frameeval._validate import (
    Checks,
    check_not_empty_eager,
    check_parameter,
    check_zero_division,
    enforce,
    failure,
    group_text,
    label_expr,
    resolve_pos_label,
)
from frameeval.confusion import count_table, prepare_labels
from frameeval.confusion import own_parameters as _parameters
from frameeval.curves import cumulated, prepare_scores, score_table
from frameeval.exceptions import InvalidParameterError, UnknownLabelError
from frameeval.metrics.builders import (
    MEASURE_INPUTS,
    class_spread,
    domain_checks,
    raw_value,
    statistic_value,
)
from frameeval.metrics.measure import AVERAGES, Measure, lookup
from frameeval.metrics.stats import (
    ClassCounts,
    ClassTable,
    Statistic,
    Sums,
    class_table,
    weight_expr,
    weight_total,
)

__all__ = ["measures"]

DEFAULT_LABEL = ("accuracy", "precision", "recall", "f1")
DEFAULT_SCORE = ("roc_auc", "average_precision")


@frame_function
def measures(
    data: Any,
    truth: str,
    pred: str | None = None,
    score: str | None = None,
    *,
    by: Keys = None,
    measures: Sequence[str | Measure] | None = None,
    weight: str | None = None,
    pos_label: Any = None,
    average: str = "binary",
    zero_division: float | None = None,
    long: bool = False,
    ci: float | None = None,
    n_resamples: int = 200,
    seed: int = 0,
    ci_method: Mapping[str, str] | None = None,
) -> Frame:
    """Many measures per group in one pass over shared sufficient statistics.

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth, pred, score
        Column roles: label and binary measures read ``truth`` and ``pred``; ranking and
        probability measures ``truth`` and ``score``; regression measures ``truth`` and
        ``pred`` (numeric).
    by
        Key column(s); one row per group.
    measures
        Registered measure names (``fe.MEASURES``) or :class:`~frameeval.Measure` objects,
        configured ones included (``fe.MEASURES["fbeta"].configure("f2", beta=2.0)``). Default:
        accuracy, precision, recall and F1 when ``pred`` is given, plus AUC and average
        precision when ``score`` is.
    weight, pos_label, zero_division
        As in the expression builders; ``pos_label`` defaults to 1 (True for booleans) and is
        required for string labels.
    average
        ``average=`` of every binary measure not configured with its own.
    long
        ``False``: ``*by`` then one column per measure (named after it). ``True``: ``*by,
        measure, value``.
    ci
        Confidence level of an interval per measure and group (e.g. ``0.95``); ``None`` (the
        default): values only. Wilson score intervals for the unweighted shares of counts
        (accuracy, error rate, precision, recall, specificity, NPV, FPR, FNR with
        ``average="binary"`` or ``"micro"``), percentile intervals of a Poisson bootstrap for
        every other measure and for weighted data (see :doc:`/uncertainty`).
    n_resamples, seed
        Bootstrap replicates B and the seed of their replicate weights: the same seed gives
        the same interval (whatever the row order).
    ci_method
        Per-measure method overriding the default: ``{"roc_auc": "delong"}`` (DeLong's normal
        interval, unweighted), ``"bootstrap"`` (any measure) or ``"wilson"`` (the shares above).

    Returns
    -------
    Same kind as ``data``: ``*by, <measure>...`` (Float64), one row per group sorted by the keys;
    or with ``long=True`` ``*by, measure, value`` (measures in the order asked). With ``ci=``
    each measure's column is followed by ``<measure>_low`` and ``<measure>_high`` (Float64;
    null where the value is undefined), or the long frame gains ``low, high``.

    Notes
    -----
    The confusion counts are counted once for P, R, F1, accuracy, MCC… (one ``group_by`` over
    ``*by, actual, predicted``) — or, when every label measure is binary with
    ``average="binary"`` or reads only the trace and total (accuracy), summed from the rows in
    one ``group_by(*by)`` (faster; the same values); ranking measures of many groups (``by=``
    given) are their row forms (the Mann–Whitney rank sum of AUC, eq 2.21) in one
    ``group_by(*by)``, and of one group the per-distinct-score masses, which are faster for a
    few large groups and bounded in memory on a streamed input. Each value equals its
    expression builder's (same declaration, same statistics) and the statistics merge across
    partitions (the Dask backend sums them).

    Intervals (``ci=``): Wilson (1927) for the shares of counts, from the successes and trials
    counted with the values; for the others the percentile interval of a Poisson bootstrap
    (Efron & Tibshirani 1993): B replicate weights w·Poisson(1) per row, drawn per distinct row
    from a hash of its values and ``seed`` (so row order and other groups do not change an
    interval), every group × replicate in one grouped call — for label measures this resamples
    the confusion-count cells. DeLong (1988) for AUC on request. Not on Dask (an
    ``InvalidParameterError``).

    Examples
    --------
    >>> df = pl.DataFrame({"m": ["a"] * 3 + ["b"] * 3, "y": [1, 0, 1, 1, 0, 0],
    ...                    "p": [1, 0, 0, 1, 1, 0], "s": [0.9, 0.2, 0.4, 0.8, 0.7, 0.1]})
    >>> out = fe.measures(df, truth="y", pred="p", score="s", by="m",
    ...                   measures=["accuracy", "f1", "mcc", "roc_auc"])
    >>> out.columns
    ['m', 'accuracy', 'f1', 'mcc', 'roc_auc']
    >>> out.row(0)
    ('a', 0.6666666666666666, 0.6666666666666666, 0.5, 1.0)

    With ``ci=``: accuracy's Wilson interval (4 of 6 right), F1's bootstrap interval:

    >>> out = fe.measures(df, truth="y", pred="p", measures=["accuracy", "f1"], ci=0.95)
    >>> out.columns
    ['accuracy', 'accuracy_low', 'accuracy_high', 'f1', 'f1_low', 'f1_high']
    >>> [round(v, 4) for v in out.row(0)[:3]]
    [0.6667, 0.3, 0.9032]
    """
    func = "measures"
    if ci is not None or ci_method is not None:
        measures_with_intervals = provider("measures_with_intervals")
        check_parameter(ci is not None, func, "ci_method= needs ci=, got ci=None.")
        assert ci is not None
        return measures_with_intervals(
            data, truth, pred, score, by=by, measures=measures, weight=weight,
            pos_label=pos_label, average=average, zero_division=zero_division, long=long,
            ci=ci, n_resamples=n_resamples, seed=seed, ci_method=ci_method,
        )  # fmt: skip
    chosen = chosen_measures(func, measures, pred, score)
    names = [m.name for m in chosen]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    check_parameter(
        not duplicated, func, f"measures= must not repeat a name, got {duplicated} twice."
    )
    check_parameter(
        average in AVERAGES, func, f"average must be one of {list(AVERAGES)}, got {average!r}."
    )
    zero_division = check_zero_division(func, zero_division)
    keys = as_keys(by)
    check_clash(func, keys, {*names, "measure", "value"})
    for m in chosen:
        role = m.columns[1]
        given = pred if role == "pred" else score
        if given is None:
            raise InvalidParameterError(
                f"{func}(): measure {m.name!r} reads {role}=, got {role}=None."
            )

    lf, eager = to_lazy(data, func)
    call = _Call(
        data, lf, eager, truth, pred, score, keys, weight, pos_label, average, zero_division
    )
    parts: list[pl.LazyFrame] = []
    label = [m for m in chosen if m.kind in ("label", "binary")]
    if label:
        parts.append(_label_part(call, label))
    ranking = [m for m in chosen if m.kind == "score"]
    sums = [m for m in chosen if m.kind in ("probability", "regression")]
    if (
        ranking
        and sums
        and keys
        and all(m.rows is not None for m in ranking)
        and all(m.kind == "probability" for m in sums)
    ):
        # AUC and log loss / Brier of many groups: one aggregation over the rows
        parts.append(_sums_part(call, sums, ranking))
        ranking = sums = []
    if ranking:
        parts.append(_score_part(call, ranking))
    if sums:
        parts.append(_sums_part(call, sums))
    return finish(assemble(parts, keys, names, long), eager)


@dataclass(frozen=True)
class _Call:
    """One call of :func:`measures`: its frame and the arguments its parts read."""

    data: Any
    lf: pl.LazyFrame
    eager: bool
    truth: str
    pred: str | None
    score: str | None
    keys: list[str]
    weight: str | None
    pos_label: Any
    average: str
    zero_division: float | None
    func: str = "measures"


def chosen_measures(func: str, measures: Any, pred: str | None, score: str | None) -> list[Measure]:
    """The :class:`Measure` objects ``measures=`` asks for (the defaults when None)."""
    if measures is None:
        measures = [*(DEFAULT_LABEL if pred else ()), *(DEFAULT_SCORE if score else ())]
    if isinstance(measures, str | Measure):
        measures = [measures]
    chosen = [_as_asked(lookup(func, m), m) for m in measures]
    check_parameter(bool(chosen), func, "measures= must name at least one measure, got [].")
    return chosen


def _as_asked(measure: Measure, asked: Any) -> Measure:
    """``measure`` under the name the user asked for: an alias (``specificity`` for ``tnr``)
    names its column as the expression ``fe.specificity`` does."""
    if isinstance(asked, str) and asked != measure.name:
        return measure.configure(asked)
    return measure


def assemble(
    parts: list[pl.LazyFrame], keys: list[str], names: list[str], long: bool
) -> pl.LazyFrame:
    """The output of :func:`measures` from its parts (``*keys`` and some measure columns each):
    joined on the keys, columns in the order asked, sorted; unpivoted when ``long``."""
    out = parts[0]
    for part in parts[1:]:
        out = (
            out.join(part, on=keys, how="full", nulls_equal=True, coalesce=True)
            if keys
            else pl.concat([out, part], how="horizontal")
        )
    out = out.select(*keys, *names)
    if keys:
        out = out.sort(keys, nulls_last=True)
    if long:
        out = out.unpivot(index=keys, on=names, variable_name="measure", value_name="value")
        if keys:
            order = pl.col("measure").replace_strict(names, list(range(len(names))))
            out = out.sort(*keys, order, nulls_last=True)
    return out


def _label_part(call: _Call, chosen: list[Measure]) -> pl.LazyFrame:
    """Label and binary measures: from the rows (:func:`_label_rows_part`) when they allow it,
    else from the confusion-count table with its class rules (:func:`_class_rules`)."""
    func, truth, pred, keys, average = call.func, call.truth, call.pred, call.keys, call.average
    assert pred is not None
    _, _, _, schema, checks = prepare_labels(
        call.lf if not call.eager else call.data, func, truth, pred, keys, call.weight, outputs=()
    )
    rows = _label_rows_part(call, schema, checks, chosen)
    if rows is not None:
        return rows
    counts = count_table(call.lf, schema, keys, truth, pred, call.weight, checks, None)
    if isinstance(schema[truth], pl.Enum) and schema[truth] == schema[pred]:
        # one class order on both faces: an Enum's own (the expressions sort the Enum itself);
        # the count table holds its labels as strings, which would sort alphabetically
        counts = counts.with_columns(pl.col("actual", "predicted").cast(schema[truth]))
    positive = (
        resolve_pos_label(schema, func, truth, call.pos_label)
        if any(m.kind == "binary" for m in chosen)
        else None
    )
    kappa = any(m.parameters.get("weights") for m in chosen)
    table = class_table(counts, keys, None, disagreement=kappa)
    summary = ClassTable()
    values = [
        m.value(
            "actual",
            "predicted",
            pos_label=positive,
            average=_average(m, average),
            zero_division=call.zero_division,
            table=summary,
        ).alias(m.name)
        for m in chosen
    ]
    binary_average = any(m.kind == "binary" and _average(m, average) == "binary" for m in chosen)
    extra, failures = _class_rules(call, positive, binary_average)
    stats = table.group_by(keys).agg(*values, *extra) if keys else table.select(*values, *extra)
    if failures:
        stats = enforce(stats, *failures).drop([e.meta.output_name() for e in extra])
    return stats


def _average(measure: Measure, average: str) -> str:
    """The ``average=`` of ``measure``: its own when configured with one, else the call's."""
    return measure.parameters.get("average") or average


def _class_rules(
    call: _Call, positive: Any, binary_average: bool
) -> tuple[list[pl.Expr], list[pl.Expr]]:
    """The class rules of the count-table path: the per-group columns they read and their
    failures. With ``average="binary"``, the default positive class must be a class of every
    group holding two or more classes (the expression builders' rule, scikit-learn's
    "pos_label=1 is not a valid label") and at most one other class; an explicit one must occur
    somewhere in the frame (a fold may lack it)."""
    func, truth, pred, keys, pos_label = call.func, call.truth, call.pred, call.keys, call.pos_label
    binary = binary_average and pos_label is None
    label = pl.col("label")
    extra: list[pl.Expr] = []
    if binary_average:
        extra += [
            (label == positive).any().alias("__fe_hit"),
            label.min().cast(pl.String).alias("__fe_min"),
            label.max().cast(pl.String).alias("__fe_max"),
        ]
    if binary:
        others = label.filter(label != positive)
        extra += [
            others.min().cast(pl.String).alias("__fe_low"),
            others.max().cast(pl.String).alias("__fe_high"),
        ]
    failures = []
    if binary_average and pos_label is not None:
        failures.append(
            failure(
                ~pl.col("__fe_hit").any(),
                UnknownLabelError,
                f"{func}(): pos_label ({pos_label!r}) must occur in column {truth!r} (truth=) or "
                f"{pred!r} (pred=), got none.\nHint: pass the positive class as pos_label=.",
            )
        )
    elif binary_average:
        shown = "the default 1"
        failures.append(
            failure(
                ~pl.col("__fe_hit") & (pl.col("__fe_min") != pl.col("__fe_max")),
                UnknownLabelError,
                f"{func}(): pos_label ({shown}) must be a class of column {truth!r} (truth=) or "
                f"{pred!r} (pred=), got classes {{}} and {{}} without it{{}}.\nHint: pass the "
                "positive class as pos_label=.",
                pl.col("__fe_min"),
                pl.col("__fe_max"),
                group_text(keys),
            )
        )
    if binary:
        low, high = pl.col("__fe_low"), pl.col("__fe_high")
        failures.append(
            failure(
                low != high,
                InvalidParameterError,
                f"{func}(): average='binary' needs two classes (pos_label={positive!r} and one "
                "other), got classes {} and {} besides the positive one{}; pass average='macro', "
                "'micro' or 'weighted'.",
                low,
                high,
                group_text(keys),
            )
        )
    return extra, failures


class _RowScalars:
    """The scalars of a group's confusion table read from its rows (a label measure that reads
    nothing else is computed from the rows directly); any other attribute raises."""

    def __init__(self, truth: str, pred: str, weight: str | None) -> None:
        counts = ClassCounts(pl.col(truth), pl.col(pred), weight)
        self.correct, self.total = counts.correct, counts.total

    def __getattr__(self, name: str) -> Any:
        raise _NeedsTable(name)


class _NeedsTable(Exception):
    """A label measure read a per-class statistic: it needs the count table."""


def _label_rows_part(
    call: _Call, schema: pl.Schema, checks: Checks, chosen: list[Measure]
) -> pl.LazyFrame | None:
    """Binary measures (``average="binary"``) and accuracy-like label measures (the trace and
    total of the confusion table) straight from the rows: one ``group_by(*by)`` with the
    measures' row forms (the expression builders' values), the input checks and the binary
    class rules, instead of the count table and its per-class table (P, R, F1 and accuracy on
    1M rows × 1,000 groups: 1.7–1.9× the bare sums instead of 2.1–2.3×). None when a measure needs the per-class table or the labels'
    dtype has no cheap class rule (strings, categoricals and integral floats under the
    default ``pos_label``): the caller then counts the table.

    The class rules are those of the count-table path. The default positive class must be a
    class of every group holding two or more classes (UnknownLabelError) and, with it, at most
    one other class (InvalidParameterError); both read the 64-bit offset test of
    :func:`~frameeval.metrics.builders.class_spread`, so their messages name the group, the
    positive class and how many labels are not positive (the count-table path also names two
    of the classes). An explicit ``pos_label`` must occur somewhere in the frame.
    """
    func, truth, pred, keys, weight = call.func, call.truth, call.pred, call.keys, call.weight
    pos_label, zero_division = call.pos_label, call.zero_division
    assert pred is not None
    binary = [m for m in chosen if m.kind == "binary"]
    if any(_average(m, call.average) != "binary" for m in binary):
        return None
    values = []
    for m in chosen:
        if m.kind != "label":
            continue
        try:
            value = m.value(truth, pred, table=_RowScalars(truth, pred, weight))
        except _NeedsTable:
            return None
        if zero_division is not None:
            value = value.fill_null(zero_division)
        values.append(value.alias(m.name))
    positive = resolve_pos_label(schema, func, truth, pos_label) if binary else None
    spread = None
    if binary and pos_label is None and schema[truth] != pl.Boolean:
        spread = class_spread(truth, pred, positive, schema)
        if spread is None:
            return None
    if binary and pos_label is not None:
        pos = pl.lit(pos_label)
        checks.present(
            (pl.col(truth) == pos) | (pl.col(pred) == pos),
            f"pos_label ({pos_label!r}) must occur in column {truth!r} (truth=) or {pred!r} "
            "(pred=), got none",
            hint="pass the positive class as pos_label=.",
        )
    values += [
        m.value(truth, pred, weight=weight, pos_label=positive, zero_division=zero_division).alias(
            m.name
        )
        for m in binary
    ]
    order = {m.name: i for i, m in enumerate(chosen)}
    values.sort(key=lambda e: order[e.meta.output_name()])
    extra: list[pl.Expr] = []
    failures: list[pl.Expr] = []
    if spread is not None:
        off, others, labels = spread
        extra = [off.alias("__fe_spread"), others.alias("__fe_others"), labels.alias("__fe_n")]
        hit = pl.col("__fe_others") < pl.col("__fe_n")
        failed = pl.col("__fe_spread") != 0
        failures = [
            failure(
                failed & ~hit,
                UnknownLabelError,
                f"{func}(): pos_label (the default {positive!r}) must be a class of column "
                f"{truth!r} (truth=) or {pred!r} (pred=), got {{}} labels of two or more other "
                "classes without it{}.\nHint: pass the positive class as pos_label=.",
                pl.col("__fe_n"),
                group_text(keys),
            ),
            failure(
                failed & hit,
                InvalidParameterError,
                f"{func}(): average='binary' needs two classes (pos_label={positive!r} and one "
                f"other), got more than one class besides {positive!r} ({{}} of the {{}} labels "
                f"of columns {truth!r} and {pred!r} are not {positive!r}){{}}; pass "
                "average='macro', 'micro' or 'weighted'.",
                pl.col("__fe_others"),
                pl.col("__fe_n"),
                group_text(keys),
            ),
        ]
    aggs = [*values, *checks.aggs(), *extra]
    stats = call.lf.group_by(keys).agg(aggs) if keys else call.lf.select(aggs)
    stats = checks.enforce(stats, keys, *failures, one_row=True)
    return stats.drop([e.meta.output_name() for e in extra])


def _score_part(call: _Call, chosen: list[Measure]) -> pl.LazyFrame:
    """Ranking measures: of many groups from their rows, of one group from the
    per-distinct-score table.

    Why not the per-distinct-score table for many groups: with many small groups of continuous
    scores it holds a row per input row, grouped by a wide (keys, score) hash and re-read in
    pieces; the per-group ranks (each measure's row form: the rank-sum of AUC, the ranks of AP,
    the same expression as the builder's) are ~5× faster there (1,000 groups × 1,000 rows). One
    group (``by=None``) keeps the table, which is faster for a few large groups and bounded in
    memory.
    """
    func, truth, score, keys, weight = call.func, call.truth, call.score, call.keys, call.weight
    assert score is not None
    if not (keys and all(m.rows is not None for m in chosen)):
        setup, table = score_table(call.data, func, truth, score, keys, weight, call.pos_label)
        ordered, t = cumulated(table, setup.gkeys)
        out = ordered.group_by(setup.gkeys).agg(m.formula(t).alias(m.name) for m in chosen)
        return out if keys else out.drop(setup.gkeys)
    setup = prepare_scores(call.data, func, truth, [score], keys, weight, ())
    positive_label = require_positive(setup.checks, setup.schema, func, truth, call.pos_label)
    values = [
        raw_value(m, truth, score, weight=weight, pos_label=positive_label).alias(m.name)
        for m in chosen
    ]
    stats = setup.lf.group_by(keys).agg(*values, *setup.checks.aggs())
    return setup.checks.enforce(stats, keys).select(*keys, *(m.name for m in chosen))


def _sums_part(call: _Call, sums: list[Measure], ranking: Sequence[Measure] = ()) -> pl.LazyFrame:
    """Probability and regression measures from their sums (:func:`sum_statistics`), with the
    ranking measures' row forms (AUC and log loss of many groups) in the same
    ``group_by(*by).agg`` when ``ranking`` is given (one pass instead of two and a join)."""
    func, truth, keys, weight, lf = call.func, call.truth, call.keys, call.weight, call.lf
    pred = None if ranking else call.pred
    checks, exprs = sum_statistics(
        call.data, lf, call.eager, func, truth, pred, call.score, keys, weight, sums, call.pos_label
    )
    if ranking:
        assert call.score is not None
        positive = require_positive(checks, lf.collect_schema(), func, truth, call.pos_label)
        exprs += [
            raw_value(m, truth, call.score, weight=weight, pos_label=positive).alias(m.name)
            for m in ranking
        ]
    stats = (
        lf.group_by(keys).agg(*exprs, *checks.aggs()) if keys else lf.select(*exprs, *checks.aggs())
    )
    return checks.enforce(stats, keys).select(*keys, *(m.name for m in ranking), *sum_values(sums))


#: the Σ w column of the sum statistics (one per group)
SUM_TOTAL = "__fe_total"


def sum_column(measure: Measure) -> str:
    """The column holding Σ w·term of ``measure`` in the sum statistics."""
    return f"__fe_sum_{measure.name}"


def sum_statistics(
    data: Any,
    lf: pl.LazyFrame,
    eager: bool,
    func: str,
    truth: str,
    pred: str | None,
    score: str | None,
    keys: list[str],
    weight: str | None,
    chosen: list[Measure],
    pos_label: Any,
) -> tuple[Checks, list[pl.Expr]]:
    """The input checks and the per-group sums of probability and regression measures.

    The sums — Σ w·term per measure (:func:`sum_column`) and Σ w (:data:`SUM_TOTAL`) — are the
    sufficient statistics of these measures: they add up across partitions (the Dask form
    sums them) and :func:`sum_values` turns them into the measures.
    """
    schema = lf.collect_schema()
    columns: dict[str, Any] = {
        m.columns[1]: (pred if m.columns[1] == "pred" else score) for m in chosen
    }
    probability = any(m.kind == "probability" for m in chosen)
    regression = any(m.kind == "regression" for m in chosen)
    checks = _sum_inputs(list(columns), probability, regression).compile(
        schema, func, truth=truth, by=keys, weight=weight, **columns
    )
    check_not_empty_eager(data, eager, lf, func)
    positive = resolve_pos_label(schema, func, truth, pos_label) if probability else None
    y, f = pl.col(truth).cast(pl.Float64), pl.col(pred or truth).cast(pl.Float64)
    ruled: set[tuple[str, str, float]] = set()
    for m in chosen:  # loop-ok: the parameters and domain rules of each requested measure
        if m.check is not None:
            m.check(func, **_parameters(m))
        if m.kind == "regression":
            domain_checks(checks, m, _parameters(m), truth, pred, ruled, m.name)
    w = weight_expr(weight)
    sums = [weight_total(weight).alias(SUM_TOTAL)]
    for column, stat, params in statistic_plan(chosen)[0]:  # loop-ok: one per statistic
        sums.append(statistic_value(stat, y, f, weight, params).alias(column))
    for m in chosen:  # loop-ok: one expression per requested measure
        if m.kind == "regression" and m.stats is not None:
            continue
        assert m.term is not None
        other = pl.col(pred if m.columns[1] == "pred" else score).cast(pl.Float64)  # type: ignore[arg-type]
        if m.kind == "probability":
            actual = (label_expr(truth, schema) == positive).cast(pl.Float64)
        else:
            actual = pl.col(truth).cast(pl.Float64)
        params = _parameters(m)
        sums.append((w * m.term(actual, other, **params)).sum().alias(sum_column(m)))
    return checks, sums


def _sum_inputs(roles: list[str], probability: bool, regression: bool) -> Inputs:
    """The inputs of the sum measures: a truth of numbers (regression; labels too, unchecked per
    row, when probability measures come with them) or of labels, the scores / predictions they
    read (as Float64, so a Decimal is fine), the weight."""
    truth = [MEASURE_INPUTS["regression"][0]] if regression else []
    if probability:
        truth.append(Column("truth", "label") if regression else MEASURE_INPUTS["probability"][0])
    kind = {"pred": "regression", "score": "probability"}
    others = [MEASURE_INPUTS[kind[role]][1] for role in roles]
    return Inputs(*truth, Column("by"), *others, WEIGHT_INPUT)


def statistic_plan(
    chosen: list[Measure],
) -> tuple[list[tuple[str, Statistic, dict[str, Any]]], list[dict[str, str]]]:
    """The named statistics of the regression measures in ``chosen``, each computed once.

    Returns the columns to aggregate — ``(column, statistic, parameters)``, a statistic shared
    by several measures (the same :class:`Statistic` object, with the same parameters when it
    is parametric) once — and per measure its statistic names → columns. A column's prefix
    says how it merges: ``__fe_sum_`` by addition, ``__fe_min_`` / ``__fe_max_`` by min / max,
    ``__fe_median_`` not at all (the Dask backend shuffles those measures' rows by group).
    """
    columns: dict[tuple[int, Any], str] = {}
    plan: list[tuple[str, Statistic, dict[str, Any]]] = []
    names: list[dict[str, str]] = []
    for m in chosen:  # loop-ok: a few measures, a few statistics each
        mine: dict[str, str] = {}
        if m.kind == "regression" and m.stats is not None:
            params = _parameters(m)
            for name, stat in m.stats.items():
                if stat.row is None and stat.merge == "sum":  # Σ w: the shared total
                    mine[name] = SUM_TOTAL
                    continue
                key = (id(stat), tuple(sorted(params.items())) if stat.parametric else None)
                if key not in columns:
                    columns[key] = f"__fe_{stat.merge}_{len(columns)}"
                    plan.append((columns[key], stat, params))
                mine[name] = columns[key]
        names.append(mine)
    return plan, names


def sum_values(chosen: list[Measure]) -> list[pl.Expr]:
    """Each measure's formula applied to the (merged) sum statistics, named after it."""
    _, names = statistic_plan(chosen)
    out = []
    for m, mine in zip(chosen, names, strict=True):  # loop-ok: one expression per measure
        if mine:
            stats = Sums({name: pl.col(column) for name, column in mine.items()})
            out.append(m.formula(stats, **_parameters(m)).alias(m.name))
        else:
            out.append(
                m.formula(pl.col(sum_column(m)), pl.col(SUM_TOTAL), **_parameters(m)).alias(m.name)
            )
    return out
