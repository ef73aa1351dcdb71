"""The measures a subgroup analysis reads: any of ``fe.MEASURES``, ``selection_rate`` and the
three fairness criteria, which are gaps of other measures (fairlearn's definitions).

* ``selection_rate``: Σ w·[pred = positive] / Σ w (fairlearn's ``selection_rate``).
* ``demographic_parity``: the gaps of ``selection_rate`` across groups.
* ``equal_opportunity``: the gaps of the true positive rate (``recall``).
* ``equalized_odds``: the larger difference (smaller ratio) of the true and false positive
  rates' (fairlearn's ``agg="worst_case"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import polars as pl

from frameeval._validate import check_parameter
from frameeval.metrics.measure import MEASURES, Measure, lookup
from frameeval.metrics.stats import ratio

__all__ = ["FAIRNESS", "SELECTION_RATE", "components", "counters", "resolve"]

SELECTION_RATE = Measure(
    name="selection_rate",
    kind="binary",
    formula=lambda c: ratio(c.predicted, c.total),
    higher_is_better=True,
    lower=0.0,
    upper=1.0,
    equation="—",
    description="selection rate: the share of rows predicted positive",
    formula_text="SR = (TP + FP) / (TP + FP + TN + FN)",
    undefined="the group has no row of positive weight",
    references=("Barocas, Hardt & Narayanan (2023), Fairness and Machine Learning, ch. 3",),
    proportion=lambda c: (c.tp + c.fp, c.total),
)

#: fairness criterion -> the per-group measures whose gaps define it
FAIRNESS: dict[str, tuple[str, ...]] = {
    "demographic_parity": ("selection_rate",),
    "equal_opportunity": ("recall",),
    "equalized_odds": ("recall", "fpr"),
}

DEFAULT_LABEL = ("accuracy", "selection_rate", "recall", "fpr")
DEFAULT_SCORE = ("roc_auc",)


def _one(func: str, name: str | Measure) -> Measure:
    if isinstance(name, str) and name == "selection_rate":
        return SELECTION_RATE
    if isinstance(name, str) and name == "tpr":
        return MEASURES["recall"]
    return lookup(func, name)


def resolve(
    func: str, measures: Any, pred: str | None, score: str | None
) -> tuple[list[str], list[Measure]]:
    """(the names asked, in order; the per-group measures they need, each once).

    A fairness criterion needs its component measures; any other name is one measure."""
    if measures is None:
        measures = [*(DEFAULT_LABEL if pred else ()), *(DEFAULT_SCORE if score else ())]
    if isinstance(measures, str | Measure):
        measures = [measures]
    check_parameter(
        isinstance(measures, Sequence) and len(measures) > 0,
        func,
        f"measures= must name at least one measure, got {measures!r}.",
    )
    names: list[str] = []
    needed: dict[str, Measure] = {}
    for item in measures:  # loop-ok: a few requested measures
        if isinstance(item, str) and item in FAIRNESS:
            names.append(item)
            for part in FAIRNESS[item]:
                needed.setdefault(part, _one(func, part))
            continue
        m = _one(func, item)
        names.append(m.name)
        needed.setdefault(m.name, m)
    duplicated = sorted({n for n in names if names.count(n) > 1})
    check_parameter(
        not duplicated, func, f"measures= must not repeat a name, got {duplicated} twice."
    )
    for m in needed.values():  # loop-ok: a few requested measures
        role = m.columns[1]
        given = pred if role == "pred" else score
        check_parameter(
            given is not None, func, f"measure {m.name!r} reads {role}=, got {role}=None."
        )
    return names, list(needed.values())


def components(names: list[str]) -> list[str]:
    """The per-group measure names shown for ``names`` (a criterion's components)."""
    out: list[str] = []
    for name in names:  # loop-ok: a few requested measures
        for part in FAIRNESS.get(name, (name,)):
            if part not in out:
                out.append(part)
    return out


def counters(measure: Measure) -> tuple[Measure, Measure]:
    """Two measures giving the successes and the trials of a proportion measure, read in the
    same grouped pass as its value (recall: TP and TP + FN)."""
    proportion = measure.proportion
    check_parameter(
        proportion is not None,
        "power",
        f"measure must be a share of counts (a rate such as selection_rate, recall, fpr, "
        f"accuracy, error_rate, precision), got {measure.name!r}.",
    )
    assert proportion is not None

    def successes(c: Any, **_: Any) -> pl.Expr:
        return proportion(c)[0].cast(pl.Float64)

    def trials(c: Any, **_: Any) -> pl.Expr:
        return proportion(c)[1].cast(pl.Float64)

    return (
        replace(measure, name="__fe_successes", formula=successes, aliases=(), macro=None),
        replace(measure, name="__fe_trials", formula=trials, aliases=(), macro=None),
    )
