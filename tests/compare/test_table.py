"""results_table: the marks sit on exactly the right cells (best, second, significantly worse),
the aggregates equal numpy / scipy, the LaTeX compiles with a real pdflatex for hostile names."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import numpy as np
import polars as pl
import pytest
from scipy import stats

import frameeval as fe
from frameeval.compare.table import latex_escape
from frameeval.exceptions import InvalidParameterError, MissingValueError
from tests.compare.test_demsar_example import LEARNERS, table

KW = {"block": "data_set", "higher_is_better": True}


def parse_markdown(text: str) -> tuple[list[str], dict[tuple[str, str], str]]:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    cells = {}
    for line in lines[2:]:
        parts = [c.strip() for c in line.strip("|").split("|")]
        for name, value in zip(header[1:], parts[1:], strict=True):
            cells[(parts[0], name)] = value
    return header[1:], cells


def expected_marks(df: pl.DataFrame, worse_pairs: set[tuple[str, str]]):
    """Independent of the implementation: per row, best = the largest value as displayed
    (3 decimals), second = the next distinct displayed value; worse = a learner that a best
    learner of the row beats significantly (and that is not itself best)."""
    best, second, worse = set(), set(), set()
    for (data_set,), part in df.partition_by("data_set", as_dict=True).items():
        shown = {r["learner"]: round(r["auc"], 3) for r in part.iter_rows(named=True)}
        levels = sorted(set(shown.values()), reverse=True)
        leaders = {name for name, v in shown.items() if v == levels[0]}
        for name, v in shown.items():
            if v == levels[0]:
                best.add((data_set, name))
            elif len(levels) > 1 and v == levels[1]:
                second.add((data_set, name))
            if name not in leaders and any((b, name) in worse_pairs for b in leaders):
                worse.add((data_set, name))
    return best, second, worse


def test_marks_on_exactly_the_right_cells():
    df = table(paper_order=True)
    result = fe.compare_learners(df, "auc", procedure="friedman", alpha=0.10, **KW)
    pairs = {
        (r["better"], r["b"] if r["better"] == r["a"] else r["a"])
        for r in result.post_hoc.filter("reject").iter_rows(named=True)
    }
    assert pairs == {("C4.5+m", "C4.5"), ("C4.5+m+cf", "C4.5")}
    text = fe.results_table(df, "auc", significance=result, format="markdown", **KW)
    header, cells = parse_markdown(text)
    assert header == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]  # by average rank
    best, second, worse = expected_marks(df, pairs)
    got_best = {k for k, v in cells.items() if v.startswith("**") and k[0] != "average rank"}
    got_second = {k for k, v in cells.items() if v.startswith("<u>")}
    got_worse = {k for k, v in cells.items() if v.endswith("†")}
    assert got_best == best and got_second == second and got_worse == worse
    assert len(got_worse) == 10 and ("mushroom", "C4.5") not in got_worse
    ranks = {k[1]: v for k, v in cells.items() if k[0] == "average rank"}
    assert ranks == {
        "C4.5+m+cf": "**1.964**",
        "C4.5+m": "2.000",
        "C4.5+cf": "2.893",
        "C4.5": "3.143",
    }
    assert (
        "†: significantly worse than the row's best (Nemenyi test, α = 0.1; decided over all"
        in text
    )

    latex = fe.results_table(df, "auc", significance=result, format="latex", **KW)
    for data_set, learner in worse:
        row = next(
            line for line in latex.splitlines() if line.startswith(latex_escape(data_set) + " &")
        )
        column = header.index(learner) + 1
        assert row.split(" & ")[column].rstrip(" \\").endswith(r"\textsuperscript{\dag}")
    assert latex.count(r"\textsuperscript{\dag}") == len(worse) == 10
    assert latex.count(r"\textbf{") == len(best) + 1
    assert latex.count(r"\underline{") == len(second)


def test_gt_table_styles_and_footnote():
    from great_tables import GT

    df = table(paper_order=True)
    result = fe.compare_learners(df, "auc", procedure="friedman", alpha=0.10, **KW)
    gt = fe.results_table(df, "auc", significance=result, **KW)
    assert isinstance(gt, GT)
    html = gt.as_raw_html()
    assert "Nemenyi test, α = 0.1" in html and "average rank" in html
    assert html.count("0.763 †") == 1
    best, second, _ = expected_marks(df, set())
    plain = GT(pl.DataFrame({"x": ["1"]})).as_raw_html()
    base_bold, base_under = (
        plain.count("font-weight: bold"),
        plain.count("text-decoration: underline"),
    )
    assert html.count("font-weight: bold") - base_bold == len(best) + 1
    assert html.count("text-decoration: underline") - base_under == len(second)


def test_aggregates_against_numpy_and_scipy():
    rng = np.random.default_rng(1)
    rows = [
        (d, learner, fold, float(v))
        for d in ("d1", "d2")
        for learner in ("A", "B")
        for fold, v in enumerate(rng.uniform(0.6, 0.9, size=5))
    ]
    df = pl.DataFrame(rows, schema=["data_set", "learner", "fold", "auc"], orient="row")
    values = {
        (d, learner): df.filter((pl.col("data_set") == d) & (pl.col("learner") == learner))[
            "auc"
        ].to_numpy()
        for d in ("d1", "d2")
        for learner in "AB"
    }
    for aggregate in ("mean_std", "mean_ci", "median_iqr"):
        _, cells = parse_markdown(
            fe.results_table(df, "auc", aggregate=aggregate, decimals=4, format="markdown", **KW)
        )
        for (d, learner), x in values.items():
            shown = re.sub(r"\*\*|<u>|</u>", "", cells[(d, learner)])
            if aggregate == "mean_std":
                expected = f"{x.mean():.4f} ± {x.std(ddof=1):.4f}"
            elif aggregate == "mean_ci":
                half = stats.t.ppf(0.975, 4) * x.std(ddof=1) / np.sqrt(5)
                expected = f"{x.mean():.4f} ± {half:.4f}"
            else:
                q1, q3 = np.percentile(x, [25, 75])
                expected = f"{np.median(x):.4f} [{q1:.4f}, {q3:.4f}]"
            assert shown == expected
    lazy = fe.results_table(df.lazy(), "auc", format="markdown", **KW)
    assert lazy == fe.results_table(df, "auc", format="markdown", **KW)


def test_the_footnote_names_the_aggregate_only_when_a_cell_has_several_values():
    """One value per cell (e.g. a mean per data set) shows no spread, so the footnote does not
    promise one."""
    df = pl.DataFrame(
        {
            "data_set": ["d1", "d1", "d2", "d2"],
            "learner": ["A", "B"] * 2,
            "auc": [0.9, 0.8, 0.7, 0.75],
        }
    )
    one = fe.results_table(df, "auc", format="markdown", **KW)
    assert one.endswith("Values: one per cell.") and "±" not in one
    several = fe.results_table(
        pl.concat([df, df.with_columns(pl.col("auc") - 0.01)]), "auc", format="markdown", **KW
    )
    assert several.endswith("Values: mean ± standard deviation.") and "±" in several.split("\n")[2]


def test_lower_is_better_marks_the_smallest():
    df = pl.DataFrame(
        {"data_set": ["d1"] * 3, "learner": ["A", "B", "C"], "error_rate": [0.1, 0.3, 0.2]}
    )
    _, cells = parse_markdown(fe.results_table(df, "error_rate", format="markdown"))
    assert cells[("d1", "A")] == "**0.100**" and cells[("d1", "C")] == "<u>0.200</u>"
    assert cells[("d1", "B")] == "0.300"


def test_errors():
    df = table(paper_order=True)
    with pytest.raises(InvalidParameterError, match=r"results_table\(\): aggregate must be one of"):
        fe.results_table(df, "auc", aggregate="max", **KW)  # type: ignore[arg-type]
    with pytest.raises(
        InvalidParameterError, match=r"format must be 'gt', 'latex' or 'markdown', got 'pdf'"
    ):
        fe.results_table(df, "auc", format="pdf", **KW)  # type: ignore[arg-type]
    with pytest.raises(
        InvalidParameterError,
        match=r"significance must be None or the result of compare_learners, got DataFrame",
    ):
        fe.results_table(df, "auc", significance=df, **KW)  # type: ignore[arg-type]
    nan = df.with_columns(
        pl.when(pl.col("data_set") == "iris").then(float("nan")).otherwise("auc").alias("auc")
    )
    with pytest.raises(MissingValueError, match=r"metric=\) must be finite, got NaN for learner="):
        fe.results_table(nan, "auc", **KW)


def test_latex_escape():
    assert latex_escape(r"a_b%c&d#e$f{g}h~i^j\k") == (
        r"a\_b\%c\&d\#e\$f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}k"
    )


HOSTILE = ["svm_rbf", "knn 10%", "tree & forest", "net #2", "lr^2~{x}"]


@pytest.mark.latex
def test_latex_compiles_with_pdflatex(tmp_path):
    pdflatex = _pdflatex()
    rng = np.random.default_rng(0)
    rows = [
        (f"data_{i} 5% & #{i}", name, float(v))
        for i in range(8)
        for name, v in zip(HOSTILE, rng.uniform(0.5, 1.0, size=len(HOSTILE)), strict=True)
    ]
    df = pl.DataFrame(rows, schema=["data_set", "learner", "auc"], orient="row")
    result = fe.compare_learners(df, "auc", procedure="friedman", alpha=0.5, **KW)
    body = fe.results_table(df, "auc", significance=result, format="latex", **KW)
    assert r"svm\_rbf" in body and r"knn 10\%" in body and r"tree \& forest" in body
    assert r"net \#2" in body
    log = compile_latex(pdflatex, tmp_path, body)
    assert "Overfull \\hbox" not in log
    assert LEARNERS  # the Demšar names are plain; the hostile ones are the test


def _pdflatex() -> str:
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is missing on CI: install Debian's texlive-latex-recommended")
        pytest.skip("pdflatex is not installed")
    return pdflatex


def compile_latex(
    pdflatex: str, where, body: str, options: str = "", float_: bool = False, name: str = "table"
) -> str:
    """Compile ``body`` in ``\\documentclass[options]{article}`` (inside a ``table`` float
    when ``float_``); return pdflatex's log."""
    inner = (
        "\\begin{table}\n\\centering\n" + body + "\\caption{Results}\n\\end{table}\n"
        if float_
        else body
    )
    doc = (
        f"\\documentclass[{options}]{{article}}\n\\usepackage[T1]{{fontenc}}\n"
        "\\usepackage[utf8]{inputenc}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
        "\\begin{document}\n" + inner + "\\end{document}\n"
    )
    (where / f"{name}.tex").write_text(doc, encoding="utf-8")
    run = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert (where / f"{name}.pdf").stat().st_size > 1000
    return (where / f"{name}.log").read_text(encoding="utf-8", errors="replace")


