"""Publication tables of results: blocks (data sets) as rows, learners as columns, the best of
each row in bold, the second underlined, a mark on cells significantly worse than the row's best,
and the average ranks at the bottom — as a great-tables ``GT``, booktabs LaTeX or Markdown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import polars as pl

from frameeval._frame import collect, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import Number
from frameeval._roles import resolve
from frameeval._typing import IntoFrame
from frameeval._validate import check_not_empty_eager, check_parameter, enforce, failure
from frameeval.compare.auto import SPLIT_PROCEDURES, TEST_NAMES, Comparison
from frameeval.compare.door import learner_expr, resolve_direction
from frameeval.compare.guards import not_null_rows
from frameeval.compare.plan import check_choice
from frameeval.compare.words import decimals_expr, format_interval, format_value, value_decimals
from frameeval.exceptions import MissingValueError

if TYPE_CHECKING:
    from great_tables import GT

__all__ = ["latex_escape", "results_table"]

_FUNC = "results_table"
#: results_table's inputs: the columns named (before the roles are inferred from the others),
#: then — the roles and the interval bounds resolved — their dtypes; metric, block and learner
#: differ from each other
_GIVEN = Inputs(Column("metric"), Column("interval", several=True))
_RESOLVED = Inputs(
    Column("metric", "numeric"),
    Column("block"),
    Column("learner"),
    Column("interval_low", "numeric"),
    Column("interval_high", "numeric"),
    distinct=("metric", "block", "learner"),
)
_DECIMALS = Number(low=0, high=12, integer=True, none=True, text="None or an integer in [0, 12]")
#: the mark on a cell significantly worse than its row's best
WORSE_MARK = "†"
AVERAGE_RANK_ROW = "average rank"

_AGGREGATES = {
    "mean_std": "mean ± standard deviation",
    "mean_ci": "mean ± half-width of the 95% t confidence interval",
    "median_iqr": "median [first quartile, third quartile]",
}


@dataclass(frozen=True)
class _Cells:
    blocks: list[Any]
    learners: list[str]
    text: dict[tuple[int, int], str]  # (row, column) → value text
    best: set[tuple[int, int]]
    second: set[tuple[int, int]]
    worse: set[tuple[int, int]]
    ranks: list[str]
    best_rank: set[int]
    note: str
    block: str


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters ``\ & % $ # _ { } ~ ^`` in a name.

    Examples
    --------
    >>> from frameeval.compare.table import latex_escape
    >>> print(latex_escape("svm_rbf 10% & #1"))
    svm\_rbf 10\% \& \#1
    """
    out = []
    for ch in str(text):
        if ch == "\\":
            out.append(r"\textbackslash{}")
        elif ch in "&%$#_{}":
            out.append("\\" + ch)
        elif ch == "~":
            out.append(r"\textasciitilde{}")
        elif ch == "^":
            out.append(r"\textasciicircum{}")
        else:
            out.append(ch)
    return "".join(out)


