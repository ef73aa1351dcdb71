"""One way in: an entry point declares its input columns once, one compiler checks them.

A declaration names, per input column, the keyword that passes it (its *role*: ``truth=``,
``score=``, ``weight=``, ``by=``…), the *kind* of dtype it must have and the *rules* its rows
must keep::

    SCORES = Inputs(
        Column("truth", "label", "label"),
        Column("score", "numeric_or_decimal", "finite", "unit"),
        Column("by"),
        WEIGHT_INPUT,
    )

:meth:`Inputs.compile` turns it into every check of the entry point, in the declared order:

1. the columns exist (:func:`~frameeval._validate.require_columns`, each role once, a role
   holding one column or several);
2. the role columns differ (``distinct=``) and ``by=`` does not use an output column name
   (``outputs=``, ``clash=``);
3. the dtype classes (:func:`~frameeval._validate.check_labels` for the label columns together —
   one dtype family —, :func:`~frameeval._validate.check_numeric` /
   :func:`~frameeval._validate.check_numeric_or_decimal`);
4. the row rules, as one :class:`~frameeval._validate.Checks`: the same object gives the frame
   face (:meth:`~Checks.aggs` + :meth:`~Checks.enforce`), the expression face
   (:meth:`~Checks.guard`) and the Dask merge (:meth:`~Checks.merge`).

:meth:`Inputs.open` is the door of a frame function: ``data`` opened lazily, the ``by=`` keys,
the compiled checks, an eager empty frame refused, and — with ``positive_of=`` (the truth
column) — the positive class (``pos_label=`` or the dtype's default), required to occur.

>>> df = pl.DataFrame({"y": [0, 1, 1], "s": [0.2, 0.9, float("nan")]})
>>> door = Inputs(Column("truth", "label", "label"), Column("score", "numeric", "finite")).open(
...     df, "auc", truth="y", score="s"
... )
>>> stats = door.lf.select(*door.checks.aggs())
>>> door.checks.enforce(stats, []).collect()
Traceback (most recent call last):
...
frameeval.exceptions.MissingValueError: auc(): column 's' (score=) must not contain NaN, got NaN (1 rows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import polars as pl

from frameeval._frame import as_keys, to_lazy
from frameeval._validate import (
    Checks,
    attach_guard,
    check_labels,
    check_not_empty_eager,
    check_numeric,
    check_numeric_or_decimal,
    check_parameter,
    label_expr,
    planned,
    require_columns,
    resolve_pos_label,
)

__all__ = [
    "WEIGHT_INPUT",
    "Column",
    "Door",
    "Inputs",
    "check_clash",
    "check_distinct",
    "check_names",
    "guarded_numbers",
    "require_positive",
]

#: the dtype class a column must have: labels (one family with the other label columns),
#: integer / float, integer / float / Decimal (read as Float64), or any dtype (keys)
Kind = Literal["label", "numeric", "numeric_or_decimal", "any"]
#: the row rules: a label (complete; integral when stored as float); complete and finite
#: (NaN / ±inf of a float in two counts, or in one); finite where not null (a null is a missing
#: cell), in two counts or one; complete; in [0, 1]; >= 0; a weight (complete, finite, >= 0);
#: integer labels that fit Int64
Rule = Literal[
    "label",
    "finite",
    "finite_one_count",
    "finite_or_null",
    "finite_or_null_one_count",
    "not_null",
    "unit",
    "non_negative",
    "weight",
    "int64",
]


@dataclass(frozen=True, init=False)
class Column:
    """One input column: the ``role`` (the keyword naming it), its dtype ``kind`` and its row
    ``rules`` (applied in this order). ``several``: the role may name several columns (a list,
    as ``by=`` always may); otherwise a list or tuple is refused with a typed error.
    ``required``: None is refused too (else it means "not passed")."""

    role: str
    kind: Kind
    rules: tuple[Rule, ...]
    hint: str | None  # the "Hint:" line of a NaN error
    several: bool
    required: bool

    def __init__(
        self,
        role: str,
        kind: Kind = "any",
        *rules: Rule,
        hint: str | None = None,
        several: bool = False,
        required: bool = False,
    ) -> None:
        object.__setattr__(self, "role", role)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "hint", hint)
        object.__setattr__(self, "several", several or role == "by")
        object.__setattr__(self, "required", required)


#: the ``weight=`` column of a frame function: numeric, complete, finite and >= 0
WEIGHT_INPUT = Column("weight", "numeric", "weight")


def _names(columns: str | Sequence[str] | None) -> list[str]:
    if columns is None:
        return []
    return [columns] if isinstance(columns, str) else list(columns)


#: each rule as the :class:`Checks` method it compiles to: (checks, column, role, dtype, hint)
_RULES: dict[str, Callable[[Checks, str, str, pl.DataType, str | None], None]] = {
    "label": lambda c, col, role, dtype, hint: c.label(col, role, dtype),
    "finite": lambda c, col, role, dtype, hint: c.finite(col, role, dtype, nan_hint=hint),
    "finite_one_count": lambda c, col, role, dtype, hint: c.finite(
        col, role, dtype, one_count=True
    ),
    "finite_or_null": lambda c, col, role, dtype, hint: c.finite(
        col, role, dtype, nulls=True, nan_hint=hint
    ),
    "finite_or_null_one_count": lambda c, col, role, dtype, hint: c.finite(
        col, role, dtype, nulls=True, one_count=True
    ),
    "not_null": lambda c, col, role, dtype, hint: c.not_null(col, role),
    "unit": lambda c, col, role, dtype, hint: c.within_unit(col, role),
    "non_negative": lambda c, col, role, dtype, hint: c.non_negative(col, role),
    "weight": lambda c, col, role, dtype, hint: c.weight(col, dtype),
    "int64": lambda c, col, role, dtype, hint: c.fits_int64(col, role, dtype),
}


@dataclass
class Door:
    """An opened input: the lazy frame, whether the input was eager, the ``by=`` keys, the
    schema, the compiled row checks and (with ``positive_of=``) the positive class and the
    per-row expression "this row is positive"."""

    lf: pl.LazyFrame
    eager: bool
    keys: list[str]
    schema: pl.Schema
    checks: Checks
    positive: Any = None
    is_positive: pl.Expr | None = None


class Inputs:
    """The input columns of an entry point, declared once (see the module's text)."""

    def __init__(self, *columns: Column, distinct: bool | tuple[str, ...] = False) -> None:
        self.columns = columns
        # the role columns differ from each other and from by= (True: every single-column role,
        # in declared order; a tuple: those roles, in the order a clash is reported)
        self.distinct = distinct

    def __add__(self, other: Inputs) -> Inputs:
        """Both declarations' columns, in order (``distinct`` as a tuple: both tuples)."""
        if isinstance(self.distinct, tuple) or isinstance(other.distinct, tuple):
            return Inputs(*self.columns, *other.columns, distinct=self._order() + other._order())
        return Inputs(*self.columns, *other.columns, distinct=self.distinct or other.distinct)

    def _order(self) -> tuple[str, ...]:
        """The roles that must differ, in the order a clash is reported."""
        if isinstance(self.distinct, tuple):
            return self.distinct
        return tuple(c.role for c in self.columns) if self.distinct else ()

    def compile(
        self,
        schema: pl.Schema,
        func: str,
        *,
        outputs: Any = None,  # Any: a **names mapping may be passed beside them
        clash: Any = None,
        checks: Any = None,
        **names: Any,
    ) -> Checks:
        """Check the schema of the columns ``names`` gives the roles (None: not passed) and
        return their row rules (added to ``checks``, if given: the caller's own rules). A schema
        rule raises at once (a typed ``FrameEvalError``). ``outputs``: output column names
        ``by=`` must not use (one message a name); ``clash``: the same, reported together."""
        roles = {c.role: names.get(c.role) for c in self.columns}
        for c in self.columns:
            check_names(func, c.role, roles[c.role], c.several, c.required)
        require_columns(schema, func, **roles, **({} if "by" in roles else {"by": names.get("by")}))
        given = [(c, _names(names.get(c.role))) for c in self.columns]
        keys = _names(names.get("by"))
        if self.distinct:
            single = {
                r: roles[r]
                for r in self._order()
                if r != "by" and not isinstance(roles[r], list | tuple)
            }
            check_distinct(func, keys, **single)
        for name in outputs or ():
            check_parameter(
                name not in keys, func, f"by= must not use the output column name {name!r}."
            )
        if clash is not None:
            check_clash(func, keys, clash)
        labels = {c.role: cols[0] for c, cols in given if c.kind == "label" and cols}
        checked = False
        for column, cols in given:
            if column.kind == "label" and not checked:
                check_labels(schema, func, **labels)
                checked = True
            elif column.kind in ("numeric", "numeric_or_decimal"):
                check = check_numeric if column.kind == "numeric" else check_numeric_or_decimal
                for col in cols:
                    check(schema, func, **{column.role: col})
        checks = Checks(func) if checks is None else cast(Checks, checks)
        for column, cols in given:
            for col in cols:
                for rule in column.rules:
                    _RULES[rule](checks, col, column.role, schema[col], column.hint)
        return checks

    def open(
        self,
        data: Any,
        func: str,
        *,
        by: Any = None,
        outputs: Sequence[str] | None = None,
        pos_label: Any = None,
        positive_of: str | None = None,
        **names: Any,
    ) -> Door:
        """The door of a frame function: ``data`` opened lazily, the schema checked
        (:meth:`compile`), an eager empty frame refused; with ``positive_of`` (the truth
        column) the positive class resolved from ``pos_label`` and required to occur."""
        lf, eager = to_lazy(data, func)
        keys = as_keys(by)
        schema = lf.collect_schema()
        checks = self.compile(schema, func, outputs=outputs, by=keys, **names)
        check_not_empty_eager(data, eager, lf, func)
        door = Door(lf, eager, keys, schema, checks)
        if positive_of is not None:
            door.positive = require_positive(checks, schema, func, positive_of, pos_label)
            door.is_positive = label_expr(positive_of, schema) == door.positive
        return door


def check_clash(func: str, keys: Sequence[str], outputs: Iterable[str]) -> None:
    """The ``by=`` keys must not use an output column name (one message listing them all)."""
    clash = sorted(set(keys) & set(outputs))
    check_parameter(not clash, func, f"by= must not use output column names, got {clash}.")


def check_names(
    func: str, role: str, value: Any, several: bool = False, required: bool = False
) -> None:
    """``value`` names a column — a string — or, when the role takes ``several``, a list or
    tuple of strings (None: the role is not passed, unless it is ``required``). Anything else
    is refused before a column is looked up: a number, a list for a one-column role."""
    if value is None and not required:
        return
    many = isinstance(value, list | tuple)
    check_parameter(several or not many, func, f"{role}= must name one column, got {value!r}.")
    for name in value if many else [value]:
        check_parameter(
            isinstance(name, str), func, f"{role}= must name a column (a string), got {name!r}."
        )


def check_distinct(func: str, keys: Sequence[str], **roles: str | None) -> None:
    """Role columns must differ from each other and from the ``by=`` keys."""
    named = {role: column for role, column in roles.items() if column is not None}
    seen: dict[str, str] = {}
    for role, column in named.items():
        check_parameter(
            column not in seen,
            func,
            f"{seen.get(column)}= and {role}= must name different columns, got {column!r} "
            "for both.",
        )
        seen[column] = role
        check_parameter(
            column not in keys, func, f"by= must not contain the {role}= column, got by={keys}."
        )


def require_positive(
    checks: Checks, schema: pl.Schema, func: str, truth: str, pos_label: Any
) -> Any:
    """The positive class of ``truth`` (``pos_label`` or the dtype's default), with an in-plan
    check that it occurs in the frame (a ranking measure needs a positive somewhere)."""
    positive_label = resolve_pos_label(schema, func, truth, pos_label)
    checks.present(
        label_expr(truth, schema) == positive_label,
        f"pos_label {positive_label!r} must occur in column {truth!r}, got no such row",
    )
    return positive_label


def guarded_numbers(
    func: str,
    value: pl.Expr,
    numbers: Sequence[tuple[str, str]],
    weight: str | None = None,
    failures: Sequence[pl.Expr] = (),
) -> pl.Expr:
    """``value`` (an aggregate over numeric columns) with the frame functions' input rules,
    for an expression builder: decided when Polars plans the query (``pl.pipe_with_dtype``).

    ``numbers`` are ``(column, role)`` pairs: each must be numeric (a Decimal is allowed, so
    ``value`` must read it as Float64), complete and finite (NaN / ±inf checked for float
    columns only); ``weight`` also non-negative. ``failures`` (see :func:`failure`) are further
    per-context rules. A schema rule raises at plan time, a data rule when the rows are read;
    both as the typed error.
    """
    columns = [c for c, _ in numbers] + ([weight] if weight else [])
    inputs = Inputs(
        *(Column(role, "numeric_or_decimal", "finite") for _, role in numbers),
        Column("weight", "numeric_or_decimal", "weight"),
    )
    names = {role: column for column, role in numbers}

    def plan(given: list[tuple[pl.Expr, pl.DataType]]) -> pl.Expr:
        schema = pl.Schema({c: dtype for c, (_, dtype) in zip(columns, given, strict=True)})
        guard = inputs.compile(schema, func, weight=weight, **names).guard(*failures)
        return value if guard is None else attach_guard(value, guard)

    return planned(columns, plan)
