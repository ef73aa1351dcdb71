"""Two learners compared on metric values: paired t tests on one data set (chapter 2.4.2) and the
Wilcoxon signed-rank test over data sets (Demšar 2006, §3.1.3).

Differences are always a − b. The tests on raw predictions (McNemar, chapter 2.4.3) are in
:mod:`frameeval.compare.mcnemar`.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import polars as pl
from scipy import stats

from frameeval._deprecation import renamed_argument
from frameeval._frame import finish
from frameeval._params import A_BOOL
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_alpha, check_parameter, enforce, failure, group_text
from frameeval.compare._pairs import present
from frameeval.compare.cells import PAIR_MISSING_HINT, Long, cells, paired
from frameeval.compare.door import check_learner_value, is_learner, open_frame, resolve_direction
from frameeval.compare.effect_size import attach_effects, effect_aggs, effect_columns
from frameeval.compare.one_learner import ratio, t_decision
from frameeval.compare.plan import at_least, block_pairs, check_choice, per_group
from frameeval.compare.precision import RANK_DIGITS, check_digits, rounded_difference
from frameeval.compare.results import CV5X2_T, PAIRED_T, WILCOXON
from frameeval.compare.scipy_step import better_expr, literal, mean_better, mean_std, scipy_step
from frameeval.exceptions import InsufficientDataError, InvalidValueError

__all__ = ["cv5x2_t_test", "paired_t_test", "wilcoxon"]


@frame_function
def paired_t_test(
    data: IntoFrame,
    metric: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    block: str = "fold",
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    pair: str | None = None,
) -> Frame:
    """Paired t test of two learners over k paired metric values, e.g. k-fold CV (chapter 2.4.2).

    Learners A and B evaluated on the same k splits give k differences Δᵢ = εᵢᴬ − εᵢᴮ; under
    the hypothesis "A and B perform the same" their mean is 0, and τ_t follows a t distribution
    with k − 1 degrees of freedom.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one row per learner × split (× ``by`` group). Rows of other learners are ignored.
    metric
        Column with the metric values (error rate, accuracy…).
    a, b
        The two learners (values of the ``learner`` column). Differences are a − b.
    learner
        Column naming the learner.
    block
        Column identifying the split both learners were evaluated on (the same i-th training /
        test split for A and B, as the book insists): the block that pairs the two values, as
        in :func:`wilcoxon` and :func:`friedman`.
    by
        Key column(s): one test per group (e.g. ``"dataset"``).
    higher_is_better
        Direction of ``metric``, used for ``better``. Default: the direction of the registered
        measure of the same name (``"error_rate"``, ``"accuracy"``…); required otherwise.
    alpha
        Significance level α in (0, 1).
    pair
        Deprecated name of ``block=`` (a ``DeprecationWarning``; removed in the next release).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_pairs, mean, std, statistic, df, p_value,
    critical_value, alpha, reject, better, mean_difference, cohen_d, cliff_delta``, sorted by
    keys: ``a``, ``b`` — the learners;
    ``n_pairs`` = k (Int64); ``mean`` = μ and ``std`` = σ of the differences a − b (σ divides
    by k − 1); ``statistic`` = √k μ / σ (signed; the book's τ_t is its absolute value);
    ``df`` = k − 1; ``p_value`` = 2 P(T > |τ_t|); ``critical_value`` = t_{α/2, k−1};
    ``reject`` = |τ_t| > t_{α/2, k−1}; ``better`` — the learner with the better mean when the
    hypothesis is rejected, null otherwise; the effect sizes of the k pairs (as
    :func:`effect_size`): ``mean_difference`` = μ, ``cohen_d`` = d_z = μ/σ (the paired t
    test's effect size; ±inf or null like the statistic), ``cliff_delta`` = Cliff's δ.

    Notes
    -----
    Chapter 2.4.2 (the statistic below eq 2.31's setting). When all differences are equal,
    σ = 0 and the statistic is ±inf, or null when they are all 0 (``p_value``, ``reject`` and
    ``better`` null too). Every split must have a value for both learners
    (``InsufficientDataError`` listing the gaps) and k ≥ 2. The k-fold estimates overlap in
    their training sets, so they are not independent and the test rejects too often; the
    5×2cv test (:func:`cv5x2_t_test`) was designed to reduce this.

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.2. Dietterich (1998), "Approximate statistical tests
    for comparing supervised classification learning algorithms", Neural Computation 10(7).

    Examples
    --------
    >>> df = pl.DataFrame({"learner": ["A"] * 3 + ["B"] * 3, "fold": [1, 2, 3] * 2,
    ...                    "error_rate": [0.10, 0.12, 0.11, 0.20, 0.25, 0.21]})
    >>> out = fe.paired_t_test(df, "error_rate", a="A", b="B")
    >>> out.select("n_pairs", "mean", "df", "better").row(0)
    (3, -0.11, 2, 'A')
    """
    func = "paired_t_test"
    block = renamed_argument(func, "pair", "block", pair, block)
    (learner,) = resolve_roles(data, func, [by, metric, block], learner=learner)
    alpha = check_alpha(alpha, func)
    lf, eager, keys, schema = open_frame(data, func, by)
    PAIRED_T.check(func, keys)
    hib = resolve_direction(func, metric, higher_is_better)
    piv = paired(lf, schema, func, keys, {"block": block}, learner, metric, a, b)
    mean, std = mean_std(pl.col("__a") - pl.col("__b"))
    aggs = [
        pl.len().cast(pl.Int64).alias("n_pairs"),
        mean.alias("mean"),
        std.alias("std"),
        *effect_aggs("__a", "__b"),
    ]
    what = f"values of {block!r} with both learners"
    out = enforce(per_group(piv, keys, aggs, "n_pairs"), at_least("n_pairs", 2, func, what, keys))
    n = pl.col("n_pairs").cast(pl.Float64)
    out = out.with_columns(
        literal(a, schema, learner).alias("a"),
        literal(b, schema, learner).alias("b"),
        ratio(n.sqrt() * pl.col("mean"), pl.col("std")).alias("statistic"),
        (pl.col("n_pairs") - 1).alias("df"),
        pl.lit(alpha).alias("alpha"),
    )
    out = t_decision(out).with_columns(mean_better(hib), *effect_columns())
    return finish(PAIRED_T.out(out, keys), eager)


@frame_function
def cv5x2_t_test(
    data: IntoFrame,
    metric: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    repeat: str | None = None,
    fold: str | None = None,
    variant: Literal["textbook", "dietterich"] = "textbook",
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
) -> Frame:
    """5×2 cross-validated paired t test (chapter 2.4.2; Dietterich 1998).

    Five repeats of 2-fold cross-validation, each on a new random split; in repeat i the two
    folds give the differences Δᵢ¹, Δᵢ² (a − b). Every repeat contributes its variance
    σᵢ² = (Δᵢ¹ − Δ̄ᵢ)² + (Δᵢ² − Δ̄ᵢ)², but only the first repeat contributes to the mean μ, which
    keeps numerator and denominator nearly independent. τ_t = μ / √(0.2 Σᵢ σᵢ²) then follows a
    t distribution with 5 degrees of freedom.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one row per learner × repeat × fold (× ``by`` group); rows of other learners are ignored.
    metric
        Column with the metric values.
    a, b
        The two learners (values of ``learner``); differences are a − b.
    learner, repeat, fold
        Columns naming the learner, the repeat (5 values) and the fold within it (2 values).
    variant
        How μ is taken from the first repeat (the one with the smallest ``repeat`` value):
        ``"textbook"`` (default, the book's μ = 0.5 (Δ₁¹ + Δ₁²), the mean of both folds) or
        ``"dietterich"`` (Dietterich's μ = Δ₁¹, the difference on the fold with the smallest
        ``fold`` value; this is what mlxtend's ``paired_ttest_5x2cv`` computes).
    by, higher_is_better, alpha
        As in :func:`frameeval.paired_t_test`: one test per group; the direction of ``metric``
        for ``better`` (default: from the measure registry by name); the level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, mean, std, statistic, df, p_value, critical_value,
    alpha, reject, better, mean_difference, cohen_d, cliff_delta``, sorted by keys: ``mean`` =
    μ (per ``variant``); ``std`` =
    √(0.2 Σᵢ σᵢ²); ``statistic`` = τ_t = μ / std (signed); ``df`` = 5; ``p_value`` =
    2 P(T₅ > |τ_t|); ``critical_value`` = t_{α/2, 5} (2.5706 at α = 0.05, 2.0150 at α = 0.1);
    ``reject`` = |τ_t| > t_{α/2, 5}; ``better`` — the better learner when rejected (by the sign
    of μ), else null; the effect sizes of all 10 paired values (as :func:`effect_size`):
    ``mean_difference`` — their mean difference (not μ, which uses the first repeat only),
    ``cohen_d`` — d_z over the 10 differences, ``cliff_delta`` — Cliff's δ.

    Notes
    -----
    Each group needs exactly 5 repeats × 2 folds with a value of both learners
    (``InvalidValueError`` / ``InsufficientDataError`` otherwise). With Σσᵢ² = 0 the statistic
    is ±inf, or null when μ = 0. The textbook variant is the book's formula; its μ averages two
    dependent differences, so its null distribution is not exactly Dietterich's t₅ — pass
    ``variant="dietterich"`` for the original test.

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.2. Dietterich (1998), "Approximate statistical tests
    for comparing supervised classification learning algorithms", Neural Computation 10(7).
    Alpaydın (1999), "Combined 5×2 cv F test for comparing supervised classification learning
    algorithms", Neural Computation 11(8).

    Examples
    --------
    >>> rows = [(l, r, f) for l in "AB" for r in range(1, 6) for f in (1, 2)]
    >>> df = pl.DataFrame(rows, schema=["learner", "repeat", "fold"], orient="row")
    >>> df = df.with_columns(error_rate=pl.when(pl.col("learner") == "A")
    ...     .then(0.10 + 0.01 * pl.col("fold")).otherwise(0.15 + 0.005 * pl.col("repeat")))
    >>> fe.cv5x2_t_test(df, "error_rate", a="A", b="B").select("df", "better").row(0)
    (5, 'A')
    """
    learner, repeat, fold = resolve_roles(
        data, "cv5x2_t_test", [by, metric], learner=learner, repeat=repeat, fold=fold
    )
    func = "cv5x2_t_test"
    alpha = check_alpha(alpha, func)
    check_choice(variant, ("textbook", "dietterich"), func, "variant")
    lf, eager, keys, schema = open_frame(data, func, by)
    CV5X2_T.check(func, keys)
    hib = resolve_direction(func, metric, higher_is_better)
    roles = {"repeat": repeat, "fold": fold}
    piv = paired(lf, schema, func, keys, roles, learner, metric, a, b)
    d = pl.col("__a") - pl.col("__b")
    per_repeat = piv.group_by(*keys, repeat).agg(
        pl.len().cast(pl.Int64).alias("__folds"),
        d.sort_by(pl.col(fold)).first().alias("__first"),
        d.mean().alias("__mean"),
        ((d - d.mean()) ** 2).sum().alias("__s2"),
    )
    first = "__first" if variant == "dietterich" else "__mean"
    aggs = [
        pl.len().cast(pl.Int64).alias("__repeats"),
        pl.col("__folds").min().alias("__min_folds"),
        pl.col("__folds").max().alias("__max_folds"),
        pl.col(first).sort_by(pl.col(repeat)).first().alias("mean"),
        (0.2 * pl.col("__s2").sum()).sqrt().alias("std"),
    ]
    out = enforce(
        per_group(per_repeat, keys, aggs, "__repeats"),
        failure(
            (pl.col("__repeats") != 5)
            | (pl.col("__min_folds") != 2)
            | (pl.col("__max_folds") != 2),
            InvalidValueError,
            f"{func}(): needs 5 repeats ({repeat!r}) of 2 folds ({fold!r}) with both learners, "
            "got {} repeats with {} to {} folds{}.",
            pl.col("__repeats"),
            pl.col("__min_folds"),
            pl.col("__max_folds"),
            group_text(keys),
        ),
    )
    out = out.with_columns(
        literal(a, schema, learner).alias("a"),
        literal(b, schema, learner).alias("b"),
        ratio(pl.col("mean"), pl.col("std")).alias("statistic"),
        pl.lit(5, dtype=pl.Int64).alias("df"),
        pl.lit(alpha).alias("alpha"),
    )
    out = t_decision(out).with_columns(mean_better(hib))
    out = attach_effects(out, piv, keys, "__a", "__b")
    return finish(CV5X2_T.out(out, keys), eager)


# ---------------------------------------------------------------------------------------------
# Wilcoxon signed-rank test
# ---------------------------------------------------------------------------------------------
def signed_rank_cdf(n: np.ndarray, t: np.ndarray) -> np.ndarray:
    """P(T⁺ ≤ t) under the null for n untied, non-zero differences (exact, vectorised).

    The distribution of the sum of a random subset of {1, …, n} is built once by the usual
    recursion up to the largest n needed (a loop over 1…n, not over groups).
    """
    n = np.asarray(n, dtype=float)
    t = np.asarray(t, dtype=float)
    out = np.full(n.shape, np.nan)
    ok = np.isfinite(n) & np.isfinite(t)
    if not ok.any():
        return out
    wanted = {int(v) for v in n[ok]}
    cdfs: dict[int, np.ndarray] = {}
    pmf = np.array([1.0])
    if 0 in wanted:
        cdfs[0] = np.array([1.0])
    for i in range(1, max(wanted) + 1):
        grown = np.zeros(pmf.size + i)
        grown[: pmf.size] += pmf
        grown[i:] += pmf
        pmf = grown / 2.0
        if i in wanted:
            cdfs[i] = np.minimum(np.cumsum(pmf), 1.0)
    for size, cdf in cdfs.items():
        rows = ok & (n == size)
        k = t[rows]
        index = np.clip(k, 0, cdf.size - 1).astype(np.int64)
        out[rows] = np.where(k < 0, 0.0, np.where(k >= cdf.size - 1, 1.0, cdf[index]))
    return out


def signed_rank_critical(n: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """The largest integer t with 2 P(T ≤ t) < α (exact), NaN when no t qualifies."""
    n = np.asarray(n, dtype=float)
    out = np.full(n.shape, np.nan)
    for size in {int(v) for v in n[np.isfinite(n)]}:
        rows = n == size
        grid = np.arange(size * (size + 1) // 2 + 1, dtype=float)
        cdf = signed_rank_cdf(np.full(grid.shape, size), grid)
        below = (2.0 * cdf[None, :] < np.asarray(alpha, dtype=float)[rows][:, None]).sum(axis=1)
        out[rows] = np.where(below > 0, below - 1.0, np.nan)
    return out


def _wilcoxon_scipy(count, r_plus, mn, se, use_exact, correction, alpha) -> dict[str, np.ndarray]:
    z = (r_plus - mn) / se
    z_c = z - correction * np.sign(z) * 0.5 / se
    p_approx = np.minimum(2.0 * stats.norm.sf(np.abs(z_c)), 1.0)
    crit_approx = mn - stats.norm.isf(alpha / 2.0) * se - correction * 0.5
    exact = use_exact == 1.0
    cdf = signed_rank_cdf(np.where(exact, count, np.nan), np.ceil(r_plus))
    sf = 1.0 - signed_rank_cdf(np.where(exact, count, np.nan), np.floor(r_plus) - 1.0)
    p_exact = np.where(count > 0, np.clip(2.0 * np.minimum(sf, cdf), 0.0, 1.0), np.nan)
    crit_exact = signed_rank_critical(np.where(exact, count, np.nan), alpha)
    return {
        "z": -np.abs(z_c),
        "p_value": np.where(exact, p_exact, p_approx),
        "critical_value": np.where(exact, crit_exact, crit_approx),
    }


def _check_wilcoxon_options(
    func: str, zero_method: Any, method: Any, correction: Any, adjust: Any
) -> None:
    check_choice(zero_method, ("zsplit", "wilcox", "pratt"), func, "zero_method")
    check_choice(method, ("auto", "exact", "approx"), func, "method")
    A_BOOL(func, "correction", correction)
    check_choice(adjust, (None, "holm"), func, "adjust")


def _two_or_control(
    lf: pl.LazyFrame, schema: pl.Schema, func: str, learner: str, a: Any, b: Any
) -> pl.LazyFrame:
    """Check ``a=`` / ``b=`` and keep the rows of the pair when both are given."""
    check_parameter(
        a is None or b is not None,
        func,
        f"a= needs b= (a pair), got a={a!r} and b=None.\nHint: pass only b= to compare every "
        "learner with the control b.",
    )
    if b is not None:
        check_learner_value(schema, func, learner, b, "b")
    if a is not None:
        check_learner_value(schema, func, learner, a, "a")
        check_parameter(a != b, func, f"a= and b= must be different learners, got {a!r} for both.")
        lf = lf.filter(is_learner(learner, schema, a) | is_learner(learner, schema, b))
    return lf


def _present_cells(long: Long, a: Any, b: Any) -> pl.LazyFrame:
    """The (block, learner) cells of the groups where the compared learners have values and
    there are at least two learners and two blocks (else a typed error naming the group)."""
    _, _, func, keys, block, learner, _ = long
    cell = cells(long, hint=PAIR_MISSING_HINT)
    who = (
        f"learners a={a!r} and b={b!r} must both" if a is not None else f"the control b={b!r} must"
    )
    has = failure(
        ~(pl.col("__has_a") & pl.col("__has_b")),
        InsufficientDataError,
        f"{func}(): {who} have values, got none{{}}.",
        group_text(keys),
    )
    blocks = at_least("__blocks", 2, func, f"blocks ({block!r})", keys)
    return present(cell, func, keys, block, learner, a, b, has, blocks)


def _signed_rank_sums(
    pairs: pl.LazyFrame,
    keys: list[str],
    digits: int | None,
    zero_method: str,
    method: str,
    correction: bool,
    alpha: float,
) -> pl.LazyFrame:
    """Per comparison: N, the zeros, R⁺ and R⁻ of the ranked (rounded) differences, the effect
    sizes, and what the p-value step needs (the mean and standard error of R⁺ under the
    hypothesis, the count ranked, whether the exact distribution is used)."""
    comparison = [*keys, "a", "b"]
    # ranks, zeros and signs come from the rounded differences (effect sizes read __va, __vb)
    d = rounded_difference(pl.col("__va"), pl.col("__vb"), digits)
    ranked = d != 0 if zero_method == "wilcox" else pl.lit(True)
    magnitude = pl.when(ranked).then(d.abs())
    pairs = pairs.with_columns(d.alias("__d"), magnitude.alias("__abs")).with_columns(
        pl.col("__abs").rank("average").over(comparison).alias("__rank"),
        pl.len().over([*comparison, "__abs"]).cast(pl.Float64).alias("__tie"),
    )
    rank, dd = pl.col("__rank"), pl.col("__d")
    tie_rows = pl.col("__abs").is_not_null()
    if zero_method == "pratt":
        tie_rows = tie_rows & (dd != 0)
    zero_ranks = rank.filter(dd == 0).sum()
    half = zero_ranks / 2.0 if zero_method == "zsplit" else pl.lit(0.0)
    stats_ = (
        pairs.group_by(comparison)
        .agg(
            pl.len().cast(pl.Int64).alias("n_blocks"),
            (dd == 0).sum().cast(pl.Int64).alias("n_zero"),
            (rank.filter(dd > 0).sum() + half).alias("r_plus"),
            (rank.filter(dd < 0).sum() + half).alias("r_minus"),
            rank.count().cast(pl.Float64).alias("__count"),
            (pl.col("__tie").filter(tie_rows) ** 2 - 1.0).sum().alias("__ties"),
            *effect_aggs(),
        )
        .with_columns(effect_columns())
    )
    count = pl.col("__count")
    n = pl.col("n_blocks").cast(pl.Float64)
    n0 = pl.col("n_zero").cast(pl.Float64)
    if zero_method == "pratt":
        mn = n * (n + 1) / 4 - n0 * (n0 + 1) / 4
        var = n * (n + 1) * (2 * n + 1) - n0 * (n0 + 1) * (2 * n0 + 1)
        count = n
    else:
        mn = count * (count + 1) / 4
        var = count * (count + 1) * (2 * count + 1)
    se = ((var - pl.col("__ties") / 2.0) / 24.0).sqrt()
    if method == "exact":
        use_exact = pl.lit(True)
    elif method == "approx":
        use_exact = pl.lit(False)
    else:
        use_exact = (count <= 50) & (pl.col("n_zero") == 0) & (pl.col("__ties") == 0)
    stats_ = stats_.with_columns(
        pl.min_horizontal("r_plus", "r_minus").alias("statistic"),
        mn.alias("__mn"),
        pl.when(se > 0).then(se).alias("__se"),
        count.alias("__count"),
        use_exact.alias("exact"),
        pl.lit(float(correction)).alias("__correction"),
        pl.lit(alpha).alias("alpha"),
    ).with_columns(pl.col("exact").cast(pl.Float64).alias("__exact"))
    return stats_


@frame_function
def wilcoxon(
    data: IntoFrame,
    metric: str,
    *,
    a: Any = None,
    b: Any = None,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    zero_method: Literal["zsplit", "wilcox", "pratt"] = "zsplit",
    method: Literal["auto", "exact", "approx"] = "auto",
    correction: bool = False,
    adjust: Literal["holm"] | None = None,
    alpha: float = 0.05,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """Wilcoxon signed-rank test of two learners over N data sets (Demšar 2006, §3.1.3).

    The differences dᵢ = aᵢ − bᵢ on the N blocks (data sets) are ranked by |dᵢ| (ties get the
    mean rank); R⁺ sums the ranks of positive differences and R⁻ those of negative ones. Under
    the hypothesis "a and b perform the same", T = min(R⁺, R⁻) is not unusually small. The test
    uses the ranks of the differences, not their sizes, so it suits metric values that are not
    commensurable across data sets; it is the test Demšar recommends for two learners over many
    data sets.

    Parameters
    ----------
    data, metric
        As in :func:`frameeval.rank_table`: one row per block × learner (× ``by`` group).
    a, b
        Which comparisons: both given — that pair (differences a − b); only ``b`` — every other
        learner against the control ``b``; neither — every pair of learners (a < b in sort
        order).
    block, learner
        Columns naming the block (data set) and the learner. Every compared learner needs a
        value on every block of its group.
    by
        Key column(s): one set of comparisons per group.
    higher_is_better
        Direction of ``metric`` for ``better`` (default: from the measure registry by name).
    zero_method
        Zero differences: ``"zsplit"`` (default; Demšar: their ranks are split evenly between
        R⁺ and R⁻), ``"wilcox"`` (dropped before ranking), ``"pratt"`` (ranked, then dropped) —
        the names and formulas of ``scipy.stats.wilcoxon``.
    method
        p-value from the ``"exact"`` null distribution of T, the normal ``"approx"``-imation
        (with the tie correction of the variance), or ``"auto"``: exact when the number of
        ranked differences is ≤ 50 and there are no ties and no zeros, else the approximation.
        (scipy's ``"auto"`` would run a permutation test for small samples with ties or zeros;
        this one uses the normal approximation there.)
    correction
        Continuity correction of the normal approximation (0.5 towards the mean).
    adjust
        ``"holm"``: apply :func:`holm` to the comparisons of each group (``p_adjusted`` is added
        and ``reject`` uses it).
    alpha
        Significance level α in (0, 1).
    digits
        Significant digits of the differences that are ranked (default 12): each value is
        rounded to ``digits`` significant digits and so is the difference, at the scale of
        the two values, so that differences equal in decimal arithmetic tie (0.63 − 0.62 and
        0.68 − 0.67) and a difference of equal values is a zero (docs/compare.md, "Ties").
        ``None`` ranks the floating-point differences as they are, as scipy does.

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_blocks, n_zero, r_plus, r_minus, statistic, z,
    exact, p_value, critical_value, alpha, reject, better, mean_difference, cohen_d,
    cliff_delta, rank_biserial`` (with ``adjust``, ``p_adjusted`` follows ``p_value``), one
    row per comparison, sorted by keys, a, b:

    * ``n_blocks`` — N; ``n_zero`` — blocks with d = 0 (Int64);
    * ``r_plus``, ``r_minus`` — R⁺ and R⁻ (with ``"zsplit"`` each includes half the zero ranks);
    * ``statistic`` — T = min(R⁺, R⁻); ``z`` — its normal-approximation z (≤ 0, with the
      continuity correction if requested); ``exact`` — whether ``p_value`` comes from the
      exact distribution;
    * ``p_value`` — two-sided; ``critical_value`` — the largest T that rejects at α (exact: an
      integer, null when no T can reject, e.g. N ≤ 5 at α = 0.05; approximation: the boundary
      μ_T − z_{α/2} σ_T); ``reject`` — p_value < α; ``better`` — a if R⁺ > R⁻ (b otherwise) for
      a higher-is-better metric, the reverse for lower-is-better, only when rejected;
    * the effect sizes of the N pairs (as :func:`effect_size`; all blocks, zeros included):
      ``mean_difference`` (a − b), ``cohen_d`` (d_z), ``cliff_delta`` (Cliff's δ of the two
      samples of values, pairing ignored); and ``rank_biserial`` — the matched-pairs
      rank-biserial correlation r = (R⁺ − R⁻)/(R⁺ + R⁻) in [−1, 1] (Kerby 2014), the paired
      rank effect size of this test (null when R⁺ + R⁻ = 0).

    Notes
    -----
    When every difference is zero the test is undefined under ``"wilcox"`` (nothing is left to
    rank) and ``"pratt"`` (σ = 0): ``z``, ``p_value``, ``reject`` and ``better`` are null.
    Normal approximation: z = (R⁺ − n(n+1)/4) / σ with σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over
    tie groups (scipy's formulas for each zero method). Differences are ranked rounded
    to ``digits`` significant digits: 0.768 − 0.763 and 0.936 − 0.931 tie, as they do in decimal
    arithmetic (scipy ranks their floating-point forms apart). With ``method="exact"`` and
    ties or zeros, R⁺ is rounded conservatively (as scipy does). Each group needs at least two
    learners and two blocks (``InsufficientDataError``).

    References
    ----------
    Wilcoxon (1945), "Individual comparisons by ranking methods", Biometrics Bulletin 1(6).
    Demšar (2006), "Statistical comparisons of classifiers over multiple data sets", JMLR 7,
    §3.1.3. Not in the book's chapter 2; the study notes point to it for pairwise comparisons.

    See Also
    --------
    holm : step-down correction for many comparisons.
    friedman : all learners at once.

    Examples
    --------
    >>> df = fe.datasets.paired_accuracies()
    >>> fe.wilcoxon(df, "accuracy", a="A", b="B").select(
    ...     "statistic", "exact", "p_value", "better").row(0)
    (0.0, True, 0.03125, 'A')
    """
    block, learner = resolve_roles(data, "wilcoxon", [by, metric], block=block, learner=learner)
    func = "wilcoxon"
    alpha = check_alpha(alpha, func)
    digits = check_digits(digits, func)
    _check_wilcoxon_options(func, zero_method, method, correction, adjust)
    lf, eager, keys, schema = open_frame(data, func, by)
    adjusted = WILCOXON.with_column("p_adjusted", after="p_value")
    adjusted.check(func, keys, block=block)
    hib = resolve_direction(func, metric, higher_is_better)
    lf = _two_or_control(lf, schema, func, learner, a, b)
    cell = _present_cells(Long(lf, schema, func, keys, block, learner, metric), a, b)
    pairs = block_pairs(cell, keys, block, {learner: ("a", "b"), "__value": ("__va", "__vb")})
    if a is not None:
        pairs = pairs.filter((pl.col("a") == pl.lit(a)) & (pl.col("b") == pl.lit(b)))
    elif b is not None:
        pairs = pairs.filter((pl.col("b") == pl.lit(b)) & (pl.col("a") != pl.lit(b)))
    else:
        pairs = pairs.filter(pl.col("a") < pl.col("b"))
    stats_ = _signed_rank_sums(pairs, keys, digits, zero_method, method, correction, alpha)
    out = scipy_step(
        stats_,
        _wilcoxon_scipy,
        ["__count", "r_plus", "__mn", "__se", "__exact", "__correction", "alpha"],
        ["z", "p_value", "critical_value"],
    )
    out = WILCOXON.decide(out)
    if adjust == "holm":
        from frameeval.compare.post_hoc import holm

        out = holm(out, by=keys or None, alpha=alpha)
    a_ahead = pl.col("r_plus") > pl.col("r_minus")
    b_ahead = pl.col("r_plus") < pl.col("r_minus")
    out = out.with_columns(better_expr(a_ahead, b_ahead) if hib else better_expr(b_ahead, a_ahead))
    out = out.with_columns(
        ratio(pl.col("r_plus") - pl.col("r_minus"), pl.col("r_plus") + pl.col("r_minus")).alias(
            "rank_biserial"
        )
    )
    return finish((adjusted if adjust else WILCOXON).out(out, keys), eager)
