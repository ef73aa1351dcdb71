"""fe.io.read_lm_eval_samples on files written as lm-evaluation-harness writes them
(``evaluator.py``: doc_id, doc, target, arguments, resps, filtered_resps, filter, metrics,
hashes, then the metric values), round-trip and malformed lines."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import FileFormatError, InvalidParameterError


def _sample(doc_id: int, *, target: object, filtered: list, metrics: dict, flt: str = "none"):
    return {
        "doc_id": doc_id,
        "doc": {"question": f"q{doc_id}", "choices": ["a", "b"]},
        "target": target,
        "arguments": {"gen_args_0": {"arg_0": "ctx", "arg_1": " a"}},
        "resps": [[r] for r in filtered],
        "filtered_resps": filtered,
        "filter": flt,
        "metrics": list(metrics),
        "doc_hash": "h",
        "prompt_hash": "p",
        "target_hash": "t",
        **metrics,
    }


def _write(path: Path, samples: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(s) + "\n" for s in samples), encoding="utf-8")
    return path


def test_round_trip_multiple_choice_and_generation(tmp_path: Path) -> None:
    model_dir = tmp_path / "out" / "EleutherAI__pythia-160m"
    mc = [
        _sample(i, target=i % 2, filtered=[[-1.0 - i, False], [-2.0 + i, True]],
                metrics={"acc": float(i % 2 == 1), "acc_norm": 1.0})
        for i in range(3)
    ]  # fmt: skip
    gen = [
        _sample(i, target=str(2 * i), filtered=[str(2 * i if i else 5)],
                metrics={"exact_match": float(i > 0)}, flt=flt)
        for i in range(2)
        for flt in ("strict-match", "flexible-extract")
    ]  # fmt: skip
    _write(model_dir / "samples_arc_easy_2024-05-13T13-34-45.567890.jsonl", mc)
    _write(model_dir / "samples_gsm8k_2024-05-13T13-40-02.123456.jsonl", gen)
    table = fe.io.read_lm_eval_samples(tmp_path / "out")
    assert table.columns == [
        "benchmark", "model", "item", "filter", "target", "pred", "metric", "score", "acc",
        "acc_norm", "exact_match",
    ]  # fmt: skip
    assert table.schema["item"] == pl.Int64 and table.schema["acc"] == pl.Float64
    arc = table.filter(pl.col("benchmark") == "arc_easy")
    assert arc["model"].unique().to_list() == ["EleutherAI/pythia-160m"]
    assert arc["item"].to_list() == [0, 1, 2]
    assert arc["target"].to_list() == ["0", "1", "0"]
    # the choice of highest log-likelihood: -1 vs -2 → 0; -2 vs -1 → 1; -3 vs 0 → 1
    assert arc["pred"].to_list() == ["0", "1", "1"]
    assert arc["acc"].to_list() == [0.0, 1.0, 0.0]
    assert arc["metric"].unique().to_list() == ["acc"]
    assert arc["score"].equals(arc["acc"].alias("score"))
    assert arc["exact_match"].null_count() == 3
    gsm = table.filter(pl.col("benchmark") == "gsm8k")
    assert gsm.height == 4 and sorted(set(gsm["filter"])) == ["flexible-extract", "strict-match"]
    assert gsm.filter(pl.col("item") == 0)["pred"].to_list() == ["5", "5"]
    assert gsm["acc"].null_count() == 4
    assert gsm["score"].equals(gsm["exact_match"].alias("score"))
    norm = fe.io.read_lm_eval_samples(tmp_path / "out", metric="acc_norm")
    assert norm.filter(pl.col("benchmark") == "arc_easy")["score"].to_list() == [1.0] * 3
    assert norm.filter(pl.col("benchmark") == "gsm8k")["score"].null_count() == 4
    # one file, names given; a glob
    one = fe.io.read_lm_eval_samples(
        model_dir / "samples_arc_easy_2024-05-13T13-34-45.567890.jsonl", model="m", task="arc"
    )
    assert one["benchmark"].unique().to_list() == ["arc"] and one["model"][0] == "m"
    globbed = fe.io.read_lm_eval_samples(str(tmp_path / "out" / "**" / "samples_gsm8k_*.jsonl"))
    assert globbed.equals(gsm.select(globbed.columns))


def test_older_files_without_metrics_key_and_non_scalar_metrics(tmp_path: Path) -> None:
    lines = [
        {"doc_id": 0, "target": "x", "filtered_resps": ["x"], "exact_match": True,
         "bleu": ["x", "x"]},
        {"doc_id": 1, "target": "y", "filtered_resps": ["z"], "exact_match": False,
         "bleu": ["y", "z"]},
    ]  # fmt: skip
    path = _write(tmp_path / "m" / "samples_task.jsonl", lines)
    table = fe.io.read_lm_eval_samples(path)
    assert table.columns == ["benchmark", "model", "item", "filter", "target", "pred",
                             "metric", "score", "exact_match"]  # fmt: skip
    assert table["exact_match"].to_list() == [1.0, 0.0]
    assert table["filter"].to_list() == ["none", "none"] and table["benchmark"][0] == "task"


def test_malformed_lines_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "m" / "samples_t_2024-01-01T00-00-00.jsonl"
    path.parent.mkdir()
    path.write_text('{"doc_id": 0, "acc": 1}\n\n{"doc_id": 1, "acc": \n')
    with pytest.raises(FileFormatError, match=r"read_lm_eval_samples\(\): .*samples_t_.*, line 3: "
                       r"every line must be one JSON object"):  # fmt: skip
        fe.io.read_lm_eval_samples(path)
    path.write_text('{"doc_id": 0, "acc": 1}\n{"doc": {}, "acc": 0}\n')
    with pytest.raises(FileFormatError, match=r"line 2: a sample must have an integer 'doc_id', "
                       r"got None"):  # fmt: skip
        fe.io.read_lm_eval_samples(path)
    with pytest.raises(InvalidParameterError, match=r"matches none"):
        fe.io.read_lm_eval_samples(tmp_path / "nothing" / "*.jsonl")
