"""Reading a results file and inferring column roles for ``frameeval report``."""

from __future__ import annotations

import glob
from dataclasses import dataclass, fields
from pathlib import Path

import polars as pl

from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError

CANDIDATES: dict[str, tuple[str, ...]] = {
    "truth": ("truth", "y_true", "y", "label", "target", "actual"),
    "pred": ("pred", "y_pred", "prediction", "predicted"),
    "score": ("score", "y_score", "proba", "probability", "prob"),
    "learner": ("learner", "model", "classifier", "algorithm", "estimator"),
    "dataset": ("dataset", "data_set", "data", "task"),
    "fold": ("fold", "cv_fold", "split"),
    "repeat": ("repeat", "run"),
    "instance": ("instance", "row_id", "instance_id", "id"),
}


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


def infer_roles(schema: pl.Schema, given: Roles) -> tuple[Roles, set[str]]:
    """Fill the roles not given from well-known column names; check the given ones exist."""
    names = list(schema.names())
    lower = {n.lower(): n for n in names}
    roles = Roles(**{f.name: getattr(given, f.name) for f in fields(given)})
    inferred: set[str] = set()
    for f in fields(roles):
        value = getattr(roles, f.name)
        if value is not None:
            if value not in schema:
                raise ColumnNotFoundError(
                    f"report(): column {value!r} (--{f.name}) not found, got columns {names}."
                )
            continue
        for candidate in CANDIDATES[f.name]:
            if candidate in lower and lower[candidate] not in vars(roles).values():
                setattr(roles, f.name, lower[candidate])
                inferred.add(f.name)
                break
    if roles.truth is None:
        raise ColumnNotFoundError(
            f"report(): a truth column is required (--truth), got columns {names}.\n"
            f"Hint: name it one of {list(CANDIDATES['truth'])} or pass --truth COLUMN."
        )
    if roles.pred is None and roles.score is None:
        raise ColumnNotFoundError(
            f"report(): a pred or score column is required (--pred / --score), got columns "
            f"{names}."
        )
    return roles, inferred
