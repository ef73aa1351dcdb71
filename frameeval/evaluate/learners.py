"""What a learner is: a callable ``fit_predict(train, test)`` (see :mod:`frameeval.evaluate`),
the errors and warnings of a failed fit, and the wrapper of a scikit-learn estimator."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import polars as pl

from frameeval.exceptions import FrameEvalError

__all__ = ["FitPredict", "LearnerError", "LearnerWarning", "sklearn_learner"]

FitPredict = Callable[[pl.DataFrame, pl.DataFrame], Any]


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
