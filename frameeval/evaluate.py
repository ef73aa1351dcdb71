"""Run user models over evaluation splits and collect the long result frame (DESIGN §1).

:func:`evaluate` is the bridge between the split frames of :mod:`frameeval.split` and every other
module: it trains each learner on every training set and returns one row per (learner, split,
test instance) with ``learner, repeat, fold, instance, truth, pred, score``. Because all learners
run on the same split frame, their results are paired split by split — what the comparison tests
of section 2.4 require (different learners must see identical divisions of the data).

A *learner* is any callable ``fit_predict(train, test)``:

* ``train`` — a ``pl.DataFrame`` with the feature columns and the truth column (under its own
  name), one row per training instance (a bootstrap sample repeats rows);
* ``test`` — a ``pl.DataFrame`` with the feature columns only (the labels are withheld);
* it returns one prediction per test row, in the order of ``test``: either a sequence of hard
  labels (list, NumPy array, pandas or Polars Series) used as ``pred``, or a ``pl.DataFrame`` /
  ``dict`` with a ``pred`` column and/or a ``score`` column (a float, larger = more positive).

It can wrap any library (scikit-learn via :func:`sklearn_learner`, a torch model, a rule).
Running user code is inherently eager: these functions collect their inputs (a LazyFrame input
gives a LazyFrame over the collected result) and loop in Python over splits × learners — never
over rows.
"""

from __future__ import annotations

import copy
import math
import multiprocessing
import os
import pickle
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Literal

import polars as pl

from frameeval._deprecation import renamed_argument
from frameeval._frame import collect, to_lazy
from frameeval._split_frame import SPLIT_COLUMNS, key_expr, mix_column, split_kind, stream_salt
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval._validate import check_parameter, require_columns
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    FrameEvalError,
    InvalidParameterError,
    UnknownLabelError,
)

__all__ = [
    "LearnerError",
    "LearnerWarning",
    "evaluate",
    "learning_curve",
    "sklearn_learner",
    "validation_curve",
]

FitPredict = Callable[[pl.DataFrame, pl.DataFrame], Any]
Progress = bool | Callable[[int, int, str], None] | None
Errors = Literal["raise", "collect"]

_SALT_SUBSET = 0x1EA9_4C04_7E00_0001
_FAILURE_SCHEMA = {
    "learner": pl.String,
    "repeat": pl.Int32,
    "fold": pl.Int32,
    "error": pl.String,
}


class LearnerError(FrameEvalError, RuntimeError):
    """A learner raised on a split (``on_error="raise"``).

    Attributes
    ----------
    results
        The result frame of the fits that finished before the failure.
    failures
        ``learner, repeat, fold, error`` of the failed fit(s).
    """

    def __init__(self, message: str, results: pl.DataFrame, failures: pl.DataFrame) -> None:
        super().__init__(message)
        self.results = results
        self.failures = failures


class LearnerWarning(UserWarning):
    """Some fits failed and were left out (``on_error="collect"``); ``.failures`` lists them."""

    def __init__(self, message: str, failures: pl.DataFrame) -> None:
        super().__init__(message)
        self.failures = failures


# ---------------------------------------------------------------------------------------------
# the task runner (loops over splits × learners: it runs user code)
# ---------------------------------------------------------------------------------------------
@dataclass
class _Task:
    learner: str
    fit_predict: FitPredict
    keys: dict[str, Any]  # repeat, fold and any extra key (train_size, …)
    train: pl.DataFrame  # features + truth
    predict: pl.DataFrame  # features of the rows to predict
    meta: pl.DataFrame  # instance, truth, role of those rows (aligned)

    @property
    def where(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self.keys.items())


@dataclass
class _Outcome:
    frames: list[pl.DataFrame] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)


def _call(fit_predict: FitPredict, train: pl.DataFrame, predict: pl.DataFrame) -> Any:
    """Run one learner (module level, so worker processes can unpickle it)."""
    result = fit_predict(train, predict)
    return _as_frame(result, predict.height)


