"""Evaluation methods (chapter 2.2) as lazy, reproducible split assignments.

Every method returns the input rows × ``repeats`` with a ``repeat`` column and one assignment
column — ``fold`` (the fold in which the row is tested), ``role`` (``"train"``, ``"validation"``,
``"test"``) or ``count`` (how many times the row was drawn into a bootstrap sample) — with the
original columns kept and nothing mutated. :func:`folds` turns one split into its (train, test)
frames and :func:`frameeval.evaluate` runs user models over all of them.

How rows are assigned
---------------------
Assignments never depend on a process random state. Each *unit* (a row, or a whole group with
``group=``) has a stable 64-bit key: the value of the ``instance=`` column (integers, booleans and
dates as their bits, other types as their rank in sorted order) or, when ``instance=`` is not
given, the row's position in the input. The key is mixed with the ``seed`` and the repeat number by
the SplitMix64 finaliser — a bijection on 64-bit integers written in Polars integer arithmetic, so
the same on every platform, thread count and Polars version, and free of ties. Sorting the units
of each stratum by this hash gives a seeded permutation; the strata are laid end to end (in sorted
order of the ``stratify`` value) and position ``p`` in that sequence decides the assignment:

* k-fold: fold ``(p + o) mod k`` (``o`` a seeded rotation per repeat) — dealing each stratum
  round-robin, so every class is spread over the folds within ±1 and fold sizes differ by at most
  one (the book's 分层采样, and what scikit-learn's ``StratifiedKFold`` guarantees);
* hold-out: a Bresenham (Beatty) sequence selects ``floor((p + 1) t + 1/2) - floor(p t + 1/2)``,
  so the test set has ``round(m t)`` rows and every class ``floor`` or ``ceil`` of its share;
* bootstrap: each unit makes one seeded draw of a position in its stratum; ``count`` is the
  number of draws that hit the unit — a multinomial sample of size m computed by one group-by.

With ``instance=`` the assignment is independent of the input row order; without it, row ``i`` of
the input is instance ``i`` (a column ``instance`` is added) and reordering the input changes the
assignment. Pass ``instance=`` whenever rows may arrive in a different order (a database query, a
parallel reader).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, overload

import polars as pl

from frameeval._frame import finish, to_lazy
from frameeval._split_frame import (  # ROLE, ROLES and SPLIT_COLUMNS: also frameeval.split's
    MASK,
    ROLE,
    ROLES,  # noqa: F401 - re-exported
    SPLIT_COLUMNS,
    key_expr,
    mix_column,
    split_kind,
    stream_salt,
)
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval._validate import (
    Checks,
    check_not_empty_eager,
    check_parameter,
    plan_error,
    require_columns,
)
from frameeval.exceptions import (
    DuplicateKeyError,
    InvalidParameterError,
)

__all__ = [
    "bootstrap",
    "cv5x2",
    "efron632",
    "folds",
    "holdout",
    "kfold",
    "loo",
    "no_information_rate",
    "train_val_test",
]

# salts keep the streams of different purposes apart for one seed; hold-out, k-fold and
# train/validation/test share one, so a seed gives nested-compatible orders
_SALT_ORDER = 0x5EED_0F0D_5EED_0F0D
_SALT_DRAW = 0xB007_57A9_B007_57A9
_SALT_SUBSET = 0x1EA9_4C04_7E00_0001
_MAX_DENOMINATOR = 1_000_000

_KEY = "__fe_key"
_STRATUM = "__fe_stratum"
_HASH = "__fe_hash"
_POS = "__fe_pos"
_N = "__fe_n"
_OFFSET = "__fe_offset"
_TOTAL = "__fe_total"
_RANK = "__fe_rank"
_OK = "__fe_ok"


def _sortable(column: str, dtype: pl.DataType) -> pl.Expr:
    """A stratum value with a platform-independent order (categoricals compare as strings)."""
    if isinstance(dtype, pl.Categorical | pl.Enum):
        return pl.col(column).cast(pl.String)
    return pl.col(column)


# ---------------------------------------------------------------------------------------------
# shared preparation
# ---------------------------------------------------------------------------------------------
@dataclass
class _Plan:
    func: str
    eager: bool
    rows: pl.LazyFrame  # the user's rows (``instance`` added when instance= is not given)
    columns: list[str]  # their column names, in order
    units: pl.LazyFrame  # one row per unit with _KEY (and _STRATUM when stratified)
    group: str | None
    strata: list[str]  # [] or [_STRATUM]
    stratify: str | None
    unit_word: str  # "rows" or "groups"
    key_column: str  # the column behind _KEY (instance / row index / group)


def _check_int(value: Any, func: str, name: str, low: int) -> None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= low
    check_parameter(ok, func, f"{name} must be an integer >= {low}, got {value!r}.")


def _check_seed(seed: Any, func: str) -> None:
    ok = isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= MASK
    check_parameter(ok, func, f"seed must be an integer in [0, 2**64), got {seed!r}.")


def _prepare(
    data: IntoFrame,
    func: str,
    *,
    instance: str | None,
    stratify: str | None = None,
    group: str | None = None,
    seed: Any = 0,
    repeats: Any = 1,
) -> _Plan:
    lf, eager = to_lazy(data, func)
    schema = lf.collect_schema()
    require_columns(schema, func, instance=instance, stratify=stratify, group=group)
    _check_seed(seed, func)
    _check_int(repeats, func, "repeats", 1)
    for name in SPLIT_COLUMNS:
        check_parameter(
            name not in schema,
            func,
            f"data must not already contain the output column {name!r}, got columns "
            f"{list(schema.names())}.\nHint: rename or drop it.",
        )
    check_not_empty_eager(data, eager, lf, func)
    if instance is None:
        check_parameter(
            "instance" not in schema,
            func,
            "instance= is required when data has a column named 'instance', got None.\n"
            "Hint: pass instance='instance' to use it as the key, or rename it.",
        )
        lf = lf.with_row_index("instance")
        key_column = "instance"
    else:
        key_column = instance
        lf = _unique_instance(lf, func, instance, schema[instance])
    schema = lf.collect_schema()
    columns = list(schema.names())
    checks = Checks(func)
    if group is None:
        units = lf.with_columns(
            key_expr(key_column, schema[key_column], func, "instance").alias(_KEY)
        )
        if stratify is not None:
            units = units.with_columns(_sortable(stratify, schema[stratify]).alias(_STRATUM))
        unit_word = "rows"
    else:
        key_expr(group, schema[group], func, "group")  # dtype check
        checks.not_null(group, "group")
        aggs: list[pl.Expr] = []
        if stratify is not None:
            checks.not_null(stratify, "stratify")
            # a group's stratum: its most frequent class (the smallest on ties)
            aggs.append(_sortable(stratify, schema[stratify]).mode().min().alias(_STRATUM))
        units = lf.group_by(group).agg(*aggs, *checks.aggs())
        units = checks.enforce(units, [])
        units = units.with_columns(key_expr(group, schema[group], func, "group").alias(_KEY))
        unit_word = "groups"
        key_column = group
    return _Plan(
        func=func,
        eager=eager,
        rows=lf,
        columns=columns,
        units=units,
        group=group,
        strata=[_STRATUM] if stratify is not None else [],
        stratify=stratify,
        unit_word=unit_word,
        key_column=key_column,
    )


def _unique_instance(
    lf: pl.LazyFrame, func: str, instance: str, dtype: pl.DataType
) -> pl.LazyFrame:
    """Instance keys must be complete and unique (checked in the plan by one group-by)."""
    checks = Checks(func)
    checks.finite(instance, "instance", dtype)
    stats = lf.group_by(instance).agg(pl.len().cast(pl.Int64).alias(_N), *checks.aggs())
    stats = checks.enforce(stats, [])
    dup = pl.col(_N) > 1
    summary = stats.select(
        dup.sum().cast(pl.Int64).alias("__fe_dups"),
        pl.col(instance).filter(dup).min().alias("__fe_example"),
    ).filter(
        plan_error(
            pl.col("__fe_dups") > 0,
            DuplicateKeyError,
            f"{func}(): column {instance!r} (instance=) must hold unique values, got {{}} "
            f"duplicated values (smallest {{}}).\nHint: use group= for several rows per instance.",
            pl.col("__fe_dups"),
            pl.col("__fe_example"),
        ).is_null()
    )
    return lf.join(
        summary.select(pl.col("__fe_dups").alias(_OK)), how="cross", maintain_order="left"
    ).drop(_OK)


def _sizes(plan: _Plan) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Per stratum: ``_N`` units and ``_OFFSET`` (units in earlier strata); and a one-row frame
    with ``_TOTAL`` units. Both are small; guards are attached to them by the callers."""
    totals = plan.units.select(pl.len().cast(pl.Int64).alias(_TOTAL))
    if not plan.strata:
        return pl.LazyFrame(), totals
    checks = Checks(plan.func)
    if plan.group is None and plan.stratify is not None:
        checks.not_null(plan.stratify, "stratify")
    sizes = plan.units.group_by(_STRATUM).agg(pl.len().cast(pl.Int64).alias(_N), *checks.aggs())
    sizes = checks.enforce(sizes, []).sort(_STRATUM)
    sizes = sizes.with_columns((pl.col(_N).cum_sum() - pl.col(_N)).alias(_OFFSET))
    return sizes, totals


