"""The report's sections as objects: each declares when it applies and draws itself.

A :class:`Section` names the task it belongs to (``"classification"``, ``"regression"``, or
``None`` for every task), the columns it needs (roles such as ``"pred"``, or the forecast
columns ``"lower"``, ``"upper"``, ``"quantile"``), the progress step it reports, and a
``render(page, study)`` function. :func:`frameeval.report.build.build_report` only orders them:
it builds one :class:`Study` and renders, in order, every section that applies. A new kind of
result table joins the report with its own sections, without editing the others.

A section that applies but finds nothing to show says why on the page (a ``skip`` line); a
section that does not apply (another task, a forecast column the results lack) is absent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from frameeval.report.page import Page
from frameeval.report.roles import ReportRoles, Roles, Unused

__all__ = ["Forecast", "Options", "Section", "Study", "render", "task_line"]


@dataclass(frozen=True)
class Forecast:
    """The columns of interval and quantile forecasts (``None`` where the results have none)."""

    #: lower and upper bounds of a central prediction interval, on each prediction's row
    lower: str | None = None
    upper: str | None = None
    #: the level of a predicted quantile (one row per instance × level; ``pred`` is the quantile)
    quantile: str | None = None
    #: the nominal coverage of the ``lower``–``upper`` intervals
    level: float = 0.9


@dataclass(frozen=True)
class Options:
    """The settings of the report (the keywords of :func:`frameeval.report.build_report`)."""

    alpha: float = 0.05
    rope: float | None = None
    cost01: float = 1.0
    cost10: float = 1.0
    pos_label: Any = None
    score_decimals: int | None = None
    source: str = ""
    #: columns whose groups the Subgroups section compares (``--sensitive``); () : no section
    sensitive: tuple[str, ...] = ()


@dataclass
class Study:
    """What every section reads: the task, the results (lazy), the columns by role and the
    options; :meth:`memo` holds the tables that several sections share (computed once, by the
    first section that asks)."""

    task: str
    lf: pl.LazyFrame
    roles: ReportRoles
    #: the roles as given (the columns of the results only)
    present: Roles
    unused: Unused
    forecast: Forecast
    options: Options
    #: how the task was found: ``"given"`` or ``"detected"``
    task_source: str = "detected"
    say: Callable[[str], None] = lambda message: None
    #: a warning for the console (the CLI prints it on stderr, even with -q); the page says it
    #: beside the section it affects
    warn: Callable[[str], None] = lambda message: None
    _memo: dict[str, Any] = field(default_factory=dict)

    def has(self, column: str) -> bool:
        """Whether the results have a column for ``column`` (a role or a forecast column)."""
        if column in ("lower", "upper", "quantile"):
            return getattr(self.forecast, column) is not None
        return getattr(self.present, column, None) is not None

    def memo(self, name: str, make: Callable[[], Any]) -> Any:
        """The shared table ``name``, made by ``make()`` the first time it is asked for."""
        if name not in self._memo:
            self._memo[name] = make()
        return self._memo[name]


@dataclass(frozen=True)
class Section:
    """One section of the page: when it applies, what it needs, and how it draws itself."""

    name: str
    render: Callable[[Page, Study], None]
    #: the task it belongs to; None: every task
    task: str | None = None
    #: columns it needs (roles or forecast columns); without one of them it is absent
    needs: tuple[str, ...] = ()
    #: the progress step said before it is drawn (None: none)
    step: str | None = None

    def applies(self, study: Study) -> bool:
        """Whether this section belongs on ``study``'s page."""
        return (self.task is None or self.task == study.task) and all(
            study.has(column) for column in self.needs
        )


def render(page: Page, study: Study, sections: tuple[Section, ...]) -> list[str]:
    """Draw, in order, every section of ``sections`` that applies to ``study``; return their
    names."""
    drawn = []
    for section in sections:  # loop-ok: a dozen sections
        if not section.applies(study):
            continue
        if section.step is not None:
            study.say(section.step)
        section.render(page, study)
        drawn.append(section.name)
    return drawn


def task_line(study: Study) -> str:
    """The Data section's sentence saying the task and how it was found."""
    if study.task_source == "given":
        how = "given (task= / --task)"
    elif study.task == "regression":
        how = "detected: the truth or pred column holds non-integral numbers; pass --task to choose"
    else:
        how = "detected: the truth and pred columns hold class labels; pass --task to choose"
    return f"Task: {study.task} ({how})."
