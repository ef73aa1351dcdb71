"""The pass@k family as Polars expressions: :func:`pass_at_k`, :func:`pass_hat_k`,
:func:`g_pass_at_k` — one hypergeometric tail each, for ``group_by(model, item).agg(...)``."""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from frameeval._inputs import Column, Inputs
from frameeval._params import COUNT, UP_TO_ONE
from frameeval._validate import attach_guard, failure, planned
from frameeval.exceptions import InsufficientDataError, InvalidDtypeError, InvalidValueError

__all__ = ["g_pass_at_k", "pass_at_k", "pass_hat_k"]


#: the column of the pass@k family: a complete 0/1 flag (its dtype checked by the plan)
CORRECT = Inputs(Column("correct", "any", "not_null"))


def _check_k(func: str, k: Any) -> int:
    return int(COUNT(func, "k", k))


def _guarded(func: str, correct: str, k: int, value: Any) -> pl.Expr:
    """``value(n, c)`` with the rules of the family checked in the plan: ``correct`` is boolean
    or numeric 0/1, complete, and the group has at least k samples."""

    def plan(inputs: list[tuple[pl.Expr, pl.DataType]]) -> pl.Expr:
        dtype = inputs[0][1]
        if not (dtype == pl.Boolean or dtype.is_integer() or dtype.is_float()):
            raise InvalidDtypeError(
                f"{func}(): column {correct!r} (correct=) must be boolean or numeric 0/1, "
                f"got {dtype}."
            )
        flag = pl.col(correct).cast(pl.Float64)
        n = pl.col(correct).count().cast(pl.Int64)
        c = flag.sum().round(0).cast(pl.Int64)
        checks = CORRECT.compile(pl.Schema({correct: dtype}), func, correct=correct)
        if dtype != pl.Boolean:
            checks.rule(
                ~flag.is_in([0.0, 1.0]),
                InvalidValueError,
                f"column {correct!r} (correct=) must hold 0/1 flags, got",
                example=flag,
            )
        guard = checks.guard(
            failure(
                n < k,
                InsufficientDataError,
                f"{func}(): k must not exceed the number of samples n of a group, got k={k} "
                "and n={}.",
                n,
            )
        )
        result: pl.Expr = value(n, c)
        return result if guard is None else attach_guard(result, guard)

    return planned([correct], plan).alias(func)


def pass_at_k(correct: str, k: int) -> pl.Expr:
    """pass@k: the probability that at least one of k answers drawn without replacement from a
    group's n answers (c of them correct) is correct — an aggregation for
    ``group_by(model, item).agg(...)``.

    Parameters
    ----------
    correct
        Column of 0/1 (or boolean) flags, one row per answer; complete.
    k
        Number of answers drawn, 1 ≤ k ≤ n in every group (k > n raises
        :class:`~frameeval.exceptions.InsufficientDataError`).

    Returns
    -------
    A Float64 expression named ``pass_at_k``, in [0, 1].

    Notes
    -----
    pass@k = 1 − C(n − c, k)/C(n, k) (Chen et al. 2021, eq. 1), evaluated as the stable product
    1 − Π_{i=n−c+1}^{n} (1 − k/i): a sum of c logarithms, exact to rounding for n in the
    thousands (no binomial coefficient is formed). It is 1 when n − c < k.

    References
    ----------
    Chen et al. (2021), "Evaluating Large Language Models Trained on Code", arXiv:2107.03374.

    Examples
    --------
    >>> df = pl.DataFrame({"item": [1] * 5 + [2] * 5, "ok": [1, 0, 0, 1, 0, 0, 0, 0, 0, 1]})
    >>> df.group_by("item").agg(fe.pass_at_k("ok", 2)).sort("item").rows()
    [(1, 0.7), (2, 0.4)]
    """
    func = "pass_at_k"
    k = _check_k(func, k)

    def value(n: pl.Expr, c: pl.Expr) -> pl.Expr:
        i = pl.int_range(n - c + 1, n + 1, dtype=pl.Int64).cast(pl.Float64)
        return 1.0 - (1.0 - k / i).clip(lower_bound=0.0).log().sum().exp()

    return _guarded(func, correct, k, value)


