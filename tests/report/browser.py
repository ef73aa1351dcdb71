"""Open a report in Debian's headless Chromium and measure what a reader would see.

:func:`inspect` loads a copy of the report with a small probe injected first in ``<head>`` (so
it sees everything the Vega bundle logs): it records every ``console.warn`` / ``console.error``
and uncaught error, waits until every chart has rendered (or failed), then writes onto ``<body>``
the document's scroll width, the viewport width, the widest chart (its drawn SVG next to the
width of its container), the facet panels that draw no data and the facet footers (shared x
axes) with no panel above them, the elements that clip their content sideways (a wide table's
scroller counts only when it shows no cue), the axis titles and the console messages; ``--dump-dom`` returns them. Chromium's own
console log (``--enable-logging=stderr``) is read too, so a message the probe could not see
still fails the check; given ``shot=``, the same launch also saves a PNG of the viewport (one
Chromium per page and width). :func:`screenshot` saves a PNG of the top ``height`` pixels.
Used by tests/report/test_browser.py and docs/make_report_images.py.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=120000",
    "--hide-scrollbars",
]

_PROBE = """<script>(function(){var log=[];window.__feLog=log;
['warn','error'].forEach(function(level){var original=console[level];
console[level]=function(){log.push(level+': '+Array.prototype.map.call(arguments,String).join(' '));
return original.apply(console,arguments);};});
window.addEventListener('error',function(e){log.push('uncaught: '+e.message);});
function measure(){var b=document.body,n=+b.getAttribute('data-charts');
var done=+(b.getAttribute('data-rendered')||0)+ +(b.getAttribute('data-errors')||0);
if(!b.hasAttribute('data-charts')||done<n){return setTimeout(measure,50);}
var widest=0,overflow=[],empty=0,bare=[],nodata=[],titles={},panels=0;
document.querySelectorAll('div.chart').forEach(function(c){
var svg=c.querySelector('svg');if(!svg){empty+=1;return;}
var w=svg.getBoundingClientRect().width;widest=Math.max(widest,w);
if(w>c.clientWidth+1){overflow.push(c.id+':'+Math.round(w)+'>'+c.clientWidth);}
var cells=[];svg.querySelectorAll('g.role-scope').forEach(function(g){
if(!/(^|_)cell$/.test(g.classList[g.classList.length-1])){return;}
Array.prototype.forEach.call(g.children,function(item){if(item.tagName!=='g'){return;}
var bg=item.querySelector(':scope>path.background');if(!bg){return;}panels+=1;
cells.push(bg.getBoundingClientRect());var marks=item.querySelectorAll('.role-mark');
var drawn=Array.prototype.some.call(marks,function(m){return m.childElementCount>0;});
if(!drawn){nodata.push(c.id+':'+g.classList[g.classList.length-1]);}});});
svg.querySelectorAll('g.role-column-footer>g').forEach(function(item){
var bg=item.querySelector(':scope>path.background');if(!bg){return;}
var f=bg.getBoundingClientRect();var under=cells.some(function(p){
var gap=f.top-p.bottom;return gap>=-3&&gap<=8&&Math.min(p.right,f.right)-Math.max(p.left,f.left)>f.width/2;});
if(!under){bare.push(c.id+':footer@'+Math.round(f.left)+','+Math.round(f.top));}});
svg.querySelectorAll('.role-axis-title text,.role-column-title text').forEach(function(t){
titles[t.textContent]=1;});});
var clipped=[],cued=0;document.querySelectorAll('body *').forEach(function(e){
var s=getComputedStyle(e);if(s.overflowX==='visible'||e.scrollWidth<=e.clientWidth+1){return;}
var cue=getComputedStyle(e,'::before').content;
if(e.classList.contains('scroll')&&e.classList.contains('wide')&&cue&&cue!=='none'){cued+=1;return;}
clipped.push((e.id||e.tagName.toLowerCase()+'.'+e.className)+':'+e.scrollWidth+'>'+e.clientWidth);});
b.setAttribute('data-probe',JSON.stringify({scrollWidth:document.documentElement.scrollWidth,
innerWidth:window.innerWidth,widest:Math.round(widest),overflow:overflow,empty:empty,
bare:bare,nodata:nodata,panels:panels,clipped:clipped,cued:cued,titles:Object.keys(titles),
tops:Array.prototype.map.call(document.querySelectorAll('h2[id]'),function(h){
return [h.id,Math.round(h.getBoundingClientRect().top+window.scrollY)];}),log:log}));}
window.addEventListener('load',function(){setTimeout(measure,0);});})();</script>"""


@dataclass
class Seen:
    """What the probe measured in one viewport."""

    charts: int
    rendered: int
    errors: int
    scroll_width: int
    inner_width: int
    widest_chart: int
    overflowing_charts: list[str]
    charts_without_svg: int
    console: list[str]
    #: facet footers (a column's shared x axis) with no panel right above them: bare axes
    bare_axes: list[str]
    #: facet panels that draw no data mark
    panels_without_data: list[str]
    #: facet panels measured
    panels: int
    #: elements that clip or scroll their content sideways without the wide-table cue
    clipped: list[str]
    #: wide tables that scroll inside their box and show the cue
    cued_tables: int
    #: the distinct axis and facet-header titles drawn
    axis_titles: list[str]
    #: each section heading's id and its distance from the top of the page, in pixels
    section_tops: dict[str, int]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Debian's chromium is required for the browser test (.ci/run installs it)"
    return found


def _probed_copy(report: Path, directory: Path) -> Path:
    text = report.read_text(encoding="utf-8")
    copy = directory / report.name
    copy.write_text(text.replace("<head>", "<head>" + _PROBE, 1), encoding="utf-8")
    return copy


def _console_lines(stderr: str) -> list[str]:
    """Console messages Chromium logged (``:CONSOLE(`` lines) at warning level or above."""
    found = []
    for line in stderr.splitlines():  # loop-ok: a log of a few lines
        if ":CONSOLE" in line and not re.search(r":(INFO|VERBOSE\d*):CONSOLE", line):
            found.append(line)
    return found


def inspect(report: Path, width: int, height: int = 1000, shot: Path | None = None) -> Seen:
    """Load ``report`` at a ``width`` × ``height`` viewport; return what the probe measured.
    With ``shot``, the same Chromium also saves a PNG of that viewport there (the probe only
    writes attributes onto ``<body>``: the page looks as the report does)."""
    with tempfile.TemporaryDirectory(prefix="frameeval-browser-") as tmp:
        directory = Path(tmp)
        copy = _probed_copy(report, directory)
        done = subprocess.run(
            [
                chromium(),
                *FLAGS,
                f"--user-data-dir={directory / 'profile'}",
                f"--window-size={width},{height}",
                "--enable-logging=stderr",
                "--v=0",
                *([f"--screenshot={shot}"] if shot is not None else []),
                "--dump-dom",
                copy.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
    # the body tag with attributes (the inlined bundle holds bare "<body>" strings)
    body = re.search(r'<body((?:\s+[\w-]+="[^"]*")+)\s*>', done.stdout)
    assert body, "no <body> in the dumped DOM"
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', body.group(1)))
    assert "data-probe" in attrs, f"the probe did not finish: {attrs}"
    probe = json.loads(html.unescape(attrs["data-probe"]))
    return Seen(
        charts=int(attrs.get("data-charts", 0)),
        rendered=int(attrs.get("data-rendered", 0)),
        errors=int(attrs.get("data-errors", 0)),
        scroll_width=probe["scrollWidth"],
        inner_width=probe["innerWidth"],
        widest_chart=probe["widest"],
        overflowing_charts=probe["overflow"],
        charts_without_svg=probe["empty"],
        console=probe["log"] + _console_lines(done.stderr),
        bare_axes=probe["bare"],
        panels_without_data=probe["nodata"],
        panels=probe["panels"],
        clipped=probe["clipped"],
        cued_tables=probe["cued"],
        axis_titles=probe["titles"],
        section_tops=dict(probe["tops"]),
    )


def screenshot(report: Path, path: Path, width: int, height: int) -> Path:
    """A PNG of the top ``height`` pixels of ``report`` at a ``width`` px wide viewport."""
    with tempfile.TemporaryDirectory(prefix="frameeval-browser-") as tmp:
        subprocess.run(
            [
                chromium(),
                *FLAGS,
                f"--user-data-dir={Path(tmp) / 'profile'}",
                f"--window-size={width},{height}",
                f"--screenshot={path}",
                report.resolve().as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
    return path
