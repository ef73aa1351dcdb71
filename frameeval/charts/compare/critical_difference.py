"""Critical difference diagrams: figure 2.8 (intervals of the average ranks) and Demšar's style
(an axis of average ranks with the cliques of learners not significantly different)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import altair as alt
import polars as pl

from frameeval._frame import as_keys
from frameeval._params import ABOVE_ZERO, ALPHA
from frameeval._roles import resolve as resolve_roles
from frameeval._validate import check_parameter
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.exceptions import InvalidParameterError

__all__ = ["cd_diagram", "cliques"]


def _nemenyi_cd(
    df: pl.DataFrame, keys: list[str], learner: str, alpha: float, func: str
) -> pl.DataFrame:
    """``df`` with the Nemenyi CD = q_α √(k(k + 1)/6N) of each group (eq 2.36): k its number of
    learners, N its ``n_blocks`` (the column ``fe.average_ranks`` writes)."""
    from frameeval.compare import nemenyi_q

    if "n_blocks" not in df.columns:
        raise InvalidParameterError(
            f"{func}(): cd= is required when ranks has no 'n_blocks' column (a number, or a frame "
            "with a 'critical_value' column such as fe.nemenyi's), got None.\n"
            "Hint: pass the output of fe.average_ranks, which carries n_blocks."
        )
    df = df.with_columns(
        b.over(pl.col(learner).n_unique(), keys).cast(pl.Int64).alias("__fe_k"),
        b.over(pl.col("n_blocks").max(), keys).cast(pl.Float64).alias("__fe_n"),
    )
    bad = df.filter((pl.col("__fe_k") < 2) | ~(pl.col("__fe_n") > 0))
    if bad.height:
        raise InvalidParameterError(
            f"{func}(): the Nemenyi CD needs at least 2 learners and 1 block per group, got "
            f"k = {bad['__fe_k'][0]}, n_blocks = {bad['__fe_n'][0]}."
        )
    qs = {
        k: nemenyi_q(k, alpha) for k in df.get_column("__fe_k").unique().to_list()
    }  # loop-ok: few k
    q = pl.col("__fe_k").replace_strict(qs, return_dtype=pl.Float64)
    k = pl.col("__fe_k").cast(pl.Float64)
    cd = q * (k * (k + 1) / (6 * pl.col("__fe_n"))).sqrt()
    return df.with_columns(cd.alias("cd")).drop("__fe_k", "__fe_n")


def _cd_frame(
    ranks: Any, cd: Any, learner: str, average_rank: str, by: Any, func: str, alpha: float = 0.05
) -> tuple[pl.DataFrame, list[str]]:
    """Average ranks joined with their CD (a number, a frame ``*by, cd``, a ``cd`` column, or
    the Nemenyi CD from the ranks' k and ``n_blocks``)."""
    df, keys = _ranks_frame(ranks, learner, average_rank, by, func)
    if cd is None:
        if "cd" not in df.columns and "critical_value" in df.columns:
            df = df.rename({"critical_value": "cd"})
        if "cd" not in df.columns:
            df = _nemenyi_cd(df, keys, learner, alpha, func)
    elif isinstance(cd, int | float) and not isinstance(cd, bool):
        ABOVE_ZERO(func, "cd", cd)
        df = df.with_columns(pl.lit(float(cd)).alias("cd"))
    else:
        clf = b.lazy(cd, func)
        names = clf.collect_schema().names()
        if "cd" not in names and "critical_value" in names:  # fe.nemenyi's CD column
            clf = clf.rename({"critical_value": "cd"})
        cschema = b.columns(clf, func, numeric={"cd": "cd"})
        ckeys = [k for k in keys if k in cschema]
        cdf = b.gather(clf.select(*ckeys, "cd").unique(), func, "cd=")
        df = b.join_on(df.drop("cd", strict=False), cdf if ckeys else cdf.head(1), ckeys, "left")
    return df.with_columns(
        pl.col("cd").cast(pl.Float64), pl.col(average_rank).cast(pl.Float64)
    ), keys


def cliques(df: pl.DataFrame, learner: str, average_rank: str, keys: Sequence[str]) -> pl.DataFrame:
    """Maximal runs of learners (in rank order) whose ranks differ by at most CD.

    Layout, not statistics: with learners sorted by average rank, learner i's run ends at the last
    j with r_j − r_i ≤ cd. A run is kept when it has two or more learners and is not inside the
    previous one (its end moves right). Output: ``*keys, clique, low, high``.
    """
    keys = list(keys)
    ordered = df.sort([*keys, average_rank, learner], nulls_last=True).with_columns(
        b.over(pl.int_range(pl.len()), keys).alias("__fe_i")
    )
    pairs = b.join_on(ordered, ordered, keys, suffix="_j")
    pairs = pairs.filter(
        (pl.col("__fe_i_j") >= pl.col("__fe_i"))
        & (pl.col(f"{average_rank}_j") - pl.col(average_rank) <= pl.col("cd") + 1e-12)
    )
    runs = (
        pairs.group_by([*keys, "__fe_i"])
        .agg(
            pl.col("__fe_i_j").max().alias("__fe_end"),
            pl.col(average_rank).first().alias("low"),
            pl.col(f"{average_rank}_j").max().alias("high"),
        )
        .sort([*keys, "__fe_i"], nulls_last=True)
    )
    previous = b.over(pl.col("__fe_end").shift(1), keys)
    runs = runs.filter(
        (pl.col("__fe_end") > pl.col("__fe_i")) & (pl.col("__fe_end") > previous.fill_null(-1))
    )
    return runs.with_columns(b.over(pl.int_range(pl.len()), keys).alias("clique")).select(
        *keys, "clique", "low", "high"
    )


_CD_TESTS = ("nemenyi", "wilcoxon_holm", "bonferroni_dunn")
_CD_TEST_TEXT = {
    "nemenyi": "Nemenyi test",
    "wilcoxon_holm": "Wilcoxon signed-rank tests, Holm-corrected",
    "bonferroni_dunn": "Bonferroni–Dunn test",
}


def cd_diagram(
    ranks: Any,
    cd: Any = None,
    *,
    style: Literal["interval", "demsar"] | None = None,
    test: Literal["nemenyi", "wilcoxon_holm", "bonferroni_dunn"] | None = None,
    control: Any = None,
    learner: str | None = None,
    average_rank: str = "average_rank",
    by: str | Sequence[str] | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = None,
    width: int = theme.WIDE,
    height: int | None = None,
    alpha: float = 0.05,
) -> alt.TopLevelMixin:
    """Critical-difference diagram of average ranks (figure 2.8, or Demšar's Figure 1 style).

    Parameters
    ----------
    ranks
        Output of ``fe.average_ranks``: ``*by, learner, average_rank[, n_blocks]``.
    cd
        The critical difference CD = q_α √(k(k+1)/6N) (eq 2.36): a number, or a frame with a
        ``cd`` column such as ``fe.nemenyi``'s output (one CD per group; joined on the key
        columns the two frames share). Optional: without it, a ``cd`` (or ``critical_value``)
        column of ``ranks`` is used, else the Nemenyi CD at level ``alpha`` is computed from
        the ranks frame itself — k the number of learners of each group, N its ``n_blocks``
        column (written by ``fe.average_ranks``).
    style
        ``"interval"`` (figure 2.8; the default without ``test``): one row per learner, its
        average rank as a dot and a segment of length CD centred on it; two learners differ
        significantly when their segments do not overlap. ``"demsar"`` (the default and only
        layout with ``test``): an axis of ranks, learners labelled on the left and right, thick
        bars joining groups (cliques) of learners not significantly different, and a CD bar for
        scale (Demšar 2006, figure 1).
    test
        Draw the cliques from the decisions of a pairwise procedure, passed as ``cd``:
        ``"nemenyi"`` (``fe.nemenyi``'s frame), ``"wilcoxon_holm"`` (``fe.wilcoxon(...,
        adjust="holm")``'s frame: every pair, Holm-corrected — the CD diagram of Benavoli et
        al. 2016 and aeon, without a CD bar since there is no single critical difference) or
        ``"bonferroni_dunn"`` (``fe.bonferroni_dunn``'s frame, against its control). The bars
        are :func:`frameeval.cliques` of the frame's ``reject`` column; the CD bar is its
        ``critical_value`` (Nemenyi, Bonferroni–Dunn). Default None: cliques from the CD alone,
        as before (for Nemenyi the two agree).
    control
        A learner: draw the comparisons against it only (Demšar 2006, figure 2) — one bar
        joining the control with every learner not significantly different from it; its label
        is marked "(control)". With ``test="bonferroni_dunn"`` it defaults to the frame's
        control (its ``b`` column).
    learner, average_rank
        Column names.
    by
        Key columns; default every column other than ``learner, average_rank, cd, n_blocks,
        n_learners``. Several groups are drawn in panels (``facet`` defaults to all keys).
    facet, title, width, height
        Panels, title and panel size in pixels (height defaults to the number of learners).
    alpha
        Significance level of the Nemenyi CD computed when no ``cd`` is given (default 0.05).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Lower rank = better (rank 1 is the best learner on a block, Table 2.5). Nothing is recomputed
    (but the CD when none is given): the dots are ``average_rank`` and the interval half-width
    CD/2. Each bar is drawn whole, [r − CD/2, r + CD/2], so it stays centred on its rank (the
    axis reaches past 1 and k as far as the bars do; its ticks are the possible average ranks
    1…k). The dotted line marks the right end of the best learner's bar: a learner whose bar
    starts right of it differs significantly from the best. The Demšar cliques are the
    layout of "no two learners in the group differ by more than CD" on the given ranks (see
    :func:`cliques`). Ties at exactly CD count as not significantly different, as the Nemenyi
    test rejects only when the difference exceeds CD.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1–30.

    Examples
    --------
    >>> ranks = pl.DataFrame({"learner": ["A", "B", "C"], "average_rank": [1.0, 2.125, 2.875]})
    >>> chart = fe.charts.cd_diagram(ranks, cd=1.657)
    >>> sorted({layer["mark"]["type"] for layer in chart.to_dict()["layer"]})
    ['point', 'rule']
    """
    func = "cd_diagram"
    (learner,) = resolve_roles(
        ranks, func, [average_rank, by, "cd", "n_blocks", "n_learners"], learner=learner
    )
    check_parameter(
        style in ("interval", "demsar", None),
        func,
        f"style must be 'interval' or 'demsar', got {style!r}.",
    )
    check_parameter(
        test in (*_CD_TESTS, None),
        func,
        f"test must be 'nemenyi', 'wilcoxon_holm', 'bonferroni_dunn' or None, got {test!r}.",
    )
    if test is not None or control is not None:
        check_parameter(
            style in ("demsar", None),
            func,
            f"test= and control= draw the 'demsar' layout, got style={style!r}.",
        )
        return _cd_from_test(
            ranks, cd, test, control, learner, average_rank, by, facet, title, width, height
        )
    ALPHA(func, "alpha", alpha)
    df, keys = _cd_frame(ranks, cd, learner, average_rank, by, func, alpha)
    facets, k_max = _panels(df, keys, facet, func)
    if style in ("interval", None):
        return _cd_interval(df, keys, facets, learner, average_rank, title, width, height, k_max)
    return _cd_demsar(df, keys, facets, learner, average_rank, title, width, height, k_max)


def _ranks_frame(
    ranks: Any, learner: str, average_rank: str, by: Any, func: str
) -> tuple[pl.DataFrame, list[str]]:
    """The ranks frame, checked and collected, with its key columns."""
    lf = b.lazy(ranks, func)
    schema = b.columns(lf, func, numeric={"average_rank": average_rank}, learner=learner)
    values = {learner, average_rank, "cd", "critical_value", "n_blocks", "n_learners"}
    keys = b.key_columns(schema, values, by, func)
    return b.gather(lf, func, "ranks="), keys


def _panels(df: pl.DataFrame, keys: list[str], facet: Any, func: str) -> tuple[list[str], int]:
    """The facet columns (default: all keys) and the largest number of learners in a group."""
    facets = as_keys(facet) if facet is not None else keys
    b.check_plotted(df.schema, func, facet=facets)
    return facets, int(b.per_group(df, keys, pl.len()).get_column("len").max())  # type: ignore[arg-type]


def _cd_from_test(
    ranks, pairwise, test, control, learner, average_rank, by, facet, title, width, height
):
    """The Demšar layout with cliques read from a pairwise procedure's ``reject`` column."""
    from frameeval.compare.cliques import cliques as compute_cliques

    func = "cd_diagram"
    if pairwise is None or isinstance(pairwise, int | float):
        raise InvalidParameterError(
            f"{func}(): test= and control= need the pairwise frame of the procedure as cd= "
            f"(columns a, b, reject), got {pairwise!r}."
        )
    df, keys = _ranks_frame(ranks, learner, average_rank, by, func)
    df = df.with_columns(pl.col(average_rank).cast(pl.Float64))
    pw, pkeys = _pairwise(pairwise, keys, test, func)
    if test == "bonferroni_dunn" and control is None:
        controls = pw.get_column("b").unique()
        check_parameter(
            controls.len() == 1,
            func,
            f"test='bonferroni_dunn' needs one control (column b), got {controls.to_list()}.",
        )
        control = controls.item()
    show_cd = test in ("nemenyi", "bonferroni_dunn")
    df = _test_cd(df, pw, pkeys, func) if show_cd else df.with_columns(_NO_CD)
    side = df.select(*keys, learner, pl.col(average_rank).alias("average_rank"))
    if control is None:
        members = compute_cliques(
            pw.select(*pkeys, "a", "b", "reject"), side, learner=learner, by=pkeys or None
        )
    else:
        members = _control_members(pw, side, pkeys, learner, control)
        df = df.with_columns(
            pl.when(b.as_text(learner) == str(control))
            .then(pl.lit(" (control)"))
            .otherwise(pl.lit(""))
            .alias("__fe_mark")
        )
    clq = (
        members.group_by(*pkeys, "clique")
        .agg(pl.col("average_rank").min().alias("low"), pl.col("average_rank").max().alias("high"))
        .sort([*pkeys, "clique"])
        .select(*pkeys, (pl.col("clique") - 1).alias("clique"), "low", "high")
    )
    facets, k_max = _panels(df, keys, facet, func)
    name = _CD_TEST_TEXT[test] if test is not None else "pairwise tests"
    subtitle = (
        "axis: average rank (1 = best); thick bars join learners not significantly different "
        + (f"from the control {control} " if control is not None else "")
        + f"({name})"
    )
    return _cd_demsar(
        df, keys, facets, learner, average_rank, title, width, height, k_max,
        clq=clq, show_cd=show_cd, subtitle=subtitle,
    )  # fmt: skip


_NO_CD = pl.lit(None, dtype=pl.Float64).alias("cd")


def _pairwise(pairwise: Any, keys: list[str], test: Any, func: str) -> tuple[pl.DataFrame, list]:
    """The pairwise procedure's frame (``a, b, reject`` on the keys of the ranks), collected."""
    plf = b.lazy(pairwise, func)
    pschema = b.columns(plf, func, a="a", b="b", reject="reject")
    pkeys = [k for k in keys if k in pschema]
    check_parameter(
        pkeys == keys,
        func,
        f"the pairwise frame (cd=) must have the key columns of ranks {keys}, got "
        f"{[k for k in keys if k not in pkeys]} missing.",
    )
    pw = b.gather(plf, func, "cd=")
    if test == "wilcoxon_holm":
        check_parameter(
            "p_adjusted" in pw.columns,
            func,
            "test='wilcoxon_holm' needs Holm-corrected comparisons (a p_adjusted column, "
            "fe.wilcoxon(..., adjust='holm')), got none.",
        )
    return pw, pkeys


def _test_cd(df: pl.DataFrame, pw: pl.DataFrame, pkeys: list[str], func: str) -> pl.DataFrame:
    """The ranks with the procedure's critical value (per group) as ``cd``."""
    column = "critical_value" if "critical_value" in pw.columns else "cd"
    b.check_plotted(pw.schema, func, critical_value=column)
    cds = pw.select(*pkeys, pl.col(column).cast(pl.Float64).alias("cd"))
    df = df.drop("cd", strict=False)
    if pkeys:
        return df.join(cds.unique(pkeys, keep="first"), on=pkeys, how="left", nulls_equal=True)
    return df.with_columns(pl.lit(cds.get_column("cd")[0], dtype=pl.Float64).alias("cd"))


def _control_members(
    pw: pl.DataFrame, side: pl.DataFrame, pkeys: list[str], learner: str, control: Any
) -> pl.DataFrame:
    """One clique per group: the control and every learner not significantly different."""
    against = pw.filter((pl.col("a") == control) | (pl.col("b") == control))
    others = against.filter(~pl.col("reject").fill_null(False)).select(
        *pkeys,
        pl.when(pl.col("a") == control).then(pl.col("b")).otherwise(pl.col("a")).alias(learner),
    )
    chosen = pl.concat(
        [others, side.filter(pl.col(learner) == control).select(*pkeys, learner)],
        how="vertical_relaxed",
    )
    members = side.join(chosen.unique(), on=[*pkeys, learner], how="semi", nulls_equal=True)
    size = b.over(pl.len(), pkeys)
    return members.with_columns(pl.lit(1, dtype=pl.Int64).alias("clique")).filter(size >= 2)


def _cd_interval(df, keys, facets, learner, average_rank, title, width, height, k_max):
    # each bar whole, [r − CD/2, r + CD/2], centred on its rank (figure 2.8; the Matlab of
    # the notes: line([ranks(i)-CD/2, ranks(i)+CD/2], …)); the axis reaches past 1…k as far
    # as the bars do, its ticks stay on the possible average ranks 1…k
    df = df.with_columns(
        (pl.col(average_rank) - pl.col("cd") / 2).alias("__fe_lo"),
        (pl.col(average_rank) + pl.col("cd") / 2).alias("__fe_hi"),
        pl.lit("rank").alias(b.LAYER),
    )
    best = b.per_group(df.sort(average_rank), keys, pl.col("__fe_hi").first(), maintain_order=True)
    best = best.select(*keys, pl.col("__fe_hi").alias(b.X), pl.lit("best").alias(b.LAYER))
    data, panel = b.add_facet(b.combine([df, best]), facets)
    order = df.sort(average_rank).get_column(learner).unique(maintain_order=True).to_list()
    low = min(1.0, float(df.get_column("__fe_lo").min()))
    high = max(float(max(2, k_max)), float(df.get_column("__fe_hi").max()))
    x_scale = alt.Scale(domain=[low, high], nice=False, zero=False)
    x_axis = theme.axis("Average rank (lower is better)", values=list(range(1, max(2, k_max) + 1)))
    y = alt.Y(
        field=b.field(learner), type="nominal", sort=order, axis=theme.axis(learner, labelLimit=200)
    )
    tips = [*_rank_tips(keys, learner, average_rank), b.tooltip("cd", "quantitative", ".3f", "CD")]
    layers = [
        b.only(
            alt.Chart()
            .mark_rule(color=theme.GUIDE, strokeDash=[2, 3])
            .encode(x=alt.X(field=b.X, type="quantitative", scale=x_scale)),
            "best",
        ),
        b.only(
            alt.Chart()
            .mark_rule(strokeWidth=2.5, color=theme.INK)
            .encode(
                x=alt.X(field="__fe_lo", type="quantitative", scale=x_scale, axis=x_axis),
                x2=alt.X2(field="__fe_hi"),
                y=y,
                tooltip=tips,
            ),
            "rank",
        ),
        b.only(
            alt.Chart()
            .mark_point(filled=True, size=90, color=theme.INK, opacity=1)
            .encode(x=_at_rank(average_rank, x_scale), y=y, tooltip=tips),
            "rank",
        ),
    ]
    subtitle = [  # three short lines: no wider than the panel
        "dot: average rank; bar: r − CD/2 to r + CD/2, centred on it;",
        "bars that do not overlap differ significantly (figure 2.8);",
        "dotted line: the right end of the best learner's bar (rank + CD/2)",
    ]
    resolve = {"y": "independent"} if panel.field is not None else None
    return b.panels(
        layers, data, panel, title or "Friedman test: average ranks with CD", subtitle, width,
        height or max(90, 34 * k_max), resolve=resolve,
    )  # fmt: skip


def _rank_tips(keys: list[str], learner: str, average_rank: str) -> list[alt.Tooltip]:
    return [
        *b.key_tooltips(keys),
        b.tooltip(learner),
        b.tooltip(average_rank, "quantitative", ".3f", "average rank"),
    ]


def _at_rank(average_rank: str, scale: alt.Scale, **extra: Any) -> alt.X:
    """x at a learner's average rank."""
    return alt.X(field=b.field(average_rank), type="quantitative", scale=scale, **extra)


_ROW = 1.0  # label row height (y units)
_CLIQUE = 0.4  # clique row height


def _cd_demsar(
    df, keys, facets, learner, average_rank, title, width, height, k_max,
    clq=None, show_cd=True, subtitle=None,
):  # fmt: skip
    if clq is None:
        clq = cliques(df, learner, average_rank, keys)
    ranked = _demsar_ranked(df, keys, average_rank, learner, clq)
    frames = [
        _demsar_labels(ranked, learner, average_rank),
        *_demsar_axis(ranked, keys, show_cd),
        _demsar_bars(clq, keys),
    ]
    data, panel = b.add_facet(b.combine(frames), facets)
    k_f = float(k_max)
    span = 0.15 * (k_f - 1) + 0.05
    x_scale = alt.Scale(
        domain=[1 - span - 0.05 * k_f, k_f + span + 0.05 * k_f], nice=False, zero=False
    )
    y_min = float(data.get_column(b.Y).min())
    y_scale = alt.Scale(domain=[y_min - 0.6, 2.0], nice=False, zero=False)
    x = alt.X(field=b.X, type="quantitative", scale=x_scale, axis=None)
    y = alt.Y(field=b.Y, type="quantitative", scale=y_scale, axis=None)
    tips = _rank_tips(keys, learner, average_rank)
    layers = _demsar_axis_layers(x, y, x_scale, keys)
    for side in ("left", "right"):
        layers += _demsar_side(side, x, y, _at_rank(average_rank, x_scale, axis=None), tips)
    rows = (k_max + 1) // 2
    n_max = int(data.filter(pl.col(b.LAYER) == "clique").height)
    height = height or int(40 + 26 * (rows + 2.5 + _CLIQUE * n_max))
    chart = alt.layer(*layers, data=data).properties(
        width=width, height=height, view=alt.ViewBackground(stroke=None)
    )
    subtitle = subtitle or (
        "axis: average rank (1 = best); thick bars join learners whose ranks differ by at most "
        "CD (not significantly different)"
    )
    resolve = {"x": "independent", "y": "independent"} if panel.field is not None else None
    return b.facet_chart(
        chart, panel, theme.title(title or "Critical difference diagram", subtitle), resolve=resolve
    )


def _demsar_ranked(
    df: pl.DataFrame, keys: list[str], average_rank: str, learner: str, clq: pl.DataFrame
) -> pl.DataFrame:
    """The learners in rank order per group: position ``__fe_i`` of ``__fe_k``, the label rows
    per side ``__fe_half`` and the number of clique bars above them ``__fe_nc``."""
    ranked = df.sort([*keys, average_rank, learner], nulls_last=True).with_columns(
        b.over(pl.int_range(pl.len()), keys).alias("__fe_i"),
        b.over(pl.len(), keys).cast(pl.Int64).alias("__fe_k"),
    )
    ranked = ranked.with_columns(((pl.col("__fe_k") + 1) // 2).alias("__fe_half"))
    if not clq.height:
        return ranked.with_columns(pl.lit(0).alias("__fe_nc"))
    n_cliques = b.per_group(clq, keys, pl.len())
    if not keys:
        return ranked.with_columns(pl.lit(int(n_cliques.get_column("len")[0])).alias("__fe_nc"))
    return ranked.join(
        n_cliques.rename({"len": "__fe_nc"}), on=keys, how="left", nulls_equal=True
    ).with_columns(pl.col("__fe_nc").fill_null(0))


def _demsar_labels(ranked: pl.DataFrame, learner: str, average_rank: str) -> pl.DataFrame:
    """Each learner's label ("A (1.250)"): the first half on the left, the rest on the right,
    one row each below the clique bars."""
    left = pl.col("__fe_i") < pl.col("__fe_half")
    row = pl.when(left).then(pl.col("__fe_i")).otherwise(pl.col("__fe_k") - 1 - pl.col("__fe_i"))
    k = pl.col("__fe_k").cast(pl.Float64)
    label_x = (
        pl.when(left).then(pl.lit(1.0) - 0.15 * (k - 1) - 0.05).otherwise(k + 0.15 * (k - 1) + 0.05)
    )
    label_y = -(pl.lit(0.5) + pl.col("__fe_nc") * _CLIQUE + 0.5 + row * _ROW)
    mark = [pl.col("__fe_mark")] if "__fe_mark" in ranked.columns else []
    text = [b.as_text(learner), pl.lit(" ("), b.fixed(pl.col(average_rank)), pl.lit(")"), *mark]
    return ranked.with_columns(
        label_y.alias(b.Y),
        label_x.alias(b.X),
        pl.when(left).then(pl.lit("left")).otherwise(pl.lit("right")).alias(b.LAYER),
        pl.concat_str(text).alias(b.TEXT),
    )


def _demsar_axis(ranked: pl.DataFrame, keys: list[str], show_cd: bool) -> list[Any]:
    """The axis: a line from 1 to k, integer ticks with labels, and the CD bar above it."""
    ks = b.per_group(ranked, keys, pl.col("__fe_k").first(), pl.col("cd").first())
    axis_line = ks.select(
        *keys,
        pl.lit(1.0).alias(b.X),
        pl.col("__fe_k").cast(pl.Float64).alias("__fe_x2"),
        pl.lit(0.0).alias(b.Y),
        pl.lit("axis").alias(b.LAYER),
    )
    ticks = (
        ks.with_columns(pl.int_ranges(1, pl.col("__fe_k") + 1).alias("__fe_tick"))
        .explode("__fe_tick")
        .select(
            *keys,
            pl.col("__fe_tick").cast(pl.Float64).alias(b.X),
            pl.lit(0.0).alias(b.Y),
            pl.col("__fe_tick").cast(pl.String).alias(b.TEXT),
            pl.lit("tick").alias(b.LAYER),
        )
    )
    cd_bar = ks.select(
        *keys,
        pl.lit(1.0).alias(b.X),
        (1.0 + pl.col("cd")).alias("__fe_x2"),
        pl.lit(1.35).alias(b.Y),
        ("CD = " + b.fixed(pl.col("cd"), 2)).alias(b.TEXT),
        (1.0 + pl.col("cd") / 2).alias("__fe_xm"),
        pl.lit("cd").alias(b.LAYER),
    )
    return [axis_line, ticks, cd_bar if show_cd else None]


def _demsar_bars(clq: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """One thick bar per clique, from its lowest to its highest rank, stacked above the axis."""
    return clq.select(
        *keys,
        (pl.col("low") - 0.03).alias(b.X),
        (pl.col("high") + 0.03).alias("__fe_x2"),
        (-(pl.lit(0.5) + pl.col("clique") * _CLIQUE)).alias(b.Y),
        pl.lit("clique").alias(b.LAYER),
        pl.col("low").alias("__fe_low"),
        pl.col("high").alias("__fe_high"),
    )


def _demsar_axis_layers(x: alt.X, y: alt.Y, x_scale: alt.Scale, keys: list[str]) -> list[Any]:
    """The axis line, its ticks and their labels, the CD bar and its label, the clique bars."""

    def span(layer: str, stroke: float, **enc: Any) -> alt.Chart:
        rule = alt.Chart().mark_rule(color=theme.INK, strokeWidth=stroke)
        return b.only(rule.encode(x=x, x2=alt.X2(field="__fe_x2"), y=y, **enc), layer)

    def label(layer: str, dy: int, x: alt.X) -> alt.Chart:
        text = alt.Chart().mark_text(dy=dy, fontSize=theme.FONT_SIZE, color=theme.INK)
        return b.only(text.encode(x=x, y=y, text=alt.Text(field=b.TEXT, type="nominal")), layer)

    tick = alt.Chart().mark_tick(color=theme.INK, orient="vertical", size=8, thickness=1.2)
    return [
        span("axis", 1.2),
        b.only(tick.encode(x=x, y=y), "tick"),
        label("tick", -12, x),
        span("cd", 2),
        label("cd", -9, alt.X(field="__fe_xm", type="quantitative", scale=x_scale, axis=None)),
        span(
            "clique",
            4.5,
            tooltip=[
                *b.key_tooltips(keys),
                b.tooltip("__fe_low", "quantitative", ".3f", "lowest rank"),
                b.tooltip("__fe_high", "quantitative", ".3f", "highest rank"),
            ],
        ),
    ]


def _demsar_side(side: str, x: alt.X, y: alt.Y, at_rank: alt.X, tips: list) -> list[alt.Chart]:
    """The learners of one side: an elbow from the axis at their rank to their label."""
    elbow_v = alt.Chart().mark_rule(color=theme.GUIDE).encode(x=at_rank, y=y, y2=alt.Y2(datum=0))
    elbow_h = alt.Chart().mark_rule(color=theme.GUIDE).encode(x=at_rank, x2=alt.X2(field=b.X), y=y)
    name = (
        alt.Chart()
        .mark_text(
            align="right" if side == "left" else "left",
            dx=-4 if side == "left" else 4,
            fontSize=theme.FONT_SIZE + 1,
            color=theme.INK,
        )
        .encode(x=x, y=y, text=alt.Text(field=b.TEXT, type="nominal"), tooltip=tips)
    )
    return [b.only(m, side) for m in (elbow_v, elbow_h, name)]