def results_table(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    higher_is_better: bool | None = None,
    aggregate: Literal["mean_std", "mean_ci", "median_iqr"] = "mean_std",
    significance: Comparison | None = None,
    decimals: int | None = None,
    format: Literal["gt", "latex", "markdown"] = "gt",
    level: Literal["auto", "blocks", "splits"] = "auto",
    interval: tuple[str, str] | Literal[False] | None = None,
    interval_name: str = "interval",
) -> GT | str:
    """The results table of a study: blocks as rows, learners as columns.

    Every cell summarises the learner's ``metric`` values on the block (one value, or several —
    folds, repeats — aggregated as ``aggregate`` says), e.g. ``0.962 ± 0.012``; a cell of one
    value with an interval (``interval=``) shows it in brackets, e.g. ``0.912 [0.887, 0.934]``
    (the columns ``<metric>_low``, ``<metric>_high`` of :func:`frameeval.measures` with
    ``ci=``). The best cell of
    each row is bold and the second best underlined (compared as displayed, i.e. rounded to
    ``decimals``; ties share the mark); with
    ``significance``, cells significantly worse than the row's best carry a † mark. The last
    row holds each learner's average rank over the blocks (Table 2.5; the best in bold; no
    such row with one block), and a footnote names the aggregate, the marks, the test and α.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one or more rows per block × learner.
    metric
        Column with the metric values.
    block, learner
        Columns naming the rows (data sets) and the columns (learners); default: inferred from
        the column names as in :func:`compare_learners`.
    higher_is_better
        Direction of ``metric``; default: the registered measure of the same name.
    aggregate
        ``"mean_std"`` (``mean ± sd``, sd with ddof = 1), ``"mean_ci"`` (``mean ± t_{0.975,
        n−1} sd/√n``) or ``"median_iqr"`` (``median [q1, q3]``, linear quantiles). A cell with a
        single value shows the value alone (and when every cell has one, the footnote says
        "one per cell"). The best / second best and the ranks use the mean (median for
        ``"median_iqr"``).
    significance
        A :class:`Comparison` (the result of :func:`compare_learners` on the same data): a cell is
        marked † when its learner is significantly worse than the row's best learner by the
        comparison's post-hoc test. A comparison made per block (``by=`` the block column, e.g.
        over folds) gives each row its own decisions; otherwise the decisions over all blocks
        apply to every row.
    level
        Which of ``significance``'s decisions mark the cells. ``"auto"`` (default): the test
        each row's verdict cites — a data set with splits (``significance.per_data_set``, from
        :func:`compare_learners` on several data sets with a fold column, and tested there) is
        marked by its own split-level test (e.g. the corrected resampled t test of every pair
        on its folds, Holm-adjusted), every other row by the post-hoc test over data sets; the
        footnote says which, per row when they differ. ``"blocks"``: the post-hoc test over
        data sets on every row; ``"splits"``: the split-level test of each row's data set
        (rows without one carry no mark).
    decimals
        Digits after the decimal point (of the values, the intervals and the average ranks);
        default None: by each value's scale, the one display rule of the verdicts too
        (:func:`frameeval.compare.words.value_decimals`: 3 below 10, then four significant
        digits — ``0.923``, ``1.625``, ``12.35``, ``123.4``).
    interval
        The two columns holding each value's interval, ``(low, high)``; ``None`` (default):
        ``(<metric>_low, <metric>_high)`` when the data has both columns (as
        :func:`frameeval.measures` with ``ci=`` writes them), else no interval; ``False``: none.
        Shown on the cells with one value; a null bound shows the value alone. A cell of
        several values shows their aggregate (intervals of single values do not combine into
        one), and the footnote says so.
    interval_name
        What the intervals are, for the footnote, e.g. ``"95% Wilson interval"``.
    format
        ``"gt"`` (a ``great_tables.GT``), ``"latex"`` (a booktabs LaTeX ``tabular`` string,
        with a footnote row) or ``"markdown"`` (a GitHub Markdown string).

    Returns
    -------
    great_tables.GT or str

    Notes
    -----
    The table is a boundary: the (small) block × learner summary is collected. great-tables'
    ``as_latex()`` drops cell styles and footnotes, so the LaTeX string is written here, with
    the marks in the cell text: ``\\textbf{}`` (best), ``\\underline{}`` (second),
    ``\\textsuperscript{\\dag}`` (significantly worse); learner and block names are escaped
    (``\\ & % $ # _ { } ~ ^``). It needs ``\\usepackage{booktabs}``. In Markdown, bold is
    ``**…**`` and underline ``<u>…</u>``.

    References
    ----------
    Demšar (2006), JMLR 7 (Table 6, the average-rank row). great-tables (Posit).

    Examples
    --------
    >>> df = pl.DataFrame({"data_set": ["d1", "d1", "d2", "d2"], "learner": ["A", "B"] * 2,
    ...                    "accuracy": [0.90, 0.80, 0.70, 0.75]})
    >>> print(fe.results_table(df, "accuracy", format="markdown"))
    | data_set | A | B |
    |---|---|---|
    | d1 | **0.900** | <u>0.800</u> |
    | d2 | <u>0.700</u> | **0.750** |
    | average rank | **1.500** | **1.500** |
    <BLANKLINE>
    Bold: best per row; underlined: second best. Values: one per cell.
    """
    check_parameter(
        aggregate in _AGGREGATES,
        _FUNC,
        f"aggregate must be one of {sorted(_AGGREGATES)}, got {aggregate!r}.",
    )
    check_choice(format, ("gt", "latex", "markdown"), _FUNC, "format")
    _DECIMALS(_FUNC, "decimals", decimals)
    check_parameter(
        significance is None or isinstance(significance, Comparison),
        _FUNC,
        "significance must be None or the result of compare_learners, got "
        f"{type(significance).__name__}.",
    )
    check_choice(level, ("auto", "blocks", "splits"), _FUNC, "level")
    split_rows = _split_rows(significance, level)
    check_parameter(
        interval is None
        or interval is False
        or (
            isinstance(interval, tuple)
            and len(interval) == 2
            and all(isinstance(c, str) for c in interval)
        ),
        _FUNC,
        f"interval must be None, False or a (low, high) pair of column names, got {interval!r}.",
    )
    check_parameter(
        isinstance(interval_name, str),
        _FUNC,
        f"interval_name must be a string, got {interval_name!r}.",
    )
    lf, eager = to_lazy(data, _FUNC)
    schema = lf.collect_schema()
    bounds: tuple[str, str] | None = None
    if interval is None:
        auto = (f"{metric}_low", f"{metric}_high")
        bounds = auto if all(c in schema for c in auto) else None
    elif interval is not False:
        bounds = interval
    pair = None if interval is None or bounds is None else list(bounds)
    _GIVEN.compile(schema, _FUNC, metric=metric, interval=pair)
    block, learner = resolve(lf, _FUNC, [metric], block=block, learner=learner)
    low, high = bounds or (None, None)
    roles = dict(metric=metric, block=block, learner=learner)
    _RESOLVED.compile(schema, _FUNC, **roles, interval_low=low, interval_high=high)
    check_not_empty_eager(data, eager, lf, _FUNC)
    hib = resolve_direction(_FUNC, metric, higher_is_better)

    summary = collect(
        _summary(lf, schema, block, learner, metric, aggregate, hib, decimals, bounds)
    )
    named = interval_name if bounds is not None else None
    cells = _layout(
        summary, block, learner, aggregate, significance, decimals, hib, named, split_rows, level
    )
    return {"latex": _latex, "markdown": _markdown}.get(format, _gt)(cells)


