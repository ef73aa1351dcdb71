"""The report's sections as objects: each declares when it belongs, when it applies, and draws
itself.

A :class:`Section` names the task it belongs to (``"classification"``, ``"regression"``, or
``None`` for every task), the columns it needs (roles such as ``"pred"``, the forecast columns
``"lower"``, ``"upper"``, ``"quantile"``, or ``"sensitive"``: the columns of ``--sensitive``),
the progress step it reports, and a ``render(page, study)`` function.
:func:`frameeval.report.build.build_report` only orders them: it builds one :class:`Study` (of
its task's kind: the shared tables are its typed attributes) and :func:`render` draws, in
order, every section that belongs to it. A new kind of result table joins the report with its
own sections, without editing the others.

A section that belongs but does not apply (no pred column for the label measures…) says why:
its ``applies`` returns the reason, which :func:`render` — the one place that writes it — prints
under the section's heading as a ``skip`` line. A section that does not belong (another task, a
forecast column the results lack) is absent.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from frameeval.report.answer import reader_caveat
from frameeval.report.page import Page
from frameeval.report.roles import WITHOUT, Forecast, ReportRoles, Roles, Unused, quoted

__all__ = ["Forecast", "Options", "Section", "Study", "data_lines", "render", "task_line"]
__all__ += ["lacking", "named", "unused_lines"]


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
    options. A task's sections read a subclass whose shared tables are typed attributes,
    computed once, by the first section that asks (``ClassificationStudy.counts``…)."""

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
    #: the tests' caveats already printed (each once per page)
    said: set[str] = field(default_factory=set)

    def has(self, column: str) -> bool:
        """Whether the results have a column for ``column`` (a role, a forecast column, or
        ``"sensitive"``: columns given to compare groups on)."""
        if column == "sensitive":
            return bool(self.options.sensitive)
        if column in ("lower", "upper", "quantile"):
            return getattr(self.forecast, column) is not None
        return getattr(self.present, column, None) is not None


def applies_always(study: Any) -> str | None:
    """A section with nothing that keeps it from applying."""
    return None


def lacking(role: str, what: str) -> Callable[[Any], str | None]:
    """A section's ``why_not`` when ``role`` has no column: ``"<what>: <why it has none>."``."""
    return lambda study: (
        None if getattr(study.roles, role) else f"{what}: {study.unused.why(role)}."
    )


@dataclass(frozen=True)
class Section:
    """One section of the page: when it belongs, when it applies, and how it draws itself."""

    name: str
    render: Callable[[Page, Any], None]
    #: the task it belongs to; None: every task
    task: str | None = None
    #: columns it needs (roles or forecast columns); without one of them it is absent
    needs: tuple[str, ...] = ()
    #: the progress step said before it is drawn (None: none)
    step: str | None = None
    #: its heading and reference, written over the reason when it does not apply
    title: str = ""
    reference: str | None = None
    #: why it does not apply to a study (None: it does)
    why_not: Callable[[Any], str | None] = applies_always

    def belongs(self, study: Study) -> bool:
        """Whether this section is on ``study``'s page at all."""
        return (self.task is None or self.task == study.task) and all(
            study.has(column) for column in self.needs
        )

    def applies(self, study: Study) -> str | None:
        """The reason this section shows nothing on ``study``'s page, or None when it applies."""
        return self.why_not(study)


def render(page: Page, study: Study, sections: tuple[Section, ...]) -> list[str]:
    """Draw, in order, every section of ``sections`` that belongs to ``study`` — the reason it
    does not apply under its heading, or its body with its tests' warnings for a reader at its
    end (next to the tables they qualify, once per page); return their names."""
    drawn = []
    for section in sections:  # loop-ok: a dozen sections
        if not section.belongs(study):
            continue
        if section.step is not None:
            study.say(section.step)
        reason = section.applies(study)
        if reason is not None:  # the one place that writes why a section shows nothing
            page.heading(section.title, section.reference)
            page.text(reason, css="skip")
        else:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                section.render(page, study)
            for note in dict.fromkeys(reader_caveat(str(w.message)) for w in caught):
                if note not in study.said:
                    study.said.add(note)
                    page.text(note, css="note")
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


def data_lines(page: Page, study: Study, reference: str, total: int, extra: str = "") -> None:
    """The Data section's heading, its line of the ``total`` predictions with the columns by
    role (those of the results only, then ``extra``) and the task line."""
    source = f" from {study.options.source}" if study.options.source else ""
    page.heading("Data", reference)
    page.text(
        f"{total:,} predictions{source}; columns by role: {named(vars(study.present))}{extra}."
    )
    page.text(task_line(study), css="task")


def named(columns: dict[str, str | None]) -> str:
    """``name = 'column'`` of each role (or forecast column) that has a column."""
    return ", ".join(f"{name} = {value!r}" for name, value in columns.items() if value is not None)


def unused_lines(page: Page, unused: Unused, skip: tuple[str, ...] = (), lost: bool = True) -> None:
    """A note per role without a column but those in ``skip`` (why, and with ``lost`` what the
    page leaves out) and one naming the columns that play no role."""
    for role in unused.missing:  # loop-ok: at most seven roles
        if role not in skip:
            why = unused.why(role)
            page.text(
                f"{why[0].upper()}{why[1:]}{f': {WITHOUT[role]}' if lost else ''}.", css="note"
            )
    if unused.columns:
        page.text(f"Columns that play no role: {quoted(unused.columns)}.", css="note")
