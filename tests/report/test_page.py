"""The report page: escaping of user strings in every context, atomic writes."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest

from frameeval.exceptions import InvalidParameterError
from frameeval.report.page import Page, script_json, table_html, write_atomic

EVIL = '</script><script>alert("x")</script> & <b>'


def test_script_json_cannot_close_the_script_block() -> None:
    text = script_json({"learner": EVIL})
    assert "</script>" not in text and "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"learner": EVIL}


def test_table_escapes_values_and_headers() -> None:
    html = table_html(pl.DataFrame({EVIL: [EVIL], "x": [0.5]}))
    assert "<script>" not in html and "&lt;/script&gt;" in html
    assert "<td>0.500</td>" in html  # the one display rule (issue 32)


def test_page_escapes_text_title_and_chart_specs() -> None:
    page = Page(title=EVIL)
    page.heading(EVIL, reference=EVIL)
    page.text(EVIL)
    page.chart({"$schema": "x", "title": EVIL, "data": {"values": [{"learner": EVIL}]}})
    html = page.render()
    # only our own script blocks: the bundle, the spec JSON and the embed call
    assert html.count("<script") == 3
    assert html.count("</script>") == 3
    spec_text = re.search(r'id="frameeval-specs">(.*?)</script>', html, re.S).group(1)
    assert json.loads(spec_text)[0]["title"] == EVIL
    assert 'src="http' not in html  # offline: nothing loaded from the network


def test_write_atomic_refuses_to_overwrite_without_force(tmp_path) -> None:
    target = tmp_path / "report.html"
    write_atomic(target, "one")
    with pytest.raises(InvalidParameterError, match="exists; refusing to overwrite"):
        write_atomic(target, "two")
    assert target.read_text() == "one"
    write_atomic(target, "three", force=True)
    assert target.read_text() == "three"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary left behind


def test_charts_shrink_to_their_box_and_wide_tables_scroll_with_a_cue() -> None:
    """Issue 25: a chart never scrolls or clips inside its box (its SVG shrinks, aspect kept);
    a table scrolls sideways in ``div.scroll``, which the page marks ``wide`` when it overflows,
    and a wide box shows a sticky cue. great-tables' own scroll box does not clip inside it.
    (tests/report/test_browser.py measures all of this in Chromium.)"""
    page = Page(title="t")
    page.table(pl.DataFrame({"a": [1]}))
    html = page.render()
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    chart_rule = re.search(r"\.chart\{([^}]*)\}", style).group(1)
    assert "overflow" not in chart_rule
    assert ".chart svg{display:block;max-width:100%;height:auto}" in style
    assert ".scroll>div{overflow:visible!important}" in style
    assert re.search(r'\.scroll\.wide::before\{content:"⇆ wide table: scroll sideways', style)
    assert "d.classList.toggle('wide',d.scrollWidth>d.clientWidth+1)" in html
    assert '<div class="scroll">' in html


def test_a_table_reads_as_words_one_display_rule() -> None:
    """Issue 32: human headers (not chi2_p_value, macro_precision, p_adjusted, cohen_d), a
    measure by its declared display name, values by the one display rule (the verdict's),
    p-values by the one p rule, Booleans as ✓ / — (not True / False)."""
    from frameeval.compare.words import format_value
    from frameeval.metrics import MEASURES

    frame = pl.DataFrame(
        {
            "rmse": [123.456],
            "macro_precision": [0.92251],
            "p_adjusted": [0.00004],
            "chi2_p_value": [0.0477123],
            "cohen_d": [1.5],
            "reject": [True],
            "better": [False],
        }
    )
    out = table_html(frame)
    heads = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", out)
    assert heads == [
        "RMSE",
        "macro precision",
        "adjusted p",
        "p (χ²)",
        "Cohen&#x27;s d",
        "reject",
        "better",
    ]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", out)
    assert cells == ["123.5", "0.923", "&lt; 0.001", "0.0477", "1.500", "✓", "—"]
    assert cells[0] == format_value(123.456) and cells[1] == format_value(0.92251)
    assert "True" not in out and "False" not in out
    assert MEASURES["rmse"].display_name == "RMSE" and MEASURES["r2"].display_name == "R²"
    assert MEASURES["roc_auc"].display_name == "ROC AUC"
    assert MEASURES["balanced_accuracy"].display_name == "balanced accuracy"  # the fallback