def _split_rows(significance: Comparison | None, level: str) -> set[Any] | None:
    """The rows marked by their own split-level test (``level="auto"`` when there is one,
    ``"splits"`` always), None for the data-set level."""
    split_rows: set[Any] | None = None
    if level == "auto" and significance is not None and significance.per_data_set is not None:
        split_rows = _tested_blocks(significance.per_data_set)
    if level == "splits":
        check_parameter(
            significance is not None and significance.per_data_set is not None,
            _FUNC,
            "level='splits' needs significance= from compare_learners on several data sets "
            "with a fold column (its per_data_set comparison), got "
            + (
                "significance=None."
                if significance is None
                else "a comparison without per_data_set."
            ),
        )
        assert significance is not None and significance.per_data_set is not None
        split_rows = _tested_blocks(significance.per_data_set)
    return split_rows


def _summary(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    block: str,
    learner: str,
    metric: str,
    aggregate: str,
    hib: bool,
    decimals: int | None,
    bounds: tuple[str, str] | None = None,
) -> pl.LazyFrame:
    """``block, learner, center, low, high, spread, n, rank, __dense, ci_low, ci_high`` per
    block × learner (``ci_*``: the interval of a cell's value, null without ``bounds``)."""
    from frameeval.compare.scipy_step import scipy_step

    lf = not_null_rows(lf, _FUNC, [], {"block": block, "learner": learner})
    x = pl.col(metric).cast(pl.Float64)
    lf = enforce(
        lf,
        failure(
            x.is_null() | x.is_nan() | x.is_infinite(),
            MissingValueError,
            f"{_FUNC}(): column {metric!r} (metric=) must be finite, got {{}} for "
            f"{learner}={{}} on {block}={{}}.",
            x.cast(pl.String).fill_null("null"),
            pl.col(learner).cast(pl.String),
            pl.col(block).cast(pl.String),
        ),
    )
    lf = lf.with_columns(learner_expr(learner, schema).cast(pl.String).alias(learner))
    out = lf.group_by(block, learner).agg(
        pl.len().cast(pl.Float64).alias("n"),
        x.mean().alias("__mean"),
        x.std(ddof=1).alias("__std"),
        x.median().alias("__median"),
        x.quantile(0.25, "linear").alias("__q1"),
        x.quantile(0.75, "linear").alias("__q3"),
        *(
            (
                pl.col(c).cast(pl.Float64).first().alias(f"ci_{side}")
                for c, side in zip(bounds, ("low", "high"), strict=True)
            )
            if bounds is not None
            else (pl.lit(None, dtype=pl.Float64).alias(f"ci_{s}") for s in ("low", "high"))
        ),
    )

    def t975(n):
        from scipy import stats

        return {"__t": stats.t.ppf(0.975, n - 1)}

    out = scipy_step(out, t975, ["n"], ["__t"])
    center = pl.col("__median") if aggregate == "median_iqr" else pl.col("__mean")
    spread = {
        "mean_std": pl.col("__std"),
        "mean_ci": pl.col("__t") * pl.col("__std") / pl.col("n").sqrt(),
        "median_iqr": pl.lit(None, dtype=pl.Float64),
    }[aggregate]
    out = out.with_columns(
        center.alias("center"),
        spread.alias("spread"),
        pl.col("__q1").alias("low"),
        pl.col("__q3").alias("high"),
    ).with_columns(
        pl.col("center").rank("average", descending=hib).over(block).alias("rank"),
        (decimals_expr(pl.col("center")) if decimals is None else pl.col("center").round(decimals))
        .rank("dense", descending=hib)
        .over(block)
        .alias("__dense"),
    )
    return out.select(
        block,
        learner,
        "center",
        "spread",
        "low",
        "high",
        "n",
        "rank",
        "__dense",
        "ci_low",
        "ci_high",
    )


