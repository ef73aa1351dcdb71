"""The report's first screen: the answer for each measure compared.

:func:`answer` is the ONE place that decides what the first screen says. For now it states the
Friedman / Nemenyi result and the average ranks in words and shows a plain results table; when
``fe.compare_learners`` and ``fe.results_table`` are merged, swap them in here (marked ``SWAP``):
``Answer.verdict`` ← ``compare_learners(...).verdict``, ``Answer.table_html`` ←
``results_table(..., significance=result).as_raw_html()``, and add the LaTeX download to
``Answer.downloads``. Nothing else in the report needs to change.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import polars as pl

__all__ = ["Answer", "answer"]


@dataclass
class Answer:
    """What the first screen shows for one measure compared across learners."""

    metric: str
    verdict: str
    #: the results table (blocks as rows, learners as columns) as HTML, escaped
    table_html: str
    #: ``learner, average_rank, n_blocks`` (for the CD diagram); None with < 2 blocks
    ranks: pl.DataFrame | None = None
    #: the Nemenyi critical difference; None with < 2 blocks
    cd: float | None = None
    #: file name → (MIME type, text) offered as a download (embedded in the page)
    downloads: dict[str, tuple[str, str]] = field(default_factory=dict)


def _number(value: Any) -> str:
    return "undefined" if value is None else f"{value:.3g}"


def _results_table(
    per_block: pl.DataFrame,
    metric: str,
    block: str,
    learner: str,
    ranks: pl.DataFrame | None,
    higher_is_better: bool,
    description: str,
) -> tuple[str, str]:
    """The stand-in results table (HTML with the best cell of each row in bold) and its CSV."""
    order = (
        ranks.sort("average_rank", learner)[learner].to_list()
        if ranks is not None
        else sorted(per_block[learner].unique().to_list())
    )
    wide = per_block.pivot(on=learner, index=block, values=metric).sort(block)
    wide = wide.select(block, *[str(name) for name in order if str(name) in wide.columns])
    best = (pl.max_horizontal if higher_is_better else pl.min_horizontal)(pl.exclude(block))
    flags = wide.select((pl.exclude(block) == best).fill_null(False)).rows()
    head = "".join(f"<th>{html.escape(str(c)).replace('_', '_<wbr>')}</th>" for c in wide.columns)
    body = []
    for values, marks in zip(wide.rows(), flags, strict=True):  # loop-ok: rendering rows
        cells = [f'<td class="text">{html.escape(str(values[0]))}</td>']
        for value, mark in zip(values[1:], marks, strict=True):  # loop-ok: rendering cells
            text = "—" if value is None else f"{value:.3f}"
            cells.append(f"<td><b>{text}</b></td>" if mark else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    if ranks is not None:
        by_name = dict(zip(ranks[learner].to_list(), ranks["average_rank"].to_list(), strict=True))
        ranked = "".join(f"<td>{by_name[name]:.2f}</td>" for name in order)
        body.append(f'<tr class="rank"><td class="text">average rank</td>{ranked}</tr>')
    best_word = "highest" if higher_is_better else "lowest"
    caption = (
        f"<caption>{html.escape(metric)} per {html.escape(block)}"
        f"{' (' + html.escape(description) + ')' if description else ''}; the {best_word} "
        "of each row in bold; learners by average rank</caption>"
    )
    table = f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    long = per_block.select(block, learner, metric).sort(block, learner)
    if ranks is not None:
        long = long.join(ranks.select(learner, "average_rank"), on=learner, how="left")
    return table, long.write_csv()


def answer(
    per_block: pl.DataFrame,
    metric: str,
    *,
    block: str,
    learner: str,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    description: str = "",
) -> Answer:
    """The answer for ``metric``: which learner is best, and what the tests allow one to say.

    ``per_block`` holds one row per block (data set) and learner: ``block, learner, metric``;
    ``description`` says how the metric was obtained per block (shown in the table caption).
    Every number comes from ``fe.friedman``, ``fe.nemenyi`` and ``fe.average_ranks``.
    """
    import frameeval as fe

    learners = per_block[learner].n_unique()
    blocks = per_block[block].n_unique()
    csv_name = f"results-{metric}.csv"
    if learners < 2:
        table, csv = _results_table(
            per_block, metric, block, learner, None, higher_is_better, description
        )
        return Answer(
            metric,
            f"Only one learner: nothing to compare on {metric}.",
            table,
            downloads={csv_name: ("text/csv", csv)},
        )
    if blocks < 2:
        table, csv = _results_table(
            per_block, metric, block, learner, None, higher_is_better, description
        )
        top = per_block.sort(metric, descending=higher_is_better).row(0, named=True)
        verdict = (
            f"{top[learner]} has the best {metric} ({top[metric]:.3f}) on the one {block}. "
            f"Comparing learners over {block}s (Friedman, Nemenyi) needs at least two; the "
            "per-split tests are in the drill-down below."
        )
        return Answer(metric, verdict, table, downloads={csv_name: ("text/csv", csv)})
    # SWAP: result = fe.compare_learners(per_block, metric=metric, block=block, learner=learner,
    #       higher_is_better=higher_is_better, alpha=alpha); verdict = result.verdict
    ranks = fe.average_ranks(
        per_block, metric, block=block, learner=learner, higher_is_better=higher_is_better
    ).sort("average_rank", learner)
    omnibus = fe.friedman(
        per_block,
        metric,
        block=block,
        learner=learner,
        higher_is_better=higher_is_better,
        alpha=alpha,
    ).row(0, named=True)
    pairs = fe.nemenyi(
        per_block,
        metric,
        block=block,
        learner=learner,
        higher_is_better=higher_is_better,
        alpha=alpha,
    )
    cd = float(pairs["critical_value"][0])
    best = ranks.row(0, named=True)
    differ = pairs.filter(pl.col("reject")).sort(
        pl.col("rank_difference").abs(), "a", "b", descending=[True, False, False]
    )
    sentences = [
        f"{best[learner]} ranks best on {metric} (average rank {best['average_rank']:.2f} of "
        f"{learners} learners over N = {blocks} {block}s)."
    ]
    decision = "reject" if omnibus["reject"] else "do not reject"
    sentences.append(
        f"Friedman test (Iman–Davenport F form): F = {_number(omnibus['f_statistic'])}, "
        f"p = {_number(omnibus['p_value'])}: we {decision} that all learners perform alike at "
        f"α = {alpha:g} (χ² form p = {_number(omnibus['chi2_p_value'])})."
    )
    if differ.height == 0:
        sentences.append(f"Nemenyi CD = {cd:.2f}: no pair of learners differs significantly.")
    else:
        shown = [
            f"{row['better']} > {row['b'] if row['better'] == row['a'] else row['a']}"
            for row in differ.head(6).iter_rows(named=True)  # loop-ok: a few sentences
        ]
        more = f" and {differ.height - 6} more" if differ.height > 6 else ""
        sentences.append(
            f"Nemenyi CD = {cd:.2f}: {differ.height} of {pairs.height} pairs differ "
            f"significantly ({', '.join(shown)}{more})."
        )
    # SWAP: table = fe.results_table(per_block, ..., significance=result).as_raw_html()
    table, csv = _results_table(
        per_block, metric, block, learner, ranks, higher_is_better, description
    )
    return Answer(
        metric,
        " ".join(sentences),
        table,
        ranks=ranks,
        cd=cd,
        downloads={csv_name: ("text/csv", csv)},
    )
