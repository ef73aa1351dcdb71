"""Door checks of the comparison tests: what the schema alone can refuse (no data scan)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from frameeval._frame import as_keys, to_lazy
from frameeval._inputs import Column, Inputs, check_clash, check_names
from frameeval._inputs import check_distinct as check_distinct  # the declaration's rule
from frameeval._params import Flag
from frameeval._validate import check_not_empty_eager, check_parameter, dtype_family
from frameeval.exceptions import InvalidDtypeError, InvalidParameterError
from frameeval.metrics import MEASURES

#: the by= keys of a comparison test's door (the test's own columns are declared by its test)
_BY = Inputs(Column("by"))
#: the learner column a learner value (a=, b=, control=) is matched against
_LEARNER = Inputs(Column("learner"))


def check_outputs(
    func: str, keys: Sequence[str], outputs: Sequence[str], **roles: str | None
) -> None:
    """Key columns (``by=``) and kept role columns (``block=``, ``learner=``…) must not share a
    name with an output column."""
    check_clash(func, keys, outputs)
    for role, column in roles.items():
        check_parameter(
            column is None or column not in outputs,
            func,
            f"{role}= must not name an output column, got {column!r}.",
        )


def resolve_direction(func: str, metric: str, higher_is_better: bool | None) -> bool:
    """``higher_is_better``, or the direction of the registered measure named like ``metric``
    (a column name: checked first, as the declaration would)."""
    check_names(func, "metric", metric, required=True)
    if higher_is_better is not None:
        return bool(Flag(text="True, False or None")(func, "higher_is_better", higher_is_better))

    measure = MEASURES.get(metric)
    if measure is None:
        raise InvalidParameterError(
            f"{func}(): higher_is_better= is required for metric column {metric!r} (not the name "
            "of a registered measure), got None.\nHint: higher_is_better=True for accuracy, AUC "
            "or F1; False for an error rate, a cost or MSE."
        )
    return measure.higher_is_better


def check_learner_value(schema: pl.Schema, func: str, learner: str, value: Any, role: str) -> None:
    """A learner name passed as ``a=``, ``b=`` or ``control=`` must match the dtype of the
    learner column (which must exist)."""
    _LEARNER.compile(schema, func, learner=learner)
    if value is None:
        raise InvalidParameterError(f"{func}(): {role}= must name a learner, got None.")
    dtype = schema[learner]
    family = dtype_family(dtype)
    ok = {
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "numeric": isinstance(value, int | float | np.integer | np.floating)
        and not isinstance(value, bool),
    }[family]
    if not ok:
        raise InvalidDtypeError(
            f"{func}(): {role}= must match the dtype of column {learner!r} ({dtype}), "
            f"got {value!r} ({type(value).__name__})."
        )


def check_learners(schema: pl.Schema, func: str, learner: str, a: Any, b: Any) -> None:
    """``a=`` and ``b=`` name two different learners of the ``learner`` column's dtype (see
    :func:`check_learner_value`)."""
    check_learner_value(schema, func, learner, a, "a")
    check_learner_value(schema, func, learner, b, "b")
    check_parameter(a != b, func, f"a= and b= must be different learners, got {a!r} for both.")


def learner_expr(learner: str, schema: pl.Schema) -> pl.Expr:
    """The learner column as frameeval compares it (categoricals / enums as strings)."""
    if isinstance(schema[learner], pl.Categorical | pl.Enum):
        return pl.col(learner).cast(pl.String)
    return pl.col(learner)


def is_learner(learner: str, schema: pl.Schema, value: Any) -> pl.Expr:
    return learner_expr(learner, schema) == pl.lit(value)


def open_frame(data: Any, func: str, by: Any) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema]:
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    _BY.compile(schema, func, by=keys)
    check_not_empty_eager(data, eager, lf, func)
    return lf, eager, keys, schema
