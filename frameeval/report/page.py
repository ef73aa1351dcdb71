"""A self-contained HTML page: text, tables and Vega-Lite charts, with every user string escaped.

The page inlines the Vega / Vega-Lite / vega-embed bundle shipped by ``vl-convert-python``, so it
renders offline. User strings land in three places and each is escaped for its context:
HTML text and attributes (``html.escape``), and JSON inside ``<script>`` (``<``, ``>``, ``&`` and
the line separators become ``\\uXXXX`` escapes, so ``</script>`` in a learner's name cannot end
the block).
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl

from frameeval._files import atomic_write
from frameeval.charts.save import javascript_bundle, script_json
from frameeval.exceptions import InvalidParameterError
from frameeval.metrics.measure import MEASURES

__all__ = ["Page", "check_new", "script_json", "table_html", "write_atomic"]

_STYLE = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;font-size:.85em;margin:.6em 0 1.2em}
th,td{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th{background:#f6f6f6}td.text,th.text{text-align:left}
.ref{color:#666;font-size:.9em}.note{background:#f7f7fb;border-left:3px solid #99c;padding:.4em .8em}
.chart{margin:1em 0;max-width:100%}.chart .vega-embed{display:block;max-width:100%}
.chart svg{display:block;max-width:100%;height:auto}
.scroll{max-width:100%;overflow-x:auto}.scroll>div{overflow:visible!important}.scroll.wide{border-right:3px solid #99c}
.scroll.wide::before{content:"⇆ wide table: scroll sideways for more columns";display:block;
position:sticky;left:0;font-size:.85em;color:#555;padding:.1em 0}
nav.toc{background:#fafafa;border:1px solid #eee;padding:.4em .8em;font-size:.92em}
nav.toc ol{margin:.2em 0;padding-left:1.4em}nav.toc li{margin:.1em 0}
h3{font-size:1.05em;margin:1.2em 0 .3em}caption{caption-side:top;text-align:left;color:#555;
padding:.2em 0}section.answer{background:#f8fbff;border:1px solid #cfe0f5;border-radius:6px;
padding:.2em 1.2em 1em;margin:1em 0}p.verdict{font-size:1.08em}p.headline{font-size:1.15em;margin:.6em 0 .3em;color:#0b3d6e}.skip{color:#555;font-style:italic}
p.download{margin:.2em 0 .6em;font-size:.9em}tr.rank td{background:#f6f6f6}
details{margin:.3em 0}details>summary{cursor:pointer;font-weight:600}
"""


#: Column headers a reader reads instead of the frame's column names (the rest: the measure's
#: display name when the column is a registered measure, else underscores as spaces).
HEADERS = {
    "p_value": "p",
    "p_adjusted": "adjusted p",
    "chi2": "χ²",
    "chi2_p_value": "p (χ²)",
    "cohen_d": "Cohen's d",
    "cliff_delta": "Cliff's δ",
    "df1": "df₁",
    "df2": "df₂",
    "n_blocks": "blocks",
    "n_learners": "learners",
    "a": "learner a",
    "b": "learner b",
    "p_a_better": "P(a better)",
    "p_rope": "P(practically equivalent)",
    "p_b_better": "P(b better)",
    "book_t": "book's t",
    "book_p": "book's p",
    "book_reject": "book's test rejects",
    "corrected_test": "corrected test",
    "corrected_statistic": "corrected t",
    "corrected_p": "corrected p",
    "corrected_reject": "corrected test rejects",
    "mean_residual": "mean residual",
}
#: The marks of a Boolean cell (``reject`` …): a check or a dash, never True / False.
TRUE_MARK, FALSE_MARK = "✓", "—"


