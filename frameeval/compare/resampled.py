"""Tests of two learners for resampling designs whose training sets overlap.

:func:`corrected_resampled_t_test` — the Nadeau–Bengio corrected resampled t test for repeated
hold-out and (repeated) k-fold cross-validation; :func:`cv5x2_f_test` — Alpaydin's combined 5×2cv
F test. Re-exported by :mod:`frameeval.uncertainty`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from frameeval._deprecation import renamed_argument
from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import Number
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import (
    check_not_empty_eager,
    check_parameter,
    check_unique,
    enforce,
    failure,
    group_text,
)
from frameeval.compare.door import check_learners, resolve_direction
from frameeval.compare.door import learner_expr as _learner_expr
from frameeval.compare.effect_size import attach_effects, effect_aggs, effect_columns
from frameeval.compare.guards import value_text as _text
from frameeval.compare.plan import (
    agg_by_keys,
    at_least,
    both_present,
    check_level,
    signed_ratio,
    tie_to_checks,
)
from frameeval.compare.results import CORRECTED_T, CV5X2_F, Shape
from frameeval.compare.scipy_step import f_values, mean_better, scipy_step
from frameeval.compare.scipy_step import literal as _learner_literal
from frameeval.compare.scipy_step import mean_std as _mean_std
from frameeval.exceptions import InsufficientDataError

__all__ = ["corrected_resampled_t_test", "cv5x2_f_test"]
_SIZE = Number(low=0.0, closed="neither", text="a positive number")

#: the inputs of a resampled test: a finite metric per learner and split (``block=`` columns,
#: complete)
SPLITS = Inputs(
    Column("by"),
    Column("metric", "numeric", "finite"),
    Column("learner"),
    Column("block", "any", "not_null", several=True),
    distinct=True,
)


# ---------------------------------------------------------------------------------------------
# tests for resampling designs
# ---------------------------------------------------------------------------------------------
def _paired_metric(
    data: Any,
    func: str,
    metric: str,
    a: Any,
    b: Any,
    learner: str,
    block: list[str],
    by: Keys,
    shape: Shape,
) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema]:
    """``*keys, *block, __fe_a, __fe_b``: the metric of a and b side by side per split, with the
    in-plan checks (finite metric, no null split ids, one value per learner and split, both
    learners on every split)."""
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    checks = SPLITS.compile(schema, func, by=keys, metric=metric, learner=learner, block=block)
    for column in block:
        check_parameter(
            column not in keys and column not in (metric, learner),
            func,
            f"block columns must differ from by=, metric= and learner=, got {column!r}.",
        )
    shape.check(func, keys)
    check_learners(schema, func, learner, a, b)
    check_not_empty_eager(data, eager, lf, func)
    name = _learner_expr(learner, schema)
    is_a, is_b = name == pl.lit(a), name == pl.lit(b)
    counts = agg_by_keys(
        lf,
        keys,
        [
            is_a.sum().cast(pl.Int64).alias("__fe_rows_a"),
            is_b.sum().cast(pl.Int64).alias("__fe_rows_b"),
        ],
    )
    counts = enforce(
        counts,
        failure(
            (pl.col("__fe_rows_a") == 0) | (pl.col("__fe_rows_b") == 0),
            InsufficientDataError,
            f"{func}(): learners a={a!r} and b={b!r} must both have rows, got {{}} rows of a "
            "and {} rows of b{}.",
            pl.col("__fe_rows_a"),
            pl.col("__fe_rows_b"),
            group_text(keys),
        ),
    )
    mine = lf.filter(is_a | is_b)
    mine = check_unique(
        mine, [*keys, *block, learner], func, f"one metric value per learner and {'/'.join(block)}"
    )
    value = pl.col(metric).cast(pl.Float64)
    piv = mine.group_by([*keys, *block]).agg(
        value.filter(is_a).first().alias("__fe_a"),
        value.filter(is_b).first().alias("__fe_b"),
        *checks.aggs(),
    )
    piv = checks.enforce(piv, keys)
    where = pl.concat_str(
        [pl.concat_str([pl.lit(f"{p}="), _text(p)]) for p in block], separator=" "
    )
    piv = both_present(
        piv,
        keys,
        func,
        where,
        a,
        b,
        "/".join(block),
        pl.col("__fe_a").is_null(),
        pl.col("__fe_b").is_null(),
    )
    return tie_to_checks(piv, counts, keys), eager, keys, schema


def _two_sided_t(statistic: np.ndarray, df: np.ndarray, alpha: np.ndarray) -> dict[str, Any]:
    from scipy import stats

    return {
        "p_value": 2.0 * stats.t.sf(np.abs(statistic), df),
        "critical_value": stats.t.isf(alpha / 2.0, df),
    }


@frame_function
def corrected_resampled_t_test(
    data: IntoFrame,
    metric: str,
    *,
    a: Any,
    b: Any,
    n_train: float,
    n_test: float,
    learner: str | None = None,
    block: str | Sequence[str] = "fold",
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    pair: str | Sequence[str] | None = None,
) -> Frame:
    """Nadeau–Bengio corrected resampled t test of two learners (repeated hold-out, k-fold,
    repeated k-fold).

    The J splits of a resampling design share training (and, for repeated hold-out, test)
    instances, so the J differences are positively correlated and the plain paired t test
    (:func:`frameeval.paired_t_test`) underestimates their variance and rejects far too often.
    Nadeau & Bengio (2003) inflate the variance by the factor 1/J + n_test/n_train instead of
    1/J.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted),
        one row per learner × split (× ``by`` group); rows of other learners are ignored.
    metric
        Column with the metric values (error rate, accuracy, AUC…).
    a, b
        The two learners (values of ``learner``); differences are a − b.
    n_train, n_test
        Training and test set sizes of one split (only their ratio matters): for repeated
        hold-out with a ⅓ test set, ``n_train=2, n_test=1``; for (repeated) k-fold CV,
        ``n_train=k - 1, n_test=1``.
    learner
        Column naming the learner.
    block
        Column(s) identifying the split both learners were evaluated on, e.g. ``"fold"`` or
        ``["repeat", "fold"]`` (the ``block=`` of :func:`frameeval.paired_t_test`).
    by, higher_is_better, alpha
        As in :func:`frameeval.paired_t_test`: one test per group; the direction of ``metric``
        for ``better`` (default: from the measure registry by name); the level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_pairs, mean, std, statistic, df, p_value,
    critical_value, alpha, reject, better, mean_difference, cohen_d, cliff_delta``, sorted by
    keys: ``n_pairs`` = J (Int64); ``mean``,
    ``std`` — mean and sample standard deviation (J − 1) of the differences; ``statistic`` =
    mean / (std · √(1/J + n_test/n_train)); ``df`` = J − 1; ``p_value`` two-sided;
    ``critical_value`` = t_{α/2, J−1}; ``reject`` = |statistic| > critical_value; ``better`` —
    the learner with the better mean when rejected, null otherwise; the effect sizes of the J
    pairs (as :func:`~frameeval.compare.effect_size`): ``mean_difference`` = mean,
    ``cohen_d`` = d_z = mean/std (uncorrected: the correction concerns the variance of the
    mean, not the size of the difference), ``cliff_delta`` = Cliff's δ.

    Notes
    -----
    With n_test/n_train = 0 this is the paired t test of §2.4.2. For r × k-fold CV (J = r·k,
    n_test/n_train = 1/(k − 1)) it is the "corrected repeated k-fold cv test" of Bouckaert &
    Frank (2004). The correction is a heuristic upper bound on the correlation ρ = n_test /
    (n_train + n_test) of the split estimates; it keeps the type I error near α in simulations
    but is not exact, and it does not account for the variability of the data set itself. When
    all differences are equal the statistic is ±inf, or null when they are all 0 (``p_value``,
    ``reject``, ``better`` null too). Needs J ≥ 2 splits with both learners.

    References
    ----------
    Nadeau & Bengio (2003), "Inference for the generalization error", Machine Learning 52(3).
    Bouckaert & Frank (2004), "Evaluating the replicability of significance tests for comparing
    learning algorithms", PAKDD. Zhou Zhihua, *Machine Learning*, §2.4.2.

    See Also
    --------
    cv5x2_f_test : Alpaydin's F test of 5 × 2 folds.
    frameeval.paired_t_test : the uncorrected paired t test.
    frameeval.cv5x2_t_test : Dietterich's 5×2cv t test.

    Examples
    --------
    >>> df = pl.DataFrame({"learner": ["A"] * 4 + ["B"] * 4, "fold": [1, 2, 3, 4] * 2,
    ...                    "accuracy": [0.80, 0.82, 0.85, 0.81, 0.78, 0.80, 0.80, 0.79]})
    >>> out = fe.corrected_resampled_t_test(df, "accuracy", a="A", b="B", n_train=3, n_test=1)
    >>> out.select("n_pairs", "df", "reject").row(0)
    (4, 3, False)
    >>> round(out["statistic"][0], 4)  # 0.0275 / (0.015 · √(1/4 + 1/3))
    2.4004
    """
    func = "corrected_resampled_t_test"
    block = renamed_argument(func, "pair", "block", pair, block)
    (learner,) = resolve_roles(data, func, [by, metric, block], learner=learner)
    alpha = check_level(alpha, func, "alpha")
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        _SIZE(func, name, value)
    blocks = [block] if isinstance(block, str) else list(block)
    check_parameter(bool(blocks), func, "block= must name at least one column, got none.")
    hib = resolve_direction(func, metric, higher_is_better)
    piv, eager, keys, schema = _paired_metric(
        data, func, metric, a, b, learner, blocks, by, CORRECTED_T
    )
    mean, std = _mean_std(pl.col("__fe_a") - pl.col("__fe_b"))
    out = agg_by_keys(
        piv,
        keys,
        [
            pl.len().cast(pl.Int64).alias("n_pairs"),
            mean.alias("mean"),
            std.alias("std"),
            *effect_aggs("__fe_a", "__fe_b"),
        ],
    )
    what = f"splits ({'/'.join(blocks)}) with both learners"
    out = enforce(out, at_least("n_pairs", 2, func, what, keys))
    j = pl.col("n_pairs").cast(pl.Float64)
    factor = (1.0 / j + float(n_test) / float(n_train)).sqrt()
    out = out.with_columns(
        _learner_literal(a, schema, learner).alias("a"),
        _learner_literal(b, schema, learner).alias("b"),
        signed_ratio(pl.col("mean"), pl.col("std") * factor).alias("statistic"),
        (pl.col("n_pairs") - 1).alias("df"),
        pl.lit(alpha).alias("alpha"),
    )
    out = scipy_step(out, _two_sided_t, ["statistic", "df", "alpha"], ["p_value", "critical_value"])
    out = CORRECTED_T.decide(out).with_columns(mean_better(hib), *effect_columns())
    return finish(CORRECTED_T.out(out, keys), eager)


@frame_function
def cv5x2_f_test(
    data: IntoFrame,
    metric: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    repeat: str | None = None,
    fold: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
) -> Frame:
    """Alpaydin's combined 5×2cv F test of two learners.

    Five repeats of 2-fold cross-validation give ten differences pᵢ⁽ʲ⁾ (repeat i, fold j,
    a − b). Dietterich's 5×2cv t test (:func:`frameeval.cv5x2_t_test`) uses only one of them in
    its numerator, so its result depends on which fold comes first; Alpaydin (1999) combines
    all ten: f = Σᵢ Σⱼ (pᵢ⁽ʲ⁾)² / (2 Σᵢ sᵢ²), with sᵢ² = (pᵢ⁽¹⁾ − p̄ᵢ)² + (pᵢ⁽²⁾ − p̄ᵢ)², is
    approximately F(10, 5) distributed when the learners perform the same.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted),
        one row per learner × repeat × fold (× ``by`` group); rows of other learners are
        ignored.
    metric
        Column with the metric values.
    a, b
        The two learners (values of ``learner``); differences are a − b.
    learner, repeat, fold
        Columns naming the learner, the repeat (5 values in the published design) and the
        fold within it (exactly 2 per repeat).
    by, higher_is_better, alpha
        As in :func:`corrected_resampled_t_test`.

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_repeats, mean, statistic, df1, df2, p_value,
    critical_value, alpha, reject, better, mean_difference, cohen_d, cliff_delta``, sorted by
    keys: ``n_repeats`` = r (Int64);
    ``mean`` — the mean of the 2r differences (for ``better``); ``statistic`` = f; ``df1`` =
    2r, ``df2`` = r (10 and 5 for 5×2cv); ``p_value`` = P(F > f); ``critical_value`` =
    F_{1−α}(df1, df2) (4.7351 for α = 0.05); ``reject`` = f > critical_value; ``better`` —
    the learner with the better mean difference when rejected, null otherwise; the effect
    sizes of the 2r pairs (as :func:`~frameeval.compare.effect_size`): ``mean_difference`` =
    mean, ``cohen_d`` = d_z, ``cliff_delta`` = Cliff's δ.

    Notes
    -----
    Under H₀ each pᵢ⁽ʲ⁾/σ is approximately N(0, 1), so Σ (pᵢ⁽ʲ⁾)²/σ² ~ χ²(2r) and
    Σ sᵢ²/σ² ~ χ²(r); assuming them independent, their ratio (each over its df) is F(2r, r).
    r repeats other than 5 follow the same derivation (r ≥ 1). The statistic is +inf when every
    repeat's two differences are equal but not all zero, and null when all are zero
    (``p_value``, ``reject``, ``better`` null too).

    References
    ----------
    Alpaydin (1999), "Combined 5 × 2 cv F test for comparing supervised classification learning
    algorithms", Neural Computation 11(8). Dietterich (1998), Neural Computation 10(7). Zhou
    Zhihua, *Machine Learning*, §2.4.2.

    See Also
    --------
    frameeval.cv5x2_t_test : the 5×2cv paired t test of the same design.
    corrected_resampled_t_test : any number of repeated splits.

    Examples
    --------
    >>> rows = [("A", i, j, 0.80 + 0.01 * i + 0.005 * j) for i in range(5) for j in (1, 2)]
    >>> rows += [("B", i, j, 0.78 + 0.012 * i - 0.004 * j) for i in range(5) for j in (1, 2)]
    >>> df = pl.DataFrame(rows, schema=["learner", "repeat", "fold", "accuracy"], orient="row")
    >>> out = fe.cv5x2_f_test(df, "accuracy", a="A", b="B")
    >>> out.select("n_repeats", "df1", "df2", "better").row(0)
    (5, 10, 5, 'A')
    >>> round(out["critical_value"][0], 4)
    4.7351
    """
    learner, repeat, fold = resolve_roles(
        data, "cv5x2_f_test", [by, metric], learner=learner, repeat=repeat, fold=fold
    )
    func = "cv5x2_f_test"
    alpha = check_level(alpha, func, "alpha")
    check_parameter(
        repeat != fold, func, f"repeat= and fold= must be different columns, got {repeat!r}."
    )
    hib = resolve_direction(func, metric, higher_is_better)
    piv, eager, keys, schema = _paired_metric(
        data, func, metric, a, b, learner, [repeat, fold], by, CV5X2_F
    )
    d = pl.col("__fe_a") - pl.col("__fe_b")
    per_repeat = piv.group_by([*keys, repeat]).agg(
        pl.len().cast(pl.Int64).alias("__fe_folds"),
        (d**2).sum().alias("__fe_sq"),
        # s² = (p1 − p̄)² + (p2 − p̄)² = (p1 − p2)² / 2 for two folds
        ((d.max() - d.min()) ** 2 / 2.0).alias("__fe_s2"),
        d.sum().alias("__fe_sum"),
    )
    per_repeat = enforce(
        per_repeat,
        failure(
            pl.col("__fe_folds") != 2,
            InsufficientDataError,
            f"{func}(): every {repeat!r} must have exactly 2 {fold!r} values with both learners, "
            "got {} for {}{}.",
            pl.col("__fe_folds"),
            pl.concat_str([pl.lit(f"{repeat}="), _text(repeat)]),
            group_text(keys),
        ),
    )
    out = agg_by_keys(
        per_repeat,
        keys,
        [
            pl.len().cast(pl.Int64).alias("n_repeats"),
            (pl.col("__fe_sum").sum() / (2.0 * pl.len())).alias("mean"),
            pl.col("__fe_sq").sum().alias("__fe_num"),
            (2.0 * pl.col("__fe_s2").sum()).alias("__fe_den"),
        ],
    )
    out = out.with_columns(
        _learner_literal(a, schema, learner).alias("a"),
        _learner_literal(b, schema, learner).alias("b"),
        signed_ratio(pl.col("__fe_num"), pl.col("__fe_den")).alias("statistic"),
        (2 * pl.col("n_repeats")).alias("df1"),
        pl.col("n_repeats").alias("df2"),
        pl.lit(alpha).alias("alpha"),
    )
    out = scipy_step(
        out, f_values, ["statistic", "df1", "df2", "alpha"], ["p_value", "critical_value"]
    )
    out = CV5X2_F.decide(out).with_columns(mean_better(hib))
    out = attach_effects(out, piv, keys, "__fe_a", "__fe_b")
    return finish(CV5X2_F.out(out, keys), eager)