def _fmt(value: float, decimals: int | None) -> str:
    return format_value(value, decimals)


def _tested_blocks(split: Comparison) -> set[Any]:
    """The data sets of a per-data-set (split-level) comparison whose pairs were tested."""
    key = split.by[-1] if split.by else None  # the data set column (split.block: the splits)
    design = split.design.filter(pl.col("procedure") != "none")
    return set(design.get_column(key).to_list()) if key in design.columns else set()


def _test_names(result: Comparison, block: str | None = None, rows: set[Any] | None = None) -> str:
    """The post-hoc tests of ``result`` in words (only those of ``rows`` of ``block``)."""
    design = result.design
    if rows is not None and block is not None and block in design.columns:
        design = design.filter(pl.col(block).is_in(list(rows)))
    tests = design.get_column("post_hoc_test").drop_nulls().unique().to_list()
    return ", ".join(TEST_NAMES.get(t, t) for t in sorted(tests)) or "no post-hoc test"


def _row_list(rows: set[Any]) -> str:
    return ", ".join(str(r) for r in sorted(rows, key=str))


class _Grid(NamedTuple):
    """The table's rows (block → row index), columns (learner → column index) and each row's
    best learners."""

    row: dict[Any, int]
    col: dict[str, int]
    row_best: dict[int, list[str]]


