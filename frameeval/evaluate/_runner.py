"""The task runner: one task per (learner, split), run in-process or on a process pool, with
progress, the error policy and the assembly of the results (loops over splits × learners: it
runs user code, never over rows)."""

from __future__ import annotations

import multiprocessing
import pickle
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Literal

import polars as pl

from frameeval.evaluate.learners import FitPredict, LearnerError, LearnerWarning
from frameeval.exceptions import InvalidParameterError

__all__ = [
    "Errors",
    "Outcome",
    "Progress",
    "Task",
    "check_picklable",
    "collect_results",
    "finish_errors",
    "run_tasks",
]

Progress = bool | Callable[[int, int, str], None] | None
Errors = Literal["raise", "collect"]

_FAILURE_SCHEMA = {"learner": pl.String, "repeat": pl.Int32, "fold": pl.Int32, "error": pl.String}


@dataclass
class Task:
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
class Outcome:
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


def check_picklable(learners: Mapping[str, FitPredict], func: str) -> None:
    for name, fit_predict in learners.items():  # loop-ok: a handful of learners
        try:
            pickle.dumps(fit_predict)
        except Exception as err:  # any pickling failure means the same thing
            raise InvalidParameterError(
                f"{func}(): learner {name!r} must be picklable for n_jobs > 1, got "
                f"{type(err).__name__}: {err}.\nHint: define it at module level (not a lambda or "
                "a local function), or use n_jobs=1."
            ) from None


def run_tasks(
    func: str, tasks: Iterator[Task], total: int, *, n_jobs: int, progress: Progress, errors: Errors
) -> Outcome:
    """Run the tasks (in-process or on a spawn-based process pool with a bounded queue)."""
    outcome = Outcome()
    reporter = _Reporter(progress, total, func)

    def record(task: Task, result: pl.DataFrame | None, exc: BaseException | None) -> None:
        reporter.step(f"{task.learner}, {task.where}")
        if exc is None and result is not None:
            frame = pl.concat(
                [task.meta, pl.DataFrame({"learner": [task.learner] * task.meta.height}), result],
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
                pending: dict[Future[Any], Task] = {}
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


def _drain(pending: dict[Future[Any], Task], record: Callable[..., None]) -> None:
    """Wait for at least one fit to finish and record every finished one."""
    done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
    for future in done:  # loop-ok: finished fits
        task = pending.pop(future)
        exc = future.exception()
        record(task, None if exc else future.result(), exc)


def collect_results(
    outcome: Outcome, func: str, sort_keys: list[str], schema: dict[str, Any]
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


def finish_errors(outcome: Outcome, func: str, errors: Errors, results: pl.DataFrame) -> None:
    if not outcome.failures:
        return
    failures = pl.DataFrame(
        [{k: f[k] for k in _FAILURE_SCHEMA} for f in outcome.failures], schema=_FAILURE_SCHEMA
    )
    first = outcome.failures[0]
    task: Task = first["_task"]
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
