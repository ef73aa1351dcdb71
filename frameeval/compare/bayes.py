"""Bayesian comparison of two learners with a region of practical equivalence (ROPE): the
correlated Bayesian t test on one data set's cross-validation scores (Corani & Benavoli 2015) and
the Bayesian signed-rank test over data sets (Benavoli et al. 2014), as in baycomp.

Instead of a p-value, each comparison gives the posterior probabilities of three regions of the
difference d = a − b: "a is practically better", "practically equivalent" (|d| ≤ rope) and "b is
practically better" (Benavoli, Corani, Demšar & Zaffalon 2017, "Time for a change"). "Better"
follows the metric's direction (``higher_is_better``); ``mean_difference`` is always the raw
mean of a − b.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from frameeval._frame import as_keys, finish
from frameeval._inputs import Column, Inputs
from frameeval._params import SEED, Number
from frameeval._roles import column_names, infer_column
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_parameter, check_rope, enforce, failure, group_text
from frameeval.compare._pairs import check_pair, pair_table
from frameeval.compare.cells import Long
from frameeval.compare.door import is_learner, open_frame, resolve_direction
from frameeval.compare.effect_size import effect_aggs, effect_columns
from frameeval.compare.guards import attach, not_null_rows, value_text
from frameeval.compare.results import (
    CORRELATED_T,
    POSTERIOR_MEANS,
    PROBABILITIES,
    SIGNED_RANK,
    SIGNED_RANK_SAMPLES,
    Shape,
)
from frameeval.compare.scipy_step import mean_std, scipy_step
from frameeval.exceptions import InsufficientDataError, InvalidValueError

__all__ = ["bayes_correlated_t", "bayes_signed_rank", "bayes_signed_rank_samples"]


#: Memory bounds of the signed-rank sampler (in float64 values): one chunk of Dirichlet weights
#: (samples × blocks) and one chunk of quadratic forms (pairs × samples × blocks).
_WEIGHTS_CHUNK = 2**18
_FORMS_CHUNK = 2**22
#: bayes_correlated_t's columns, present and distinct (the metric's dtype and values are
#: checked where the pair table reads it, after the pair a=/b= and the split blocks)
_CORRELATED_T_INPUTS = Inputs(
    Column("metric"), Column("learner"), Column("fold"), Column("repeat"), distinct=True
)


# ---------------------------------------------------------------------------------------------
# correlated Bayesian t test
# ---------------------------------------------------------------------------------------------
def _t_probs(mean: np.ndarray, scale: np.ndarray, df: np.ndarray, rope: np.ndarray):
    """P(d > rope), P(|d| ≤ rope), P(d < −rope) for d ~ t_df(mean, scale); a point mass at the
    mean when scale = 0 (baycomp's rule: at rope = 0 a zero mean splits 1/2–1/2)."""
    from scipy import stats

    spread = scale > 0
    safe = np.where(spread, scale, 1.0)
    upper = stats.t.sf(rope, df, loc=mean, scale=safe)
    lower = stats.t.cdf(-rope, df, loc=mean, scale=safe)
    half = 0.5 * (mean == 0)
    point_upper = np.where(rope == 0, (mean > 0) + half, mean > rope)
    point_lower = np.where(rope == 0, (mean < 0) + half, mean < -rope)
    upper = np.where(spread, upper, point_upper)
    lower = np.where(spread, lower, point_lower)
    inside = np.where(rope == 0, 0.0, 1.0 - upper - lower)
    return {"p_a_better": upper, "p_rope": inside, "p_b_better": lower}


#: rho= of the correlated t test, n_samples= and prior= of the signed-rank sampler
RHO = Number(low=0.0, high=1.0, closed="left", none=True, text="None or a number in [0, 1)")
N_SAMPLES = Number(low=1, integer=True, text="a positive integer")
PRIOR = Number(low=0.0, text="a finite number >= 0 (the weight of the pseudo-observation at 0)")


@frame_function
def bayes_correlated_t(
    data: IntoFrame,
    metric: str,
    *,
    rope: float,
    a: Any = None,
    b: Any = None,
    learner: str | None = None,
    fold: str | None = None,
    repeat: str | None = None,
    rho: float | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
) -> Frame:
    """Correlated Bayesian t test of two learners on the k-fold (× repeats) scores of one data
    set (Corani & Benavoli 2015), with a region of practical equivalence.

    The n = k × repeats differences dᵢ = aᵢ − bᵢ of cross-validation are correlated (their
    training sets overlap); with correlation ρ between them and a non-informative prior, the
    posterior of the mean difference μ is a Student t distribution

        μ | d ~ t_{n−1}(location = d̄, scale² = (1/n + ρ/(1 − ρ)) · s²),

    with d̄ and s² the sample mean and variance (ddof = 1) of the differences. ρ = n_test /
    (n_test + n_train) = 1/k is Nadeau & Bengio's correction; the probabilities of the three
    regions μ > rope, |μ| ≤ rope and μ < −rope are read from its CDF (no sampling).

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one row per learner × fold (× repeat) (× ``by`` group), e.g. one data set's CV results.
    metric
        Column with the metric values.
    rope
        Half-width r ≥ 0 of the region of practical equivalence [−r, r], in metric units (e.g.
        0.01 for one point of accuracy). ``rope=0`` gives the two-region test (``p_rope`` = 0).
    a, b
        One pair of learners (both), or neither: every pair of the group's learners, each once
        (a < b in sort order). Rows of other learners are ignored when a pair is given.
    learner, fold
        Columns naming the learner and the fold; both learners need a value on every fold.
        ``None``: the column with a common name of that role (``learner``, ``model``…;
        ``fold``, ``split``…).
    repeat
        Optional column naming the repetition of cross-validation (a fold is then identified by
        repeat and fold). ``None``: the column with a common repeat name (``repeat``, ``run``,
        ``seed``) if there is one, else no repeats.
    rho
        Correlation ρ in [0, 1) between the differences; default 1/k with k = n / repeats, the
        number of folds per repetition (then every repetition must have the same number of
        folds, k ≥ 2). ``rho=0`` gives the ordinary (uncorrelated) Bayesian t test.
    by
        Key column(s): one set of comparisons per group (e.g. per data set).
    higher_is_better
        Direction of ``metric``: which side of the ROPE means "a is better". Default: the
        direction of the registered measure of the same name; required otherwise.

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, mean_difference, p_a_better, p_rope, p_b_better,
    cohen_d, cliff_delta``, one row per group and pair, sorted by keys, a, b:

    * ``mean_difference`` — d̄, the mean of a − b over the folds (raw: not direction-adjusted);
    * ``p_a_better`` — posterior probability that a is practically better: P(μ > rope) for a
      higher-is-better metric, P(μ < −rope) for a lower-is-better one;
    * ``p_rope`` — P(|μ| ≤ rope), the practical equivalence (0 when ``rope=0``);
    * ``p_b_better`` — posterior probability that b is practically better;
    * ``cohen_d``, ``cliff_delta`` — the effect sizes of the folds' pairs (d_z and Cliff's δ,
      as :func:`~frameeval.compare.effect_size`).

    The three probabilities sum to 1.

    Notes
    -----
    baycomp's ``CorrelatedTTest(x=a, y=b, rope, runs)`` computes the same posterior of b − a;
    its ``(p_left, p_rope, p_right)`` are (``p_a_better``, ``p_rope``, ``p_b_better``) for a
    higher-is-better metric — the tests check agreement to 1e-9. Zero variance (all differences
    equal): the posterior is a point mass at d̄ (baycomp's rule), so each region has probability
    0 or 1, with d̄ on the ROPE's boundary counted as equivalent; at ``rope=0`` a zero d̄ gives
    ``p_a_better`` = ``p_b_better`` = 0.5. Needs at least 2 learners and 2 folds with both
    learners in every group (``InsufficientDataError``); a complete fold × learner table
    (``InsufficientDataError`` listing the gaps).

    Decide with the probabilities, e.g. "a is practically better" when ``p_a_better`` > 0.95;
    when no region dominates, the data do not settle the question (Benavoli et al. 2017).

    References
    ----------
    Corani & Benavoli (2015), "A Bayesian approach for comparing cross-validated algorithms on
    multiple data sets", Machine Learning 100(2). Nadeau & Bengio (2003), "Inference for the
    generalization error", Machine Learning 52(3). Benavoli, Corani, Demšar & Zaffalon (2017),
    "Time for a change: a tutorial for comparing multiple classifiers through Bayesian
    analysis", JMLR 18(77).

    See Also
    --------
    bayes_signed_rank : the same question over many data sets.
    paired_t_test : the frequentist (uncorrected) test of the same differences.

    Examples
    --------
    >>> df = pl.DataFrame({"learner": ["A"] * 5 + ["B"] * 5, "fold": list(range(5)) * 2,
    ...                    "accuracy": [0.81, 0.83, 0.80, 0.84, 0.82,
    ...                                 0.78, 0.80, 0.79, 0.80, 0.77]})
    >>> out = fe.bayes_correlated_t(df, "accuracy", rope=0.01)
    >>> out.select("a", "b", pl.col("mean_difference").round(6)).row(0)
    ('A', 'B', 0.032)
    >>> [round(p, 3) for p in out.select("p_a_better", "p_rope", "p_b_better").row(0)]
    [0.954, 0.039, 0.007]
    """
    learner, fold = resolve_roles(
        data, "bayes_correlated_t", [by, metric], learner=learner, fold=fold
    )
    func = "bayes_correlated_t"
    if repeat is None:  # optional: a column with a common repeat name, if there is one
        repeat = infer_column(
            column_names(data, func),
            "repeat",
            where=f"{func}()",
            exclude=[*as_keys(by), metric, learner, fold],
            required=False,
        )
    rope = check_rope(rope, func)
    RHO(func, "rho", rho)
    lf, eager, keys, schema = open_frame(data, func, by)
    CORRELATED_T.check(func, keys, learner=learner, fold=fold, repeat=repeat)
    hib = resolve_direction(func, metric, higher_is_better)
    _CORRELATED_T_INPUTS.compile(
        schema, func, metric=metric, learner=learner, fold=fold, repeat=repeat, by=keys
    )
    check_pair(schema, func, learner, a, b)
    if a is not None:
        lf = lf.filter(is_learner(learner, schema, a) | is_learner(learner, schema, b))
    lf, block, block_text = _split_blocks(lf, schema, func, keys, repeat, fold)
    long = Long(lf, lf.collect_schema(), func, keys, block, learner, metric)
    table = pair_table(long, a, b, block_text=block_text, hint=None)
    mean, std = mean_std(pl.col("__va") - pl.col("__vb"))
    stats_ = (
        table.group_by(*keys, "a", "b")
        .agg(
            pl.len().cast(pl.Float64).alias("__n"),
            mean.alias("mean_difference"),
            std.alias("__s"),
            *effect_aggs(),
        )
        .with_columns(effect_columns(skip=["mean_difference"]))
    )
    stats_, correction = _correlation(stats_, lf, func, keys, repeat, fold, rho)
    n = pl.col("__n")
    advantage = pl.col("mean_difference") if hib else -pl.col("mean_difference")
    stats_ = stats_.with_columns(
        advantage.alias("__mean"),
        ((1.0 / n + correction).sqrt() * pl.col("__s")).alias("__scale"),
        (n - 1.0).alias("__df"),
        pl.lit(rope).alias("__rope"),
    )
    out = scipy_step(stats_, _t_probs, ["__mean", "__scale", "__df", "__rope"], PROBABILITIES)
    return finish(CORRELATED_T.out(out, keys), eager)


# ---------------------------------------------------------------------------------------------
# Bayesian signed-rank test
# ---------------------------------------------------------------------------------------------
def _split_blocks(
    lf: pl.LazyFrame, schema: pl.Schema, func: str, keys: list[str], repeat: str | None, fold: str
) -> tuple[pl.LazyFrame, str, str]:
    """The split a pair of scores shares: the fold, or repeat/fold joined in a new column."""
    if repeat is None:
        return lf, fold, repr(fold)
    block, block_text = f"{repeat}/{fold}", f"{repeat!r}/{fold!r}"
    check_parameter(
        block not in schema,
        func,
        f"the data must not have a column named {block!r} (used to pair repeat and fold), got one.",
    )
    lf = not_null_rows(lf, func, keys, {"repeat": repeat, "fold": fold})
    lf = lf.with_columns(
        pl.concat_str([value_text(repeat), value_text(fold)], separator="/").alias(block)
    )
    return lf, block, block_text


def _correlation(
    stats_: pl.LazyFrame,
    lf: pl.LazyFrame,
    func: str,
    keys: list[str],
    repeat: str | None,
    fold: str,
    rho: float | None,
) -> tuple[pl.LazyFrame, pl.Expr]:
    """ρ/(1 − ρ) of the correlated t test: from ``rho``, or ρ = 1/k with k = n / repeats folds
    per repetition (then every repeat must have the same k ≥ 2 folds, checked in-plan)."""
    n = pl.col("__n")
    if rho is not None:
        return stats_, pl.lit(rho / (1.0 - rho))
    # ρ = 1/k with k = n / repeats folds per repetition: ρ/(1 − ρ) = 1/(k − 1)
    if repeat is None:
        design = stats_.with_columns(
            pl.lit(1, dtype=pl.Int64).alias("__repeats"),
            n.cast(pl.Int64).alias("__min"),
            n.cast(pl.Int64).alias("__max"),
        )
    else:
        per_repeat = lf.group_by(*keys, repeat).agg(
            pl.col(fold).n_unique().cast(pl.Int64).alias("__folds")
        )
        aggs = [
            pl.len().cast(pl.Int64).alias("__repeats"),
            pl.col("__folds").min().alias("__min"),
            pl.col("__folds").max().alias("__max"),
        ]
        counts = per_repeat.group_by(keys).agg(aggs) if keys else per_repeat.select(aggs)
        design = attach(stats_, counts, keys)
    stats_ = enforce(
        design,
        failure(
            pl.col("__min") != pl.col("__max"),
            InvalidValueError,
            f"{func}(): rho=None (1/k) needs the same number of folds in every repeat, got "
            f"{{}} to {{}} folds per {repeat!r}{{}}.\nHint: pass rho= explicitly.",
            pl.col("__min"),
            pl.col("__max"),
            group_text(keys),
        ),
        failure(
            pl.col("__min") < 2,
            InsufficientDataError,
            f"{func}(): rho=None (1/k) needs at least 2 folds per repeat, got {{}}{{}}.",
            pl.col("__min"),
            group_text(keys),
        ),
    )
    folds = n / pl.col("__repeats").cast(pl.Float64)
    return stats_, 1.0 / (folds - 1.0)


def _check_sampler(n_samples: Any, seed: Any, prior: Any, func: str) -> None:
    N_SAMPLES(func, "n_samples", n_samples)
    SEED(func, "seed", seed)
    PRIOR(func, "prior", prior)


def signed_rank_posterior(
    diffs: Sequence[np.ndarray],
    rope: float,
    prior: float,
    n_samples: int,
    seed: int,
    keep_samples: bool = False,
) -> dict[str, Any]:
    """The Bayesian signed-rank posterior of each difference vector (positive = a better).

    Dirichlet-process posterior with a pseudo-observation z₀ = 0 of weight ``prior``: the
    weights w ~ Dirichlet(prior, 1, …, 1) over (z₀, z₁…z_n), and in each sample

        θ_a = Σᵢⱼ wᵢ wⱼ H(zᵢ + zⱼ − 2r),  θ_b = Σᵢⱼ wᵢ wⱼ H(−zᵢ − zⱼ − 2r),  θ_rope = 1 − θ_a − θ_b

    with H the Heaviside step (H(0) = 1/2). Returns the share of samples in which each region is
    the largest (ties split evenly), the exact posterior means E[θ] (from E[wᵢwⱼ] of the
    Dirichlet), and with ``keep_samples`` the samples themselves (pairs × n_samples × 3).

    Every vector is sampled with ``numpy.random.default_rng(seed)``: vectors of the same length
    share their weights, so a comparison's result does not depend on the others computed with
    it. Memory is bounded by drawing the weights in chunks (:data:`_WEIGHTS_CHUNK`,
    :data:`_FORMS_CHUNK`).
    """
    count = len(diffs)
    wins = np.zeros((count, 3))
    means = np.zeros((count, 3))
    kept = np.zeros((count, n_samples, 3)) if keep_samples else None
    sizes = np.array([d.size for d in diffs], dtype=np.int64)
    for size in np.unique(sizes):  # loop-ok: one vectorised kernel per distinct number of blocks
        rows = np.flatnonzero(sizes == size)
        z = np.zeros((rows.size, size + 1))
        z[:, 1:] = np.stack([diffs[int(i)] for i in rows])
        sums = z[:, :, None] + z[:, None, :]
        above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
        below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
        alpha = np.ones(size + 1)
        alpha[0] = prior
        total = alpha.sum()
        moments = (np.outer(alpha, alpha) + np.diag(alpha)) / (total * (total + 1.0))
        mean_a = (above * moments).sum(axis=(1, 2))
        mean_b = (below * moments).sum(axis=(1, 2))
        means[rows] = np.column_stack([mean_a, 1.0 - mean_a - mean_b, mean_b])
        if rope == 0:
            means[rows, 1] = 0.0
        rng = np.random.default_rng(seed)
        chunk = max(64, _WEIGHTS_CHUNK // (size + 1))
        block = max(1, _FORMS_CHUNK // (chunk * (size + 1)))
        done = 0
        while done < n_samples:  # loop-ok: chunks of samples (bounded memory)
            step = min(chunk, n_samples - done)
            gamma = rng.standard_gamma(alpha, size=(step, size + 1))
            weights = gamma / gamma.sum(axis=1, keepdims=True)
            for start in range(0, rows.size, block):  # loop-ok: chunks of pairs (memory)
                part = slice(start, start + block)
                theta_a = (np.matmul(weights, above[part]) * weights).sum(axis=2)
                theta_b = (np.matmul(weights, below[part]) * weights).sum(axis=2)
                theta_r = np.zeros_like(theta_a) if rope == 0 else 1.0 - theta_a - theta_b
                theta = np.stack([theta_a, theta_r, theta_b], axis=2)
                top = theta == theta.max(axis=2, keepdims=True)
                wins[rows[part]] += (top / top.sum(axis=2, keepdims=True)).sum(axis=1)
                if kept is not None:
                    kept[rows[part], done : done + step] = theta
            done += step
    out: dict[str, Any] = {
        "p_a_better": wins[:, 0] / n_samples,
        "p_rope": wins[:, 1] / n_samples,
        "p_b_better": wins[:, 2] / n_samples,
        "mean_a_better": means[:, 0],
        "mean_rope": means[:, 1],
        "mean_b_better": means[:, 2],
    }
    if kept is not None:
        out["samples"] = kept
    return out


def _list_step(
    frame: pl.LazyFrame,
    compute: Callable[[list[np.ndarray]], Mapping[str, np.ndarray]],
    outputs: Mapping[str, pl.DataType],
) -> pl.LazyFrame:
    """Add ``outputs`` computed in one call from the list column ``__d`` (one float array per
    row), inside the plan (run when the frame is collected)."""

    def run(series: pl.Series, **_: Any) -> pl.Series:  # polars passes return_dtype=
        lists = series.struct.field("__d")
        lengths = lists.list.len().fill_null(0).to_numpy()
        flat = lists.explode().cast(pl.Float64).to_numpy()
        starts = (np.cumsum(lengths) - lengths).astype(np.int64)
        diffs = [flat[s : s + n] for s, n in zip(starts, lengths, strict=True)]  # loop-ok: views
        result = compute(diffs)
        return pl.DataFrame(
            {name: result[name] for name in outputs}, schema=dict(outputs)
        ).to_struct("__bayes")

    dtype = pl.Struct(dict(outputs))
    step = pl.struct(["__d"]).map_batches(run, return_dtype=dtype).alias("__bayes")
    return frame.with_columns(step).unnest("__bayes")


def _signed_rank_pairs(
    data: IntoFrame,
    func: str,
    metric: str,
    rope: Any,
    roles: tuple[Any, Any, str | None, str | None],
    sampler: tuple[Any, Any, Any],
    by: Keys,
    higher_is_better: bool | None,
    shape: Shape,
) -> tuple[pl.LazyFrame, bool, list[str], float]:
    """``*keys, a, b, n_blocks, mean_difference, cohen_d, cliff_delta, __d`` (differences
    ordered by block, positive = a better) after every check; ``roles`` are ``a, b, block,
    learner`` as given (resolved here), ``sampler`` ``n_samples, seed, prior``."""
    a, b, block, learner = roles
    block, learner = resolve_roles(data, func, [by, metric], block=block, learner=learner)
    rope = check_rope(rope, func)
    _check_sampler(*sampler, func)
    lf, eager, keys, schema = open_frame(data, func, by)
    shape.check(func, keys, block=block, learner=learner)
    hib = resolve_direction(func, metric, higher_is_better)
    table = pair_table(Long(lf, schema, func, keys, block, learner, metric), a, b)
    d = pl.col("__va") - pl.col("__vb")
    stats_ = (
        table.group_by(*keys, "a", "b")
        .agg(
            pl.len().cast(pl.Int64).alias("n_blocks"),
            d.mean().alias("mean_difference"),
            (d if hib else -d).sort_by(pl.col(block)).alias("__d"),
            *effect_aggs(),
        )
        .with_columns(effect_columns(skip=["mean_difference"]))
    )
    return stats_, eager, keys, rope


@frame_function
def bayes_signed_rank(
    data: IntoFrame,
    metric: str,
    *,
    rope: float,
    a: Any = None,
    b: Any = None,
    block: str | None = None,
    learner: str | None = None,
    n_samples: int = 50_000,
    seed: int = 0,
    prior: float = 0.5,
    by: Keys = None,
    higher_is_better: bool | None = None,
) -> Frame:
    """Bayesian signed-rank test of two learners over N data sets (Benavoli et al. 2014), with a
    region of practical equivalence.

    The differences zᵢ = aᵢ − bᵢ on the N blocks (data sets) are modelled by a Dirichlet process
    whose prior puts a pseudo-observation z₀ = 0 of weight ``prior``. A posterior sample is a
    weight vector w ~ Dirichlet(prior, 1, …, 1) over (z₀, z₁…z_N), and its probabilities of the
    three regions are those of the Walsh averages (zᵢ + zⱼ)/2 — the quantity the Wilcoxon
    signed-rank test ranks:

        θ_a = Σᵢⱼ wᵢ wⱼ H(zᵢ + zⱼ − 2r),   θ_b = Σᵢⱼ wᵢ wⱼ H(−zᵢ − zⱼ − 2r),   θ_rope = 1 − θ_a − θ_b

    (H the Heaviside step with H(0) = 1/2, r the ROPE half-width, z oriented so that positive
    means a better).

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one row per block × learner (× ``by`` group), e.g. the mean CV accuracy per data set.
    metric
        Column with the metric values.
    rope
        Half-width r ≥ 0 of the region of practical equivalence [−r, r], in metric units.
    a, b
        One pair of learners (both), or neither: every pair, each once (a < b in sort order).
    block, learner
        Columns naming the block (data set) and the learner; every compared learner needs a
        value on every block of its group.
        ``None``: the column with a common name of that role (``block``, ``dataset``…;
        ``learner``, ``model``…), as in :func:`friedman`.
    n_samples
        Number of posterior samples (Monte-Carlo error of a probability ≤ 0.5/√n_samples, about
        0.002 at the default 50,000).
    seed
        Seed of the ``numpy.random.Generator`` (``numpy.random.default_rng(seed)``). Every
        comparison is sampled from a generator with this seed, so a pair's result does not
        depend on the other pairs or groups (but their Monte-Carlo errors are correlated).
    prior
        Weight s ≥ 0 of the prior pseudo-observation at 0 (baycomp's ``prior``, default 0.5).
    by
        Key column(s): one set of comparisons per group.
    higher_is_better
        Direction of ``metric``: which side means "a is better". Default: the direction of the
        registered measure of the same name; required otherwise.

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, mean_difference, p_a_better, p_rope, p_b_better,
    mean_a_better, mean_rope, mean_b_better, n_blocks, cohen_d, cliff_delta``, one row per
    group and pair, sorted by
    keys, a, b (the first columns are those of :func:`bayes_correlated_t`):

    * ``mean_difference`` — the mean of a − b (raw);
    * ``p_a_better``, ``p_rope``, ``p_b_better`` — the share of posterior samples in which that
      region is the most probable one (θ largest), as baycomp's ``SignedRankTest`` reports
      them; they sum to 1. A sample where two regions tie (e.g. every difference 0 at
      ``rope=0``) counts half to each (baycomp gives it to "a better");
    * ``mean_a_better``, ``mean_rope``, ``mean_b_better`` — the posterior means E[θ] of the
      three region probabilities, computed exactly from the Dirichlet moments
      E[wᵢwⱼ] = (αᵢαⱼ + [i = j] αᵢ) / (α₀(α₀ + 1)), not sampled;
    * ``n_blocks`` — N, the number of blocks (Int64);
    * ``cohen_d``, ``cliff_delta`` — the effect sizes of the N pairs (d_z and Cliff's δ, as
      :func:`~frameeval.compare.effect_size`).

    At ``rope=0`` the ROPE is empty: ``p_rope`` = ``mean_rope`` = 0.

    Notes
    -----
    baycomp's ``SignedRankTest(x=a, y=b, rope, prior=prior)`` samples the same posterior for
    b − a; its ``(p_left, p_rope, p_right)`` are (``p_a_better``, ``p_rope``, ``p_b_better``)
    for a higher-is-better metric, up to Monte-Carlo error (the tests check |Δp| ≤ 0.02). The
    sampling is vectorised (all pairs with the same N share one chunked draw of weights) and
    runs inside the plan when a LazyFrame result is collected. Needs at least 2 learners and 2
    blocks per group and a complete block × learner table (``InsufficientDataError``).

    References
    ----------
    Benavoli, Corani, Mangili, Zaffalon & Ruggeri (2014), "A Bayesian Wilcoxon signed-rank test
    based on the Dirichlet process", ICML, PMLR 32(2). Benavoli, Corani, Demšar & Zaffalon
    (2017), "Time for a change: a tutorial for comparing multiple classifiers through Bayesian
    analysis", JMLR 18(77).

    See Also
    --------
    bayes_correlated_t : the same question on one data set's cross-validation.
    bayes_signed_rank_samples : the posterior samples (for the simplex chart).
    wilcoxon : the frequentist signed-rank test.

    Examples
    --------
    >>> df = fe.datasets.paired_accuracies()
    >>> out = fe.bayes_signed_rank(df, "accuracy", rope=0.01, n_samples=2000, seed=1)
    >>> out.select("a", "b", "n_blocks").row(0)
    ('A', 'B', 6)
    >>> out["p_a_better"].item() > 0.9
    True
    """
    func = "bayes_signed_rank"
    roles, sampler = (a, b, block, learner), (n_samples, seed, prior)
    stats_, eager, keys, rope = _signed_rank_pairs(
        data, func, metric, rope, roles, sampler, by, higher_is_better, SIGNED_RANK
    )
    size, draw, weight = int(n_samples), int(seed), float(prior)
    out = _list_step(
        stats_,
        lambda diffs: signed_rank_posterior(diffs, rope, weight, size, draw),
        {name: pl.Float64() for name in [*PROBABILITIES, *POSTERIOR_MEANS]},
    )
    return finish(SIGNED_RANK.out(out, keys), eager)


@frame_function
def bayes_signed_rank_samples(
    data: IntoFrame,
    metric: str,
    *,
    rope: float,
    a: Any = None,
    b: Any = None,
    block: str | None = None,
    learner: str | None = None,
    n_samples: int = 5_000,
    seed: int = 0,
    prior: float = 0.5,
    by: Keys = None,
    higher_is_better: bool | None = None,
) -> Frame:
    """The posterior samples of :func:`bayes_signed_rank`: one row per sample of each pair,
    the three region probabilities that ``charts.posterior_simplex`` draws in a triangle.

    Parameters
    ----------
    data, metric, rope, a, b, block, learner, seed, prior, by, higher_is_better
        As in :func:`bayes_signed_rank`; with the same ``seed`` and ``n_samples`` these are the
        very samples whose winners give its ``p_a_better``, ``p_rope``, ``p_b_better``.
    n_samples
        Samples per pair (default 5,000: the output has that many rows per pair).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, sample, a_better, rope, b_better``, sorted by keys,
    a, b, sample: ``sample`` — 0…n_samples − 1 (Int64); ``a_better``, ``rope``, ``b_better`` —
    the sample's θ_a, θ_rope, θ_b (they sum to 1).

    Examples
    --------
    >>> df = fe.datasets.paired_accuracies()
    >>> s = fe.compare.bayes_signed_rank_samples(df, "accuracy", rope=0.01, n_samples=100)
    >>> s.shape, round(s.select(pl.col("a_better") + pl.col("rope") + pl.col("b_better"))
    ...                 .to_series().max(), 9)
    ((100, 6), 1.0)
    """
    func = "bayes_signed_rank_samples"
    roles, sampler = (a, b, block, learner), (n_samples, seed, prior)
    stats_, eager, keys, rope = _signed_rank_pairs(
        data, func, metric, rope, roles, sampler, by, higher_is_better, SIGNED_RANK_SAMPLES
    )
    size, draw, weight = int(n_samples), int(seed), float(prior)
    regions = ["a_better", "rope", "b_better"]

    def compute(diffs: list[np.ndarray]) -> dict[str, Any]:
        kept = signed_rank_posterior(diffs, rope, weight, size, draw, keep_samples=True)
        samples = kept["samples"]
        return {
            name: pl.Series(list(samples[:, :, j]), dtype=pl.List(pl.Float64))
            for j, name in enumerate(regions)
        }

    out = _list_step(stats_, compute, {name: pl.List(pl.Float64) for name in regions})
    out = out.with_columns(pl.int_ranges(0, pl.col("a_better").list.len()).alias("sample"))
    out = out.explode(["sample", *regions]).with_columns(pl.col("sample").cast(pl.Int64))
    return finish(SIGNED_RANK_SAMPLES.out(out, keys), eager)
