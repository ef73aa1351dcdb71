"""Bradley–Terry ratings on the Elo scale from battles (Chatbot Arena) or from shared items."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._frame import finish
from frameeval._inputs import Column, Inputs
from frameeval._params import NUMPY_SEED, Number
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_parameter, enforce, failure, group_text, is_label_dtype
from frameeval.compare.plan import check_int, check_level, sort_by_keys
from frameeval.exceptions import (
    DuplicateKeyError,
    InvalidDtypeError,
    InvalidValueError,
    UnknownLabelError,
)
from frameeval.ratings._fit import Blocks, fit

__all__ = ["bradley_terry", "bradley_terry_from_items"]

#: the values of the winner column (FastChat / Chatbot Arena's spelling) and their outcome code
WINNERS = {"model_a": 0, "model_b": 1, "tie": 2, "tie (bothbad)": 2}
TIES = ("half", "drop")
ALL = "__fe_all"
OUTPUTS = ["model", "rating", "ci_low", "ci_high", "rank", "rank_low", "rank_high", "n_battles"]
_FIT_SCHEMA = {
    "__fe_gid": pl.Int64,
    "__fe_code": pl.Int64,
    "rating": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "rank": pl.Int64,
    "rank_low": pl.Int64,
    "rank_high": pl.Int64,
}


#: the columns of a battles table: two models and the winner, all complete
BATTLES = Inputs(
    Column("a", "any", "not_null", required=True),
    Column("b", "any", "not_null", required=True),
    Column("winner", "any", "not_null", required=True),
)
#: the columns of an items table: a finite score per model and item
ITEMS = Inputs(
    Column("score", "numeric", "finite"),
    Column("model", "any", "not_null"),
    Column("item", "any", "not_null"),
    Column("by"),
    distinct=True,
)


def _check_options(
    func: str, ties: Any, n_resamples: Any, seed: Any, ci: Any, scale: Any, base: Any, anchor: Any
) -> tuple[int, float, float, Any]:
    check_parameter(ties in TIES, func, f"ties must be one of {list(TIES)}, got {ties!r}.")
    n_resamples = check_int(n_resamples, func, "n_resamples", 0)
    NUMPY_SEED(func, "seed", seed)
    level = check_level(ci, func, "ci")

    number = Number().holds  # a finite number, not a bool
    Number(low=0.0, closed="neither", text="> 0")(func, "scale", scale)
    Number(low=1.0, closed="neither", text="> 1")(func, "base", base)
    ok = (
        anchor is None
        or number(anchor)
        or (
            isinstance(anchor, Sequence)
            and not isinstance(anchor, str)
            and len(anchor) == 2
            and number(anchor[1])
        )
    )
    check_parameter(
        ok,
        func,
        f"anchor must be None (mean rating 1000), a number (the mean rating) or a pair "
        f"(model, rating), got {anchor!r}.",
    )
    return n_resamples, level, float(scale) / math.log(base), anchor


def _fitter(n_resamples: int, seed: int, level: float, elo: float, ties: str, mean: float) -> Any:
    """The function run on the collected count table (``__fe_gid, __fe_a, __fe_b,
    __fe_outcome, __fe_count, __fe_anchor``): estimate and bootstrap of every group at once."""

    def run(table: pl.DataFrame) -> pl.DataFrame:
        if table.height == 0:
            return pl.DataFrame(schema=_FIT_SCHEMA)
        # a fixed order of the rows (the draws do not depend on the battles' row order)
        table = table.sort("__fe_gid", "__fe_a", "__fe_b", "__fe_outcome")
        gid = table["__fe_gid"].to_numpy().astype(np.int64)
        a = table["__fe_a"].to_numpy().astype(np.int64)
        b = table["__fe_b"].to_numpy().astype(np.int64)
        outcome = table["__fe_outcome"].to_numpy()
        count = table["__fe_count"].to_numpy().astype(np.float64)
        n_groups = int(gid.max()) + 1
        n_models = int(max(a.max(), b.max())) + 1
        anchor = np.full(n_groups, -1, dtype=np.int64)
        anchor[gid] = table["__fe_anchor"].to_numpy().astype(np.int64)
        tie = 0.5 if ties == "half" else 0.0
        wins_share = (outcome == 0) + tie * (outcome == 2)
        loss_share = (outcome == 1) + tie * (outcome == 2)

        blocks_of = [gid]
        counts = [count]
        if n_resamples > 0:
            counts.extend(_multinomial(gid, count, n_groups, n_resamples, seed))
            blocks_of.extend(gid + n_groups * (r + 1) for r in range(n_resamples))
        reps = len(counts)
        drawn = np.concatenate(counts)
        blocks = Blocks(
            block=np.concatenate(blocks_of),
            a=np.tile(a, reps),
            b=np.tile(b, reps),
            wins=drawn * np.tile(wins_share, reps),
            losses=drawn * np.tile(loss_share, reps),
            n_blocks=n_groups * reps,
            n_models=n_models,
        )
        theta = fit(blocks).reshape(reps, n_groups, n_models)
        rating = _anchored(theta, anchor, elo, mean)
        return _summarise(rating, gid, a, b, level, n_resamples)

    return run


def _multinomial(
    gid: np.ndarray, count: np.ndarray, n_groups: int, n_resamples: int, seed: int
) -> list[np.ndarray]:
    """Per replicate, the resampled count of every row: a multinomial draw of each group's
    total over its rows (probabilities = the observed shares), all groups and replicates in
    one ``Generator.multinomial`` call (rows padded to the longest group)."""
    starts = np.searchsorted(gid, np.arange(n_groups))
    slot = np.arange(gid.size) - starts[gid]
    width = int(slot.max()) + 1
    totals = np.bincount(gid, count, n_groups)
    pvals = np.zeros((n_groups, width))
    pvals[gid, slot] = count / totals[gid]
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(totals.astype(np.int64), pvals, size=(n_resamples, n_groups))
    return [draws[r][gid, slot].astype(np.float64) for r in range(n_resamples)]


def _anchored(theta: np.ndarray, anchor: np.ndarray, elo: float, mean: float) -> np.ndarray:
    """Elo ratings (replicates, groups, M): mean at ``mean`` (θ has mean 0 over a block's
    models), or the group's anchor model at ``mean``."""
    rating = elo * theta
    groups = np.arange(anchor.size)
    pinned = anchor >= 0
    at = np.where(pinned, anchor, 0)
    shift = np.where(pinned[None, :], rating[:, groups, at], 0.0)
    return rating - shift[:, :, None] + mean