def _base(plan: _Plan, sizes: pl.LazyFrame, totals: pl.LazyFrame) -> pl.LazyFrame:
    """Units with their stratum size/offset and the total (guards on the small frames run when
    the join reads them)."""
    base = plan.units
    if plan.strata:
        base = base.join(sizes, on=plan.strata, how="left", maintain_order="left")
    else:
        base = base.with_columns(pl.lit(0, pl.Int64).alias(_OFFSET))
    return base.join(totals, how="cross", maintain_order="left")


def _positions(plan: _Plan, base: pl.LazyFrame, seed: int, repeat: int) -> pl.LazyFrame:
    """``_POS``: the unit's place in the seeded order, strata laid end to end."""
    salt = stream_salt(seed, _SALT_ORDER, repeat)
    lf = base.with_columns((pl.col(_KEY) ^ pl.lit(salt, pl.UInt64)).alias(_HASH))
    lf = mix_column(lf, _HASH)
    rank = pl.col(_HASH).rank("ordinal")
    if plan.strata:
        rank = rank.over(plan.strata)
    return lf.with_columns((pl.col(_OFFSET) + rank.cast(pl.Int64) - 1).alias(_POS))


def _assemble(plan: _Plan, per_repeat: list[pl.LazyFrame], outputs: list[str]) -> pl.LazyFrame:
    """Stack the repeats: the user's columns (input order within a repeat) then ``outputs``."""
    frames = []
    for frame in per_repeat:  # loop-ok: one lazy branch per repeat
        if plan.group is None:
            frames.append(frame.select(*plan.columns, *outputs))
        else:
            assigned = frame.select(plan.group, *outputs)
            frames.append(
                plan.rows.join(assigned, on=plan.group, how="left", maintain_order="left")
            )
    return pl.concat(frames, how="vertical")


