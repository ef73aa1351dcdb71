"""Reading a results file and inferring column roles for ``frameeval report``.

No column is ignored silently: :func:`unused_columns` names the columns that play no role and,
for each role without a column, the unused column whose name is close to one of the role's
common names (difflib); the command line prints it on stderr, the page's Data section and every
section skipped for want of the role say it.
"""

from __future__ import annotations

import difflib
import glob
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, NoReturn

import polars as pl

from frameeval._inputs import Column, Inputs
from frameeval._params import INSIDE_UNIT
from frameeval._roles import COMMON_NAMES, infer_column
from frameeval._validate import dtype_family
from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    UnknownLabelError,
)
from frameeval.io import read_lm_eval_samples

#: the common names of each role (the library's and the CLI's, from :mod:`frameeval._roles`)
CANDIDATES: dict[str, tuple[str, ...]] = {
    role: COMMON_NAMES["block" if role == "dataset" else role]
    for role in ("truth", "pred", "score", "learner", "dataset", "fold", "repeat", "instance")
}

#: how the command line spells each role
FLAGS = {"dataset": "--by"}
#: the sensitive columns a report is asked for (checked after the roles are inferred)
SENSITIVE = Inputs(Column("sensitive", several=True))


def flag(role: str) -> str:
    """The command-line flag of a role: ``--truth``, ``--by`` (the data set)."""
    return FLAGS.get(role, f"--{role.replace('_', '-')}")


#: What the report leaves out when a role has no column (said on stderr and in the page).
WITHOUT: dict[str, str] = {
    "pred": "no label measures, confusion matrices or tests on accuracy",
    "score": "no ROC, P-R, cost or calibration analysis",
    "learner": "every prediction counts as one learner's, so there is nothing to compare",
    "dataset": "every prediction counts as one data set's",
    "fold": "no per-fold averages and no paired t test",
    "repeat": "folds are not told apart by repetition",
    "instance": "no McNemar test",
}
#: How close (difflib ratio) an unused column's name must be to a common name of a role for
#: "did you mean"; a common name that is a whole word of the column's name counts as this close.
LIKENESS = 0.75


@dataclass
class Roles:
    """Column names by role; ``None`` where the results have no such column."""

    truth: str | None = None
    pred: str | None = None
    score: str | None = None
    learner: str | None = None
    dataset: str | None = None
    fold: str | None = None
    repeat: str | None = None
    instance: str | None = None

    def describe(self, inferred: set[str]) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                how = "inferred" if f.name in inferred else "given"
                parts.append(f"{f.name}={value!r} ({how})")
        return ", ".join(parts)


@dataclass(frozen=True)
class Unused:
    """The columns of a result table that play no role, and the roles that have no column.

    ``guesses`` maps a role without a column to the unused columns whose names are close to one
    of its common names (best first): the "did you mean" of the warnings and skip lines.
    """

    columns: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    guesses: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def why(self, role: str) -> str:
        """Why ``role`` is absent, in one clause, and which unused column might be it: ``no
        score column (none is named score, y_score, …); the unused column 'probs' might be it
        (give it with --score / score=)``."""
        named = _either(CANDIDATES[role])
        text = f"no {role} column (none is named {named})"
        guessed = self.guesses.get(role, ())
        if guessed:
            which = "the unused column" if len(guessed) == 1 else "one of the unused columns"
            return (
                f"{text}; {which} {quoted(guessed)} might be it (give it with "
                f"{flag(role)} / {role}=)"
            )
        if self.columns:
            return f"{text}; unused columns: {quoted(self.columns)}"
        return text

    def warnings(self) -> list[str]:
        """The command line's warnings (without the ``frameeval report: warning:`` prefix): one
        per role with a guess, one for a missing learner column, and one naming the unused
        columns beside the roles that have none."""
        lines = []
        for role in self.missing:  # loop-ok: at most seven roles
            guessed = self.guesses.get(role, ())
            head = f"no {flag(role)} column (none is named {_either(CANDIDATES[role])}): "
            if guessed:
                lines.append(f"{head}{WITHOUT[role]}; did you mean {flag(role)} {guessed[0]}?")
            elif role == "learner":
                unused = f"; unused columns: {list(self.columns)}" if self.columns else ""
                lines.append(f"{head}{WITHOUT[role]}{unused}.")
        left = [c for c in self.columns if not any(c in g for g in self.guesses.values())]
        others = [r for r in self.missing if r != "learner" and r not in self.guesses]
        if left and others:
            lines.append(
                f"columns {left} play no role; no column was found for "
                f"{', '.join(flag(r) for r in others)} (give one with its flag if it is among "
                "them)."
            )
        return lines


