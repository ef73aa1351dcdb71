"""The report's first screen: the answer for each measure compared.

:func:`answer` is the ONE place that decides what the first screen says: the verdict of
:func:`frameeval.compare_learners` (which procedure, which learner is best, what the tests
allow one to say), the results table of :func:`frameeval.results_table` (great-tables HTML,
made offline and scoped to itself), and the table as CSV and LaTeX downloads.
"""

from __future__ import annotations

import html
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from frameeval.metrics.measure import MEASURES, display_name
from frameeval.report.page import Page, slugify
from frameeval.report.roles import ReportRoles, Unused

__all__ = ["Answer", "answer", "draw_answers", "offline_table_html"]


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
    #: the procedure ``compare_learners`` chose (``"none"`` when nothing was tested)
    procedure: str = "none"
    #: with a ROPE: ``a, b, p_a_better, p_rope, p_b_better`` of every pair (the Bayesian
    #: signed-rank test, or on one data set's splits the Bayesian correlated t test), for the
    #: matrix of posterior probabilities; else None
    bayes: pl.DataFrame | None = None
    #: the split-level comparison of every pair (``[block,] a, b, test, difference, statistic,
    #: p_value, p_adjusted, reject, better…``: compare_learners' post_hoc on the folds of each
    #: data set), when the results have folds; else None
    pairs: pl.DataFrame | None = None
    #: the split-level procedure (``"corrected_t"``…) of ``pairs``; None without folds
    split_procedure: str | None = None
    #: one line above the verdict: the winner with its number (rounded as the table rounds
    #: it) and what the tests allow one to say about the others
    headline: str = ""
    #: why ``compare_learners`` chose ``procedure`` (its design's reason); "" when untested
    reason: str = ""
    #: the tests' warnings on this verdict, for a reader (:func:`reader_caveat`): the page
    #: prints them right under the verdict they qualify
    caveats: list[str] = field(default_factory=list)


#: markup that would load something from the network
_EXTERNAL = (
    re.compile(r"@import\s+(?:url\()?\s*['\"]?(?:https?:)?//[^;]*;?", re.IGNORECASE),
    re.compile(r"<link\b[^>]*>", re.IGNORECASE),
    re.compile(r"url\(\s*['\"]?(?:https?:)?//[^)]*\)", re.IGNORECASE),
)


def offline_table_html(html: str, table_id: str) -> str:
    """great-tables' ``as_raw_html()`` made fit for an offline page: no ``@import``, ``<link>``
    or ``url(//…)`` (a web font would be fetched from the network), and every CSS rule scoped
    to ``#table_id`` (great-tables 1.1 writes a few unscoped rules — ``tr``, ``tbody``, ``td``
    … — that would restyle every other table of the page)."""
    for pattern in _EXTERNAL:  # loop-ok: three patterns
        html = pattern.sub("", html)
    start, end = html.find("<style>"), html.find("</style>")
    if start < 0 or end < 0:
        return html
    css = html[start + len("<style>") : end]
    scope = f"#{table_id}"

    def scoped(match: re.Match[str]) -> str:
        selectors = [s.strip() for s in match.group(1).split(",")]
        fixed = [s if s.startswith(scope) or not s else f"{scope} {s}" for s in selectors]
        return ", ".join(fixed) + " {"

    css = re.sub(r"(?m)^([^{}@]*?)\s*\{", scoped, css)
    return html[: start + len("<style>")] + css + html[end:]


def _long_csv(
    per_block: pl.DataFrame, metric: str, block: str, learner: str, ranks: pl.DataFrame | None
) -> str:
    """The per-block values as CSV (``block, learner, metric[, metric_low, metric_high]
    [, average_rank]``)."""
    bounds = [c for c in (f"{metric}_low", f"{metric}_high") if c in per_block.columns]
    long = per_block.select(block, learner, metric, *bounds).sort(block, learner)
    if ranks is not None:
        long = long.join(ranks.select(learner, "average_rank"), on=learner, how="left")
    return long.write_csv()


def _tables(
    per_block: pl.DataFrame,
    metric: str,
    block: str,
    learner: str,
    higher_is_better: bool,
    description: str,
    result: Any,
    interval_name: str = "interval",
) -> tuple[str, str]:
    """The results table as offline HTML and as LaTeX (best bold, second underlined, † on a
    cell significantly worse than its row's best by ``result``'s post-hoc test; a value with
    its interval when ``per_block`` has ``<metric>_low, <metric>_high``)."""
    from frameeval.compare import results_table

    kw: dict[str, Any] = dict(
        block=block,
        learner=learner,
        higher_is_better=higher_is_better,
        significance=result,
        interval_name=interval_name,
    )
    table_id = f"results-table-{slugify(metric, 'metric')}"
    table = results_table(per_block, metric, **kw)
    assert not isinstance(table, str)  # format="gt"
    gt = table.with_id(table_id)
    where = f" ({description})" if description else ""
    gt = gt.tab_header(title=f"{display_name(metric)} per {block}{where}")
    html = offline_table_html(gt.as_raw_html(), table_id)
    latex = results_table(per_block, metric, format="latex", **kw)
    return html, str(latex)


