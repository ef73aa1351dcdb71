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

from typing import Any

from frameeval._split_frame import ROLE, ROLES, SPLIT_COLUMNS  # noqa: F401 - also frameeval.split's
from frameeval.split.bootstrapping import bootstrap
from frameeval.split.cross_validation import cv5x2, kfold, loo
from frameeval.split.efron import efron632, no_information_rate
from frameeval.split.frames import folds
from frameeval.split.hold_out import holdout, train_val_test

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


# ---------------------------------------------------------------------------------------------
# re-exports: running models lives in frameeval.evaluate (imported on first use, which keeps
# the import graph one-way: both use frameeval._split_frame, neither imports the other)
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
