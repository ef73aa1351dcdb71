"""The split-frame layout and the seeded hash, shared by :mod:`frameeval.split` (which makes
split frames) and :mod:`frameeval.evaluate` (which runs models over them).

Both modules import this one and not each other (``frameeval.split`` re-exports the names of
``frameeval.evaluate`` on first use), so the import graph is one-way.
"""

from __future__ import annotations

from typing import TypeVar

import polars as pl

from frameeval.exceptions import ColumnNotFoundError, InvalidDtypeError

__all__ = [
    "MASK",
    "ROLE",
    "ROLES",
    "SPLIT_COLUMNS",
    "key_expr",
    "mix_column",
    "split_kind",
    "split_rows",
    "splitmix64",
    "splitmix_column",
    "stream_salt",
    "u64",
]

SPLIT_COLUMNS = ("repeat", "fold", "role", "count")
"""The assignment columns a split frame may carry (besides ``repeat``, exactly one of the rest)."""

ROLES = ("train", "validation", "test")
ROLE = pl.Enum(list(ROLES))
"""dtype of the ``role`` column: an Enum ordered train < validation < test (compares with strings;
four bytes less per row than a string column on 100-million-row split frames)."""

MASK = (1 << 64) - 1
"""The largest 64-bit unsigned value (seeds are in 0…MASK)."""
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


# ---------------------------------------------------------------------------------------------
# the seeded hash
# ---------------------------------------------------------------------------------------------
def _mix(x: int) -> int:
    """SplitMix64 finaliser on a Python int (Steele, Lea & Flood 2014)."""
    x &= MASK
    x ^= x >> 30
    x = (x * _M1) & MASK
    x ^= x >> 27
    x = (x * _M2) & MASK
    return x ^ (x >> 31)


def splitmix64(x: int) -> int:
    """One SplitMix64 step of a Python int: the finaliser of ``x`` + the golden gamma."""
    return _mix((x + GOLDEN) & MASK)


def stream_salt(seed: int, salt: int, *parts: int) -> int:
    """A 64-bit salt for one stream (``seed`` × purpose × repeat × …), computed in Python."""
    state = _mix(seed ^ salt)
    for part in parts:
        state = _mix((state + (part + 1) * GOLDEN) & MASK)
    return state


def mix_column(lf: pl.LazyFrame, column: str) -> pl.LazyFrame:
    """Apply the SplitMix64 finaliser to a UInt64 column, in place (wrapping integer arithmetic;
    ``x // 2**s`` is the logical right shift)."""
    c = pl.col(column)
    return (
        lf.with_columns(c ^ (c // (1 << 30)))
        .with_columns(c * _M1)
        .with_columns(c ^ (c // (1 << 27)))
        .with_columns(c * _M2)
        .with_columns(c ^ (c // (1 << 31)))
    )


def u64(value: int) -> pl.Expr:
    """``value`` (wrapped to 64 bits) as a UInt64 literal."""
    return pl.lit(value & MASK, dtype=pl.UInt64)


def splitmix_column(lf: pl.LazyFrame, source: str, target: str) -> pl.LazyFrame:
    """``target`` = one SplitMix64 step of the UInt64 column ``source`` (``source`` + the golden
    gamma, then the finaliser; wrapping arithmetic), one stage per step so that no
    sub-expression is evaluated twice."""
    z = pl.col(target)
    lf = lf.with_columns((pl.col(source) + u64(GOLDEN)).alias(target))
    lf = lf.with_columns((z.xor(z // u64(1 << 30)) * u64(_M1)).alias(target))
    lf = lf.with_columns((z.xor(z // u64(1 << 27)) * u64(_M2)).alias(target))
    return lf.with_columns(z.xor(z // u64(1 << 31)).alias(target))


def key_expr(column: str, dtype: pl.DataType, func: str, role: str) -> pl.Expr:
    """The column as a UInt64 key: integers, booleans and temporals by their bits (injective),
    other scalar types by their dense rank in sorted order (strings compare by bytes)."""
    col = pl.col(column)
    if dtype == pl.UInt64:
        return col
    if dtype.is_integer():
        return col.cast(pl.Int64).reinterpret(signed=False)
    if dtype == pl.Boolean:
        return col.cast(pl.UInt64)
    if dtype.is_temporal():
        return col.to_physical().cast(pl.Int64).reinterpret(signed=False)
    if dtype.is_nested() or dtype in (pl.Null, pl.Object):
        raise InvalidDtypeError(
            f"{func}(): column {column!r} ({role}=) must hold scalar values (integer, string, "
            f"date, …), got {dtype}."
        )
    if isinstance(dtype, pl.Categorical | pl.Enum):
        col = col.cast(pl.String)
    return col.rank("dense").cast(pl.UInt64)


def split_kind(schema: pl.Schema, func: str) -> str:
    """Which assignment column a split frame carries: ``"fold"``, ``"role"`` or ``"count"``."""
    kinds = [c for c in ("fold", "role", "count") if c in schema]
    if "repeat" not in schema or len(kinds) != 1:
        raise ColumnNotFoundError(
            f"{func}(): splits must have a 'repeat' column and exactly one of 'fold', 'role', "
            f"'count', got columns {list(schema.names())}.\nHint: make it with "
            "frameeval.split.kfold / holdout / bootstrap / …"
        )
    return kinds[0]


F = TypeVar("F", pl.DataFrame, pl.LazyFrame)


def split_rows(rows: F, kind: str, fold: int, held: pl.Expr | None = None) -> tuple[F, F]:
    """The training and the held-out rows of one split (``rows``: the rows of its repeat). A
    ``"fold"`` split: ``fold != fold`` / ``fold == fold``; ``"role"``: ``role == "train"`` /
    ``held`` (default: every other role); ``"count"`` (bootstrap): each row ``count`` times /
    ``count == 0`` (out of bag)."""
    if kind == "fold":
        return rows.filter(pl.col("fold") != fold), rows.filter(pl.col("fold") == fold)
    if kind == "role":
        other = pl.col("role") != "train" if held is None else held
        return rows.filter(pl.col("role") == "train"), rows.filter(other)
    copies = pl.int_ranges(pl.col("count")).alias("__fe_copy")
    sample = rows.filter(pl.col("count") > 0).with_columns(copies).explode("__fe_copy")
    return sample.drop("__fe_copy"), rows.filter(pl.col("count") == 0)