def slugify(text: str, default: str) -> str:
    """``text`` lower-cased with every run of other characters than a-z and 0-9 as one ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or default


def header(column: str) -> str:
    """The header a reader sees for ``column`` (see :data:`HEADERS`)."""
    if column in HEADERS:
        return HEADERS[column]
    measure = MEASURES.get(column)
    if measure is not None:
        return measure.display_name
    return column.replace("_", " ")


def is_p_value(column: str) -> bool:
    """A p-value column (printed by the one p rule): ``p_value``, ``p_adjusted``, ``*_p``,
    ``*_p_value`` — not the Bayesian posterior probabilities ``p_a_better`` …"""
    return column in ("p_value", "p_adjusted") or column.endswith(("_p_value", "_p"))


def _cell(value: Any, p_value: bool = False) -> str:
    from frameeval.compare.words import format_p, format_value

    if value is None:
        return '<td class="null"></td>'
    if isinstance(value, bool):
        return f'<td class="mark">{TRUE_MARK if value else FALSE_MARK}</td>'
    if isinstance(value, float) and p_value:
        return f"<td>{html.escape(format_p(value).removeprefix('p = ').removeprefix('p '))}</td>"
    if isinstance(value, float):
        return f"<td>{format_value(value)}</td>" if abs(value) < 1e6 else f"<td>{value:.4g}</td>"
    if isinstance(value, int):
        return f"<td>{value}</td>"
    return f'<td class="text">{html.escape(str(value))}</td>'


def table_html(frame: pl.DataFrame, max_rows: int = 200) -> str:
    """An HTML table of a (small) collected frame, as a reader reads it: human headers
    (:func:`header`), values by the one display rule (:func:`~frameeval.compare.words.
    format_value`), p-values by the one p rule (``< 0.001``, else three significant digits),
    Booleans as ✓ / —; every value escaped."""
    head = "".join(
        f'<th class="{"text" if not frame[c].dtype.is_numeric() else ""}">'
        f"{html.escape(header(c))}</th>"
        for c in frame.columns
    )
    p_columns = [is_p_value(c) for c in frame.columns]
    rows = []
    for row in frame.head(max_rows).rows():  # loop-ok: rendering a small result table
        cells = (_cell(v, p) for v, p in zip(row, p_columns, strict=True))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    more = (
        f'<p class="ref">{frame.height - max_rows} more rows not shown.</p>'
        if frame.height > max_rows
        else ""
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{more}"


@dataclass
class Page:
    """Accumulates sections; :meth:`render` returns one self-contained HTML document."""

    title: str
    _body: list[str] = field(default_factory=list)
    _specs: list[dict[str, Any]] = field(default_factory=list)
    _toc: list[tuple[int, str, str]] = field(default_factory=list)

    def _anchor(self, text: str) -> str:
        """A unique, readable anchor for a heading ("roc-p-r-and-cost-curves")."""
        slug = slugify(text, "section")
        taken = {a for _, a, _ in self._toc}
        anchor, n = slug, 2
        while anchor in taken:
            anchor, n = f"{slug}-{n}", n + 1
        return anchor

    def heading(self, text: str, reference: str | None = None, *, level: int = 2) -> str:
        """A section heading (level 2) or sub-heading (level 3), listed in the table of
        contents with an anchor; returns the anchor."""
        anchor = self._anchor(text)
        self._toc.append((level, anchor, text))
        self._body.append(f'<h{level} id="{anchor}">{html.escape(text)}</h{level}>')
        if reference:
            self._body.append(f'<p class="ref">{html.escape(reference)}</p>')
        return anchor

    def raw(self, fragment: str) -> None:
        """Append an HTML fragment built by frameeval itself (every user string in it escaped)."""
        self._body.append(fragment)

    def download(self, filename: str, mime: str, text: str, label: str | None = None) -> None:
        """A link that saves ``text`` as ``filename``: embedded as a data URI, so offline."""
        href = f"data:{mime};charset=utf-8,{quote(text, safe='')}"
        self._body.append(
            f'<p class="download"><a download="{html.escape(filename, quote=True)}" '
            f'href="{href}">{html.escape(label or "Download " + filename)}</a></p>'
        )

    def text(self, text: str, css: str | None = None) -> None:
        cls = f' class="{html.escape(css, quote=True)}"' if css else ""
        self._body.append(f"<p{cls}>{html.escape(text)}</p>")

    def table(
        self,
        frame: pl.DataFrame | None,
        caption: str | None = None,
        empty: str = "No rows.",
        fold: int = 40,
    ) -> None:
        """A captioned table (at most 200 rows shown); ``empty`` stands in for no rows. A table
        of more than ``fold`` rows is folded (``<details>``: its caption opens it)."""
        if frame is not None and frame.height > fold:
            label = f"{caption or 'Table'} ({frame.height:,} rows: open)"
            self._body.append(f"<details><summary>{html.escape(label)}</summary>")
            self._body.append(f'<div class="scroll">{table_html(frame)}</div></details>')
            return
        if caption:
            self._body.append(f'<p class="caption"><b>{html.escape(caption)}</b></p>')
        if frame is None or frame.height == 0:
            self._body.append(f'<p class="skip">{html.escape(empty)}</p>')
            return
        self._body.append(f'<div class="scroll">{table_html(frame)}</div>')

    def chart(self, chart: Any) -> None:
        spec = chart.to_dict() if hasattr(chart, "to_dict") else dict(chart)
        self._body.append(f'<div class="chart" id="chart{len(self._specs)}"></div>')
        self._specs.append(spec)

    def _toc_html(self) -> str:
        """The table of contents: level-2 headings, their level-3 sub-headings nested."""
        if not self._toc:
            return ""
        parts, open_sub = ["<ol>"], False
        for i, (level, anchor, text) in enumerate(self._toc):  # loop-ok: a few headings
            link = f'<a href="#{anchor}">{html.escape(text)}</a>'
            if level == 2:
                parts.append("</li></ol>" if open_sub else ("</li>" if i else ""))
                parts.append(f"<li>{link}")
                open_sub = False
            else:
                parts.append(f"<li>{link}</li>" if open_sub else f"<ol><li>{link}</li>")
                open_sub = True
        parts.append("</ol></li></ol>" if open_sub else "</li></ol>")
        return f'<nav class="toc"><b>Contents</b>{"".join(parts)}</nav>'

    def render(self) -> str:
        toc = self._toc_html()
        specs = script_json(self._specs)
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(self.title)}</title><style>{_STYLE}</style>"
            f"<script>{javascript_bundle()}</script></head><body>"
            f"<h1>{html.escape(self.title)}</h1>{toc}{''.join(self._body)}"
            f'<script type="application/json" id="frameeval-specs">{specs}</script>'
            "<script>(function(){var specs=JSON.parse(document.getElementById("
            "'frameeval-specs').textContent);var body=document.body,done=0,failed=0;"
            "body.setAttribute('data-charts',specs.length);"
            "window.addEventListener('error',function(){failed+=1;"
            "body.setAttribute('data-errors',failed);});"
            "specs.forEach(function(spec,i){vegaEmbed('#chart'+i,spec,{renderer:'svg',"
            "actions:false}).then(function(){done+=1;body.setAttribute('data-rendered',done);})"
            ".catch(function(e){failed+=1;body.setAttribute('data-errors',failed);"
            "console.error(e);});});"
            # a table wider than the page scrolls inside its box, which then shows a cue
            "function wide(){document.querySelectorAll('div.scroll').forEach(function(d){"
            "d.classList.toggle('wide',d.scrollWidth>d.clientWidth+1);});}"
            "window.addEventListener('load',wide);window.addEventListener('resize',wide);"
            "})();</script>"
            "</body></html>\n"
        )


def check_new(path: str | os.PathLike[str], force: bool) -> None:
    """An existing ``path`` is refused without ``force`` (checked before the work, and again
    when writing)."""
    if Path(path).exists() and not force:
        raise InvalidParameterError(
            f"report(): output {str(path)!r} exists; refusing to overwrite it, got no --force.\n"
            "Hint: pass --force (force=True) or choose another path."
        )


def write_atomic(path: str | os.PathLike[str], text: str, *, force: bool = False) -> Path:
    """Write ``text`` to ``path`` via a temporary file and a rename: no partial file, ever.

    An existing file is replaced only with ``force=True``.
    """
    target = Path(path)
    check_new(target, force)
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, text.encode("utf-8"))
    return target