def _as_frame(result: Any, n: int) -> pl.DataFrame:
    """A learner's return value as a ``pred, score`` frame of ``n`` rows (raises on bad shape)."""
    if isinstance(result, Mapping):
        result = pl.DataFrame({k: result[k] for k in ("pred", "score") if k in result})
    if isinstance(result, pl.DataFrame):
        if "pred" not in result.columns and "score" not in result.columns:
            raise ValueError(
                f"a returned frame needs a 'pred' or a 'score' column, got columns {result.columns}"
            )
        pred = result["pred"] if "pred" in result.columns else pl.Series("pred", [None] * n)
        score = result["score"] if "score" in result.columns else None
    else:
        module = type(result).__module__.split(".")[0]
        if module == "pandas":
            result = result.to_numpy()
        pred = result if isinstance(result, pl.Series) else pl.Series("pred", result)
        score = None
        if pred.dtype.is_nested():
            raise ValueError(
                "predictions must be one label per test row (1-D), got a nested or 2-D value; "
                "return {'pred': labels, 'score': scores} for several outputs"
            )
    if pred.len() != n:
        raise ValueError(f"expected {n} predictions (one per test row), got {pred.len()}")
    score = (
        pl.Series("score", [None] * n, dtype=pl.Float64)
        if score is None
        else pl.Series("score", score).cast(pl.Float64)
    )
    if score.len() != n:
        raise ValueError(f"expected {n} scores (one per test row), got {score.len()}")
    return pl.DataFrame([pred.alias("pred"), score])


class _Reporter:
    """Progress on stderr (a one-line counter with elapsed and remaining time), or a callback."""

    def __init__(self, progress: Progress, total: int, func: str) -> None:
        self.total, self.done, self.func = total, 0, func
        self.start = time.perf_counter()
        self.callback = progress if callable(progress) else None
        if progress is None:
            progress = bool(getattr(sys.stderr, "isatty", lambda: False)())
        self.enabled = bool(progress) and self.callback is None

    def step(self, what: str) -> None:
        self.done += 1
        if self.callback is not None:
            self.callback(self.done, self.total, what)
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        left = elapsed / self.done * (self.total - self.done)
        width = 20
        filled = int(width * self.done / max(self.total, 1))
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write(
            f"\r{self.func}: [{bar}] {self.done}/{self.total} fits, {elapsed:.1f} s elapsed, "
            f"~{left:.1f} s left ({what})\x1b[K"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _check_picklable(learners: Mapping[str, FitPredict], func: str) -> None:
    for name, fit_predict in learners.items():  # loop-ok: a handful of learners
        try:
            pickle.dumps(fit_predict)
        except Exception as err:  # any pickling failure means the same thing
            raise InvalidParameterError(
                f"{func}(): learner {name!r} must be picklable for n_jobs > 1, got "
                f"{type(err).__name__}: {err}.\nHint: define it at module level (not a lambda or "
                "a local function), or use n_jobs=1."
            ) from None


def _run(
    func: str,
    tasks: Iterator[_Task],
    total: int,
    *,
    n_jobs: int,
    progress: Progress,
    errors: Errors,
) -> _Outcome:
    """Run the tasks (in-process or on a spawn-based process pool with a bounded queue)."""
    outcome = _Outcome()
    reporter = _Reporter(progress, total, func)

    def record(task: _Task, result: pl.DataFrame | None, exc: BaseException | None) -> None:
        reporter.step(f"{task.learner}, {task.where}")
        if exc is None and result is not None:
            frame = pl.concat(
                [
                    task.meta,
                    pl.DataFrame({"learner": [task.learner] * task.meta.height}),
                    result,
                ],
                how="horizontal",
            ).with_columns(
                [pl.lit(v).alias(k) for k, v in task.keys.items()]  # loop-ok: few keys
            )
            outcome.frames.append(frame)
            return
        assert exc is not None
        outcome.failures.append(
            {
                "learner": task.learner,
                "repeat": task.keys.get("repeat"),
                "fold": task.keys.get("fold"),
                "error": f"{type(exc).__name__}: {exc}",
                "_task": task,
                "_exc": exc,
            }
        )
        if errors == "raise":
            raise _Stop

    try:
        if n_jobs == 1:
            for task in tasks:  # loop-ok: runs user models per split
                try:
                    result = _call(task.fit_predict, task.train, task.predict)
                except Exception as exc:  # reported with the learner and split that failed
                    record(task, None, exc)
                else:
                    record(task, result, None)
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=n_jobs, mp_context=context) as pool:
                pending: dict[Future[Any], _Task] = {}
                try:
                    for task in tasks:  # loop-ok: runs user models per split
                        pending[pool.submit(_call, task.fit_predict, task.train, task.predict)] = (
                            task
                        )
                        while len(pending) >= 2 * n_jobs:
                            _drain(pending, record)
                    while pending:
                        _drain(pending, record)
                except _Stop:
                    for future in pending:  # loop-ok: cancel what has not started
                        future.cancel()
                    raise
    except _Stop:
        pass
    finally:
        reporter.close()
    return outcome


class _Stop(Exception):
    """Internal: stop at the first failure (on_error="raise")."""


