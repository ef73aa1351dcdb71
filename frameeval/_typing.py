"""Shared type aliases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeVar

import polars as pl

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)
"""A Polars frame; functions return the same kind they were given."""

IntoFrame = Any
"""``pl.DataFrame``, ``pl.LazyFrame``, a pandas ``DataFrame`` or a pyarrow ``Table``."""

ColumnName = str
Keys = str | Sequence[str] | None
"""``by=``: one column name, several, or ``None`` for the whole frame."""

Label = int | str | bool
Average = Literal["binary", "macro", "micro", "weighted"]
