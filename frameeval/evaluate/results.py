"""evaluate(): every learner trained and tested on every split, giving the long result frame
(DESIGN §1) that the measures, comparison tests and charts consume."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from frameeval._deprecation import renamed_argument
from frameeval._params import FLAG
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval.evaluate._prepare import check_common, prepare
from frameeval.evaluate._runner import Errors, Progress, Task
from frameeval.evaluate.learners import FitPredict
from frameeval.exceptions import (  # linked from evaluate's Raises section
    ColumnNotFoundError,  # noqa: F401
    DuplicateKeyError,  # noqa: F401
    UnknownLabelError,  # noqa: F401
)

__all__ = ["evaluate"]


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
    settings = check_common(func, learners, n_jobs, errors, progress)
    FLAG(func, "train", train)
    prep = prepare(data, splits, func, truth=truth, features=features, instance=instance)
    ids = prep.ids()

    def tasks() -> Iterator[Task]:
        for repeat, fold, train_rows, held in prep.splits(ids):  # loop-ok: runs user models
            keys = {"repeat": repeat, "fold": fold}
            yield from prep.tasks(learners, keys, train_rows, held, train)

    role = ["role"] if train or prep.kind == "role" else []
    columns = ["learner", "repeat", "fold", *role, "instance", "truth"]
    total = len(ids) * len(learners)
    out = prep.run(func, tasks(), total, columns, columns[:-1], settings)  # sorted but by truth
    return out if prep.eager else out.lazy()
