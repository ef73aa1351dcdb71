"""Pairs of learners side by side on the blocks of a complete block × learner table: the shared
reshape of the Bayesian tests, the multiple comparison matrix and the effect sizes.

:func:`pair_table` validates the long frame with :func:`frameeval.compare.cells.cells` (finite
metric values, no null block or learner, one value per block × learner, a complete table), checks
the design (two learners, two blocks, the named learners present) in-plan, and self-joins the
table on the block: one row per group × pair of learners × block.
"""

from __future__ import annotations

from typing import Any, Literal

import polars as pl

from frameeval._validate import check_parameter, enforce, failure, group_text
from frameeval.compare.cells import PAIR_MISSING_HINT, Long, cells
from frameeval.compare.door import check_learners, is_learner
from frameeval.compare.plan import agg_by_keys, at_least, block_pairs, tie_to_checks
from frameeval.exceptions import InsufficientDataError

Pairs = Literal["unordered", "ordered"]


def check_pair(schema: pl.Schema, func: str, learner: str, a: Any, b: Any) -> None:
    """``a=`` and ``b=`` name one pair (both given, different, of the learner dtype) or neither."""
    check_parameter(
        (a is None) == (b is None),
        func,
        f"a= and b= must be given together (one pair) or not at all (every pair), got "
        f"a={a!r} and b={b!r}.",
    )
    if a is None:
        return
    check_learners(schema, func, learner, a, b)


def pair_table(
    long: Long,
    a: Any = None,
    b: Any = None,
    *,
    pairs: Pairs = "unordered",
    min_blocks: int = 2,
    block_text: str | None = None,
    hint: str | None = PAIR_MISSING_HINT,
) -> pl.LazyFrame:
    """``*keys, a, b, <block>, __va, __vb``: the metric of learners ``a`` and ``b`` on each block.

    With ``a``/``b`` given: that pair only (rows of other learners are ignored). Otherwise every
    pair of the group's learners — each once with a < b in sort order (``"unordered"``) or both
    ways (``"ordered"``). Raises in-plan (``InsufficientDataError``) when a group has fewer
    than 2 learners or ``min_blocks`` blocks, or lacks ``a`` or ``b``.
    """
    lf, schema, func, keys, block, learner, _ = long
    check_pair(schema, func, learner, a, b)
    if a is not None:
        lf = lf.filter(is_learner(learner, schema, a) | is_learner(learner, schema, b))
    # used three times below: computed once (an in-plan cache node, nothing is collected)
    cell = cells(long._replace(lf=lf), hint=hint).cache()
    has = failure(
        ~(pl.col("__has_a") & pl.col("__has_b")),
        InsufficientDataError,
        f"{func}(): learners a={a!r} and b={b!r} must both have values, got none of {{}}{{}}.",
        pl.when(pl.col("__has_a")).then(pl.lit(f"b={b!r}")).otherwise(pl.lit(f"a={a!r}")),
        group_text(keys),
    )
    what = f"values of {block_text or repr(block)} per learner"
    blocks = at_least("__blocks", min_blocks, func, what, keys)
    cell = present(cell, func, keys, block, learner, a, b, has, blocks)
    table = block_pairs(cell, keys, block, {learner: ("a", "b"), "__value": ("__va", "__vb")})
    if a is not None:
        return table.filter((pl.col("a") == pl.lit(a)) & (pl.col("b") == pl.lit(b)))
    if pairs == "ordered":
        return table.filter(pl.col("a") != pl.col("b"))
    return table.filter(pl.col("a") < pl.col("b"))


def present(
    cell: pl.LazyFrame,
    func: str,
    keys: list[str],
    block: str,
    learner: str,
    a: Any,
    b: Any,
    has: pl.Expr,
    blocks: pl.Expr,
) -> pl.LazyFrame:
    """``cell`` of the groups that have the named learners (the failure ``has`` on
    ``__has_a``, ``__has_b``), at least 2 learners and enough blocks (``blocks`` on
    ``__blocks``), checked in-plan in that order."""
    presence = [
        pl.col(learner).n_unique().cast(pl.Int64).alias("__learners"),
        pl.col(block).n_unique().cast(pl.Int64).alias("__blocks"),
        (pl.col(learner) == pl.lit(a)).any().alias("__has_a")
        if a is not None
        else pl.lit(True).alias("__has_a"),
        (pl.col(learner) == pl.lit(b)).any().alias("__has_b")
        if b is not None
        else pl.lit(True).alias("__has_b"),
    ]
    learners = at_least("__learners", 2, func, "learners", keys)
    counts = enforce(agg_by_keys(cell, keys, presence), has, learners, blocks)
    return tie_to_checks(cell, counts, keys)