def _summarise(
    rating: np.ndarray,
    gid: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    level: float,
    n_resamples: int,
) -> pl.DataFrame:
    n_groups, n_models = rating.shape[1], rating.shape[2]
    exists = np.zeros((n_groups, n_models), dtype=bool)
    exists[gid, a] = True
    exists[gid, b] = True
    estimate = rating[0]
    tail = (1.0 - level) / 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices: undefined → null
        if n_resamples > 0:
            reps = rating[1:]
            low = np.nanquantile(reps, tail, axis=0)
            high = np.nanquantile(reps, 1.0 - tail, axis=0)
            ranks = _ranks(reps)
            rank_low = np.nanquantile(ranks, tail, axis=0, method="lower")
            rank_high = np.nanquantile(ranks, 1.0 - tail, axis=0, method="higher")
            beats = low[:, None, :] > high[:, :, None]  # [g, i, j]: j's lower > i's upper
            rank = 1.0 + beats.sum(axis=2)
        else:
            low = high = rank_low = rank_high = np.full_like(estimate, np.nan)
            rank = _ranks(estimate[None])[0]
    rank = np.where(np.isnan(estimate), np.nan, rank)
    g, m = np.nonzero(exists)
    columns = {
        "__fe_gid": g,
        "__fe_code": m,
        "rating": estimate[g, m],
        "ci_low": low[g, m],
        "ci_high": high[g, m],
        "rank": rank[g, m],
        "rank_low": rank_low[g, m],
        "rank_high": rank_high[g, m],
    }
    out = pl.DataFrame(columns).with_columns(pl.col(pl.Float64).fill_nan(None))
    return out.cast(_FIT_SCHEMA)  # type: ignore[arg-type]


