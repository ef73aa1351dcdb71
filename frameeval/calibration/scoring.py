"""Multiclass proper scoring rules (log loss, Brier score) as grouped, lazy frame functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_parameter
from frameeval.calibration._common import TOLERANCE, TRUE_CLASS, multiclass_input
from frameeval.curves.table import Setup
from frameeval.metrics.probability import EPS, check_eps, loss_statistics, mean_loss_value


# ---------------------------------------------------------------------------------------------
# multiclass proper scoring rules
# ---------------------------------------------------------------------------------------------
def _true_class_probability(k: int) -> pl.Expr:
    chain: Any = pl
    for i in range(k):  # loop-ok: builds one when/then per class
        chain = chain.when(pl.col(TRUE_CLASS) == i).then(pl.col(f"__fe_p{i}"))
    return chain.otherwise(None)


def _mean_loss(
    inp: Setup, terms: pl.Expr, weight: str | None, name: str, scale: float = 1.0
) -> Any:
    loss_sum, weight_sum = loss_statistics(terms, weight)
    stats = inp.lf.group_by(inp.gkeys).agg(
        loss_sum.alias("__fe_loss"), weight_sum.alias("__fe_mass"), *inp.checks.aggs()
    )
    stats = inp.checks.enforce(stats, inp.keys)
    out = stats.select(
        *inp.gkeys, (mean_loss_value(pl.col("__fe_loss"), pl.col("__fe_mass")) * scale).alias(name)
    )
    return inp.done(inp.sort(out))


@frame_function
def multiclass_log_loss(
    data: IntoFrame,
    truth: str,
    score: Mapping[Any, str] | Sequence[str] | str,
    *,
    labels: Sequence[Any] | None = None,
    by: Keys = None,
    weight: str | None = None,
    eps: float = EPS,
    tolerance: float = TOLERANCE,
) -> Frame:
    """Multiclass log loss (cross-entropy) per group, from the probabilities of every class.

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth
        Column with the true class; every value must be one of the classes.
    score
        The predicted probabilities, in one of three forms: a mapping ``{class: column}``; a
        list of columns together with ``labels=`` (the class of each column, in order); or the
        name of one List / Array column together with ``labels=`` (element i is the
        probability of ``labels[i]``). Each probability lies in [0, 1].
    labels
        The classes, required with a list of columns or a list column; not allowed with a
        mapping.
    by
        Key column(s); one value per group.
    weight
        Optional non-negative weights (scikit-learn's ``sample_weight``).
    eps
        The probability of the true class is clipped to [eps, 1 − eps] inside the logarithm
        (default 2⁻⁵², as scikit-learn).
    tolerance
        Each row's probabilities must sum to 1 within this (default 1e-6): a row that does not
        is an ``InvalidValueError`` (scikit-learn only warns, at about 1.5e-8).

    Returns
    -------
    Same kind as ``data`` with columns ``*by, log_loss``, sorted by the keys.

    Notes
    -----
    L = −Σᵢ wᵢ log clip(p_{i, yᵢ}, eps, 1 − eps) / Σᵢ wᵢ, the natural logarithm of the
    probability given to each row's true class; the probabilities of the other classes do not
    enter (the log score is local). With two classes it is the binary
    :func:`frameeval.log_loss` of either class. Range [0, −log eps], lower is better. Null for
    zero total weight. Equal to scikit-learn's ``log_loss(y, P, labels=labels,
    sample_weight=w)``.

    References
    ----------
    Good, I. J. (1952). Rational decisions. Journal of the Royal Statistical Society B 14(1),
    107–114.

    See Also
    --------
    frameeval.log_loss, multiclass_brier_score

    Examples
    --------
    >>> df = pl.DataFrame({"y": ["a", "b", "c", "a", "b", "c"],
    ...                    "p": [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6],
    ...                          [0.3, 0.4, 0.3], [0.5, 0.4, 0.1], [0.1, 0.1, 0.8]]})
    >>> out = fe.multiclass_log_loss(df, truth="y", score="p", labels=["a", "b", "c"])
    >>> round(out.item(), 6)
    0.572342
    """
    func = "multiclass_log_loss"
    eps = check_eps(func, eps)
    inp, k = multiclass_input(
        data, func, truth, score, labels, by, weight, tolerance, ("log_loss",)
    )
    terms = -(_true_class_probability(k).clip(eps, 1.0 - eps).log())
    return _mean_loss(inp, terms, weight, "log_loss")


@frame_function
def multiclass_brier_score(
    data: IntoFrame,
    truth: str,
    score: Mapping[Any, str] | Sequence[str] | str,
    *,
    labels: Sequence[Any] | None = None,
    by: Keys = None,
    weight: str | None = None,
    scale_by_half: bool | Literal["auto"] = "auto",
    tolerance: float = TOLERANCE,
) -> Frame:
    """Multiclass Brier score per group: the mean squared distance between the probability
    vector and the one-hot outcome.

    Parameters
    ----------
    data, truth, score, labels, by, weight, tolerance
        As in :func:`multiclass_log_loss`.
    scale_by_half
        Divide by 2 (range [0, 1] instead of [0, 2]). ``"auto"`` (default, as scikit-learn)
        halves only for two classes, where the value then equals the binary
        :func:`frameeval.brier_score`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, brier_score``, sorted by the keys.

    Notes
    -----
    BS = Σᵢ wᵢ Σ_k (y_{ik} − p_{ik})² / Σᵢ wᵢ, y_{ik} = 1 when row i is of class k (Brier
    1950's original, multi-category definition), times ½ when halved. Range [0, 2] (or
    [0, 1]), lower is better. Null for zero total weight. Equal to scikit-learn's
    ``brier_score_loss(y, P, labels=labels, sample_weight=w, scale_by_half=...)``.

    References
    ----------
    Brier, G. W. (1950). Verification of forecasts expressed in terms of probability. Monthly
    Weather Review 78(1), 1–3.

    See Also
    --------
    frameeval.brier_score, multiclass_log_loss

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 2, 0, 1, 2],
    ...                    "p0": [0.7, 0.1, 0.2, 0.3, 0.5, 0.1],
    ...                    "p1": [0.2, 0.8, 0.2, 0.4, 0.4, 0.1],
    ...                    "p2": [0.1, 0.1, 0.6, 0.3, 0.1, 0.8]})
    >>> out = fe.multiclass_brier_score(df, truth="y", score={0: "p0", 1: "p1", 2: "p2"})
    >>> round(out.item(), 6)
    0.31
    """
    func = "multiclass_brier_score"
    check_parameter(
        scale_by_half in (True, False, "auto"),
        func,
        f"scale_by_half must be True, False or 'auto', got {scale_by_half!r}.",
    )
    inp, k = multiclass_input(
        data, func, truth, score, labels, by, weight, tolerance, ("brier_score",)
    )
    terms = pl.sum_horizontal(
        [((pl.col(TRUE_CLASS) == i).cast(pl.Float64) - pl.col(f"__fe_p{i}")) ** 2 for i in range(k)]
    )
    half = scale_by_half is True or (scale_by_half == "auto" and k == 2)
    return _mean_loss(inp, terms, weight, "brier_score", 0.5 if half else 1.0)
