"""The public functions of :mod:`frameeval.dask`, generated from one table (:data:`FORMS`):
each has the signature of its single-machine namesake plus ``client=`` and runs one mode.
"""

from __future__ import annotations

import functools
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

import frameeval.confusion as _confusion
import frameeval.curves as _curves
import frameeval.measure_set as _measure_set
import frameeval.thresholds as _thresholds
import frameeval.uncertainty as _uncertainty
from frameeval._frame import as_keys, collect
from frameeval.compare import contingency_table as _contingency_table
from frameeval.compare import mcnemar as _mcnemar
from frameeval.compare.mcnemar import cells_table, mcnemar_test
from frameeval.dask._measures import run_measures
from frameeval.dask._merge import run_merge
from frameeval.dask._shuffle import run_bootstrap, run_pairs
from frameeval.exceptions import InvalidParameterError

# ---------------------------------------------------------------------------------------------
# public functions, generated from one table
# ---------------------------------------------------------------------------------------------
_SPLIT = 8

_CLIENT_DOC = """client
    A ``distributed.Client`` to run on (local or remote); default None uses Dask's current
    scheduler (the active client if there is one)."""
_SPLIT_DOC = """split_every
    Fan-in of the tree reduction of the partial counts (>= 2)."""


@dataclass(frozen=True)
class _Form:
    """One public function of this module: how it runs and what its docstring says.

    ``mode`` is ``"merge"`` (partial counts, tree reduction, the single-machine function on the
    merged counts), ``"pairs"`` (shuffle by ``*by, instance``, McNemar's cells),
    ``"bootstrap"`` (shuffle by the ``by`` keys, the single-machine function per partition) or
    ``"measures"`` (count table and sums, see :func:`run_measures`). For ``"merge"``, ``labels``
    and ``numbers`` name the parameters whose columns are label-checked and finite-checked
    (in that order, with their roles), ``extra_keys`` a parameter whose columns join the keys
    of the count table.
    """

    single: Callable[..., Any]
    summary: str
    returns: str
    example: str
    mode: str = "merge"
    labels: tuple[str, ...] = ("truth", "pred")
    numbers: tuple[str, ...] = ()
    extra_keys: str | None = None
    notes: str = ""
    data_doc: str = "A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them."
    parameter_docs: tuple[tuple[str, str], ...] = ()
    finish: Callable[..., Any] | None = None


def _scored(single: Callable[..., Any], summary: str, returns: str, example: str) -> _Form:
    """The form of a ``"merge"`` function of a truth label and a score (curves, thresholds)."""
    return _Form(single, summary, returns, example, labels=("truth",), numbers=("score",))


def dask_signature(single: Callable[..., Any], *, split_every: bool) -> inspect.Signature:
    """The single-machine signature with ``data: Any``, plus ``client=`` (and
    ``split_every=`` where partials are tree-reduced), returning ``pl.DataFrame``."""
    parameters = [
        p.replace(annotation=Any) if p.name == "data" else p
        for p in inspect.signature(single).parameters.values()
    ]
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters.append(inspect.Parameter("client", keyword, default=None, annotation=Any))
    if split_every:
        parameters.append(inspect.Parameter("split_every", keyword, default=_SPLIT, annotation=int))
    return inspect.Signature(parameters, return_annotation=pl.DataFrame)


def dask_function(
    name: str,
    module: str,
    single: Callable[..., Any],
    doc: str,
    run: Callable[[dict[str, Any], Any, Any], pl.DataFrame],
    *,
    split_every: bool = True,
) -> Callable[..., pl.DataFrame]:
    """The public Dask form ``module.name`` of ``single``: its signature
    (:func:`dask_signature`), the docstring ``doc``, and ``run(arguments, client,
    split_every)`` on the bound arguments (defaults applied; ``split_every`` None without it)."""
    signature = dask_signature(single, split_every=split_every)

    def function(*args: Any, **kwargs: Any) -> pl.DataFrame:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        client = arguments.pop("client")
        return run(arguments, client, arguments.pop("split_every", None))

    function.__signature__ = signature  # type: ignore[attr-defined]
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    function.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()} | {
        "return": pl.DataFrame
    }
    function.__module__ = module  # where it is exported (and its doctest collected)
    return function


