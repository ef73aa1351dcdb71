"""Out-of-core: the hot paths stream on ``pl.scan_parquet`` of a partitioned data set.

Two kinds of test: (1) the physical plan of the streaming engine (``show_graph(engine=
"streaming", plan_stage="physical")``) has no in-memory fallback between the Parquet scan and
the first aggregation, i.e. the pass over the rows (the count phase) streams and only the small
per-group statistics table can reach an in-memory node; (2) collecting the same plan with the
streaming engine on the scan gives exactly the eager in-memory result.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe

_NODE = re.compile(r'^(\d+) \[label="((?:[^"\\]|\\.)*)"(.*)\];$', re.M)
_EDGE = re.compile(r"^(\d+) -> (\d+);$", re.M)
_FALLBACK = 'fillcolor="0.0 0.3 1.0"'  # the legend's colour of an in-memory engine fallback


def _row_phase(lf: pl.LazyFrame) -> list[str]:
    """Kinds of the physical nodes that see rows: reachable from a scan before an aggregation.

    A node is ``"<kind>!"`` when it is an in-memory fallback. Raises when some path from a scan
    never meets an aggregation (then the whole plan would run on rows).
    """
    dot = lf.show_graph(engine="streaming", plan_stage="physical", raw_output=True)
    assert isinstance(dot, str)
    nodes = {
        i: label.split("\\n")[0] + ("!" if _FALLBACK in rest else "")
        for i, label, rest in _NODE.findall(dot)
    }
    succ: dict[str, list[str]] = {}
    for a, b in _EDGE.findall(dot):
        succ.setdefault(a, []).append(b)
    stack = [i for i, kind in nodes.items() if "scan" in kind]
    assert stack, dot
    seen: set[str] = set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if nodes[node] == "group-by":
            continue
        assert succ.get(node), f"a path from the scan reaches the sink unaggregated: {dot}"
        stack += succ[node]
    return sorted(nodes[n] for n in seen)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> tuple[pl.DataFrame, str]:
    """3,000 rows, 7 groups, 3 classes, tied scores, weights; 4 Parquet files."""
    rng = np.random.default_rng(8)
    n = 3000
    df = pl.DataFrame(
        {
            "g": rng.integers(0, 7, n),
            "y": rng.integers(0, 2, n),
            "y3": rng.integers(0, 3, n),
            "p": rng.integers(0, 2, n),
            "p3": rng.integers(0, 3, n),
            "s": rng.random(n).round(2),
            "w": rng.integers(0, 4, n).astype(float),
        }
    ).with_columns((1.0 - pl.col("s")).alias("s0"))
    root = tmp_path_factory.mktemp("partitioned")
    for i, part in enumerate(df.iter_slices(750)):
        part.write_parquet(root / f"part-{i}.parquet")
    return df, str(root / "*.parquet")


COSTS = {(0, 1): 1.0, (1, 0): 5.0}

HOT: dict[str, Callable[..., object]] = {
    "confusion_matrix": lambda d: fe.confusion_matrix(d, truth="y3", pred="p3", by="g"),
    "confusion_matrix_weighted": lambda d: fe.confusion_matrix(
        d, truth="y3", pred="p3", by="g", weight="w"
    ),
    "classification_report": lambda d: fe.classification_report(d, truth="y3", pred="p3", by="g"),
    "macro_micro": lambda d: fe.macro_micro(d, truth="y", pred="p", by="g", across="y3"),
    "cost_sensitive_error": lambda d: fe.cost_sensitive_error(
        d, truth="y", pred="p", by="g", costs=COSTS
    ),
    "roc_curve": lambda d: fe.roc_curve(d, truth="y", score="s", by="g"),
    "roc_curve_weighted": lambda d: fe.roc_curve(d, truth="y", score="s", by="g", weight="w"),
    "pr_curve": lambda d: fe.pr_curve(d, truth="y", score="s", by="g"),
    "gains_curve": lambda d: fe.gains_curve(d, truth="y", score="s", by="g"),
    "lift_curve": lambda d: fe.lift_curve(d, truth="y", score="s", by="g", weight="w"),
    "ks_statistic": lambda d: fe.ks_statistic(d, truth="y", score="s", by="g"),
    "ranking_report": lambda d: fe.ranking_report(d, truth="y", score="s", by="g"),
    "break_even_point": lambda d: fe.break_even_point(d, truth="y", score="s", by="g"),
    "best_threshold": lambda d: fe.best_threshold(d, truth="y", score="s", by="g"),
    "cost_lines": lambda d: fe.cost_lines(d, truth="y", score="s", by="g"),
    "roc_convex_hull": lambda d: fe.roc_convex_hull(d, truth="y", score="s", by="g"),
    "cost_curve": lambda d: fe.cost_curve(d, truth="y", score="s", by="g"),
    "expected_total_cost": lambda d: fe.expected_total_cost(d, truth="y", score="s", by="g"),
    "multiclass_roc_auc": lambda d: fe.multiclass_roc_auc(
        d, truth="y", score={0: "s0", 1: "s"}, by="g"
    ),
    "label_expressions": lambda d: (
        (d.lazy() if isinstance(d, pl.DataFrame) else d)
        .group_by("g")
        .agg(
            fe.accuracy("y3", "p3"),
            fe.precision("y", "p"),
            fe.recall("y", "p"),
            fe.f1("y", "p"),
            fe.fbeta("y", "p", beta=2.0, weight="w"),
        )
        .sort("g")
    ),
}


# Their final step sums non-integral floats (per-class ratios, pos·precision) over rows whose
# order after group_by is unspecified, so even two eager runs can differ in the last bit;
# everything else is built from integer-valued sums and is bit-identical.
UNORDERED_FLOAT_SUMS = {"classification_report", "macro_micro", "ranking_report"}


@pytest.mark.parametrize("name", sorted(HOT))
def test_row_phase_streams(dataset: tuple[pl.DataFrame, str], name: str) -> None:
    """No in-memory fallback sees rows: scan → (select/filter) → streaming group-by."""
    _, pattern = dataset
    plan = HOT[name](pl.scan_parquet(pattern))
    assert isinstance(plan, pl.LazyFrame)
    kinds = _row_phase(plan)
    assert "group-by" in kinds
    assert not [k for k in kinds if k.endswith("!")], kinds


@pytest.mark.parametrize("name", sorted(HOT))
def test_streaming_scan_equals_in_memory(dataset: tuple[pl.DataFrame, str], name: str) -> None:
    """Streaming engine on the partitioned scan = eager in-memory result, exactly."""
    df, pattern = dataset
    eager = HOT[name](df)
    eager = eager.collect() if isinstance(eager, pl.LazyFrame) else eager
    plan = HOT[name](pl.scan_parquet(pattern))
    assert isinstance(plan, pl.LazyFrame)
    streamed = plan.collect(engine="streaming")
    in_memory = plan.collect(engine="in-memory")
    exact = name not in UNORDERED_FLOAT_SUMS
    tolerance = {} if exact else {"rel_tol": 1e-14, "abs_tol": 0.0}
    assert_frame_equal(streamed, eager, check_exact=exact, **tolerance)
    assert_frame_equal(in_memory, eager, check_exact=exact, **tolerance)


@pytest.mark.parametrize(
    ("name", "weight"),
    [("roc_auc", None), ("average_precision", None), ("pr_auc", "w"), ("roc_auc", "w")],
)
def test_ranking_expressions_fall_back(
    dataset: tuple[pl.DataFrame, str], name: str, weight: str | None
) -> None:
    """Documented limitation (docs/scale.md): the ranking *expressions* rank or sort inside
    ``agg``, which Polars runs in memory; out of core, use ``ranking_report`` (same values)."""
    df, pattern = dataset
    expr = getattr(fe, name)("y", "s", weight=weight)
    plan = pl.scan_parquet(pattern).group_by("g").agg(expr).sort("g")
    assert "in-memory-map" in _row_phase_or_dot(plan)
    report = fe.ranking_report(df, truth="y", score="s", by="g", weight=weight)
    np.testing.assert_allclose(plan.collect()[name].to_numpy(), report[name].to_numpy(), rtol=1e-12)


def _row_phase_or_dot(plan: pl.LazyFrame) -> str:
    dot = plan.show_graph(engine="streaming", plan_stage="physical", raw_output=True)
    assert isinstance(dot, str)
    return dot
