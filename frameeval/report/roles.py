"""Reading a results file and inferring column roles for ``frameeval report``."""

from __future__ import annotations

import difflib
import glob
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import polars as pl

from frameeval._roles import COMMON_NAMES, infer_column
from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidDtypeError,
    InvalidParameterError,
    UnknownLabelError,
)

#: the common names of each role (the library's and the CLI's, from :mod:`frameeval._roles`)
CANDIDATES: dict[str, tuple[str, ...]] = {
    role: COMMON_NAMES["block" if role == "dataset" else role]
    for role in ("truth", "pred", "score", "learner", "dataset", "fold", "repeat", "instance")
}

#: how the command line spells each role
FLAGS = {"dataset": "--by"}


def flag(role: str) -> str:
    """The command-line flag of a role: ``--truth``, ``--by`` (the data set)."""
    return FLAGS.get(role, f"--{role.replace('_', '-')}")


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


@dataclass
class ReportRoles(Roles):
    """Roles as the report builds with them: the truth, data set and learner columns are always
    named (``resolve_roles`` requires the truth; ``build_report`` adds a constant data set and
    learner column when the results have none)."""

    truth: str = ""
    learner: str = "learner"
    dataset: str = "dataset"


def read_results(path: str) -> pl.LazyFrame:
    """Scan Parquet (a file or a glob of files) or CSV lazily."""
    matches = sorted(glob.glob(path)) if any(ch in path for ch in "*?[") else [path]
    if not matches:
        raise InvalidParameterError(f"report(): results {path!r} must exist, got no such file.")
    for match in matches:
        if not Path(match).exists():
            raise InvalidParameterError(
                f"report(): results {match!r} must exist, got no such file."
            )
    suffixes = {Path(m).suffix.lower() for m in matches}
    if suffixes <= {".parquet", ".pq"}:
        return pl.scan_parquet(matches)
    if suffixes <= {".csv"} and len(matches) == 1:
        return pl.scan_csv(matches[0], infer_schema_length=10_000)
    raise InvalidParameterError(
        f"report(): results must be Parquet files (or one CSV file), got {sorted(suffixes)}."
    )


def infer_roles(schema: pl.Schema, given: Roles, *, cli: bool = False) -> tuple[Roles, set[str]]:
    """Fill the roles not given from common column names (:mod:`frameeval._roles`); check the
    given ones exist. With ``cli=True`` errors name the flags (``--by``, ``--truth``) and say
    ``frameeval report: error:``; else the keywords of :func:`frameeval.write_report`."""
    names = list(schema.names())
    where = "frameeval report: error" if cli else "report()"

    def spell(role: str) -> str:
        role = "dataset" if role == "block" else role
        return flag(role) if cli else f"{role}="

    roles = Roles(**{f.name: getattr(given, f.name) for f in fields(given)})
    for f in fields(roles):
        value = getattr(roles, f.name)
        if value is not None and value not in schema:
            close = difflib.get_close_matches(str(value), names, n=1)
            maybe = f"; did you mean {close[0]!r}?" if close else ""
            raise ColumnNotFoundError(
                f"{where}: {spell(f.name)} must name a column, got {value!r}, which is not one "
                f"of {names}{maybe}" + ("" if maybe else ".")
            )
    inferred: set[str] = set()
    taken = [v for v in vars(roles).values() if v is not None]
    for f in fields(roles):
        if getattr(roles, f.name) is not None:
            continue
        role = "block" if f.name == "dataset" else f.name
        column = infer_column(
            names, role, where=where, exclude=taken, required=f.name == "truth", spell=spell
        )
        if column is not None:
            setattr(roles, f.name, column)
            inferred.add(f.name)
            taken.append(column)
    if roles.pred is None and roles.score is None:
        raise ColumnNotFoundError(
            f"{where}: {spell('pred')} or {spell('score')} must be given when no column has a "
            f"common pred or score name ({', '.join(COMMON_NAMES['pred'] + COMMON_NAMES['score'])})"
            f", got columns {names}."
        )
    return roles, inferred


def check_roles(
    data: pl.LazyFrame, roles: Roles, pos_label: Any = None, *, cli: bool = False
) -> Any:
    """Check the role columns' dtypes on the schema and the labels on a cheap scan (the truth
    column's distinct values per data set), before any work; return ``pos_label`` as a label of
    the truth column's dtype (a ``--pos-label`` string parsed to an int for integer labels).

    Raises when the score is not numeric, truth and pred are of different families (numbers,
    strings, booleans), or a binary data set's positive class is unknown: string labels need
    ``pos_label``, numeric ones default to 1 (``True`` for booleans), and it must be a label.
    """
    where = "frameeval report: error" if cli else "report()"

    def spell(role: str) -> str:
        return flag(role) if cli else f"{role}="

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
    family = _family(truth) if truth is not None else None
    if roles.pred is not None and _family(schema[roles.pred]) != family:
        raise InvalidDtypeError(
            f"{where}: {spell('pred')} column {roles.pred!r} must hold labels like "
            f"{spell('truth')} column {roles.truth!r} ({truth}), got {schema[roles.pred]}."
        )
    assert roles.truth is not None  # resolve_roles() requires a truth column
    column = pl.col(roles.truth)
    per_set = data.group_by(roles.dataset or pl.lit(0)).agg(column.drop_nulls().n_unique())
    binary = per_set.filter(column == 2).select(pl.len()).collect().item() > 0
    labels = data.select(column.drop_nulls().unique()).collect().to_series()
    shown = sorted(labels.head(20).to_list(), key=str)
    label = _as_label(pos_label, truth, where, spell)
    if label is None:
        if not binary:
            return None
        if family == "string":
            raise UnknownLabelError(
                f"{where}: {spell('pos_label')} must name the positive class of the binary data "
                f"sets when labels are strings, got labels {shown}."
            )
        label = True if family == "boolean" else 1
        if label not in labels.to_list():
            raise UnknownLabelError(
                f"{where}: {spell('pos_label')} must name the positive class of the binary data "
                f"sets when 1 is not a label, got labels {shown}."
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


def _family(dtype: pl.DataType) -> str:
    if dtype == pl.String or isinstance(dtype, pl.Categorical | pl.Enum):
        return "string"
    if dtype == pl.Boolean:
        return "boolean"
    return "numeric"


def _as_label(value: Any, dtype: pl.DataType | None, where: str, spell: Any) -> Any:
    """``pos_label`` (a string from the command line, or any label) in the truth's dtype."""
    if value is None or dtype is None or not isinstance(value, str):
        return value
    family = _family(dtype)
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
