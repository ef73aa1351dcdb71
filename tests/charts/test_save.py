"""Export (frameeval/charts/save.py): offline HTML, SVG, PNG, JSON; escaping; atomic writes."""

from __future__ import annotations

import importlib
import json
import re
import sys

import altair as alt
import polars as pl
import pytest

from frameeval import charts
from frameeval.exceptions import InvalidParameterError

EVIL = "</script><script>alert(1)</script>"


@pytest.fixture(scope="module")
def chart():
    curve = pl.DataFrame(
        {
            "learner": [EVIL] * 3 + ["b & <c>"] * 3,
            "fpr": [0.0, 0.2, 1.0] * 2,
            "tpr": [0.0, 0.7, 1.0, 0.0, 0.5, 1.0],
        }
    )
    return charts.roc(curve)


def test_html_is_self_contained_and_offline(chart, tmp_path):
    path = charts.save(chart, tmp_path / "roc.html")
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    # the vega libraries are inlined: vega-embed's global and a large script body
    assert "window.vegaEmbed=" in page and len(page) > 500_000
    assert not re.search(r"<script[^>]*\bsrc\s*=", page, flags=re.IGNORECASE)
    assert not re.search(r"<link[^>]*\bhref\s*=", page, flags=re.IGNORECASE)
    assert "cdn.jsdelivr" not in page
    assert '"actions": false' in page


def test_html_escapes_user_strings_inside_the_script(chart, tmp_path):
    page = charts.save(chart, tmp_path / "roc.html").read_text(encoding="utf-8")
    # only the two real script elements close; the learner name cannot end a script block
    assert page.lower().count("</script") == 2
    assert EVIL not in page and "alert(1)" in page
    assert "b \\u0026 \\u003cc\\u003e" in page
    title = charts.to_html(chart, title="<b>x</b>")
    assert "<title>&lt;b&gt;x&lt;/b&gt;</title>" in title


def test_svg_png_json(chart, tmp_path):
    svg = charts.save(chart, tmp_path / "roc.svg").read_text()
    assert svg.startswith("<svg") and "mark-line" in svg
    png = charts.save(chart, tmp_path / "roc.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    spec = json.loads(charts.save(chart, tmp_path / "roc.json").read_text())
    assert spec == chart.to_dict()
    assert (
        charts.save(chart.to_dict(), tmp_path / "dict.json").read_text()
        == (tmp_path / "roc.json").read_text()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "dict.json",
        "roc.json",
        "roc.png",
        "roc.svg",
    ]


def test_saved_file_has_ordinary_permissions(chart, tmp_path):
    """Written via a temporary file, but with the mode a plain open() gives (not 0600)."""
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    saved = charts.save(chart, tmp_path / "roc.json")
    assert saved.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777
    saved.chmod(0o640)
    charts.save(chart, saved)
    assert saved.stat().st_mode & 0o777 == 0o640


def test_png_scale(chart, tmp_path):
    small = charts.save(chart, tmp_path / "a.png", scale=1).stat().st_size
    large = charts.save(chart, tmp_path / "b.png", scale=2).stat().st_size
    assert large > small


def test_errors_leave_no_file(tmp_path):
    with pytest.raises(
        InvalidParameterError, match=r"save\(\): path must end in .html, .svg, .png or .json"
    ):
        charts.save(alt.Chart().mark_point(), tmp_path / "x.pdf")
    with pytest.raises(InvalidParameterError, match=r"save\(\): the directory of path must exist"):
        charts.save(alt.Chart().mark_point(), tmp_path / "missing" / "x.svg")
    with pytest.raises(InvalidParameterError, match=r"save\(\): chart must be an Altair chart"):
        charts.save("not a chart", tmp_path / "x.svg")
    too_big = alt.Chart(pl.DataFrame({"x": list(range(6000))})).mark_point().encode(x="x:Q")
    with pytest.raises(alt.MaxRowsError):
        charts.save(too_big, tmp_path / "big.html")
    assert list(tmp_path.iterdir()) == []


def test_failed_render_keeps_the_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.svg"
    path.write_text("old")

    def broken(*args, **kwargs):
        raise RuntimeError("renderer failed")

    # the package attribute ``save`` is the function; the module is in sys.modules
    module = sys.modules["frameeval.charts.save"]
    monkeypatch.setattr(module.vl_convert, "vegalite_to_svg", broken)
    with pytest.raises(RuntimeError):
        charts.save(alt.Chart().mark_point(), path)
    assert path.read_text() == "old" and list(tmp_path.iterdir()) == [path]


def test_the_javascript_bundle_is_built_once_and_kept_in_the_cache(tmp_path, monkeypatch):
    """vl-convert builds the bundle (about 2 s of CPU) only when the cache file named after its
    version is missing or does not hold a bundle; a cache that cannot be written is passed
    over. Escaping applies to a bundle read from the cache as to a fresh one."""
    save = importlib.import_module(
        "frameeval.charts.save"
    )  # the module (charts.save is a function)
    built: list[str | None] = []

    def build(vl_version=None):
        built.append(vl_version)
        return "window.vegaEmbed = 1; // </script><!-- -->"

    monkeypatch.setattr(save.vl_convert, "javascript_bundle", build)
    monkeypatch.setenv("FRAMEEVAL_CACHE_DIR", str(tmp_path / "cache"))
    save.javascript_bundle.cache_clear()
    try:
        first = save.javascript_bundle()
        save.javascript_bundle.cache_clear()  # a new process
        assert save.javascript_bundle() == first and len(built) == 1
        assert "</script" not in first and "<!--" not in first
        (cached,) = (tmp_path / "cache").iterdir()
        assert save.vl_convert.__version__ in cached.name
        cached.write_text("")  # emptied: built again
        save.javascript_bundle.cache_clear()
        assert save.javascript_bundle() == first and len(built) == 2
        monkeypatch.setenv("FRAMEEVAL_CACHE_DIR", str(cached / "not-a-dir"))  # cannot write
        save.javascript_bundle.cache_clear()
        assert save.javascript_bundle() == first and len(built) == 3
    finally:
        save.javascript_bundle.cache_clear()  # the other tests build the real one
