"""The shared steps of :mod:`frameeval.items`: the door checks, the per-item table (the K
answers of an item averaged), the per-model sums and the per-cluster sums.

Every statistic of the package is built from three mergeable tables:

* the **item table** — one row per ``*by, model, item``: ``__x`` (the item's mean score over its
  answers), ``__k`` (its number of answers), ``__ss`` (the within-item sum of squared
  deviations), ``__xc`` (``__x`` minus the model's mean: centred, so that variances and
  covariances are sums of products without cancellation) and the cluster;
* the **model table** — one row per ``*by, model``: counts and sums over its items, with the
  data checks of the input enforced in the plan;
* the **cluster table** — one row per ``*by, model, cluster``: the sum of the centred item
  values of the cluster, ``__e`` = Σ_{i∈c}(x_i − x̄), and its number of items ``__nc``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from frameeval._frame import translate
from frameeval._inputs import Column, Inputs
from frameeval._params import ALPHA, COUNT, INSIDE_UNIT, Number
from frameeval._validate import Checks, check_parameter, enforce, failure, group_text
from frameeval.compare.door import check_outputs, open_frame
from frameeval.compare.scipy_step import scipy_step
from frameeval.exceptions import DuplicateKeyError, InsufficientDataError, InvalidValueError
from frameeval.uncertainty.intervals import poisson_draw

__all__ = [
    "Design",
    "OneOf",
    "SCALARS",
    "cluster_table",
    "complete_items",
    "finish_items",
    "item_table",
    "model_table",
    "open_design",
    "replicate_means",
    "t_quantiles",
]

MODEL = "__model"  # the model column as compared (categoricals as strings)
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass(frozen=True)
class Design:
    """An item-level study as given: the frame and the roles of its columns."""

    func: str
    lf: pl.LazyFrame
    eager: bool
    keys: list[str]
    model: str
    item: str
    score: str
    cluster: str | None
    sample: str | None
    schema: pl.Schema

    @property
    def roles(self) -> dict[str, str | None]:
        """The role columns by keyword (``score=``, ``model=``…)."""
        return {r: getattr(self, r) for r in ("score", "model", "item", "cluster", "sample")}

    @property
    def unit(self) -> str:
        """The column the resampling and the clustered SE treat as independent units."""
        return self.cluster if self.cluster is not None else self.item


_KEYS = (
    Column("model", "any", "not_null", required=True),
    Column("item", "any", "not_null", required=True),
    Column("cluster", "any", "not_null"),
    Column("sample", "any", "not_null"),
)
#: the columns of an item table: a finite score per model and item (and cluster, sample)
ITEMS = Inputs(Column("score", "numeric", "finite", required=True), *_KEYS, distinct=True)
#: the same, the score a proportion in [0, 1] (Wilson's interval)
PROPORTIONS = Inputs(
    Column("score", "numeric", "finite", "unit", required=True), *_KEYS, distinct=True
)


@dataclass(frozen=True)
class OneOf:
    """A choice among ``allowed`` values (``method=``, ``adjust=``)."""

    allowed: Sequence[Any]

    def __call__(self, func: str, name: str, value: Any) -> Any:
        shown = ", ".join(repr(a) for a in self.allowed)
        check_parameter(
            value in self.allowed, func, f"{name} must be one of {shown}, got {value!r}."
        )
        return value


_ANSWERS = Number(low=1, integer=True, none=True, text="an integer >= 1")
#: the scalar arguments of the item functions in the order they are checked, each with its
#: rule (:mod:`frameeval._params`); a function names its choices (``method=``, ``adjust=``)
SCALARS: dict[str, Callable[[str, str, Any], Any] | None] = {
    "level": ALPHA,
    "alpha": ALPHA,
    "method": None,
    "adjust": None,
    "power": INSIDE_UNIT,
    "difference": Number(low=0.0, closed="neither", none=True, text="a number > 0"),
    "n_resamples": COUNT,
    "seed": Number(low=0, integer=True),
    "at_samples": _ANSWERS,  # answers per item to plan for: needs sample=
    "samples": _ANSWERS,
}


def open_design(
    func: str, arguments: dict[str, Any], outputs: Sequence[str], **choices: OneOf
) -> tuple[Design, dict[str, Any]]:
    """The door of an item function, given its arguments (``locals()``): the scalar arguments
    checked by :data:`SCALARS` (and ``choices``) with what they need (``at_samples=`` and
    ``samples=`` need ``sample=``, ``method="clustered"`` needs ``cluster=``), then the frame
    opened and its schema checked (free: no data is read). Returns the design and the checked
    scalars."""
    checked = {}
    for name, rule in {**SCALARS, **choices}.items():  # loop-ok: a few scalar arguments
        if name not in arguments or rule is None:
            continue
        checked[name] = rule(func, name, arguments[name])
        if name in ("at_samples", "samples") and arguments[name] is not None:
            check_parameter(
                arguments["sample"] is not None, func, f"{name}= needs sample=, got sample=None."
            )
    check_parameter(
        arguments.get("method") != "clustered" or arguments["cluster"] is not None,
        func,
        "method='clustered' needs cluster= (the column of item clusters), got cluster=None.",
    )
    lf, eager, keys, schema = open_frame(arguments["data"], func, arguments["by"])
    roles: dict[str, Any] = {
        r: arguments.get(r) for r in ("score", "model", "item", "cluster", "sample")
    }
    ITEMS.compile(schema, func, by=keys, **roles)
    check_outputs(func, keys, outputs)
    return Design(func, lf, eager, keys, schema=schema, **roles), checked


def _model_expr(design: Design) -> pl.Expr:
    dtype = design.schema[design.model]
    column = pl.col(design.model)
    if isinstance(dtype, pl.Categorical | pl.Enum):
        column = column.cast(pl.String)
    return column.alias(MODEL)


def _row_checks(design: Design, proportion: bool) -> Checks:
    inputs = PROPORTIONS if proportion else ITEMS
    return inputs.compile(design.schema, design.func, **design.roles)


def item_table(design: Design, *, proportion: bool = False) -> tuple[pl.LazyFrame, Checks]:
    """``*by, __model, <item>, [<cluster>], __x, __k, __ss, __odd, __dup, __split`` and the
    row checks' counts (see :class:`frameeval._validate.Checks`), one row per model and item.
    Without ``sample=`` the rows themselves (one per model and item: no grouping pass), with
    the input columns kept for the checks that :func:`model_table` then takes per model.

    ``__odd`` counts answers other than 0 and 1 (a 0/1 score makes McNemar's and Wilson's
    methods available); ``__dup`` counts repeated answers (two rows for one model and item
    without ``sample=``, or one sample twice); ``__split`` counts extra clusters of the item.
    ``proportion``: the score must lie in [0, 1] (Wilson's interval)."""
    checks = _row_checks(design, proportion)
    score = pl.col(design.score).cast(pl.Float64)
    odd = ~score.is_in([0.0, 1.0]) & score.is_not_null()
    if design.sample is None:
        # one row per model and item: the rows are the item table (no grouping pass); the row
        # checks and the repeated-row count are taken per model by :func:`model_table`
        keep = [*design.keys, design.model, design.item, design.score]
        keep += [design.cluster] if design.cluster is not None else []
        items = design.lf.select(list(dict.fromkeys(keep))).with_columns(
            _model_expr(design),
            score.alias("__x"),
            pl.lit(1, dtype=pl.Int64).alias("__k"),
            pl.lit(0.0).alias("__ss"),
            odd.cast(pl.Int64).alias("__odd"),
            pl.lit(0, dtype=pl.Int64).alias("__split"),
        )
    else:
        k = pl.len().cast(pl.Int64)
        # Σ(s − s̄)² = Σs² − (Σs)²/K: plain sums keep Polars' fast grouped path (K is small)
        ss = (score.pow(2).sum() - score.sum().pow(2) / k.cast(pl.Float64)).clip(lower_bound=0.0)
        aggs = [
            score.mean().alias("__x"),
            k.alias("__k"),
            ss.alias("__ss"),
            odd.sum().cast(pl.Int64).alias("__odd"),
            (k - pl.col(design.sample).n_unique().cast(pl.Int64)).alias("__dup"),
            *checks.aggs(),
        ]
        if design.cluster is not None:
            aggs.append(pl.col(design.cluster).first())
            aggs.append((pl.col(design.cluster).n_unique() - 1).cast(pl.Int64).alias("__split"))
        else:
            aggs.append(pl.lit(0, dtype=pl.Int64).alias("__split"))
        items = (
            design.lf.with_columns(_model_expr(design))
            .group_by([*design.keys, MODEL, design.item])
            .agg(aggs)
        )
    mean = pl.col("__x").mean().over([*design.keys, MODEL])
    return items.with_columns((pl.col("__x") - mean).alias("__xc")), checks


def _cluster_guard(design: Design, count: str, rule: str, items: str, where: pl.Expr) -> pl.Expr:
    """The items counted in ``count`` break the ``cluster=`` rule: a typed error."""
    return failure(
        pl.col(count) > 0,
        InvalidValueError,
        f"{design.func}(): column {design.cluster!r} (cluster=) must {rule}, got {{}} items "
        f"{items}{{}}.",
        pl.col(count),
        where,
    )


def _model_guards(design: Design) -> list[pl.Expr]:
    where = group_text([*design.keys, design.model])
    rows = f"{[*design.keys, design.model, design.item]}"
    if design.sample is None:
        dup_rule = (
            f"{design.func}(): rows must be unique per {rows} (one score per model and item; "
            "pass sample= for several answers per item), got {} repeated rows{}."
        )
    else:
        dup_rule = (
            f"{design.func}(): rows must be unique per "
            f"{[*design.keys, design.model, design.item, design.sample]} (one answer per "
            "sample), got {} repeated rows{}."
        )
    guards = [failure(pl.col("__dup") > 0, DuplicateKeyError, dup_rule, pl.col("__dup"), where)]
    if design.cluster is not None:
        guards.append(
            _cluster_guard(
                design, "__split", "be constant within an item", "in more than one cluster", where
            )
        )
    return guards


def model_table(
    design: Design, items: pl.LazyFrame, checks: Checks, *extra: pl.Expr
) -> pl.LazyFrame:
    """``*by, __model, n_items, __sum, __var, __kmean, __kmax, __inv_k, __within, __odd`` and
    ``extra`` aggregations, one row per model, with every data check enforced in its plan.

    ``__var`` is the sample variance (ddof = 1) of the item means, ``__within`` the mean of the
    within-item variances (ddof = 1) over the items with two or more answers, ``__inv_k`` the
    mean of 1/K_i."""
    k = pl.col("__k").cast(pl.Float64)
    within = (pl.col("__ss") / (k - 1.0)).filter(pl.col("__k") > 1)
    # one row per item (no sample=): the row checks aggregate the rows themselves
    repeated = pl.len().cast(pl.Int64) - pl.col(design.item).n_unique().cast(pl.Int64)
    rows_checks = [repeated.alias("__dup"), *checks.aggs()]
    aggs = [
        pl.len().cast(pl.Int64).alias("n_items"),
        pl.col("__x").sum().alias("__sum"),
        pl.col("__xc").pow(2).sum().alias("__sxx"),
        k.mean().alias("__kmean"),
        pl.col("__k").max().alias("__kmax"),
        (1.0 / k).mean().alias("__inv_k"),
        within.mean().alias("__within"),
        pl.col("__odd").sum().alias("__odd"),
        pl.col("__split").sum().alias("__split"),
        *(
            rows_checks
            if design.sample is None
            else [pl.col("__dup").sum().alias("__dup"), *checks.merge()]
        ),
        *extra,
    ]
    table = items.group_by([*design.keys, MODEL]).agg(aggs)
    # the errors name the group by the user's column names
    named = [*design.keys, design.model]
    table = checks.enforce(
        table.rename({MODEL: design.model}), named, *_model_guards(design), one_row=True
    ).rename({design.model: MODEL})
    n = pl.col("n_items").cast(pl.Float64)
    return table.with_columns(
        (pl.col("__sum") / n).alias("__mean"),
        pl.when(n > 1).then(pl.col("__sxx") / (n - 1.0)).alias("__var"),
    ).drop("__dup", "__split")


def complete_items(design: Design, items: pl.LazyFrame, models: pl.LazyFrame) -> pl.LazyFrame:
    """``models`` with a check in its plan: every model of a ``by`` group has a score on every
    item of the group (the items of the union over its models), and — with ``cluster=`` — each
    item lies in one cluster for all models. A model missing items is an
    :class:`~frameeval.exceptions.InsufficientDataError` naming the model, the group and how
    many items it lacks; nothing is dropped silently."""
    keys = design.keys
    per_item = [pl.len().alias("__m")]
    if design.cluster is not None:
        per_item.append(pl.col(design.cluster).n_unique().alias("__cl"))
    union = items.group_by([*keys, design.item]).agg(per_item)
    aggs = [pl.len().cast(pl.Int64).alias("__union")]
    if design.cluster is not None:
        aggs.append((pl.col("__cl") > 1).sum().cast(pl.Int64).alias("__mixed"))
    union = union.group_by(keys).agg(aggs) if keys else union.select(aggs)
    joined = (
        models.join(union, on=keys, how="left", nulls_equal=True)
        if keys
        else models.join(union, how="cross")
    )
    missing = pl.col("__union") - pl.col("n_items")
    guards = [
        failure(
            missing > 0,
            InsufficientDataError,
            f"{design.func}(): every model must have a score on every item of its group (paired "
            f"comparisons use the items all models share), got model {design.model}={{}} "
            f"missing {{}} of {{}} items{{}}.",
            pl.col(MODEL),
            missing,
            pl.col("__union"),
            group_text(keys),
        )
    ]
    if design.cluster is not None:
        guards.append(
            _cluster_guard(
                design,
                "__mixed",
                "give an item the same cluster for every model",
                "with several clusters",
                group_text(keys),
            )
        )
    extra = ["__union", "__mixed"] if design.cluster is not None else ["__union"]
    return enforce(joined, *guards).drop(extra)


def cluster_table(design: Design, items: pl.LazyFrame) -> pl.LazyFrame:
    """``*by, __model, <unit>, __e, __nc``: per cluster (the items themselves without
    ``cluster=``) the sum of the centred item values and the number of items."""
    return items.group_by([*design.keys, MODEL, design.unit]).agg(
        pl.col("__xc").sum().alias("__e"),
        pl.col("__x").sum().alias("__s"),
        pl.len().cast(pl.Int64).alias("__nc"),
    )


def replicate_means(
    design: Design, clusters: pl.LazyFrame, n_resamples: int, seed: int
) -> pl.LazyFrame:
    """``*by, __model, __b, __rep``: the mean of every model in each of ``n_resamples`` cluster
    bootstrap replicates (the Poisson bootstrap: each cluster's weight in a replicate is an
    independent Poisson(1) count, Hanley & MacGibbon 2006; Chamandy et al. 2012).

    The weight of a cluster depends on the ``by`` group, the cluster and the replicate — not on
    the model — so the replicates are *paired*: the models of a group are resampled on the same
    clusters (what a rank interval needs). A replicate with no cluster drawn has a null mean."""
    keys, unit = design.keys, design.unit
    units = clusters.select([*keys, unit]).unique()
    reps = pl.LazyFrame({"__b": pl.Series(range(n_resamples), dtype=pl.UInt64)})
    word = pl.struct([*keys, unit]).hash(seed) + pl.col("__b") * pl.lit(_GOLDEN, pl.UInt64)
    drawn = units.join(reps, how="cross").with_columns(
        word.alias("__word"), pl.lit(1, dtype=pl.Int64).alias("__one")
    )
    drawn = poisson_draw(drawn, "__word", "__one", "__w").drop("__word", "__one")
    joined = clusters.join(drawn, on=[*keys, unit], how="inner", nulls_equal=True)
    total = (pl.col("__w") * pl.col("__nc").cast(pl.Float64)).sum()
    value = (pl.col("__w") * pl.col("__s")).sum() / total
    return joined.group_by([*keys, MODEL, "__b"]).agg(pl.when(total > 0).then(value).alias("__rep"))


def t_quantiles(frame: pl.LazyFrame, df: str, level: float, out: str) -> pl.LazyFrame:
    """``out`` = the (1 + level)/2 quantile of Student's t on ``df`` degrees of freedom (an
    infinite ``df`` gives the normal quantile), one vectorised scipy call."""
    from scipy import stats

    return scipy_step(frame, lambda d: {out: stats.t.ppf(0.5 + level / 2.0, d)}, [df], [out])


def finish_items(lf: pl.LazyFrame, eager: bool) -> pl.DataFrame | pl.LazyFrame:
    """Collect an eager input's result on Polars' streaming engine (the self-join of the paired
    comparisons runs in bounded memory there), translating failed checks to typed errors."""
    if not eager:
        return lf
    try:
        return lf.collect(engine="streaming")
    except pl.exceptions.PolarsError as err:
        translated = translate(err)
        if translated is None:
            raise
        raise translated from None
