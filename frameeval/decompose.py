"""Bias–variance–noise decomposition (chapter 2.5) from tables of predictions.

The input is a long prediction table: one row per training set (``repeat``) × test instance
(``instance``), holding the prediction ``pred`` of the model trained on that training set, the
true label ``truth`` (the book's y) and optionally the label ``label`` seen in the data set (the
book's y_D, which differs from y under label noise). Everything is computed in one aggregation per
``by`` group × instance (the statistics over the training sets, with the input checks) followed by
a mean over instances; nothing is collected.

:func:`bootstrap_predictions` produces such tables: it draws bootstrap training sets and runs user
``fit_predict`` callables — e.g. one per point of a model-complexity grid (figure 2.9).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, NamedTuple

import polars as pl

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import Number
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import (
    Checks,
    check_not_empty_eager,
    check_parameter,
    check_seed,
    enforce,
    failure,
    group_text,
    label_expr,
)
from frameeval.exceptions import DuplicateKeyError, InsufficientDataError, InvalidValueError

__all__ = ["bias_variance", "bootstrap_predictions"]

_LOSSES = ("squared", "0-1")
_SQUARED = ["error", "bias_squared", "variance"]
_ZERO_ONE = ["error", "bias", "variance", "unbiased_variance", "biased_variance", "net_variance"]


#: the test cases of :func:`bootstrap_predictions` (any dtype: each learner reads them)
_CASES = Inputs(Column("truth"), Column("instance"), Column("label"))


class _Roles(NamedTuple):
    """The columns :func:`bias_variance` reads, its loss and its ``by`` keys."""

    truth: str
    pred: str
    instance: str
    repeat: str
    label: str | None
    loss: str
    keys: list[str]


def _value(column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String).fill_null("null")


@frame_function
def bias_variance(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    instance: str,
    repeat: str = "repeat",
    label: str | None = None,
    by: Keys = None,
    loss: Literal["squared", "0-1"] = "squared",
    per_instance: bool = False,
) -> Frame:
    """Decompose the expected error of a learner into bias, variance and noise (chapter 2.5).

    The learner was trained on several training sets D (identified by the ``repeat`` column) and
    every model predicted the same test instances x (``instance``). Over the training sets, per
    instance, the decomposition separates what the learner gets wrong on average (bias), how much
    its prediction moves with the training set (variance) and how wrong the labels themselves
    are (noise). The per-instance values are averaged uniformly over the instances of each group.

    Parameters
    ----------
    data
        Prediction table (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        training set × instance (× ``by`` group).
    truth
        Column with the true label y of the instance; must be the same in every row of an
        instance.
    pred
        Column with the prediction f(x; D) of the model trained on training set D.
    instance
        Column identifying the test instance x.
    repeat
        Column identifying the training set D (default ``"repeat"``, the column
        :func:`bootstrap_predictions` and resampling splits produce). Every instance must be
        predicted exactly once by every training set of its group.
    label
        Optional column with the label y_D of x as seen in the data set (noisy labels). The error
        is then measured against y_D, and ``noise`` and ``remainder`` are reported. Without it,
        y_D = y.
    by
        Key column(s): one decomposition per group (e.g. ``"learner"`` for a complexity grid).
    loss
        ``"squared"`` (regression, eqs 2.37–2.42) or ``"0-1"`` (classification, Domingos 2000).
        For ``"squared"`` the label columns must be numeric; for ``"0-1"`` they are class labels
        of one dtype family.
    per_instance
        Return one row per instance instead of the group averages.

    Returns
    -------
    Same kind as ``data``. With ``per_instance=False``: ``*by, n_instances, n_repeats`` and the
    components averaged over the instances of the group; with ``per_instance=True``: ``*by,
    <instance>, n_repeats, actual, main_prediction`` and the components of each instance, where
    ``actual`` is y and ``main_prediction`` is the learner's central prediction. ``n_instances``
    counts the instances of the group and ``n_repeats`` its training sets (Int64). Sorted by keys
    (and instance). All components are Float64. For 0-1 loss, ``actual`` and
    ``main_prediction`` hold labels as frameeval compares them (categoricals as strings,
    numeric labels as Int64). ``noise`` appears only with ``label=``; ``remainder`` with
    ``label=`` or for 0-1 loss.

    ``loss="squared"``:

    * ``main_prediction`` — f̄(x) = mean over D of f(x; D) (eq 2.37);
    * ``error`` — mean over D of (f(x; D) − y_D)² (first line of eq 2.41);
    * ``bias_squared`` — (f̄(x) − y)² (eq 2.40);
    * ``variance`` — mean over D of (f(x; D) − f̄(x))² (eq 2.38, dividing by the number of
      training sets, as the book and mlxtend do);
    * with ``label=``: ``noise`` — mean over D of (y_D − y)² (eq 2.39), and ``remainder`` — the
      cross terms 2·mean[(f − f̄)(y − y_D)] + 2·mean[(f̄ − y)(y − y_D)] that vanish only in
      expectation (noise independent of f, zero-mean noise).

    ``loss="0-1"`` (Domingos 2000):

    * ``main_prediction`` — the mode of f(x; D) over D; ties go to the smallest label (numeric
      order for numbers, lexicographic for strings, False before True), so it is deterministic
      and equals mlxtend's ``argmax(bincount(...))`` for non-negative integer labels;
    * ``error`` — mean over D of I(f(x; D) ≠ y_D);
    * ``bias`` — B(x) = I(main prediction ≠ y) (0 or 1; the group value is the share of biased
      instances);
    * ``variance`` — V(x) = mean over D of I(f(x; D) ≠ main prediction);
    * ``unbiased_variance`` = (1 − B(x))·V(x), ``biased_variance`` = B(x)·V(x), and
      ``net_variance`` = unbiased − biased variance (Domingos' V_u, V_b, V_n, averaged over all
      instances of the group, not conditional on B);
    * with ``label=``: ``noise`` — mean over D of I(y_D ≠ y);
    * ``remainder`` — error − (noise + bias + net_variance): 0 for two classes without label
      noise; for more classes a biased instance can be wrong in more than one way and the
      remainder (≥ 0 without noise) is Domingos' correction c₂ ≠ −1.

    Notes
    -----
    Identities (exact on the sample, up to rounding): without ``label`` and with squared loss,
    error = bias_squared + variance; with ``label``, error = bias_squared + variance + noise +
    remainder. The book's eq 2.42 (E = bias² + var + ε²) drops the remainder, whose expectation
    is zero. For 0-1 loss, error = bias + net_variance (+ noise) + remainder.

    Nothing is undefined: every instance has at least one prediction. With one training set the
    variance is 0. Lower is better for every component.

    Raises (inside the plan) when a column holds nulls / NaN / inf, when ``truth`` differs between
    the rows of one instance, when a (repeat, instance) pair occurs twice
    (``DuplicateKeyError``), or when an instance is not predicted by every training set of its
    group (``InsufficientDataError``, naming an instance).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.5, eqs 2.37–2.42. Geman, Bienenstock & Doursat (1992),
    "Neural networks and the bias/variance dilemma". Domingos (2000), "A unified bias-variance
    decomposition and its applications", ICML.

    See Also
    --------
    bootstrap_predictions : build the prediction table from bootstrap training sets.

    Examples
    --------
    >>> df = pl.DataFrame({"repeat": [1, 1, 1, 2, 2, 2], "x": [1, 2, 3, 1, 2, 3],
    ...                    "y": [1.0, 2.0, 3.0, 1.0, 2.0, 3.0],
    ...                    "f": [1.5, 3.5, 2.5, 2.5, 2.5, 1.5]})
    >>> fe.bias_variance(df, truth="y", pred="f", instance="x").row(0, named=True)
    {'n_instances': 3, 'n_repeats': 2, 'error': 1.25, 'bias_squared': 1.0, 'variance': 0.25}
    """
    func = "bias_variance"
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    roles = _Roles(truth, pred, instance, repeat, label, loss, keys)
    components, checks = _door(func, schema, roles)
    check_not_empty_eager(data, eager, lf, func)
    per_x = _per_instance(lf, schema, checks, roles)
    tail = [*components, *(["noise"] if label else [])]
    if label or loss == "0-1":
        tail.append("remainder")
    if per_instance:
        out = per_x.select(*keys, instance, "n_repeats", "actual", "main_prediction", *tail)
        return finish(out.sort(*keys, instance, nulls_last=True), eager)
    means = [
        pl.len().cast(pl.Int64).alias("n_instances"),
        pl.col("n_repeats").first(),
        *[pl.col(c).mean() for c in tail],
    ]
    if keys:
        out = per_x.group_by(keys).agg(*means).sort(keys, nulls_last=True)
    else:
        out = per_x.select(*means)
    return finish(out, eager)


def _door(func: str, schema: pl.Schema, roles: _Roles) -> tuple[list[str], Checks]:
    """The schema checks of :func:`bias_variance`; returns the loss's components and the row
    checks."""
    truth, pred, instance, repeat, label, loss, keys = roles
    check_parameter(loss in _LOSSES, func, f"loss must be one of {list(_LOSSES)}, got {loss!r}.")
    truth_, pred_, label_ = (
        Column(r, "numeric", "finite", required=r != "label")
        if loss == "squared"
        else Column(r, "label", "label", required=r != "label")
        for r in ("truth", "pred", "label")
    )
    keys_ = (
        Column("instance", "any", "not_null", required=True),
        Column("repeat", "any", "not_null", required=True),
    )
    checks = Inputs(truth_, pred_, *keys_, label_, Column("by")).compile(
        schema, func, truth=truth, pred=pred, instance=instance, repeat=repeat, label=label, by=keys
    )
    check_parameter(
        instance not in keys and repeat not in keys,
        func,
        f"by= must not contain the instance= or repeat= column, got by={keys}.",
    )
    check_parameter(
        instance != repeat,
        func,
        f"instance= and repeat= must be different columns, got {instance!r} for both.",
    )
    components = _SQUARED if loss == "squared" else _ZERO_ONE
    outputs = ["n_instances", "n_repeats", "actual", "main_prediction", *components]
    outputs += ["noise", "remainder"]
    clash = sorted(set(outputs) & {*keys, instance})
    check_parameter(
        not clash, func, f"by= and instance= must not use output column names, got {clash}."
    )
    return components, checks


def _squared_stats(truth: str, pred: str, label: str | None) -> dict[str, pl.Expr]:
    """Per instance, squared loss (eqs 2.37–2.42): f̄, the error, bias², variance (and with the
    noisy label y_D, the noise and the remainder)."""
    y = pl.col(truth).cast(pl.Float64)
    f = pl.col(pred).cast(pl.Float64)
    y_d = pl.col(label).cast(pl.Float64) if label else y
    f_bar = f.mean()
    stats = {
        "actual": y.first(),
        "main_prediction": f_bar,
        "error": ((f - y_d) ** 2).mean(),
        "bias_squared": (f_bar - y.first()) ** 2,
        "variance": ((f - f_bar) ** 2).mean(),
    }
    if label:
        stats["noise"] = ((y_d - y) ** 2).mean()
        stats["remainder"] = (
            2.0 * ((f - f_bar) * (y - y_d)).mean() + 2.0 * ((f_bar - y) * (y - y_d)).mean()
        )
    return stats


def _zero_one_stats(
    truth: str, pred: str, label: str | None, schema: pl.Schema
) -> dict[str, pl.Expr]:
    """Per instance, 0-1 loss (Domingos 2000): the main prediction (the mode), bias, variance
    split into its unbiased and biased parts, the net variance (and the noise with y_D)."""
    y = label_expr(truth, schema)
    f = label_expr(pred, schema)
    y_d = label_expr(label, schema) if label else y
    main = f.mode().min()
    bias = (main != y.first()).cast(pl.Float64)
    variance = (f != main).cast(pl.Float64).mean()
    stats = {
        "actual": y.first(),
        "main_prediction": main,
        "error": (f != y_d).cast(pl.Float64).mean(),
        "bias": bias,
        "variance": variance,
        "unbiased_variance": (1.0 - bias) * variance,
        "biased_variance": bias * variance,
        "net_variance": (1.0 - bias) * variance - bias * variance,
    }
    if label:
        stats["noise"] = (y_d != y).cast(pl.Float64).mean()
    return stats


def _per_instance(
    lf: pl.LazyFrame, schema: pl.Schema, checks: Checks, roles: _Roles
) -> pl.LazyFrame:
    """One row per (keys, instance) with its decomposition and ``n_repeats``, the data checks
    enforced in the same pass."""
    truth, pred, instance, repeat, label, loss, keys = roles
    if loss == "squared":
        stats = _squared_stats(truth, pred, label)
        distinct_truth = pl.col(truth).cast(pl.Float64).n_unique()
    else:
        stats = _zero_one_stats(truth, pred, label, schema)
        distinct_truth = label_expr(truth, schema).n_unique()
    per_x = lf.group_by(*keys, instance).agg(
        pl.len().cast(pl.Int64).alias("__rows"),
        pl.col(repeat).n_unique().cast(pl.Int64).alias("n_repeats"),
        distinct_truth.cast(pl.Int64).alias("__truths"),
        *[expr.alias(name) for name, expr in stats.items()],
        *checks.aggs(),
    )
    per_x = checks.enforce(per_x, keys)
    if loss == "0-1":
        explained = pl.col("bias") + pl.col("net_variance")
        if label:
            explained = explained + pl.col("noise")
        per_x = per_x.with_columns(remainder=pl.col("error") - explained)
    # every instance must be predicted once by every training set of its group
    sets = pl.col(repeat).n_unique().cast(pl.Int64).alias("__sets")
    if keys:
        counts = lf.group_by(keys).agg(sets)
        per_x = per_x.join(counts, on=keys, how="left", nulls_equal=True)
    else:
        per_x = per_x.join(lf.select(sets), how="cross")
    failures = _instance_failures(checks.func, truth, instance, repeat, keys)
    return enforce(per_x, *failures).drop("__rows", "__truths", "__sets")


def _instance_failures(
    func: str, truth: str, instance: str, repeat: str, keys: list[str]
) -> tuple[pl.Expr, ...]:
    """One prediction per training set and instance, one truth per instance, every instance
    predicted by every training set."""
    where = pl.concat_str([pl.lit(f"{instance}="), _value(instance), group_text(keys)])
    return (
        failure(
            pl.col("__rows") > pl.col("n_repeats"),
            DuplicateKeyError,
            f"{func}(): rows must be unique per ({repeat!r}, {instance!r}) (one prediction per "
            "training set and instance), got {} rows from {} training sets for {}.",
            pl.col("__rows"),
            pl.col("n_repeats"),
            where,
        ),
        failure(
            pl.col("__truths") > 1,
            InvalidValueError,
            f"{func}(): column {truth!r} (truth=) must be the same in every row of an instance "
            "(the true label y of x), got {} different values for {}.",
            pl.col("__truths"),
            where,
        ),
        failure(
            pl.col("n_repeats") < pl.col("__sets"),
            InsufficientDataError,
            "{}(): every instance must be predicted by every training set ({} values of "
            f"{repeat!r}), got {{}} predicted by only {{}}.",
            pl.lit(func),
            pl.col("__sets"),
            where,
            pl.col("n_repeats"),
        ),
    )


@frame_function
def bootstrap_predictions(
    data: IntoFrame,
    test: IntoFrame,
    learners: Mapping[Any, Callable[[pl.DataFrame, pl.DataFrame], Any]],
    *,
    truth: str,
    instance: str | None = None,
    label: str | None = None,
    repeats: int = 50,
    seed: int = 0,
) -> Frame:
    """Prediction table for :func:`bias_variance`: learners trained on bootstrap training sets.

    For each of ``repeats`` training sets — m rows drawn with replacement from the m rows of
    ``data`` (the book's bootstrap, §2.2.3) — every learner is fitted and predicts every row of
    ``test``. Run it with one learner per point of a complexity grid (polynomial degree, tree
    depth, regularisation strength…) and pass the result to :func:`bias_variance` with
    ``by="learner"`` for the bias/variance-vs-complexity table of figure 2.9.

    Parameters
    ----------
    data
        The pool training sets are drawn from (DataFrame or LazyFrame; pandas / pyarrow are
        converted).
    test
        The fixed test instances every model predicts (all its columns are passed to the
        learners; features, the truth and, if any, the noisy label).
    learners
        ``{key: fit_predict}``: ``fit_predict(train, test)`` receives two ``pl.DataFrame`` s (the
        drawn training set with all columns of ``data``, and ``test``) and returns one prediction
        per test row (a list, numpy array or ``pl.Series``). Keys (of one type) label the
        learners, e.g. the polynomial degree.
    truth
        Column of ``test`` with the true label y, carried to the output.
    instance
        Column of ``test`` identifying its rows (must be unique); default: a new column
        ``instance`` holding the row number 0…n−1.
    label
        Optional column of ``test`` with the label seen in the data set (y_D), carried to the
        output.
    repeats
        Number of bootstrap training sets, ≥ 1.
    seed
        Seed of the ``numpy.random.Generator`` (``numpy.random.default_rng(seed)``) that draws
        the training sets: one (repeats × m) matrix of row indices, drawn once and shared by all
        learners, so every learner sees the same training sets (a paired design). The draws depend
        on the seed and on the row order of ``data``.

    Returns
    -------
    Same kind as ``data`` with columns ``learner, repeat, <instance>, <truth>, [<label>,] pred``:
    ``learner`` is the key of ``learners``, ``repeat`` the training set (1…repeats) and ``pred``
    the prediction. Sorted by learner (in the mapping's order), repeat and test row.

    Notes
    -----
    This function runs user code, so it computes eagerly: a LazyFrame ``data`` or ``test`` is
    collected, and for a LazyFrame ``data`` the result is returned as a LazyFrame over the
    computed table. An exception raised by a learner propagates with a note naming the learner and
    the repeat.

    Examples
    --------
    >>> train = pl.DataFrame({"x": [0.0, 1.0, 2.0, 3.0], "y": [0.0, 1.0, 2.0, 3.0]})
    >>> test = pl.DataFrame({"x": [1.5, 2.5], "y": [1.5, 2.5]})
    >>> mean_model = lambda tr, te: [tr["y"].mean()] * te.height
    >>> preds = fe.bootstrap_predictions(train, test, {"mean": mean_model}, truth="y", repeats=3)
    >>> preds.columns, preds.height
    (['learner', 'repeat', 'instance', 'y', 'pred'], 6)
    """
    import numpy as np  # scipy's dependency; imported here to keep the package import light

    func = "bootstrap_predictions"
    check_seed(seed, func)
    Number(low=1, integer=True)(func, "repeats", repeats)
    check_parameter(
        isinstance(learners, Mapping) and len(learners) > 0,
        func,
        f"learners must be a non-empty mapping {{key: fit_predict}}, got {learners!r}.",
    )
    for key, fit_predict in learners.items():
        check_parameter(
            callable(fit_predict), func, f"learner {key!r} must be callable, got {fit_predict!r}."
        )
    pool_lf, eager = to_lazy(data, func)
    test_lf, _ = to_lazy(test, func)
    pool = pool_lf.collect()
    cases = test_lf.collect()
    _CASES.compile(cases.schema, func, truth=truth, instance=instance, label=label)
    if instance is None:
        check_parameter(
            "instance" not in cases.columns,
            func,
            "test already has a column 'instance'; pass instance='instance' to use it, got "
            "instance=None.",
        )
        cases = cases.with_row_index("instance").with_columns(pl.col("instance").cast(pl.Int64))
        instance = "instance"
    carried = [instance, truth, *([label] if label else [])]
    clash = sorted({"learner", "repeat", "pred"} & set(carried))
    check_parameter(not clash, func, f"test columns must not be named {clash}, got them.")
    check_parameter(pool.height > 0, func, "data must have at least one row, got 0.")
    duplicated = cases.filter(pl.col(instance).is_duplicated())
    if duplicated.height:
        raise InvalidValueError(
            f"{func}(): column {instance!r} (instance=) must be unique in test, got "
            f"{instance}={duplicated[instance][0]!r} more than once."
        )

    rng = np.random.default_rng(seed)
    draws = rng.integers(0, pool.height, size=(repeats, pool.height))
    keys = cases.select(carried)
    names = pl.Series("learner", list(learners))  # one dtype for the keys (ints → Int64)
    parts = []
    for k, (key, fit_predict) in enumerate(learners.items()):
        for r in range(repeats):
            train = pool[draws[r]]
            try:
                prediction = fit_predict(train, cases)
            except Exception as err:
                err.add_note(f"{func}(): learner {key!r} failed on repeat {r + 1}.")
                raise
            prediction = pl.Series("pred", prediction)
            if prediction.len() != cases.height:
                raise InvalidValueError(
                    f"{func}(): learner {key!r} must return one prediction per test row "
                    f"({cases.height}), got {prediction.len()} on repeat {r + 1}."
                )
            parts.append(
                keys.select(
                    pl.lit(k, dtype=pl.Int64).alias("learner"),
                    pl.lit(r + 1, dtype=pl.Int64).alias("repeat"),
                    *carried,
                ).with_columns(prediction)
            )
    out = pl.concat(parts, how="vertical_relaxed").with_columns(
        pl.col("learner").replace_strict(list(range(len(names))), names, return_dtype=names.dtype)
    )
    return out if eager else out.lazy()
