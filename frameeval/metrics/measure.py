"""The Measure object: one declaration per measure, every face generated from it.

A :class:`Measure` holds what a measure *is* — its name, the kind of input it reads, the formula
over its sufficient statistics, its direction and range, when it is undefined, its equation and
references — and nothing about where it is shown. From that one declaration come

* the expression builder (``fe.precision("y", "p")``, a ``pl.Expr`` for any ``select``,
  ``group_by().agg()`` or ``.over()``), with its input guard and its docstring;
* the columns of :func:`frameeval.measures` and of the reports (the formula applied to the
  statistics those functions count once per group);
* the per-threshold columns of :func:`frameeval.threshold_table`;
* the property tests (parametrised over :data:`MEASURES`) and the docs table
  (:func:`measure_table`).

Users register their own measure with :func:`register`; it then works wherever a built-in does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import Any, Literal

import polars as pl

from frameeval._deprecation import keyword_only_after
from frameeval.exceptions import InvalidParameterError
from frameeval.metrics.builders import REQUIRED, make_builder, raw_value
from frameeval.metrics.stats import BinaryCounts, Bound, ClassCounts, ScoreTable, Statistic, Sums

Kind = Literal["label", "binary", "score", "probability", "regression"]

KINDS: tuple[str, ...] = ("label", "binary", "score", "probability", "regression")
AVERAGES: tuple[str, ...] = ("binary", "macro", "macro_mean", "micro", "weighted")

STATISTICS = {
    "label": "confusion counts per class (ClassCounts)",
    "binary": "TP, FP, FN, TN (BinaryCounts)",
    "score": "positive / negative mass per distinct score (ScoreTable)",
    "probability": "sums of a per-row loss and of the weights",
    "regression": "named per-group sums (Σw, Σw·y, Σw·y², Σw·e², …), a min / max or a median",
}

COLUMNS = {
    "label": ("truth", "pred"),
    "binary": ("truth", "pred"),
    "score": ("truth", "score"),
    "probability": ("truth", "score"),
    "regression": ("truth", "pred"),
}


_KEYWORD_ONLY = (
    "undefined", "references", "parameters", "check", "term", "macro", "rows", "aliases",
    "example", "stats", "domain", "proportion", "display",
)  # fmt: skip


@keyword_only_after(9, *_KEYWORD_ONLY)
@dataclass(frozen=True, eq=False)
class Measure:
    """The declaration of one measure.

    Declare it by keyword (``Measure(name="f1", kind="binary", formula=..., higher_is_better=True,
    lower=0.0, upper=1.0, equation="2.11", description=..., formula_text=...)``). The nine
    fields from ``name`` to ``formula_text`` may also be given by position; the fields after
    them are keyword-only (by position they still work for one release, with a
    DeprecationWarning).

    Parameters
    ----------
    name
        Registry key and output column name.
    kind
        ``"label"`` (multiclass, from the confusion counts: :class:`ClassCounts`), ``"binary"``
        (from TP, FP, FN, TN of a positive class: :class:`BinaryCounts`; macro / micro /
        weighted averages over classes come for free), ``"score"`` (from the per-distinct-score
        masses: :class:`ScoreTable`), ``"probability"`` and ``"regression"`` (from sums of a
        per-row term).
    formula
        The value from the statistics: ``formula(stats, **parameters) -> pl.Expr``. For
        ``"probability"`` measures (and ``"regression"`` ones declared with ``term=``),
        ``formula(term_sum, weight_sum, **parameters)`` and ``term`` gives the per-row term; a
        ``"regression"`` measure declared with ``stats=`` gets ``formula(sums, **parameters)``,
        where ``sums.<name>`` is the statistic named so in ``stats``.
    higher_is_better, lower, upper
        Direction and range (``upper=None``: unbounded).
    equation
        Equation number in chapter 2 of Zhou's *Machine Learning* (``"—"`` if none).
    description
        One line: what the number means.
    formula_text
        The formula as text, for docs and docstrings.
    undefined
        When the value is null (and why).
    references
        Primary sources.
    parameters
        Extra keyword parameters and their defaults (:data:`REQUIRED` for none).
    check
        Validates the parameters: ``check(func, **parameters)`` raises
        ``InvalidParameterError`` (optional).
    term
        Per-row term of a sum-based measure: ``term(truth, pred_or_score, **parameters)``.
    macro
        How ``average="macro"`` combines classes: ``None`` = the mean of the per-class values;
        otherwise ``macro(mean_of, **parameters)``, where ``mean_of(name)`` is the macro value of
        another binary measure (F-beta of macro-P and macro-R, eq 2.14).
    rows
        Score measures only: an exact identity of ``formula`` evaluated on rows,
        ``rows(truth, score, positive, weight)``, which the expression builder uses when it is
        faster inside a group (AUC as the Mann–Whitney rank sum); the frame functions always
        evaluate ``formula`` on the count table, and the property tests check both agree. A
        form that reads per-group scalars only may take ``read`` as well (given without
        weights, in an eager query): it then passes each aggregate through it,
        ``read(pl.len())``, so that the in-memory engine computes it once.
    aliases
        Other registry names of this same object (``specificity`` for ``tnr``).
    example
        The value on the docs' six-row frame, as a doctest prints it (rounded to 4 places).
    stats
        Regression measures: the named per-group statistics the formula reads
        (:class:`Statistic`), instead of one ``term``.
    domain
        Regression measures: ``domain(**parameters)`` → the :class:`Bound` rules truth and
        prediction must satisfy (a value outside is a typed error on every face).
    display
        The name a reader reads in the report, the results tables and the verdicts
        (``"RMSE"``, ``"R²"``, ``"ROC AUC"``); empty: the name with spaces for underscores
        (:attr:`display_name`).
    proportion
        Label and binary measures that are a share of counts: ``proportion(stats) ->
        (successes, trials)`` from the same statistics as ``formula`` (TP and TP + FP for
        precision). ``fe.measures(ci=...)`` then gives them Wilson score intervals
        (:mod:`frameeval.uncertainty.intervals`); ``None``: a bootstrap interval.
    """

    name: str
    kind: Kind
    formula: Callable[..., pl.Expr]
    higher_is_better: bool
    lower: float
    upper: float | None
    equation: str
    description: str
    formula_text: str
    _: KW_ONLY
    undefined: str = "never"
    references: tuple[str, ...] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)
    check: Callable[..., None] | None = None
    term: Callable[..., pl.Expr] | None = None
    macro: Callable[..., pl.Expr] | None = None
    rows: Callable[..., pl.Expr] | None = None
    aliases: tuple[str, ...] = ()
    example: str = ""
    stats: Mapping[str, Statistic] | None = None
    domain: Callable[..., tuple[Bound, ...]] | None = None
    proportion: Callable[..., tuple[pl.Expr, pl.Expr]] | None = None
    display: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidParameterError(
                f"Measure(): kind must be one of {list(KINDS)}, got {self.kind!r}."
            )
        if not self.name.isidentifier():
            raise InvalidParameterError(
                f"Measure(): name must be a valid identifier, got {self.name!r}."
            )
        if self.kind == "regression" and self.stats is not None:
            return
        if self.kind in ("probability", "regression") and self.term is None:
            raise InvalidParameterError(
                f"Measure(): a {self.kind} measure needs term=, got None for {self.name!r}."
            )

    # -- metadata ------------------------------------------------------------------------------
    @property
    def display_name(self) -> str:
        """The name a reader reads (report, tables, verdicts): ``display`` when declared
        (``"RMSE"``, ``"ROC AUC"``), else the name with spaces (``"macro precision"``)."""
        return self.display or self.name.replace("_", " ")

    @property
    def columns(self) -> tuple[str, str]:
        """Roles of the builder's two positional columns."""
        return COLUMNS[self.kind]

    @property
    def statistics(self) -> str:
        """The sufficient statistics the formula reads."""
        return STATISTICS[self.kind]

    @property
    def averages(self) -> tuple[str, ...]:
        """The ``average=`` values the builder accepts (binary measures only)."""
        if self.kind != "binary":
            return ()
        if "average" in self.parameters:
            return (self.parameters["average"],)
        return AVERAGES

    def configure(self, name: str | None = None, **parameters: Any) -> Measure:
        """A configured copy: other parameter defaults (and a new ``name``), e.g.
        ``fe.MEASURES["fbeta"].configure("f2", beta=2.0)``."""
        unknown = set(parameters) - set(self.parameters) - {"pos_label", "average", "zero_division"}
        if unknown:
            raise InvalidParameterError(
                f"Measure.configure(): {self.name} has no parameter {sorted(unknown)}, "
                f"got {sorted(parameters)}; it takes {sorted(self.parameters)}."
            )
        merged = {**self.parameters, **parameters}
        return replace(self, name=name or self.name, parameters=merged, aliases=())

    # -- the expression face ---------------------------------------------------------------
    @property
    def builder(self) -> Callable[..., pl.Expr]:
        """The expression builder (``fe.<name>``) generated from this declaration."""
        cached = self.__dict__.get("_builder")
        if cached is None:
            cached = make_builder(self)
            object.__setattr__(self, "_builder", cached)  # frozen dataclass: cache once
        return cached

    def value(self, truth: str, other: str, **options: Any) -> pl.Expr:
        """The measure's value from the columns of a weighted long frame, without input checks.

        This is what the builder computes after its guard, and what the frame functions apply
        to the count tables they have already checked (``truth="actual", other="predicted",
        weight="count"``). ``options``: ``weight``, ``pos_label``, ``average``,
        ``zero_division``, ``classes``, ``table`` and the measure's parameters, as
        :func:`~frameeval.metrics.builders.raw_value` takes them.
        """
        return raw_value(self, truth, other, **options)

    def __repr__(self) -> str:
        return f"Measure({self.name!r}, kind={self.kind!r}, eq {self.equation})"


