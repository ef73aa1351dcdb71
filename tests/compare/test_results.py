"""One shape out (issue 33): every comparison test's output is its declared result shape, and
``reject`` is decided in one place.

* the rule, read from the source: no module of ``frameeval/compare`` or ``frameeval/uncertainty``
  but ``results.py`` writes an output column list (a ``*_OUT`` name, a list holding
  ``"reject"``) or a ``reject`` alias;
* the shapes, run: each public test's columns are exactly ``*by, *shape.columns``, and its
  ``reject`` equals :func:`frameeval.compare.results.reject` of its declared rule(s) recomputed
  from its own output columns.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval.compare import results
from frameeval.compare.results import SHAPES, reject

PACKAGE = Path(fe.__file__).resolve().parent
COMPARE = PACKAGE / "compare"
MODULES = sorted(
    p
    for folder in ("compare", "uncertainty")
    for p in (PACKAGE / folder).rglob("*.py")
    if p.name != "results.py"
)


def _strings(node: ast.AST) -> list[str]:
    elts = getattr(node, "elts", [])
    return [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def _column_lists(tree: ast.Module) -> set[str]:
    """Module-level names bound to a literal list or tuple of strings."""
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(
            node.value, ast.List | ast.Tuple
        ):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if _strings(node.value) and all(
                isinstance(e, ast.Constant | ast.Starred) for e in node.value.elts
            ):
                out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def _selected_lists(node: ast.AST, constants: set[str]) -> list[str]:
    """A hand-written output list in use: a result handed to ``finish(...)`` through
    ``.select(..., *NAME)`` of a module-level list of column names, or ``check_outputs(...)``
    called on a literal list or such a name."""
    if not isinstance(node, ast.Call):
        return []
    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
    if name == "finish" and node.args:
        selects = [
            n
            for n in ast.walk(node.args[0])
            if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "select"
        ]
        spread = [a.value for n in selects for a in n.args if isinstance(a, ast.Starred)]
        used = [a.id for a in spread if isinstance(a, ast.Name) and a.id in constants]
        return [f"line {node.lineno}: finish(….select(*{n}))" for n in used]
    if name == "check_outputs" and len(node.args) > 2:
        listed = node.args[2]
        if isinstance(listed, ast.List | ast.Tuple) or (
            isinstance(listed, ast.Name) and listed.id in constants
        ):
            return [f"line {node.lineno}: check_outputs on a hand-written list"]
    return []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_output_list_or_reject_outside_the_declarations(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = _column_lists(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            found += [f"{n} (an output list)" for n in names if n.endswith("_OUT")]
        if isinstance(node, ast.List | ast.Tuple | ast.Set) and "reject" in _strings(node):
            found.append(f"line {node.lineno}: a column list with 'reject'")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "alias"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).endswith("reject")
        ):
            found.append(f"line {node.lineno}: .alias({node.args[0].value!r})")
        found += _selected_lists(node, constants)
    assert not found, f"{path.name}: declare it in frameeval/compare/results.py: {found}"


def test_every_public_test_has_a_shape() -> None:
    tests = {
        name
        for name in fe.compare.__all__
        if name
        not in {"Comparison", "compare_learners", "cliques", "results_table", "rank_table"}
        | {"binomial_distribution", "holm", "nemenyi_q", "bonferroni_dunn_q"}
    }
    assert tests == set(SHAPES)


# ---------------------------------------------------------------------------------------------
# each test run once on a small table: its columns are its shape, its reject its rule
# ---------------------------------------------------------------------------------------------
def _blocks(n: int = 11, k: int = 3) -> pl.DataFrame:
    rng = np.random.default_rng(7)
    rows = [
        (f"d{i:02d}", learner, round(float(0.6 + 0.05 * j + rng.normal(0, 0.05)), 4))
        for i in range(n)
        for j, learner in enumerate("ABC"[:k])
    ]
    return pl.DataFrame(rows, schema=["block", "learner", "accuracy"], orient="row")


def _fold_frame() -> pl.DataFrame:
    rows = [
        (learner, r, f, 0.7 + (0.05 if learner == "A" else 0.0) + 0.01 * ((r * 3 + f * 7) % 5))
        for learner in "AB"
        for r in range(1, 6)
        for f in (1, 2)
    ]
    return pl.DataFrame(rows, schema=["learner", "repeat", "fold", "accuracy"], orient="row")


def _predictions() -> pl.DataFrame:
    truth = [i % 2 for i in range(30)]
    pred_a = [t if i % 7 else 1 - t for i, t in enumerate(truth)]
    pred_b = [t if i % 3 else 1 - t for i, t in enumerate(truth)]
    return pl.DataFrame(
        {
            "instance": list(range(30)) * 2,
            "learner": ["A"] * 30 + ["B"] * 30,
            "truth": truth * 2,
            "pred": pred_a + pred_b,
        }
    )


def _one_fold() -> pl.DataFrame:
    return _fold_frame().filter(pl.col("repeat") == 1).drop("repeat")


def _error_rates() -> pl.DataFrame:
    return pl.DataFrame({"error_rate": [0.20, 0.25, 0.22, 0.28, 0.24, 0.21]})


BLOCKS = {"block": "block", "learner": "learner"}
RUNS: dict[str, Callable[[], pl.DataFrame]] = {
    "binomial_test": lambda: fe.binomial_test(
        _predictions().filter(pl.col("learner") == "A"), truth="truth", pred="pred", eps0=0.1
    ),
    "t_test": lambda: fe.t_test(_error_rates(), "error_rate", eps0=0.3),
    "paired_t_test": lambda: fe.paired_t_test(
        _one_fold(), "accuracy", a="A", b="B", learner="learner"
    ),
    "cv5x2_t_test": lambda: fe.cv5x2_t_test(_fold_frame(), "accuracy", a="A", b="B"),
    "wilcoxon": lambda: fe.wilcoxon(_blocks(), "accuracy", **BLOCKS),
    "mcnemar": lambda: fe.mcnemar(
        _predictions(), truth="truth", pred="pred", a="A", b="B", instance="instance"
    ),
    "contingency_table": lambda: fe.contingency_table(
        _predictions(), truth="truth", pred="pred", a="A", b="B", instance="instance"
    ),
    "corrected_resampled_t_test": lambda: fe.corrected_resampled_t_test(
        _fold_frame(), "accuracy", a="A", b="B", n_train=90, n_test=10, block=["repeat", "fold"]
    ),
    "cv5x2_f_test": lambda: fe.cv5x2_f_test(_fold_frame(), "accuracy", a="A", b="B"),
    "friedman": lambda: fe.friedman(_blocks(), "accuracy", **BLOCKS),
    "skillings_mack": lambda: fe.skillings_mack(_blocks(), "accuracy", **BLOCKS),
    "friedman_aligned_ranks": lambda: fe.friedman_aligned_ranks(_blocks(), "accuracy", **BLOCKS),
    "quade": lambda: fe.quade(_blocks(), "accuracy", **BLOCKS),
    "nemenyi": lambda: fe.nemenyi(_blocks(), "accuracy", **BLOCKS),
    "bonferroni_dunn": lambda: fe.bonferroni_dunn(_blocks(), "accuracy", control="A", **BLOCKS),
    "rank_post_hoc": lambda: fe.rank_post_hoc(_blocks(), "accuracy", **BLOCKS),
    "shaffer": lambda: fe.shaffer(_blocks(), "accuracy", **BLOCKS),
    "bergmann_hommel": lambda: fe.bergmann_hommel(_blocks(), "accuracy", **BLOCKS),
    "bayes_correlated_t": lambda: fe.bayes_correlated_t(_fold_frame(), "accuracy", rope=0.01),
    "bayes_signed_rank": lambda: fe.bayes_signed_rank(
        _blocks(), "accuracy", rope=0.01, n_samples=200, **BLOCKS
    ),
    "bayes_signed_rank_samples": lambda: fe.compare.bayes_signed_rank_samples(
        _blocks(), "accuracy", rope=0.01, n_samples=20, a="A", b="B", **BLOCKS
    ),
    "effect_size": lambda: fe.effect_size(_blocks(), "accuracy", **BLOCKS),
    "comparison_matrix": lambda: fe.comparison_matrix(_blocks(), "accuracy", **BLOCKS),
    "average_ranks": lambda: fe.average_ranks(_blocks(), "accuracy", **BLOCKS),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_test_returns_its_shape_and_decides_by_its_rule(name: str) -> None:
    shape = SHAPES[name]
    out = RUNS[name]()
    keys = ["learner"] if name == "average_ranks" else []  # the learner is its row key
    assert out.columns == [*keys, *shape.columns]
    assert out.height > 0
    for rule in shape.rules:
        column = reject(rule)
        assert out[column.meta.output_name()].to_list() == out.select(column).to_series().to_list()


def test_families_share_their_columns() -> None:
    for shape in (results.PAIRED_T, results.WILCOXON, results.MCNEMAR, results.CV5X2_F):
        assert shape.columns[:2] == ("a", "b")
        assert shape.columns[-len(results.EFFECT_COLUMNS) :] == results.EFFECT_COLUMNS or (
            shape.columns[-1] == "rank_biserial"
        )
    for shape in (results.FRIEDMAN, results.QUADE, results.SKILLINGS_MACK):
        assert shape.columns[:2] == ("n_learners", "n_blocks")
        assert shape.columns[-4:] == results.DECISION
    assert fe.wilcoxon(_blocks(), "accuracy", adjust="holm", **BLOCKS).columns == list(
        results.WILCOXON.with_column("p_adjusted", after="p_value").columns
    )


# ---------------------------------------------------------------------------------------------
# frameeval.uncertainty: the intervals and the DeLong test return their declared shapes too
# ---------------------------------------------------------------------------------------------
def _scores() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "learner": ["A"] * 6 + ["B"] * 6,
            "instance": list(range(6)) * 2,
            "y": [1, 1, 1, 0, 0, 0] * 2,
            "s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.1, 0.9, 0.2, 0.7, 0.3, 0.8, 0.1],
        }
    )


INTERVAL_RUNS: dict[str, Callable[[], pl.DataFrame]] = {
    "bootstrap_ci": lambda: fe.bootstrap_ci(
        _scores(), fe.roc_auc("y", "s"), by="learner", repeats=20, seed=1
    ),
    "roc_band": lambda: fe.roc_band(_scores(), "y", "s", by="learner", repeats=20, seed=1),
    "delong_ci": lambda: fe.delong_ci(_scores(), "y", "s", by="learner"),
    "delong_test": lambda: fe.delong_test(_scores(), "y", "s", a="A", b="B"),
}


def test_every_interval_function_has_a_shape() -> None:
    assert set(INTERVAL_RUNS) == set(results.INTERVAL_SHAPES)
    assert set(INTERVAL_RUNS) <= set(fe.uncertainty.__all__)


@pytest.mark.parametrize("name", sorted(results.INTERVAL_SHAPES))
def test_each_interval_returns_its_shape(name: str) -> None:
    shape = results.INTERVAL_SHAPES[name]
    out = INTERVAL_RUNS[name]()
    keys = [] if name == "delong_test" else ["learner"]
    assert out.columns == [*keys, *shape.columns]
    assert out.height > 0
    for rule in shape.rules:
        column = reject(rule)
        assert out[column.meta.output_name()].to_list() == out.select(column).to_series().to_list()
