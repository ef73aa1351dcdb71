"""Preparing the data and the split frame for running learners: checks, the join of the split
rows with their features and truth, the (train, held-out) frames of each split and the schema
of the result frame."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from frameeval._frame import collect, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import N_JOBS, Flag
from frameeval._split_frame import SPLIT_COLUMNS, split_kind, split_rows
from frameeval._typing import IntoFrame
from frameeval._validate import check_parameter
from frameeval.evaluate import _runner
from frameeval.evaluate._runner import Errors, Outcome, Progress, Task, check_picklable
from frameeval.evaluate.learners import FitPredict
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    InvalidParameterError,
    UnknownLabelError,
)

__all__ = ["Prepared", "check_common", "meta_frame", "output_schema", "prepare", "split_frames"]

#: the data frame's columns (any dtype: the learners read them), compiled role by role between
#: the checks of the splits frame, which must hold instance= too
_DATA = Inputs(Column("truth"), Column("instance"), Column("features", several=True))


@dataclass
class Prepared:
    """The checked data and splits of a run: the splits, the tasks of one split and the run."""

    full: pl.DataFrame  # the split rows with features and truth joined
    kind: str
    key: str
    truth: str
    features: list[str]
    eager: bool

    def ids(self) -> list[tuple[int, int]]:
        """(repeat, fold) of every split, sorted; fold is 0 for role and count splits."""
        if self.kind == "fold":
            ids = self.full.select("repeat", "fold").unique().sort("repeat", "fold")
            return [(int(r), int(f)) for r, f in ids.iter_rows()]  # loop-ok: split ids, not rows
        return [(int(r), 0) for r in self.full["repeat"].unique().sort().to_list()]

    def splits(
        self, ids: Sequence[tuple[int, int]]
    ) -> Iterator[tuple[int, int, pl.DataFrame, pl.DataFrame]]:
        """(repeat, fold, training rows, held-out rows) of the splits ``ids``, in order."""
        parts = self.full.partition_by("repeat", as_dict=True, maintain_order=True)
        for repeat, fold in ids:  # loop-ok: runs user models per split
            yield repeat, fold, *split_frames(self, parts[(repeat,)], fold)

    def tasks(
        self,
        learners: Mapping[str, FitPredict],
        keys: dict[str, Any],
        train: pl.DataFrame,
        held: pl.DataFrame,
        predict_train: bool,
    ) -> Iterator[Task]:
        """One task per learner: fit on ``train``, predict the ``held`` rows — then, with
        ``predict_train``, the ``train`` rows too (role ``"train"``); ``keys`` name the split."""
        meta, predict = meta_frame(held, self), held.select(self.features)
        if predict_train:
            meta = pl.concat([meta, meta_frame(train, self, "train")])
            predict = pl.concat([predict, train.select(self.features)])
        fit_on = train.select(*self.features, self.truth)
        for name, fit_predict in learners.items():  # loop-ok: runs user models per split
            yield Task(name, fit_predict, dict(keys), fit_on, predict, meta)

    def run(
        self,
        func: str,
        tasks: Iterator[Task],
        total: int,
        columns: list[str],
        sort_keys: list[str],
        settings: tuple[int, Progress, Errors],
    ) -> pl.DataFrame:
        """Run the ``total`` tasks with ``settings`` (n_jobs, progress, on_error) and assemble
        the result frame: ``columns``, ``pred``, ``score``, sorted by ``sort_keys``; failed fits
        raise or warn (the on_error policy)."""
        jobs, progress, errors = settings
        outcome = _runner.run_tasks(
            func, tasks, total, n_jobs=jobs, progress=progress, errors=errors
        )
        schema = output_schema(self, columns, outcome)
        results = _runner.collect_results(outcome, func, sort_keys, schema)
        _runner.finish_errors(outcome, func, errors, results)
        return results


def check_common(
    func: str, learners: Mapping[str, FitPredict], n_jobs: Any, errors: Any, progress: Any
) -> tuple[int, Progress, Errors]:
    """The checked learners and run settings: (n_jobs as a number of processes, progress,
    on_error) — the ``settings`` of :meth:`Prepared.run`."""
    check_parameter(
        isinstance(learners, Mapping) and len(learners) > 0,
        func,
        f"learners must be a non-empty mapping {{name: fit_predict}}, got {type(learners).__name__}.",
    )
    for name, fit_predict in learners.items():  # loop-ok: a handful of learners
        check_parameter(
            isinstance(name, str), func, f"learner names must be strings, got {name!r}."
        )
        check_parameter(
            callable(fit_predict),
            func,
            f"learner {name!r} must be callable fit_predict(train, test), got "
            f"{type(fit_predict).__name__}.",
        )
    check_parameter(
        errors in ("raise", "collect"),
        func,
        f"on_error must be 'raise' or 'collect', got {errors!r}.",
    )
    check_parameter(
        Flag(none=True).holds(progress) or callable(progress),
        func,
        f"progress must be None, a bool or a callable, got {progress!r}.",
    )
    N_JOBS(func, "n_jobs", n_jobs)
    jobs = (os.cpu_count() or 1) if n_jobs in (None, -1) else int(n_jobs)
    if jobs > 1:
        check_picklable(learners, func)
    return jobs, progress, errors


def prepare(
    data: IntoFrame,
    splits: IntoFrame,
    func: str,
    *,
    truth: str,
    features: Sequence[str] | None,
    instance: str | None,
) -> Prepared:
    data_lf, eager = to_lazy(data, func)
    split_lf, _ = to_lazy(splits, func)
    data_schema = data_lf.collect_schema()
    split_schema = split_lf.collect_schema()
    kind = split_kind(split_schema, func)
    _DATA.compile(data_schema, func, truth=truth)
    if instance is None:
        if "instance" in data_schema:
            raise InvalidParameterError(
                f"{func}(): instance= is required when data has a column named 'instance', got "
                "None.\nHint: pass instance='instance'."
            )
        if "instance" not in split_schema:
            raise ColumnNotFoundError(
                f"{func}(): splits must have the column 'instance' (the row position the split "
                f"functions add when instance= is not given), got columns "
                f"{list(split_schema.names())}.\nHint: pass instance= naming the key column of "
                "both frames."
            )
        data_lf = data_lf.with_row_index("instance")
        key = "instance"
    else:
        _DATA.compile(data_schema, func, instance=instance)
        if instance not in split_schema:
            raise ColumnNotFoundError(
                f"{func}(): column {instance!r} (instance=) not found in splits, got columns "
                f"{list(split_schema.names())}."
            )
        key = instance
    reserved = {truth, key, *SPLIT_COLUMNS}
    if features is None:
        feats = [c for c in data_schema.names() if c not in reserved]
    else:
        check_parameter(
            not isinstance(features, str) and len(features) > 0,
            func,
            f"features must be a non-empty list of column names, got {features!r}.",
        )
        feats = list(features)
        _DATA.compile(data_schema, func, features=feats)
        check_parameter(
            truth not in feats,
            func,
            f"features must not include the truth column {truth!r}, got it.",
        )
    data_df = collect(data_lf.select(key, truth, *[f for f in feats if f != key]))
    dups = data_df.select(pl.col(key).is_duplicated().sum()).item()
    if dups:
        raise DuplicateKeyError(
            f"{func}(): column {key!r} (instance=) must hold unique values in data, got {dups} "
            "rows with a repeated key."
        )
    assign = collect(split_lf.select(key, "repeat", kind))
    full = assign.join(
        data_df.with_columns(pl.lit(True).alias("__fe_found")),
        on=key,
        how="left",
        maintain_order="left",
    )
    missing = full.select(pl.col("__fe_found").null_count()).item()
    if missing:
        example = full.filter(pl.col("__fe_found").is_null())[key][0]
        raise UnknownLabelError(
            f"{func}(): every instance of splits must be in data, got {missing} split rows "
            f"without a match (e.g. {key}={example!r}).\nHint: build splits from the same data, or "
            "pass instance= with a key column present in both."
        )
    return Prepared(full.drop("__fe_found"), kind, key, truth, feats, eager)


def split_frames(
    prep: Prepared, part: pl.DataFrame, fold: int
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The training rows and the held-out rows (with a ``role`` column) of one split
    (``part``: the rows of its repeat)."""
    train, held = split_rows(part, prep.kind, fold)
    if prep.kind != "role":
        held = held.with_columns(pl.lit("test").alias("role"))
    return train, held


def meta_frame(frame: pl.DataFrame, prep: Prepared, role: str | None = None) -> pl.DataFrame:
    role_expr = pl.lit(role) if role is not None else pl.col("role").cast(pl.String)
    return frame.select(
        pl.col(prep.key).alias("instance"),
        pl.col(prep.truth).alias("truth"),
        role_expr.alias("role"),
    )


def output_schema(prep: Prepared, columns: list[str], outcome: Outcome) -> dict[str, Any]:
    dtypes = {
        "learner": pl.String,
        "repeat": pl.Int32,
        "fold": pl.Int32,
        "role": pl.String,
        "instance": prep.full.schema[prep.key],
        "truth": prep.full.schema[prep.truth],
        "train_size": pl.Int64,
    }
    schema = {c: dtypes.get(c, pl.Null) for c in columns}
    pred = outcome.frames[0]["pred"].dtype if outcome.frames else prep.full.schema[prep.truth]
    schema["pred"] = pred
    schema["score"] = pl.Float64
    return schema