MEASURES: dict[str, Measure] = {}
"""The registry: name (and alias) → :class:`Measure`."""


def register(measure: Measure, *, replace_existing: bool = False) -> Measure:
    """Add a measure (and its aliases) to :data:`MEASURES`; returns it.

    Raises ``InvalidParameterError`` when the name is taken by another measure, unless
    ``replace_existing=True``.

    Examples
    --------
    >>> share = fe.Measure(
    ...     name="positive_share", kind="binary", formula=lambda c: c.predicted / c.total,
    ...     higher_is_better=True, lower=0.0, upper=1.0, equation="—",
    ...     description="share of rows predicted positive", formula_text="(TP + FP) / m")
    >>> _ = fe.register(share)
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> fe.measures(df, truth="y", pred="p", measures=["positive_share"])["positive_share"][0]
    0.5
    >>> _ = fe.MEASURES.pop("positive_share")
    """
    for name in (measure.name, *measure.aliases):
        old = MEASURES.get(name)
        if old is not None and old is not measure and not replace_existing:
            raise InvalidParameterError(
                f"register(): a measure named {name!r} is already registered, got another one."
                "\nHint: pass replace_existing=True to replace it."
            )
        MEASURES[name] = measure
    return measure


def declare(**declaration: Any) -> Measure:
    """A built-in measure: its :class:`Measure`, declared by keyword, registered."""
    return register(Measure(**declaration))


