"""Learning curves (the measure against the training-set size) and validation curves (the
measure against a hyper-parameter), from learners run over a split frame."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import polars as pl

from frameeval._deprecation import renamed_argument
from frameeval._params import COUNT, UP_TO_ONE
from frameeval._split_frame import key_expr, mix_column, stream_salt
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval._validate import check_parameter, check_seed
from frameeval.evaluate._prepare import Prepared, check_common, prepare
from frameeval.evaluate._runner import Errors, Progress, Task
from frameeval.evaluate.learners import FitPredict
from frameeval.evaluate.results import evaluate
from frameeval.exceptions import InvalidParameterError
from frameeval.metrics import error_rate

__all__ = ["learning_curve", "validation_curve"]

_SALT_SUBSET = 0x1EA9_4C04_7E00_0001


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
        return error_rate("truth", "pred")
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
    settings = check_common(func, learners, n_jobs, errors, progress)
    expr = _check_metric(metric, func)
    ok = (
        isinstance(train_sizes, Sequence)
        and not isinstance(train_sizes, str)
        and len(train_sizes) > 0
        and all(
            COUNT.holds(s) or (isinstance(s, float) and UP_TO_ONE.holds(s)) for s in train_sizes
        )
    )
    check_parameter(
        ok, func, f"train_sizes must be fractions in (0, 1] or integers >= 1, got {train_sizes!r}."
    )
    check_seed(seed, func)
    prep = prepare(data, splits, func, truth=truth, features=features, instance=instance)
    key_u64 = key_expr(prep.key, prep.full.schema[prep.key], func, "instance")
    full = prep.full.with_columns(key_u64.alias("__fe_key"))
    prep = Prepared(full, prep.kind, prep.key, prep.truth, prep.features, prep.eager)
    ids = prep.ids()
    n_train = _train_counts(prep)
    # the sizes of every split, resolved up front
    plans = [sorted({_size(s, n_train[i], func) for s in train_sizes}) for i in ids]  # loop-ok

    def tasks() -> Iterator[Task]:
        splits = zip(prep.splits(ids), plans, strict=True)
        for (repeat, fold, train_rows, held), sizes in splits:  # loop-ok: runs user models
            salt = stream_salt(seed, _SALT_SUBSET, repeat, fold)
            hashed = (pl.col("__fe_key") ^ pl.lit(salt, pl.UInt64)).alias("__fe_hash")
            order = mix_column(train_rows.lazy().with_columns(hashed), "__fe_hash")
            ordered = order.sort("__fe_hash", maintain_order=True).collect()
            for size in sizes:  # loop-ok: runs user models per training-set size
                keys = {"repeat": repeat, "fold": fold, "train_size": size}
                yield from prep.tasks(learners, keys, ordered.head(size), held, True)

    total = sum(len(sizes) for sizes in plans) * len(learners)
    columns = ["learner", "train_size", "repeat", "fold", "role", "instance", "truth"]
    results = prep.run(func, tasks(), total, columns, columns[:-2], settings)
    names: dict[str | None, str] = {prep.truth: "truth", prep.key: "instance"}
    out = _scores(results, ["learner", "train_size"], expr, func, names)
    return out if prep.eager else out.lazy()


def _train_counts(prep: Prepared) -> dict[tuple[int, int], int]:
    """Training-set size of every split, from counts (no split frames built)."""
    full = prep.full
    if prep.kind == "fold":
        per_fold = full.group_by("repeat", "fold").agg(pl.len().cast(pl.Int64).alias("n_fold"))
        out = per_fold.with_columns(
            (pl.col("n_fold").sum().over("repeat") - pl.col("n_fold")).alias("n")
        )
    else:  # one training set per repeat: its "train" rows, or its drawn counts (bootstrap)
        train = pl.col("role") == "train" if prep.kind == "role" else pl.col("count")
        n = train.cast(pl.Int64).sum().alias("n")
        out = full.group_by("repeat").agg(n).with_columns(pl.lit(0).alias("fold"))
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
    index = pl.Series("__fe_index", list(range(len(values))))
    table = pl.DataFrame([index, pl.Series(param, list(values), strict=False)])
    out = table.join(out, on="__fe_index", how="inner").sort("__fe_index", "repeat", "fold", "role")
    out = out.drop("__fe_index")
    return out.lazy() if lazy else out