#: the columns of :attr:`Answer.bayes`
BAYES_COLUMNS = ("a", "b", "p_a_better", "p_rope", "p_b_better")
#: The interval of one learner's mean over one data set's splits that belongs to each
#: split-level procedure (the same x̄ ± t·s·√(1/J + n_test/n_train): with a flat prior the
#: Bayesian correlated t test's posterior of the mean is that Student t). The 5×2cv F and t
#: tests compare pairs and have no interval of one mean: those cells show the mean alone.
SPLIT_INTERVALS = {
    "corrected_t": "Nadeau–Bengio corrected resampled t interval of the mean over the splits",
    "bayes_correlated_t": "credible interval of the mean over the splits under the Bayesian "
    "correlated t test's model (Corani & Benavoli 2015)",
}


def corrected_mean_interval(
    per_split: pl.DataFrame,
    metric: str,
    block: str,
    learner: str,
    test_train_ratio: float,
    alpha: float = 0.05,
) -> pl.DataFrame:
    """The mean of ``metric`` over the J splits of each block and learner, with the
    Nadeau–Bengio corrected resampled t interval (Nadeau & Bengio 2003):

        x̄ ± t_{1−α/2, J−1} · s · √(1/J + n_test/n_train)

    (s the sample standard deviation, J − 1 degrees of freedom): the interval that matches the
    corrected resampled t test the verdict uses on one data set's splits (the J estimates share
    training data, so s/√J alone is too narrow). ``test_train_ratio`` is n_test/n_train
    (1/(k − 1) for k-fold cross-validation). Bounds are clipped to the measure's range when it
    is registered (accuracy in [0, 1]); null with fewer than two splits.

    Returns ``block, learner, <metric>, <metric>_low, <metric>_high`` (one row per block and
    learner, sorted).
    """
    import numpy as np
    from scipy import stats

    x = pl.col(metric).cast(pl.Float64)
    out = (
        per_split.group_by(block, learner)
        .agg(pl.len().alias("__n"), x.mean().alias(metric), x.std(ddof=1).alias("__sd"))
        .sort(block, learner)
    )
    n = out["__n"].cast(pl.Float64).to_numpy()
    with np.errstate(all="ignore"):
        quantile = stats.t.ppf(1.0 - alpha / 2.0, n - 1.0)  # NaN for J = 1: null
    half = (
        pl.Series("__t", quantile)
        * out["__sd"]
        * ((1.0 / out["__n"].cast(pl.Float64)) + test_train_ratio).sqrt()
    )
    low, high = out[metric] - half, out[metric] + half
    measure = MEASURES.get(metric)
    if measure is not None:
        low, high = low.clip(measure.lower, measure.upper), high.clip(measure.lower, measure.upper)
    return out.select(block, learner, metric).with_columns(
        low.fill_nan(None).alias(f"{metric}_low"), high.fill_nan(None).alias(f"{metric}_high")
    )