def _docstring(name: str, form: _Form, split_every: bool) -> str:
    own = dict(form.parameter_docs)
    shared = [p for p in inspect.signature(form.single).parameters if p not in {"data", *own}]
    lines = [
        form.summary,
        "",
        "Parameters",
        "----------",
        "data",
        textwrap.indent(form.data_doc, "    "),
        ", ".join(shared),
        f"    As in :func:`frameeval.{name}`.",
    ]
    for parameter, text in form.parameter_docs:
        lines += [parameter, textwrap.indent(text, "    ")]
    lines.append(_CLIENT_DOC)
    if split_every:
        lines.append(_SPLIT_DOC)
    lines += ["", "Returns", "-------", "pl.DataFrame", textwrap.indent(form.returns, "    ")]
    if form.notes:
        lines += ["", "Notes", "-----", form.notes]
    lines += ["", "Examples", "--------", form.example]
    return "\n".join(lines) + "\n"


def _run(
    name: str, form: _Form, arguments: dict[str, Any], client: Any, split_every: Any
) -> pl.DataFrame:
    """The call of ``form``'s mode on the bound ``arguments``."""
    if arguments.get("ci") is not None or arguments.get("ci_method") is not None:
        # intervals (frameeval.uncertainty.intervals) run on one machine only for now: the
        # merged counts would reach them as weights, one bootstrap unit per cell
        raise InvalidParameterError(
            f"{name}(): ci= is not supported on a Dask DataFrame, got ci="
            f"{arguments.get('ci')!r}.\nHint: compute the values on Dask, or the intervals "
            "on a Polars frame."
        )
    if form.mode == "measures":
        return run_measures(arguments, client, split_every)
    data = arguments.pop("data")
    if form.mode == "pairs":
        counts, keys = run_pairs(data, name, form.single, arguments, client, split_every)
        assert form.finish is not None
        return collect(form.finish(counts, keys, **arguments))
    if form.mode == "bootstrap":
        return run_bootstrap(data, name, arguments, client)
    by, weight = arguments.pop("by"), arguments.pop("weight")
    out = run_merge(
        data, name, form.single, arguments,
        by=by,
        extra_keys=as_keys(arguments[form.extra_keys]) if form.extra_keys else (),
        labels_of=[(arguments[p], p) for p in form.labels],
        numbers=[(arguments[p], p) for p in form.numbers],
        weight=weight, labels=arguments.get("labels"),
        client=client, split_every=split_every,
    )  # fmt: skip
    result: pl.DataFrame = form.finish(out, weight) if form.finish else out
    return result


def _make(name: str, form: _Form) -> Callable[..., pl.DataFrame]:
    """The public function ``name``: a real signature and docstring, and the call of its mode."""
    split = form.mode != "bootstrap"
    doc, run = _docstring(name, form, split), functools.partial(_run, name, form)
    return dask_function(name, "frameeval.dask", form.single, doc, run, split_every=split)


def _count_dtype(out: pl.DataFrame, weight: str | None) -> pl.DataFrame:
    return out if weight else out.with_columns(pl.col("count").cast(pl.Int64))


def _mcnemar_finish(counts: pl.LazyFrame, keys: list[str], *, exact: bool, alpha: float) -> Any:
    return mcnemar_test(counts, keys, exact, float(alpha))


def _contingency_finish(counts: pl.LazyFrame, keys: list[str]) -> Any:
    return cells_table(counts, keys)


_IMPORT = ">>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed"
_SCORES = (
    f'{_IMPORT}\n>>> pdf = pd.DataFrame({{"y": [1, 0, 1, 1, 0, 0], '
    '"s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]})\n'
)
_SCORES4 = f'{_IMPORT}\n>>> pdf = pd.DataFrame({{"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]}})\n'
_SHUFFLE_NOTES = """The checks and their messages are those of one machine. A null ``instance`` and duplicate
(instance, learner) rows are found per partition after the shuffle (a partition holds
every row of its instances); label checks (null, non-integral float), learners without
rows, unpaired instances (their number and the first five) and two truths for one
instance are merged counts, enforced on the client in that order. When several instances
have two truths, the smallest is named (one machine names the first it meets)."""
_BOOTSTRAP_DATA = (
    '{"g": ["a", "a", "a", "b", "b", "b"], "row": [1, 2, 3, 1, 2, 3],\n'
    '...                     "y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}'
)
_INSTANCE_REQUIRED = (
    "instance",
    "The resampling unit, unique within each group: **required** here (see Notes of\n"
    ":func:`bootstrap_replicates`).",
)

