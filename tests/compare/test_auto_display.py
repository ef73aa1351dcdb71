"""A Comparison in a notebook (``_repr_html_``): headline per group, the verdict, the results
table and the CD diagram, all from the comparison's own frames."""

from __future__ import annotations

import html

import numpy as np
import polars as pl

import frameeval as fe
from frameeval.compare.auto.display import comparison_html, headlines
from tests.compare.test_demsar_example import table

KW = {"block": "data_set", "higher_is_better": True}


def _scores(
    step: float, seed: int = 0, groups: tuple[str, ...] = ("g",), blocks: int = 10
) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [
        (g, f"d{d:02d}", f"m{m}", 0.7 + step * m + float(rng.normal(0, 0.02)))
        for g in groups
        for d in range(blocks)
        for m in range(4)
    ]
    return pl.DataFrame(rows, schema=["task", "data_set", "learner", "auc"], orient="row")


def test_repr_html_holds_the_headline_verdict_table_and_cd_diagram() -> None:
    """Demšar's (2006) table 6 under Friedman + Nemenyi."""
    result = fe.compare_learners(table(paper_order=True), "auc", procedure="friedman", **KW)
    page = result._repr_html_()
    for paragraph in result.verdict.split("\n\n"):
        assert html.escape(paragraph) in page
    assert headlines(result)[0] in html.unescape(page)
    # the table: one row per learner, in position order, with its average rank to 3 decimals
    ranks = result.ranks.sort("position")
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    rows = body.split("<tr>")[1:]
    assert len(rows) == ranks.height
    for row, want in zip(rows, ranks.iter_rows(named=True), strict=True):
        assert f"<td>{html.escape(want['learner'])}</td>" in row
        assert f"<td>{want['average_rank']:.3f}</td>" in row
    assert "<svg" in page and "CD = " in page


def test_headline_names_the_learners_the_best_does_not_beat() -> None:
    result = fe.compare_learners(_scores(0.01), "auc", procedure="friedman", **KW)
    best = result.ranks.filter(pl.col("position") == 1)["learner"].item()
    pairs = result.post_hoc.filter((pl.col("a") == best) | (pl.col("b") == best))
    close = pairs.filter(~pl.col("reject")).select(
        pl.when(pl.col("a") == best).then(pl.col("b")).otherwise(pl.col("a"))
    )
    (line,) = headlines(result)
    assert line.startswith(f"{best} is best on auc (average rank ")
    assert "; not significantly better than " in line
    assert all(name in line for name in close.to_series().to_list())
    assert line.endswith("(Nemenyi test, α = 0.05).")
    clear = fe.compare_learners(_scores(0.05, blocks=40), "auc", procedure="friedman", **KW)
    assert headlines(clear)[0].endswith(
        "significantly better than each of the other 3 learners (Nemenyi test, α = 0.05)."
    )


def test_no_difference_and_groups() -> None:
    result = fe.compare_learners(
        _scores(0.0, seed=1, groups=("a", "b")), "auc", by="task", procedure="friedman", **KW
    )
    lines = headlines(result)
    assert [line.split(":")[0] for line in lines] == ["task = a", "task = b"]
    for line, row in zip(lines, result.omnibus.sort("task").iter_rows(named=True), strict=True):
        if not row["reject"]:
            assert "finds no significant difference among the 4 learners" in line
    page = comparison_html(result, chart=False)
    assert page.count("<li>") == 2 and "<svg" not in page
    assert "<th>task</th>" in page


def test_the_headline_cites_the_number_its_table_prints() -> None:
    """Issue 25: one rounding for text and tables — the headline and the verdict cite the
    best learner's average rank exactly as the HTML table and results_table print it (1.964
    on Demšar's table, not 1.96); a mean-based procedure cites the mean too."""
    data = table(paper_order=True)
    result = fe.compare_learners(data, "auc", procedure="friedman", **KW)
    page = html.unescape(result._repr_html_())
    best = result.ranks.sort("position").row(0, named=True)
    printed = f"{best['average_rank']:.3f}"
    assert printed == "1.964"
    (line,) = headlines(result)
    assert line.startswith(f"{best['learner']} is best on auc (average rank {printed});")
    assert f"<td>{printed}</td>" in page and f"(average rank {printed})" in result.verdict
    markdown = fe.results_table(data, "auc", format="markdown", **KW)
    assert f"**{printed}**" in markdown.split("average rank |")[1]
    anova = fe.compare_learners(_scores(0.05, blocks=12), "auc", procedure="anova", **KW)
    top = anova.ranks.sort("position").row(0, named=True)
    (line,) = headlines(anova)
    assert f"(mean {top['mean']:.3f}; average rank {top['average_rank']:.3f})" in line
