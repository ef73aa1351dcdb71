"""Every ``examples/*.py`` runs end to end at its ``--small`` size and writes its outputs.

Each script runs in a fresh interpreter (as a user would run it), with a temporary output
directory; the test fails on a non-zero exit and on any expected output that is missing or
empty. A new script in ``examples/`` must be listed in ``EXPECTED`` (the last test fails
otherwise), so no example goes untested.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

# script → files it must write into the output directory
EXPECTED: dict[str, tuple[str, ...]] = {
    "01_compare_classifiers.py": (
        "results.parquet",
        "accuracy_per_fold.csv",
        "accuracy_per_dataset.csv",
        "friedman.csv",
        "nemenyi.csv",
        "cd_diagram.svg",
        "cd_diagram_demsar.svg",
        "rank_heatmap.svg",
        "accuracy_per_fold.svg",
        "report.html",
    ),
    "02_cost_sensitive_screening.py": (
        "cost_sensitive_error.csv",
        "cost_curve.csv",
        "expected_total_cost.csv",
        "operating_ranges.csv",
        "cost_curve.svg",
        "cost_curves_overlaid.svg",
    ),
    "03_two_learners.py": (
        "errors_5x2cv.csv",
        "cv5x2_t_test.csv",
        "cv5x2_t_distribution.svg",
        "errors_5x2cv.svg",
        "contingency_table.csv",
        "mcnemar.csv",
        "contingency_table.svg",
    ),
    "04_bias_variance.py": ("bias_variance.csv", "bias_variance.svg"),
    "05_learning_validation_curves.py": (
        "learning_curve.csv",
        "learning_curve.svg",
        "diagnosis_learning_curve.csv",
        "validation_curve.csv",
        "validation_curve.svg",
        "diagnosis_validation_curve.csv",
    ),
    # the lead's generator of the embedded example table: a file path, not a directory
    "make_example_results.py": ("example_results.parquet",),
    # the generator of the embedded regression example (issue 24): a file path too
    "make_regression_example.py": ("regression_results.parquet",),
    # the generator of the embedded item-level example (issue 34): a file path too
    "make_items_example.py": ("items_results.parquet",),
}


def _argv(script: str, out: Path) -> list[str]:
    if script == "make_example_results.py":
        return ["--out", str(out / "example_results.parquet"), "--small"]
    if script == "make_regression_example.py":
        return ["--out", str(out / "regression_results.parquet"), "--small"]
    if script == "make_items_example.py":
        return ["--out", str(out / "items_results.parquet"), "--small"]
    return [str(out), "--small"]


def _run(script: str, out: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *_argv(script, out)],
        cwd=out.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_example_runs_and_writes_outputs(script: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = _run(script, out)
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    for name in EXPECTED[script]:
        path = out / name
        assert path.is_file(), f"{script} did not write {name}; wrote {sorted(os.listdir(out))}"
        assert path.stat().st_size > 0, f"{script} wrote an empty {name}"
        if name.endswith(".svg"):
            assert "<svg" in path.read_text(encoding="utf-8")[:2000], f"{name} is not an SVG"
        if name.endswith(".html"):
            assert "<html" in path.read_text(encoding="utf-8")[:5000].lower()


def test_every_example_is_listed() -> None:
    scripts = {p.name for p in EXAMPLES.glob("*.py")}
    assert scripts == set(EXPECTED), (
        f"unlisted: {scripts - set(EXPECTED)}, gone: {set(EXPECTED) - scripts}"
    )
