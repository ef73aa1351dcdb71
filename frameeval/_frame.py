"""Frame plumbing: accept any supported input, return the kind the user gave.

Every public frame function calls :func:`to_lazy` at the door and :func:`finish` on the way out:
a ``pl.LazyFrame`` comes back lazy (nothing is collected behind the user's back); a
``pl.DataFrame``, pandas ``DataFrame`` or pyarrow ``Table`` is computed and returned as a
``pl.DataFrame``. Data checks are part of the lazy plan (see :mod:`frameeval._validate`); when
frameeval collects, an embedded check that fails is re-raised as its ``FrameEvalError`` subclass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal, overload

import polars as pl

from frameeval import exceptions
from frameeval.exceptions import FrameEvalError, InvalidParameterError

#: the top-level functions with a form in :mod:`frameeval.dask` (tests check it is that list)
DASK_FORMS = frozenset(
    {
        "best_threshold",
        "bootstrap_ci",
        "bootstrap_replicates",
        "break_even_point",
        "classification_report",
        "confusion_matrix",
        "contingency_table",
        "cost_curve",
        "cost_lines",
        "cost_sensitive_error",
        "expected_total_cost",
        "macro_micro",
        "mcnemar",
        "measures",
        "pr_curve",
        "ranking_report",
        "roc_convex_hull",
        "roc_curve",
    }
)

#: a failed check in a Polars error: ``frameeval[<Error>]: <message>`` up to the end of the quoted
#: value or a line break (a line break before ``Hint:`` belongs to the message)
_EMBEDDED = re.compile(r'frameeval\[(\w+)\]: (.*?)(?:"\]|", "|"\)|"$|\n(?!Hint: ))', re.S)


def to_lazy(data: Any, func: str) -> tuple[pl.LazyFrame, bool]:
    """Return ``(lazy_frame, eager)`` for any supported input; ``eager`` is False only for a LazyFrame."""
    if isinstance(data, pl.LazyFrame):
        return data, False
    if isinstance(data, pl.DataFrame):
        return data.lazy(), True
    module = type(data).__module__.split(".")[0]
    if module in {"pandas", "pyarrow"}:
        converted = pl.from_pandas(data) if module == "pandas" else pl.from_arrow(data)
        if isinstance(converted, pl.Series):  # a pyarrow Array / ChunkedArray
            converted = converted.to_frame()
        return converted.lazy(), True
    if is_dask(data):
        hint = (
            f"call frameeval.dask.{func}(data, ...), which runs it on the Dask cluster"
            if func in DASK_FORMS
            else f"{func}() has no Dask form (see frameeval.dask for those that do); "
            "collect the data first (data.compute()) if it fits in memory"
        )
        raise InvalidParameterError(
            f"{func}(): data must be a polars DataFrame or LazyFrame (or a pandas DataFrame / "
            f"pyarrow Table), got a Dask {type(data).__name__} ({type(data).__module__}).\n"
            f"Hint: {hint}."
        )
    raise InvalidParameterError(
        f"{func}(): data must be a polars DataFrame or LazyFrame (or a pandas DataFrame / "
        f"pyarrow Table), got {type(data).__name__}."
    )


def is_dask(data: Any) -> bool:
    """A Dask collection (legacy ``dask.dataframe`` or dask-expr), recognised without importing
    Dask."""
    return any(cls.__module__.split(".")[0] in {"dask", "dask_expr"} for cls in type(data).__mro__)


@overload
def finish(lf: pl.LazyFrame, eager: Literal[True]) -> pl.DataFrame: ...
@overload
def finish(lf: pl.LazyFrame, eager: Literal[False]) -> pl.LazyFrame: ...
@overload
def finish(lf: pl.LazyFrame, eager: bool) -> pl.DataFrame | pl.LazyFrame: ...


def finish(lf: pl.LazyFrame, eager: bool) -> pl.DataFrame | pl.LazyFrame:
    """Collect when the input was eager (translating embedded check failures), else return lazy.

    ``eager`` comes from :func:`to_lazy`; the public function's type states which kind the
    caller gets back (see :func:`frameeval._typing.frame_function`).
    """
    return collect(lf) if eager else lf


def collect(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Collect a frameeval plan, re-raising failed data checks as ``FrameEvalError`` subclasses.

    A LazyFrame returned by frameeval carries its data checks inside the plan; collected with
    ``LazyFrame.collect()`` a failed check surfaces as a Polars ``InvalidOperationError`` whose
    text holds frameeval's message. ``frameeval.collect(lf)`` raises the typed error instead.

    Examples
    --------
    >>> lf = pl.LazyFrame({"y": [1, 0, 1], "p": [1, 1, 1]})
    >>> fe.collect(fe.confusion_matrix(lf, truth="y", pred="p")).height
    4
    """
    if isinstance(lf, pl.DataFrame):
        return lf
    try:
        return lf.collect()
    except pl.exceptions.PolarsError as err:
        translated = translate(err)
        if translated is None:
            raise
        raise translated from None


def translate(err: BaseException) -> FrameEvalError | None:
    """The FrameEvalError embedded in a Polars error's text, if any."""
    # only the failure itself, not the plan Polars prints after it (which quotes every guard)
    text = str(err)
    for marker in ("\n\nThis error occurred", "\n\nResolved plan", "\nResolved plan"):
        text = text.split(marker, 1)[0]
    match = _EMBEDDED.search(text)
    if match is None:
        return None
    cls = getattr(exceptions, match.group(1), FrameEvalError)
    if not (isinstance(cls, type) and issubclass(cls, FrameEvalError)):
        cls = FrameEvalError
    return cls(match.group(2).replace('\\"', '"'))


def as_keys(by: str | Sequence[str] | None) -> list[str]:
    """Normalise ``by=`` to a list of column names."""
    if by is None:
        return []
    if isinstance(by, str) or not isinstance(by, Iterable):
        # a scalar that is not a name (by=1) is left for require_columns to report
        return [by]
    return list(by)
