"""fe.io.read_openml_predictions on predictions files in OpenML's format (the attributes
openml-python's run writes: repeat, fold, [sample,] row_id, confidence.<class>…, prediction,
correct), checked against scipy's ARFF reader; malformed lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import FileFormatError

CLASSES = ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]


def _write(path: Path, classes: list[str], rows: list[tuple], sample: bool = False) -> Path:
    head = ["@RELATION openml_task_59_predictions", ""]
    head += ["@ATTRIBUTE repeat NUMERIC", "@ATTRIBUTE fold NUMERIC"]
    if sample:
        head.append("@ATTRIBUTE sample NUMERIC")
    head.append("@ATTRIBUTE row_id NUMERIC")
    head += [f"@ATTRIBUTE confidence.{c} NUMERIC" for c in classes]
    nominal = "{" + ",".join(classes) + "}"
    head += [f"@ATTRIBUTE prediction {nominal}", f"@ATTRIBUTE correct {nominal}", "", "@DATA"]
    body = [",".join(f"'{v}'" if isinstance(v, str) else repr(v) for v in row) for row in rows]
    path.write_text("\n".join(head + body) + "\n", encoding="utf-8")
    return path


def _rows(classes: list[str], n: int, seed: int) -> list[tuple]:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):  # loop-ok: fixture
        p = rng.dirichlet(np.ones(len(classes)))
        rows.append(
            (i % 2, i % 3, int(rng.integers(0, 150)), *map(float, p),
             classes[int(p.argmax())], classes[int(rng.integers(0, len(classes)))])
        )  # fmt: skip
    return rows


def test_multiclass_round_trip_equals_scipy(tmp_path: Path) -> None:
    from scipy.io import arff

    path = _write(tmp_path / "predictions.arff", CLASSES, _rows(CLASSES, 12, 0))
    table = fe.io.read_openml_predictions(path)
    assert table.columns == [
        "repeat", "fold", "instance", "truth", "pred",
        *[f"confidence_{c}" for c in CLASSES],
    ]  # fmt: skip
    data, _ = arff.loadarff(path)
    oracle = pl.DataFrame(
        {
            "repeat": data["repeat"].astype(int),
            "fold": data["fold"].astype(int),
            "instance": data["row_id"].astype(int),
            "truth": [v.decode() for v in data["correct"]],
            "pred": [v.decode() for v in data["prediction"]],
            **{f"confidence_{c}": data[f"confidence.{c}"] for c in CLASSES},
        }
    ).sort("repeat", "fold", "instance")
    assert table.equals(oracle)


def test_binary_score_learning_curve_and_pos_label(tmp_path: Path) -> None:
    classes = ["tested_negative", "tested_positive"]
    path = _write(tmp_path / "p.arff", classes, [
        (0, 0, 0, 5, 0.3, 0.7, "tested_positive", "tested_positive"),
        (0, 0, 0, 2, 0.9, 0.1, "tested_negative", "tested_negative"),
    ], sample=True)  # fmt: skip
    table = fe.io.read_openml_predictions(path)
    assert table.select("sample", "instance", "score").rows() == [(0, 2, 0.1), (0, 5, 0.7)]
    neg = fe.io.read_openml_predictions(path, pos_label="tested_negative")
    assert neg["score"].to_list() == [0.9, 0.3]
    auc = fe.roc_auc("truth", "score", pos_label="tested_positive")
    assert table.select(auc).item() == 1.0


def test_malformed(tmp_path: Path) -> None:
    path = _write(tmp_path / "p.arff", CLASSES, _rows(CLASSES, 3, 1))
    lines = path.read_text().splitlines()
    lines[-2] = lines[-2].rsplit(",", 1)[0]  # a value short
    path.write_text("\n".join(lines) + "\n")
    n = len(lines) - 1  # 1-based number of the shortened line
    with pytest.raises(
        FileFormatError,
        match=rf"read_openml_predictions\(\): .*p\.arff, line {n}: a row must have 8 values",
    ):
        fe.io.read_openml_predictions(path)
    lines[-2] = "0,0,1,x,0.2,0.3,'Iris-setosa','Iris-setosa'"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(FileFormatError, match=rf"line {n}: attribute 'confidence.Iris-setosa' "
                       r"is NUMERIC, got 'x'"):  # fmt: skip
        fe.io.read_openml_predictions(path)
    path.write_text("@RELATION x\n@ATTRIBUTE repeat NUMERIC\n@DATA\n0\n")
    with pytest.raises(FileFormatError, match=r"must declare the attributes repeat, fold"):
        fe.io.read_openml_predictions(path)
