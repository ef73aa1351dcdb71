"""Write the screenshots of docs/report.md: the report's first screen in headless Chromium.

Run from the repository root after changing the report (needs Debian's ``chromium``; the browser
test takes the same pictures into a temporary folder on every run):

    python docs/make_report_images.py

Writes ``docs/img/report_example_1400.png`` and ``report_example_800.png`` (the embedded example
at a 1,400 px and an 800 px wide window) and ``report_synthetic_1400.png`` (the synthetic
10-class, 12-learner, 30-data-set study of the browser test).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import frameeval as fe  # noqa: E402
from tests.report.browser import inspect, screenshot  # noqa: E402
from tests.report.synthetic import synthetic_results  # noqa: E402


def main() -> None:
    out = ROOT / "docs" / "img"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="frameeval-docs-") as tmp:
        example = fe.write_report(fe.datasets.example_results(), Path(tmp) / "example.html")
        synthetic = fe.write_report(
            synthetic_results(),
            Path(tmp) / "synthetic.html",
            title="Synthetic: 30 data sets, 12 learners, 10 classes",
        )
        shots = [
            (example, "report_example_1400.png", 1400, 1500),
            (example, "report_example_800.png", 800, 1500),
            (synthetic, "report_synthetic_1400.png", 1400, 1500),
        ]
        for report, name, width, height in shots:  # loop-ok: three pictures
            seen = inspect(report, width)
            assert seen.console == [] and seen.scroll_width <= seen.inner_width, seen
            path = screenshot(report, out / name, width, height)
            print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