def answer(
    per_block: pl.DataFrame,
    metric: str,
    *,
    block: str,
    learner: str,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    rope: float | None = None,
    description: str = "",
    per_split: pl.DataFrame | None = None,
    fold: str | None = None,
    repeat: str | None = None,
    interval_name: str = "interval",
) -> Answer:
    """The answer for ``metric``: which learner is best, and what the tests allow one to say.

    ``per_block`` holds one row per block (data set) and learner: ``block, learner, metric``;
    ``description`` says how the metric was obtained per block (shown in the table title).
    The verdict is :func:`frameeval.compare_learners`' (with one learner, a sentence of its
    own); the table is :func:`frameeval.results_table`'s. With ``rope`` (a region of practical
    equivalence, in metric units) ``compare_learners`` uses the Bayesian signed-rank test (on
    one data set's splits the Bayesian correlated t test), and :attr:`Answer.bayes` holds its
    posterior probabilities of every pair.

    With ``per_split`` (``block, learner, [repeat,] fold, metric``: the metric per split) and
    its ``fold`` column, the splits are compared too: on one data set the verdict is the
    split-level one (every pair by the corrected resampled t test, Holm-adjusted, or another
    procedure for correlated splits: :func:`frameeval.compare_learners` with ``fold=``); with
    several, the tests over data sets on the per-data-set means plus, per data set, the
    split-level answer. :attr:`Answer.pairs` holds the split-level pairs. On one data set the
    table shows each learner's mean over the splits with its corrected resampled t interval
    (:func:`corrected_mean_interval`).

    ``per_block`` may hold ``<metric>_low, <metric>_high``: each value's interval
    (``interval_name`` says which, in the table's footnote); the table shows it next to each
    value, the CSV holds it, and a verdict that cites one value cites its interval.
    :attr:`Answer.headline` is one line with the winner and its number as the table prints it
    (:func:`frameeval.compare.words.format_value`) and what the tests say of the others.
    The tests' warnings (Friedman's χ² approximation on few data sets…) are kept for the
    reader in :attr:`Answer.caveats` (:func:`reader_caveat`), printed under the verdict.
    """
    from frameeval.compare import compare_learners
    from frameeval.compare.auto.display import headlines

    with warnings.catch_warnings(record=True) as caught:  # the tests' warnings, for the reader
        warnings.simplefilter("always")
        learners = per_block[learner].n_unique()
        blocks = per_block[block].n_unique()
        tested: dict[str, Any] = dict(
            learner=learner, higher_is_better=higher_is_better, alpha=alpha, rope=rope
        )
        untested = ""  # the headline on one data set without splits
        if learners < 2:
            verdict = f"Only one learner: nothing to compare on {metric}."
            decided = _Decision(verdict, per_block, interval_name)
        elif per_split is not None and fold is not None:
            one = blocks < 2
            result = compare_learners(
                per_split.drop(block) if one else per_split, metric, block=None if one else block,
                fold=fold, repeat=repeat, **tested,
            )  # fmt: skip
            decided = _Decision(for_reader(result.verdict), per_block, interval_name, result)
            _on_splits(decided, per_split, metric, block, learner, alpha)
        elif blocks < 2:
            verdict, untested = _one_block(per_block, metric, block, learner, higher_is_better)
            decided = _Decision(verdict, per_block, interval_name)
        else:
            result = compare_learners(per_block, metric, block=block, **tested)
            decided = _Decision(for_reader(result.verdict), per_block, interval_name, result)
            _over_blocks(decided, per_block, learner)
        table, latex = _tables(
            decided.table_data, metric, block, learner, higher_is_better, description,
            decided.result, decided.interval_name,
        )  # fmt: skip
        headline, reason = "", ""
        if decided.result is not None:
            design = decided.result.design.filter(pl.col("procedure") == decided.procedure)
            reason = str(design["reason"][0]) if design.height else ""
            headline = " ".join(headlines(decided.result))
        elif untested:
            headline = untested
        elif learners >= 2:
            headline = decided.verdict.split(". ")[0].rstrip(".") + "."
        csv = _long_csv(per_block, metric, block, learner, decided.ranks)
        stem = f"results-{metric}"
        downloads = {
            f"{stem}.csv": ("text/csv", csv),
            f"{stem}.tex": ("application/x-latex", latex),
        }
        d = decided
        found = Answer(
            metric, d.verdict, table, d.ranks, d.cd, downloads, d.procedure, d.bayes, d.pairs,
            d.split_procedure, headline, reason,
        )  # fmt: skip
    caveats = [reader_caveat(str(w.message)) for w in caught]
    if "χ²_F" in found.verdict:  # the verdict cites the χ² form: its caveat stands under it
        caveats.append(friedman_caveat(blocks))
    found.caveats = [c for c in dict.fromkeys(caveats) if c]
    return found


#: the library verdict's pointer to a Python attribute, and what the page says instead
_PYTHON_POINTER = (
    " The full per-data-set verdicts: result.per_data_set.verdict.",
    " Every pair on each data set's folds is in the comparison section below.",
)


def for_reader(verdict: str) -> str:
    """A verdict of :func:`frameeval.compare_learners` for the page: no Python attribute path
    (``result.per_data_set.verdict``); the page's own drill-down is named instead."""
    return verdict.replace(*_PYTHON_POINTER)


def friedman_caveat(n_blocks: int) -> str:
    """The caveat on Friedman's χ² form with few data sets ("" with enough of them)."""
    from frameeval.compare.ranks import CHI2_MIN_BLOCKS

    if n_blocks > CHI2_MIN_BLOCKS:
        return ""
    return reader_caveat(
        f"chi2_p_value uses the χ² approximation, which needs more blocks (Demšar 2006: N > "
        f"{CHI2_MIN_BLOCKS}), got N = {n_blocks}; decide on the F form (p_value, "
        "critical_value, reject), as the book recommends."
    )


