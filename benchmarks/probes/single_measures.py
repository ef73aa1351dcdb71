"""Each regression measure alone on 5M rows: ``df.select(fe.<measure>("t", "f"))`` against the
bare Polars formula of the same measure.

Backs ``docs/performance.md``, "Session 12: one regression measure on 5M rows" (the
before/after table of ratios, issue 31 point 2). The frame is 5M rows (``ROWS``) of a log-normal
truth ``t`` and a prediction ``f = t·exp(0.1 z)``; each measure is timed as an eager
``df.select`` of the frameeval builder and of its bare formula, best of ``rounds`` interleaved
rounds (default 7; the page's figures used 9), and printed as ``fe`` ms, ``bare`` ms and their
ratio.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.single_measures 9

Environment: ``ROWS`` (default 5,000,000), ``ONLY`` (comma-separated measure names, e.g.
``ONLY=rmse,mae``), ``CPU=1`` for CPU time (see :mod:`benchmarks.probes`).

Before/after (A/B of two checkouts): the page's "before" and "after" columns are two runs of
this probe, one with ``PYTHONPATH`` set to main's checkout and one to the branch's (which
``frameeval`` is imported decides the side), alternated, two runs each.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import polars as pl

import frameeval as fe
from benchmarks.probes._common import env_int, interleaved, rounds_arg
from benchmarks.tasks import bare_formulas


def bare() -> dict[str, pl.Expr]:
    """The bare Polars formula of each regression measure, over columns ``t`` and ``f`` (the
    benchmark's own single-measure floors)."""
    return bare_formulas("t", "f")


def frame() -> pl.DataFrame:
    """``ROWS`` rows (default 5M): a log-normal truth ``t`` and ``f = t·exp(0.1 z)``."""
    n = env_int("ROWS", 5_000_000)
    rng = np.random.default_rng(0)
    y = rng.lognormal(0, 1, n)
    return pl.DataFrame({"t": y, "f": y * np.exp(0.1 * rng.standard_normal(n))})


def _select(df: pl.DataFrame, expr: pl.Expr) -> Callable[[], pl.DataFrame]:
    return lambda: df.select(expr)


def cases() -> dict[str, Callable[[], Any]]:
    """``<measure> bare`` and ``<measure> fe`` for every measure (or those named in ``ONLY``)."""
    df = frame()
    only = os.environ.get("ONLY")
    out: dict[str, Callable[[], Any]] = {}
    for name, b in bare().items():
        if only and name not in only.split(","):
            continue
        e = getattr(fe, name)("t", "f")
        out[name + " bare"] = _select(df, b)
        out[name + " fe"] = _select(df, e)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases and print ``fe``, ``bare`` and their ratio per measure."""
    fns = cases()
    best = interleaved(fns, rounds_arg(argv, 7))
    for k in fns:
        if k.endswith(" fe"):
            n = k[:-3]
            fe_s, bare_s = best[k], best[n + " bare"]
            print(
                f"{n:24s} fe {fe_s * 1e3:8.1f} ms  bare {bare_s * 1e3:8.1f} ms  "
                f"ratio {fe_s / bare_s:5.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