def _marks(
    significance: Comparison, block: str, grid: _Grid, split_rows: set[Any] | None, level: str
) -> tuple[set[tuple[int, int]], str]:
    """The † cells and the footnote's words on them: each row marked by the test its verdict
    cites (see :func:`results_table`'s ``level``)."""
    row = grid.row
    alpha = f"α = {significance.alpha:g}"
    head = f"{WORSE_MARK}: significantly worse than the row's best"
    split = significance.per_data_set
    if split_rows is None or split is None:  # one source: the comparison's own post-hoc
        worse = _worse(significance, block, grid)
        names, extra = _test_names(significance), ""
        tests = set(significance.design.get_column("post_hoc_test").drop_nulls().to_list())
        if tests & set(SPLIT_PROCEDURES):
            names += " of every pair on the row's splits"
        elif list(significance.by) != [block] and len(row) > 1:
            extra = "; decided over all data sets, so the same pairs mark every row"
        return worse, f"{head} ({names}, {alpha}{extra})"
    own = {name: i for name, i in row.items() if name in split_rows}
    rest = {name: i for name, i in row.items() if name not in split_rows}
    worse = _worse(split, block, grid._replace(row=own)) if own else set()
    split_names = _test_names(split, block, set(own)) + " of every pair on the row's splits"
    if level == "splits" or not rest:
        tail = f"; rows without splits: no mark ({_row_list(set(rest))})" if rest else ""
        return worse, f"{head} ({split_names}, {alpha}){tail}"
    worse |= _worse(significance, block, grid._replace(row=rest))
    over = _test_names(significance) + " over all data sets"
    if not own:
        return worse, f"{head} ({over}, {alpha})"
    return worse, (
        f"{head} ({alpha}) by the test each row's verdict cites: on {_row_list(set(own))} the "
        f"{split_names}; on {_row_list(set(rest))} the {over}"
    )


def _layout(
    summary: pl.DataFrame,
    block: str,
    learner: str,
    aggregate: str,
    significance: Comparison | None,
    decimals: int | None,
    hib: bool,
    interval_name: str | None = None,
    split_rows: set[Any] | None = None,
    level: str = "auto",
) -> _Cells:
    avg = (
        summary.group_by(learner)
        .agg(pl.col("rank").mean().alias("average_rank"))
        .sort("average_rank", learner)
    )
    learners = avg.get_column(learner).to_list()
    blocks = summary.get_column(block).unique().sort().to_list()
    col = {name: j for j, name in enumerate(learners)}
    row = {name: i for i, name in enumerate(blocks)}
    text: dict[tuple[int, int], str] = {}
    best: set[tuple[int, int]] = set()
    second: set[tuple[int, int]] = set()
    row_best: dict[int, list[str]] = {}
    for r in summary.iter_rows(named=True):  # loop-ok: rendering the (small) summary
        i, j = row[r[block]], col[r[learner]]
        digits = value_decimals(r["center"]) if decimals is None else decimals  # the cell's
        value = _fmt(r["center"], digits)
        if aggregate == "median_iqr":
            if r["n"] > 1:
                value += f" [{_fmt(r['low'], digits)}, {_fmt(r['high'], digits)}]"
        elif r["spread"] is not None and r["n"] > 1:
            value += f" ± {_fmt(r['spread'], digits)}"
        if r["n"] == 1 and interval_name is not None:
            value = format_interval(r["center"], r["ci_low"], r["ci_high"], digits)
        text[(i, j)] = value
        if r["__dense"] == 1:
            best.add((i, j))
            row_best.setdefault(i, []).append(r[learner])
        elif r["__dense"] == 2:
            second.add((i, j))
    worse: set[tuple[int, int]] = set()
    note = "Bold: best per row; underlined: second best"
    if significance is not None:
        worse, words = _marks(significance, block, _Grid(row, col, row_best), split_rows, level)
        note += f"; {words}"
    several = summary.filter(pl.col("n") > 1).height > 0  # a spread to show
    single = summary.filter(pl.col("n") == 1).height > 0
    shown = _AGGREGATES[aggregate] if several else "one per cell"
    if interval_name is not None and single:
        with_interval = f"the value with its {interval_name} [low, high]"
        shown = f"{shown}; a cell of one value: {with_interval}" if several else with_interval
    note += f". Values: {shown}."
    # one block: no average-rank row (each rank is the row's own order, said by the marks)
    ranks = avg.get_column("average_rank").to_list() if len(blocks) > 1 else []
    low = min(ranks) if ranks else None
    return _Cells(
        blocks=blocks,
        learners=learners,
        text=text,
        best=best,
        second=second,
        worse=worse,
        ranks=[_fmt(v, decimals) for v in ranks],
        best_rank={j for j, v in enumerate(ranks) if v == low},
        note=note,
        block=block,
    )


