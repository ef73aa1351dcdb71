"""Shared type aliases, and the typed face of a frame function.

A public frame function takes ``data`` first and returns the kind it was given: a
``pl.LazyFrame`` comes back lazy, anything else (``pl.DataFrame``, a pandas ``DataFrame``, a
pyarrow ``Table``) comes back as a ``pl.DataFrame``. :func:`frame_function` states that in the
function's type, so a type checker sees ``confusion_matrix(lf, ...)`` as a ``pl.LazyFrame`` and
``confusion_matrix(df, ...)`` as a ``pl.DataFrame``; at run time it returns the function itself,
so ``inspect.signature`` and ``help()`` show the real parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar, cast, overload

import polars as pl

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)
"""A Polars frame; functions return the same kind they were given."""

IntoFrame = Any
"""``pl.DataFrame``, ``pl.LazyFrame``, a pandas ``DataFrame`` or a pyarrow ``Table``."""

Frame = pl.DataFrame | pl.LazyFrame
"""What a frame function returns before its input's kind is known (see :func:`frame_function`)."""

Keys = str | Sequence[str] | None
"""``by=``: one column name, several, or ``None`` for the whole frame."""


P = ParamSpec("P")


class FrameFunction(Protocol[P]):
    """A frame function's type: ``LazyFrame`` in → ``LazyFrame`` out, anything else → ``DataFrame``.

    ``P`` is the function's parameters after ``data``; ``data`` may be given by position or by
    name. A typed pandas ``DataFrame`` (with pandas-stubs) matches the second overload: a
    ``pl.DataFrame``; an input a type checker only knows as ``Any`` (pandas or pyarrow without
    stubs) gives ``Any``.
    """

    @overload
    def __call__(self, data: pl.LazyFrame, *args: P.args, **kwargs: P.kwargs) -> pl.LazyFrame: ...

    @overload
    def __call__(
        self, data: pl.DataFrame | IntoFrame, *args: P.args, **kwargs: P.kwargs
    ) -> pl.DataFrame: ...


def frame_function(fn: Callable[Concatenate[Any, P], Frame]) -> FrameFunction[P]:
    """Type ``fn`` (``data`` first, returning :data:`Frame`) as a :class:`FrameFunction`.

    Only the static type changes: ``fn`` itself is returned, so its signature, docstring and
    identity are untouched.
    """
    return cast(FrameFunction[P], fn)