@pytest.mark.latex
@pytest.mark.parametrize("learners", [3, 6])
def test_latex_fits_article_and_twocolumn_without_an_overfull_box(tmp_path, learners):
    """Issue 32: the footnote was one \\multicolumn line (604.8pt too wide in article, 720pt
    in two columns) and the third learner column ran off the page. Up to six learners with
    intervals, long names and the longest footnote (marks by two tests, per row) compile in
    article and twocolumn, bare and in a table float, and the log has no Overfull \\hbox."""
    pdflatex = _pdflatex()
    rng = np.random.default_rng(1)
    names = [f"learner_{n}_long_name" for n in range(learners)]
    rows = []
    for i in range(5):
        for n, value in zip(names, rng.uniform(0.6, 0.95, size=learners), strict=True):
            rows.append((f"data set {i} with a long name", n, value, value - 0.03, value + 0.02))
    df = pl.DataFrame(
        rows, schema=["data_set", "learner", "auc", "auc_low", "auc_high"], orient="row"
    )
    result = fe.compare_learners(df.drop("auc_low", "auc_high"), "auc", **KW)
    body = fe.results_table(
        df,
        "auc",
        significance=result,
        format="latex",
        interval_name="95% percentile interval of 200 Poisson-bootstrap replicates (seed 0)",
        **KW,
    )
    assert "\\multicolumn" not in body and "\\parbox{\\wd2}" in body
    assert "sidewaystable" in body  # a wider table says how to rotate
    for options in ("", "twocolumn"):
        for float_ in (False, True):
            log = compile_latex(pdflatex, tmp_path, body, options, float_, f"t{options}{float_}")
            assert "Overfull \\hbox" not in log, (options, float_)


