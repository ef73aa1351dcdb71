"""Scalar arguments, declared once: a rule per kind of argument, one message shape.

scikit-learn's ``@validate_params`` constraints are the model: a rule is a value
(``Number(low=0, high=1, closed="neither")``) and checking an argument is calling the rule with
the function's name, the argument's name and its value. The message is always
``<func>(): <name> must be <rule>, got <value!r>.``; a rule may carry its own wording of
``<rule>`` (``text=``) where an entry point has always worded it so.

A bool is never a number here (``True`` is an ``int`` to Python, not to a user), NaN and ±inf are
outside every finite rule, and integers stay integers (``2.0`` is not a number of resamples);
NumPy's scalars count as the numbers they are (``numbers.Integral`` / ``numbers.Real``).

>>> from frameeval._params import LEVEL, SEED, Number
>>> LEVEL("bootstrap_ci", "level", 0.95)
0.95
>>> SEED("split", "seed", 2**64)
Traceback (most recent call last):
...
frameeval.exceptions.InvalidParameterError: split(): seed must be an integer in [0, 2**64), got 18446744073709551616.
>>> Number(low=1, integer=True)("split", "repeats", 0)
Traceback (most recent call last):
...
frameeval.exceptions.InvalidParameterError: split(): repeats must be an integer >= 1, got 0.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from frameeval.exceptions import InvalidParameterError

Closed = Literal["both", "left", "right", "neither"]

__all__ = [
    "ABOVE_ZERO",
    "A_BOOL",
    "ALPHA",
    "CI",
    "COUNT",
    "FINITE",
    "FLAG",
    "FRACTION",
    "INSIDE_UNIT",
    "LEVEL",
    "N_JOBS",
    "NON_NEGATIVE",
    "NUMPY_SEED",
    "POSITIVE",
    "RESAMPLES",
    "SEED",
    "UP_TO_ONE",
    "Flag",
    "Items",
    "Number",
    "Values",
]


def _bound(value: float) -> str:
    if value == 2**64:
        return "2**64"
    return f"{value:g}" if isinstance(value, float) else str(value)


class _Rule:
    """A rule: :meth:`holds` says whether a value satisfies it, :meth:`describe` words it;
    calling it returns the value or raises ``<func>(): <name> must be <rule>, got <value!r>.``"""

    text: str | None

    def holds(self, value: Any) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        return str(self.text)

    def __call__(self, func: str, name: str, value: Any) -> Any:
        if not self.holds(value):
            raise InvalidParameterError(
                f"{func}(): {name} must be {self.describe()}, got {value!r}."
            )
        return value


@dataclass(frozen=True)
class Number(_Rule):
    """A number (or, with ``integer=True``, an integer) within bounds.

    ``low`` / ``high``: the bounds (None: unbounded); ``closed``: which bounds belong to the
    range; ``none``: None is accepted (and returned); ``also``: values accepted outside the
    bounds (``n_jobs=-1``); ``text``: the rule's wording in the message, instead of the generated
    one ("an integer >= 2", "a number in (0, 1)"); ``finite=False``: NaN and ±inf pass (a later
    rule words them); ``types``: the accepted types instead of ``numbers.Real`` /
    ``numbers.Integral`` (a bool never passes)."""

    low: float | None = None
    high: float | None = None
    closed: Closed = "both"
    integer: bool = False
    none: bool = False
    also: tuple[float, ...] = ()
    text: str | None = None
    finite: bool = True
    types: tuple[type, ...] | None = None

    def describe(self) -> str:
        """The rule in words, as the message shows it."""
        if self.text is not None:
            return self.text
        kind = "an integer" if self.integer else "a finite number"
        left = self.closed in ("both", "left")
        right = self.closed in ("both", "right")
        if self.low is not None and self.high is not None:
            text = (
                f"{kind} in {'[' if left else '('}{_bound(self.low)}, "
                f"{_bound(self.high)}{']' if right else ')'}"
            )
        elif self.low is not None:
            text = f"{kind} {'>=' if left else '>'} {_bound(self.low)}"
        elif self.high is not None:
            text = f"{kind} {'<=' if right else '<'} {_bound(self.high)}"
        else:
            text = kind
        return f"{text} or None" if self.none else text

    def holds(self, value: Any) -> bool:
        """Whether ``value`` satisfies the rule."""
        if value is None:
            return self.none
        if isinstance(value, bool):
            return False
        kinds = self.types or ((numbers.Integral,) if self.integer else (numbers.Real,))
        if not any(isinstance(value, kind) for kind in kinds):
            return False
        if not self.integer and self.finite and not math.isfinite(value):
            return False
        if value in self.also:
            return True
        if self.low is not None:
            below = value < self.low if self.closed in ("both", "left") else value <= self.low
            if below:
                return False
        if self.high is not None:
            above = value > self.high if self.closed in ("both", "right") else value >= self.high
            if above:
                return False
        return True

    def __call__(self, func: str, name: str, value: Any) -> Any:
        """``value`` (an int stays an int, a number becomes a float) or the typed error."""
        if super().__call__(func, name, value) is None:
            return None
        return int(value) if self.integer else float(value)


@dataclass(frozen=True)
class Flag(_Rule):
    """True or False (with ``none=True``, None too) — never 0, 1 or a NumPy bool; ``text``: the
    rule's wording in the message ("True or False", "a bool")."""

    none: bool = False
    text: str = "True or False"

    def holds(self, value: Any) -> bool:
        """Whether ``value`` satisfies the rule."""
        return isinstance(value, bool) or (value is None and self.none)