def _ranks(rating: np.ndarray) -> np.ndarray:
    """1 + the number of models of the block rated strictly higher (NaN for a missing
    rating)."""
    above = rating[..., None, :] > rating[..., :, None]  # [.., i, j]: j above i
    return np.where(np.isnan(rating), np.nan, 1.0 + above.sum(axis=-1))


def _outcome_counts(
    counts: pl.LazyFrame, groups: list[str], a: str, b: str, winner: str, ties: str
) -> pl.LazyFrame:
    """Battle counts per (group, a, b, outcome): both ties are one outcome."""
    outcome = pl.col(winner).replace_strict(WINNERS, default=None, return_dtype=pl.Int8)
    counts = (
        counts.with_columns(outcome.alias("__fe_outcome"))
        .group_by([*groups, a, b, "__fe_outcome"])
        .agg(pl.col("__fe_count").sum())
    )
    if ties == "drop":
        counts = counts.filter(pl.col("__fe_outcome") != 2)
    return counts


def _models(counts: pl.LazyFrame, groups: list[str], a: str, b: str) -> pl.LazyFrame:
    """One row per (group, model): its battles, its code in the group and the group's code."""
    sides = [
        counts.select(*groups, pl.col(a).alias("model"), "__fe_count"),
        counts.select(*groups, pl.col(b).alias("model"), "__fe_count"),
    ]
    models = (
        pl.concat(sides)
        .group_by([*groups, "model"])
        .agg(pl.col("__fe_count").sum().alias("n_battles"))
    )
    return models.with_columns(
        (pl.col("model").rank("dense").over(groups) - 1).cast(pl.Int64).alias("__fe_code"),
        (pl.struct(groups).rank("dense") - 1).cast(pl.Int64).alias("__fe_gid"),
    )


def _anchors(
    models: pl.LazyFrame, func: str, keys: list[str], groups: list[str], anchor: Any
) -> tuple[pl.LazyFrame, float]:
    """Each group's anchored model code (-1: none) and the mean of the ratings."""
    mean = 1000.0
    anchor_model = None
    if anchor is not None and not isinstance(anchor, int | float):
        anchor_model, mean = anchor[0], float(anchor[1])
    elif anchor is not None:
        mean = float(anchor)
    flag = pl.lit(False) if anchor_model is None else pl.col("model") == pl.lit(anchor_model)
    anchors = models.group_by(groups).agg(
        pl.col("__fe_gid").first(),
        pl.col("__fe_code").filter(flag).first().fill_null(-1).alias("__fe_anchor"),
    )
    if anchor_model is not None:
        anchors = enforce(
            anchors,
            failure(
                pl.col("__fe_anchor") < 0,
                UnknownLabelError,
                f"{func}(): anchor model {anchor_model!r} must have a battle in every group, "
                "got none{}.",
                group_text(keys),
            ),
        )
    return anchors, mean