def _with_bounds() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "data_set": ["d1", "d1", "d2", "d2"],
            "learner": ["A", "B"] * 2,
            "auc": [0.9, 0.8, 0.7, 0.75],
            "auc_low": [0.85, 0.74, 0.62, None],
            "auc_high": [0.94, 0.85, 0.77, 0.80],
            "lo": [0.1, 0.2, 0.3, 0.4],
            "hi": [0.95, 0.96, 0.97, 0.98],
        }
    )


def test_intervals_show_next_to_each_value_the_marks_unchanged():
    """``<metric>_low, <metric>_high`` (fe.measures(ci=)'s columns) are found by name; a null
    bound shows the value alone; bold and underline sit where they sat without intervals; the
    footnote says what the brackets are instead of "one per cell"."""
    df = _with_bounds()
    text = fe.results_table(df, "auc", format="markdown", interval_name="95% interval", **KW)
    _, cells = parse_markdown(text)
    assert cells[("d1", "A")] == "**0.900 [0.850, 0.940]**"
    assert cells[("d1", "B")] == "<u>0.800 [0.740, 0.850]</u>"
    assert cells[("d2", "B")] == "**0.750**"  # a null bound: the value alone
    assert text.endswith("Values: the value with its 95% interval [low, high].")
    assert "one per cell" not in text
    plain = fe.results_table(df, "auc", format="markdown", interval=False, **KW)
    assert "[" not in plain and plain.endswith("Values: one per cell.")
    named = fe.results_table(df, "auc", format="markdown", interval=("lo", "hi"), **KW)
    assert "0.900 [0.100, 0.950]" in named


