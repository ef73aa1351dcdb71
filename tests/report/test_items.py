"""The item-level report: the page answers per benchmark with the numbers of fe.items, the
rank tests across benchmarks; the CLI runs it (--item, --example items) as the README says."""

from __future__ import annotations

import re

import polars as pl
import pytest

import frameeval as fe
from frameeval.cli import main
from frameeval.exceptions import InvalidParameterError
from frameeval.report.items import items_report


def _small() -> pl.DataFrame:
    return fe.datasets.items_results().filter(pl.col("benchmark").is_in(["iris", "wine"]))


def test_page_answers_with_the_numbers_of_fe_items(tmp_path) -> None:
    data = _small()
    path = items_report(data, tmp_path / "r.html", item="item", cluster="cluster", sample="epoch")
    text = path.read_text(encoding="utf-8")
    board = fe.items.leaderboard(
        data, "correct", by="benchmark", cluster="cluster", sample="epoch", n_resamples=1000
    )
    for benchmark in ("iris", "wine"):
        best = board.filter(pl.col("benchmark") == benchmark).sort("position").row(0, named=True)
        assert (
            f"On {benchmark} ({best['n_items']} items), {best['model']} is best with a mean of {best['mean']:.3f}."
            in text
        )
    assert "Friedman&#x27;s test over 2 benchmarks and 5 models" in text
    assert "Clustering by &#x27;cluster&#x27; changes the standard error" in text
    assert text.index("The answer") < text.index("Leaderboard") < text.index("rank tests")


def test_cli_example_and_item_flags(tmp_path, capsys) -> None:
    out = tmp_path / "items.html"
    assert main(["report", "--example", "items", "-o", str(out), "-q"]) == 0
    assert "is best with a mean of" in out.read_text(encoding="utf-8")
    results = tmp_path / "study.parquet"
    _small().filter(pl.col("epoch") == 0).drop("epoch").write_parquet(results)
    out2 = tmp_path / "one.html"
    argv = ["report", str(results), "--item", "item", "--cluster", "cluster", "-o", str(out2), "-q"]
    assert main(argv) == 0
    assert re.search(r"clustered t", out2.read_text(encoding="utf-8"))


def test_errors(tmp_path, capsys) -> None:
    with pytest.raises(InvalidParameterError, match="the score column must be given"):
        items_report(
            pl.DataFrame({"model": ["a"], "item": [1], "x": [1]}), tmp_path / "a.html", item="item"
        )
    results = tmp_path / "study.parquet"
    _small().write_parquet(results)
    assert (
        main(["report", str(results), "--item", "item", "-o", str(tmp_path / "b.html"), "-q"]) == 2
    )
    assert "rows must be unique per" in capsys.readouterr().err


def test_the_readme_commands_run_as_written(tmp_path, monkeypatch) -> None:
    """README: the example, then the same study from a Parquet file with --item/--cluster/
    --sample (run in a temporary directory, as a user would)."""
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text("utf-8")
    lines = [
        "frameeval report --example items -o items.html --force",
        "fe.datasets.items_results().write_parquet('items.parquet')",
        "frameeval report items.parquet --item item --cluster cluster --sample epoch -o items.html --force",
    ]
    for line in lines:
        assert line in readme, line
    monkeypatch.chdir(tmp_path)
    assert main(lines[0].split()[1:] + ["-q"]) == 0
    fe.datasets.items_results().write_parquet("items.parquet")
    assert main(lines[2].split()[1:] + ["-q"]) == 0
    assert "is best with a mean of" in (tmp_path / "items.html").read_text(encoding="utf-8")


def test_the_item_report_reads_lm_eval_samples_files_directly(tmp_path, capsys) -> None:
    """``frameeval report 'out/*/samples_*.jsonl'``: lm-evaluation-harness ``--log_samples``
    files (one directory per model) are the item-level long table — no conversion by hand; a
    task scored under two filters is two benchmarks."""
    import json

    import numpy as np

    from frameeval.cli import main

    rng = np.random.default_rng(7)
    skill = {"model-a": 0.8, "model-b": 0.6, "model-c": 0.5}
    for model, p in skill.items():
        for task, filters in (("arc_easy", ["none"]), ("gsm8k", ["strict", "flexible"])):
            rows = []
            for doc in range(60):
                for flt in filters:
                    acc = float(rng.random() < p)
                    rows.append(
                        {"doc_id": doc, "doc": {"q": doc}, "target": "1",
                         "arguments": {}, "resps": [["1"]], "filtered_resps": ["1"],
                         "filter": flt, "metrics": ["acc"], "doc_hash": "h",
                         "prompt_hash": "p", "target_hash": "t", "acc": acc}
                    )  # fmt: skip
            path = tmp_path / "out" / model / f"samples_{task}_2024-05-13T13-34-45.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "lm.html"
    pattern = str(tmp_path / "out" / "*" / "samples_*.jsonl")
    assert main(["report", pattern, "-o", str(out), "-q"]) == 0
    page = out.read_text(encoding="utf-8")
    for name in ("model-a", "model-b", "model-c", "arc_easy", "gsm8k (strict)", "gsm8k (flexible)"):
        assert name in page
    assert "frameeval: wrote" in capsys.readouterr().err