def _fit_battles(
    lf: pl.LazyFrame,
    func: str,
    keys: list[str],
    a: str,
    b: str,
    winner: str,
    ties: str,
    n_resamples: int,
    seed: int,
    level: float,
    elo: float,
    anchor: Any,
) -> pl.LazyFrame:
    """The plan: checks and de-duplication in Polars, the fit as one batch step."""
    schema = lf.collect_schema()
    for role, column in (("a", a), ("b", b)):
        if not is_label_dtype(schema[column]):
            raise InvalidDtypeError(
                f"{func}(): column {column!r} ({role}=) must hold model names (string, "
                f"categorical or integer), got {schema[column]}."
            )
    wdtype = schema[winner]
    if not (wdtype == pl.String or isinstance(wdtype, pl.Categorical | pl.Enum)):
        raise InvalidDtypeError(
            f"{func}(): column {winner!r} (winner=) must be a string column holding "
            f"{list(WINNERS)}, got {wdtype}."
        )
    groups = keys or [ALL]
    if not keys:
        lf = lf.with_columns(pl.lit(0, dtype=pl.Int8).alias(ALL))
    model_a, model_b = pl.col(a), pl.col(b)
    if isinstance(schema[a], pl.Categorical | pl.Enum) or isinstance(
        schema[b], pl.Categorical | pl.Enum
    ):
        model_a, model_b = model_a.cast(pl.String), model_b.cast(pl.String)
    lf = lf.with_columns(model_a.alias(a), model_b.alias(b), pl.col(winner).cast(pl.String))

    checks = BATTLES.compile(schema, func, a=a, b=b, winner=winner)
    checks.rule(
        pl.col(winner).is_in(list(WINNERS)).not_(),
        UnknownLabelError,
        f"column {winner!r} (winner=) must hold only {list(WINNERS)}, got",
        example=pl.col(winner),
    )
    checks.rule(
        pl.col(a) == pl.col(b),
        InvalidValueError,
        f"a battle needs two different models (columns {a!r} and {b!r}), got",
        example=pl.col(a).cast(pl.String),
    )
    counts = lf.group_by([*groups, a, b, winner]).agg(
        pl.len().cast(pl.Int64).alias("__fe_count"), *checks.aggs()
    )
    counts = checks.enforce(counts, groups)
    counts = _outcome_counts(counts, groups, a, b, winner, ties)
    models = _models(counts, groups, a, b)
    anchors, mean = _anchors(models, func, keys, groups, anchor)
    code = models.select(*groups, "model", "__fe_code")
    table = counts.join(
        code.rename({"model": a, "__fe_code": "__fe_a"}), on=[*groups, a], nulls_equal=True
    ).join(code.rename({"model": b, "__fe_code": "__fe_b"}), on=[*groups, b], nulls_equal=True)
    table = table.join(anchors, on=groups, how="inner", nulls_equal=True).select(
        "__fe_gid", "__fe_a", "__fe_b", "__fe_outcome", "__fe_count", "__fe_anchor"
    )
    run = _fitter(n_resamples, seed, level, elo, ties, mean)
    fitted = table.map_batches(run, schema=_FIT_SCHEMA)
    out = models.join(fitted, on=["__fe_gid", "__fe_code"], how="left")
    out = out.select(*keys, *OUTPUTS).sort(
        [*keys, "rating", "model"], descending=[False] * len(keys) + [True, False], nulls_last=True
    )
    return out