@dataclass(frozen=True)
class Items(_Rule):
    """A sequence (not a string) of ``length`` items, each satisfying ``item``; ``text``: the
    rule's wording in the message, which names the whole sequence ("three fractions")."""

    item: Number
    length: int
    text: str

    def holds(self, value: Any) -> bool:
        """Whether ``value`` satisfies the rule."""
        return (
            isinstance(value, Sequence)
            and not isinstance(value, str)
            and len(value) == self.length
            and all(self.item.holds(v) for v in value)
        )


@dataclass(frozen=True)
class Values:
    """``item`` applied to each value of a mapping keyed by pairs, which the message names
    (``keys``: the names of a pair's two parts, ``what``: a value's name, ``text``: the rule's
    wording): ``<func>(): <name> keys must be (<a>, <b>) pairs, got <key!r>.`` for a key that is
    not a pair, ``<func>(): <name> must be <text>, got <what> <value!r> for <a>=…, <b>=….`` for a
    value ``item`` refuses — the first offending item, in the mapping's order."""

    item: Number
    keys: tuple[str, str]
    what: str
    text: str

    def __call__(self, func: str, name: str, value: Mapping[Any, Any]) -> Mapping[Any, Any]:
        """``value`` or the typed error."""
        for key, item in value.items():
            if not (isinstance(key, tuple) and len(key) == len(self.keys)):
                raise InvalidParameterError(
                    f"{func}(): {name} keys must be ({', '.join(self.keys)}) pairs, got {key!r}."
                )
            if not self.item.holds(item):
                cell = ", ".join(f"{k}={part!r}" for k, part in zip(self.keys, key, strict=True))
                raise InvalidParameterError(
                    f"{func}(): {name} must be {self.text}, got {self.what} {item!r} for {cell}."
                )
        return value


#: a significance level
ALPHA = Number(low=0.0, high=1.0, closed="neither", text="in (0, 1)")
#: a confidence level
LEVEL = Number(low=0.0, high=1.0, closed="neither", text="a confidence level in (0, 1)")
#: a seed of frameeval's counter-based generators (64-bit words)
SEED = Number(low=0, high=2**64, closed="left", integer=True)
#: a number of bootstrap resamples
RESAMPLES = Number(low=2, integer=True)
#: the ``ci=`` level of a bootstrap interval (None is the caller's business)
CI = Number(low=0.0, high=1.0, closed="neither", text="a confidence level in (0, 1) or None")
#: a seed of NumPy's generators: any integer
NUMPY_SEED = Number(integer=True)
#: a count: an integer >= 1
COUNT = Number(low=1, integer=True)
#: a share strictly between 0 and 1 (a power, a gap)
INSIDE_UNIT = Number(low=0.0, high=1.0, closed="neither", text="in (0, 1)")
#: the same, worded "a number in (0, 1)" (a fraction of the rows, a significance level)
FRACTION = Number(low=0.0, high=1.0, closed="neither", text="a number in (0, 1)")
#: a share in (0, 1]
UP_TO_ONE = Number(low=0.0, high=1.0, closed="right", text="in (0, 1]")
#: a finite number > 0 (F-beta's beta)
POSITIVE = Number(low=0.0, closed="neither")
#: a finite number >= 0 (a cost)
NON_NEGATIVE = Number(low=0.0)
#: a finite number > 0, worded "> 0" (a chart's degrees of freedom, a critical difference)
ABOVE_ZERO = Number(low=0.0, closed="neither", text="> 0")
#: any finite number (not a bool, not NaN or ±inf)
FINITE = Number()
#: the number of worker processes: an integer >= 1, -1 (every core) or None (every core)
N_JOBS = Number(low=1, integer=True, none=True, also=(-1,), text="an integer >= 1, -1 or None")
#: a switch: True or False
FLAG = Flag()
#: the same, worded "a bool"
A_BOOL = Flag(text="a bool")