#: every public function of this module, from its single-machine namesake
_FORMS: dict[str, _Form] = {
    "confusion_matrix": _Form(
        _confusion.confusion_matrix,
        "Grouped confusion matrices (Table 2.1) of a dask DataFrame or Parquet files.",
        "``*by, actual, predicted, count``, identical to :func:`frameeval.confusion_matrix` on\n"
        "all rows: ``count`` = the number of rows (Int64) or weight sum (Float64) of the cell.",
        f"{_IMPORT}\n"
        '>>> ddf = dd.from_pandas(pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}),\n'
        "...                      npartitions=3)\n"
        '>>> fed.confusion_matrix(ddf, truth="y", pred="p").rows()\n'
        "[(0, 0, 2), (0, 1, 1), (1, 0, 1), (1, 1, 2)]",
        notes="TP = count(pos, pos), FN = count(pos, neg), FP = count(neg, pos), TN = count(neg,\n"
        "neg), TP + FP + TN + FN = m. Per-partition cell counts add up to the full counts exactly.",
        data_doc="A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them (one "
        "task each).",
        finish=_count_dtype,
    ),
    "classification_report": _Form(
        _confusion.classification_report,
        "Per-class P, R, F-beta and support with macro, micro and weighted rows, on Dask.",
        "``*by, average, label, precision, recall, f1, support`` (``fbeta`` when ``beta != 1``) as\n"
        ":func:`frameeval.classification_report`: P = TP/(TP+FP) (eq 2.8), R = TP/(TP+FN)\n"
        "(eq 2.9), Fβ (eq 2.11), macro (eqs 2.12–2.14) and micro (eqs 2.15–2.17) averages;\n"
        "null for 0/0 unless ``zero_division``.",
        f"{_IMPORT}\n"
        '>>> ddf = dd.from_pandas(pd.DataFrame({"y": [0, 1, 2, 2, 1, 0], "p": [0, 2, 2, 2, 1, 1]}),\n'
        "...                      npartitions=2)\n"
        '>>> r = fed.classification_report(ddf, truth="y", pred="p")\n'
        '>>> round(r.filter(average="micro")["f1"].item(), 4)\n'
        "0.6667",
    ),
    "macro_micro": _Form(
        _confusion.macro_micro,
        "Macro and micro averages over several binary confusion matrices (2.3.2), on Dask.",
        "``*by, n_matrices, macro_precision, macro_recall, macro_f1, mean_f1, micro_precision,\n"
        "micro_recall, micro_f1`` (eqs 2.12–2.17), as :func:`frameeval.macro_micro`.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"fold": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0],\n'
        '...                     "p": [1, 0, 0, 1, 1, 0]})\n'
        '>>> out = fed.macro_micro(dd.from_pandas(pdf, npartitions=2), truth="y", pred="p",\n'
        '...                       across="fold")\n'
        '>>> round(out["macro_precision"].item(), 4)\n'
        "0.75",
        extra_keys="across",
    ),
    "cost_sensitive_error": _Form(
        _confusion.cost_sensitive_error,
        "Cost-sensitive error rate Σ w·cost(y, f(x)) / Σ w (eq 2.23), on Dask.",
        "``*by, cost_sensitive_error``, as :func:`frameeval.cost_sensitive_error`.",
        f"{_IMPORT}\n"
        '>>> ddf = dd.from_pandas(pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}),\n'
        "...                      npartitions=2)\n"
        '>>> fed.cost_sensitive_error(ddf, truth="y", pred="p", costs={(1, 0): 5.0, (0, 1): 1.0}).item()\n'
        "1.0",
    ),
    "roc_curve": _scored(
        _curves.roc_curve,
        "ROC curves, one point per distinct score (figure 2.4), on Dask.",
        "``*by, threshold, fpr, tpr``: FPR = FP/(TN+FP) (eq 2.19), TPR = TP/(TP+FN) (eq 2.18)\n"
        "at each threshold, bit-identical to :func:`frameeval.roc_curve`.",
        f'{_SCORES}>>> fed.roc_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height\n6',
    ),
    "roc_convex_hull": _scored(
        _curves.roc_convex_hull,
        "The ROC convex hull's vertices, on Dask (see :func:`frameeval.roc_convex_hull`).",
        "``*by, threshold, fpr, tpr`` of the hull vertices (eqs 2.18–2.19).",
        f'{_SCORES}>>> fed.roc_convex_hull(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height\n4',
    ),
    "pr_curve": _scored(
        _curves.pr_curve,
        "Precision-recall curves (figure 2.3), on Dask (see :func:`frameeval.pr_curve`).",
        "``*by, threshold, recall, precision``: R = TP/(TP+FN) (eq 2.9), P = TP/(TP+FP)\n"
        "(eq 2.8) at each distinct score.",
        f'{_SCORES}>>> fed.pr_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")["recall"][-1]\n1.0',
    ),
    "ranking_report": _scored(
        _curves.ranking_report,
        "Exact AUC, rank loss, average precision and P-R area per group, on Dask.",
        "``*by, roc_auc, rank_loss, average_precision, pr_auc`` as\n"
        ":func:`frameeval.ranking_report`: AUC = 1 − ℓ_rank (eqs 2.21–2.22), ties one half;\n"
        "null when a group has one class.",
        f'{_SCORES}>>> out = fed.ranking_report(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")\n'
        '>>> round(out["roc_auc"].item(), 4)\n0.8333',
    ),
    "break_even_point": _scored(
        _curves.break_even_point,
        "Break-even point (P = R on the P-R curve), on Dask (see\n"
        ":func:`frameeval.break_even_point`).",
        "``*by, break_even_point``; null when a group has no positive row.",
        f'{_SCORES4}>>> fed.break_even_point(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").item()\n0.5',
    ),
    "best_threshold": _scored(
        _thresholds.best_threshold,
        "The best operating point per group — by a measure (default F1), by expected cost or\n"
        "under a constraint — on Dask (see :func:`frameeval.best_threshold`).",
        "``*by, threshold, precision, recall, <measure>`` (``expected_cost`` with ``costs=``).",
        f'{_SCORES}>>> out = fed.best_threshold(dd.from_pandas(pdf, npartitions=2), truth="y", score="s")\n'
        '>>> out["threshold"].item()\n0.4',
    ),
    "cost_lines": _scored(
        _curves.cost_lines,
        "One cost line per ROC point (figure 2.5, eq 2.25), on Dask (see\n"
        ":func:`frameeval.cost_lines`).",
        "``*by, threshold, p_cost, norm_cost``.",
        f'{_SCORES4}>>> fed.cost_lines(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").height\n10',
    ),
    "cost_curve": _scored(
        _curves.cost_curve,
        "The cost curve (lower envelope of the cost lines, figure 2.5, eqs 2.24–2.25), on Dask\n"
        "(see :func:`frameeval.cost_curve`).",
        "``*by, p_cost, norm_cost``; one row of nulls for a group with one class.",
        f'{_SCORES4}>>> fed.cost_curve(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").rows()\n'
        "[(0.0, 0.0), (0.5, 0.25), (1.0, 0.0)]",
    ),
    "expected_total_cost": _scored(
        _curves.expected_total_cost,
        "Expected total cost, the area under the cost curve (eq 2.24, figure 2.5), on Dask (see\n"
        ":func:`frameeval.expected_total_cost`).",
        "``*by, expected_total_cost``; null for a group with one class.",
        f'{_SCORES4}>>> fed.expected_total_cost(dd.from_pandas(pdf, npartitions=2), truth="y", score="s").item()\n0.125',
    ),
    "measures": _Form(
        _measure_set.measures,
        "Many measures per group in one pass over shared sufficient statistics, on Dask.\n\n"
        "Label and ranking measures read the count table of ``*by, truth, pred, score``\n"
        "(counted per partition, summed in a tree, then :func:`frameeval.measures` on it with\n"
        "the counts as ``weight=``); probability and regression measures read their sums\n"
        "Σ w·term and Σ w per group (per partition, summed in a tree, then each measure's\n"
        "formula) — a second pass over the data when both are asked.",
        "As :func:`frameeval.measures`: ``*by, <measure>...`` (Float64), one row per group\n"
        "sorted by the keys; or with ``long=True`` ``*by, measure, value``.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0],\n'
        '...                     "s": [0.9, 0.2, 0.4, 0.8, 0.7, 0.1]})\n'
        '>>> out = fed.measures(dd.from_pandas(pdf, npartitions=2), truth="y", pred="p", score="s",\n'
        '...                    measures=["accuracy", "mcc", "roc_auc", "brier_score"])\n'
        ">>> [round(v, 4) for v in out.row(0)]\n"
        "[0.6667, 0.3333, 0.8889, 0.1583]",
        mode="measures",
        notes="Counts are integers (or weight sums), so label and ranking measures equal one\n"
        "machine's as the count-table functions do; the sums of probability and regression\n"
        "measures are added in another order than on one machine: equal to rounding. The\n"
        "count table has one row per group × distinct (truth, pred, score): round continuous\n"
        "scores when it would not fit on the client.",
    ),
    "contingency_table": _Form(
        _contingency_table,
        "The contingency table of two classifiers on the same test instances (Table 2.4), on Dask.\n\n"
        "The rows are shuffled by ``*by, instance`` so that both learners' predictions of an\n"
        "instance meet in one partition; each partition is paired and counted with the\n"
        "single-machine code, and the per-group counts are summed in a tree.",
        "``*by, a, b, cell, b_correct, a_correct, count``, identical to\n"
        ':func:`frameeval.contingency_table`: four rows per group — ``cell`` ``"e00"`` (both\n'
        'correct), ``"e01"`` (b correct, a wrong), ``"e10"`` (b wrong, a correct), ``"e11"``\n'
        "(both wrong); ``b_correct`` and ``a_correct`` spell the cell out; ``count`` is the\n"
        "number of instances (Int64, zero cells included). Sorted by keys and cell.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"learner": ["A"] * 3 + ["B"] * 3, "instance": [1, 2, 3] * 2,\n'
        '...                     "y": [1, 0, 1] * 2, "p": [1, 0, 0, 1, 1, 0]})\n'
        '>>> out = fed.contingency_table(dd.from_pandas(pdf, npartitions=2), "y", "p", a="A", b="B")\n'
        '>>> out.select("cell", "count").rows()\n'
        "[('e00', 1), ('e01', 0), ('e10', 1), ('e11', 1)]",
        mode="pairs",
        notes=_SHUFFLE_NOTES,
        data_doc="A ``dask.dataframe.DataFrame``, or a Parquet path / glob / list of them (read "
        "with\n``dask.dataframe.read_parquet`` and Arrow dtypes).",
        finish=_contingency_finish,
    ),
    "mcnemar": _Form(
        _mcnemar,
        "McNemar's test of two classifiers on the same test set (§2.4.3, eq 2.33), on Dask.\n\n"
        "The cells of Table 2.4 are counted as in :func:`contingency_table` (shuffle by\n"
        "``*by, instance``, count per partition, sum in a tree); the test is then computed from\n"
        "the merged counts by the single-machine code of :func:`frameeval.mcnemar`.",
        "``*by, a, b, e00, e01, e10, e11, statistic, df, p_value, critical_value, alpha,\n"
        "reject, better``, identical to :func:`frameeval.mcnemar`: the cells of Table 2.4;\n"
        "``statistic`` τ_χ² = (|e01 − e10| − 1)² / (e01 + e10) with ``df`` = 1 (or, with\n"
        "``exact=True``, min(e01, e10) with ``df`` null); ``p_value``; ``critical_value``\n"
        "(χ²₁ at α, or the largest rejecting count); ``alpha``; ``reject``; ``better`` — the\n"
        "learner with fewer errors when rejected, else null. Sorted by keys.",
        f"{_IMPORT}\n"
        '>>> pdf = pd.DataFrame({"learner": ["A"] * 4 + ["B"] * 4, "instance": [1, 2, 3, 4] * 2,\n'
        '...                     "y": [1, 0, 1, 1] * 2, "p": [1, 0, 1, 0, 0, 1, 0, 0]})\n'
        '>>> out = fed.mcnemar(dd.from_pandas(pdf, npartitions=2), "y", "p", a="A", b="B")\n'
        '>>> out.select("e01", "e10", "statistic", "df").row(0)\n'
        "(0, 3, 1.3333333333333333, 1)",
        mode="pairs",
        notes="Checks as in :func:`contingency_table`. The cells are integer counts, so every "
        "column is\nbit-identical to the single-machine result.",
        finish=_mcnemar_finish,
    ),
    "bootstrap_replicates": _Form(
        _uncertainty.bootstrap_replicates,
        "Bootstrap replicates of any measure, per group, on Dask: the rows are shuffled by the\n"
        "``by`` keys and :func:`frameeval.bootstrap_replicates` runs on each partition.",
        "``*by, replicate`` and one Float64 column per measure (the measure on replicate\n"
        "``replicate`` = 1…repeats of the group, null where undefined), sorted by keys and replicate:\n"
        "equal to :func:`frameeval.bootstrap_replicates` on all rows.",
        ">>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed\n"
        f">>> pdf = pd.DataFrame({_BOOTSTRAP_DATA})\n"
        ">>> reps = fed.bootstrap_replicates(dd.from_pandas(pdf, npartitions=2),\n"
        '...                                 fe.accuracy("y", "p"), by="g", instance="row", repeats=3)\n'
        ">>> reps.columns, reps.height\n"
        "(['g', 'replicate', 'accuracy'], 6)",
        mode="bootstrap",
        notes="A group's draws depend only on the seed, the replicate, and the group's units in\n"
        "``instance`` order (a counter-based SplitMix64 hash), so running each group in another\n"
        "process gives the same replicates. Without ``instance=`` the units are taken in row order,\n"
        "which the shuffle does not keep: it is required (``InvalidParameterError``). Without\n"
        "``by=`` all rows form one group and go to one partition. The checks (null or duplicate\n"
        "``instance``, null ``stratify``…) run per partition, where every group is whole, and raise\n"
        "as on one machine.",
        parameter_docs=(_INSTANCE_REQUIRED,),
    ),
    "bootstrap_ci": _Form(
        _uncertainty.bootstrap_ci,
        "Bootstrap confidence intervals for any measure, per group, on Dask: the rows are shuffled\n"
        "by the ``by`` keys and :func:`frameeval.bootstrap_ci` runs on each partition.",
        "``*by, metric, estimate, bias, std_error, lower, upper, level, method,\n"
        "n_replicates``, one row per group and measure, sorted by keys and then in the order of\n"
        "``measure``, as :func:`frameeval.bootstrap_ci`: ``estimate`` θ̂ is the measure on the\n"
        "group; ``bias`` = mean(θ*) − θ̂ and ``std_error`` = sd(θ*) over the replicates θ*;\n"
        "``lower``, ``upper`` the percentile or BCa interval at ``level``; ``n_replicates``\n"
        "the replicates where the measure was defined.",
        ">>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed\n"
        f">>> pdf = pd.DataFrame({_BOOTSTRAP_DATA})\n"
        '>>> ci = fed.bootstrap_ci(dd.from_pandas(pdf, npartitions=2), fe.accuracy("y", "p"),\n'
        '...                       by="g", instance="row", repeats=200, seed=1)\n'
        '>>> ci.select("g", "metric", "estimate", "n_replicates").rows()\n'
        "[('a', 'accuracy', 0.6666666666666666, 200), ('b', 'accuracy', 0.6666666666666666, 200)]",
        mode="bootstrap",
        notes="The replicates are those of one machine (see :func:`bootstrap_replicates`), so the\n"
        "intervals are equal to :func:`frameeval.bootstrap_ci` on all rows — bit for bit wherever\n"
        "the measure sums integers (accuracy, F1, AUC…); a measure that sums non-integral floats\n"
        '(``pl.col("loss").mean()``) sees a group\'s rows in another order after the shuffle, so\n'
        "its estimate can differ in the last bit.",
        parameter_docs=(_INSTANCE_REQUIRED,),
    ),
}

