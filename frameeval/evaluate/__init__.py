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

# the type aliases of the signatures stay importable from here (not in __all__)
from frameeval.evaluate._runner import Errors as Errors
from frameeval.evaluate._runner import Progress as Progress
from frameeval.evaluate.diagnosis import learning_curve_diagnosis
from frameeval.evaluate.learners import FitPredict as FitPredict
from frameeval.evaluate.learners import LearnerError, LearnerWarning, sklearn_learner
from frameeval.evaluate.learning_curves import learning_curve, validation_curve
from frameeval.evaluate.results import evaluate

__all__ = [
    "LearnerError",
    "LearnerWarning",
    "evaluate",
    "learning_curve",
    "learning_curve_diagnosis",
    "sklearn_learner",
    "validation_curve",
]