def pass_hat_k(correct: str, k: int) -> pl.Expr:
    """pass^k: the probability that all k answers drawn without replacement from a group's n
    answers (c correct) are correct — τ-bench's reliability measure.

    Parameters
    ----------
    correct, k
        As in :func:`pass_at_k`: the 0/1 column and the number of answers drawn.

    Returns
    -------
    A Float64 expression named ``pass_hat_k``, in [0, 1].

    Notes
    -----
    pass^k = C(c, k)/C(n, k) = Π_{j=0}^{k−1} (c − j)/(n − j), a sum of k logarithms; 0 when
    c < k.

    References
    ----------
    Yao et al. (2024), "τ-bench: A Benchmark for Tool-Agent-User Interaction in Real-World
    Domains", arXiv:2406.12045.

    Examples
    --------
    >>> df = pl.DataFrame({"item": [1] * 4, "ok": [1, 1, 1, 0]})
    >>> round(df.group_by("item").agg(fe.pass_hat_k("ok", 2)).item(0, "pass_hat_k"), 12)
    0.5
    """
    func = "pass_hat_k"
    k = _check_k(func, k)

    def value(n: pl.Expr, c: pl.Expr) -> pl.Expr:
        j = pl.int_range(0, k, dtype=pl.Int64).cast(pl.Float64)
        ratio = ((c.cast(pl.Float64) - j) / (n.cast(pl.Float64) - j)).clip(lower_bound=0.0)
        return ratio.log().sum().exp()

    return _guarded(func, correct, k, value)


def g_pass_at_k(correct: str, k: int, tau: float) -> pl.Expr:
    """G-Pass@k_τ: the probability that at least ⌈τ·k⌉ of k answers drawn without replacement
    from a group's n answers (c correct) are correct (Liu et al. 2024).

    τ → 0 (⌈τk⌉ = 1) gives pass@k, τ = 1 gives pass^k.

    Parameters
    ----------
    correct, k
        As in :func:`pass_at_k`: the 0/1 column and the number of answers drawn.
    tau
        The share of the k answers that must be correct, in (0, 1].

    Returns
    -------
    A Float64 expression named ``g_pass_at_k``, in [0, 1].

    Notes
    -----
    G-Pass@k_τ = Σ_{j=⌈τk⌉}^{k} C(c, j)·C(n − c, k − j)/C(n, k), the upper tail of the
    hypergeometric distribution. Each term is formed from log-factorials, log m! =
    Σ_{i≤m} log i, cumulated once per group over 1…n (exact to rounding for n in the
    thousands).

    References
    ----------
    Liu et al. (2024), "Are Your LLMs Capable of Stable Reasoning?", arXiv:2412.13147.

    Examples
    --------
    >>> df = pl.DataFrame({"item": [1] * 4, "ok": [1, 1, 1, 0]})
    >>> round(df.group_by("item").agg(fe.g_pass_at_k("ok", 2, 0.5)).item(0, "g_pass_at_k"), 12)
    1.0
    """
    func = "g_pass_at_k"
    k = _check_k(func, k)
    UP_TO_ONE(func, "tau", tau)
    low = max(1, math.ceil(tau * k - 1e-12))

    def value(n: pl.Expr, c: pl.Expr) -> pl.Expr:
        # log m! for m = 0 … n, as one list per group; gathered at the needed m
        i = pl.int_range(0, n + 1, dtype=pl.Int64).cast(pl.Float64)
        log_fact = i.clip(lower_bound=1.0).log().cum_sum()

        def log_choose(top: pl.Expr, bottom: pl.Expr | int) -> pl.Expr:
            bottom = pl.lit(bottom) if isinstance(bottom, int) else bottom
            return (
                log_fact.gather(top).first()
                - log_fact.gather(bottom).first()
                - log_fact.gather(top - bottom).first()
            )

        terms = []
        for j in range(low, k + 1):  # loop-ok: k − ⌈τk⌉ + 1 terms of the formula, not data
            possible = (c >= j) & (n - c >= k - j)
            safe_c = pl.when(possible).then(c).otherwise(j)
            safe_rest = pl.when(possible).then(n - c).otherwise(k - j)
            log_term = log_choose(safe_c, j) + log_choose(safe_rest, k - j) - log_choose(n, k)
            terms.append(pl.when(possible).then(log_term.exp()).otherwise(0.0))
        return pl.sum_horizontal(terms).clip(0.0, 1.0)

    return _guarded(func, correct, k, value)
