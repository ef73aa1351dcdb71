"""Per-group values and the gaps between groups: :func:`by_group`, :func:`gaps`,
:func:`compare_gaps` (fairlearn's ``MetricFrame`` and fairness functions, as grouped Polars
passes over every ``by`` group at once, with bootstrap intervals that keep every group)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from frameeval._extensions import provider
from frameeval._frame import as_keys, collect, finish, is_dask, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import CI, NUMPY_SEED, RESAMPLES
from frameeval._typing import Frame, Keys, frame_function
from frameeval._validate import Checks, check_alpha, check_parameter
from frameeval.compare.multiple import step_down
from frameeval.measure_set import measures as measure_set
from frameeval.metrics.measure import Measure
from frameeval.subgroups._measures import FAIRNESS, components, resolve

__all__ = ["by_group", "compare_gaps", "gaps"]

#: the gap columns, each with an interval under ``ci=``
GAPS = ("difference", "ratio", "difference_to_overall", "ratio_to_overall")
_B = "__fe_b"
_RW = "__fe_rw"
_MASK = (1 << 64) - 1


#: the columns every subgroup function reads (their dtypes are the measures' business)
SENSITIVE = Inputs(Column("sensitive", "any", "not_null", several=True))
#: the columns of the subgroup functions (model= and instance= of gaps / compare_gaps are
#: compiled after the shared door)
SUBGROUPS = (
    Inputs(Column("truth"), Column("pred"), Column("score"), Column("weight"), Column("by"))
    + SENSITIVE
    + Inputs(Column("model"), Column("instance"))
)


# ---------------------------------------------------------------------------------------------
# the door
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Study:
    """One call's frame and roles, checked once by :func:`_open`; ``keys`` = ``*by,
    *control``, ``groups`` the sensitive columns, ``names`` the rows asked for and ``needed``
    the per-group measures they read."""

    func: str
    lf: pl.LazyFrame
    eager: bool
    keys: list[str]
    groups: list[str]
    truth: str
    pred: str | None
    score: str | None
    weight: str | None
    pos_label: Any
    names: list[str]
    needed: list[Measure]

    def measures(self, lf: pl.LazyFrame, by: list[str], **options: Any) -> pl.LazyFrame:
        """``fe.measures`` of the needed measures on ``lf`` by ``by``, long form."""
        common = dict(measures=self.needed, pos_label=self.pos_label, long=True)
        out: pl.LazyFrame = measure_set(
            lf, self.truth, self.pred, options.pop("score", self.score), by=by or None,
            **common, **{"weight": self.weight, **options},
        )  # fmt: skip
        return out


def _open(func: str, arguments: dict[str, Any]) -> _Study:
    """The checks shared by the entry points, on their ``arguments`` (``locals()``)."""
    a = arguments
    lf, eager = to_lazy(a["data"], func)
    groups = as_keys(a["sensitive"])
    check_parameter(
        bool(groups), func, f"sensitive= must name one column or more, got {a['sensitive']!r}."
    )
    keys = [*as_keys(a["by"]), *as_keys(a["control"])]
    roles: dict[str, Any] = {r: a.get(r) for r in ("truth", "pred", "score", "weight")}
    SUBGROUPS.compile(lf.collect_schema(), func, **roles, by=keys, sensitive=groups)
    both = sorted(set(keys) & set(groups))
    check_parameter(
        not both, func, f"sensitive= columns must differ from by= and control=, got {both}."
    )
    read = sorted({c for c in roles.values() if c is not None} & set(groups))
    check_parameter(
        not read,
        func,
        f"sensitive= columns must differ from the truth, pred, score and weight columns, "
        f"got {read}.",
    )
    outputs = {"measure", "value", "low", "high", "n", "undefined", *GAPS}
    clash = sorted(set(keys + groups) & outputs)
    check_parameter(not clash, func, f"by= and sensitive= must not use output names, got {clash}.")
    names, needed = resolve(func, a["measures"], a["pred"], a.get("score"))
    return _Study(func, lf, eager, **roles, keys=keys, groups=groups, names=names,
                  needed=needed, pos_label=a["pos_label"])  # fmt: skip


def _group_label(groups: list[str]) -> pl.Expr:
    """One text per group: its value (one sensitive column) or ``col=value, …`` (several)."""
    if len(groups) == 1:
        return pl.col(groups[0]).cast(pl.String)
    return pl.concat_str(
        [pl.format(f"{g}={{}}", pl.col(g).cast(pl.String)) for g in groups], separator=", "
    )


def _sensitive_checks(func: str, groups: list[str], lf: pl.LazyFrame) -> Checks:
    return SENSITIVE.compile(lf.collect_schema(), func, sensitive=groups)


def counted_path(
    pred: str | None, score: str | None, needed: list[Measure], weight: str | None, ci: float | None
) -> bool:
    """Whether the values come from the count table of the group x truth x pred cells: label
    measures only, unweighted, without intervals."""
    return (
        pred is not None
        and weight is None
        and ci is None
        and all(m.kind in ("label", "binary") for m in needed)
    )


def needed_measures(func: str, measures: Any, pred: str | None, score: str | None) -> list[Measure]:
    """The per-group measures that ``measures`` needs (a criterion's components, each once)."""
    return resolve(func, measures, pred, score)[1]


def count_cells(
    lf: pl.LazyFrame, truth: str, pred: str, keys: list[str], groups: list[str], func: str
) -> pl.LazyFrame:
    """Rows per ``*keys, *groups, truth, pred`` cell (``__fe_n``, Float64) with the sensitive
    columns' null-check counts (mergeable: partial tables of disjoint rows add up)."""
    checks = _sensitive_checks(func, groups, lf)
    return lf.group_by([*keys, *groups, truth, pred]).agg(
        pl.len().cast(pl.Float64).alias("__fe_n"), *checks.aggs()
    )


def enforce_cells(
    cells: pl.LazyFrame, truth: str, pred: str, keys: list[str], groups: list[str], func: str
) -> pl.LazyFrame:
    """:func:`count_cells` with its checks enforced (a null sensitive value raises)."""
    checks = _sensitive_checks(func, groups, cells)
    return checks.enforce(cells, [*keys, *groups, truth, pred], one_row=True)


def _values(
    study: _Study,
    ci: float | None = None,
    n_resamples: int = 200,
    seed: int = 0,
    cells: pl.LazyFrame | None = None,
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """``(per group, overall)`` long frames: ``*keys, *groups, measure, value, n`` and
    ``*keys, measure, overall`` — each one ``fe.measures`` pass (every measure of every group
    at once), the rows per group and the sensitive columns' null check in a third pass."""
    s, lf = study, study.lf
    cell = [*s.keys, *s.groups]
    if cells is not None or counted_path(s.pred, s.score, s.needed, s.weight, ci):
        # label measures read the confusion counts only: one pass over the rows counts every
        # group x truth x pred cell (and checks the sensitive columns); the groups' and the
        # overall values are the measures of those counts (the same numbers, from a table of
        # a few rows per group). The Dask form hands in the merged ``cells``.
        assert s.pred is not None
        if cells is None:
            cells = count_cells(lf, s.truth, s.pred, s.keys, s.groups, s.func)
        cells = enforce_cells(cells, s.truth, s.pred, s.keys, s.groups, s.func).cache()
        per_group = s.measures(cells, cell, score=None, weight="__fe_n")
        overall = s.measures(cells, s.keys, score=None, weight="__fe_n")
        sizes = cells.group_by(cell).agg(pl.col("__fe_n").sum().cast(pl.Int64).alias("n"))
    else:
        per_group = s.measures(lf, cell, ci=ci, n_resamples=n_resamples, seed=seed)
        overall = s.measures(lf, s.keys)
        sizes = _sizes(s, lf)
    per_group = per_group.join(sizes, on=cell, how="left", nulls_equal=True)
    return per_group, overall.rename({"value": "overall"})


def _sizes(study: _Study, lf: pl.LazyFrame) -> pl.LazyFrame:
    """The rows of each ``*keys, *groups`` cell, with the sensitive columns' null check."""
    checks = _sensitive_checks(study.func, study.groups, lf)
    cell = [*study.keys, *study.groups]
    sizes = lf.group_by(cell).agg(pl.len().cast(pl.Int64).alias("n"), *checks.aggs())
    return checks.enforce(sizes, cell, one_row=True)


# ---------------------------------------------------------------------------------------------
# gaps from per-group values (the point values and every replicate alike)
# ---------------------------------------------------------------------------------------------
def _gap_aggs() -> list[pl.Expr]:
    value, label, n = pl.col("value"), pl.col("__fe_group"), pl.col("n")
    defined = value.is_not_null()
    kept = value.filter(defined)
    low = kept.min()
    high = kept.max()
    two = defined.sum() >= 2
    ratio_to_overall = value / pl.col("overall")
    folded = (
        pl.when(ratio_to_overall > 1.0).then(1.0 / ratio_to_overall).otherwise(ratio_to_overall)
    )
    overall = pl.col("overall").first()
    ascending = [kept, label.filter(defined)]
    return [
        overall.alias("overall"),
        pl.when(two).then(low).alias("group_min"),
        pl.when(two).then(high).alias("group_max"),
        pl.when(two).then(high - low).alias("difference"),
        pl.when(two & (high != 0.0)).then(low / high).alias("ratio"),
        pl.when(two).then((value - pl.col("overall")).abs().max()).alias("difference_to_overall"),
        pl.when(two & (overall != 0.0)).then(folded.min()).alias("ratio_to_overall"),
        pl.when(two).then(label.filter(defined).sort_by(ascending).first()).alias("group_at_min"),
        pl.when(two)
        .then(label.filter(defined).sort_by(ascending, descending=[True, False]).first())
        .alias("group_at_max"),
        pl.when(two).then(n.filter(defined).sort_by(ascending).first()).alias("n_min_group"),
        pl.when(two)
        .then(n.filter(defined).sort_by(ascending, descending=[True, False]).first())
        .alias("n_max_group"),
        pl.len().cast(pl.Int64).alias("n_groups"),
        label.filter(~defined).sort().alias("undefined"),
    ]


def _gap_table(
    per_group: pl.LazyFrame, overall: pl.LazyFrame, keys: list[str], groups: list[str]
) -> pl.LazyFrame:
    """``*keys, measure`` and the gap columns of each per-group measure."""
    rows = per_group.with_columns(_group_label(groups).alias("__fe_group"))
    rows = (
        rows.join(overall, on=[*keys, "measure"], how="left", nulls_equal=True)
        if keys
        else rows.join(overall, on="measure", how="left")
    )
    return rows.group_by([*keys, "measure"]).agg(_gap_aggs())


def _criteria(table: pl.LazyFrame, keys: list[str], names: list[str]) -> pl.LazyFrame:
    """The rows asked for: a measure's own gaps, or a fairness criterion's from its components
    (equalized odds: the larger difference and the smaller ratio of TPR and FPR, null when
    either is undefined). One join renames the one-component rows; equalized odds reads the
    two components' rows once more."""
    table = table.cache()
    single = [(n, FAIRNESS.get(n, (n,))[0]) for n in names if len(FAIRNESS.get(n, (n,))) == 1]
    mapping = pl.LazyFrame(
        {"__fe_name": [n for n, _ in single], "measure": [m for _, m in single]},
        schema={"__fe_name": pl.String, "measure": pl.String},
    )
    pieces = [
        table.join(mapping, on="measure", how="inner")
        .with_columns(pl.col("__fe_name").alias("measure"))
        .drop("__fe_name")
    ]
    if "equalized_odds" in names:
        tpr, fpr = FAIRNESS["equalized_odds"]
        mine = table.filter(pl.col("measure") == tpr)
        other = table.filter(pl.col("measure") == fpr).select(
            *keys, *(pl.col(g).alias(f"__fe_{g}") for g in GAPS)
        )
        mine = (
            mine.join(other, on=keys, how="left", nulls_equal=True)
            if keys
            else mine.join(other, how="cross")
        )
        both = [
            (pl.max_horizontal if g.startswith("difference") else pl.min_horizontal)(g, f"__fe_{g}")
            for g in GAPS
        ]
        strict = [
            pl.when(pl.col(g).is_not_null() & pl.col(f"__fe_{g}").is_not_null()).then(e).alias(g)
            for g, e in zip(GAPS, both, strict=True)
        ]
        schema = table.collect_schema()
        empty = [
            pl.lit(None, dtype=schema[c]).alias(c)
            for c in ("overall", "group_min", "group_max", "group_at_min", "group_at_max")
            + ("n_min_group", "n_max_group")
        ]
        mine = mine.with_columns(*strict, *empty).drop(f"__fe_{g}" for g in GAPS)
        pieces.append(mine.with_columns(pl.lit("equalized_odds").alias("measure")))
    return pl.concat(pieces, how="vertical")


# ---------------------------------------------------------------------------------------------
# the stratified, paired bootstrap
# ---------------------------------------------------------------------------------------------
def _check_ci(func: str, ci: Any, n_resamples: Any, seed: Any) -> float:
    level = CI(func, "ci", ci)
    RESAMPLES(func, "n_resamples", n_resamples)
    NUMPY_SEED(func, "seed", seed)
    return float(level)


def replicate_rows(
    lf: pl.LazyFrame,
    keys: list[str],
    groups: list[str],
    weight: str | None,
    instance: str | None,
    n_resamples: int,
    seed: int,
) -> pl.LazyFrame:
    """The rows drawn by each replicate, with ``__fe_b`` (replicate) and ``__fe_rw`` (times
    drawn, × ``weight``): a multinomial bootstrap stratified by group.

    In every ``*keys, *groups`` cell, replicate b draws as many slots as the cell has rows
    (so a 3-row group keeps its 3 rows in every replicate); slot j of a cell of size n draws
    position ⌊u · n⌋, u uniform from a hash of (the sensitive values, b, j, seed). The draw
    does not read the ``by`` keys: two models whose rows of a group are the same instances
    (ranked by ``instance``, or in row order without it) get the same draws — the paired
    bootstrap. Different groups draw independently (their values enter the hash).
    """
    cell = [*keys, *groups]
    if instance is not None:
        slot = pl.col(instance).rank("ordinal").over(cell) - 1
    else:
        slot = pl.int_range(pl.len()).over(cell)
    rows = lf.with_columns(
        slot.cast(pl.UInt64).alias("__fe_slot"),
        pl.len().over(cell).cast(pl.Float64).alias("__fe_n"),
    )
    reps = pl.LazyFrame({_B: pl.Series(range(n_resamples), dtype=pl.UInt64)})
    draws = rows.select(*cell, "__fe_slot", "__fe_n").join(reps, how="cross")
    word = pl.struct(*groups, _B, "__fe_slot").hash(seed & _MASK)
    uniform = (word // (1 << 11)).cast(pl.Float64) / float(1 << 53)
    pick = (uniform * pl.col("__fe_n")).floor().cast(pl.UInt64)
    counts = draws.group_by(*cell, _B, pick.alias("__fe_pick")).agg(
        pl.len().cast(pl.Float64).alias(_RW)
    )
    drawn = rows.join(
        counts,
        left_on=[*cell, "__fe_slot"],
        right_on=[*cell, "__fe_pick"],
        how="inner",
        nulls_equal=True,
    )
    if weight is not None:
        drawn = drawn.with_columns((pl.col(_RW) * pl.col(weight).cast(pl.Float64)).alias(_RW))
    return drawn.drop("__fe_slot", "__fe_n")


def _point_and_replicates(
    study: _Study, instance: str | None, n_resamples: int, seed: int
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """``(point, replicates)``: ``*keys, measure`` and the gap columns of the data, and the same
    per replicate (``*keys, __fe_b, measure``). The data are one more "replicate" (each row
    drawn once, b = ``n_resamples``), so the values and every replicate come from the same
    grouped ``fe.measures`` pass (per group, and once more overall); the rows per group and the
    sensitive columns' null check are one more ``group_by``. A stratified replicate keeps each
    group's size, so every replicate's group sizes are the data's."""
    s, lf, keys = study, study.lf, study.keys
    cell = [*keys, *s.groups]
    sizes = _sizes(s, lf)
    drawn = replicate_rows(lf, keys, s.groups, s.weight, instance, n_resamples, seed)
    once = pl.col(s.weight).cast(pl.Float64) if s.weight is not None else pl.lit(1.0)
    data = lf.with_columns(
        pl.lit(n_resamples, dtype=pl.UInt64).alias(_B), once.cast(pl.Float64).alias(_RW)
    )
    rows = pl.concat([drawn, data.select(drawn.collect_schema().names())], how="vertical")
    if s.pred is not None and all(m.kind in ("label", "binary") for m in s.needed):
        # label measures read the confusion counts: the replicate weights summed per cell
        rows = rows.group_by([*cell, _B, s.truth, s.pred]).agg(pl.col(_RW).sum())
    per_group = s.measures(rows, [*cell, _B], weight=_RW)
    overall = s.measures(rows, [*keys, _B], weight=_RW)
    per_group = per_group.join(sizes, on=cell, how="left", nulls_equal=True)
    table = _gap_table(per_group, overall.rename({"value": "overall"}), [*keys, _B], s.groups)
    both = _criteria(table, [*keys, _B], s.names)
    point = both.filter(pl.col(_B) == n_resamples).drop(_B)
    return point, both.filter(pl.col(_B) < n_resamples)


def _percentiles(replicates: pl.LazyFrame, keys: list[str], level: float) -> pl.LazyFrame:
    alpha = 1.0 - level
    return replicates.group_by([*keys, "measure"]).agg(
        e
        for g in GAPS
        for e in (
            pl.col(g).quantile(alpha / 2.0, "linear").alias(f"{g}_low"),
            pl.col(g).quantile(1.0 - alpha / 2.0, "linear").alias(f"{g}_high"),
        )
    )


def _ordered(out: pl.LazyFrame, keys: list[str], names: list[str]) -> pl.LazyFrame:
    order = pl.col("measure").replace_strict(names, list(range(len(names))), return_dtype=pl.Int64)
    return out.sort([*keys, order] if keys else order, nulls_last=True)


# ---------------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------------
@frame_function
def by_group(
    data: Any,
    truth: str,
    pred: str | None = None,
    score: str | None = None,
    *,
    sensitive: str | Sequence[str],
    by: Keys = None,
    measures: Sequence[str | Measure] | None = None,
    control: Keys = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: float | None = None,
    n_resamples: int = 200,
    seed: int = 0,
) -> Frame:
    """Each measure in each subgroup, long form (fairlearn's ``MetricFrame.by_group``).

    Parameters
    ----------
    data, truth, pred, score
        The result frame and its column roles, as in :func:`frameeval.measures`.
    sensitive
        The column(s) whose values define the groups; several columns: their intersections.
        A null is a typed error (``MissingValueError``), not a group.
    by
        Key column(s) (data set, model, fold…): one analysis per ``by`` group.
    measures
        Names of ``fe.MEASURES``, ``fe.Measure`` objects, ``"selection_rate"``, or a
        fairness criterion (``"demographic_parity"``, ``"equal_opportunity"``,
        ``"equalized_odds"``), shown as the measures it reads (``selection_rate``;
        ``recall``; ``recall`` and ``fpr``). Default: accuracy, selection rate, recall and
        FPR with ``pred``, AUC with ``score``.
    control
        fairlearn's ``control_features``: further keys, placed after ``by``.
    weight, pos_label
        As in :func:`frameeval.measures`.
    ci, n_resamples, seed
        Confidence level of an interval on each group's value (``low``, ``high``): those of
        ``fe.measures(ci=...)`` on the group — Wilson for shares of counts (selection rate,
        recall, FPR, accuracy…), a bootstrap otherwise. ``None``: values only.

    Returns
    -------
    Same kind as ``data``: ``*by, *control, *sensitive, measure, value, n, undefined`` (and
    ``low, high`` with ``ci=``) — one
    row per group and measure, sorted by the keys, the groups, then the measures in the order
    asked. ``value`` (Float64) is the measure on the group's rows, null where it is undefined
    (recall of a group without positives, AUC of a group with one class); ``n`` (Int64) the
    group's rows; ``undefined`` (Boolean) is ``value`` being null.

    Notes
    -----
    Label and binary measures (unweighted, without ``ci=``) are computed from one count of
    the ``*by, *control, *sensitive, truth, pred`` cells (one pass over the rows, which also
    checks the sensitive columns); any other measure by ``fe.measures`` with
    ``by=[*by, *control, *sensitive]`` on the rows. The values equal
    ``fe.measures`` on each group and fairlearn's ``MetricFrame(...).by_group`` (with
    ``zero_division=np.nan`` for scikit-learn's measures, so an undefined value is NaN there).

    References
    ----------
    Weerts et al. (2023), "Fairlearn: Assessing and Improving Fairness of AI Systems", JMLR 24.

    Examples
    --------
    >>> df = pl.DataFrame({"sex": ["F", "F", "F", "M", "M", "M"], "y": [1, 0, 1, 1, 0, 0],
    ...                    "p": [1, 0, 0, 1, 1, 0]})
    >>> fe.subgroups.by_group(df, "y", "p", sensitive="sex", measures=["recall"]).rows()
    [('F', 'recall', 0.5, 3, False), ('M', 'recall', 1.0, 3, False)]
    """
    if is_dask(data):  # the same call on a Dask cluster: frameeval.dask.subgroups
        return provider("dask_subgroups_by_group")(**locals())
    study = _open("by_group", locals())
    if ci is not None:
        _check_ci("by_group", ci, n_resamples, seed)
    return finish(_by_group_rows(study, ci, n_resamples, seed), study.eager)


def _by_group_rows(
    study: _Study, ci: float | None, n_resamples: int, seed: int, cells: pl.LazyFrame | None = None
) -> pl.LazyFrame:
    per_group, _ = _values(study, ci, n_resamples, seed, cells)
    keys, groups, names = study.keys, study.groups, study.names
    shown = components(names)
    out = per_group.filter(pl.col("measure").is_in(shown)).with_columns(
        pl.col("value").is_null().alias("undefined")
    )
    order = pl.col("measure").replace_strict(shown, list(range(len(shown))), return_dtype=pl.Int64)
    bounds = ["low", "high"] if ci is not None else []
    return out.select(*keys, *groups, "measure", "value", *bounds, "n", "undefined").sort(
        [*keys, *groups, order], nulls_last=True
    )


@frame_function
def gaps(
    data: Any,
    truth: str,
    pred: str | None = None,
    score: str | None = None,
    *,
    sensitive: str | Sequence[str],
    by: Keys = None,
    measures: Sequence[str | Measure] | None = None,
    control: Keys = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: float | None = None,
    n_resamples: int = 200,
    seed: int = 0,
    instance: str | None = None,
) -> Frame:
    """How far apart the groups are on each measure: fairlearn's ``MetricFrame`` summaries
    and fairness functions, for every ``by`` group at once, with bootstrap intervals.

    Parameters
    ----------
    data, truth, pred, score, sensitive, by, measures, control, weight, pos_label
        As in :func:`by_group`.
    ci
        Confidence level (e.g. ``0.95``) of percentile intervals on the four gaps; ``None``:
        values only. A level outside (0, 1) is an ``InvalidParameterError``.
    n_resamples, seed
        Bootstrap replicates and their seed (the same seed gives the same intervals).
    instance
        Optional column naming the row's instance: the bootstrap ranks a group's rows by it,
        so models evaluated on the same instances get the same draws (see
        :func:`compare_gaps`). Without it, rows in their order.

    Returns
    -------
    Same kind as ``data``, one row per ``*by, *control, measure`` (measures in the order asked):

    * ``overall``: the measure on all rows of the ``by`` group;
    * ``group_min``, ``group_max``: the smallest and largest group value;
    * ``difference`` = group_max − group_min (fairlearn's ``difference()``,
      ``method="between_groups"``); ``ratio`` = group_min / group_max (``ratio()``);
    * ``difference_to_overall`` = maxₐ |value_a − overall| (``method="to_overall"``);
      ``ratio_to_overall`` = minₐ min(rₐ, 1/rₐ), rₐ = value_a / overall;
    * ``group_at_min``, ``group_at_max`` (String: the value, or ``col=value, …`` for an
      intersection; ties go to the first group in sorted order) and their rows
      ``n_min_group``, ``n_max_group``;
    * ``n_groups``: groups present; ``undefined``: the groups whose value is undefined (a
      list of labels, empty when every group is defined) — they take no part in the gaps;
    * with ``ci=``: ``<gap>_low``, ``<gap>_high`` for each of the four gaps.

    A fairness criterion's row: ``demographic_parity`` holds the gaps of ``selection_rate``,
    ``equal_opportunity`` those of ``recall`` (TPR), ``equalized_odds`` the larger of the
    TPR and FPR differences and the smaller of their ratios (fairlearn's
    ``agg="worst_case"``; its ``overall``, ``group_*`` and ``n_*`` columns are null).

    Notes
    -----
    Undefined cases (null, never 0): every gap when fewer than two groups have a defined value
    (fairlearn gives 0 for a single group); ``ratio`` when group_max = 0; ``ratio_to_overall``
    when overall = 0; a criterion when either of its components is.

    The values come from one pass over the rows for label measures (the counts of every
    group × truth × pred cell, from which the groups' and the overall values are computed),
    from ``fe.measures`` per group and overall for the others.

    Intervals: a multinomial bootstrap stratified by group — each replicate redraws, within
    every ``*by, *control, *sensitive`` cell, as many rows as the cell holds, so every group
    keeps its size (a 3-row group is in every replicate; fairlearn's row bootstrap can lose
    it, fairlearn#1441). The replicates are row weights, and the data themselves are one more
    replicate (each row drawn once): the values and every replicate's values come from the same
    grouped ``fe.measures`` pass (by group × replicate, and by replicate for the overall
    value); the interval is the percentile interval of each gap over the replicates where it
    is defined.

    References
    ----------
    Weerts et al. (2023), "Fairlearn", JMLR 24. Hardt, Price & Srebro (2016), "Equality of
    opportunity in supervised learning", NeurIPS. Efron & Tibshirani (1993), *An Introduction
    to the Bootstrap* (stratified bootstrap, ch. 8).

    Examples
    --------
    >>> df = pl.DataFrame({"sex": ["F", "F", "F", "M", "M", "M"], "y": [1, 0, 1, 1, 0, 0],
    ...                    "p": [1, 0, 0, 1, 1, 0]})
    >>> out = fe.subgroups.gaps(df, "y", "p", sensitive="sex",
    ...                         measures=["recall", "demographic_parity"])
    >>> out.select("measure", "difference", "ratio", "group_at_min").rows()
    [('recall', 0.5, 0.5, 'F'), ('demographic_parity', 0.3333333333333333, 0.5, 'F')]
    """
    if is_dask(data):  # the same call on a Dask cluster: frameeval.dask.subgroups
        return provider("dask_subgroups_gaps")(**locals())
    study = _open("gaps", locals())
    level = _check_ci("gaps", ci, n_resamples, seed) if ci is not None else None
    SUBGROUPS.compile(study.lf.collect_schema(), "gaps", instance=instance)
    return finish(_gaps_rows(study, level, instance, n_resamples, seed), study.eager)


def _gaps_rows(
    study: _Study,
    level: float | None,
    instance: str | None,
    n_resamples: int,
    seed: int,
    cells: pl.LazyFrame | None = None,
) -> pl.LazyFrame:
    keys, names = study.keys, study.names
    if level is None:
        per_group, overall = _values(study, cells=cells)
        out = _criteria(_gap_table(per_group, overall, keys, study.groups), keys, names)
    else:
        out, replicates = _point_and_replicates(study, instance, n_resamples, seed)
        bounds = _percentiles(replicates, keys, level)
        out = out.join(bounds, on=[*keys, "measure"], how="left", nulls_equal=True)
        # an undefined gap has no interval
        out = out.with_columns(
            pl.when(pl.col(g).is_not_null()).then(pl.col(f"{g}_{side}")).alias(f"{g}_{side}")
            for g in GAPS
            for side in ("low", "high")
        )
    columns = [
        "overall", "group_min", "group_max", "difference", "ratio", "difference_to_overall",
        "ratio_to_overall", "group_at_min", "group_at_max", "n_min_group", "n_max_group",
        "n_groups", "undefined",
    ]  # fmt: skip
    if level is not None:
        columns += [f"{g}_{side}" for g in GAPS for side in ("low", "high")]
    return _ordered(out.select(*keys, "measure", *columns), keys, names)


def from_cells(func: str, cells: pl.DataFrame, arguments: dict[str, Any]) -> pl.DataFrame:
    """:func:`by_group` or :func:`gaps` (``func``) of label measures from a count table
    ``*by, *control, *sensitive, truth, pred, __fe_n`` with the null-check counts of
    :func:`count_cells`, for the call's ``arguments`` (unweighted, without intervals: the
    counted path) — the single-machine code after the counts (the Dask form merges the
    partitions' count tables and finishes here)."""
    study = _open(func, {**arguments, "data": cells.lazy(), "score": None, "weight": None})
    if func == "by_group":
        return collect(_by_group_rows(study, None, 200, 0, cells=study.lf))
    return collect(_gaps_rows(study, None, None, 200, 0, cells=study.lf))


@frame_function
def compare_gaps(
    data: Any,
    truth: str,
    pred: str | None = None,
    score: str | None = None,
    *,
    sensitive: str | Sequence[str],
    model: str = "model",
    by: Keys = None,
    measures: Sequence[str | Measure] | None = None,
    control: Keys = None,
    weight: str | None = None,
    pos_label: Any = None,
    gap: str = "difference",
    ci: float = 0.95,
    n_resamples: int = 200,
    seed: int = 0,
    instance: str | None = None,
    adjust: str = "holm",
    alpha: float = 0.05,
) -> Frame:
    """Is one model's gap larger than another's, on the same rows? Paired bootstrap
    differences of a gap between every two models, p-values adjusted over the grid.

    Parameters
    ----------
    data, truth, pred, score, sensitive, by, measures, control, weight, pos_label
        As in :func:`gaps`.
    model
        The column naming the model (the learner); every pair of its values is compared
        within each ``*by, *control`` group.
    gap
        Which gap: ``"difference"`` (default), ``"ratio"``, ``"difference_to_overall"`` or
        ``"ratio_to_overall"``.
    ci, n_resamples, seed
        Level of the interval of the difference of gaps, replicates and seed.
    instance
        Column naming the instance: the models' rows of a group are paired by it (each
        replicate draws the same instances for both). Without it, the rows of each model
        are paired in their order within each group (they must list the same instances in
        the same order).
    adjust
        ``"holm"`` (family-wise error, the package's step-down) or ``"bh"``
        (Benjamini–Hochberg false discovery rate), over every row of the result.
    alpha
        Level of ``reject``.

    Returns
    -------
    Same kind as ``data``: ``*by, *control, measure, a, b, gap_a, gap_b, difference,
    ci_low, ci_high, p_value, p_adjusted, reject`` — one row per measure and pair of models
    (a < b), sorted. ``difference`` = gap_a − gap_b (> 0: a's groups are further apart);
    ``p_value`` the two-sided bootstrap p-value of "no difference",
    p = min(1, 2·min(1 + #{d* ≤ 0}, 1 + #{d* ≥ 0}) / (B + 1)) over the B replicate
    differences d*; null where a gap is undefined.

    Notes
    -----
    Paired: replicate b reweights the same instances of each group for both models (the
    draws read the sensitive values, the instance's rank, b and the seed, never the model),
    so what the two models share — the rows — cancels in d*, as in a paired test.

    References
    ----------
    Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 16 (bootstrap tests).
    Holm (1979), Scand. J. Statist. 6. Benjamini & Hochberg (1995), JRSS B 57.

    Examples
    --------
    >>> df = pl.DataFrame({"model": ["a"] * 6 + ["b"] * 6, "sex": ["F", "F", "F", "M", "M", "M"] * 2,
    ...                    "y": [1, 0, 1, 1, 0, 1] * 2, "p": [1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1]})
    >>> out = fe.subgroups.compare_gaps(df, "y", "p", sensitive="sex", measures=["recall"],
    ...                                 n_resamples=50)
    >>> out.select("a", "b", "gap_a", "gap_b", "difference").rows()
    [('a', 'b', 0.0, 1.0, -1.0)]
    """
    func = "compare_gaps"
    check_parameter(gap in GAPS, func, f"gap must be one of {list(GAPS)}, got {gap!r}.")
    check_parameter(
        adjust in ("holm", "bh"), func, f"adjust must be 'holm' or 'bh', got {adjust!r}."
    )
    alpha = check_alpha(alpha, func)
    study = _open(func, locals())
    keys, groups, names = study.keys, study.groups, study.names
    SUBGROUPS.compile(study.lf.collect_schema(), func, model=model, instance=instance)
    check_parameter(
        model not in keys and model not in groups,
        func,
        f"model= must not be a by=, control= or sensitive= column, got {model!r}.",
    )
    level = _check_ci(func, ci, n_resamples, seed)
    by_model = replace(study, keys=[*keys, model])
    point, replicates = _point_and_replicates(by_model, instance, n_resamples, seed)
    pairs = _pairs(point, replicates, keys, model, gap, level, n_resamples)
    pairs = _adjusted(pairs, adjust).with_columns((pl.col("p_adjusted") <= alpha).alias("reject"))
    out = pairs.select(
        *keys, "measure", "a", "b", "gap_a", "gap_b", "difference", "ci_low", "ci_high",
        "p_value", "p_adjusted", "reject",
    )  # fmt: skip
    order = pl.col("measure").replace_strict(names, list(range(len(names))), return_dtype=pl.Int64)
    return finish(out.sort([*keys, order, "a", "b"], nulls_last=True), study.eager)


def _pairs(
    point: pl.LazyFrame,
    replicates: pl.LazyFrame,
    keys: list[str],
    model: str,
    gap: str,
    level: float,
    n_resamples: int,
) -> pl.LazyFrame:
    """Every pair of models a < b per ``*keys, measure``: their gaps, the difference and its
    percentile interval and bootstrap p-value from the paired replicates."""
    on = [*keys, "measure"]

    def side(frame: pl.LazyFrame, name: str, extra: list[str]) -> pl.LazyFrame:
        return frame.select(
            *on, *extra, pl.col(model).alias(name), pl.col(gap).alias(f"gap_{name}")
        )

    pairs = side(point, "a", []).join(side(point, "b", []), on=on, how="inner", nulls_equal=True)
    pairs = pairs.filter(pl.col("a").cast(pl.String) < pl.col("b").cast(pl.String))
    reps = side(replicates, "a", [_B]).join(
        side(replicates, "b", [_B]), on=[*on, _B], how="inner", nulls_equal=True
    )
    d = (pl.col("gap_a") - pl.col("gap_b")).drop_nulls()
    count = d.len().cast(pl.Float64)
    below = (1.0 + (d <= 0.0).sum().cast(pl.Float64)) / (count + 1.0)
    above = (1.0 + (d >= 0.0).sum().cast(pl.Float64)) / (count + 1.0)
    a = 1.0 - level
    stats = reps.group_by(*on, "a", "b").agg(
        d.quantile(a / 2.0, "linear").alias("ci_low"),
        d.quantile(1.0 - a / 2.0, "linear").alias("ci_high"),
        pl.min_horizontal(2.0 * pl.min_horizontal(below, above), pl.lit(1.0)).alias("p_value"),
    )
    out = pairs.join(stats, on=[*on, "a", "b"], how="left", nulls_equal=True)
    defined = pl.col("gap_a").is_not_null() & pl.col("gap_b").is_not_null()
    return out.with_columns(
        (pl.col("gap_a") - pl.col("gap_b")).alias("difference"),
        *(pl.when(defined).then(pl.col(c)).alias(c) for c in ("ci_low", "ci_high", "p_value")),
    )


def _adjusted(pairs: pl.LazyFrame, adjust: str) -> pl.LazyFrame:
    """``p_adjusted`` over every row with a p-value: Holm's step-down (the package's) or
    Benjamini–Hochberg's step-up."""
    tested = pairs.filter(pl.col("p_value").is_not_null())
    untested = pairs.filter(pl.col("p_value").is_null()).with_columns(
        pl.lit(None, dtype=pl.Float64).alias("p_adjusted")
    )
    if adjust == "holm":
        done = step_down(tested, [], "holm").drop("__step", "__t")
    else:
        done = tested.with_columns(benjamini_hochberg(pl.col("p_value")).alias("p_adjusted"))
    return pl.concat([done, untested], how="diagonal_relaxed")


def benjamini_hochberg(p: pl.Expr) -> pl.Expr:
    """Benjamini–Hochberg adjusted p-values of ``p`` (no nulls): p_(i)·m/i, made monotone from
    the largest down, capped at 1 — the values of ``statsmodels``' ``fdr_bh``."""
    m = p.len().cast(pl.Float64)
    rank = p.rank("ordinal").cast(pl.Float64)
    scaled = p * m / rank
    # the running minimum from the largest rank down: cum_min in that order, then back
    order = rank.arg_sort(descending=True)
    running = scaled.gather(order).cum_min()
    back = running.gather(order.arg_sort())
    return pl.min_horizontal(back, pl.lit(1.0))