def _drain(pending: dict[Future[Any], _Task], record: Callable[..., None]) -> None:
    """Wait for at least one fit to finish and record every finished one."""
    done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
    for future in done:  # loop-ok: finished fits
        task = pending.pop(future)
        exc = future.exception()
        record(task, None if exc else future.result(), exc)


def _results(
    outcome: _Outcome, func: str, sort_keys: list[str], schema: dict[str, Any]
) -> pl.DataFrame:
    if not outcome.frames:
        return pl.DataFrame(schema=schema)
    try:
        out = pl.concat(outcome.frames, how="diagonal_relaxed")
    except pl.exceptions.PolarsError as err:
        raise InvalidParameterError(
            f"{func}(): learners must return predictions of one type across splits, got "
            f"incompatible types ({err})."
        ) from None
    casts = [
        pl.col(c) if c in ("pred", "instance", "truth") else pl.col(c).cast(dtype)
        for c, dtype in schema.items()  # loop-ok: a few columns
    ]
    return out.select(casts).sort(sort_keys, maintain_order=True)


def _finish_errors(outcome: _Outcome, func: str, errors: Errors, results: pl.DataFrame) -> None:
    if not outcome.failures:
        return
    failures = pl.DataFrame(
        [{k: f[k] for k in _FAILURE_SCHEMA} for f in outcome.failures],
        schema=_FAILURE_SCHEMA,
    )
    first = outcome.failures[0]
    task: _Task = first["_task"]
    if errors == "raise":
        raise LearnerError(
            f"{func}(): learner {task.learner!r} must succeed on every split, got "
            f"{first['error']} on {task.where}.\nHint: on_error='collect' skips failed fits; the "
            "finished ones are in this exception's .results.",
            results,
            failures,
        ) from first["_exc"]
    listed = "; ".join(
        f"{f['learner']!r} on repeat={f['repeat']}, fold={f['fold']}: {f['error']}"
        for f in outcome.failures[:5]  # loop-ok: message text
    )
    more = f" (and {len(outcome.failures) - 5} more)" if len(outcome.failures) > 5 else ""
    warnings.warn(
        LearnerWarning(
            f"{func}(): {len(outcome.failures)} fit(s) failed and were left out: {listed}{more}.",
            failures,
        ),
        stacklevel=3,
    )


# ---------------------------------------------------------------------------------------------
# preparing data and splits
# ---------------------------------------------------------------------------------------------
@dataclass
class _Prepared:
    full: pl.DataFrame  # the split rows with features and truth joined
    kind: str
    key: str
    truth: str
    features: list[str]
    eager: bool


def _check_common(
    func: str,
    learners: Mapping[str, FitPredict],
    n_jobs: Any,
    errors: Any,
    progress: Any,
) -> int:
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
        progress is None or isinstance(progress, bool) or callable(progress),
        func,
        f"progress must be None, a bool or a callable, got {progress!r}.",
    )
    ok = n_jobs is None or (
        isinstance(n_jobs, int) and not isinstance(n_jobs, bool) and (n_jobs >= 1 or n_jobs == -1)
    )
    check_parameter(ok, func, f"n_jobs must be an integer >= 1, -1 or None, got {n_jobs!r}.")
    jobs = (os.cpu_count() or 1) if n_jobs in (None, -1) else int(n_jobs)
    if jobs > 1:
        _check_picklable(learners, func)
    return jobs


def _prepare(
    data: IntoFrame,
    splits: IntoFrame,
    func: str,
    *,
    truth: str,
    features: Sequence[str] | None,
    instance: str | None,
) -> _Prepared:
    data_lf, eager = to_lazy(data, func)
    split_lf, _ = to_lazy(splits, func)
    data_schema = data_lf.collect_schema()
    split_schema = split_lf.collect_schema()
    kind = split_kind(split_schema, func)
    require_columns(data_schema, func, truth=truth)
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
        require_columns(data_schema, func, instance=instance)
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
        require_columns(data_schema, func, features=feats)
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
    return _Prepared(full.drop("__fe_found"), kind, key, truth, feats, eager)


def _split_ids(prep: _Prepared) -> list[tuple[int, int]]:
    """(repeat, fold) of every split, sorted; fold is 0 for role and count splits."""
    if prep.kind == "fold":
        ids = prep.full.select("repeat", "fold").unique().sort("repeat", "fold")
        return [(int(r), int(f)) for r, f in ids.iter_rows()]  # loop-ok: split ids, not data rows
    return [(int(r), 0) for r in prep.full["repeat"].unique().sort().to_list()]