def unused_columns(names: Sequence[str], roles: Roles) -> Unused:
    """The columns of ``names`` that play no role in ``roles``, the roles with no column, and
    for each of those the unused columns that look like it (see :class:`Unused`)."""
    taken = {v for v in vars(roles).values() if v is not None}
    columns = tuple(n for n in names if n not in taken)
    missing = tuple(f.name for f in fields(roles) if getattr(roles, f.name) is None)
    scored: dict[str, list[tuple[float, str]]] = {}
    for column in columns:  # loop-ok: over column names, builds no plan
        likeness = {role: _likeness(column, role) for role in missing}
        best = max(likeness, key=lambda r: likeness[r], default=None)
        if best is not None and likeness[best] >= LIKENESS:
            scored.setdefault(best, []).append((likeness[best], column))
    guesses = {
        role: tuple(c for _, c in sorted(found, key=lambda x: -x[0]))
        for role, found in scored.items()
    }
    return Unused(columns, missing, guesses)


def _likeness(column: str, role: str) -> float:
    """How close ``column``'s name is to a common name of ``role`` (difflib's ratio, or
    :data:`LIKENESS` when a common name is a whole word of it: ``model_name``)."""
    lowered = column.lower()
    common = CANDIDATES[role]
    best = max(difflib.SequenceMatcher(None, lowered, name).ratio() for name in common)
    words = {w for w in re.split(r"[^0-9a-z]+", lowered) if len(w) >= 2}
    if words & set(common):
        best = max(best, LIKENESS)
    return best


