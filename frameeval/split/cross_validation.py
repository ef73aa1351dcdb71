"""Cross-validation (chapter 2.2.2): k-fold repeated p times, 5×2 cross-validation (2.4.2) and
leave-one-out, as split frames with a ``fold`` column."""

from __future__ import annotations

import polars as pl

from frameeval._frame import finish
from frameeval._split_frame import stream_salt
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval._validate import failure
from frameeval.exceptions import (
    DuplicateKeyError,  # noqa: F401 - linked from kfold's Raises
    InvalidParameterError,
)
from frameeval.split._plan import (
    POS,
    SALT_ORDER,
    STRATUM,
    TOTAL,
    N,
    Plan,
    assemble,
    check_int,
    prepare,
    repeated,
    unit_base,
)

__all__ = ["cv5x2", "kfold", "loo"]


@frame_function
def kfold(
    data: IntoFrame,
    k: int = 10,
    repeats: int = 1,
    *,
    stratify: str | None = None,
    group: str | None = None,
    instance: str | None = None,
    seed: int = 0,
) -> Frame:
    """p-times-repeated k-fold cross-validation: the fold in which each row is tested (2.2.2).

    The data set D is divided into k disjoint subsets of similar size, D = D_1 ∪ … ∪ D_k; each
    fold is the test set once while the other k − 1 train the model, and the estimate is the
    mean of the k test results. ``repeats=p`` repeats this with p different random divisions
    ("10 times 10-fold cross-validation" is ``k=10, repeats=10``: 100 fits).

    Parameters
    ----------
    data
        The instances (DataFrame or LazyFrame; pandas / pyarrow are converted).
    k
        Number of folds, ``2 <= k <= m`` (m rows, or m groups with ``group=``).
    repeats
        Number of independent divisions p.
    stratify
        Optional class column: every class is spread over the folds within ±1 (stratified
        sampling, the book's 分层采样). Each class must have at least ``k`` rows (or groups).
    group
        Optional column whose equal values stay together (e.g. a patient): whole groups are
        dealt to folds, so each fold has the same number of groups within ±1 (its size in rows
        depends on the group sizes). With ``stratify=`` too, a group counts for its most frequent
        class (the smallest on ties), so stratification holds at the group level.
    instance
        Column with a unique, stable key per row; makes the assignment independent of the row
        order. Default: the row position, added as column ``instance``.
    seed
        Integer in [0, 2**64). The same seed gives the same folds on any machine.

    Returns
    -------
    Same kind as ``data``: the input columns (plus ``instance`` when it was added) for every
    row × repeat, then ``repeat`` (Int32, 0 … p−1) and ``fold`` (Int32, 0 … k−1, the fold in
    which the row is a test row). Rows keep the input order within a repeat; repeats are stacked.

    Raises
    ------
    InvalidParameterError
        ``k < 2`` or ``repeats < 1`` (at once); ``k`` larger than the number of rows or groups,
        or a class of ``stratify`` with fewer than ``k`` rows/groups (when the result is
        computed: inside the plan for a LazyFrame). A small class is an error rather than a
        warning because a lazy plan cannot warn; merge rare classes or lower ``k``.
    MissingValueError
        Nulls in ``group``, ``stratify`` or ``instance``.
    DuplicateKeyError
        Repeated ``instance`` values.

    Notes
    -----
    With positions ``p = 0 … m−1`` of the units in the seeded order (strata end to end), the
    fold is ``(p + o_r) mod k`` with a seeded rotation ``o_r`` per repeat. Fold sizes are
    ``floor(m/k)`` or ``ceil(m/k)``; within each class, likewise. The estimate's bias: each model
    is trained on (k−1)/k of the data, so it is slightly pessimistic for the model trained on
    all of D (section 2.2.2); the final model is retrained on all of D (section 2.2.4).

    References
    ----------
    Zhou Zhihua, *Machine Learning* (2016), section 2.2.2. Kohavi, R. (1995), "A study of
    cross-validation and bootstrap for accuracy estimation and model selection", IJCAI.

    See Also
    --------
    loo, cv5x2, folds, frameeval.evaluate

    Examples
    --------
    >>> df = pl.DataFrame({"id": [1, 2, 3, 4, 5, 6], "y": [0, 0, 0, 1, 1, 1]})
    >>> out = fe.split.kfold(df, k=3, stratify="y", instance="id", seed=7)
    >>> out.columns
    ['id', 'y', 'repeat', 'fold']
    >>> out.group_by("fold", "y").len().sort("fold", "y")["len"].to_list()
    [1, 1, 1, 1, 1, 1]
    """
    func = "kfold"
    check_int(k, func, "k", 2)
    plan = prepare(data, func, instance, stratify, group, seed, repeats)
    return finish(_kfold_plan(plan, k, repeats, seed), plan.eager)