def _worse(result: Comparison, block: str, grid: _Grid) -> set[tuple[int, int]]:
    """Cells whose learner is significantly worse than (one of) the row's best learners."""
    row, col, row_best = grid
    ph = result.post_hoc.filter(pl.col("reject").fill_null(False) & pl.col("better").is_not_null())
    per_block = list(result.by) == [block]
    pairs: dict[Any, set[tuple[str, str]]] = {}
    for r in ph.iter_rows(named=True):  # loop-ok: rendering
        worse = r["b"] if r["better"] == r["a"] else r["a"]
        key = r[block] if per_block else None
        pairs.setdefault(key, set()).add((r["better"], worse))
    marked = set()
    for name, i in row.items():  # loop-ok: rendering, one row per block
        decided = pairs.get(name if per_block else None, set())
        for j_name, j in col.items():  # loop-ok: rendering
            leaders = row_best.get(i, [])
            if j_name not in leaders and any((b, j_name) in decided for b in leaders):
                marked.add((i, j))
    return marked


# ---------------------------------------------------------------------------------------------
# renderers
# ---------------------------------------------------------------------------------------------
def _gt(cells: _Cells) -> GT:
    from great_tables import GT, loc, style

    stub = "__row"
    rank_row = [AVERAGE_RANK_ROW] if cells.ranks else []  # none on one block
    columns: dict[str, list[str]] = {stub: [str(b) for b in cells.blocks] + rank_row}
    ids = [f"c{j}" for j in range(len(cells.learners))]
    for j, cid in enumerate(ids):
        values = []
        for i in range(len(cells.blocks)):
            value = cells.text.get((i, j), "")
            if (i, j) in cells.worse:
                value += f" {WORSE_MARK}"
            values.append(value)
        if cells.ranks:
            values.append(cells.ranks[j])
        columns[cid] = values
    frame = pl.DataFrame(columns, schema={c: pl.String for c in columns})
    labels: dict[str, Any] = dict(zip(ids, cells.learners, strict=True))
    table = (
        GT(frame, rowname_col=stub)
        .tab_stubhead(label=cells.block)
        .cols_label(cases=labels)
        .cols_align("right", columns=ids)
        .tab_source_note(cells.note)
    )
    last = len(cells.blocks)
    for marks, css in (
        (cells.best, style.text(weight="bold")),
        (cells.second, style.text(decorate="underline")),
    ):
        for j, cid in enumerate(ids):  # loop-ok: rendering, one style call per column
            rows = sorted(i for (i, jj) in marks if jj == j)
            if rows:
                table = table.tab_style(css, loc.body(columns=cid, rows=rows))
    for j in sorted(cells.best_rank):  # loop-ok: rendering
        table = table.tab_style(style.text(weight="bold"), loc.body(columns=ids[j], rows=[last]))
    if cells.ranks:
        table = table.tab_style(style.borders(sides="top", weight="2px"), loc.body(rows=[last]))
    return table


def _mark(
    text: str,
    i: int,
    j: int,
    cells: _Cells,
    bold: tuple[str, str],
    under: tuple[str, str],
    worse: str,
) -> str:
    if (i, j) in cells.best:
        text = bold[0] + text + bold[1]
    elif (i, j) in cells.second:
        text = under[0] + text + under[1]
    if (i, j) in cells.worse:
        text += worse
    return text


#: text of a footnote that pdflatex's T1 / utf8 setup would not typeset, in LaTeX
_LATEX_TEXT = {
    "±": r"$\pm$",
    "α": r"$\alpha$",
    "χ²": r"$\chi^2$",
    "×": r"$\times$",
    "−": r"$-$",
    "≤": r"$\leq$",
    "≥": r"$\geq$",
    "…": r"\ldots{}",
    "√": r"$\surd$",
}


def _latex_text(text: str) -> str:
    """Escaped text with the few non-ASCII signs the notes use written as LaTeX."""
    out = latex_escape(text).replace(WORSE_MARK, r"\dag{}")
    for sign, tex in _LATEX_TEXT.items():  # loop-ok: a handful of signs
        out = out.replace(sign, tex)
    return out