def test_a_cell_of_several_values_shows_its_aggregate_not_an_interval():
    df = _with_bounds()
    several = pl.concat([df, df.with_columns(pl.col("auc") - 0.01)])
    text = fe.results_table(several, "auc", format="markdown", **KW)
    assert "[" not in text.split("\n\n")[0] and "±" in text
    assert text.endswith("Values: mean ± standard deviation.")
    mixed = pl.concat(
        [several.filter(pl.col("data_set") == "d1"), df.filter(pl.col("data_set") == "d2")]
    )
    text = fe.results_table(mixed, "auc", format="markdown", **KW)
    assert "0.700 [0.620, 0.770]" in text
    assert text.endswith(
        "Values: mean ± standard deviation; a cell of one value: the value with its interval "
        "[low, high]."
    )


def test_interval_errors_name_the_parameter_and_the_column():
    df = _with_bounds()
    with pytest.raises(InvalidParameterError, match=r"results_table\(\): interval must be None"):
        fe.results_table(df, "auc", interval="lo", **KW)  # type: ignore[arg-type]
    with pytest.raises(
        fe.exceptions.ColumnNotFoundError, match=r"column 'nope' \(interval=\) not found"
    ):
        fe.results_table(df, "auc", interval=("lo", "nope"), **KW)
    bad = df.with_columns(pl.col("lo").cast(pl.String))
    with pytest.raises(fe.exceptions.FrameEvalError, match=r"'lo' \(interval_low=\)"):
        fe.results_table(bad, "auc", interval=("lo", "hi"), **KW)


@pytest.mark.parametrize(
    ("frame", "kwargs", "error", "message"),
    [
        (table(paper_order=True), {"metric": "aucc"}, fe.exceptions.ColumnNotFoundError,
         r"column 'aucc' \(metric=\) not found"),
        (table(paper_order=True), {"learner": "data_set"}, InvalidParameterError,
         r"block= and learner= must name different columns, got 'data_set' for both\.$"),
        (table(paper_order=True).with_columns(pl.col("auc").cast(pl.String)), {}, fe.exceptions.InvalidDtypeError,
         r"column 'auc' \(metric=\) must be numeric \(integer or float\), got String\.$"),
    ],
)  # fmt: skip
def test_the_door_names_the_column_and_the_role(frame, kwargs, error, message):
    """The declared inputs, compiled once the roles are inferred: the first failing rule."""
    with pytest.raises(error, match=r"^results_table\(\): " + message):
        fe.results_table(frame, **{"metric": "auc", **KW, **kwargs})
