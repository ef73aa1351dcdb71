"""Reading a learning curve: high bias, high variance, a good fit, or a curve that is still
improving (notes §2.5.3–2.5.4), from the frames of :func:`learning_curve` and
:func:`validation_curve`."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._frame import finish, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import FLAG, Number
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval._validate import check_parameter
from frameeval.metrics import MEASURES

__all__ = ["learning_curve_diagnosis"]

#: columns of a curve frame that index folds, never a key of the diagnosis
_SPLIT_COLUMNS = ("repeat", "fold", "seed", "split", "instance")

HIGH_BIAS = "high bias"
HIGH_VARIANCE = "high variance"
GOOD_FIT = "good fit"
MORE_DATA = "more data would help"
#: the values the role column may hold
ROLES = ("train", "validation", "test")


_POSITIVE = Number(low=0.0, closed="neither", text="a positive finite number")
_NON_NEGATIVE = Number(low=0.0, text="a non-negative finite number")


def _number(value: Any, func: str, name: str, positive: bool = False) -> float:
    return float((_POSITIVE if positive else _NON_NEGATIVE)(func, name, value))


def _fmt(column: str) -> pl.Expr:
    """A float as text with at most 3 decimals (``null`` as ``n/a``)."""
    return (pl.col(column).round(3) + 0.0).cast(pl.String).fill_null("n/a")  # no "-0.0"


#: the columns of a learning / validation curve: the role of each row (compiled first, before the
#: scalar arguments and the metric's inference), the metric (a missing cell is allowed) and the
#: training size
CURVE = Inputs(
    Column("role"),
    Column("metric", "numeric", "finite_or_null_one_count"),
    Column("train_size", "numeric"),
)


@frame_function
def learning_curve_diagnosis(
    curve: IntoFrame,
    *,
    metric: str | None = None,
    higher_is_better: bool | None = None,
    train_size: str = "train_size",
    role: str = "role",
    max_gap: float = 0.05,
    acceptable: float | None = None,
    min_slope: float = 0.01,
) -> Frame:
    """Diagnose a learning (or validation) curve: high bias, high variance, good fit, or more
    data would help.

    The curve is averaged over repeats and folds. At the largest training size the diagnosis
    reads three numbers — the validation level, the gap between training and validation, and
    the recent slope of the validation curve (its improvement per doubling of the training
    set between the two largest sizes) — and applies the rules of notes §2.5.3:

    * **high variance** (over-fitting): the training score is far better than the validation
      score (``gap > max_gap``); more data, fewer features or more regularisation help
      (§2.5.4), and the sentence says whether the validation curve is still improving;
    * **more data would help**: the gap is small but the validation curve still improves
      (``slope >= min_slope``) — the curves have not met their plateau yet;
    * **high bias** (under-fitting): training and validation are close and flat, and the
      validation level is not acceptable (both errors high); more data alone will not help —
      more features, a richer model or less regularisation will;
    * **good fit**: close, flat and at an acceptable level.

    Parameters
    ----------
    curve
        The frame of ``fe.learning_curve`` (``learner, train_size, repeat, fold, role,
        <metric>``) or of ``fe.validation_curve`` (``<param>, repeat, fold, role, <metric>``);
        any other columns (not ``repeat``, ``fold``, ``seed``, ``split``) are keys, and each key
        group is diagnosed on its own. Without a ``train_size`` column (a validation curve)
        every parameter value is a group and the slope is null, so the diagnosis is one of
        high variance, high bias and good fit.
    metric
        The metric column; default the last numeric column that is not a key, the training
        size or a split column (the last column of both curve functions' output).
    higher_is_better
        Direction of the metric; default looked up in ``fe.MEASURES`` by the column's name
        (``error_rate`` → False, ``accuracy`` → True); required for any other name.
    train_size, role
        Column names. ``role`` holds ``"train"`` and ``"validation"`` (``"test"`` is read as
        validation when there is no validation role); any other value raises
        ``UnknownLabelError``. A NaN or ±inf metric value raises ``MissingValueError`` (a null
        one is left out of the means).
    max_gap
        Largest gap (in the metric's units, ≥ 0) still read as "training and validation
        close"; default 0.05.
    acceptable
        The validation level read as good: at most this for a lower-is-better metric, at least
        this for a higher-is-better one; default 0.1 (lower is better) or 0.9 (higher is
        better), which suits error rates, accuracies and AUCs — set it for any other scale.
    min_slope
        Smallest improvement of the validation metric per doubling of the training set that
        counts as "still improving" (> 0); default 0.01.

    Returns
    -------
    Same kind as ``curve``: ``*keys, train_size, train, validation, gap, slope, diagnosis,
    explanation``, one row per key group sorted by the keys. ``train_size`` (only for a
    learning curve) is the largest size; ``train`` and ``validation`` the mean metric there;
    ``gap`` the training advantage (validation − train when lower is better, train −
    validation when higher is better); ``slope`` the validation metric's improvement per
    doubling, ``(v_prev − v_last) / log2(n_last / n_prev)`` (sign flipped when higher is
    better), null with a single size; ``diagnosis`` one of ``"high bias"``, ``"high
    variance"``, ``"good fit"``, ``"more data would help"`` (null when a group has no
    training or no validation rows); ``explanation`` a sentence with the numbers.

    Notes
    -----
    The rules, in order: ``gap > max_gap`` → high variance; else ``slope >= min_slope`` →
    more data would help; else validation not acceptable → high bias; else good fit. The
    thresholds are conventions, not tests: with few folds the averages are noisy — read the
    sentence beside the chart (``fe.charts.learning_curve(curve, diagnosis=True)``).

    References
    ----------
    Notes §2.5.3 (learning curves) and §2.5.4 (what fixes high variance / high bias), after
    Andrew Ng's *Machine Learning* course, week 6.

    See Also
    --------
    frameeval.learning_curve, frameeval.validation_curve, frameeval.charts.learning_curve

    Examples
    --------
    >>> lc = pl.DataFrame({"learner": ["line"] * 4, "train_size": [50, 50, 100, 100],
    ...                    "fold": [0] * 4, "role": ["train", "validation"] * 2,
    ...                    "error_rate": [0.28, 0.315, 0.30, 0.31]})
    >>> d = fe.learning_curve_diagnosis(lc)
    >>> d.select("learner", pl.col("gap", "slope").round(3), "diagnosis").to_dicts()
    [{'learner': 'line', 'gap': 0.01, 'slope': 0.005, 'diagnosis': 'high bias'}]
    >>> d["explanation"].item()[:62]
    'training error_rate 0.3 vs validation 0.31 at 100 training row'
    """
    func = "learning_curve_diagnosis"
    lf, eager = to_lazy(curve, func)
    schema = lf.collect_schema()
    CURVE.compile(schema, func, role=role)
    max_gap = _number(max_gap, func, "max_gap")
    min_slope = _number(min_slope, func, "min_slope", positive=True)
    sized = train_size in schema
    skip = {role, *_SPLIT_COLUMNS, *([train_size] if sized else [])}
    if metric is None:
        numeric = [c for c in schema.names() if c not in skip and schema[c].is_numeric()]
        check_parameter(
            bool(numeric),
            func,
            f"metric= must name the metric column when it cannot be inferred, got columns "
            f"{schema.names()}.",
        )
        metric = numeric[-1]
    checks = CURVE.compile(schema, func, metric=metric, train_size=train_size if sized else None)
    if higher_is_better is None:
        known = MEASURES.get(metric)
        check_parameter(
            known is not None,
            func,
            f"higher_is_better= must be given for a metric not in fe.MEASURES, got metric "
            f"{metric!r}.",
        )
        assert known is not None
        higher_is_better = bool(known.higher_is_better)
    FLAG(func, "higher_is_better", higher_is_better)
    if acceptable is None:
        acceptable = 0.9 if higher_is_better else 0.1
    acceptable = float(_number(acceptable, func, "acceptable"))
    keys = [c for c in schema.names() if c not in skip and c != metric]
    sign = 1.0 if higher_is_better else -1.0
    size = [train_size] if sized else []

    # validation role: "validation", or "test" when there is none
    roles = pl.col(role).cast(pl.String)
    has_val = (roles == "validation").any().over(keys) if keys else (roles == "validation").any()
    read = pl.when(roles == "test").then(pl.lit("validation")).otherwise(roles)
    lf = lf.with_columns(
        pl.when(has_val).then(roles).otherwise(read).alias("__fe_role"),
        pl.col(metric).cast(pl.Float64).alias("__fe_metric"),
    )
    checks.within(role, "role", ROLES, pl.col(role).cast(pl.String), pl.String())
    per_size = lf.group_by([*keys, *size]).agg(
        *checks.aggs(),
        *(
            pl.col("__fe_metric").filter(pl.col("__fe_role") == r).mean().alias(r)
            for r in ("train", "validation")  # loop-ok: two roles
        ),
    )
    per_size = checks.enforce(per_size, keys).filter(
        pl.col("train").is_not_null() | pl.col("validation").is_not_null()
    )
    named = train_size if sized else None
    out = _at_last_size(per_size, keys, named, sign)
    out = out.with_columns((sign * (pl.col("train") - pl.col("validation"))).alias("gap"))
    diagnosis = _diagnosis(higher_is_better, acceptable, max_gap, min_slope)
    out = out.with_columns(diagnosis.alias("diagnosis"))  # the sentence reads the diagnosis
    why = _explanation(metric, named, higher_is_better, acceptable, max_gap, min_slope)
    out = out.with_columns(why.alias("explanation"))
    columns = [*keys, *size, "train", "validation", "gap", "slope", "diagnosis", "explanation"]
    out = out.select(columns)
    if keys:
        out = out.sort(keys, nulls_last=True, maintain_order=True)
    return finish(out, eager)


def _at_last_size(
    per_size: pl.LazyFrame, keys: list[str], train_size: str | None, sign: float
) -> pl.LazyFrame:
    """Per group: train and validation at the largest training size and the slope of
    validation per doubling over the last two sizes (null without ``train_size``)."""
    if train_size is not None:
        order = pl.col(train_size)
        last = {c: pl.col(c).sort_by(order).last() for c in ("train", "validation")}
        n_last = order.sort().last().cast(pl.Float64)
        n_prev = order.sort().shift(1).last().cast(pl.Float64)  # null with one size
        v_prev = pl.col("validation").sort_by(order).shift(1).last()
        slope = (sign * (last["validation"] - v_prev) / (n_last / n_prev).log(2)).alias("slope")
        reads = [
            order.max().alias(train_size),
            last["train"].alias("train"),
            last["validation"].alias("validation"),
            slope,
        ]
        return per_size.group_by(keys).agg(reads) if keys else per_size.select(reads)
    return per_size.with_columns(pl.lit(None, pl.Float64).alias("slope"))


def _diagnosis(
    higher_is_better: bool, acceptable: float, max_gap: float, min_slope: float
) -> pl.Expr:
    """The diagnosis word from ``gap``, ``slope`` and ``validation`` (seed 003 §2.5.3–2.5.4):
    a wide gap is high variance; a small gap with validation still improving wants more data;
    a small gap below the acceptable level is high bias; otherwise a good fit."""
    good_level = (
        pl.col("validation") >= acceptable
        if higher_is_better
        else pl.col("validation") <= acceptable
    )
    diagnosis = (
        pl.when(pl.col("gap").is_null())
        .then(pl.lit(None, pl.String))
        .when(pl.col("gap") > max_gap)
        .then(pl.lit(HIGH_VARIANCE))
        .when(pl.col("slope") >= min_slope)
        .then(pl.lit(MORE_DATA))
        .when(~good_level)
        .then(pl.lit(HIGH_BIAS))
        .otherwise(pl.lit(GOOD_FIT))
    )
    return diagnosis


def _explanation(
    metric: str,
    train_size: str | None,
    higher_is_better: bool,
    acceptable: float,
    max_gap: float,
    min_slope: float,
) -> pl.Expr:
    """The sentence of each diagnosis, with the numbers it read."""
    at = " at {} training rows" if train_size is not None else ""
    at_args = [pl.col(train_size).cast(pl.String)] if train_size is not None else []
    head = f"training {metric} {{}} vs validation {{}}{at}: "
    args = [_fmt("train"), _fmt("validation"), *at_args]
    improving = (
        pl.when(pl.col("slope").is_null())
        .then(pl.lit(""))
        .otherwise(
            pl.when(pl.col("slope") >= min_slope)
            .then(pl.format("; validation still improves by {} per doubling", _fmt("slope")))
            .otherwise(pl.format("; validation has levelled off ({} per doubling)", _fmt("slope")))
        )
    )
    level = f"{'at least' if higher_is_better else 'at most'} {acceptable:g}"
    # each diagnosis: its sentence after the head (with the gap, then the value it names)
    sentences = {
        HIGH_VARIANCE: (
            f"the gap {{}} exceeds {max_gap:g} — high variance (over-fitting){{}}. More data, "
            "fewer features or more regularisation help.",
            improving,
        ),
        MORE_DATA: (
            "the gap {} is small but validation still improves by {} per doubling — more data "
            "would help.",
            _fmt("slope"),
        ),
        HIGH_BIAS: (
            f"close (gap {{}}) but validation is not {level}{{}} — high bias (under-fitting). "
            "More data alone will not help; add features, a richer model or less "
            "regularisation.",
            improving,
        ),
        GOOD_FIT: (f"close (gap {{}}) and validation is {level}{{}} — a good fit.", improving),
    }
    explanation = pl.lit("no training or no validation rows: nothing to diagnose.")
    for word, (text, value) in reversed(sentences.items()):  # loop-ok: four sentences
        sentence = pl.format(head + text, *args, _fmt("gap"), value)
        explanation = pl.when(pl.col("diagnosis") == word).then(sentence).otherwise(explanation)
    return explanation
