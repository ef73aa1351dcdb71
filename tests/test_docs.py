"""The documentation site builds with ``mkdocs build --strict`` and documents the public API.

The strict build fails on any warning: a broken link or anchor, a page named in the navigation
that does not exist (other than the few pending ones ``docs/hooks.py`` lists), or a docstring
mkdocstrings cannot render (an unknown parameter, a broken cross-reference). The built API
reference must hold an entry (an HTML anchor) for every name of ``frameeval.__all__`` and every
function of ``fe.split``, ``fe.compare`` and ``fe.charts``, so a public name added without a
reference entry fails here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import frameeval as fe

ROOT = Path(__file__).resolve().parents[1]
ANCHOR = re.compile(r'id="(frameeval(?:\.\w+)*)"')


def _anchors(site: Path) -> set[str]:
    pages = (site / "api").rglob("index.html")
    return {m for page in pages for m in ANCHOR.findall(page.read_text("utf-8"))}


def _has_entry(anchors: set[str], module: str, name: str) -> bool:
    # A function whose name is also the name of its module (fe.evaluate, fe.compare.mcnemar,
    # fe.charts.save) is documented at its home, ``<module>.<name>.<name>``.
    return any(
        f"{module}.{name}" == a or a.endswith(f".{name}.{name}") or a == f"frameeval.{name}.{name}"
        for a in anchors
    )


_ASSET = re.compile(r"<(?:script|link)\b[^>]*?\b(?:src|href)=[\"']?((?:https?:)?//[^\"' >]+)", re.I)


def _external_assets(site: Path) -> list[tuple[str, str]]:
    """(page, URL) of every ``<script src>`` / ``<link href>`` that leaves the site: the docs
    must work offline (MathJax is vendored, web fonts are off)."""
    found = []
    for page in site.rglob("*.html"):
        for tag in re.findall(r"<(?:script|link)\b[^>]*>", page.read_text("utf-8"), re.I):
            if re.search(r"\brel=[\"']?(?:canonical|alternate)", tag):
                continue  # a page's own address, not a resource it loads
            found += [(str(page.relative_to(site)), url) for url in _ASSET.findall(tag)]
    return found


@pytest.mark.slow
def test_mkdocs_build_strict_with_full_api_reference(tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr[-8000:]}"
    for page in ("index.html", "getting-started/index.html", "coming-from/index.html"):
        assert (site / page).is_file(), f"the site has no {page}"

    external = _external_assets(site)
    assert not external, f"pages load scripts or styles from outside the site: {external[:5]}"

    anchors = _anchors(site)
    top = {n for n in fe.__all__ if n not in ("split", "compare", "charts")}
    # fe.friedman is fe.compare.friedman: the comparison tests are documented in their namespace.
    missing = [
        n
        for n in sorted(top)
        if not _has_entry(anchors, "frameeval", n)
        and not (n in fe.compare.__all__ and _has_entry(anchors, "frameeval.compare", n))
    ]
    for namespace in ("split", "compare", "charts"):
        module = getattr(fe, namespace)
        missing += [
            f"{namespace}.{n}"
            for n in module.__all__
            if not _has_entry(anchors, f"frameeval.{namespace}", n)
        ]
    assert not missing, f"public names without an API reference entry: {missing}"
