"""The example report in headless Chromium (Debian's ``chromium``): every chart draws, with no
script errors. Installed by ``.ci/run``; the test fails (it is not skipped) without it."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.browser

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=60000",
]


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Debian's chromium is required for the browser test (.ci/run installs it)"
    return found


def test_every_chart_of_the_example_report_renders(example_report, tmp_path) -> None:
    browser = _chromium()
    profile = tmp_path / "profile"
    url = example_report.resolve().as_uri()
    dom = subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
        capture_output=True, text=True, timeout=240, check=True,
    ).stdout
    found = re.search(r"<body\b([^>]*data-charts=[^>]*)>", dom)
    assert found, "the page script did not run (no data-charts on <body>)"
    body = found.group(1)
    charts = int(re.search(r'data-charts="(\d+)"', body).group(1))
    rendered_attr = re.search(r'data-rendered="(\d+)"', body)
    rendered = int(rendered_attr.group(1)) if rendered_attr else 0
    assert charts >= 8
    assert rendered == charts
    assert "data-errors" not in body
    # each chart container holds exactly one drawn SVG
    containers = re.findall(r'<div class="chart[^"]*" id="chart\d+"[^>]*>(.*?)</div>', dom, re.S)
    assert len(containers) == charts
    assert dom.count('class="marks"') >= charts
    shot = tmp_path / "report.png"
    subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={profile}", "--window-size=1200,2400",
         f"--screenshot={shot}", url],
        capture_output=True, text=True, timeout=240, check=True,
    )
    assert shot.exists() and shot.stat().st_size > 10_000
