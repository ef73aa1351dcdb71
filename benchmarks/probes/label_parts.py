"""What each label builder's plan costs in an eager grouped query: the plan a builder returns,
its aggregates flat, and the same aggregates inside one struct, against ``len()`` alone.

Backs ``docs/performance.md``, "Session 13", "Eager labels (issue 31 point 1)": the grouping
alone, the struct with the formula and the rules' `when/then` on one row per group measured
within the noise of each builder's bare aggregates. The four builders of an eager
``df.group_by(keys).agg(accuracy, precision, recall, f1)`` are planned once on a 2-row frame
while :meth:`frameeval._validate.Shared.bind` is recorded (:func:`capture`); for each builder
(``acc``, ``prec``, ``rec``, ``f1``) three cases are timed on 1M rows × 1,000 groups:
``<name> plan`` (the expression the builder planned), ``<name> flat`` (its aggregates over the
rows, each its own column) and ``<name> struct`` (the same aggregates in one struct), plus
``len``. Prints each case's best time (ms) of ``rounds`` interleaved rounds (default 11) and
its ratio to the first case. Per-aggregate costs come from
:mod:`benchmarks.probes.label_aggregates`.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.label_parts

Environment: ``ROWS`` (default 1,000,000), ``GROUPS`` (default 1,000), ``CPU=1`` for CPU
time (see :mod:`benchmarks.probes`). It reads frameeval's private planning objects
(``Shared.bind``, ``Shared._aggregates``, the ``__fe_<i>__`` field names): it measures the plan
of the checkout on ``PYTHONPATH`` and may need adapting when that plan changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from benchmarks.data import result_frame
from benchmarks.probes._common import KEYS, env_int, grouped, label_four, run
from frameeval import _validate


def capture(exprs: list[pl.Expr]) -> list[tuple[Any, pl.Expr, pl.Expr]]:
    """Plan ``exprs`` in an eager ``group_by`` of a 2-row frame and return every
    ``(shared, expr, planned)`` that :meth:`Shared.bind` saw, in planning order."""
    got: list[tuple[Any, pl.Expr, pl.Expr]] = []
    orig = _validate.Shared.bind

    def bind(self: Any, expr: pl.Expr) -> pl.Expr:
        out = orig(self, expr)
        got.append((self, expr, out))
        return out

    _validate.Shared.bind = bind  # type: ignore[method-assign]
    try:
        small = pl.DataFrame(
            {"dataset": [1, 1], "model": [1, 1], "fold": [1, 1], "y_true": [1, 0], "y_pred": [1, 1]}
        )
        small.group_by(KEYS).agg(exprs)
    finally:
        _validate.Shared.bind = orig  # type: ignore[method-assign]
    return got


def cases() -> dict[str, Callable[[], Any]]:
    """``<builder> plan / flat / struct`` for the four label builders, and ``len``."""
    df = result_frame(env_int("ROWS", 1_000_000), env_int("GROUPS", 1000))
    got = capture(label_four())
    c: dict[str, list[pl.Expr]] = {}
    for name, i in (("acc", 0), ("prec", 2), ("rec", 4), ("f1", 6)):
        shared, expr, out = got[i]
        text = str(expr)
        aggs = [a.alias(f"a{j}") for j, a in enumerate(shared._aggregates) if f"__fe_{j}__" in text]
        c[name + " plan"] = [out]
        c[name + " flat"] = aggs
        c[name + " struct"] = [pl.struct(aggs)]
    c["len"] = [pl.len()]
    return {k: grouped(df, e) for k, e in c.items()}


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases interleaved; ``argv``: the number of rounds (default 11)."""
    return run(cases(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
