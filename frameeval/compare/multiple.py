"""All pairwise comparisons of k learners by their ranks, with the corrections of García &
Herrera (2008): Holm's, Shaffer's static procedure and Bergmann–Hommel's exhaustive one.

The k(k − 1)/2 hypotheses "learners a and b perform the same" are logically related: if A = B
and B = C then A = C, so not every subset of them can be true at once. Holm's step-down
correction ignores this; Shaffer's uses the possible numbers of true hypotheses, and
Bergmann–Hommel's the possible sets of them, and both reject more at the same family-wise
error rate.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._frame import finish
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_alpha, check_parameter, enforce, failure, group_text
from frameeval.compare.omnibus import RANK_TESTS, RankTest, pair_statistics
from frameeval.compare.plan import check_choice, over_keys
from frameeval.compare.precision import RANK_DIGITS
from frameeval.compare.ranked import RankInput
from frameeval.compare.results import ADJUSTED_PAIRS
from frameeval.compare.scipy_step import scipy_step
from frameeval.exceptions import InvalidParameterError

__all__ = ["bergmann_hommel", "rank_post_hoc", "shaffer"]

#: Bergmann–Hommel's procedure enumerates every partition of the k learners (Bell(k) of them:
#: 21,147 for k = 9, 115,975 for k = 10); above this it is refused.
BERGMANN_HOMMEL_MAX_K = 9

Adjust = Literal["holm", "shaffer", "bergmann_hommel", "bonferroni"]


# ---------------------------------------------------------------------------------------------
# the combinatorics (constant tables, built once per process)
# ---------------------------------------------------------------------------------------------
@functools.cache
def shaffer_counts(k: int) -> tuple[int, ...]:
    """S(k): the possible numbers of true hypotheses among the k(k − 1)/2 pairwise ones.

    Shaffer (1986): S(k) = ∪_{j=1..k} {C(j, 2) + x : x ∈ S(k − j)}, S(0) = S(1) = {0} — the
    learners fall into groups of equal performance; a group of j learners makes C(j, 2) true
    hypotheses."""
    if k <= 1:
        return (0,)
    found: set[int] = set()
    for j in range(1, k + 1):  # loop-ok: combinatorics of k, not data
        found.update(j * (j - 1) // 2 + x for x in shaffer_counts(k - j))
    return tuple(sorted(found))


def shaffer_t(k: np.ndarray, step: np.ndarray) -> np.ndarray:
    """t_i = max{s ∈ S(k) : s ≤ m − i + 1}: the largest number of hypotheses that can be true
    when i − 1 have been rejected (i = ``step``, 1-based; m = k(k − 1)/2)."""
    out = np.full(k.shape, np.nan)
    ok = np.isfinite(k) & np.isfinite(step)
    for value in np.unique(k[ok]):  # loop-ok: one lookup table per distinct k
        counts = np.asarray(shaffer_counts(int(value)), dtype=float)
        rows = ok & (k == value)
        m = value * (value - 1.0) / 2.0
        limit = m - step[rows] + 1.0
        out[rows] = counts[np.searchsorted(counts, limit, side="right") - 1]
    return out


def _set_partitions(items: list[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for partition in _set_partitions(rest):  # loop-ok: combinatorics of k, not data
        out.append([[first], *partition])
        for i in range(len(partition)):
            out.append([*partition[:i], [first, *partition[i]], *partition[i + 1 :]])
    return out


@functools.cache
def exhaustive_sets(k: int) -> pl.DataFrame:
    """``n_learners, __set, __ia, __ib``: the exhaustive sets of pairwise hypotheses for k
    learners, one row per hypothesis (learner positions ia < ib) in each set.

    A set of hypotheses can be true together exactly when it is "all pairs within the groups"
    of a partition of the learners into groups of equal performance (García & Herrera 2008,
    §4.2); partitions into singletons give the empty set and are left out."""
    rows: list[tuple[int, int, int]] = []
    number = 0
    for partition in _set_partitions(list(range(k))):  # loop-ok: Bell(k) ≤ 21,147 partitions
        pairs = [p for group in partition for p in itertools.combinations(sorted(group), 2)]
        if pairs:
            rows.extend((number, i, j) for i, j in pairs)
            number += 1
    frame = pl.DataFrame(rows, schema=["__set", "__ia", "__ib"], orient="row")
    return frame.with_columns(
        pl.lit(k, dtype=pl.Int64).alias("n_learners"),
        pl.col("__set").cast(pl.Int64),
        pl.col("__ia").cast(pl.Int64),
        pl.col("__ib").cast(pl.Int64),
    ).select("n_learners", "__set", "__ia", "__ib")


def _all_exhaustive_sets() -> pl.DataFrame:
    return pl.concat([exhaustive_sets(k) for k in range(2, BERGMANN_HOMMEL_MAX_K + 1)])


# ---------------------------------------------------------------------------------------------
# the corrections, on *keys, a, b, n_learners, __ia, __ib, p_value
# ---------------------------------------------------------------------------------------------
def step_down(pairs: pl.LazyFrame, keys: list[str], factor: str) -> pl.LazyFrame:
    """p_adjusted = min(1, max_{j ≤ i} t_j p_(j)) along the p-values in increasing order, with
    t_j = ``factor`` (m − j + 1 for Holm, Shaffer's t_j): the one Holm / Shaffer step-down
    adjustment of the package (also :func:`frameeval.compare.compare_learners`' split-level
    pairs). ``pairs`` holds ``*keys, p_value`` (and ``n_learners`` for Shaffer), one row per
    hypothesis; m counts every row of the group."""
    step = pl.col("p_value").rank("ordinal")
    pairs = pairs.with_columns(over_keys(step, keys).cast(pl.Float64).alias("__step"))
    m = over_keys(pl.len(), keys).cast(pl.Float64)
    if factor == "holm":
        t = m - pl.col("__step") + 1.0
        pairs = pairs.with_columns(t.alias("__t"))
    else:
        pairs = scipy_step(
            pairs.with_columns(pl.col("n_learners").cast(pl.Float64).alias("__k")),
            lambda k, s: {"__t": shaffer_t(k, s)},
            ["__k", "__step"],
            ["__t"],
        )
    scaled = pl.min_horizontal(pl.col("__t") * pl.col("p_value"), pl.lit(1.0))
    ordered = pairs.sort([*keys, "__step"], nulls_last=True)
    return ordered.with_columns(over_keys(scaled.cum_max(), keys).alias("p_adjusted"))


def _bergmann_hommel(pairs: pl.LazyFrame, keys: list[str], func: str) -> pl.LazyFrame:
    """p_adjusted_i = min(1, max{|I| · min_{j∈I} p_j : I exhaustive, i ∈ I})."""
    pairs = enforce(
        pairs,
        failure(
            pl.col("n_learners") > BERGMANN_HOMMEL_MAX_K,
            InvalidParameterError,
            f"{func}(): Bergmann–Hommel's procedure needs at most {BERGMANN_HOMMEL_MAX_K} "
            "learners (it enumerates every partition of them), got {}{}. Hint: use shaffer().",
            pl.col("n_learners"),
            group_text(keys),
        ),
    )
    sets = _all_exhaustive_sets().lazy()
    member = pairs.select(*keys, "n_learners", "__ia", "__ib", "p_value").join(
        sets, on=["n_learners", "__ia", "__ib"], how="inner"
    )
    value = member.group_by(*keys, "__set").agg(
        (pl.len().cast(pl.Float64) * pl.col("p_value").min()).alias("__value")
    )
    best = (
        member.join(value, on=[*keys, "__set"], how="inner", nulls_equal=True)
        .group_by(*keys, "__ia", "__ib")
        .agg(pl.col("__value").max().alias("__best"))
    )
    out = pairs.join(best, on=[*keys, "__ia", "__ib"], how="left", nulls_equal=True)
    return out.with_columns(pl.min_horizontal("__best", pl.lit(1.0)).alias("p_adjusted"))


def _adjusted(
    data: IntoFrame,
    func: str,
    metric: str,
    test: str,
    adjust: str | None,
    control: Any,
    roles: tuple[str | None, str | None, Keys],
    higher_is_better: bool | None,
    alpha: float,
    digits: int | None = RANK_DIGITS,
) -> Any:
    """The rank post-hoc of ``test`` with the ``adjust`` correction; ``roles`` are ``block,
    learner, by`` as given (resolved here)."""
    block, learner, by = roles
    block, learner = resolve_roles(data, func, [by, metric], block=block, learner=learner)
    alpha = check_alpha(alpha, func)
    check_parameter(
        test in RANK_TESTS,
        func,
        f"test must be one of {', '.join(repr(t) for t in RANK_TESTS)}, got {test!r}.",
    )
    adjusts = ("holm", "shaffer", "bergmann_hommel", "bonferroni", None)
    check_choice(adjust, adjusts, func, "adjust")
    check_parameter(
        control is None or adjust not in ("shaffer", "bergmann_hommel"),
        func,
        f"adjust={adjust!r} corrects all pairwise comparisons and takes no control, got "
        f"control={control!r}.\nHint: adjust='holm' for comparisons with a control.",
    )
    given = RankInput(data, func, metric, block, learner, by, higher_is_better)
    pairs, eager, keys = pair_statistics(given, test, control, ADJUSTED_PAIRS.columns, digits)
    if adjust in ("holm", "shaffer"):
        out = step_down(pairs, keys, adjust)
    elif adjust == "bergmann_hommel":
        out = _bergmann_hommel(pairs, keys, func)
    elif adjust == "bonferroni":
        m = over_keys(pl.len(), keys).cast(pl.Float64)
        out = pairs.with_columns(
            pl.min_horizontal(m * pl.col("p_value"), pl.lit(1.0)).alias("p_adjusted")
        )
    else:
        out = pairs.with_columns(pl.col("p_value").alias("p_adjusted"))
    out = ADJUSTED_PAIRS.decide(out.with_columns(pl.lit(alpha).alias("alpha")))
    return finish(ADJUSTED_PAIRS.out(out, keys), eager)


# ---------------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------------
@frame_function
def rank_post_hoc(
    data: IntoFrame,
    metric: str,
    *,
    test: RankTest = "friedman",
    adjust: Adjust | None = "holm",
    control: Any = None,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """Post-hoc z tests of every pair of learners (or every learner against a control) after a
    rank omnibus test, with a family-wise correction.

    Each omnibus rank test gives every learner a score, and under "all learners perform the
    same" the difference of two scores divided by its standard error is approximately standard
    normal (García et al. 2010, §4):

    * ``"friedman"`` — average ranks r̄ⱼ, z = (r̄_a − r̄_b) / √(k(k + 1) / 6N) (Demšar 2006,
      §3.2.2);
    * ``"friedman_aligned_ranks"`` — average aligned ranks R̂ⱼ/N, z = (R̂_a − R̂_b) / √(2W/(k − 1))
      with W = Σ_ij (r_ij − r̄_i)² (the within-block spread of the aligned ranks, the
      denominator of the omnibus statistic);
    * ``"quade"`` — T_j = Σ_i Q_i r_ij / (N(N + 1)/2), z = (W_a − W_b) / √(2A/(k − 1)) with
      W_j = Σ_i Q_i r_ij and Quade's A = Σ_ij S_ij² (without ties, Var(T_a − T_b) =
      k(k + 1)(2N + 1) / (9N(N + 1)));
    * ``"skillings_mack"`` (missing cells allowed) — the weighted rank sums A_j of
      :func:`skillings_mack`, z = (A_a − A_b) / √(Σ_aa + Σ_bb − 2Σ_ab) with their covariance Σ
      (on a complete table this is the Friedman z).

    The two-sided p-values p = 2(1 − Φ(|z|)) are then corrected for the family of comparisons
    (each ``by`` group is one family). For aligned ranks and Quade the standard errors are the
    exact variances of the score differences over the within-block permutations that the
    omnibus test itself assumes; the closed forms printed by García et al. (2010) and used by
    scmamp (√(k(N + 1)/6), and k(k + 1)(2N + 1)(k − 1)/(18N(N + 1)) for Quade) do not give a
    standard normal z under the hypothesis except for Quade with k = 3 — see
    docs/many-learners.md.

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`frameeval.friedman` (missing cells only with ``test="skillings_mack"``).
    test
        The omnibus test whose scores are compared (see above).
    adjust
        ``"holm"`` (Holm's step-down; default), ``"shaffer"`` (:func:`shaffer`),
        ``"bergmann_hommel"`` (:func:`bergmann_hommel`), ``"bonferroni"`` (m·p) or None (the
        raw p-values).
    control
        A learner: compare every other learner with it only (k − 1 comparisons, ``b`` = the
        control; with ``adjust`` = ``"holm"``, ``"bonferroni"`` or None). Default: all pairs.
    alpha
        Family-wise significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with one row per comparison, sorted by keys, a, b: ``*by, a, b,
    average_rank_a, average_rank_b, statistic, p_value, p_adjusted, alpha, reject``: the
    learners (a < b in sort order, or b = the control); their scores (the average rank of
    ``test``: Friedman's, the aligned one, Quade's weighted one; for Skillings–Mack the mean
    within-block rank over the blocks where the learner has a value; 1 = best); ``statistic``
    = |z|; ``p_value`` = 2(1 − Φ(|z|)); ``p_adjusted`` = the corrected p-value (≤ 1);
    ``reject`` = p_adjusted < α.

    Notes
    -----
    Holm: p̃_(i) = max_{j≤i} min(1, (m − j + 1) p_(j)). Shaffer and Bergmann–Hommel: see
    :func:`shaffer` and :func:`bergmann_hommel`. A pair whose z is undefined (a Skillings–Mack
    pair never observed with any other learner) has null ``statistic`` and p-values.

    References
    ----------
    García & Herrera (2008), "An extension on 'Statistical comparisons of classifiers over
    multiple data sets' for all pairwise comparisons", JMLR 9. García, Fernández, Luengo &
    Herrera (2010), Information Sciences 180(10), §4. Demšar (2006), JMLR 7, §3.2.2.

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> out = fe.rank_post_hoc(df, "error_rate", test="quade")
    >>> out.select("a", "b", "average_rank_a", "average_rank_b").rows()
    [('A', 'B', 1.25, 2.0), ('A', 'C', 1.25, 2.75), ('B', 'C', 2.0, 2.75)]
    """
    roles = (block, learner, by)
    return _adjusted(
        data, "rank_post_hoc", metric, test, adjust, control, roles, higher_is_better, alpha, digits
    )


@frame_function
def shaffer(
    data: IntoFrame,
    metric: str,
    *,
    test: RankTest = "friedman",
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """All pairwise comparisons of the learners' average ranks with Shaffer's static
    correction (García & Herrera 2008).

    The m = k(k − 1)/2 pairwise z tests of :func:`rank_post_hoc` (by default on Friedman's
    average ranks, z = (r̄_a − r̄_b)/√(k(k + 1)/6N)) are ordered by p-value, p_(1) ≤ … ≤ p_(m).
    Holm multiplies p_(i) by m − i + 1, the number of hypotheses still possibly true; but the
    pairwise hypotheses are logically related, and once i − 1 are rejected at most

        t_i = max{ s ∈ S(k) : s ≤ m − i + 1 }

    can be true, where S(k) is the set of possible numbers of true hypotheses (Shaffer 1986):

        S(k) = ∪_{j=1..k} { C(j, 2) + x : x ∈ S(k − j) },    S(0) = S(1) = {0}

    (the learners fall into groups of equal performance; a group of j makes C(j, 2) true
    hypotheses). The adjusted p-value is p̃_(i) = min(1, max_{j≤i} t_j p_(j)); since
    t_i ≤ m − i + 1, Shaffer rejects everything Holm rejects, and often more.

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`frameeval.friedman`; any number of learners.
    test
        Whose rank scores are compared: ``"friedman"`` (default), ``"friedman_aligned_ranks"``,
        ``"quade"`` or ``"skillings_mack"`` (see :func:`rank_post_hoc`).
    alpha
        Family-wise significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data``, one row per pair sorted by keys, a, b: ``*by, a, b,
    average_rank_a, average_rank_b, statistic, p_value, p_adjusted, alpha, reject`` (as in
    :func:`rank_post_hoc`; ``p_adjusted`` is Shaffer's, ``reject`` = p_adjusted < α).

    References
    ----------
    Shaffer (1986), "Modified sequentially rejective multiple test procedures", JASA 81(395).
    García & Herrera (2008), "An extension on 'Statistical comparisons of classifiers over
    multiple data sets' for all pairwise comparisons", JMLR 9, §4.1.

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> out = fe.shaffer(df, "error_rate")
    >>> out.select("a", "b", pl.col("p_adjusted").round(4), "reject").rows()
    [('A', 'B', 0.2888, False), ('A', 'C', 0.1017, False), ('B', 'C', 0.2888, False)]
    """
    roles = (block, learner, by)
    return _adjusted(
        data, "shaffer", metric, test, "shaffer", None, roles, higher_is_better, alpha, digits
    )


@frame_function
def bergmann_hommel(
    data: IntoFrame,
    metric: str,
    *,
    test: RankTest = "friedman",
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """All pairwise comparisons of the learners' average ranks with Bergmann and Hommel's
    exhaustive correction (García & Herrera 2008), for at most 9 learners.

    A set I of pairwise hypotheses is *exhaustive* when all of them can be true at once: the
    learners split into groups of equal performance and I is every pair inside a group. With the
    z tests of :func:`rank_post_hoc` (Friedman's average ranks by default), hypothesis i is
    rejected when every exhaustive set containing it has min_{j∈I} p_j ≤ α/|I|; the adjusted
    p-value is

        p̃_i = min(1, max{ |I| · min_{j∈I} p_j : I exhaustive, i ∈ I })

    It is the most powerful of the procedures García & Herrera compare (it rejects at least
    what Shaffer's does), at the cost of visiting all Bell(k) partitions of the learners.

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`frameeval.friedman`; at most 9 learners per group.
    test
        Whose rank scores are compared (see :func:`rank_post_hoc`).
    alpha
        Family-wise significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data``, one row per pair sorted by keys, a, b: ``*by, a, b,
    average_rank_a, average_rank_b, statistic, p_value, p_adjusted, alpha, reject`` (as in
    :func:`rank_post_hoc`; ``p_adjusted`` is Bergmann–Hommel's).

    Notes
    -----
    A group with more than 9 learners raises ``InvalidParameterError`` (Bell(10) = 115,975
    partitions; García & Herrera also stop at 9): use :func:`shaffer` there. The partitions
    are enumerated once per process and joined with the p-values inside the lazy plan.

    References
    ----------
    Bergmann & Hommel (1988), "Improvements of general multiple test procedures for redundant
    systems of hypotheses", in *Multiple Hypotheses Testing*, Springer. García & Herrera
    (2008), JMLR 9, §4.2.

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> out = fe.bergmann_hommel(df, "error_rate")
    >>> out.select("a", "b", pl.col("p_adjusted").round(4), "reject").rows()
    [('A', 'B', 0.2888, False), ('A', 'C', 0.1017, False), ('B', 'C', 0.2888, False)]
    """
    roles, func = (block, learner, by), "bergmann_hommel"
    return _adjusted(data, func, metric, test, func, None, roles, higher_is_better, alpha, digits)