@dataclass
class _Decision:
    """What the tests decided for one measure: the verdict, the comparison result behind it
    (None when nothing was tested), and what the table shows."""

    verdict: str
    table_data: pl.DataFrame
    interval_name: str
    result: Any = None
    #: the procedure ``compare_learners`` chose (``"none"`` when nothing was tested)
    procedure: str = "none"
    ranks: pl.DataFrame | None = None
    cd: float | None = None
    bayes: pl.DataFrame | None = None
    pairs: pl.DataFrame | None = None
    split_procedure: str | None = None

    def __post_init__(self) -> None:
        if self.result is not None:
            self.procedure = self.result.procedure


def _on_splits(
    decided: _Decision, per_split: pl.DataFrame, metric: str, block: str, learner: str, alpha: float
) -> None:
    """Into ``decided``, the decision of a comparison with splits: on one data set the
    split-level one (the table shows each learner's mean over the splits with the interval of
    the test that compares them); over several, the tests over data sets plus each data set's
    pairs."""
    result, procedure = decided.result, decided.procedure
    one = decided.table_data[block].n_unique() < 2
    split = result if one else result.per_data_set
    if split is not None and set(split.design["procedure"]) != {"none"}:
        decided.pairs = split.post_hoc
        decided.split_procedure = ", ".join(sorted(set(split.design["procedure"]) - {"none"}))
    if not one:
        _over_blocks(decided, decided.table_data, learner)
        return
    decided.table_data = per_split
    ratios = result.design.get_column("test_train_ratio", default=None)
    words = SPLIT_INTERVALS.get(procedure)
    if words is not None and ratios is not None and ratios.drop_nulls().len() == 1:
        # the mean over the splits with the interval of the test that compares them
        # (a 5×2cv F or t test has none: the cells show the mean alone)
        decided.table_data = corrected_mean_interval(
            per_split, metric, block, learner, float(ratios.drop_nulls()[0]), alpha
        )
        decided.interval_name = f"{1 - alpha:.0%} {words}"
    if procedure == "bayes_correlated_t":
        decided.bayes = result.post_hoc.select(BAYES_COLUMNS)
    if procedure == "none":
        decided.result = None


def _one_block(
    per_block: pl.DataFrame, metric: str, block: str, learner: str, higher_is_better: bool
) -> tuple[str, str]:
    """The verdict and the headline on one data set without splits: the best value (with its
    interval in the verdict), nothing tested."""
    from frameeval.compare.words import format_interval, format_value

    top = per_block.sort(metric, descending=higher_is_better).row(0, named=True)
    value = format_interval(top[metric], top.get(f"{metric}_low"), top.get(f"{metric}_high"))
    return (
        f"{top[learner]} has the best {display_name(metric)} ({value}) on the one {block}. "
        f"Comparing learners over {block}s (Friedman, Nemenyi) needs at least two; the "
        "per-split tests are in the drill-down below.",
        f"{top[learner]} is best on {display_name(metric)} ({format_value(top[metric])}); "
        f"one {block} and no splits: nothing is tested.",
    )


_CHI2 = re.compile(
    r"chi2_p_value uses the χ² approximation, which needs more blocks \((.*?)\), got N = "
    r"(\d+); decide on the F form \(p_value, critical_value, reject\), as the book "
    r"recommends\."
)
_FUNCTION = re.compile(r"^[A-Za-z_][\w.]*\(\): ")


def reader_caveat(message: str) -> str:
    """A test's warning for the page's reader: without the function's name and the result's
    column names (``friedman(): chi2_p_value uses…`` → "The p-value of Friedman's χ² form…")."""
    text = _FUNCTION.sub("", message.strip())
    return _CHI2.sub(
        lambda m: (
            f"The p-value of Friedman's χ² form (χ²_F) is an approximation that needs more data "
            f"sets ({m.group(1)}), here N = {m.group(2)}: read the F form (F_F and its p-value), "
            "as the book recommends — the verdict and the tests decide on it."
        ),
        text,
    )


