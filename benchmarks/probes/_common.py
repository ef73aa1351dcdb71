"""What the probes share: interleaved best-of timing (CPU or wall time, chosen by ``CPU``) and
the grouped label expressions measured against their floor.

``interleaved`` runs every case once, then ``rounds`` rounds over all cases, alternating the
order (forwards, backwards) so that a drift of the machine's load is shared by all cases, with
the garbage collector off, and keeps each case's best time. ``CPU=1`` in the environment
times with :func:`time.process_time` (CPU time of the whole process: with
``POLARS_MAX_THREADS=1``, one Polars thread's), otherwise :func:`time.perf_counter`.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

import frameeval as fe

Cases = Mapping[str, Callable[[], Any]]

KEYS = ["dataset", "model", "fold"]


def label_floor() -> list[pl.Expr]:
    """The five sums an eager or lazy label query needs at least ("the floor"): the group's
    length, Σ[y = 1], Σ[p = 1], TP and Σ[y = p]."""
    t, p = pl.col("y_true"), pl.col("y_pred")
    yes, said = t == 1, p == 1
    return [
        pl.len(),
        yes.sum().alias("y"),
        said.sum().alias("p"),
        (yes & said).sum().alias("yp"),
        (t == p).sum().alias("hit"),
    ]


def label_four() -> list[pl.Expr]:
    """accuracy, precision, recall and F1 of ``y_true`` / ``y_pred``, in README's order."""
    return [
        fe.accuracy("y_true", "y_pred"),
        fe.precision("y_true", "y_pred"),
        fe.recall("y_true", "y_pred"),
        fe.f1("y_true", "y_pred"),
    ]


def grouped(
    df: pl.DataFrame, exprs: list[pl.Expr], numbered: bool = False
) -> Callable[[], pl.DataFrame]:
    """A case: the eager ``df.group_by(KEYS).agg(exprs)`` (with ``numbered``, each expression
    aliased ``c0``, ``c1``, … so that unnamed aggregates do not collide)."""
    if numbered:
        exprs = [x.alias(f"c{i}") for i, x in enumerate(exprs)]
    return lambda: df.group_by(KEYS).agg(exprs)


def faces(
    df: pl.DataFrame, floor: list[pl.Expr], four: list[pl.Expr], prefix: str = ""
) -> dict[str, Callable[[], pl.DataFrame]]:
    """The cases ``<prefix>floor eager``, ``<prefix>four eager``, ``<prefix>floor lazy`` and
    ``<prefix>four lazy``: ``floor`` and ``four`` aggregated per ``KEYS`` group, by an eager
    ``df.group_by().agg()`` and by a lazy one collected."""
    out: dict[str, Callable[[], pl.DataFrame]] = {}
    for name, exprs in (("floor", floor), ("four", four)):
        out[f"{prefix}{name} eager"] = lambda e=exprs: df.group_by(KEYS).agg(e)
        out[f"{prefix}{name} lazy"] = lambda e=exprs: df.lazy().group_by(KEYS).agg(e).collect()
    return out


def clock() -> Callable[[], float]:
    """The clock chosen by the environment: CPU time if ``CPU`` is set, else wall time."""
    return time.process_time if os.environ.get("CPU") else time.perf_counter


def env_int(name: str, default: int) -> int:
    """An integer from the environment (``ROWS``, ``GROUPS``), ``default`` when unset."""
    return int(os.environ.get(name, default))


def interleaved(cases: Cases, rounds: int = 11) -> dict[str, float]:
    """Best time (s) of each case over ``rounds`` interleaved rounds, after one warm-up run."""
    tick = clock()
    best = dict.fromkeys(cases, float("inf"))
    for fn in cases.values():
        fn()
    order = list(cases.items())
    gc.disable()
    try:
        for i in range(rounds):
            for name, fn in order if i % 2 == 0 else order[::-1]:
                start = tick()
                fn()
                best[name] = min(best[name], tick() - start)
    finally:
        gc.enable()
    return best


def show(best: Mapping[str, float], base: str | None = None) -> None:
    """Print each case's best time in ms and, with ``base``, its ratio to that case's."""
    b = best[base] if base else None
    for k, v in best.items():
        print(f"{v * 1e3:9.2f} ms  {'' if b is None else f'{v / b:5.2f}x'}  {k}")


def rounds_arg(argv: Sequence[str] | None, default: int) -> int:
    """The optional first command-line argument: the number of rounds."""
    args = sys.argv[1:] if argv is None else list(argv)
    return int(args[0]) if args else default


def run(cases: Cases, argv: Sequence[str] | None = None, default_rounds: int = 11) -> int:
    """Time ``cases`` interleaved and print them, each as a ratio to the first case."""
    show(interleaved(cases, rounds_arg(argv, default_rounds)), next(iter(cases)))
    return 0
