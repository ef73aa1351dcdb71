"""Performance measures: one :class:`Measure` declaration each, and their expression builders.

The registry (:data:`MEASURES`) maps each name (and alias) to its declaration — builder, kind,
sufficient statistics, formula, direction, range, undefined cases, equation — so docs, reports,
:func:`frameeval.measures` and the property tests iterate over one list: a measure registered
here (built-in or the user's own) joins all of them. The built-in builders (``accuracy``,
``mse``…) come from :mod:`frameeval.metrics.builtin`, generated from the declarations.
"""

from __future__ import annotations

from frameeval.metrics import builtin as _builtin
from frameeval.metrics.builtin import *  # noqa: F403
from frameeval.metrics.measure import (
    MEASURES,
    REQUIRED,
    Bound,
    Measure,
    Statistic,
    lookup,
    measure_table,
    register,
)
from frameeval.metrics.ranking import normalized_cost, p_cost

__all__ = [
    "MEASURES",
    "Bound",
    "Measure",
    "REQUIRED",
    "Statistic",
    "lookup",
    "measure_table",
    "normalized_cost",
    "p_cost",
    "register",
]
__all__ += _builtin.__all__
