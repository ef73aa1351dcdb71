"""The frameeval error hierarchy.

Every error frameeval raises on bad input is a :class:`FrameEvalError`. Each subclass also
inherits the matching builtin, so ``except KeyError`` or ``except ValueError`` keep working.

Messages follow one shape, which is public API (tests pin it)::

    <function>(): <what> <rule>, got <actual>[ in group <key>=<value>, ...].
    Hint: <optional advice>
"""

from __future__ import annotations

import re

__all__ = [
    "ColumnNotFoundError",
    "DuplicateKeyError",
    "EmptyFrameError",
    "FileFormatError",
    "FrameEvalError",
    "InsufficientDataError",
    "InvalidDtypeError",
    "InvalidParameterError",
    "InvalidValueError",
    "MissingValueError",
    "NegativeValueError",
    "UnknownLabelError",
]


#: what Polars appends to an exception raised inside a plan (it re-creates the exception with
#: its own context after the message); frameeval's text ends before it
_POLARS_CONTEXT = re.compile(r"\n\n(?:This error occurred|Resolved plan|Error originated)")


class FrameEvalError(Exception):
    """Base class of every error raised by frameeval on bad input.

    Raised inside a lazy plan (a failed check in a user's own ``group_by().agg()``), Polars
    re-creates the exception with its plan context after the message; that context is cut, so
    the message is frameeval's alone, whichever face raised it.
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (_POLARS_CONTEXT.split(args[0], 1)[0], *args[1:])
        super().__init__(*args)

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return str(self.args[0]) if self.args else ""


class ColumnNotFoundError(FrameEvalError, KeyError):
    """A column named by a role (``truth=``, ``score=``, ``by=``…) is not in the frame."""


class InvalidDtypeError(FrameEvalError, TypeError):
    """A column has a dtype its role does not allow (e.g. a string ``score``)."""


class InvalidParameterError(FrameEvalError, ValueError):
    """An argument is outside its domain (``beta <= 0``, ``k > m``, ``alpha`` not in (0, 1)…)."""


class InvalidValueError(FrameEvalError, ValueError):
    """The data holds a value its role does not allow."""


class MissingValueError(InvalidValueError):
    """A null, NaN or infinite value in a column that must be complete and finite."""


class NegativeValueError(InvalidValueError):
    """A negative weight or cost."""


class UnknownLabelError(InvalidValueError):
    """A label outside the declared classes, or a ``pos_label`` absent from the data."""


class DuplicateKeyError(InvalidValueError):
    """Rows that must be unique per key (pairing on ``instance``, one value per block) are not."""


class EmptyFrameError(InvalidValueError):
    """The frame (or a group that must not be empty) has no rows."""


class InsufficientDataError(InvalidValueError):
    """Too few rows, blocks or learners for the requested computation (e.g. Friedman with N < 2)."""


class FileFormatError(InvalidValueError):
    """A file given to a reader (``fe.io``) does not follow its format; the message names the
    file and the line."""
