"""Column roles inferred from common names: one resolver for the library and the CLI.

A role left as ``None`` (``learner=None``, ``block=None``; an omitted ``--learner``) is the one
column whose name is a common name of that role (case-insensitive):

========== ==========================================================================
role       common names
========== ==========================================================================
truth      truth, y_true, y, target, label, actual
pred       pred, y_pred, p, prediction, predicted
score      score, y_score, s, proba, prob, probability
learner    learner, model, estimator, classifier, algorithm
block      block, dataset, data, task, data_set
fold       fold, split, cv, cv_fold
repeat     repeat, run, seed
instance   instance, row_id, instance_id, id
========== ==========================================================================

The rule: columns already playing another role (``by=`` keys, the metric, other roles) are not
candidates; a column named after the role itself (``learner``; ``block`` or ``dataset`` for the
block, and ``block`` when both are present) wins; otherwise exactly one candidate must be present — none or several raise a typed
error that lists the columns or the candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from frameeval._frame import to_lazy
from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError

COMMON_NAMES: dict[str, tuple[str, ...]] = {
    "truth": ("truth", "y_true", "y", "target", "label", "actual"),
    "pred": ("pred", "y_pred", "p", "prediction", "predicted"),
    "score": ("score", "y_score", "s", "proba", "prob", "probability"),
    "learner": ("learner", "model", "estimator", "classifier", "algorithm"),
    "block": ("block", "dataset", "data", "task", "data_set"),
    "fold": ("fold", "split", "cv", "cv_fold"),
    "repeat": ("repeat", "run", "seed"),
    "instance": ("instance", "row_id", "instance_id", "id"),
}

#: names that win over the other common names of their role: the role's own, and ``dataset``
#: for the block
PREFERRED: dict[str, tuple[str, ...]] = {role: (role,) for role in COMMON_NAMES}
PREFERRED["block"] = ("block", "dataset")


def keyword(role: str) -> str:
    """How a library call spells a role: ``learner=``."""
    return f"{role}="


def column_names(data: Any, func: str) -> list[str]:
    """The column names of any supported input, without computing or converting it."""
    import polars as pl

    if isinstance(data, pl.DataFrame):
        return data.columns
    if isinstance(data, pl.LazyFrame):
        return data.collect_schema().names()
    module = type(data).__module__.split(".")[0]
    if module == "pandas":
        return [str(c) for c in data.columns]
    if module == "pyarrow" and hasattr(data, "column_names"):
        return list(data.column_names)

    return to_lazy(data, func)[0].collect_schema().names()


def infer_column(
    names: Sequence[str],
    role: str,
    *,
    where: str,
    exclude: Iterable[str | None] = (),
    required: bool = True,
    spell: Callable[[str], str] = keyword,
    strict: bool = False,
) -> str | None:
    """The column of ``names`` that plays ``role`` (see the module docstring for the rule).

    ``where`` starts the error message (``"friedman()"``, ``"frameeval report"``) and ``spell``
    writes the role as the user would (``learner=``, ``--learner``). Returns None when nothing
    matches and the role is not ``required``. ``strict``: several candidates raise even when
    one has a preferred name.
    """
    taken = {c for c in exclude if c is not None}
    free = [n for n in names if n not in taken]
    common = COMMON_NAMES[role]
    found = [n for n in free if n.lower() in common]
    preferred = [] if strict else [n for n in found if n.lower() in PREFERRED[role]]
    if len(preferred) == 1:
        return preferred[0]
    exact = [n for n in preferred if n.lower() == role]
    if len(exact) == 1:  # ``block`` beside ``dataset``: the role's own name wins
        return exact[0]
    if len(found) == 1:
        return found[0]
    flag = spell(role)
    if not found:
        if not required:
            return None
        raise ColumnNotFoundError(
            f"{where}: {flag} must be given when no column has a common {role} name "
            f"({', '.join(common)}), got columns {list(names)}."
        )
    candidates = sorted(found, key=lambda n: common.index(n.lower()))
    raise InvalidParameterError(
        f"{where}: {flag} must be given when several columns have a common {role} name, "
        f"got candidates {candidates}."
    )


def resolve(
    data: Any, func: str, exclude: Iterable[Any] = (), **roles: str | None
) -> tuple[str, ...]:
    """The columns of ``roles`` (``learner=None, block="dataset"``…) in the order given: a name
    is kept as it is, ``None`` is inferred from the column names of ``data``. ``exclude`` holds
    columns that play other parts (``by=`` keys, the metric); given roles are excluded too."""
    if all(value is not None for value in roles.values()):
        return tuple(roles.values())  # type: ignore[arg-type]
    names = column_names(data, func)
    taken: list[str] = [c for c in _flat(exclude) if isinstance(c, str)] + [
        v for v in roles.values() if isinstance(v, str)
    ]
    out: list[str] = []
    for role, value in roles.items():  # loop-ok: a handful of roles, builds no plan
        if value is None:
            value = infer_column(names, role, where=f"{func}()", exclude=taken)
            taken.append(value)  # type: ignore[arg-type]
        out.append(value)  # type: ignore[arg-type]
    return tuple(out)


def _flat(values: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if value is None:
            continue
        if isinstance(value, str) or not isinstance(value, Iterable):
            out.append(value)
        else:
            out.extend(value)
    return out
