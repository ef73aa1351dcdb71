"""Operating points: every threshold's confusion counts and measures, and the best threshold.

A score becomes a decision with a threshold t: "positive iff score ≥ t". Lowering t past each
distinct score moves one step along the ROC curve, so the cumulative count table that the
curves build (:func:`frameeval.curves.score_table`, cumulated by
``curves.table.binary_table``) already holds TP, FP, TN and FN at *every* threshold, one row
per group × distinct score. This module
applies measure declarations to that table — a binary measure's formula to its TP, FP, FN, TN
columns, a label measure's formula to the two-class count table of each threshold — and picks
the best row per group: by a measure, by expected cost, or by a measure under a constraint.
No formula of a measure is written here, and no threshold is a pass over rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from frameeval._params import Number
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_parameter
from frameeval.curves.table import FP, TP, N, P, Setup, binary_table
from frameeval.exceptions import InvalidParameterError
from frameeval.metrics.builders import resolve_parameters
from frameeval.metrics.classification import FNR, FPR, PRECISION, RECALL, check_costs
from frameeval.metrics.measure import Measure, lookup
from frameeval.metrics.stats import BinaryCounts, ClassTable, class_table

__all__ = ["best_threshold", "threshold_table"]

COUNTS = ("tp", "fp", "tn", "fn")
TIE = 1e-12  # objective values within TIE (relative to max(1, |best|)) of the best are ties
_CELLS = ((1, 1, "tp"), (0, 1, "fp"), (1, 0, "fn"), (0, 0, "tn"))  # (actual, predicted, count)
#: an operating point's counts, read from a :func:`~frameeval.curves.table.binary_table` row
#: (with its group totals ``__fe_P``, ``__fe_N``)
POINT = (
    pl.col(TP).alias("tp"),
    pl.col(FP).alias("fp"),
    (pl.col(N) - pl.col(FP)).alias("tn"),
    (pl.col(P) - pl.col(TP)).alias("fn"),
    pl.col(P),
    pl.col(N),
)


def _resolve(func: str, measures: Sequence[str | Measure]) -> list[Measure]:
    if isinstance(measures, str | Measure):
        measures = [measures]
    chosen = [lookup(func, m) for m in measures]
    for m in chosen:
        check_parameter(
            m.kind in ("binary", "label"),
            func,
            f"measure must be a label or binary measure, got {m.name!r} (a {m.kind} measure).",
        )
        if m.kind == "binary":
            fixed = m.parameters.get("average")
            check_parameter(
                fixed in (None, "binary"),
                func,
                f"measure {m.name!r} must use average='binary' at a threshold, got {fixed!r}.",
            )
    names = [m.name for m in chosen]
    twice = sorted({n for n in names if names.count(n) > 1})
    check_parameter(not twice, func, f"measures= must not repeat a name, got {twice} twice.")
    return chosen


def _with_measures(
    setup: Setup, rows: pl.LazyFrame, chosen: Sequence[Measure], func: str
) -> pl.LazyFrame:
    """``rows`` plus one column per measure, from its declaration."""
    counts = BinaryCounts(pl.col("tp"), pl.col("fp"), pl.col("fn"), pl.col("tn"))
    binary = [
        m.formula(counts, **resolve_parameters(m, func, {})).alias(m.name)
        for m in chosen
        if m.kind == "binary"
    ]
    rows = rows.with_columns(binary) if binary else rows
    label = [m for m in chosen if m.kind == "label"]
    if not label:
        return rows
    # each threshold's 2 × 2 count table (class 1 = positive), folded per class, then each
    # label measure's formula read from the per-class table: the path of fe.measures
    keys = [*setup.gkeys, "threshold"]
    cells = pl.concat(
        [
            rows.select(
                *keys,
                pl.lit(actual, dtype=pl.Int8).alias("actual"),
                pl.lit(predicted, dtype=pl.Int8).alias("predicted"),
                pl.col(column).alias("count"),
            )
            for actual, predicted, column in _CELLS  # loop-ok: the four cells of a 2 × 2 table
        ]
    )
    kappa = any(m.parameters.get("weights") for m in label)
    table = class_table(cells, keys, None, disagreement=kappa)
    summary = ClassTable()
    values = table.group_by(keys).agg(
        m.value("actual", "predicted", pos_label=1, table=summary).alias(m.name) for m in label
    )
    return rows.join(values, on=keys, how="left", nulls_equal=True)


@frame_function
def threshold_table(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    measures: Sequence[str | Measure] = ("precision", "recall", "f1"),
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """The confusion counts and chosen measures at every threshold of a score.

    Parameters
    ----------
    data, truth, score, by, pos_label, weight
        As in :func:`frameeval.roc_curve`.
    measures
        Registered label or binary measure names (``fe.MEASURES``) or :class:`~frameeval.Measure`
        objects (configured ones included, e.g. ``fe.MEASURES["fbeta"].configure("f2",
        beta=2.0)``): precision, recall, F1, Fβ, FPR, Youden's J, markedness, accuracy, MCC,
        Cohen's κ, balanced accuracy…

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, tp, fp, tn, fn, <measure>...``, one
    row per group × operating point, sorted by the keys and ``threshold`` descending. Row t is
    the classifier "positive iff score ≥ t": ``tp``/``fp`` the (weighted) positive / negative
    rows with score ≥ t, ``tn``/``fn`` those below (Table 2.1), all Float64. The first row of
    each group is the point "nothing positive" (``threshold`` = +inf, TP = FP = 0): a valid
    operating point (the best one when false alarms cost enough) and the start of the ROC
    curve; the last row, at the smallest score, predicts everything positive. A score whose
    rows all weigh 0 is no operating point (it repeats the previous one) and has no row. A
    measure is null where its declaration says it is undefined (precision at +inf, MCC when
    one class is predicted…).

    Notes
    -----
    Computed from the per-group × distinct-score cumulative count table of the curves (one
    aggregation, no pass over rows per threshold). A binary measure's formula is applied to the
    ``tp, fp, fn, tn`` columns; a label measure's to each threshold's 2 × 2 confusion table
    (classes 0 = negative, 1 = positive), exactly as :func:`frameeval.measures` applies it to a
    prediction column, so every value equals the measure of ``score >= threshold`` (see
    :doc:`probabilities`, "Operating points").

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> out = fe.threshold_table(df, truth="y", score="s", measures=["f1", "mcc"])
    >>> out.columns
    ['threshold', 'tp', 'fp', 'tn', 'fn', 'f1', 'mcc']
    >>> out.select(pl.all().round(3)).row(3)
    (0.4, 3.0, 1.0, 2.0, 0.0, 0.857, 0.707)
    """
    func = "threshold_table"
    chosen = _resolve(func, measures)
    outputs = ("threshold", *COUNTS, *(m.name for m in chosen))
    clash = sorted({m.name for m in chosen} & {"threshold", *COUNTS})
    check_parameter(not clash, func, f"measures= must not use the names {clash}, got them.")
    setup, rows = binary_table(data, func, truth, score, by, weight, pos_label, outputs, True)
    rows = rows.select(*setup.gkeys, "threshold", *POINT)  # every operating point, the start too
    rows = _with_measures(setup, rows, chosen, func)
    out = rows.select(*setup.gkeys, "threshold", *COUNTS, *(m.name for m in chosen))
    return setup.done(setup.sort(out, "threshold", descending=[True]))


def _unit(func: str, name: str, value: Any) -> float | None:
    unit: float | None = Number(low=0.0, high=1.0, none=True, text="a number in [0, 1]")(
        func, name, value
    )
    return unit


@frame_function
def best_threshold(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    measure: str | Measure | None = None,
    beta: float = 1.0,
    costs: tuple[float, float] | None = None,
    p: float | None = None,
    min_recall: float | None = None,
    min_precision: float | None = None,
    max_fpr: float | None = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """The best operating point per group: by a measure, by expected cost, under a constraint.

    Parameters
    ----------
    data, truth, score, by, pos_label, weight
        As in :func:`frameeval.roc_curve`.
    measure
        The objective: a registered label or binary measure (name or
        :class:`~frameeval.Measure`), maximised when ``higher_is_better``, minimised otherwise.
        Default ``"f1"`` (eq 2.10); ``"fbeta"`` uses ``beta``. Not with ``costs``.
    beta
        β > 0 of ``measure="fbeta"`` (eq 2.11); ignored otherwise.
    costs
        ``(cost01, cost10)``: the cost of a miss (a positive predicted negative) and of a false
        alarm (Table 2.2, class 0 = the positive class). The objective is then the normalised
        expected cost (eq 2.25) ``(p·cost01·FNR + (1 − p)·cost10·FPR) / (p·cost01 + (1 −
        p)·cost10)``, minimised.
    p
        The class prior P(+) of the cost objective, in [0, 1]. Default: each group's observed
        (weighted) share of positive rows.
    min_recall, min_precision, max_fpr
        Constraints in [0, 1]: only thresholds with recall ≥ ``min_recall``, precision ≥
        ``min_precision`` and FPR ≤ ``max_fpr`` are candidates (e.g. the best precision at a
        recall of at least 0.9).

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, precision, recall, <objective>``, one
    row per group sorted by the keys: the classifier "positive iff score ≥ threshold" with the
    best objective, its precision and recall, and the objective's value in a column named
    after the measure (``f1`` by default, ``fbeta``, ``mcc``…; not repeated when it is
    ``precision`` or ``recall``) or ``expected_cost`` with ``costs``. Candidates are every
    row of :func:`threshold_table`, "nothing positive" (``threshold`` = +inf) included. Ties —
    values within 1e-12 (relative) of the best — go to the highest threshold (fewest rows
    predicted positive). All null when the group has no positive row, when no threshold
    satisfies the constraints, or when the objective is null at every candidate (Youden's J
    or the cost in a group without negative rows).

    Notes
    -----
    The cost objective is the cost line of the classifier (figure 2.5) evaluated at the
    probability cost p_cost = p·cost01 / (p·cost01 + (1 − p)·cost10) (eq 2.24); its minimum
    over all thresholds is the lower envelope of the cost lines, :func:`frameeval.cost_curve`,
    at that p_cost — the ROC point where a line of slope (1 − p)·cost10 / (p·cost01) touches
    the ROC convex hull. Only thresholds at observed scores are candidates; choosing a
    threshold on the data it is evaluated on is optimistic — tune on a validation split
    (chapter 2.2).

    References
    ----------
    Lipton, Z. C., Elkan, C. & Narayanaswamy, B. (2014). Optimal thresholding of classifiers to
    maximize F1 measure. ECML PKDD 2014, 225–239.

    Drummond, C. & Holte, R. C. (2006). Cost curves: An improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.best_threshold(df, truth="y", score="s").select(pl.all().round(4)).row(0)
    (0.4, 0.75, 1.0, 0.8571)
    >>> fe.best_threshold(df, truth="y", score="s", costs=(1, 5)).select(pl.all().round(4)).row(0)
    (0.9, 1.0, 0.3333, 0.1111)
    """
    func = "best_threshold"
    Number(low=0.0, closed="neither")(func, "beta", beta)

    bounds = {
        "min_recall": _unit(func, "min_recall", min_recall),
        "min_precision": _unit(func, "min_precision", min_precision),
        "max_fpr": _unit(func, "max_fpr", max_fpr),
    }
    prior = _unit(func, "p", p)
    if costs is not None:
        if measure is not None:
            raise InvalidParameterError(
                f"{func}(): measure= and costs= are two objectives, got measure={measure!r} "
                f"and costs={costs!r}; pass one."
            )
        ok = isinstance(costs, tuple | list) and len(costs) == 2
        check_parameter(ok, func, f"costs must be a pair (cost01, cost10), got {costs!r}.")
        cost01, cost10 = costs
        check_costs(func, cost01, cost10)
        check_parameter(
            cost01 + cost10 > 0, func, f"costs must not both be 0, got {tuple(costs)!r}."
        )
        objective, higher = "expected_cost", False
        chosen = [PRECISION, RECALL, FNR, FPR]
    else:
        check_parameter(
            prior is None, func, f"p= is the class prior of costs=, got p={p!r} and costs=None."
        )
        if measure is None:
            measure = "f1"
        m = _resolve(func, [measure])[0]
        if m.name == "fbeta":
            m = m.configure(beta=float(beta))
        objective, higher = m.name, m.higher_is_better
        chosen = [PRECISION, RECALL, *([m] if m.name not in ("precision", "recall") else [])]
    if bounds["max_fpr"] is not None and FPR not in chosen:
        chosen.append(FPR)
    outputs = ("threshold", "precision", "recall", objective)
    setup, rows = binary_table(data, func, truth, score, by, weight, pos_label, outputs, True)
    rows = rows.select(*setup.gkeys, "threshold", *POINT)  # every operating point, the start too
    rows = _with_measures(setup, rows, chosen, func)
    if costs is not None:
        share = (
            pl.lit(prior, dtype=pl.Float64)
            if prior is not None
            else pl.col(P) / (pl.col(P) + pl.col(N))
        )
        miss, alarm = share * float(cost01), (1.0 - share) * float(cost10)
        norm = miss + alarm
        rows = rows.with_columns(
            pl.when(norm > 0)
            .then((miss * pl.col("fnr") + alarm * pl.col("fpr")) / norm)
            .alias(objective)
        )
    value = pl.col(objective) if higher else -pl.col(objective)
    feasible = value.is_not_null()
    if bounds["min_recall"] is not None:
        feasible &= pl.col("recall") >= bounds["min_recall"]
    if bounds["min_precision"] is not None:
        feasible &= pl.col("precision") >= bounds["min_precision"]
    if bounds["max_fpr"] is not None:
        feasible &= pl.col("fpr") <= bounds["max_fpr"]
    feasible = feasible.fill_null(False)
    best = value.filter(feasible).max()
    tie = best - TIE * pl.max_horizontal(pl.lit(1.0), best.abs())
    chosen_threshold = pl.col("threshold").filter(feasible & (value >= tie)).max()
    at = pl.col("threshold") == chosen_threshold
    defined = (pl.col(P).first() > 0) & chosen_threshold.is_not_null()
    columns = list(dict.fromkeys(["precision", "recall", objective]))
    out = rows.group_by(setup.gkeys).agg(
        pl.when(defined).then(chosen_threshold).alias("threshold"),
        *[pl.when(defined).then(pl.col(c).filter(at).first()).alias(c) for c in columns],
    )
    return setup.done(setup.sort(out.select(*setup.gkeys, "threshold", *columns)))
