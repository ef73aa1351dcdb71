"""The shared look of frameeval's charts.

Charts carry their look as mark, axis and title properties rather than a top-level ``config``:
a chart with a ``config`` cannot be layered or concatenated by the user (or by the HTML report),
so the theme is applied piece by piece through the helpers below.
"""

from __future__ import annotations

from typing import Any

import altair as alt

#: Categorical palette for groups (learners, classes, roles); ``tableau20`` beyond ten groups.
SCHEME: Any = "tableau10"
SCHEME_LARGE: Any = "tableau20"
#: Sequential palette for heatmaps (confusion matrices, rank tables).
SEQUENTIAL: Any = "blues"

#: Neutral ink for reference geometry (diagonals, iso-F1 lines, axes drawn as marks).
GUIDE = "#8c8c8c"
#: Ink for single-series marks and text.
INK = "#333333"
#: Accepted / rejected regions of a test (figures 2.6 and 2.7).
ACCEPT = "#9ecae1"
REJECT = "#d6604d"

#: Default sizes in pixels: unit-square plots (ROC, P-R, cost) and wide plots.
SQUARE = 320
WIDE = 460
TALL = 280

#: Width the report gives a chart (its page is 1,100 px wide with padding), the room a legend
#: column takes next to facets, and the width of a y axis with its labels and title.
PAGE = 1040
LEGEND = 210
Y_AXIS = 60

FONT_SIZE = 11
TITLE_SIZE = 14


def title(text: str | None, subtitle: str | list[str] | None = None) -> alt.TitleParams | str:
    """A left-anchored title with an optional grey subtitle (a list: one line each)."""
    params: dict[str, Any] = {"text": text or "", "anchor": "start", "fontSize": TITLE_SIZE}
    if subtitle:
        params.update(subtitle=subtitle, subtitleColor="#666666", subtitleFontSize=FONT_SIZE)
    return alt.TitleParams(**params)


def axis(label: str | None, *, fmt: str | None = None, **extra: Any) -> alt.Axis:
    """An axis with the house font sizes; ``fmt`` is a d3 format string."""
    params: dict[str, Any] = {
        "title": label,
        "labelFontSize": FONT_SIZE,
        "titleFontSize": FONT_SIZE + 1,
        "titleFontWeight": "normal",
    }
    if fmt is not None:
        params["format"] = fmt
    params.update(extra)
    return alt.Axis(**params)


def legend(label: str, **extra: Any) -> alt.Legend:
    """A legend with the house font sizes; long labels are not truncated below 240 px."""
    return alt.Legend(
        title=label,
        labelFontSize=FONT_SIZE,
        titleFontSize=FONT_SIZE + 1,
        titleFontWeight="normal",
        labelLimit=240,
        symbolOpacity=1,
        **extra,
    )


def scheme(n_groups: int) -> Any:
    """The categorical scheme for ``n_groups`` colours."""
    return SCHEME if n_groups <= 10 else SCHEME_LARGE


def header() -> alt.Header:
    """Facet headers in the house style: each panel labelled by its value, no header title
    (it would be the facet's column name, a field name, over the grid)."""
    return alt.Header(title=None, labelFontSize=FONT_SIZE + 1)