def _split_frames(
    prep: _Prepared, by_repeat: dict[Any, pl.DataFrame], repeat: int, fold: int
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The training rows and the held-out rows (with a ``role`` column) of one split."""
    part = by_repeat[repeat]
    if prep.kind == "fold":
        train = part.filter(pl.col("fold") != fold)
        held = part.filter(pl.col("fold") == fold).with_columns(pl.lit("test").alias("role"))
    elif prep.kind == "role":
        train = part.filter(pl.col("role") == "train")
        held = part.filter(pl.col("role") != "train")
    else:
        train = (
            part.filter(pl.col("count") > 0)
            .with_columns(pl.int_ranges(pl.col("count")).alias("__fe_copy"))
            .explode("__fe_copy")
            .drop("__fe_copy")
        )
        held = part.filter(pl.col("count") == 0).with_columns(pl.lit("test").alias("role"))
    return train, held


def _meta(frame: pl.DataFrame, prep: _Prepared, role: str | None = None) -> pl.DataFrame:
    role_expr = pl.lit(role) if role is not None else pl.col("role").cast(pl.String)
    return frame.select(
        pl.col(prep.key).alias("instance"),
        pl.col(prep.truth).alias("truth"),
        role_expr.alias("role"),
    )


# ---------------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------------
@frame_function
def evaluate(
    data: IntoFrame,
    splits: IntoFrame,
    learners: Mapping[str, FitPredict],
    *,
    truth: str,
    features: Sequence[str] | None = None,
    instance: str | None = None,
    train: bool = False,
    n_jobs: int | None = 1,
    progress: Progress = None,
    on_error: Errors = "raise",
    errors: Errors | None = None,
) -> Frame:
    """Train and test every learner on every split; the long result frame of DESIGN §1.

    Parameters
    ----------
    data
        The instances: feature columns, the ``truth`` column and (optionally) a key column.
    splits
        A split frame of :mod:`frameeval.split` (``kfold``, ``loo``, ``cv5x2``, ``holdout``,
        ``train_val_test``, ``bootstrap``) — made from ``data`` or from any frame with the same
        keys. Only its key, ``repeat`` and ``fold`` / ``role`` / ``count`` columns are read.
    learners
        ``{name: fit_predict}``; see the module docstring for the contract. All learners see
        exactly the same splits, so their results are paired.
    truth
        The label (or target) column of ``data``.
    features
        Columns passed to the learners (default: every column of ``data`` except ``truth``, the
        key and split columns).
    instance
        Key column present in both ``data`` and ``splits``. Default: the row position — ``data``
        must then be in the order the splits were made from (the split functions add the column
        ``instance``).
    train
        Also predict the training rows of every split (``role == "train"``), e.g. for apparent
        errors, learning curves or :func:`frameeval.split.efron632`.
    n_jobs
        Number of worker processes (``-1`` / ``None``: one per CPU). With more than one, learners
        must be picklable (module-level functions or objects) and run in fresh ``spawn``
        processes; results are identical to ``n_jobs=1``.
    progress
        ``True`` prints a progress line on stderr; ``None`` (default) does so only when stderr is
        a terminal; a callable receives ``(done, total, description)`` after every fit.
    on_error
        ``"raise"`` stops at the first failing fit and raises :class:`LearnerError` naming the
        learner and the split, with the finished results attached (``.results``);
        ``"collect"`` skips failed fits, warns once (:class:`LearnerWarning`, with
        ``.failures``) and returns the rest. (``errors=`` is its deprecated alias, for one
        release.)

    Returns
    -------
    Same kind as ``data`` (computed eagerly: a LazyFrame input gives a LazyFrame over the
    collected result), one row per learner × split × predicted instance:

    ``learner`` (String), ``repeat``, ``fold`` (Int32; 0 for hold-out and bootstrap splits),
    ``role`` (String; only when ``train=True`` or for ``role`` splits: ``"train"``,
    ``"validation"``, ``"test"``), ``instance`` (the key), ``truth`` (the label), ``pred`` (the
    learner's label, null if it returned only scores) and ``score`` (Float64, null if none).
    Sorted by learner, repeat, fold, role, instance.

    One rule for names: the output uses the data contract's column names whatever the input's
    (the ``truth=`` column comes out as ``truth``, the key as ``instance``), so every result
    frame reads the same; :func:`learning_curve` and :func:`validation_curve` accept a
    ``metric=`` over either name (``fe.accuracy("y", "pred")`` or ``fe.accuracy("truth",
    "pred")``).

    Raises
    ------
    ColumnNotFoundError, DuplicateKeyError, UnknownLabelError
        Missing columns, a key repeated in ``data``, split instances absent from ``data``.
    LearnerError
        A learner failed (``on_error="raise"``).

    Notes
    -----
    The test rows of every split are predicted by a model that never saw them, so the frame
    feeds every measure of section 2.3 (``by=["learner", "repeat", "fold"]`` for per-fold values)
    and the paired tests of section 2.4. After choosing a learner, retrain it on all of D: the
    split models exist only to estimate its performance (section 2.2.4).

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": range(6), "x": [0.1, 0.4, 0.35, 0.8, 0.9, 0.7],
    ...                    "y": [0, 0, 0, 1, 1, 1]})
    >>> splits = fe.split.kfold(df, k=3, stratify="y", instance="id", seed=0)
    >>> rule = lambda train, test: (test["x"] > 0.5).cast(pl.Int64)
    >>> res = fe.evaluate(df, splits, {"rule": rule}, truth="y", features=["x"], instance="id")
    >>> res.columns
    ['learner', 'repeat', 'fold', 'instance', 'truth', 'pred', 'score']
    >>> res.group_by("learner").agg(fe.accuracy("truth", "pred"))["accuracy"].to_list()
    [1.0]
    """
    func = "evaluate"
    errors = renamed_argument(func, "errors", "on_error", errors, on_error, "the same policy")
    jobs = _check_common(func, learners, n_jobs, errors, progress)
    check_parameter(isinstance(train, bool), func, f"train must be True or False, got {train!r}.")
    prep = _prepare(data, splits, func, truth=truth, features=features, instance=instance)
    ids = _split_ids(prep)
    by_repeat = prep.full.partition_by("repeat", as_dict=True, maintain_order=True)
    by_repeat = {k[0]: v for k, v in by_repeat.items()}  # loop-ok: one entry per repeat
    with_role = train or prep.kind == "role"

    def tasks() -> Iterator[_Task]:
        for repeat, fold in ids:  # loop-ok: runs user models per split
            train_rows, held = _split_frames(prep, by_repeat, repeat, fold)
            fit_on = train_rows.select(*prep.features, prep.truth)
            meta = _meta(held, prep)
            predict = held.select(prep.features)
            if train:
                meta = pl.concat([meta, _meta(train_rows, prep, "train")])
                predict = pl.concat([predict, train_rows.select(prep.features)])
            for name, fit_predict in learners.items():  # loop-ok: runs user models per split
                yield _Task(
                    name,
                    fit_predict,
                    {"repeat": repeat, "fold": fold},
                    fit_on,
                    predict,
                    meta,
                )

    outcome = _run(
        func, tasks(), len(ids) * len(learners), n_jobs=jobs, progress=progress, errors=errors
    )
    columns = ["learner", "repeat", "fold", *(["role"] if with_role else []), "instance", "truth"]
    schema = _output_schema(prep, columns, outcome)
    results = _results(outcome, func, [c for c in columns if c != "truth"], schema)
    _finish_errors(outcome, func, errors, results)
    return results if prep.eager else results.lazy()


def _output_schema(prep: _Prepared, columns: list[str], outcome: _Outcome) -> dict[str, Any]:
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


def _default_metric() -> pl.Expr:
    from frameeval.metrics import error_rate

    return error_rate("truth", "pred")


def _scores(
    results: pl.DataFrame,
    keys: list[str],
    metric: pl.Expr,
    func: str,
    names: Mapping[str | None, str] | None = None,
) -> pl.DataFrame:
    """Per split × role: the metric, with ``test`` renamed ``validation`` (model selection).

    ``names`` maps the user's column names to the output's (``{"y": "truth"}``): the metric may
    use either (one rule: the output uses the data contract's names; the user's own work too)."""
    extra = [
        pl.col(ours).alias(theirs)
        for theirs, ours in (names or {}).items()
        if theirs is not None and theirs not in results.columns
    ]
    if extra:
        results = results.with_columns(extra)
    if results.filter(pl.col("role") == "validation").height:
        # train / validation / test splits: tuning never looks at the test set
        results = results.filter(pl.col("role") != "test")
    else:
        results = results.with_columns(
            pl.when(pl.col("role") == "test")
            .then(pl.lit("validation"))
            .otherwise(pl.col("role"))
            .alias("role")
        )
    by = [*keys, "repeat", "fold", "role"]
    try:
        out = results.group_by(by).agg(metric)
    except pl.exceptions.PolarsError as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InvalidParameterError(
            f"{func}(): metric must be an aggregate expression over the columns "
            f"{sorted(results.columns)}, got an error: {first}"
        ) from None
    return out.sort(by)


def _check_metric(metric: Any, func: str) -> pl.Expr:
    if metric is None:
        return _default_metric()
    check_parameter(
        isinstance(metric, pl.Expr),
        func,
        "metric must be a Polars expression over the columns 'truth', 'pred', 'score' (e.g. "
        f"fe.error_rate('truth', 'pred')), got {type(metric).__name__}.",
    )
    return metric


@frame_function
def learning_curve(
    data: IntoFrame,
    splits: IntoFrame,
    learners: Mapping[str, FitPredict],
    *,
    truth: str,
    train_sizes: Sequence[float] = (0.1, 0.325, 0.55, 0.775, 1.0),
    features: Sequence[str] | None = None,
    instance: str | None = None,
    metric: pl.Expr | None = None,
    seed: int = 0,
    n_jobs: int | None = 1,
    progress: Progress = None,
    on_error: Errors = "raise",
    errors: Errors | None = None,
) -> Frame:
    """Training and validation error against the size of the training set.

    For every split and every size, the learner is trained on a seeded subset of the split's
    training rows (the subsets are nested: a smaller one is a prefix of a larger one) and scored
    on that subset (``train``) and on the split's held-out rows (``validation``). High bias
    (under-fitting) shows as both errors high and close together; high variance (over-fitting)
    as a wide gap that closes as data are added — then more data help (notes §2.5.3).

    Parameters
    ----------
    data, splits, learners, truth, features, instance, n_jobs, progress, on_error
        As in :func:`evaluate`.
    train_sizes
        Fractions in (0, 1] of each split's training set, or integers ≥ 1 (row counts, at most
        the smallest training set).
    metric
        Aggregate expression over ``truth``, ``pred`` and ``score`` (default
        ``fe.error_rate("truth", "pred")``); its output name names the value column.
    seed
        Seed of the subset order (integer in [0, 2**64)).

    Returns
    -------
    Same kind as ``data``: ``learner, train_size, repeat, fold, role, <metric>`` — ``train_size``
    (Int64) is the number of training rows used, ``role`` is ``"train"`` or ``"validation"``.
    Sorted by those keys.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": range(8), "x": [0, 1, 2, 3, 4, 5, 6, 7],
    ...                    "y": [0, 0, 0, 0, 1, 1, 1, 1]})
    >>> splits = fe.split.kfold(df, k=2, stratify="y", instance="id")
    >>> rule = lambda train, test: (test["x"] > 3.5).cast(pl.Int64)
    >>> lc = fe.learning_curve(df, splits, {"rule": rule}, truth="y", instance="id",
    ...                        features=["x"], train_sizes=[0.5, 1.0])
    >>> lc.columns
    ['learner', 'train_size', 'repeat', 'fold', 'role', 'error_rate']
    >>> lc["error_rate"].max()
    0.0
    """
    func = "learning_curve"
    errors = renamed_argument(func, "errors", "on_error", errors, on_error, "the same policy")
    jobs = _check_common(func, learners, n_jobs, errors, progress)
    expr = _check_metric(metric, func)
    ok = (
        isinstance(train_sizes, Sequence)
        and not isinstance(train_sizes, str)
        and len(train_sizes) > 0
        and all(
            (isinstance(s, int) and not isinstance(s, bool) and s >= 1)
            or (isinstance(s, float) and 0 < s <= 1)
            for s in train_sizes
        )
    )
    check_parameter(
        ok,
        func,
        f"train_sizes must be fractions in (0, 1] or integers >= 1, got {train_sizes!r}.",
    )
    ok_seed = isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**64
    check_parameter(ok_seed, func, f"seed must be an integer in [0, 2**64), got {seed!r}.")
    prep = _prepare(data, splits, func, truth=truth, features=features, instance=instance)
    key_u64 = key_expr(prep.key, prep.full.schema[prep.key], func, "instance")
    full = prep.full.with_columns(key_u64.alias("__fe_key"))
    prep = _Prepared(full, prep.kind, prep.key, prep.truth, prep.features, prep.eager)
    ids = _split_ids(prep)
    by_repeat = {
        k[0]: v
        for k, v in full.partition_by("repeat", as_dict=True).items()  # loop-ok: fits user models
    }  # loop-ok: one frame per repeat to run user models
    n_train = _train_counts(prep)
    plans = []
    for repeat, fold in ids:  # loop-ok: one entry per split (sizes are resolved up front)
        n = n_train[(repeat, fold)]
        sizes = sorted({_size(s, n, func) for s in train_sizes})  # loop-ok: few sizes
        plans.append((repeat, fold, sizes))

    def tasks() -> Iterator[_Task]:
        for repeat, fold, sizes in plans:  # loop-ok: runs user models per split
            train_rows, held = _split_frames(prep, by_repeat, repeat, fold)
            salt = stream_salt(seed, _SALT_SUBSET, repeat, fold)
            order = mix_column(
                train_rows.lazy().with_columns(
                    (pl.col("__fe_key") ^ pl.lit(salt, pl.UInt64)).alias("__fe_hash")
                ),
                "__fe_hash",
            )
            ordered = order.sort("__fe_hash", maintain_order=True).collect()
            held_meta = _meta(held, prep)
            for size in sizes:  # loop-ok: runs user models per training-set size
                subset = ordered.head(size)
                meta = pl.concat([held_meta, _meta(subset, prep, "train")])
                predict = pl.concat([held.select(prep.features), subset.select(prep.features)])
                for name, fit_predict in learners.items():  # loop-ok: runs user models
                    yield _Task(
                        name,
                        fit_predict,
                        {"repeat": repeat, "fold": fold, "train_size": size},
                        subset.select(*prep.features, prep.truth),
                        predict,
                        meta,
                    )

    total = sum(len(p[2]) for p in plans) * len(learners)
    outcome = _run(func, tasks(), total, n_jobs=jobs, progress=progress, errors=errors)
    columns = ["learner", "train_size", "repeat", "fold", "role", "instance", "truth"]
    schema = _output_schema(prep, columns, outcome)
    results = _results(outcome, func, ["learner", "train_size", "repeat", "fold", "role"], schema)
    _finish_errors(outcome, func, errors, results)
    names: dict[str | None, str] = {prep.truth: "truth", prep.key: "instance"}
    out = _scores(results, ["learner", "train_size"], expr, func, names)
    return out if prep.eager else out.lazy()


def _train_counts(prep: _Prepared) -> dict[tuple[int, int], int]:
    """Training-set size of every split, from counts (no split frames built)."""
    full = prep.full
    if prep.kind == "fold":
        per_fold = full.group_by("repeat", "fold").agg(pl.len().cast(pl.Int64).alias("n_fold"))
        out = per_fold.with_columns(
            (pl.col("n_fold").sum().over("repeat") - pl.col("n_fold")).alias("n")
        )
    elif prep.kind == "role":
        out = (
            full.group_by("repeat")
            .agg((pl.col("role") == "train").sum().cast(pl.Int64).alias("n"))
            .with_columns(pl.lit(0).alias("fold"))
        )
    else:
        out = (
            full.group_by("repeat")
            .agg(pl.col("count").cast(pl.Int64).sum().alias("n"))
            .with_columns(pl.lit(0).alias("fold"))
        )
    return {
        (int(r), int(f)): int(n)
        for r, f, n in out.select("repeat", "fold", "n").iter_rows()  # loop-ok: split sizes
    }  # loop-ok: tiny (repeat, fold) size table


def _size(size: float, n: int, func: str) -> int:
    if isinstance(size, float):
        return max(1, min(n, math.floor(size * n + 0.5)))
    if size > n:
        raise InvalidParameterError(
            f"{func}(): train_sizes must not exceed the training set size, got {size} with a "
            f"training set of {n} rows."
        )
    return size


@frame_function
def validation_curve(
    data: IntoFrame,
    splits: IntoFrame,
    learner: Callable[[Any], FitPredict],
    param: str,
    values: Sequence[Any],
    *,
    truth: str,
    features: Sequence[str] | None = None,
    instance: str | None = None,
    metric: pl.Expr | None = None,
    n_jobs: int | None = 1,
    progress: Progress = None,
    on_error: Errors = "raise",
    errors: Errors | None = None,
) -> Frame:
    """Training and validation error against the value of one hyper-parameter.

    ``learner(value)`` builds the learner for each candidate value (the book's parameter
    tuning over a grid with a step, section 2.2.4); each is trained on every split. A small
    training error with a large validation error signals high variance (over-fitting); both
    large, high bias (under-fitting) — notes §2.5.2. The value with the lowest validation error
    is chosen on the validation data only; the test set stays untouched.

    Parameters
    ----------
    data, splits, truth, features, instance, n_jobs, progress, on_error
        As in :func:`evaluate`.
    learner
        ``learner(value) -> fit_predict``.
    param
        Name of the output column holding the parameter value (e.g. ``"C"``).
    values
        The candidate values.
    metric
        As in :func:`learning_curve`.

    Returns
    -------
    Same kind as ``data``: ``<param>, repeat, fold, role, <metric>`` with ``role`` ``"train"``
    or ``"validation"``, sorted by parameter value (in the order given), repeat, fold, role.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": range(8), "x": [0, 1, 2, 3, 4, 5, 6, 7],
    ...                    "y": [0, 0, 0, 0, 1, 1, 1, 1]})
    >>> splits = fe.split.kfold(df, k=2, stratify="y", instance="id")
    >>> def threshold(t):
    ...     return lambda train, test: (test["x"] > t).cast(pl.Int64)
    >>> vc = fe.validation_curve(df, splits, threshold, "t", [1.5, 3.5], truth="y",
    ...                          instance="id", features=["x"])
    >>> vc.group_by("t").agg(pl.col("error_rate").mean()).sort("t")["error_rate"].to_list()
    [0.25, 0.0]
    """
    func = "validation_curve"
    errors = renamed_argument(func, "errors", "on_error", errors, on_error, "the same policy")
    check_parameter(callable(learner), func, f"learner must be callable, got {learner!r}.")
    check_parameter(isinstance(param, str), func, f"param must be a column name, got {param!r}.")
    check_parameter(
        isinstance(values, Sequence) and not isinstance(values, str) and len(values) > 0,
        func,
        f"values must be a non-empty sequence, got {values!r}.",
    )
    check_parameter(
        param not in ("repeat", "fold", "role"),
        func,
        f"param must not be an output column name, got {param!r}.",
    )
    learners = {str(i): learner(v) for i, v in enumerate(values)}  # loop-ok: candidate values
    expr = _check_metric(metric, func)
    res = evaluate(
        data,
        splits,
        learners,
        truth=truth,
        features=features,
        instance=instance,
        train=True,
        n_jobs=n_jobs,
        progress=progress,
        on_error=errors,
    )
    lazy = isinstance(res, pl.LazyFrame)
    got = res.collect() if isinstance(res, pl.LazyFrame) else res
    got = got.with_columns(pl.col("learner").cast(pl.Int64).alias("__fe_index"))
    out = _scores(got, ["__fe_index"], expr, func, {truth: "truth", instance: "instance"})
    table = pl.DataFrame(
        {
            "__fe_index": list(range(len(values))),
            param: pl.Series(param, list(values), strict=False),
        }
    )
    out = table.join(out, on="__fe_index", how="inner").sort("__fe_index", "repeat", "fold", "role")
    out = out.drop("__fe_index")
    return out.lazy() if lazy else out


class sklearn_learner:  # lower case: used like a function
    """Wrap a scikit-learn estimator as a ``fit_predict(train, test)`` learner.

    Each call fits a fresh clone of ``estimator`` on the training frame's feature columns (as a
    NumPy array) against ``truth`` and predicts the test frame. The score is, for a binary
    classifier, ``predict_proba`` of the positive class (``pos_label``, default the larger
    class) or else ``decision_function``; other estimators return no score. Picklable when the
    estimator is, so it works with ``n_jobs > 1``.

    Parameters
    ----------
    estimator
        An unfitted scikit-learn estimator (anything with ``fit`` / ``predict``).
    truth
        The truth column of the training frame.
    pos_label
        The positive class for the score (default: the last of ``estimator.classes_``).
    score
        ``False`` to skip the score.

    Examples
    --------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> import frameeval as fe
    >>> learner = fe.split.sklearn_learner(DecisionTreeClassifier(max_depth=2), truth="y")
    """

    def __init__(
        self, estimator: Any, truth: str, *, pos_label: Any = None, score: bool = True
    ) -> None:
        self.estimator = estimator
        self.truth = truth
        self.pos_label = pos_label
        self.score = score

    def __call__(self, train: pl.DataFrame, test: pl.DataFrame) -> pl.DataFrame:
        try:
            from sklearn.base import clone
        except ImportError:  # pragma: no cover - any object with fit/predict
            clone = copy.deepcopy
        model = clone(self.estimator)
        x = train.drop(self.truth).to_numpy()
        model.fit(x, train[self.truth].to_numpy())
        x_test = test.to_numpy()
        out = {"pred": model.predict(x_test)}
        classes = getattr(model, "classes_", None)
        if self.score and classes is not None and len(classes) == 2:
            pos = classes[-1] if self.pos_label is None else self.pos_label
            index = list(classes).index(pos)
            if hasattr(model, "predict_proba"):
                out["score"] = model.predict_proba(x_test)[:, index]
            elif hasattr(model, "decision_function"):
                sign = 1.0 if index == 1 else -1.0
                out["score"] = sign * model.decision_function(x_test)
        return pl.DataFrame(out)

    def __repr__(self) -> str:
        return f"sklearn_learner({self.estimator!r}, truth={self.truth!r})"