def _fraction(value: float) -> Fraction:
    return Fraction(value).limit_denominator(_MAX_DENOMINATOR)


def _selected_before(pos: pl.Expr, frac: Fraction) -> pl.Expr:
    """``floor(pos · frac + 1/2)`` in exact integer arithmetic: how many of the positions
    ``0 … pos-1`` the Bresenham sequence of density ``frac`` selects."""
    num, den = frac.numerator, frac.denominator
    return (pos * (2 * num) + den) // (2 * den)


def _selected(pos: pl.Expr, frac: Fraction) -> pl.Expr:
    return (_selected_before(pos + 1, frac) - _selected_before(pos, frac)) == 1


def _check_fraction(value: Any, func: str, name: str) -> None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1
    check_parameter(ok, func, f"{name} must be a number in (0, 1), got {value!r}.")


# ---------------------------------------------------------------------------------------------
# public split functions
# ---------------------------------------------------------------------------------------------
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
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": [1, 2, 3, 4, 5, 6], "y": [0, 0, 0, 1, 1, 1]})
    >>> out = fe.split.kfold(df, k=3, stratify="y", instance="id", seed=7)
    >>> out.columns
    ['id', 'y', 'repeat', 'fold']
    >>> out.group_by("fold", "y").len().sort("fold", "y")["len"].to_list()
    [1, 1, 1, 1, 1, 1]
    """
    func = "kfold"
    _check_int(k, func, "k", 2)
    plan = _prepare(
        data, func, instance=instance, stratify=stratify, group=group, seed=seed, repeats=repeats
    )
    return finish(_kfold_plan(plan, k, repeats, seed), plan.eager)


def _kfold_plan(plan: _Plan, k: int, repeats: int, seed: int) -> pl.LazyFrame:
    func, unit = plan.func, plan.unit_word
    sizes, totals = _sizes(plan)
    totals = totals.filter(
        plan_error(
            pl.col(_TOTAL) < k,
            InvalidParameterError,
            f"{func}(): k must not exceed the number of {unit}, got k={k} with {{}} {unit}.",
            pl.col(_TOTAL),
        ).is_null()
    )
    if plan.strata:
        column = plan.stratify
        sizes = sizes.filter(
            plan_error(
                pl.col(_N) < k,
                InvalidParameterError,
                f"{func}(): every class of column {column!r} (stratify=) must have at least "
                f"k={k} {unit}, got {{}} {unit} for {column}={{}}.\nHint: lower k, merge rare "
                "classes, or drop stratify=.",
                pl.col(_N),
                pl.col(_STRATUM),
            ).is_null()
        )
    base = _base(plan, sizes, totals)
    per_repeat = []
    for r in range(repeats):  # loop-ok: one lazy branch per repeat
        rotation = stream_salt(seed, _SALT_ORDER, r, 0) % k
        frame = _positions(plan, base, seed, r).with_columns(
            pl.lit(r, pl.Int32).alias("repeat"),
            ((pl.col(_POS) + rotation) % k).cast(pl.Int32).alias("fold"),
        )
        per_repeat.append(frame)
    return _assemble(plan, per_repeat, ["repeat", "fold"])


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
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": range(6), "y": [0, 1, 0, 1, 0, 1]})
    >>> out = fe.split.cv5x2(df, stratify="y", instance="id")
    >>> out.group_by("repeat", "fold").len().sort("repeat", "fold")["len"].to_list()
    [3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
    """
    func = "cv5x2"
    plan = _prepare(data, func, instance=instance, stratify=stratify, group=group, seed=seed)
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
    >>> import polars as pl, frameeval as fe
    >>> out = fe.split.loo(pl.DataFrame({"x": [0.5, 0.1, 0.9]}))
    >>> out["fold"].to_list()
    [0, 1, 2]
    """
    func = "loo"
    plan = _prepare(data, func, instance=instance, group=group)
    _, totals = _sizes(plan)
    totals = totals.filter(
        plan_error(
            pl.col(_TOTAL) < 2,
            InvalidParameterError,
            f"{func}(): leave-one-out needs at least 2 {plan.unit_word}, got {{}}.",
            pl.col(_TOTAL),
        ).is_null()
    )
    base = _base(plan, pl.LazyFrame(), totals)
    key = pl.col(plan.key_column)
    dtype = plan.units.collect_schema()[plan.key_column]
    if isinstance(dtype, pl.Categorical | pl.Enum):
        key = key.cast(pl.String)
    frame = base.with_columns(
        pl.lit(0, pl.Int32).alias("repeat"),
        (key.rank("ordinal").cast(pl.Int64) - 1).cast(pl.Int32).alias("fold"),
    )
    return finish(_assemble(plan, [frame], ["repeat", "fold"]), plan.eager)


@frame_function
def holdout(
    data: IntoFrame,
    test_size: float = 0.3,
    repeats: int = 1,
    *,
    stratify: str | None = None,
    group: str | None = None,
    instance: str | None = None,
    seed: int = 0,
) -> Frame:
    """Hold-out: divide the data into disjoint training and test sets (2.2.1), ``repeats`` times.

    A single hold-out estimate is unstable, so the book repeats the random division (e.g. 100
    times) and averages. The training set is a fraction of D, which biases the estimate for the
    model trained on all of D: a large test set makes the trained model differ more from the one
    on D, a small one makes the estimate noisy; 1/5 to 1/3 of the data for testing is common.

    Parameters
    ----------
    data
        The instances.
    test_size
        Fraction t of the units in the test set, in (0, 1).
    repeats
        Number of independent divisions.
    stratify
        Optional class column: each class has ``floor`` or ``ceil`` of t × its size in the test
        set (within one row of its share — stratified sampling).
    group
        Optional column whose equal values stay together; t is then the fraction of *groups*.
    instance
        Key column making the assignment independent of row order (default: row position,
        added as column ``instance``).
    seed
        Integer in [0, 2**64).

    Returns
    -------
    Same kind as ``data``: input columns, ``repeat`` (Int32) and ``role`` (``"train"`` or
    ``"test"``; an Enum of train < validation < test that compares with strings).

    Raises
    ------
    InvalidParameterError
        ``test_size`` outside (0, 1) (at once); a test or training set that would be empty
        (``round(m t)`` equal to 0 or m), when computed.

    Notes
    -----
    The test set holds the positions selected by the Bresenham sequence
    ``floor((p+1) t + 1/2) − floor(p t + 1/2)`` (t as a fraction with denominator ≤ 10⁶,
    integer arithmetic): ``round(m t)`` units in all (halves round up), and any run of n
    consecutive positions — each stratum is one — holds ``floor(n t)`` or ``ceil(n t)``.
    :func:`train_val_test` with the same seed and test share has the same test set.

    References
    ----------
    Zhou (2016), section 2.2.1.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": range(6), "y": [0, 0, 0, 0, 1, 1]})
    >>> out = fe.split.holdout(df, test_size=0.5, stratify="y", instance="id", seed=1)
    >>> out.filter(pl.col("role") == "test").group_by("y").len().sort("y")["len"].to_list()
    [2, 1]
    """
    func = "holdout"
    _check_fraction(test_size, func, "test_size")
    plan = _prepare(
        data, func, instance=instance, stratify=stratify, group=group, seed=seed, repeats=repeats
    )
    t = _fraction(test_size)
    n_test = _selected_before(pl.col(_TOTAL), t)
    sizes, totals = _sizes(plan)
    unit = plan.unit_word
    totals = totals.filter(
        plan_error(
            (n_test == 0) | (n_test == pl.col(_TOTAL)),
            InvalidParameterError,
            f"{func}(): test_size={test_size!r} must leave at least one of the {{}} {unit} in "
            f"the test set and one in the training set, got {{}} test {unit}.",
            pl.col(_TOTAL),
            n_test,
        ).is_null()
    )
    base = _base(plan, sizes, totals)
    per_repeat = []
    for r in range(repeats):  # loop-ok: one lazy branch per repeat
        role = (
            pl.when(_selected(pl.col(_POS), t))
            .then(pl.lit("test", ROLE))
            .otherwise(pl.lit("train", ROLE))
        )
        per_repeat.append(
            _positions(plan, base, seed, r).with_columns(
                pl.lit(r, pl.Int32).alias("repeat"), role.alias("role")
            )
        )
    return finish(_assemble(plan, per_repeat, ["repeat", "role"]), plan.eager)


@frame_function
def train_val_test(
    data: IntoFrame,
    sizes: Sequence[float] = (0.6, 0.2, 0.2),
    repeats: int = 1,
    *,
    stratify: str | None = None,
    group: str | None = None,
    instance: str | None = None,
    seed: int = 0,
) -> Frame:
    """Training / validation / test division for parameter tuning (2.2.4).

    Models with different parameter settings are trained on the training set and compared on
    the validation set; the chosen setting is then retrained on training + validation and
    assessed once on the test set, which must take no part in the choice. The model delivered is
    finally retrained on all of D.

    Parameters
    ----------
    data
        The instances.
    sizes
        Fractions (train, validation, test), each in (0, 1), summing to 1.
    repeats
        Number of independent divisions.
    stratify, group, instance, seed
        As in :func:`holdout`.

    Returns
    -------
    Same kind as ``data``: input columns, ``repeat`` (Int32) and ``role`` (``"train"``,
    ``"validation"`` or ``"test"``; an Enum in that order, comparable with strings).

    Raises
    ------
    InvalidParameterError
        ``sizes`` not three fractions in (0, 1) summing to 1 (at once); an empty role (when
        computed).

    Notes
    -----
    The test set is the hold-out test set for ``test_size = sizes[2]`` (same seed, same rows:
    ``round(m · sizes[2])`` units, each class within one row of its share); the remaining units
    are divided the same way with validation share ``sizes[1] / (sizes[0] + sizes[1])``, so the
    validation and training counts of each class are within two rows of their shares.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": range(10)})
    >>> out = fe.split.train_val_test(df, sizes=(0.6, 0.2, 0.2), instance="id")
    >>> out.group_by("role").len().sort("role").rows()
    [('train', 6), ('validation', 2), ('test', 2)]
    """
    func = "train_val_test"
    ok = (
        isinstance(sizes, Sequence)
        and not isinstance(sizes, str)
        and len(sizes) == 3
        and all(isinstance(s, int | float) and not isinstance(s, bool) for s in sizes)
    )
    check_parameter(
        ok, func, f"sizes must be three fractions (train, validation, test), got {sizes!r}."
    )
    for name, value in zip(("sizes[0]", "sizes[1]", "sizes[2]"), sizes, strict=True):
        _check_fraction(value, func, name)
    total = float(sum(sizes))
    check_parameter(
        abs(total - 1.0) <= 1e-9,
        func,
        f"sizes must sum to 1, got {tuple(sizes)!r} (sum {total!r}).",
    )
    plan = _prepare(
        data, func, instance=instance, stratify=stratify, group=group, seed=seed, repeats=repeats
    )
    train, val, test = (_fraction(s) for s in sizes)
    t = test
    v = (val / (train + val)).limit_denominator(_MAX_DENOMINATOR)
    m = pl.col(_TOTAL)
    n_test = _selected_before(m, t)
    n_val = _selected_before(m - n_test, v)
    n_train = m - n_test - n_val
    unit = plan.unit_word
    size_table, totals = _sizes(plan)
    totals = totals.filter(
        plan_error(
            (n_train == 0) | (n_val == 0) | (n_test == 0),
            InvalidParameterError,
            f"{func}(): sizes={tuple(sizes)!r} must give every role at least one of the {{}} "
            f"{unit}, got {{}} train, {{}} validation and {{}} test {unit}.",
            m,
            n_train,
            n_val,
            n_test,
        ).is_null()
    )
    base = _base(plan, size_table, totals)
    per_repeat = []
    for r in range(repeats):  # loop-ok: one lazy branch per repeat
        pos = pl.col(_POS)
        rest = pos - _selected_before(pos, t)  # place among the non-test units
        role = (
            pl.when(_selected(pos, t))
            .then(pl.lit("test", ROLE))
            .when(_selected(rest, v))
            .then(pl.lit("validation", ROLE))
            .otherwise(pl.lit("train", ROLE))
        )
        per_repeat.append(
            _positions(plan, base, seed, r).with_columns(
                pl.lit(r, pl.Int32).alias("repeat"), role.alias("role")
            )
        )
    return finish(_assemble(plan, per_repeat, ["repeat", "role"]), plan.eager)


@frame_function
def bootstrap(
    data: IntoFrame,
    repeats: int = 1,
    *,
    stratify: str | None = None,
    group: str | None = None,
    instance: str | None = None,
    seed: int = 0,
) -> Frame:
    """Bootstrap sampling: how often each row is drawn into a sample of size m (2.2.3).

    Draw one instance of D with replacement, m times: the sample D' is the training set and the
    instances never drawn (``count == 0``) are the test set — the out-of-bag estimate. A given
    instance is missed with probability (1 − 1/m)^m → 1/e ≈ 0.368, so about 36.8 % of D is out of
    bag. Useful for small data sets, but D' has a different distribution from D, which biases the
    estimate; with enough data, hold-out and cross-validation are preferred.

    Parameters
    ----------
    data
        The instances.
    repeats
        Number of bootstrap samples B.
    stratify
        Optional class column: each class is resampled within itself (its size is kept).
    group
        Optional column: whole groups are drawn (m = the number of groups); every row of a group
        gets the group's count.
    instance
        Key column making the samples independent of row order (default: row position, added
        as column ``instance``).
    seed
        Integer in [0, 2**64).

    Returns
    -------
    Same kind as ``data``: input columns, ``repeat`` (Int32) and ``count`` (Int32 ≥ 0): the
    number of times the row (its group) was drawn. Per repeat the counts sum to m (per class, to
    the class size). ``count == 0`` marks the out-of-bag test rows; :func:`folds` expands the
    training sample with its repetitions.

    Notes
    -----
    Draw j of a repeat is made by unit j: its key, mixed with the seed and repeat, gives a
    uniform position ``floor(u · n)`` among the n units of its stratum (u a 53-bit uniform). The
    draws are independent, so the counts are multinomial(m; 1/m, …, 1/m). The .632 and .632+
    estimators combine the out-of-bag and apparent errors: see :func:`efron632`.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993), *An Introduction to the Bootstrap*. Zhou (2016),
    section 2.2.3, eq. (2.1) limit.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"id": range(6)})
    >>> out = fe.split.bootstrap(df, repeats=2, instance="id", seed=3)
    >>> out.group_by("repeat").agg(pl.col("count").sum()).sort("repeat")["count"].to_list()
    [6, 6]
    """
    func = "bootstrap"
    plan = _prepare(
        data, func, instance=instance, stratify=stratify, group=group, seed=seed, repeats=repeats
    )
    sizes, totals = _sizes(plan)
    base = _base(plan, sizes, totals)
    n = pl.col(_N) if plan.strata else pl.col(_TOTAL)
    rank = pl.col(_KEY).rank("ordinal")
    if plan.strata:
        rank = rank.over(plan.strata)
    base = base.with_columns((rank.cast(pl.Int64) - 1).alias(_RANK))
    per_repeat = []
    for r in range(repeats):  # loop-ok: one lazy branch per repeat
        salt = stream_salt(seed, _SALT_DRAW, r)
        draws = mix_column(
            base.select(
                *plan.strata, n.alias(_N), (pl.col(_KEY) ^ pl.lit(salt, pl.UInt64)).alias(_HASH)
            ),
            _HASH,
        )
        uniform = (pl.col(_HASH) // (1 << 11)).cast(pl.Float64) * 2.0**-53
        target = pl.min_horizontal(
            (uniform * pl.col(_N).cast(pl.Float64)).floor().cast(pl.Int64), pl.col(_N) - 1
        )
        counts = draws.group_by(*plan.strata, target.alias(_RANK)).agg(
            pl.len().cast(pl.Int32).alias("count")
        )
        frame = base.join(
            counts, on=[*plan.strata, _RANK], how="left", maintain_order="left"
        ).with_columns(pl.lit(r, pl.Int32).alias("repeat"), pl.col("count").fill_null(0))
        per_repeat.append(frame)
    return finish(_assemble(plan, per_repeat, ["repeat", "count"]), plan.eager)


# ---------------------------------------------------------------------------------------------
# using a split
# ---------------------------------------------------------------------------------------------
@overload
def folds(
    splits: pl.LazyFrame, repeat: int = ..., fold: int = ..., *, test: str = ...
) -> tuple[pl.LazyFrame, pl.LazyFrame]: ...
@overload
def folds(
    splits: pl.DataFrame | IntoFrame, repeat: int = ..., fold: int = ..., *, test: str = ...
) -> tuple[pl.DataFrame, pl.DataFrame]: ...


def folds(
    splits: IntoFrame, repeat: int = 0, fold: int = 0, *, test: str = "test"
) -> tuple[Frame, Frame]:
    """The (train, test) frames of one split of a split frame.

    Parameters
    ----------
    splits
        A frame made by :func:`kfold`, :func:`loo`, :func:`cv5x2`, :func:`holdout`,
        :func:`train_val_test` or :func:`bootstrap`.
    repeat
        Which repeat.
    fold
        Which fold (k-fold style splits only; ignored otherwise).
    test
        For ``role`` splits: the role returned as the second frame (``"test"`` or
        ``"validation"``).

    Returns
    -------
    A tuple ``(train, test)`` of the same kind as ``splits``, without the assignment columns.
    k-fold: train = rows of the repeat with ``fold != fold``, test = ``fold == fold``. Roles:
    train = ``role == "train"``, test = ``role == test``. Bootstrap: train = the bootstrap sample
    (each row repeated ``count`` times), test = the out-of-bag rows (``count == 0``). A repeat or
    fold that does not exist gives empty frames.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> s = fe.split.kfold(pl.DataFrame({"id": range(6)}), k=3, instance="id", seed=0)
    >>> train, test = fe.split.folds(s, repeat=0, fold=1)
    >>> (train.height, test.height, train.columns)
    (4, 2, ['id'])
    """
    func = "folds"
    lf, eager = to_lazy(splits, func)
    schema = lf.collect_schema()
    kind = split_kind(schema, func)
    _check_int(repeat, func, "repeat", 0)
    _check_int(fold, func, "fold", 0)
    check_parameter(
        test in ("test", "validation"), func, f"test must be 'test' or 'validation', got {test!r}."
    )
    lf = lf.filter(pl.col("repeat") == repeat)
    if kind == "fold":
        train = lf.filter(pl.col("fold") != fold)
        held = lf.filter(pl.col("fold") == fold)
    elif kind == "role":
        train = lf.filter(pl.col("role") == "train")
        held = lf.filter(pl.col("role") == test)
    else:
        train = (
            lf.filter(pl.col("count") > 0)
            .with_columns(pl.int_ranges(pl.col("count")).alias(_RANK))
            .explode(_RANK)
            .drop(_RANK)
        )
        held = lf.filter(pl.col("count") == 0)
    train, held = train.drop("repeat", kind), held.drop("repeat", kind)
    return finish(train, eager), finish(held, eager)


# ---------------------------------------------------------------------------------------------
# Efron's .632 and .632+ estimators
# ---------------------------------------------------------------------------------------------
@frame_function
def no_information_rate(
    data: IntoFrame,
    truth: str = "truth",
    pred: str = "pred",
    *,
    by: str | Sequence[str] | None = None,
) -> Frame:
    """No-information error rate γ = Σ_l p_l (1 − q_l) (0-1 loss).

    The error rate of the rule if inputs and labels were independent: p_l is the share of class
    l in ``truth``, q_l the share of predictions equal to l (Efron & Tibshirani 1997, eq. 27).

    Returns
    -------
    Same kind as ``data``: ``*by, no_information_rate`` (Float64 in [0, 1]), sorted by ``by``.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"truth": [1, 1, 0, 0], "pred": [1, 1, 1, 0]})
    >>> fe.split.no_information_rate(df)["no_information_rate"].to_list()
    [0.5]
    """
    from frameeval._frame import as_keys
    from frameeval._validate import check_labels, label_expr

    func = "no_information_rate"
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, truth=truth, pred=pred, by=keys)
    check_labels(schema, func, truth=truth, pred=pred)
    out = _gamma(lf, keys, label_expr(truth, schema), label_expr(pred, schema), func, truth, pred)
    return finish(out.sort(keys) if keys else out, eager)


def _gamma(
    lf: pl.LazyFrame,
    keys: list[str],
    actual: pl.Expr,
    predicted: pl.Expr,
    func: str,
    truth: str,
    pred: str,
) -> pl.LazyFrame:
    checks = Checks(func)
    checks.not_null(truth, "truth")
    checks.not_null(pred, "pred")
    base = lf.select(
        *keys, actual.alias("__fe_a"), predicted.alias("__fe_p"), pl.col(truth), pl.col(pred)
    )
    p = base.group_by(*keys, pl.col("__fe_a").alias("__fe_l")).agg(
        pl.len().cast(pl.Int64).alias("__fe_pa"), *checks.aggs()
    )
    p = checks.enforce(p, keys)
    q = base.group_by(*keys, pl.col("__fe_p").alias("__fe_l")).agg(
        pl.len().cast(pl.Int64).alias("__fe_qa")
    )
    joined = p.join(
        q, on=[*keys, "__fe_l"], how="full", coalesce=True, nulls_equal=True
    ).with_columns(pl.col("__fe_pa", "__fe_qa").fill_null(0))
    # γ = 1 − Σ n_l m_l / N², from integer counts: one rounding, so γ equals another error
    # rate exactly when the two rationals are equal (R' is decided without float noise)
    n2 = pl.col("__fe_pa").sum().pow(2)
    agg = (n2 - (pl.col("__fe_pa") * pl.col("__fe_qa")).sum()).cast(pl.Float64) / n2.cast(
        pl.Float64
    )
    if keys:
        return joined.group_by(keys).agg(agg.alias("no_information_rate"))
    return joined.select(agg.alias("no_information_rate"))


@frame_function
def efron632(
    data: IntoFrame,
    truth: str = "truth",
    pred: str = "pred",
    *,
    by: str | Sequence[str] | None = "learner",
    role: str = "role",
    instance: str | None = "instance",
) -> Frame:
    """Efron's .632 and .632+ bootstrap estimates of the error rate (0-1 loss).

    The out-of-bag error of bootstrap models is pessimistic (each is trained on about 63.2 % of
    the distinct instances) and the apparent (training) error optimistic; .632 blends them, and
    .632+ moves the weight towards the out-of-bag error when the model overfits, measured
    against the no-information error rate.

    Parameters
    ----------
    data
        The result frame of :func:`frameeval.evaluate` on :func:`bootstrap` splits run with
        ``train=True``: rows with ``role == "train"`` are predictions on the bootstrap samples
        (apparent error), rows with ``role == "test"`` out-of-bag predictions.
    truth, pred
        Label columns.
    by
        Group keys (default ``"learner"``); ``None`` for one estimate.
    role
        The column holding ``"train"`` / ``"test"``.
    instance
        Instance key for the leave-one-out bootstrap average; ``None`` pools all out-of-bag
        predictions instead.

    Returns
    -------
    Same kind as ``data``: ``*by, apparent_error, oob_error, no_information_rate,
    relative_overfitting, error_632, error_632_plus`` (Float64), sorted by ``by``.

    Notes
    -----
    With apparent error ē (mean 0-1 loss over the ``train`` rows), leave-one-out bootstrap error
    Err¹ (per instance, the mean loss over the repeats in which it was out of bag, then the mean
    over instances) and γ from :func:`no_information_rate` on the ``train`` rows:

    * Err^.632 = 0.368 ē + 0.632 Err¹;
    * Err¹' = min(Err¹, γ); relative overfitting R' = (Err¹' − ē) / (γ − ē) when ē < Err¹' and
      ē < γ, else 0 (so R' is in [0, 1]);
    * Err^.632+ = Err^.632 + (Err¹' − ē) · 0.368 · 0.632 · R' / (1 − 0.368 R') (eq. 32).

    When Err¹ ≤ γ this equals (1 − ŵ) ē + ŵ Err¹ with ŵ = 0.632 / (1 − 0.368 R') (the form of
    Hastie et al.); with R' = 0 the two estimates agree. Efron's ē is the error of the model fitted
    on all of D, on D: append those predictions with ``role == "train"`` to use it; with
    ``evaluate(..., train=True)`` the ``train`` rows are each bootstrap model on its own sample.
    ``relative_overfitting`` and the estimates are null when a group has no ``train`` or no
    ``test`` rows.

    References
    ----------
    Efron, B. (1983), "Estimating the error rate of a prediction rule", JASA 78. Efron, B. &
    Tibshirani, R. (1997), "Improvements on cross-validation: the .632+ bootstrap method", JASA
    92(438), eqs. (24)–(32). Hastie, Tibshirani & Friedman (2009), *The Elements of Statistical
    Learning*, eq. (7.59).

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({
    ...     "role": ["train"] * 4 + ["test"] * 2,
    ...     "instance": [0, 1, 2, 3, 0, 1],
    ...     "truth": [0, 0, 1, 1, 0, 1],
    ...     "pred": [0, 0, 1, 1, 1, 1],
    ... })
    >>> fe.split.efron632(df, by=None)["error_632"].round(3).to_list()
    [0.316]
    """
    from frameeval._frame import as_keys
    from frameeval._validate import check_labels, label_expr

    func = "efron632"
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, truth=truth, pred=pred, by=keys, role=role, instance=instance)
    check_labels(schema, func, truth=truth, pred=pred)
    actual, predicted = label_expr(truth, schema), label_expr(pred, schema)
    is_train = pl.col(role) == "train"
    loss = (actual != predicted).cast(pl.Float64)
    train = lf.filter(is_train)
    test = lf.filter(pl.col(role) == "test").with_columns(loss.alias("__fe_loss"))
    apparent = (
        train.group_by(keys).agg(loss.mean().alias("apparent_error"))
        if keys
        else (train.select(loss.mean().alias("apparent_error")))
    )
    if instance is not None:
        per_instance = test.group_by(*keys, instance).agg(pl.col("__fe_loss").mean())
    else:
        per_instance = test
    oob_agg = pl.col("__fe_loss").mean().alias("oob_error")
    oob = per_instance.group_by(keys).agg(oob_agg) if keys else per_instance.select(oob_agg)
    gamma = _gamma(train, keys, actual, predicted, func, truth, pred)
    if keys:
        out = apparent.join(oob, on=keys, how="full", coalesce=True, nulls_equal=True).join(
            gamma, on=keys, how="left", nulls_equal=True
        )
    else:
        out = pl.concat([apparent, oob, gamma], how="horizontal")
    e, err1, g = pl.col("apparent_error"), pl.col("oob_error"), pl.col("no_information_rate")
    err1c = pl.min_horizontal(err1, g)
    r = (
        pl.when(e.is_null() | err1.is_null())
        .then(None)
        .when((err1c > e) & (g > e))
        .then((err1c - e) / (g - e))
        .otherwise(0.0)
    )
    e632 = 0.368 * e + 0.632 * err1
    r_ = pl.col("relative_overfitting")
    out = out.with_columns(r.alias("relative_overfitting")).with_columns(
        e632.alias("error_632"),
        (e632 + (err1c - e) * (0.368 * 0.632) * r_ / (1.0 - 0.368 * r_)).alias("error_632_plus"),
    )
    out = out.select(
        *keys,
        "apparent_error",
        "oob_error",
        "no_information_rate",
        "relative_overfitting",
        "error_632",
        "error_632_plus",
    )
    return finish(out.sort(keys) if keys else out, eager)


# ---------------------------------------------------------------------------------------------
# re-exports: running models lives in frameeval.evaluate (imported on first use, which keeps
# the import graph one-way: evaluate uses the hashing helpers above)
# ---------------------------------------------------------------------------------------------
_FROM_EVALUATE = (
    "LearnerError",
    "LearnerWarning",
    "evaluate",
    "learning_curve",
    "sklearn_learner",
    "validation_curve",
)


def __getattr__(name: str) -> Any:
    if name in _FROM_EVALUATE:
        import importlib

        return getattr(importlib.import_module("frameeval.evaluate"), name)
    raise AttributeError(f"module 'frameeval.split' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_FROM_EVALUATE])
