"""Write the pictures of docs/charts.md: every chart of the test gallery as an SVG in docs/img/.

Run from the repository root after changing a chart (the tests render the same charts):

    python docs/make_chart_images.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from frameeval import charts  # noqa: E402
from tests.charts.examples import gallery  # noqa: E402


def main() -> None:
    out = ROOT / "docs" / "img"
    out.mkdir(exist_ok=True)
    for name, chart in gallery().items():
        path = charts.save(chart, out / f"chart_{name}.svg")
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