def _kfold_plan(plan: Plan, k: int, repeats: int, seed: int) -> pl.LazyFrame:
    func, unit, column = plan.func, plan.unit_word, plan.stratify
    base = unit_base(
        plan,
        failure(
            pl.col(TOTAL) < k,
            InvalidParameterError,
            f"{func}(): k must not exceed the number of {unit}, got k={k} with {{}} {unit}.",
            pl.col(TOTAL),
        ),
        stratum_rule=failure(
            pl.col(N) < k,
            InvalidParameterError,
            f"{func}(): every class of column {column!r} (stratify=) must have at least "
            f"k={k} {unit}, got {{}} {unit} for {column}={{}}.\nHint: lower k, merge rare "
            "classes, or drop stratify=.",
            pl.col(N),
            pl.col(STRATUM),
        ),
    )

    def fold(r: int) -> pl.Expr:  # the positions rotated by a seeded offset per repeat
        return ((pl.col(POS) + stream_salt(seed, SALT_ORDER, r, 0) % k) % k).cast(pl.Int32)

    return repeated(plan, base, seed, repeats, "fold", fold)


@frame_function
def cv5x2(
    data: IntoFrame,
    *,
    stratify: str | None = None,
    group: str | None = None,
    instance: str | None = None,
    seed: int = 0,
) -> Frame:
    """Five repeats of 2-fold cross-validation, the design of the 5×2cv paired t-test (2.4.2).

    Equivalent to ``kfold(data, k=2, repeats=5, ...)``: each repeat halves the data at random
    (stratified with ``stratify=``), both halves serve once as test set, giving the 5 × 2 paired
    differences the test of Dietterich (1998) needs. Run every learner on this one frame.

    Returns
    -------
    Same kind as ``data``: input columns, ``repeat`` (0 … 4) and ``fold`` (0 or 1), Int32.

    References
    ----------
    Dietterich, T. G. (1998), "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10(7). Zhou (2016), section 2.4.2.

    Examples
    --------
    >>> df = pl.DataFrame({"id": range(6), "y": [0, 1, 0, 1, 0, 1]})
    >>> out = fe.split.cv5x2(df, stratify="y", instance="id")
    >>> out.group_by("repeat", "fold").len().sort("repeat", "fold")["len"].to_list()
    [3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
    """
    func = "cv5x2"
    plan = prepare(data, func, instance, stratify, group, seed)
    return finish(_kfold_plan(plan, 2, 5, seed), plan.eager)


@frame_function
def loo(data: IntoFrame, *, group: str | None = None, instance: str | None = None) -> Frame:
    """Leave-one-out: k-fold with k = m, every row its own test set (2.2.2).

    Not affected by the random division (there is only one), and each model is trained on all
    but one instance, so the estimate is close to that of the model trained on D — at the cost of
    m fits, and it is not always more accurate than other methods (no free lunch).

    Parameters
    ----------
    data
        The instances.
    group
        Leave one *group* out instead (all rows of a group form one fold).
    instance
        Key column; the fold number is the rank of the key (default: the row position, added as
        column ``instance``).

    Returns
    -------
    Same kind as ``data``: input columns, ``repeat`` (always 0) and ``fold`` (Int32, 0 … m−1:
    the rank of the row's key, or of its group value, in sorted order).

    Raises
    ------
    InvalidParameterError
        Fewer than 2 rows (or groups), when computed.

    Examples
    --------
    >>> out = fe.split.loo(pl.DataFrame({"x": [0.5, 0.1, 0.9]}))
    >>> out["fold"].to_list()
    [0, 1, 2]
    """
    func = "loo"
    plan = prepare(data, func, instance, group=group)
    base = unit_base(
        plan,
        failure(
            pl.col(TOTAL) < 2,
            InvalidParameterError,
            f"{func}(): leave-one-out needs at least 2 {plan.unit_word}, got {{}}.",
            pl.col(TOTAL),
        ),
    )
    key = pl.col(plan.key_column)
    dtype = plan.units.collect_schema()[plan.key_column]
    if isinstance(dtype, pl.Categorical | pl.Enum):
        key = key.cast(pl.String)
    frame = base.with_columns(
        pl.lit(0, pl.Int32).alias("repeat"),
        (key.rank("ordinal").cast(pl.Int64) - 1).cast(pl.Int32).alias("fold"),
    )
    return finish(assemble(plan, [frame], ["repeat", "fold"]), plan.eager)
