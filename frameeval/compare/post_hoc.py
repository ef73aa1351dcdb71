"""Post-hoc tests after a Friedman rejection (chapter 2.4.4, eq 2.36; Demšar 2006, §3.2.2) and
Holm's step-down correction for families of tests.

* :func:`nemenyi` — every pair of learners: two learners differ when their average ranks differ
  by more than the critical difference CD = q_α √(k(k + 1) / 6N) (eq 2.36, figure 2.8);
* :func:`bonferroni_dunn` — every learner against one control learner (a smaller CD);
* :func:`nemenyi_q`, :func:`bonferroni_dunn_q` — their q_α (Table 2.7, Demšar's Table 5);
* :func:`holm` — adjusted p-values for many pairwise tests (e.g. :func:`wilcoxon`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import Column, Inputs, check_clash
from frameeval._params import Number
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_alpha, enforce, failure
from frameeval.compare.door import check_learner_value
from frameeval.compare.plan import join_on_keys, per_group
from frameeval.compare.precision import RANK_DIGITS
from frameeval.compare.ranked import (
    RankInput,
    check_design,
    control_present,
    learner_pairs,
    rank_sums,
    ranked_cells,
)
from frameeval.compare.results import HOLM, RANK_PAIRS, TUKEY_HSD
from frameeval.compare.scipy_step import better_by, better_expr, per_unique, scipy_step
from frameeval.exceptions import InvalidValueError

__all__ = ["bonferroni_dunn", "bonferroni_dunn_q", "holm", "nemenyi", "nemenyi_q"]


#: the input of the step-down adjustments: a numeric p-value column (its values are checked in
#: the plan, with their group)
P_VALUES = Inputs(Column("p_value", "numeric"), Column("by"))


_K = Number(low=2, integer=True, text="an integer >= 2 (the number of learners)")


def _q_alpha(func: str, k: Any, alpha: Any, q: Callable[..., np.ndarray]) -> float:
    """``q(k, alpha)`` of one checked k (an integer >= 2) and alpha (in (0, 1))."""
    k = int(_K(func, "k", k))
    return float(q(np.array([k]), np.array([check_alpha(alpha, func)]))[0])


def _nemenyi_q(k: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    return per_unique(
        lambda k_, a_: stats.studentized_range.ppf(1.0 - a_, k_, np.inf) / np.sqrt(2.0), k, alpha
    )


def _dunn_q(k: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    return stats.norm.isf(alpha / (2.0 * (k - 1.0)))


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """q_α of the Nemenyi test for k learners (Table 2.7).

    q_α = Q_{1−α}(k, ∞) / √2, with Q the studentized range distribution of k means and infinite
    degrees of freedom (``scipy.stats.studentized_range``).

    Parameters
    ----------
    k
        Number of learners, ≥ 2.
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    float
        q_α; the critical difference is q_α √(k(k + 1) / 6N) (eq 2.36).

    Notes
    -----
    Computed, not copied: the tests reproduce the book's Table 2.7 (α = 0.05 and 0.1, k = 2…10)
    within 1e-3; the book prints 2.949 for k = 7, α = 0.05 (exactly 2.9483) and 2.459 for
    k = 5, α = 0.1 (exactly 2.4595).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, Table 2.7. Demšar (2006), JMLR 7, Table 5(a).

    Examples
    --------
    >>> round(fe.nemenyi_q(3, 0.05), 3)
    2.344
    """
    return _q_alpha("nemenyi_q", k, alpha, _nemenyi_q)


def bonferroni_dunn_q(k: int, alpha: float = 0.05) -> float:
    """q_α of the Bonferroni–Dunn test of k − 1 learners against a control.

    q_α = z_{1 − α/(2(k−1))}: the two-sided normal critical value at the Bonferroni-corrected
    level α/(k − 1).

    Parameters
    ----------
    k
        Number of learners including the control, ≥ 2.
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    float
        q_α; the critical difference is q_α √(k(k + 1) / 6N).

    References
    ----------
    Dunn (1961), "Multiple comparisons among means", JASA 56(293). Demšar (2006), JMLR 7,
    §3.2.2 and Table 5(b).

    Examples
    --------
    >>> round(fe.bonferroni_dunn_q(4, 0.05), 3)
    2.394
    """
    return _q_alpha("bonferroni_dunn_q", k, alpha, _dunn_q)


def _pairs_scipy(kind: str):
    def compute(n_learners, n_blocks, rank_difference, alpha):
        se = np.sqrt(n_learners * (n_learners + 1.0) / (6.0 * n_blocks))
        z = np.abs(rank_difference) / se
        if kind == "nemenyi":
            q = _nemenyi_q(n_learners, alpha)
            p = per_unique(
                lambda z_, k_: stats.studentized_range.sf(z_ * np.sqrt(2.0), k_, np.inf),
                z,
                n_learners,
            )
        else:
            q = _dunn_q(n_learners, alpha)
            p = np.minimum(2.0 * (n_learners - 1.0) * stats.norm.sf(z), 1.0)
        return {"q_alpha": q, "critical_value": q * se, "p_value": p}

    return compute


def _post_hoc(
    given: RankInput, alpha: float, control: Any, digits: int | None = RANK_DIGITS
) -> Any:
    func, block, learner = given.func, given.block, given.learner
    alpha = check_alpha(alpha, func)
    ranks, eager, keys, _, _ = ranked_cells(given, RANK_PAIRS.columns, digits=digits)
    sums = rank_sums(ranks, keys, learner)
    aggs = [pl.len().cast(pl.Int64).alias("n_learners"), pl.col("n_blocks").max().alias("n_blocks")]
    summary = check_design(per_group(sums, keys, aggs, "n_learners"), func, keys, block)
    if control is not None:
        summary = control_present(summary, sums, keys, func, learner, control)
    sides = {learner: ("a", "b"), "average_rank": ("average_rank_a", "average_rank_b")}
    pairs = join_on_keys(learner_pairs(sums, keys, sides, control), summary, keys)
    pairs = pairs.with_columns(
        (pl.col("average_rank_a") - pl.col("average_rank_b")).alias("rank_difference"),
        pl.lit(alpha).alias("alpha"),
    ).with_columns(pl.col("rank_difference").abs().alias("statistic"))
    out = scipy_step(
        pairs,
        _pairs_scipy("nemenyi" if control is None else "dunn"),
        ["n_learners", "n_blocks", "rank_difference", "alpha"],
        ["q_alpha", "critical_value", "p_value"],
    )
    out = RANK_PAIRS.decide(out).with_columns(
        better_expr(pl.col("rank_difference") < 0, pl.col("rank_difference") > 0)
    )
    return finish(RANK_PAIRS.out(out, keys), eager)


@frame_function
def nemenyi(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """Nemenyi post-hoc test: every pair of learners by average rank (eq 2.36, figure 2.8).

    Two learners perform significantly differently when their average ranks differ by more
    than the critical difference CD = q_α √(k(k + 1) / 6N); figure 2.8 (a CD diagram) draws each
    average rank with a bar of width CD.

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`rank_table`.
    alpha
        Significance level α in (0, 1).
    Returns
    -------
    Same kind as ``data`` with one row per pair, sorted by keys, a, b: ``*by, a, b, n_learners,
    n_blocks, average_rank_a, average_rank_b, rank_difference, statistic, q_alpha, p_value,
    critical_value, alpha, reject, better``:

    * ``a``, ``b`` — the learners compared, each unordered pair once (a < b in sort order);
    * ``n_learners`` = k, ``n_blocks`` = N (Int64);
    * ``average_rank_a``, ``average_rank_b`` — their average ranks (1 = best);
      ``rank_difference`` — average_rank_a − average_rank_b; ``statistic`` — its absolute
      value;
    * ``q_alpha`` — Q_{1−α}(k, ∞)/√2 (:func:`nemenyi_q`, Table 2.7); ``critical_value`` — the
      critical difference CD = q_α √(k(k + 1) / 6N) (eq 2.36; formerly repeated as ``cd``);
    * ``p_value`` — P(Q(k, ∞) > √2 · statistic / √(k(k + 1) / 6N)) from the studentized range
      distribution (it already accounts for all pairs);
    * ``reject`` — statistic > critical_value (CD): the two learners perform significantly differently;
      ``better`` — the one with the smaller average rank when rejected, null otherwise.

    Notes
    -----
    Run it after :func:`friedman` rejected "all learners perform the same". The Nemenyi test is
    conservative (it controls the family-wise error of all k(k − 1)/2 comparisons); to compare
    learners with one control, :func:`bonferroni_dunn` has more power. Needs k ≥ 2 and N ≥ 2 and
    a complete table. The p-values agree with scikit-posthocs' ``posthoc_nemenyi_friedman``.

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, eq 2.36, Table 2.7, figure 2.8. Nemenyi (1963),
    *Distribution-free multiple comparisons*, PhD thesis, Princeton. Demšar (2006), JMLR 7,
    §3.2.2.

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> out = fe.nemenyi(df, "error_rate")
    >>> out.select("a", "b", "rank_difference", "reject").rows()
    [('A', 'B', -0.75, False), ('A', 'C', -1.5, False), ('B', 'C', -0.75, False)]
    >>> round(out["critical_value"][0], 4)  # CD: q = 2.3437 (Table 2.7: 2.344), CD = q √(3·4 / (6·4))
    1.6572
    """
    block, learner = resolve_roles(data, "nemenyi", [by, metric], block=block, learner=learner)
    given = RankInput(data, "nemenyi", metric, block, learner, by, higher_is_better)
    return _post_hoc(given, alpha, control=None, digits=digits)


@frame_function
def bonferroni_dunn(
    data: IntoFrame,
    metric: str,
    *,
    control: Any,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """Bonferroni–Dunn post-hoc test: every learner against a control (Demšar 2006, §3.2.2).

    When a new learner is compared with several existing ones, only the k − 1 comparisons with
    it matter; the Bonferroni–Dunn test controls the family-wise error of those alone, so its
    critical difference is smaller than Nemenyi's: CD = q_α √(k(k + 1) / 6N) with
    q_α = z_{1 − α/(2(k−1))}.

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`rank_table`.
    control
        The control learner (a value of ``learner``); it is ``b`` in every row.
    alpha
        Significance level α in (0, 1).
    Returns
    -------
    Same kind as ``data`` with one row per learner other than the control, sorted by keys and
    a: ``*by, a, b, n_learners, n_blocks, average_rank_a, average_rank_b, rank_difference,
    statistic, q_alpha, p_value, critical_value, alpha, reject, better``:

    * ``a`` — the learner compared, ``b`` — the control;
    * ``n_learners`` = k, ``n_blocks`` = N (Int64);
    * ``average_rank_a``, ``average_rank_b`` — their average ranks (1 = best);
      ``rank_difference`` — average_rank_a − average_rank_b; ``statistic`` — its absolute
      value;
    * ``q_alpha`` — z_{1 − α/(2(k−1))} (:func:`bonferroni_dunn_q`); ``critical_value`` — the
      critical difference CD = q_α √(k(k + 1) / 6N) (formerly repeated as ``cd``);
    * ``p_value`` — the Bonferroni-adjusted two-sided normal p-value
      min(1, 2(k − 1) P(Z > statistic / √(k(k + 1) / 6N)));
    * ``reject`` — statistic > critical_value (⇔ p_value < α); ``better`` — the one with the smaller
      average rank when rejected, null otherwise.

    Notes
    -----
    The study notes point to this test for the usual "my learner against the others" question.
    z = |rᵃ − rᵇ| / √(k(k + 1) / 6N) is compared with the normal distribution; the p-value is
    Bonferroni-adjusted (min(1, 2(k − 1) P(Z > z))), so reject ⇔ p_value < α. Holm's step-down
    procedure on the same z values (:func:`holm`) is uniformly more powerful. Needs k ≥ 2,
    N ≥ 2, a complete table and the control in every group.

    References
    ----------
    Dunn (1961), "Multiple comparisons among means", JASA 56(293). Demšar (2006), JMLR 7,
    §3.2.2, Table 5(b).

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> fe.bonferroni_dunn(df, "error_rate", control="A").select("a", "b", "reject").rows()
    [('B', 'A', False), ('C', 'A', False)]
    """
    block, learner = resolve_roles(
        data, "bonferroni_dunn", [by, metric], block=block, learner=learner
    )
    func = "bonferroni_dunn"
    lf, _ = to_lazy(data, func)
    schema = lf.collect_schema()
    check_learner_value(schema, func, learner, control, "control")
    given = RankInput(data, func, metric, block, learner, by, higher_is_better)
    return _post_hoc(given, alpha, control=control, digits=digits)


@frame_function
def holm(
    data: IntoFrame, p_value: str = "p_value", *, by: Keys = None, alpha: float = 0.05
) -> Frame:
    """Holm's step-down correction of a family of p-values.

    Within each family (``by`` group) the m p-values are sorted, p₍₁₎ ≤ … ≤ p₍ₘ₎; the
    hypotheses are rejected in that order while p₍ⱼ₎ < α / (m − j + 1), and the first failure
    stops the procedure. Equivalently, the adjusted p-value p̃₍ᵢ₎ = maxⱼ≤ᵢ min(1, (m − j + 1)
    p₍ⱼ₎) is compared with α. It controls the family-wise error rate like Bonferroni's
    correction and rejects at least as much.

    Parameters
    ----------
    data
        Any frame with a p-value column, one row per test (DataFrame or LazyFrame; pandas /
        pyarrow are converted), e.g. the output of :func:`wilcoxon` with several pairs.
    p_value
        Column with the unadjusted p-values (null p-values are left out of the family).
    by
        Key column(s) defining the families; default: the whole frame is one family.
    alpha
        Family-wise significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data``: its columns in its row order, with ``p_adjusted`` (Float64, null
    where ``p_value`` is null) added, and ``alpha`` and ``reject`` (p_adjusted < α) added or
    replaced.

    References
    ----------
    Holm (1979), "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6(2). Demšar (2006), JMLR 7, §3.2.2.

    Examples
    --------
    >>> out = fe.holm(pl.DataFrame({"p_value": [0.01, 0.04, 0.03, 0.005]}))
    >>> out["p_adjusted"].round(6).to_list(), out["reject"].to_list()
    ([0.03, 0.06, 0.06, 0.02], [True, False, False, True])
    """
    func = "holm"
    alpha = check_alpha(alpha, func)
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    P_VALUES.compile(schema, func, p_value=p_value, by=keys)
    check_clash(func, keys, ("p_adjusted", "__row"))
    p = pl.col(p_value).cast(pl.Float64)
    lf = enforce(
        lf,
        failure(
            p.is_nan() | (p < 0.0) | (p > 1.0),
            InvalidValueError,
            f"{func}(): column {p_value!r} (p_value=) must hold p-values in [0, 1], got {{}}.",
            p.cast(pl.String),
        ),
    )
    over = keys or None
    m = p.is_not_null().sum().over(over) if over else p.is_not_null().sum()
    order = p.rank("ordinal").over(over) if over else p.rank("ordinal")
    step = pl.min_horizontal((m.cast(pl.Float64) - order + 1.0) * p, pl.lit(1.0))
    adjusted = step.cum_max().over(over) if over else step.cum_max()
    out = (
        lf.with_row_index("__row")
        .sort([*keys, p_value], nulls_last=True)
        .with_columns(pl.when(p.is_not_null()).then(adjusted).alias("p_adjusted"))
        .with_columns(pl.lit(alpha).alias("alpha"))
        .pipe(HOLM.decide)
        .sort("__row")
        .drop("__row")
    )
    return finish(out, eager)


def tukey_hsd(
    cells: pl.DataFrame,
    anova: pl.DataFrame,
    keys: list[str],
    learner: str,
    value: str,
    alpha: float,
    hib: bool,
) -> pl.DataFrame:
    """Tukey's HSD after :func:`frameeval.compare.omnibus.rm_anova`, with its repeated-measures
    error term: ``*keys, a, b, difference, statistic, p_value, critical_value, alpha, reject,
    better`` per pair (a < b) of the collected block × learner table.

    MS_error = SS_error / ((k − 1)(N − 1)) (``__mse`` of ``anova``), q = |m_a − m_b| /
    √(MS_error / N) against the studentized range Q(k, (k − 1)(N − 1)), HSD = Q_{1−α}
    √(MS_error / N); ``reject`` = p_value < α. (autorank, through statsmodels'
    ``MultiComparison.tukeyhsd``, uses the one-way error — the pooled within-learner variance on
    kN − k df — which keeps the between-block variation the ANOVA removed, and so can
    contradict its own omnibus test: docs/compare-learners.md.)
    """
    means = cells.group_by(*keys, learner).agg(pl.col(value).mean().alias("__mean"))
    sides = {learner: ("a", "b"), "__mean": ("__ma", "__mb")}
    left = means.lazy().select(*keys, *(pl.col(c).alias(a) for c, (a, _) in sides.items()))
    right = means.lazy().select(*keys, *(pl.col(c).alias(b) for c, (_, b) in sides.items()))
    design = anova.lazy().select(*keys, "n_learners", "n_blocks", "__mse", "df2")
    both = join_on_keys(left, right, keys).filter(pl.col("a") < pl.col("b"))
    pairs = join_on_keys(both, design, keys).collect()
    se = (pl.col("__mse") / pl.col("n_blocks").cast(pl.Float64)).sqrt()
    pairs = pairs.with_columns(
        (pl.col("__ma") - pl.col("__mb")).alias("difference"), se.alias("__se")
    ).with_columns(
        pl.when(pl.col("__se") > 0)
        .then(pl.col("difference").abs() / pl.col("__se"))
        .when(pl.col("difference") != 0)
        .then(float("inf"))
        .alias("statistic")
    )
    inputs = ("statistic", "n_learners", "df2", "__se")
    q, k, df, se_ = (pairs.get_column(c).to_numpy().astype(float) for c in inputs)
    with np.errstate(all="ignore"):
        p = per_unique(lambda q_, k_, d_: stats.studentized_range.sf(q_, k_, d_), q, k, df)
        crit = per_unique(lambda k_, d_: stats.studentized_range.ppf(1 - alpha, k_, d_), k, df)
    out = pairs.with_columns(
        pl.Series("p_value", p).fill_nan(None),
        pl.Series("critical_value", crit * se_).fill_nan(None),
        pl.lit(alpha).alias("alpha"),
    )
    out = TUKEY_HSD.decide(out).with_columns(pl.col("statistic").fill_nan(None))
    better = (pl.col("difference") > 0) if hib else (pl.col("difference") < 0)
    return out.with_columns(better_by(better))
