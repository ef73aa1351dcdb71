"""The hold-out method (chapter 2.2.1) and the training / validation / test division for
parameter tuning (2.2.4), as split frames with a ``role`` column."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from frameeval._frame import finish
from frameeval._params import Items, Number
from frameeval._split_frame import ROLE
from frameeval._typing import Frame, IntoFrame, frame_function
from frameeval._validate import check_parameter, failure
from frameeval.exceptions import InvalidParameterError
from frameeval.split._plan import (
    MAX_DENOMINATOR,
    POS,
    TOTAL,
    check_fraction,
    fraction,
    prepare,
    repeated,
    selected,
    selected_before,
    unit_base,
)

__all__ = ["holdout", "train_val_test"]

#: train_val_test's sizes=: three Python numbers (NaN and ±inf pass here, to reach each
#: element's own fraction rule and message)
_SIZES = Items(
    Number(types=(int, float), finite=False), 3, "three fractions (train, validation, test)"
)


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
    >>> df = pl.DataFrame({"id": range(6), "y": [0, 0, 0, 0, 1, 1]})
    >>> out = fe.split.holdout(df, test_size=0.5, stratify="y", instance="id", seed=1)
    >>> out.filter(pl.col("role") == "test").group_by("y").len().sort("y")["len"].to_list()
    [2, 1]
    """
    func = "holdout"
    check_fraction(test_size, func, "test_size")
    plan = prepare(data, func, instance, stratify, group, seed, repeats)
    t = fraction(test_size)
    n_test = selected_before(pl.col(TOTAL), t)
    unit = plan.unit_word
    base = unit_base(
        plan,
        failure(
            (n_test == 0) | (n_test == pl.col(TOTAL)),
            InvalidParameterError,
            f"{func}(): test_size={test_size!r} must leave at least one of the {{}} {unit} in "
            f"the test set and one in the training set, got {{}} test {unit}.",
            pl.col(TOTAL),
            n_test,
        ),
    )
    test = pl.when(selected(pl.col(POS), t)).then(pl.lit("test", ROLE))
    role = test.otherwise(pl.lit("train", ROLE))
    return finish(repeated(plan, base, seed, repeats, "role", lambda r: role), plan.eager)


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
    >>> df = pl.DataFrame({"id": range(10)})
    >>> out = fe.split.train_val_test(df, sizes=(0.6, 0.2, 0.2), instance="id")
    >>> out.group_by("role").len().sort("role").rows()
    [('train', 6), ('validation', 2), ('test', 2)]
    """
    func = "train_val_test"
    _SIZES(func, "sizes", sizes)
    for name, value in zip(("sizes[0]", "sizes[1]", "sizes[2]"), sizes, strict=True):
        check_fraction(value, func, name)
    total = float(sum(sizes))
    check_parameter(
        abs(total - 1.0) <= 1e-9,
        func,
        f"sizes must sum to 1, got {tuple(sizes)!r} (sum {total!r}).",
    )
    plan = prepare(data, func, instance, stratify, group, seed, repeats)
    train, val, test = (fraction(s) for s in sizes)
    t = test
    v = (val / (train + val)).limit_denominator(MAX_DENOMINATOR)
    m = pl.col(TOTAL)
    n_test = selected_before(m, t)
    n_val = selected_before(m - n_test, v)
    n_train = m - n_test - n_val
    unit = plan.unit_word
    base = unit_base(
        plan,
        failure(
            (n_train == 0) | (n_val == 0) | (n_test == 0),
            InvalidParameterError,
            f"{func}(): sizes={tuple(sizes)!r} must give every role at least one of the {{}} "
            f"{unit}, got {{}} train, {{}} validation and {{}} test {unit}.",
            m,
            n_train,
            n_val,
            n_test,
        ),
    )
    pos = pl.col(POS)
    rest = pos - selected_before(pos, t)  # place among the non-test units
    role = (
        pl.when(selected(pos, t))
        .then(pl.lit("test", ROLE))
        .when(selected(rest, v))
        .then(pl.lit("validation", ROLE))
        .otherwise(pl.lit("train", ROLE))
    )
    return finish(repeated(plan, base, seed, repeats, "role", lambda r: role), plan.eager)