def publish(namespace: dict[str, Any], *helpers: str) -> list[str]:
    """Give a module the expression builders of the measures it declares; returns its
    ``__all__``.

    ``namespace`` is the module's ``globals()``: each registered :class:`Measure` bound there
    to an upper-case constant gets its builder under its name and under each alias (``tpr``,
    ``specificity``: builders of their own name), and the builders' docstring examples become
    the module's doctests (``__test__``). ``__all__`` is ``helpers``, the constants and the
    builders: the measure's name is written once, in its declaration.
    """
    constants = {
        key: value
        for key, value in namespace.items()
        if key.isupper() and isinstance(value, Measure) and MEASURES.get(value.name) is value
    }
    builders: dict[str, Callable[..., pl.Expr]] = {}
    for measure in constants.values():
        builders[measure.name] = measure.builder
        builders.update({alias: make_builder(measure, alias) for alias in measure.aliases})
    namespace.update(builders)
    namespace["__test__"] = {name: builder.__doc__ or "" for name, builder in builders.items()}
    return sorted([*helpers, *constants, *builders])


def builders_of(*modules: Any) -> dict[str, Callable[..., pl.Expr]]:
    """The expression builders ``modules`` publish (:func:`publish`), by public name."""
    return {
        name: value
        for module in modules
        for name in module.__all__
        if callable(value := getattr(module, name))
        and isinstance(getattr(value, "measure", None), Measure)
    }


def display_name(metric: str) -> str:
    """The display name of a registered measure (``"rmse"`` → ``"RMSE"``); any other column
    name as it is."""
    found = MEASURES.get(metric)
    return found.display_name if found is not None else metric


def lookup(func: str, measure: str | Measure) -> Measure:
    """The registered measure named ``measure`` (or ``measure`` itself), with a clear error."""
    if isinstance(measure, Measure):
        return measure
    found = MEASURES.get(measure) if isinstance(measure, str) else None
    if found is None:
        import difflib

        close = difflib.get_close_matches(str(measure), list(MEASURES), n=1)
        hint = f"\nHint: did you mean {close[0]!r}?" if close else ""
        raise InvalidParameterError(
            f"{func}(): measures must be registered measure names or fe.Measure objects, "
            f"got {measure!r}.{hint}"
        )
    return found


def measure_table() -> pl.DataFrame:
    """The registry as a frame (one row per measure, aliases folded in): the docs table.

    Columns: ``name, aliases, kind, statistics, formula, equation, higher_is_better, lower,
    upper, undefined, description``.
    """
    seen: list[Measure] = []
    for m in MEASURES.values():
        if not any(m is s for s in seen):
            seen.append(m)
    return pl.DataFrame(
        {
            "name": [m.name for m in seen],
            "aliases": [", ".join(m.aliases) for m in seen],
            "kind": [m.kind for m in seen],
            "statistics": [m.statistics for m in seen],
            "formula": [m.formula_text for m in seen],
            "equation": [m.equation for m in seen],
            "higher_is_better": [m.higher_is_better for m in seen],
            "lower": [m.lower for m in seen],
            "upper": [m.upper for m in seen],
            "undefined": [m.undefined for m in seen],
            "description": [m.description for m in seen],
        },
        schema_overrides={"upper": pl.Float64, "lower": pl.Float64},
    )


__all__ = [
    "AVERAGES",
    "KINDS",
    "Bound",
    "Statistic",
    "Sums",
    "MEASURES",
    "builders_of",
    "declare",
    "REQUIRED",
    "BinaryCounts",
    "ClassCounts",
    "Measure",
    "ScoreTable",
    "lookup",
    "measure_table",
    "publish",
    "register",
]
