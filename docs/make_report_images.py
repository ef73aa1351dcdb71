"""Write the screenshots of docs/report.md: the report in headless Chromium.

Run from the repository root after changing the report (needs Debian's ``chromium`` and
Pillow; the browser test takes the same measurements on every run):

    python docs/make_report_images.py

Writes ``docs/img/report_example_1400.png`` and ``report_example_800.png`` (the first screen of
the embedded example at a 1,400 px and an 800 px wide window), ``report_synthetic_1400.png``
and ``report_synthetic_800.png`` (the synthetic 10-class, 12-learner, 30-data-set study of the
browser test), and ``report_example_curves_1400.png`` / ``report_example_calibration_800.png``
(the drill-down: the ROC, P-R and cost curves at 1,400 px; the reliability grid at 800 px).
Each page is checked first as the browser test checks it: silent console, nothing clipped,
every chart within its container, no facet panel without data.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

import frameeval as fe  # noqa: E402
from tests.report.browser import Seen, inspect, screenshot  # noqa: E402
from tests.report.synthetic import synthetic_results  # noqa: E402


def _check(seen: Seen) -> None:
    assert seen.console == [] and seen.scroll_width <= seen.inner_width, seen
    assert seen.overflowing_charts == [] and seen.clipped == [], seen
    assert seen.panels_without_data == [] and seen.bare_axes == [], seen


def _section(report: Path, seen: Seen, path: Path, width: int, section: str, height: int) -> None:
    """A ``height`` px tall picture from the heading ``section`` down."""
    top = seen.section_tops[section] - 10
    with tempfile.TemporaryDirectory(prefix="frameeval-docs-") as tmp:
        full = screenshot(report, Path(tmp) / "full.png", width, top + height)
        with Image.open(full) as image:
            image.crop((0, top, width, top + height)).save(path, optimize=True)


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
            (example, "report_example_1400.png", 1400, 1500, None),
            (example, "report_example_800.png", 800, 1500, None),
            (synthetic, "report_synthetic_1400.png", 1400, 1500, None),
            (synthetic, "report_synthetic_800.png", 800, 1500, None),
            (example, "report_example_curves_1400.png", 1400, 1900, "roc-p-r-and-cost-curves"),
            (
                example,
                "report_example_calibration_800.png",
                800,
                1500,
                "calibration-and-operating-point",
            ),
        ]
        for report, name, width, height, section in shots:  # loop-ok: six pictures
            seen = inspect(report, width)
            _check(seen)
            if section is None:
                screenshot(report, out / name, width, height)
            else:
                _section(report, seen, out / name, width, section, height)
            print((out / name).relative_to(ROOT))


if __name__ == "__main__":
    main()