def _either(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def quoted(names: Sequence[str]) -> str:
    return ", ".join(repr(n) for n in names)


@dataclass
class ReportRoles(Roles):
    """Roles as the report builds with them: the truth, data set and learner columns are always
    named (``resolve_roles`` requires the truth; ``build_report`` adds a constant data set and
    learner column when the results have none)."""

    truth: str = ""
    learner: str = "learner"
    dataset: str = "dataset"


def filled(roles: Roles, names: Sequence[str]) -> ReportRoles:
    """``roles`` as the report builds with them: a role with no data-set or learner column
    names the constant column added for it (``dataset``, ``learner``, or with a ``_`` more
    when the results have a column of that name playing another role)."""

    def free(name: str) -> str:
        while name in names:
            name += "_"
        return name

    return ReportRoles(
        **vars(roles)
        | {"dataset": roles.dataset or free("dataset"), "learner": roles.learner or free("learner")}
    )


def read_results(path: str) -> pl.LazyFrame:
    """Scan Parquet (a file or a glob of files) or CSV lazily; read lm-evaluation-harness samples
    files (``.jsonl``) into the item-level long table (``benchmark, model, item, filter, target,
    pred, metric, score`` and one column per metric)."""
    matches = sorted(glob.glob(path)) if any(ch in path for ch in "*?[") else [path]
    for match in matches or [path]:  # loop-ok: over file names
        if not matches or not Path(match).exists():
            raise InvalidParameterError(
                f"report(): results {match!r} must exist, got no such file."
            )
    suffixes = {Path(m).suffix.lower() for m in matches}
    if suffixes == {".jsonl"}:
        # a task scored under several filters (GSM8K's strict and flexible match) is one
        # benchmark per filter: "gsm8k (strict-match)"
        table = read_lm_eval_samples(path).lazy()
        several = pl.col("filter").n_unique().over("benchmark") > 1
        named = pl.format("{} ({})", pl.col("benchmark"), pl.col("filter"))
        return table.with_columns(
            pl.when(several).then(named).otherwise(pl.col("benchmark")).alias("benchmark")
        )
    if suffixes <= {".parquet", ".pq"}:
        return pl.scan_parquet(matches)
    if suffixes <= {".csv"} and len(matches) == 1:
        return pl.scan_csv(matches[0], infer_schema_length=10_000)
    raise InvalidParameterError(
        "report(): results must be Parquet files, one CSV file or lm-evaluation-harness "
        f"samples files (.jsonl), got {sorted(suffixes)}."
    )


def infer_roles(schema: pl.Schema, given: Roles, *, cli: bool = False) -> tuple[Roles, set[str]]:
    """Fill the roles not given from common column names (:mod:`frameeval._roles`); check the
    given ones exist. With ``cli=True`` errors name the flags (``--by``, ``--truth``) and say
    ``frameeval report: error:``; else the keywords of :func:`frameeval.write_report`."""
    names = list(schema.names())
    where, spell = _voice(cli)
    roles = Roles(**{f.name: getattr(given, f.name) for f in fields(given)})
    for f in fields(roles):
        value = getattr(roles, f.name)
        if value is not None and value not in schema:
            _not_a_column(value, names, where, spell(f.name))
    inferred: set[str] = set()
    taken = [v for v in vars(roles).values() if v is not None]
    for f in fields(roles):
        if getattr(roles, f.name) is not None:
            continue
        role = "block" if f.name == "dataset" else f.name
        try:  # strict: the report never picks one of several silently (not even `learner`)
            column = infer_column(
                names,
                role,
                where=where,
                exclude=taken,
                required=f.name == "truth",
                spell=spell,
                strict=True,
            )
        except ColumnNotFoundError as err:  # say which column might be the truth
            raise ColumnNotFoundError(
                _did_you_mean(str(err), names, roles, "truth", spell)
            ) from None
        if column is not None:
            setattr(roles, f.name, column)
            inferred.add(f.name)
            taken.append(column)
    if roles.pred is None and roles.score is None:
        raise ColumnNotFoundError(
            _did_you_mean(
                f"{where}: {spell('pred')} or {spell('score')} must be given when no column has "
                f"a common pred or score name "
                f"({', '.join(COMMON_NAMES['pred'] + COMMON_NAMES['score'])}), got columns "
                f"{names}.",
                names,
                roles,
                "pred",
                spell,
            )
        )
    return roles, inferred


def _not_a_column(value: str, names: list[str], where: str, spelled: str) -> NoReturn:
    """Raise: ``spelled`` (a role's flag or keyword) names no column of ``names``."""
    close = difflib.get_close_matches(str(value), names, n=1)
    maybe = f"; did you mean {close[0]!r}?" if close else "."
    raise ColumnNotFoundError(
        f"{where}: {spelled} must name a column, got {value!r}, which is not one of {names}{maybe}"
    )


def _did_you_mean(
    message: str, names: list[str], roles: Roles, role: str, spell: Callable[[str], str]
) -> str:
    """``message`` with ``did you mean --truth ytrue?`` when an unused column looks like
    ``role`` (for ``pred``: like the pred or the score)."""
    unused = unused_columns(names, roles)
    for candidate in (role, "score") if role == "pred" else (role,):  # loop-ok: two roles
        guessed = unused.guesses.get(candidate, ())
        if guessed:
            return f"{message.removesuffix('.')}; did you mean {spell(candidate)} {guessed[0]}?"
    return message


def _fraction(column: pl.Expr) -> pl.Expr:
    """The values of ``column`` that are not integral (NaN and nulls left aside)."""
    return column.filter(column.is_not_null() & column.is_not_nan() & (column != column.floor()))


#: the tasks the report knows (``--task`` / ``task=``)
TASKS = ("classification", "regression")


def check_task(
    data: pl.LazyFrame,
    roles: Roles,
    where: str,
    spell: Callable[[str], str],
    task: str | None = None,
) -> str:
    """The task of a result table: ``"regression"`` or ``"classification"``.

    Given (``--task`` / ``task=``), it is checked: a regression needs numeric truth and pred
    columns; a classification refuses a float truth or pred with a non-integral value. Not
    given, it is detected: a float truth or pred column with a non-integral value (a scan of
    that column only; integer, string and boolean labels cost nothing) is a regression, any
    other table a classification."""
    if task is not None and task not in TASKS:
        raise InvalidParameterError(
            f"{where}: {spell('task')} must be one of {list(TASKS)}, got {task!r}."
        )
    schema = data.collect_schema()
    if task == "regression":
        if roles.pred is None:
            raise ColumnNotFoundError(
                f"{where}: {spell('pred')} must name the predicted values of a regression, "
                "got no pred column."
            )
        for role, column in (("truth", roles.truth), ("pred", roles.pred)):  # loop-ok: two
            assert column is not None
            if not schema[column].is_numeric():
                raise InvalidDtypeError(
                    f"{where}: {spell(role)} column {column!r} must be numeric for a "
                    f"regression, got {schema[column]}."
                )
        return "regression"
    floats = [
        (role, column)
        for role, column in (("truth", roles.truth), ("pred", roles.pred))
        if column is not None and schema[column].is_float()
    ]
    if not floats:
        return "classification"
    found = data.select(_fraction(pl.col(c)).first().alias(r) for r, c in floats)
    row = found.collect().row(0, named=True)
    fractional = [(role, column) for role, column in floats if row[role] is not None]
    if not fractional:
        return "classification"
    if task == "classification":
        role, column = fractional[0]
        raise InvalidValueError(
            f"{where}: {spell(role)} column {column!r} must hold class labels, got "
            f"non-integral values (e.g. {row[role]:g}); for a regression pass "
            f"{spell('task')} regression."
        )
    if roles.pred is None or not schema[roles.pred].is_numeric():
        raise ColumnNotFoundError(
            f"{where}: {spell('pred')} must name the predicted values of a regression "
            f"(non-integral values in {spell(fractional[0][0])} column {fractional[0][1]!r}), "
            "got no numeric pred column."
        )
    return "regression"


def check_roles(
    data: pl.LazyFrame,
    roles: Roles,
    pos_label: Any = None,
    *,
    cli: bool = False,
    task: str | None = None,
) -> Any:
    """Check the role columns' dtypes on the schema and the labels on a cheap scan (the truth
    column's distinct values per data set), before any work; return ``pos_label`` as a label of
    the truth column's dtype (a ``--pos-label`` string parsed to an int for integer labels).

    Raises when the score is not numeric, truth and pred are of different families (numbers,
    strings, booleans), or a binary data set's positive class is unknown: string labels need
    ``pos_label``, numeric ones default to 1 (``True`` for booleans), and it must be a label.
    A regression (``task``: the task :func:`check_task` found; None: detected here) has no
    labels: ``None``.
    """
    where, spell = _voice(cli)
    schema = data.collect_schema()
    if (
        roles.score is not None
        and not schema[roles.score].is_numeric()
        and not _empty(data, roles.score)
    ):
        raise InvalidDtypeError(
            f"{where}: {spell('score')} column {roles.score!r} must be numeric (larger = more "
            f"positive), got {schema[roles.score]}."
        )
    truth = schema[roles.truth] if roles.truth else None
    family = dtype_family(truth) if truth is not None else None
    if roles.pred is not None and dtype_family(schema[roles.pred]) != family:
        raise InvalidDtypeError(
            f"{where}: {spell('pred')} column {roles.pred!r} must hold labels like "
            f"{spell('truth')} column {roles.truth!r} ({truth}), got {schema[roles.pred]}."
        )
    assert roles.truth is not None  # resolve_roles() requires a truth column
    if (task if task is not None else check_task(data, roles, where, spell)) == "regression":
        return None
    column = pl.col(roles.truth)
    per_set = data.group_by(roles.dataset or pl.lit(0)).agg(column.drop_nulls().n_unique())
    binary = per_set.filter(column == 2).select(pl.len()).collect().item() > 0
    labels = data.select(column.drop_nulls().unique()).collect().to_series()
    shown = sorted(labels.head(20).to_list(), key=str)
    label = _as_label(pos_label, truth, where, spell)
    if label is None:
        if not binary:
            return None
        when = "labels are strings" if family == "string" else "1 is not a label"
        if family == "string" or (True if family == "boolean" else 1) not in labels.to_list():
            raise UnknownLabelError(
                f"{where}: {spell('pos_label')} must name the positive class of the binary data "
                f"sets when {when}, got labels {shown}."
            )
        return None
    if label not in labels.to_list():
        raise UnknownLabelError(
            f"{where}: {spell('pos_label')} must be one of the labels of {spell('truth')} "
            f"column {roles.truth!r}, got {pos_label!r}; labels: {shown}."
        )
    return label


def _empty(data: pl.LazyFrame, column: str) -> bool:
    """A column with no value at all (CSV infers an empty score column as text)."""
    return bool(data.select(pl.col(column).drop_nulls().len() == 0).collect().item())


def numeric_score(data: pl.LazyFrame, roles: Roles) -> pl.LazyFrame:
    """``data`` with an all-null, non-numeric score column (from a CSV) cast to Float64."""
    schema = data.collect_schema()
    if roles.score is None or schema[roles.score].is_numeric():
        return data
    return data.with_columns(pl.col(roles.score).cast(pl.Float64))


def _as_label(value: Any, dtype: pl.DataType | None, where: str, spell: Any) -> Any:
    """``pos_label`` (a string from the command line, or any label) in the truth's dtype."""
    if value is None or dtype is None or not isinstance(value, str):
        return value
    family = dtype_family(dtype)
    if family == "string":
        return value
    if family == "boolean":
        lowered = value.lower()
        if lowered in {"true", "1"}:
            return True
        if lowered in {"false", "0"}:
            return False
    else:
        try:
            return int(value) if dtype.is_integer() else float(value)
        except ValueError:
            pass
    raise InvalidParameterError(
        f"{where}: {spell('pos_label')} must be a label of the {dtype} truth column, got {value!r}."
    )


#: the common names of the forecast columns of a regression (inferred when not given)
FORECAST_NAMES: dict[str, tuple[str, ...]] = {
    "lower": ("lower", "y_lower", "pred_lower", "lower_bound", "lo"),
    "upper": ("upper", "y_upper", "pred_upper", "upper_bound", "hi"),
    "quantile": ("quantile", "level", "tau", "q"),
}


def infer_forecast(
    schema: pl.Schema,
    roles: Roles,
    given: dict[str, str | None],
    where: str,
    spell: Callable[[str], str],
) -> tuple[dict[str, str | None], set[str]]:
    """The forecast columns of a regression (``lower``, ``upper``, ``quantile``): the given
    ones (checked to exist and be numeric), the others inferred from
    :data:`FORECAST_NAMES` among the columns that play no role (case-insensitive). A lower
    bound needs an upper one and the other way round."""
    names = list(schema.names())
    taken = {v for v in vars(roles).values() if v is not None}
    found: dict[str, str | None] = {}
    inferred: set[str] = set()
    for role, common in FORECAST_NAMES.items():  # loop-ok: three forecast columns
        column = given.get(role)
        if column is None:
            free = [n for n in names if n not in taken and n.lower() in common]
            best = min(free, key=lambda n: common.index(n.lower())) if free else None
            if best is not None and schema[best].is_numeric():  # else merely named like one
                column = best
                inferred.add(role)
        elif column not in schema:
            _not_a_column(column, names, where, spell(role))
        elif not schema[column].is_numeric():
            raise InvalidDtypeError(
                f"{where}: {spell(role)} column {column!r} must be numeric, got {schema[column]}."
            )
        found[role] = column
        if column is not None:
            taken.add(column)
    if (found["lower"] is None) != (found["upper"] is None):
        have, lack = ("lower", "upper") if found["lower"] is not None else ("upper", "lower")
        if have in inferred:  # half a pair inferred from a name: leave it
            found[have] = None
            inferred.discard(have)
        else:
            raise ColumnNotFoundError(
                f"{where}: {spell(lack)} must be given with {spell(have)} (an interval has "
                f"two bounds), got only {spell(have)} {found[have]!r}."
            )
    return found, inferred


def check_level(level: float, where: str = "report()", flag: str = "level=") -> None:
    """A prediction interval's nominal coverage must lie in (0, 1)."""
    if not INSIDE_UNIT.holds(level):  # the CLI's message is not a function's
        raise InvalidParameterError(f"{where}: {flag} must be in (0, 1), got {level!r}.")


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

    def columns(self) -> dict[str, str | None]:
        """``lower, upper, quantile`` by name (``None`` where absent)."""
        return {"lower": self.lower, "upper": self.upper, "quantile": self.quantile}


@dataclass(frozen=True)
class Resolved:
    """The results' columns resolved once for a report: the roles (given, or inferred from
    common names), the task (checked or detected once, by :func:`check_task`) and the forecast
    columns. :func:`resolve` makes it; it flows unchanged from the caller (``report()`` or the
    command line) to the page."""

    roles: Roles
    task: str
    #: how the task was found: ``"given"`` (task= / --task) or ``"detected"``
    task_source: str = "detected"
    forecast: Forecast = Forecast()
    #: the roles and forecast columns inferred from common names (the command line says so)
    inferred: frozenset[str] = frozenset()

    def unused(self, names: Sequence[str]) -> Unused:
        """:func:`unused_columns` of the results' column ``names`` (the forecast columns play a
        role)."""
        taken = {c for c in self.forecast.columns().values() if c is not None}
        return unused_columns([n for n in names if n not in taken], self.roles)


def _voice(cli: bool) -> tuple[str, Callable[[str], str]]:
    """Where an error comes from and how a role is spelled (the data set's ``block`` too): the
    command line's flags or ``write_report``'s keywords."""

    def spell(role: str) -> str:
        role = "dataset" if role == "block" else role
        return flag(role) if cli else f"{role}="

    return ("frameeval report: error" if cli else "report()"), spell


def resolve(
    data: pl.LazyFrame,
    given: Roles,
    *,
    task: str | None = None,
    sensitive: Sequence[str] = (),
    cli: bool = False,
) -> Resolved:
    """The roles inferred (:func:`infer_roles`), the sensitive columns required, and the task
    checked or detected (:func:`check_task`) — each once, before any work."""
    schema = data.collect_schema()
    roles, inferred = infer_roles(schema, given, cli=cli)
    SENSITIVE.compile(schema, "report", sensitive=list(sensitive))
    where, spell = _voice(cli)
    found = check_task(data, roles, where, spell, task)
    source = "detected" if task is None else "given"
    return Resolved(roles, found, source, inferred=frozenset(inferred))


def with_forecast(
    data: pl.LazyFrame,
    resolved: Resolved,
    given: dict[str, str | None],
    level: float,
    *,
    cli: bool = False,
) -> Resolved:
    """``resolved`` with the forecast columns of a regression (:func:`infer_forecast`; its
    ``level`` checked) — a classification keeps none."""
    if resolved.task != "regression":
        return replace(resolved, forecast=Forecast(level=level))
    where, spell = _voice(cli)
    check_level(level, where, "--level" if cli else "level=")
    columns, found = infer_forecast(data.collect_schema(), resolved.roles, given, where, spell)
    return replace(
        resolved, forecast=Forecast(**columns, level=level), inferred=resolved.inferred | found
    )
