"""How a :class:`~frameeval.compare.auto.result.Comparison` shows in a notebook: a one-line
headline per group (winner and significance), the verdict, the results table and the CD
diagram, as one HTML fragment (``Comparison._repr_html_``).

Words and layout only: every number comes from the comparison's frames."""

from __future__ import annotations

import html
from typing import Any, Protocol

import polars as pl

from frameeval.compare.auto.context import MEAN_BASED, PAIR_PROCEDURES, TEST_NAMES
from frameeval.compare.words import format_p, format_value
from frameeval.exceptions import FrameEvalError
from frameeval.metrics.measure import display_name


class Shown(Protocol):
    """What the display reads of a :class:`~frameeval.compare.auto.result.Comparison` (which
    imports this module to show itself, so the type is named by its parts, not imported)."""

    @property
    def procedure(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def design(self) -> pl.DataFrame: ...
    @property
    def omnibus(self) -> pl.DataFrame: ...
    @property
    def post_hoc(self) -> pl.DataFrame: ...
    @property
    def ranks(self) -> pl.DataFrame: ...
    @property
    def metric(self) -> str: ...
    @property
    def block(self) -> str: ...
    @property
    def by(self) -> tuple[str, ...]: ...
    @property
    def alpha(self) -> float: ...
    @property
    def higher_is_better(self) -> bool: ...
    def chart(self, **kwargs: Any) -> Any: ...


__all__ = ["comparison_html", "headlines"]

#: columns of ``Comparison.ranks`` shown in the results table, with their headers and decimals
_TABLE = {
    "position": ("position", None),
    "learner": ("learner", None),
    "average_rank": ("average rank", 3),
    "mean": ("mean", 3),
    "std": ("sd", 3),
    "median": ("median", 3),
}


def _names(learners: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(learners) <= 1:
        return "".join(learners)
    return ", ".join(learners[:-1]) + " or " + learners[-1]


def _select(frame: pl.DataFrame, keys: list[str], values: dict[str, Any]) -> pl.DataFrame:
    out = frame
    for key in keys:  # loop-ok: one filter per key column
        out = out.filter(pl.col(key).eq_missing(pl.lit(values[key])))
    return out


def _figure(result: Shown, row: dict[str, Any]) -> str:
    """The best learner's number, as the results table prints it (:func:`format_value`): on
    one data set's splits its mean (the table's cell); over blocks by a mean-based procedure
    its mean and average rank (the table's last row); otherwise its average rank."""
    rank, mean = row.get("average_rank"), row.get("mean")
    ranked = f"average rank {format_value(rank)}" if rank is not None else ""
    if result.procedure in PAIR_PROCEDURES:
        return f"mean {format_value(mean)}" if mean is not None else ranked
    if result.procedure in MEAN_BASED and mean is not None:
        return f"mean {format_value(mean)}; {ranked}" if ranked else f"mean {format_value(mean)}"
    return ranked


def _headline(result: Shown, group: dict[str, Any]) -> str:
    """One sentence: the best learner (with its number, rounded as the results table rounds
    it) and what the tests say about the others."""
    keys = list(result.by)
    design = _select(result.design, keys, group)
    prefix = ", ".join(f"{k} = {group[k]}" for k in keys)
    prefix = f"{prefix}: " if prefix else ""
    if design.height == 0 or design["procedure"][0] == "none":
        reason = design["reason"][0] if design.height else "no group"
        return f"{prefix}nothing could be tested ({reason})."
    ranks = _select(result.ranks, keys, group).sort("position")
    best = str(ranks["learner"][0])
    k = ranks.height
    a = f"α = {result.alpha:g}"
    figure = _figure(result, ranks.row(0, named=True))
    head = f"{prefix}{best} is best on {display_name(result.metric)}" + (
        f" ({figure})" if figure else ""
    )
    omnibus = _select(result.omnibus, keys, group)
    if k > 2 and omnibus.height and not bool(omnibus["reject"][0]):
        test = TEST_NAMES.get(omnibus["test"][0], omnibus["test"][0])
        return (
            f"{head}, but the {test} finds no significant difference among the {k} learners "
            f"({format_p(omnibus['p_value'][0])}, {a})."
        )
    pairs = _select(result.post_hoc, keys, group)
    with_best = pairs.filter((pl.col("a") == best) | (pl.col("b") == best))
    if with_best.height == 0:
        return f"{head}."
    test = TEST_NAMES.get(with_best["test"][0], with_best["test"][0])
    others = with_best.with_columns(
        pl.when(pl.col("a") == best).then(pl.col("b")).otherwise(pl.col("a")).alias("__other")
    )
    order = {name: i for i, name in enumerate(ranks["learner"].to_list())}
    close = sorted(
        others.filter(~pl.col("reject").fill_null(False))["__other"].to_list(),
        key=lambda name: order.get(name, k),
    )
    word = "credibly" if result.procedure == "bayes_signed_rank" else "significantly"
    if not close:
        every = "the other learner" if k == 2 else f"each of the other {k - 1} learners"
        return f"{head}; {word} better than {every} ({test}, {a})."
    return f"{head}; not {word} better than {_names(close)} ({test}, {a})."


def headlines(result: Shown) -> list[str]:
    """One headline per ``by`` group (one in all without ``by``), in the design's order."""
    keys = list(result.by)
    groups = result.design.select(keys).rows(named=True) if keys else [{}]
    return [_headline(result, group) for group in groups]  # loop-ok: words per group


def _cell(value: Any, digits: int | None) -> str:
    if value is None:
        return "—"
    if digits is not None and isinstance(value, float):
        return f"{value:.{digits}f}"
    return html.escape(str(value))


def _table(result: Shown) -> str:
    keys = list(result.by)
    shown = [c for c in _TABLE if c in result.ranks.columns]
    frame = result.ranks.sort([*keys, "position"], nulls_last=True)
    head = "".join(f"<th>{html.escape(k)}</th>" for k in keys) + "".join(
        f"<th>{_TABLE[c][0]}</th>" for c in shown
    )
    body = []
    for row in frame.iter_rows(named=True):  # loop-ok: one table row per learner
        cells = [_cell(row[k], None) for k in keys] + [_cell(row[c], _TABLE[c][1]) for c in shown]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    caption = (
        f"{html.escape(result.metric)} per learner over {html.escape(result.block)} blocks "
        f"({'higher' if result.higher_is_better else 'lower'} is better); position 1 = best"
    )
    return (
        '<table class="frameeval-results">'
        f"<caption>{caption}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _diagram(result: Shown) -> str:
    """The CD diagram as inline SVG; a one-line note when it cannot be drawn."""

    if result.ranks.filter(pl.col("cd").is_not_null()).height == 0:
        return "<p><em>No CD diagram: no group has a Nemenyi critical difference.</em></p>"
    try:
        import io

        buffer = io.StringIO()
        result.chart().save(buffer, format="svg")  # Altair renders through vl-convert
        svg = buffer.getvalue()
    except (FrameEvalError, ImportError, ValueError) as err:
        return f"<p><em>No CD diagram: {html.escape(str(err).splitlines()[0])}</em></p>"
    return f'<div class="frameeval-cd">{svg}</div>'


def comparison_html(result: Shown, *, chart: bool = True) -> str:
    """The comparison as an HTML fragment: headline(s), verdict, results table, CD diagram."""
    lines = "".join(f"<li>{html.escape(h)}</li>" for h in headlines(result))
    paragraphs = "".join(
        f"<p>{html.escape(p)}</p>" for p in result.verdict.split("\n\n") if p.strip()
    )
    style = (
        "<style>.frameeval-comparison table{border-collapse:collapse;margin:.5em 0}"
        ".frameeval-comparison th,.frameeval-comparison td{padding:2px 8px;text-align:right;"
        "border-bottom:1px solid #ddd}.frameeval-comparison caption{text-align:left;"
        "color:#555}.frameeval-comparison .frameeval-cd svg{max-width:100%;height:auto}</style>"
    )
    return (
        f'<div class="frameeval-comparison">{style}'
        f"<p><strong>Comparison of learners on {html.escape(result.metric)}</strong> "
        f"(procedure: {html.escape(result.procedure)})</p>"
        f'<ul class="frameeval-headline">{lines}</ul>'
        f'<div class="frameeval-verdict">{paragraphs}</div>'
        f"{_table(result)}"
        f"{_diagram(result) if chart else ''}"
        "</div>"
    )
