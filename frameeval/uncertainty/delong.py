"""DeLong's variance of an AUC, its interval and the paired test of two correlated AUCs.

:func:`delong_ci` and :func:`delong_test` (DeLong et al. 1988), from placement values computed
with ranks in O(n log n) (Sun & Xu 2014).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from frameeval._frame import finish
from frameeval._inputs import Column, Inputs
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import Checks, check_unique, enforce, failure, group_text, label_expr
from frameeval.compare.door import check_learners
from frameeval.compare.door import learner_expr as _learner_expr
from frameeval.compare.guards import value_text as _text
from frameeval.compare.plan import agg_by_keys, both_present, check_level, over_keys, tie_to_checks
from frameeval.compare.results import DELONG_CI, DELONG_TEST
from frameeval.compare.scipy_step import better_expr, scipy_step
from frameeval.compare.scipy_step import literal as _learner_literal
from frameeval.exceptions import InvalidValueError

__all__ = ["delong_ci", "delong_test"]


# ---------------------------------------------------------------------------------------------
# DeLong
# ---------------------------------------------------------------------------------------------
#: the inputs of DeLong's functions: binary labels and scores, the keys and (for the test) the
#: learner and instance columns, all different columns
SCORES = Inputs(
    Column("truth", "label", "label", required=True),
    Column("score", "numeric", "finite", required=True),
    Column("by"),
    Column("learner"),
    Column("instance"),
    distinct=True,
)


def _open_scores(
    data: Any, func: str, truth: str, score: str, by: Keys, pos_label: Any, **more: Any
) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema, pl.Expr, Checks]:
    door = SCORES.open(
        data, func, truth=truth, score=score, by=by, **more, pos_label=pos_label, positive_of=truth
    )
    assert door.is_positive is not None
    return door.lf, door.eager, door.keys, door.schema, door.is_positive, door.checks


def _placements(lf: pl.LazyFrame, keys: list[str], score: str) -> pl.LazyFrame:
    """Add ``__fe_v``: the placement value of each instance within its group (Sun & Xu 2014).

    A positive's placement is the share of negatives it outranks (ties count ½), V₁₀; a
    negative's is the share of positives that outrank it, V₀₁. With midranks R over the group
    and R⁺ / R⁻ within the class: V₁₀ = (R − R⁺) / n⁻ and V₀₁ = 1 − (R − R⁻) / n⁺.
    """
    s = pl.col(score).cast(pl.Float64)
    pos = pl.col("__fe_pos")
    n_pos = over_keys(pos.sum(), keys).cast(pl.Float64)
    n_neg = over_keys(pl.len(), keys).cast(pl.Float64) - n_pos
    rank_all = over_keys(s.rank("average"), keys).cast(pl.Float64)
    rank_class = s.rank("average").over([*keys, "__fe_pos"]).cast(pl.Float64)
    outranked = rank_all - rank_class
    value = pl.when(pos).then(outranked / n_neg).otherwise(1.0 - outranked / n_pos)
    return lf.with_columns(
        pl.when((n_pos > 0) & (n_neg > 0)).then(value).alias("__fe_v"),
        n_pos.alias("__fe_n_pos"),
        n_neg.alias("__fe_n_neg"),
    )


def delong_ci(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    level: float = 0.95,
) -> Any:
    """AUC with DeLong's variance and normal confidence interval, per group.

    The AUC is a two-sample U statistic; DeLong, DeLong & Clarke-Pearson (1988) estimate its
    variance from the placement values of the instances (each positive's share of negatives
    ranked below it, each negative's share of positives ranked above it), which Sun & Xu (2014)
    compute with midranks in O(n log n).

    Parameters
    ----------
    data
        Long result frame (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        instance (× ``by`` group).
    truth
        True label column (binary use: ``pos_label`` against the rest).
    score
        Score column, larger = more positive.
    by
        Key column(s): one AUC per group.
    pos_label
        The positive class (default 1 / True; required for string labels).
    level
        Confidence level in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, metric, estimate, variance, std_error, lower, upper, level,
    method, n_pos, n_neg``, sorted by keys: ``metric`` = ``"roc_auc"``; ``estimate`` — the AUC
    (ties count ½, eq 2.22's 1 − ℓ_rank); ``variance`` = S₁₀/n⁺ + S₀₁/n⁻; ``std_error`` its
    square root; ``lower``, ``upper`` = AUC ∓ z_{(1+level)/2}·std_error, clipped to [0, 1];
    ``method`` = ``"delong"``; ``n_pos``, ``n_neg`` — the class sizes (Int64).

    Notes
    -----
    AUC = mean of V₁₀ over positives = 1 − ℓ_rank (eqs 2.21–2.22). S₁₀ and S₀₁ are the sample
    variances (dividing by n⁺ − 1 and n⁻ − 1) of the placements V₁₀ of the positives and V₀₁ of
    the negatives. Unweighted: every row is one instance (``weight=`` is not supported).

    Undefined (null): AUC, variance and interval of a group with one class; the variance and
    interval when a class has a single instance. At perfect separation (AUC 0 or 1) the
    variance is 0 and the interval collapses to a point — use :func:`bootstrap_ci` there. The
    normal interval suits moderate to large samples with an AUC away from 0 and 1.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), "Comparing the areas under two or more correlated
    receiver operating characteristic curves: a nonparametric approach", Biometrics 44(3).
    Sun & Xu (2014), "Fast implementation of DeLong's algorithm for comparing the areas under
    correlated receiver operating characteristic curves", IEEE Signal Processing Letters 21(11).
    Hanley & McNeil (1982), Radiology 143(1). Zhou Zhihua, *Machine Learning*, §2.3.3.

    See Also
    --------
    delong_test : the paired test of two learners' AUCs on the same instances.
    bootstrap_ci : a resampled interval of any measure.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 1, 0, 0, 0], "s": [0.9, 0.8, 0.3, 0.7, 0.2, 0.1]})
    >>> out = fe.delong_ci(df, "y", "s")
    >>> out.select("estimate", "n_pos", "n_neg").row(0)
    (0.8888888888888888, 3, 3)
    >>> round(out["std_error"][0], 4)  # √(2/81): S₁₀ = S₀₁ = 1/27 over 3 + 3 instances
    0.1571
    """
    func = "delong_ci"
    level = check_level(level, func, "level")
    lf, eager, keys, _, is_pos, checks = _open_scores(data, func, truth, score, by, pos_label)
    DELONG_CI.check(func, keys)
    rows = pl.len().alias("__fe_rows")
    checked = checks.enforce(agg_by_keys(lf, keys, [rows, *checks.aggs()]), keys)
    frame = tie_to_checks(lf.select(*keys, score, is_pos.alias("__fe_pos")), checked, keys)
    frame = _placements(frame, keys, score)
    v, pos = pl.col("__fe_v"), pl.col("__fe_pos")
    out = agg_by_keys(
        frame,
        keys,
        [
            v.filter(pos).mean().alias("estimate"),
            v.filter(pos).var(ddof=1).alias("__fe_s10"),
            v.filter(~pos).var(ddof=1).alias("__fe_s01"),
            pos.sum().cast(pl.Int64).alias("n_pos"),
            (~pos).sum().cast(pl.Int64).alias("n_neg"),
        ],
    )
    from scipy import special

    z = float(special.ndtri(0.5 + level / 2.0))
    variance = pl.col("__fe_s10") / pl.col("n_pos") + pl.col("__fe_s01") / pl.col("n_neg")
    known = pl.col("estimate").is_not_null()
    out = out.with_columns(pl.when(known).then(variance).alias("variance")).with_columns(
        pl.col("variance").sqrt().alias("std_error")
    )
    se = pl.col("std_error")
    out = out.with_columns(
        pl.lit("roc_auc").alias("metric"),
        (pl.col("estimate") - z * se).clip(0.0, 1.0).alias("lower"),
        (pl.col("estimate") + z * se).clip(0.0, 1.0).alias("upper"),
        pl.lit(level).alias("level"),
        pl.lit("delong").alias("method"),
    )
    return finish(DELONG_CI.out(out, keys), eager)


def _two_sided_z(statistic: np.ndarray, alpha: np.ndarray) -> dict[str, np.ndarray]:
    from scipy import special

    return {
        "p_value": 2.0 * special.ndtr(-np.abs(statistic)),
        "critical_value": special.ndtri(1.0 - alpha / 2.0),
    }


def _test_statistics(
    per_x: pl.LazyFrame,
    keys: list[str],
    alpha: float,
    a: Any,
    b: Any,
    schema: pl.Schema,
    learner: str,
) -> pl.LazyFrame:
    """From one row per instance (its class, its placements under a and b): the AUCs, the
    variance of their difference, the z test and the better learner, per group."""
    pos = pl.col("__fe_pos")
    va, vb = pl.col("__fe_a"), pl.col("__fe_b")
    out = agg_by_keys(
        per_x,
        keys,
        [
            pos.sum().cast(pl.Int64).alias("n_pos"),
            (~pos).sum().cast(pl.Int64).alias("n_neg"),
            va.filter(pos).mean().alias("roc_auc_a"),
            vb.filter(pos).mean().alias("roc_auc_b"),
            (va - vb).filter(pos).var(ddof=1).alias("__fe_s10"),
            (va - vb).filter(~pos).var(ddof=1).alias("__fe_s01"),
        ],
    )
    defined = (pl.col("n_pos") > 0) & (pl.col("n_neg") > 0)
    variance = pl.col("__fe_s10") / pl.col("n_pos") + pl.col("__fe_s01") / pl.col("n_neg")
    from scipy import special

    z = float(special.ndtri(1.0 - alpha / 2.0))
    out = out.with_columns(
        pl.when(defined).then(pl.col("roc_auc_a")).alias("roc_auc_a"),
        pl.when(defined).then(pl.col("roc_auc_b")).alias("roc_auc_b"),
        pl.when(defined).then(variance.sqrt()).alias("std_error"),
    ).with_columns((pl.col("roc_auc_a") - pl.col("roc_auc_b")).alias("difference"))
    diff, se = pl.col("difference"), pl.col("std_error")
    out = out.with_columns(
        (diff - z * se).alias("lower"),
        (diff + z * se).alias("upper"),
        pl.when(se > 0).then(diff / se).alias("statistic"),
        pl.lit(alpha).alias("alpha"),
        _learner_literal(a, schema, learner).alias("a"),
        _learner_literal(b, schema, learner).alias("b"),
    )
    out = scipy_step(out, _two_sided_z, ["statistic", "alpha"], ["p_value", "critical_value"])
    return DELONG_TEST.decide(out).with_columns(better_expr(diff > 0, diff < 0))


def delong_test(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    instance: str = "instance",
    by: Keys = None,
    pos_label: Any = None,
    alpha: float = 0.05,
) -> Any:
    """DeLong's test of two correlated AUCs: learners a and b scored the same instances.

    The difference of the two AUCs is asymptotically normal; its variance includes the
    covariance of the two learners' placement values over the shared instances, which is what
    makes the test paired (DeLong et al. 1988). Placements are computed with midranks in
    O(n log n) (Sun & Xu 2014).

    Parameters
    ----------
    data
        Long frame (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        learner × instance (× ``by`` group); rows of other learners are ignored.
    truth
        True label column; must be the same in the rows of one instance.
    score
        Score column, larger = more positive.
    a, b
        The two learners (values of ``learner``). Differences are a − b.
    learner, instance
        Columns naming the learner and the instance; every instance needs a row of both.
    by
        Key column(s): one test per group (e.g. ``"dataset"``).
    pos_label
        The positive class (default 1 / True; required for string labels).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_pos, n_neg, roc_auc_a, roc_auc_b, difference,
    std_error, lower, upper, statistic, p_value, critical_value, alpha, reject, better``, sorted
    by keys: ``difference`` = AUC_a − AUC_b; ``std_error`` = √Var(AUC_a − AUC_b); ``lower``,
    ``upper`` — the 1 − α normal interval of the difference; ``statistic`` = z = difference /
    std_error; ``p_value`` = 2 Φ(−|z|); ``critical_value`` = z_{1−α/2}; ``reject`` = |z| >
    z_{1−α/2}; ``better`` — the learner with the larger AUC when rejected, null otherwise.

    Notes
    -----
    Var(AUC_a − AUC_b) = S₁₀/n⁺ + S₀₁/n⁻ where S₁₀ is the sample variance over positives of
    V₁₀ᵃ − V₁₀ᵇ (= S₁₀ᵃᵃ + S₁₀ᵇᵇ − 2 S₁₀ᵃᵇ) and S₀₁ likewise over negatives. Unweighted.

    Undefined (null): everything but the counts for a group with one class; ``std_error``
    onwards when a class has a single instance; ``statistic``, ``p_value``, ``reject`` and
    ``better`` when the variance of the difference is 0 (e.g. identical rankings, or both AUCs
    0 or 1). Raises (inside the plan) on null / NaN / inf scores, a truth that differs between
    the rows of one instance, duplicate (learner, instance) rows, and instances scored by only
    one of the two learners.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), Biometrics 44(3). Sun & Xu (2014), IEEE Signal
    Processing Letters 21(11).

    See Also
    --------
    delong_ci : one AUC's variance and normal interval.
    bootstrap_ci : a resampled interval of any measure (per learner).

    Examples
    --------
    >>> df = pl.DataFrame({
    ...     "learner": ["A"] * 6 + ["B"] * 6, "instance": list(range(6)) * 2,
    ...     "y": [1, 1, 1, 0, 0, 0] * 2,
    ...     "s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.1, 0.9, 0.2, 0.7, 0.3, 0.8, 0.1]})
    >>> out = fe.delong_test(df, "y", "s", a="A", b="B")
    >>> out.select("roc_auc_a", "roc_auc_b", "reject").row(0)
    (1.0, 0.6666666666666666, False)
    """
    (learner,) = resolve_roles(data, "delong_test", [by, truth, score, instance], learner=learner)
    func = "delong_test"
    alpha = check_level(alpha, func, "alpha")
    lf, eager, keys, schema, is_pos, checks = _open_scores(
        data, func, truth, score, by, pos_label, learner=learner, instance=instance
    )
    DELONG_TEST.check(func, keys)
    check_learners(schema, func, learner, a, b)
    checks.not_null(instance, "instance")
    name = _learner_expr(learner, schema)
    is_a, is_b = name == pl.lit(a), name == pl.lit(b)
    mine = lf.filter(is_a | is_b)
    mine = check_unique(
        mine, [*keys, learner, instance], func, "one score per learner and instance"
    )
    rows = pl.len().alias("__fe_rows")
    checked = checks.enforce(agg_by_keys(mine, keys, [rows, *checks.aggs()]), keys)
    frame = mine.select(
        *keys,
        instance,
        score,
        label_expr(truth, schema).alias("__fe_truth"),
        is_pos.alias("__fe_pos"),
        is_a.alias("__fe_is_a"),
    )
    frame = _placements(frame, [*keys, "__fe_is_a"], score)
    v, from_a = pl.col("__fe_v"), pl.col("__fe_is_a")
    per_x = frame.group_by([*keys, instance]).agg(
        pl.col("__fe_pos").first(),
        pl.col("__fe_truth").n_unique().alias("__fe_truths"),
        v.filter(from_a).first().alias("__fe_a"),
        v.filter(~from_a).first().alias("__fe_b"),
        from_a.any().alias("__fe_has_a"),
        (~from_a).any().alias("__fe_has_b"),
    )
    per_x = tie_to_checks(per_x, checked, keys)
    where = pl.concat_str([pl.lit(f"{instance}="), _text(instance)])
    per_x = enforce(
        per_x,
        failure(
            pl.col("__fe_truths") > 1,
            InvalidValueError,
            f"{func}(): column {truth!r} (truth=) must be the same in the rows of one instance, "
            "got different values for {}{}.",
            where,
            group_text(keys),
        ),
    )
    per_x = both_present(
        per_x, keys, func, where, a, b, "instance", ~pl.col("__fe_has_a"), ~pl.col("__fe_has_b")
    )
    out = _test_statistics(per_x, keys, alpha, a, b, schema, learner)
    return finish(DELONG_TEST.out(out, keys), eager)
