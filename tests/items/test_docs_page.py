"""The numbers of docs/items.md come from fe.items on the packaged example (each must appear on
the page as printed here)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

import frameeval as fe

PAGE = Path(__file__).resolve().parents[2] / "docs" / "items.md"


def test_the_numbers_on_the_page() -> None:
    page = PAGE.read_text(encoding="utf-8")
    digits = fe.datasets.items_results().filter(pl.col("benchmark") == "digits")
    one = digits.filter(pl.col("epoch") == 0).drop("epoch")
    naive = fe.items.means(one, "correct", method="clt")
    clustered = fe.items.means(one, "correct", cluster="cluster")
    for a, b in zip(naive.iter_rows(named=True), clustered.iter_rows(named=True), strict=True):
        row = (
            f"| {a['model']} | {a['mean']:.4f} | {a['se']:.4f} | {b['se']:.4f} | "
            f"{b['se'] / a['se']:.2f} |"
        )
        assert row in page, row
    pairs = fe.items.compare(one, "correct")
    for a, b in [
        ("logistic_regression", "random_forest"),
        ("knn", "random_forest"),
        ("decision_tree", "naive_bayes"),
    ]:
        r = pairs.filter((pl.col("a") == a) & (pl.col("b") == b)).row(0, named=True)
        row = (
            f"| {a} | {b} | −{abs(r['difference']):.4f} | {r['se']:.4f} | "
            f"{r['se_unpaired']:.4f} | {r['correlation']:.2f} | McNemar | {r['p_value']:.4f} |"
        )
        assert row in page, row
    ratio = pairs["se"] / pairs["se_unpaired"]
    assert f"{round(100 * (1 - ratio.max()))}–{round(100 * (1 - ratio.min()))} %" in page
    c = fe.items.compare(one, "correct", cluster="cluster")
    r = c.filter((pl.col("a") == "decision_tree") & (pl.col("b") == "naive_bayes")).row(
        0, named=True
    )
    assert f"SE {r['se']:.4f} on 7 df and p = {r['p_value']:.4f}" in page
    assert f"(Holm-adjusted over the ten pairs: {r['p_adjusted']:.4f})" in page
    k = fe.items.means(digits, "correct", sample="epoch", at_samples=1)
    for model in ("decision_tree", "random_forest"):
        r = k.filter(pl.col("model") == model).row(0, named=True)
        row = (
            f"| {model} | {r['mean']:.4f} | {r['se']:.4f} | {r['var_between']:.4f} | "
            f"{r['var_within']:.4f} | {r['se_at_samples']:.4f} |"
        )
        assert row in page, row
    power = fe.items.power(digits, "correct", sample="epoch", difference=0.01)
    r = power.filter((pl.col("a") == "decision_tree") & (pl.col("b") == "random_forest")).row(
        0, named=True
    )
    assert f"is {r['mde']:.3f}, and detecting 0.01 would take {r['n_required']:,} items" in page
