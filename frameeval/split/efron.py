"""Efron's .632 and .632+ bootstrap estimates of the error rate and the no-information error
rate they need (Efron & Tibshirani 1997), from the result frame of bootstrap splits."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval._validate import Checks, label_expr

__all__ = ["efron632", "no_information_rate"]


#: the inputs of the no-information rate: complete labels
GAMMA = Inputs(
    Column("truth", "label", "not_null"), Column("pred", "label", "not_null"), Column("by")
)


@frame_function
def no_information_rate(
    data: IntoFrame,
    truth: str = "truth",
    pred: str = "pred",
    *,
    by: str | Sequence[str] | None = None,
) -> Frame:
    """No-information error rate γ = Σ_l p_l (1 − q_l) (0-1 loss).

    The error rate of the rule if inputs and labels were independent: p_l is the share of class
    l in ``truth``, q_l the share of predictions equal to l (Efron & Tibshirani 1997, eq. 27).

    Returns
    -------
    Same kind as ``data``: ``*by, no_information_rate`` (Float64 in [0, 1]), sorted by ``by``.

    Examples
    --------
    >>> df = pl.DataFrame({"truth": [1, 1, 0, 0], "pred": [1, 1, 1, 0]})
    >>> fe.split.no_information_rate(df)["no_information_rate"].to_list()
    [0.5]
    """

    func = "no_information_rate"
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    checks = GAMMA.compile(schema, func, truth=truth, pred=pred, by=keys)
    actual, predicted = label_expr(truth, schema), label_expr(pred, schema)
    out = _gamma(lf, keys, actual, predicted, checks, truth, pred)
    return finish(out.sort(keys) if keys else out, eager)


def _gamma(
    lf: pl.LazyFrame,
    keys: list[str],
    actual: pl.Expr,
    predicted: pl.Expr,
    checks: Checks,
    truth: str,
    pred: str,
) -> pl.LazyFrame:
    base = lf.select(
        *keys, actual.alias("__fe_a"), predicted.alias("__fe_p"), pl.col(truth), pl.col(pred)
    )
    p = base.group_by(*keys, pl.col("__fe_a").alias("__fe_l")).agg(
        pl.len().cast(pl.Int64).alias("__fe_pa"), *checks.aggs()
    )
    p = checks.enforce(p, keys)
    q = base.group_by(*keys, pl.col("__fe_p").alias("__fe_l")).agg(
        pl.len().cast(pl.Int64).alias("__fe_qa")
    )
    joined = p.join(
        q, on=[*keys, "__fe_l"], how="full", coalesce=True, nulls_equal=True
    ).with_columns(pl.col("__fe_pa", "__fe_qa").fill_null(0))
    # γ = 1 − Σ n_l m_l / N², from integer counts: one rounding, so γ equals another error
    # rate exactly when the two rationals are equal (R' is decided without float noise)
    n2 = pl.col("__fe_pa").sum().pow(2)
    agg = (n2 - (pl.col("__fe_pa") * pl.col("__fe_qa")).sum()).cast(pl.Float64) / n2.cast(
        pl.Float64
    )
    return _per_group(joined, keys, agg.alias("no_information_rate"))


def _per_group(lf: pl.LazyFrame, keys: list[str], *aggs: pl.Expr) -> pl.LazyFrame:
    """``aggs`` per group of ``keys`` (one row without keys)."""
    return lf.group_by(keys).agg(*aggs) if keys else lf.select(*aggs)


@frame_function
def efron632(
    data: IntoFrame,
    truth: str = "truth",
    pred: str = "pred",
    *,
    by: str | Sequence[str] | None = "learner",
    role: str = "role",
    instance: str | None = "instance",
) -> Frame:
    """Efron's .632 and .632+ bootstrap estimates of the error rate (0-1 loss).

    The out-of-bag error of bootstrap models is pessimistic (each is trained on about 63.2 % of
    the distinct instances) and the apparent (training) error optimistic; .632 blends them, and
    .632+ moves the weight towards the out-of-bag error when the model overfits, measured
    against the no-information error rate.

    Parameters
    ----------
    data
        The result frame of :func:`frameeval.evaluate` on :func:`bootstrap` splits run with
        ``train=True``: rows with ``role == "train"`` are predictions on the bootstrap samples
        (apparent error), rows with ``role == "test"`` out-of-bag predictions.
    truth, pred
        Label columns.
    by
        Group keys (default ``"learner"``); ``None`` for one estimate.
    role
        The column holding ``"train"`` / ``"test"``.
    instance
        Instance key for the leave-one-out bootstrap average; ``None`` pools all out-of-bag
        predictions instead.

    Returns
    -------
    Same kind as ``data``: ``*by, apparent_error, oob_error, no_information_rate,
    relative_overfitting, error_632, error_632_plus`` (Float64), sorted by ``by``.

    Notes
    -----
    With apparent error ē (mean 0-1 loss over the ``train`` rows), leave-one-out bootstrap error
    Err¹ (per instance, the mean loss over the repeats in which it was out of bag, then the mean
    over instances) and γ from :func:`no_information_rate` on the ``train`` rows:

    * Err^.632 = 0.368 ē + 0.632 Err¹;
    * Err¹' = min(Err¹, γ); relative overfitting R' = (Err¹' − ē) / (γ − ē) when ē < Err¹' and
      ē < γ, else 0 (so R' is in [0, 1]);
    * Err^.632+ = Err^.632 + (Err¹' − ē) · 0.368 · 0.632 · R' / (1 − 0.368 R') (eq. 32).

    When Err¹ ≤ γ this equals (1 − ŵ) ē + ŵ Err¹ with ŵ = 0.632 / (1 − 0.368 R') (the form of
    Hastie et al.); with R' = 0 the two estimates agree. Efron's ē is the error of the model fitted
    on all of D, on D: append those predictions with ``role == "train"`` to use it; with
    ``evaluate(..., train=True)`` the ``train`` rows are each bootstrap model on its own sample.
    ``relative_overfitting`` and the estimates are null when a group has no ``train`` or no
    ``test`` rows.

    References
    ----------
    Efron, B. (1983), "Estimating the error rate of a prediction rule", JASA 78. Efron, B. &
    Tibshirani, R. (1997), "Improvements on cross-validation: the .632+ bootstrap method", JASA
    92(438), eqs. (24)–(32). Hastie, Tibshirani & Friedman (2009), *The Elements of Statistical
    Learning*, eq. (7.59).

    Examples
    --------
    >>> df = pl.DataFrame({
    ...     "role": ["train"] * 4 + ["test"] * 2,
    ...     "instance": [0, 1, 2, 3, 0, 1],
    ...     "truth": [0, 0, 1, 1, 0, 1],
    ...     "pred": [0, 0, 1, 1, 1, 1],
    ... })
    >>> fe.split.efron632(df, by=None)["error_632"].round(3).to_list()
    [0.316]
    """
    func = "efron632"
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    checks = (GAMMA + Inputs(Column("role"), Column("instance"))).compile(
        schema, func, truth=truth, pred=pred, by=keys, role=role, instance=instance
    )
    actual, predicted = label_expr(truth, schema), label_expr(pred, schema)
    is_train = pl.col(role) == "train"
    loss = (actual != predicted).cast(pl.Float64)
    train = lf.filter(is_train)
    test = lf.filter(pl.col(role) == "test").with_columns(loss.alias("__fe_loss"))
    apparent = _per_group(train, keys, loss.mean().alias("apparent_error"))
    if instance is not None:  # the leave-one-out bootstrap: first the mean per instance
        test = test.group_by(*keys, instance).agg(pl.col("__fe_loss").mean())
    oob = _per_group(test, keys, pl.col("__fe_loss").mean().alias("oob_error"))
    gamma = _gamma(train, keys, actual, predicted, checks, truth, pred)
    if keys:
        out = apparent.join(oob, on=keys, how="full", coalesce=True, nulls_equal=True).join(
            gamma, on=keys, how="left", nulls_equal=True
        )
    else:
        out = pl.concat([apparent, oob, gamma], how="horizontal")
    e, err1, g = pl.col("apparent_error"), pl.col("oob_error"), pl.col("no_information_rate")
    err1c = pl.min_horizontal(err1, g)
    r = (
        pl.when(e.is_null() | err1.is_null())
        .then(None)
        .when((err1c > e) & (g > e))
        .then((err1c - e) / (g - e))
        .otherwise(0.0)
    )
    e632 = 0.368 * e + 0.632 * err1
    r_ = pl.col("relative_overfitting")
    out = out.with_columns(r.alias("relative_overfitting")).with_columns(
        e632.alias("error_632"),
        (e632 + (err1c - e) * (0.368 * 0.632) * r_ / (1.0 - 0.368 * r_)).alias("error_632_plus"),
    )
    out = out.select(
        *keys,
        "apparent_error",
        "oob_error",
        "no_information_rate",
        "relative_overfitting",
        "error_632",
        "error_632_plus",
    )
    return finish(out.sort(keys) if keys else out, eager)