def _latex_cell(text: str) -> str:
    """A cell's value; a value with an interval ``v [lo, hi]`` on two lines (the interval
    below, smaller), which halves the column's width."""
    value, bracket, rest = text.partition(" [")
    value = _latex_text(value)
    if not bracket:
        return value
    interval = _latex_text("[" + rest)
    return (
        r"\begin{tabular}[t]{@{}r@{}}" + value + r"\\{\scriptsize " + interval + r"}\end{tabular}"
    )


#: the comment above every LaTeX table: the packages, and what to do with a wide table
LATEX_HEAD = (
    "% frameeval results table: needs \\usepackage{booktabs} and \\usepackage{graphicx}.\n"
    "% It is scaled down to the line width when wider (the footnote wraps inside its width).\n"
    "% A wide table in a two-column paper: put it in table* (both columns), or rotate it:\n"
    "% \\usepackage{rotating} and \\begin{sidewaystable} ... \\end{sidewaystable}.\n"
)


def _latex(cells: _Cells) -> str:
    """A booktabs tabular measured in a box, scaled to ``\\linewidth`` only when wider, and
    set in a ``\\parbox`` of its own width with the footnote below it: the note wraps inside
    the table's width (no ``\\multicolumn`` line running off the page), in ``article`` and in
    ``twocolumn`` alike."""
    k = len(cells.learners)
    head = " & ".join([latex_escape(cells.block), *(latex_escape(n) for n in cells.learners)])
    lines = [
        LATEX_HEAD.rstrip("\n"),
        r"\begingroup",
        r"\setbox2=\hbox{%",
        r"\begin{tabular}{l" + "r" * k + "}",
        r"\toprule",
        head + r" \\",
        r"\midrule",
    ]
    for i, name in enumerate(cells.blocks):  # loop-ok: rendering
        row = [latex_escape(str(name))]
        for j in range(k):
            text = _latex_cell(cells.text.get((i, j), ""))
            row.append(
                _mark(
                    text,
                    i,
                    j,
                    cells,
                    (r"\textbf{", "}"),
                    (r"\underline{", "}"),
                    r"\textsuperscript{\dag}",
                )
            )
        lines.append(" & ".join(row) + r" \\")
    if cells.ranks:
        lines.append(r"\midrule")
        ranks = [
            (r"\textbf{" + v + "}") if j in cells.best_rank else v
            for j, v in enumerate(cells.ranks)
        ]
        lines.append(" & ".join([AVERAGE_RANK_ROW, *ranks]) + r" \\")
    lines += [
        r"\bottomrule",
        r"\end{tabular}}%",
        r"\ifdim\wd2>\linewidth\setbox2=\hbox{\resizebox{\linewidth}{!}{\box2}}\fi",
        r"\noindent\parbox{\wd2}{\box2\par\smallskip\noindent\footnotesize\raggedright",
        _latex_text(cells.note) + r"\par}%",
        r"\endgroup",
    ]
    return "\n".join(lines) + "\n"


def _markdown_escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", r"\|").replace("*", r"\*")


def _markdown(cells: _Cells) -> str:
    k = len(cells.learners)
    head = (
        "| "
        + " | ".join(
            [_markdown_escape(cells.block), *(_markdown_escape(n) for n in cells.learners)]
        )
        + " |"
    )
    lines = [head, "|" + "---|" * (k + 1)]
    for i, name in enumerate(cells.blocks):  # loop-ok: rendering
        row = [_markdown_escape(str(name))]
        for j in range(k):
            row.append(
                _mark(
                    cells.text.get((i, j), ""),
                    i,
                    j,
                    cells,
                    ("**", "**"),
                    ("<u>", "</u>"),
                    f" {WORSE_MARK}",
                )
            )
        lines.append("| " + " | ".join(row) + " |")
    if cells.ranks:
        ranks = [f"**{v}**" if j in cells.best_rank else v for j, v in enumerate(cells.ranks)]
        lines.append("| " + " | ".join([AVERAGE_RANK_ROW, *ranks]) + " |")
    return "\n".join(lines) + "\n\n" + cells.note
