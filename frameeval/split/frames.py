"""Using a split frame: the (train, test) frames of one of its splits."""

from __future__ import annotations

from typing import overload

import polars as pl

from frameeval._frame import finish, to_lazy
from frameeval._split_frame import split_kind, split_rows
from frameeval._typing import Frame, IntoFrame
from frameeval._validate import check_parameter
from frameeval.split._plan import check_int

__all__ = ["folds"]


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
    >>> s = fe.split.kfold(pl.DataFrame({"id": range(6)}), k=3, instance="id", seed=0)
    >>> train, test = fe.split.folds(s, repeat=0, fold=1)
    >>> (train.height, test.height, train.columns)
    (4, 2, ['id'])
    """
    func = "folds"
    lf, eager = to_lazy(splits, func)
    schema = lf.collect_schema()
    kind = split_kind(schema, func)
    check_int(repeat, func, "repeat", 0)
    check_int(fold, func, "fold", 0)
    check_parameter(
        test in ("test", "validation"), func, f"test must be 'test' or 'validation', got {test!r}."
    )
    rows = lf.filter(pl.col("repeat") == repeat)
    train, held = split_rows(rows, kind, fold, pl.col("role") == test)
    train, held = train.drop("repeat", kind), held.drop("repeat", kind)
    return finish(train, eager), finish(held, eager)
