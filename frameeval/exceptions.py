"""The frameeval error hierarchy.

Every error frameeval raises on bad input is a :class:`FrameEvalError`. Each subclass also
inherits the matching builtin, so ``except KeyError`` or ``except ValueError`` keep working.

Messages follow one shape, which is public API (tests pin it)::

    <function>(): <what> <rule>, got <actual>[ in group <key>=<value>, ...].
    Hint: <optional advice>
"""

from __future__ import annotations

__all__ = [
    "ColumnNotFoundError",
    "DuplicateKeyError",
    "EmptyFrameError",
    "FrameEvalError",
    "InsufficientDataError",
    "InvalidDtypeError",
    "InvalidParameterError",
    "InvalidValueError",
    "MissingValueError",
    "NegativeValueError",
    "UnknownLabelError",
]


class FrameEvalError(Exception):
    """Base class of every error raised by frameeval on bad input."""

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