@frame_function
def bradley_terry(
    battles: IntoFrame,
    *,
    a: str = "model_a",
    b: str = "model_b",
    winner: str = "winner",
    by: Keys = None,
    ties: Literal["half", "drop"] = "half",
    n_resamples: int = 100,
    seed: int = 0,
    ci: float = 0.95,
    scale: float = 400.0,
    base: float = 10.0,
    anchor: float | tuple[Any, float] | None = None,
) -> Frame:
    """Bradley–Terry ratings on the Elo scale from pairwise battles, with bootstrap intervals
    and rank intervals (the Chatbot Arena leaderboard).

    Parameters
    ----------
    battles
        One row per battle (``by`` keys, model a, model b, winner).
    a, b
        Columns naming the two models of a battle (model names: string, categorical or
        integer).
    winner
        Column with the outcome: ``"model_a"``, ``"model_b"``, ``"tie"`` or ``"tie (bothbad)"``
        (FastChat's spelling; both ties are ties). Any other value is an error.
    by
        Key column(s): one leaderboard per group (each fitted on its own battles).
    ties
        ``"half"`` (default): a tie is half a win for each model (FastChat); ``"drop"``: ties
        are left out.
    n_resamples
        Bootstrap replicates (0: no interval; the rank is then the rank of the estimate).
    seed
        Integer seed of the bootstrap (numpy's ``default_rng``).
    ci
        Confidence level of the percentile intervals.
    scale, base
        The Elo scale: rating = scale · log_base(strength), so a model rated ``scale`` points
        higher wins with odds ``base`` : 1 (400 and 10, as chess and Chatbot Arena).
    anchor
        None (default): ratings have mean 1000 in each group (FastChat's initial rating, and
        the fit it starts from); a number: that mean instead; ``(model, rating)``: that model
        is pinned at that rating (FastChat pins ``("mixtral-8x7b-instruct-v0.1", 1114)``) —
        in every bootstrap replicate too, so its own interval has width 0.

    Returns
    -------
    Same kind as ``battles``: ``*by, model, rating, ci_low, ci_high, rank, rank_low,
    rank_high, n_battles``, one row per group and model, sorted by the keys and then by
    rating (best first).

    * ``rating`` — the maximum-likelihood Elo rating (Float64).
    * ``ci_low``, ``ci_high`` — percentile interval of the rating over the bootstrap replicates.
    * ``rank`` — 1 + the number of models whose ``ci_low`` exceeds this model's ``ci_high``
      (Chatbot Arena's rank: models that are better beyond doubt).
    * ``rank_low``, ``rank_high`` — percentile interval of the model's rank (1 + models rated
      higher) over the replicates (the lower and higher order statistics: integers).
    * ``n_battles`` — battles of the model in the group (ties left out with ``ties="drop"``).

    Notes
    -----
    The model: P(a beats b) = 1 / (1 + base^((R_b − R_a)/scale)). With θ = R · ln(base)/scale
    this is a logistic regression without intercept on the design x = e_a − e_b, a tie
    entering as half a win of each side. The battles are first de-duplicated into counts per
    (group, a, b, outcome) with Polars; the fit then runs on that table (its size is the number
    of pairs, not of battles): Newton's method on the concave log-likelihood, all groups and
    replicates in one batched solve.

    The bootstrap (FastChat PR #3523) redraws each group's battle counts from a multinomial
    with the observed shares and the observed total (``numpy.random.Generator.multinomial``,
    all groups and replicates in one call) and refits. Replicates of one seed depend on the
    groups (in key order) and the battles, not on the row order.

    Undefined (null): the MLE does not exist when the battles of a group do not connect every
    model in both directions (a model that won, or lost, all its battles; Zermelo 1929,
    Ford 1957) — its ratings are then null. A replicate where that happens is left out of the
    intervals; a model absent from a replicate has no rating in it.

    References
    ----------
    Bradley & Terry (1952), "Rank analysis of incomplete block designs: I", Biometrika 39.
    Zermelo (1929), Mathematische Zeitschrift 29. Chiang et al. (2024), "Chatbot Arena: an open
    platform for evaluating LLMs by human preference", ICML. FastChat,
    ``fastchat/serve/monitor/elo_analysis.py``.

    See Also
    --------
    bradley_terry_from_items : battles from per-item scores.

    Examples
    --------
    >>> battles = pl.DataFrame({
    ...     "model_a": ["x", "x", "y", "y", "z", "z"],
    ...     "model_b": ["y", "z", "z", "x", "x", "y"],
    ...     "winner": ["model_a", "model_a", "tie", "model_a", "model_b", "model_a"],
    ... })
    >>> out = fe.ratings.bradley_terry(battles, n_resamples=20)
    >>> out["model"].to_list(), out["rating"].round(1).to_list()
    (['x', 'y', 'z'], [1127.2, 936.4, 936.4])
    """
    func = "bradley_terry"
    n, level, elo, anchor = _check_options(func, ties, n_resamples, seed, ci, scale, base, anchor)
    door = (BATTLES + Inputs(Column("by"), distinct=True)).open(
        battles, func, a=a, b=b, winner=winner, by=by
    )
    lf, eager, keys = door.lf, door.eager, door.keys
    clash = sorted(set(keys) & set(OUTPUTS))
    check_parameter(not clash, func, f"by= keys must not use output column names, got {clash}.")
    out = _fit_battles(lf, func, keys, a, b, winner, ties, n, int(seed), level, elo, anchor)
    return finish(out, eager)


