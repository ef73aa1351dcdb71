"""Every chart of the gallery: spec snapshot, valid JSON, and a rendered SVG (vl-convert)."""

from __future__ import annotations

import json
import re

import pytest
import vl_convert

from frameeval.charts.save import vegalite_version
from tests.charts import examples, snapshot

GALLERY = examples.gallery()

#: Marks every picture must contain (Vega's SVG class names, ``mark-<type>``).
EXPECTED_MARKS = {
    "posterior_simplex": {"rule", "symbol", "text"},
    "bayes_matrix": {"rect", "text"},
    "comparison_matrix": {"rect", "text"},
    "forest": {"rule", "symbol"},
    "roc_band": {"area", "line"},
    "calibration": {"line", "rule", "symbol", "rect"},
    "threshold": {"line", "rule", "symbol"},
    "roc": {"line", "symbol"},
    "roc_facet": {"line", "text"},
    "pr": {"line", "symbol", "text"},
    "gains": {"line", "symbol"},
    "lift": {"line", "symbol"},
    "ks": {"line", "rule", "text"},
    "cost_curve": {"line", "area"},
    "cost_curve_facet": {"line", "area", "text"},
    "binomial": {"rect", "rule", "text"},
    "t_distribution": {"area", "line", "rule", "text"},
    "cd_diagram": {"rule", "symbol"},
    "cd_diagram_demsar": {"rule", "text"},
    "rank_heatmap": {"rect", "text"},
    "metric_distribution": {"rect", "rule", "symbol"},
    "confusion_heatmap": {"rect", "text"},
    "confusion_heatmap_normalized": {"rect", "text"},
    "bias_variance": {"line", "symbol"},
    "learning_curve": {"area", "line", "symbol"},
    "validation_curve": {"area", "line", "symbol"},
    "predicted_actual": {"rect", "line"},
    "residuals": {"rect", "rule"},
    "residual_distribution": {"line", "rule"},
    "quantile_coverage": {"line", "symbol"},
    "leaderboard": {"rule", "symbol"},
    "subgroup_gaps": {"rule", "symbol"},
}


def test_gallery_covers_every_chart_function():
    """Each public chart function appears in the gallery (so it is rendered and snapshotted)."""
    from frameeval import charts

    functions = set(charts.__all__) - {"save", "to_html"}
    covered = {
        name.split("_facet")[0].removesuffix("_normalized").removesuffix("_demsar")
        for name in GALLERY
    }
    assert functions <= covered, functions - covered
    assert set(EXPECTED_MARKS) == set(GALLERY)


@pytest.mark.parametrize("name", sorted(GALLERY))
def test_spec_snapshot(name):
    snapshot.assert_matches_snapshot(name, GALLERY[name].to_dict())


@pytest.mark.parametrize("name", sorted(GALLERY))
def test_spec_is_strict_json(name):
    """No NaN / Infinity (invalid JSON that Vega rejects): non-finite values become null."""
    text = json.dumps(GALLERY[name].to_dict(), allow_nan=False)
    assert len(text) < 400_000


@pytest.mark.parametrize("name", sorted(GALLERY))
def test_renders_to_svg(name):
    svg = vl_convert.vegalite_to_svg(GALLERY[name].to_dict(), vl_version=vegalite_version())
    assert svg.startswith("<svg")
    marks = set(re.findall(r'class="mark-(\w+) role-mark', svg))
    assert EXPECTED_MARKS[name] <= marks, (name, marks)
    # something is drawn inside the mark groups (paths, rects or text with content)
    assert re.search(r'<path[^>]* d="M', svg) or "<text" in svg
