"""Export a chart: self-contained offline HTML, SVG, PNG or the Vega-Lite JSON spec."""

from __future__ import annotations

import functools
import html
import json
import os
import re
from pathlib import Path
from typing import Any

import altair as alt
import vl_convert

from frameeval._files import atomic_write
from frameeval.exceptions import InvalidParameterError

_FORMATS = (".html", ".htm", ".svg", ".png", ".json")


@functools.cache
def vegalite_version() -> str | None:
    """The Vega-Lite version Altair writes, as vl-convert names it ("6.4"), if it ships it."""
    match = re.match(r"v?(\d+)\.(\d+)", alt.SCHEMA_VERSION)
    if match is None:
        return None
    version = f"{match.group(1)}.{match.group(2)}"
    return version if version in vl_convert.get_vegalite_versions() else None


def _bundle_cache(vl_version: str | None) -> Path:
    """Where the bundle of this vl-convert and Vega-Lite version is kept between runs:
    ``$FRAMEEVAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/frameeval``, else ``~/.cache/frameeval``."""
    root = os.environ.get("FRAMEEVAL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "frameeval",
    )
    release = getattr(vl_convert, "__version__", "unknown")  # the stub does not declare it
    name = f"vl-convert-{release}-vega-lite-{vl_version or 'default'}.js"
    return Path(root) / name


@functools.cache
def javascript_bundle() -> str:
    """Vega, Vega-Lite and vega-embed in one script, safe to inline in a ``<script>`` element.

    vl-convert builds it in about 2 s of CPU; the bundle is kept in a cache file named after
    the vl-convert and Vega-Lite versions (see ``_bundle_cache``), so a second report in a new
    process reads it. A cache that cannot be read or written, or does not hold a bundle, is
    passed over."""
    version = vegalite_version()
    cache = _bundle_cache(version)
    try:
        bundle = cache.read_text(encoding="utf-8")
        if "vegaEmbed" not in bundle:  # emptied or overwritten by something else
            raise OSError(f"{cache} does not hold the bundle")
    except (OSError, UnicodeDecodeError):
        # the stub marks ``snippet`` required; the library defaults it (globals vegaEmbed…)
        bundle = vl_convert.javascript_bundle(vl_version=version)  # type: ignore[call-arg]
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(cache, bundle.encode("utf-8"))
        except OSError:
            pass  # a read-only home: build it again next time
    bundle = re.sub(r"</(script)", r"<\\/\1", bundle, flags=re.IGNORECASE)
    return bundle.replace("<!--", "<\\!--")


def script_json(value: Any) -> str:
    """JSON safe inside ``<script>``: ``<``, ``>``, ``&`` and U+2028/9 become ``\\u`` escapes,
    so a ``</script>`` inside a learner's name cannot end the element."""
    text = json.dumps(value, allow_nan=False, ensure_ascii=False)
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def _spec(chart: Any) -> dict[str, Any]:
    if isinstance(chart, dict):
        return chart
    if hasattr(chart, "to_dict"):
        return chart.to_dict()
    raise InvalidParameterError(
        f"save(): chart must be an Altair chart or a Vega-Lite dict, got {type(chart).__name__}."
    )


def _title(spec: dict[str, Any]) -> str:
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, list):
        title = " ".join(map(str, title))
    return str(title) if title else "frameeval chart"


def to_html(chart: Any, *, title: str | None = None) -> str:
    """A complete HTML page drawing ``chart`` with no network access.

    Vega, Vega-Lite and vega-embed are inlined (from vl-convert's bundle, about 0.9 MB); the spec
    is embedded as escaped JSON. There is no ``<script src=...>`` and no CDN reference.
    """
    spec = _spec(chart)
    page_title = html.escape(title if title is not None else _title(spec))
    options = {"renderer": "svg", "actions": False}
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{page_title}</title>\n"
        "<style>body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;"
        "margin:1.5em}</style>\n"
        f'<script type="text/javascript">{javascript_bundle()}</script>\n'
        '</head>\n<body>\n<div id="vis"></div>\n<script type="text/javascript">\n'
        f'vegaEmbed("#vis", {script_json(spec)}, {json.dumps(options)})'
        '.catch(function (err) { document.getElementById("vis").textContent = String(err); '
        "console.error(err); });\n</script>\n</body>\n</html>\n"
    )


def save(chart: Any, path: str | os.PathLike[str], *, scale: float = 2.0) -> Path:
    """Write a chart to ``path``; the format follows the file extension.

    Parameters
    ----------
    chart
        An Altair chart (any chart of :mod:`frameeval.charts`) or a Vega-Lite spec as a dict.
    path
        Destination ending in ``.html``/``.htm`` (a self-contained page: Vega, Vega-Lite and
        vega-embed inlined, so it renders offline), ``.svg``, ``.png`` (both rendered by
        vl-convert, no browser needed) or ``.json`` (the Vega-Lite spec).
    scale
        Pixel density of a PNG (2 = twice the chart's pixel size).

    Returns
    -------
    pathlib.Path
        The path written. The file is written atomically (a temporary file in the same
        directory, then renamed), so a failed export leaves no partial file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> curve = pl.DataFrame({"fpr": [0.0, 0.0, 1.0], "tpr": [0.0, 1.0, 1.0]})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     out = fe.charts.save(fe.charts.roc(curve), pathlib.Path(folder) / "roc.svg")
    ...     out.read_text().startswith("<svg")
    True
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in _FORMATS:
        raise InvalidParameterError(
            f"save(): path must end in .html, .svg, .png or .json, got {str(path)!r}."
        )
    if not path.parent.is_dir():
        raise InvalidParameterError(
            f"save(): the directory of path must exist, got {str(path.parent)!r}."
        )
    spec = _spec(chart)
    version = vegalite_version()
    if suffix == ".json":
        payload = (json.dumps(spec, indent=2, allow_nan=False) + "\n").encode()
    elif suffix == ".svg":
        payload = vl_convert.vegalite_to_svg(spec, vl_version=version).encode()
    elif suffix == ".png":
        payload = vl_convert.vegalite_to_png(spec, vl_version=version, scale=scale)
    else:
        payload = to_html(spec).encode()
    atomic_write(path, payload)
    return path