@frame_function
def bradley_terry_from_items(
    data: IntoFrame,
    score: str,
    *,
    model: str = "model",
    item: str = "item",
    by: Keys = None,
    ties: Literal["half", "drop"] = "half",
    n_resamples: int = 100,
    seed: int = 0,
    ci: float = 0.95,
    scale: float = 400.0,
    base: float = 10.0,
    anchor: float | tuple[Any, float] | None = None,
) -> Frame:
    """Bradley–Terry ratings from per-item scores: each item two models share is a battle.

    For every ``by`` group and item, every pair of models that both have a score on it plays
    one battle: the higher score wins, equal scores tie. The battles are built with a Polars
    self-join and rated by :func:`bradley_terry`.

    Parameters
    ----------
    data
        Long per-item table, one row per (``by`` keys, item, model) — average repeated samples
        first (e.g. with ``group_by().agg(pl.col(score).mean())``).
    score
        Numeric column, larger = better (correct = 1, a judge's grade…).
    model, item
        Columns naming the model and the item.
    by, ties, n_resamples, seed, ci, scale, base, anchor
        As in :func:`bradley_terry`.

    Returns
    -------
    As :func:`bradley_terry`: ``*by, model, rating, ci_low, ci_high, rank, rank_low,
    rank_high, n_battles``.

    Notes
    -----
    A battle is (model a, model b) with a < b in the models' sort order; the likelihood does
    not depend on which side is "a". With 0/1 scores most battles tie (both right or both
    wrong): ``ties="half"`` counts them (pulling ratings together), ``ties="drop"`` rates on
    the items that separate the two models only.

    Examples
    --------
    >>> df = pl.DataFrame({
    ...     "model": ["x", "y", "z"] * 3,
    ...     "item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    ...     "correct": [1, 0, 1, 1, 1, 0, 0, 1, 0],
    ... })
    >>> fe.ratings.bradley_terry_from_items(df, "correct", n_resamples=0)["n_battles"].to_list()
    [6, 6, 6]
    """
    func = "bradley_terry_from_items"
    n, level, elo, anchor = _check_options(func, ties, n_resamples, seed, ci, scale, base, anchor)
    door = ITEMS.open(data, func, score=score, model=model, item=item, by=by)
    lf, eager, keys, checks = door.lf, door.eager, door.keys, door.checks
    clash = sorted(set(keys) & {*OUTPUTS, "model_a", "model_b", "winner"})
    check_parameter(not clash, func, f"by= keys must not use output column names, got {clash}.")
    at = [*keys, item, model]
    scores = lf.group_by(at).agg(
        pl.col(score).first().alias("__fe_s"), pl.len().alias("__fe_rows"), *checks.aggs()
    )
    place = pl.concat_str(
        [pl.format(f"{c}={{}}", pl.col(c).cast(pl.String).fill_null("null")) for c in at],
        separator=", ",
    )
    scores = checks.enforce(
        scores,
        at,
        failure(
            pl.col("__fe_rows") > 1,
            DuplicateKeyError,
            f"{func}(): rows must be unique per {at} (one score per model and item), got {{}} "
            "rows for {}.\nHint: average repeated samples first.",
            pl.col("__fe_rows"),
            place,
        ),
        one_row=True,
    )
    on = [*keys, item]
    left = scores.select(*on, pl.col(model).alias("model_a"), pl.col("__fe_s").alias("__fe_sa"))
    right = scores.select(*on, pl.col(model).alias("model_b"), pl.col("__fe_s").alias("__fe_sb"))
    pairs = left.join(right, on=on, how="inner", nulls_equal=True).filter(
        pl.col("model_a") < pl.col("model_b")
    )
    sa, sb = pl.col("__fe_sa"), pl.col("__fe_sb")
    result = (
        pl.when(sa > sb).then(pl.lit("model_a")).when(sa < sb).then(pl.lit("model_b"))
    ).otherwise(pl.lit("tie"))
    battles = pairs.select(*keys, "model_a", "model_b", result.alias("winner"))
    out = _fit_battles(
        battles, func, keys, "model_a", "model_b", "winner", ties, n, int(seed), level, elo, anchor
    )
    return finish(sort_by_keys(out, []), eager)
