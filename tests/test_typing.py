"""The typed face (frameeval._typing): LazyFrame in → LazyFrame out, stated in the signatures.

A type checker (mypy, run here on one small snippet) sees a frame function given a
``pl.LazyFrame`` return a ``pl.LazyFrame`` and given a ``pl.DataFrame`` return a ``pl.DataFrame``; at run time the functions are untouched, so ``inspect.signature`` and
``help()`` show their real parameters.
"""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import frameeval as fe
from frameeval._typing import frame_function

ROOT = Path(__file__).resolve().parents[1]

SNIPPET = """\
from typing import assert_type

import polars as pl

import frameeval as fe

lf = pl.LazyFrame({"y": [1, 0, 1], "p": [1, 1, 0], "s": [0.9, 0.4, 0.2]})
df = pl.DataFrame({"y": [1, 0, 1], "p": [1, 1, 0], "s": [0.9, 0.4, 0.2]})

assert_type(fe.confusion_matrix(lf, "y", "p"), pl.LazyFrame)
assert_type(fe.confusion_matrix(df, truth="y", pred="p"), pl.DataFrame)
assert_type(fe.confusion_matrix(data=lf, truth="y", pred="p"), pl.LazyFrame)
assert_type(fe.measures(lf, "y", "p"), pl.LazyFrame)
assert_type(fe.measures(df, "y", "p"), pl.DataFrame)
assert_type(fe.roc_curve(lf, "y", "s"), pl.LazyFrame)
assert_type(fe.calibration_curve(df, "y", "s"), pl.DataFrame)
assert_type(fe.friedman(lf, "acc"), pl.LazyFrame)
assert_type(fe.mcnemar(df, "y", "p", a="a", b="b"), pl.DataFrame)
assert_type(fe.split.kfold(lf, k=2), pl.LazyFrame)
assert_type(fe.split.folds(df), tuple[pl.DataFrame, pl.DataFrame])
assert_type(fe.collect(fe.confusion_matrix(lf, "y", "p")), pl.DataFrame)
fe.confusion_matrix(df, "y", "p", bogus=1)  # wrong: no such parameter
fe.confusion_matrix(df, "y")  # wrong: pred is required
"""

#: the lines of SNIPPET that must be errors; every other line must type-check
WRONG = {"bogus=1", 'fe.confusion_matrix(df, "y")  #'}


@pytest.mark.slow
def test_mypy_sees_lazy_in_lazy_out(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    snippet = tmp_path / "snippet.py"
    snippet.write_text(SNIPPET)
    # from the repository root with its [tool.mypy] settings: frameeval is the source tree and
    # the cache that `mypy frameeval` (.ci/run) warmed is reused (a second of work, not a
    # minute); only the snippet's own errors count here (`mypy frameeval` judges the package)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", str(snippet)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "error" not in done.stderr, done.stderr
    lines = SNIPPET.splitlines()
    flagged = {int(m.group(1)) for m in re.finditer(r"snippet\.py:(\d+): error:", done.stdout)}
    expected = {i for i, line in enumerate(lines, 1) if any(w in line for w in WRONG)}
    assert flagged == expected, textwrap.indent(done.stdout, "  ")


def test_runtime_signature_is_the_function_itself() -> None:
    def f(data: object, truth: str, *, by: str | None = None) -> object:
        return data

    assert frame_function(f) is f
    params = list(inspect.signature(fe.confusion_matrix).parameters)
    assert params[:3] == ["data", "truth", "pred"]
    assert "by" in params
    assert fe.confusion_matrix.__doc__ and "Parameters" in fe.confusion_matrix.__doc__


def test_no_public_frame_function_returns_any() -> None:
    """Every public function taking ``data`` states what it returns (not ``Any``).

    The uncertainty functions are being rewritten into a package (issue 14 part 7) and are
    typed there."""
    untyped = []
    for name in fe.__all__:
        f = getattr(fe, name)
        if not inspect.isfunction(f) or f.__module__.startswith("frameeval.uncertainty"):
            continue
        sig = inspect.signature(f)
        first = next(iter(sig.parameters), None)
        if first == "data" and sig.return_annotation in ("Any", inspect.Signature.empty):
            untyped.append(name)
    assert untyped == []