__all__ = sorted(_FORMS)

best_threshold = _make("best_threshold", _FORMS["best_threshold"])
bootstrap_ci = _make("bootstrap_ci", _FORMS["bootstrap_ci"])
bootstrap_replicates = _make("bootstrap_replicates", _FORMS["bootstrap_replicates"])
break_even_point = _make("break_even_point", _FORMS["break_even_point"])
classification_report = _make("classification_report", _FORMS["classification_report"])
confusion_matrix = _make("confusion_matrix", _FORMS["confusion_matrix"])
contingency_table = _make("contingency_table", _FORMS["contingency_table"])
cost_curve = _make("cost_curve", _FORMS["cost_curve"])
cost_lines = _make("cost_lines", _FORMS["cost_lines"])
cost_sensitive_error = _make("cost_sensitive_error", _FORMS["cost_sensitive_error"])
expected_total_cost = _make("expected_total_cost", _FORMS["expected_total_cost"])
macro_micro = _make("macro_micro", _FORMS["macro_micro"])
mcnemar = _make("mcnemar", _FORMS["mcnemar"])
measures = _make("measures", _FORMS["measures"])
pr_curve = _make("pr_curve", _FORMS["pr_curve"])
ranking_report = _make("ranking_report", _FORMS["ranking_report"])
roc_convex_hull = _make("roc_convex_hull", _FORMS["roc_convex_hull"])
roc_curve = _make("roc_curve", _FORMS["roc_curve"])
