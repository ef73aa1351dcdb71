"""Column roles inferred from common names (frameeval/_roles.py): one resolver for the library
and the CLI (issue 15)."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval._roles import COMMON_NAMES, infer_column, resolve
from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError


def results(learner: str = "model", block: str = "dataset") -> pl.DataFrame:
    acc = [0.90, 0.85, 0.80, 0.70, 0.75, 0.72, 0.88, 0.86, 0.70, 0.91, 0.80, 0.79]
    return pl.DataFrame(
        {block: [d for d in "1234" for _ in "ABC"], learner: list("ABC") * 4, "accuracy": acc}
    )


@pytest.mark.filterwarnings("ignore:friedman")
def test_comparisons_infer_model_and_dataset_columns() -> None:
    df = results()
    canonical = results("learner", "block")
    got = fe.friedman(df, "accuracy")
    assert_frame_equal(got, fe.friedman(canonical, "accuracy"))
    nemenyi = fe.nemenyi(df, "accuracy")
    assert_frame_equal(nemenyi, fe.nemenyi(canonical, "accuracy"))
    wilcoxon = fe.wilcoxon(df, "accuracy", a="A", b="B")
    assert_frame_equal(wilcoxon, fe.wilcoxon(canonical, "accuracy", a="A", b="B"))
    ranks = fe.average_ranks(df, "accuracy")
    assert ranks.columns[0] == "model"
    spec = fe.charts.cd_diagram(ranks, nemenyi).to_dict()
    assert "model" in str(spec)
    assert fe.rank_table(df, "accuracy").columns[:2] == ["dataset", "model"]
    assert fe.bonferroni_dunn(df, "accuracy", control="A").height == 2


# four blocks: friedman() warns that its χ² p-value needs more (not what this test is about)
@pytest.mark.filterwarnings("ignore:friedman\\(\\)\\W+chi2_p_value:UserWarning")
def test_by_keys_and_the_metric_are_not_candidates() -> None:
    df = results().with_columns(pl.lit("t").alias("task"))  # task is also a block name
    with pytest.raises(
        InvalidParameterError,
        match=r"^friedman\(\): block= must be given when several columns have a "
        r"common block name, got candidates \['data', 'task'\]\.$",
    ):
        fe.friedman(results(block="data").with_columns(pl.lit("t").alias("task")), "accuracy")
    # a column named after the role wins over the other common names
    assert fe.friedman(df, "accuracy").height == 1
    # a by= key is not a candidate
    out = fe.friedman(
        results(block="data").with_columns(pl.lit("t").alias("task")), "accuracy", by="task"
    )
    assert out.columns[0] == "task"


def test_no_candidate_is_a_typed_error_listing_the_columns() -> None:
    df = results(learner="method")
    with pytest.raises(
        ColumnNotFoundError,
        match=r"^nemenyi\(\): learner= must be given when no column has a common "
        r"learner name \(learner, model, estimator, classifier, algorithm\), got "
        r"columns \['dataset', 'method', 'accuracy'\]\.$",
    ):
        fe.nemenyi(df, "accuracy")
    assert fe.nemenyi(df, "accuracy", learner="method").height == 3


def test_several_candidates_are_refused_listing_them() -> None:
    df = results().with_columns(pl.col("model").alias("classifier"))
    with pytest.raises(
        InvalidParameterError,
        match=r"^wilcoxon\(\): learner= must be given when several columns have "
        r"a common learner name, got candidates \['model', 'classifier'\]\.$",
    ):
        fe.wilcoxon(df, "accuracy", a="A", b="B")


def test_the_resolver_directly() -> None:
    names = ["Y", "p", "s", "Model", "cv", "seed", "id"]
    found = {
        role: infer_column(names, role, where="f()") for role in COMMON_NAMES if role != "block"
    }
    assert found == {
        "truth": "Y",
        "pred": "p",
        "score": "s",
        "learner": "Model",
        "fold": "cv",
        "repeat": "seed",
        "instance": "id",
    }
    assert infer_column(names, "block", where="f()", required=False) is None
    assert infer_column(["pred", "p"], "pred", where="f()") == "pred"
    # the role's own name wins over the other preferred name (a composite block beside dataset)
    assert infer_column(["dataset", "block", "fold"], "block", where="f()") == "block"
    assert infer_column(["dataset", "task"], "block", where="f()") == "dataset"
    with pytest.raises(InvalidParameterError, match="candidates \\['data', 'task'\\]"):
        infer_column(["task", "data"], "block", where="f()")
    assert infer_column(["y", "label"], "truth", where="f()", exclude=["label"]) == "y"
    with pytest.raises(InvalidParameterError, match=r"^frameeval report: --truth must be given"):
        infer_column(
            ["y", "label"], "truth", where="frameeval report", spell=lambda role: f"--{role}"
        )
    df = results()
    assert resolve(df, "f", [None, "accuracy"], learner=None, block="x") == ("model", "x")
    assert resolve(df.lazy(), "f", learner="given") == ("given",)
    assert resolve(df.to_pandas(), "f", learner=None) == ("model",)
    assert resolve(df.to_arrow(), "f", learner=None) == ("model",)


def test_two_learner_tests_infer_learner_repeat_and_fold() -> None:
    rows = [
        (r, f, m, 0.8 + 0.01 * r - 0.02 * f + (0.03 if m == "A" else 0.0))
        for r in range(5)
        for f in range(2)
        for m in "AB"
    ]
    df = pl.DataFrame(rows, schema=["run", "split", "model", "accuracy"], orient="row")
    got = fe.cv5x2_t_test(df, "accuracy", a="A", b="B")
    expected = fe.cv5x2_t_test(
        df, "accuracy", a="A", b="B", learner="model", repeat="run", fold="split"
    )
    assert_frame_equal(got, expected)
    assert_frame_equal(
        fe.paired_t_test(df.filter(pl.col("run") == 0), "accuracy", a="A", b="B", block="split"),
        fe.paired_t_test(
            df.filter(pl.col("run") == 0), "accuracy", a="A", b="B", block="split", learner="model"
        ),
    )