def _over_blocks(decided: _Decision, per_block: pl.DataFrame, learner: str) -> None:
    """The CD diagram's ranks and CD and the Bayesian pairs of a comparison over blocks into
    ``decided`` (its result dropped when nothing was tested)."""
    if decided.procedure == "none":
        decided.result = None
        return
    ranks = (
        decided.result.ranks.sort("average_rank", "learner")
        .select(pl.col("learner").alias(learner), "average_rank", "n_blocks", "cd")
        .with_columns(pl.col(learner).cast(per_block.schema[learner]))
    )
    decided.cd = ranks["cd"][0]
    decided.ranks = ranks.drop("cd")
    if decided.procedure == "bayes_signed_rank":
        decided.bayes = decided.result.post_hoc.select(BAYES_COLUMNS)


def draw_answers(
    page: Page, answers: list[Answer], roles: ReportRoles, unused: Unused, nothing: str
) -> None:
    """The first section of the page, "The answer": per measure compared, the verdict, the
    results table (CSV and LaTeX downloads), the CD diagram and, with a ROPE, the matrix of
    posterior probabilities; ``nothing`` is said when there is no answer (no measure to
    compare learners on)."""
    from frameeval import charts

    page.heading("The answer")
    if "learner" in unused.missing:
        page.text(
            f"One learner only: {unused.why('learner')}; every prediction counts as one "
            "learner's, shown as 'model'.",
            css="skip",
        )
    if not answers:
        page.text(nothing, css="skip")
        return
    why = procedures_sentence(answers)
    if why:
        page.text(why, css="note")
    for found in answers:  # loop-ok: one answer per measure compared (one or two)
        page.raw('<section class="answer">')
        page.heading(f"Which learner is best on {display_name(found.metric)}?", level=3)
        if found.headline:  # bold, above the paragraph: the page's first line per measure
            page.raw(f'<p class="headline"><strong>{html.escape(found.headline)}</strong></p>')
        page.text(found.verdict, css="verdict")
        for caveat in found.caveats:  # loop-ok: next to the sentence it qualifies
            page.text(caveat, css="note")
        page.raw(f'<div class="scroll">{found.table_html}</div>')
        for name, (mime, text) in found.downloads.items():  # loop-ok: one or two files
            label = f"Download the table as {FORMATS.get(name.rsplit('.', 1)[-1], name)}"
            page.download(name, mime, text, label)
        if found.ranks is not None and found.cd is not None:
            page.chart(
                charts.cd_diagram(
                    found.ranks,
                    found.cd,
                    style="demsar",
                    learner=roles.learner,
                    title=cd_title(found),
                )
            )
        if found.bayes is not None:
            test = split_words(found.procedure)  # the Bayesian correlated t or signed-rank test
            page.chart(
                charts.bayes_matrix(found.bayes, title=f"{test} on {found.metric}: every pair")
            )
        page.raw("</section>")


#: how a download's file extension is named on the page
FORMATS = {"csv": "CSV", "tex": "LaTeX (booktabs)"}


def cd_title(found: Answer) -> str:
    """The CD diagram's title: the Nemenyi CD decides only after Friedman; otherwise the bars
    orient the reader and the title names, in words, the test that decided."""
    if found.procedure == "friedman":
        return f"Critical-difference diagram: {found.metric} (Friedman + Nemenyi, Demšar 2006)"
    return (
        f"Average ranks on {found.metric}; the bars (Nemenyi CD) only orient: the "
        f"{procedure_words(found.procedure)} decided (see the headline)"
    )


def procedure_words(procedure: str) -> str:
    """A procedure of :func:`frameeval.compare_learners` in words (its own table)."""
    from frameeval.compare.auto.context import procedure_words as words

    return words(procedure)


def split_words(procedures: str | None) -> str:
    """The split-level procedure(s) of a verdict in words (``"corrected_t"`` → "Nadeau–Bengio
    corrected resampled t test")."""
    from frameeval.compare.auto import TEST_NAMES

    found = [p.strip() for p in (procedures or "").split(",") if p.strip()]
    return " and ".join(TEST_NAMES.get(p, p) for p in found) or "split-level test"


def procedures_sentence(answers: list[Answer]) -> str:
    """ "" when every measure compared was decided by the same procedure; otherwise one
    sentence saying which procedure decided which measure, and why (each design's reason):
    :func:`frameeval.compare_learners` chooses per measure, from that measure's values."""
    tested = [a for a in answers if a.procedure != "none"]
    if len({a.procedure for a in tested}) < 2:
        return ""
    parts = "; ".join(
        f"{a.metric} by the {procedure_words(a.procedure)}"
        + (f" ({a.reason.rstrip('.')})" if a.reason else "")
        for a in tested
    )
    return (
        "The measures were decided by different procedures — "
        f"{parts}: the procedure is chosen for each measure from its own values (how many "
        "blocks, whether their differences look normal), so one measure can meet a test's "
        "assumptions that another does not."
    )
