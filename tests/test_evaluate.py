"""Tests of frameeval.evaluate: evaluate, learning_curve, validation_curve, sklearn_learner.

Oracles: scikit-learn estimators fitted by hand on the same train/test indices (predictions and
per-fold accuracy), and direct counting for the curves. End to end: two scikit-learn classifiers
on ``load_breast_cancer`` through ``evaluate`` into ``fe.classification_report`` and
``fe.accuracy``.
"""

from __future__ import annotations

import io
import sys
import warnings

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import accuracy_score, precision_recall_fscore_support
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import frameeval as fe
from frameeval import split
from frameeval.evaluate import LearnerError, LearnerWarning, sklearn_learner
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    InvalidParameterError,
    UnknownLabelError,
)


@pytest.fixture(scope="module")
def cancer() -> pl.DataFrame:
    data = load_breast_cancer()
    names = [f"x{i}" for i in range(data.data.shape[1])]
    df = pl.DataFrame(data.data, schema=names).with_columns(
        y=pl.Series(data.target), id=pl.int_range(pl.len(), dtype=pl.Int64) * 7 + 3
    )
    return df


def threshold_rule(train: pl.DataFrame, test: pl.DataFrame) -> pl.Series:
    """Predict 1 when x exceeds the midpoint of the two class means of the training set."""
    means = train.group_by("y").agg(pl.col("x").mean()).sort("y")["x"].to_list()
    cut = sum(means) / len(means)
    return (test["x"] > cut).cast(pl.Int64)


def small() -> pl.DataFrame:
    x = [0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.35, 0.65, 0.15, 0.85, 0.5, 0.45]
    return pl.DataFrame({"id": list(range(100, 112)), "x": x, "y": [0, 1] * 6})


# ---------------------------------------------------------------------------------------------
# end to end on a data set scikit-learn ships
# ---------------------------------------------------------------------------------------------
def test_two_sklearn_classifiers_end_to_end(cancer):
    """Predictions equal those of the same estimators fitted by hand on the same indices; the
    result feeds classification_report / accuracy, which agree with scikit-learn per fold."""
    splits = split.kfold(cancer, k=5, repeats=2, stratify="y", instance="id", seed=42)
    learners = {
        "tree": sklearn_learner(DecisionTreeClassifier(max_depth=3, random_state=0), truth="y"),
        "nb": sklearn_learner(GaussianNB(), truth="y"),
    }
    features = [c for c in cancer.columns if c.startswith("x")]
    res = fe.evaluate(cancer, splits, learners, truth="y", features=features, instance="id")
    assert res.columns == ["learner", "repeat", "fold", "instance", "truth", "pred", "score"]
    assert res.height == 2 * 2 * cancer.height  # learners × repeats × rows
    # oracle: the same estimators on the same train/test rows
    x = cancer.select(features).to_numpy()
    y = cancer["y"].to_numpy()
    ids = cancer["id"].to_numpy()
    for repeat in range(2):
        fold = splits.filter(pl.col("repeat") == repeat)["fold"].to_numpy()
        for f in range(5):
            train, test = fold != f, fold == f
            for name, est in (
                ("tree", DecisionTreeClassifier(max_depth=3, random_state=0)),
                ("nb", GaussianNB()),
            ):
                est.fit(x[train], y[train])
                got = res.filter(
                    (pl.col("learner") == name)
                    & (pl.col("repeat") == repeat)
                    & (pl.col("fold") == f)
                )
                order = np.argsort(ids[test])
                assert got["instance"].to_list() == ids[test][order].tolist()
                assert got["pred"].to_list() == est.predict(x[test])[order].tolist()
                np.testing.assert_allclose(
                    got["score"].to_numpy(), est.predict_proba(x[test])[order, 1], atol=1e-12
                )
                acc = got.select(fe.accuracy("truth", "pred")).item()
                assert abs(acc - accuracy_score(y[test], est.predict(x[test]))) < 1e-12
    report = fe.classification_report(res, truth="truth", pred="pred", by="learner")
    for name in ("tree", "nb"):
        part = res.filter(pl.col("learner") == name)
        p, r, f1, support = precision_recall_fscore_support(part["truth"], part["pred"])
        rows = report.filter((pl.col("learner") == name) & (pl.col("average") == "none"))
        np.testing.assert_allclose(rows["precision"].to_numpy(), p, atol=1e-9)
        np.testing.assert_allclose(rows["recall"].to_numpy(), r, atol=1e-9)
        np.testing.assert_allclose(rows["f1"].to_numpy(), f1, atol=1e-9)


def test_parallel_equals_sequential(cancer):
    """n_jobs=2 (spawned processes) gives exactly the n_jobs=1 result."""
    df = cancer.head(120)
    splits = split.kfold(df, k=3, stratify="y", instance="id", seed=1)
    learners = {"nb": sklearn_learner(GaussianNB(), truth="y")}
    one = fe.evaluate(df, splits, learners, truth="y", instance="id")
    two = fe.evaluate(df, splits, learners, truth="y", instance="id", n_jobs=2)
    assert one.equals(two)
    with pytest.raises(
        InvalidParameterError, match=r"learner 'rule' must be picklable for n_jobs > 1"
    ):
        fe.evaluate(
            df, splits, {"rule": lambda a, b: b["x0"] > 0}, truth="y", instance="id", n_jobs=2
        )


# ---------------------------------------------------------------------------------------------
# the contract
# ---------------------------------------------------------------------------------------------
def test_result_contract_and_kinds():
    df = small()
    splits = split.kfold(df, k=3, stratify="y", instance="id", seed=0)
    res = fe.evaluate(df, splits, {"rule": threshold_rule}, truth="y", instance="id")
    assert res.schema["repeat"] == pl.Int32 and res.schema["fold"] == pl.Int32
    assert res.schema["score"] == pl.Float64
    assert res["score"].null_count() == res.height  # labels only
    assert sorted(res["instance"].to_list()) == df["id"].to_list()  # each row tested once
    lazy = fe.evaluate(df.lazy(), splits.lazy(), {"rule": threshold_rule}, truth="y", instance="id")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(res)
    # default key: row position, splits made from the same frame
    res2 = fe.evaluate(df, split.kfold(df, k=3, seed=0), {"rule": threshold_rule}, truth="y")
    assert sorted(res2["instance"].to_list()) == list(range(12))


def test_learner_sees_features_and_withheld_labels():
    df = small()
    seen = {}

    def spy(train, test):
        seen["train"], seen["test"] = train.columns, test.columns
        return {"pred": [0] * test.height, "score": np.linspace(0, 1, test.height)}

    splits = split.holdout(df, test_size=0.25, instance="id")
    res = fe.evaluate(df, splits, {"spy": spy}, truth="y", instance="id")
    assert seen == {"train": ["x", "y"], "test": ["x"]}
    assert res.columns == [
        "learner",
        "repeat",
        "fold",
        "role",
        "instance",
        "truth",
        "pred",
        "score",
    ]
    assert res["role"].unique().to_list() == ["test"] and res.height == 3
    assert res["fold"].unique().to_list() == [0]
    only_score = fe.evaluate(
        df, splits, {"s": lambda tr, te: pl.DataFrame({"score": te["x"]})}, truth="y", instance="id"
    )
    assert only_score["pred"].null_count() == 3 and only_score["score"].null_count() == 0


def test_train_predictions_and_bootstrap():
    df = small()
    boot = split.bootstrap(df, repeats=3, instance="id", seed=5)
    res = fe.evaluate(df, boot, {"rule": threshold_rule}, truth="y", instance="id", train=True)
    per = res.group_by("repeat", "role").len().sort("repeat", "role")
    oob = boot.group_by("repeat").agg((pl.col("count") == 0).sum()).sort("repeat")["count"]
    assert per.filter(pl.col("role") == "train")["len"].to_list() == [12, 12, 12]
    assert per.filter(pl.col("role") == "test")["len"].to_list() == oob.to_list()
    est = split.efron632(res)
    assert est.columns[0] == "learner" and est.height == 1
    tvt = split.train_val_test(df, instance="id")
    res = fe.evaluate(df, tvt, {"rule": threshold_rule}, truth="y", instance="id")
    assert sorted(res["role"].unique().to_list()) == ["test", "validation"]


def test_bad_returns_and_failures():
    df = small()
    splits = split.kfold(df, k=3, instance="id", seed=0)

    def short(train, test):
        return [0] * (test.height - 1)

    with pytest.raises(
        LearnerError,
        match=r"evaluate\(\): learner 'short' must succeed on every split, got ValueError: "
        r"expected 4 predictions \(one per test row\), got 3 on repeat=0, fold=0",
    ):
        fe.evaluate(df, splits, {"short": short}, truth="y", instance="id")

    def flaky(train, test):
        if 100 in test["id"].to_list():
            raise RuntimeError("boom")
        return [1] * test.height

    learners = {"flaky": flaky, "rule": threshold_rule}
    with pytest.raises(
        LearnerError, match=r"learner 'flaky' must succeed .* RuntimeError: boom"
    ) as info:
        fe.evaluate(df, splits, learners, truth="y", instance="id", features=["id", "x"])
    assert isinstance(info.value.__cause__, RuntimeError)
    assert info.value.failures.row(0)[:2] == ("flaky", 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = fe.evaluate(
            df, splits, learners, truth="y", instance="id", features=["id", "x"], on_error="collect"
        )
    (warning,) = [w for w in caught if issubclass(w.category, LearnerWarning)]
    assert "1 fit(s) failed" in str(warning.message)
    failed = warning.message.failures
    assert failed.height == 1 and failed["learner"].to_list() == ["flaky"]
    fold = failed["fold"].item()
    assert res.filter(pl.col("learner") == "rule").height == 12  # partial results kept
    kept = res.filter(pl.col("learner") == "flaky")
    assert kept.height == 12 - splits.filter(pl.col("fold") == fold).height
    # issue 14 vocabulary: errors= (also a count, in binomial_test) is on_error='s old name
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old_name = fe.evaluate(
            df, splits, learners, truth="y", instance="id", features=["id", "x"], errors="collect"
        )
    (deprecated,) = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert "evaluate(): errors= is deprecated" in str(deprecated.message)
    assert "use on_error= (the same policy)" in str(deprecated.message)
    assert old_name.equals(res)
    with pytest.raises(
        LearnerError, match=r"got ValueError: predictions must be one label per test row"
    ):
        fe.evaluate(
            df, splits, {"m": lambda a, b: np.zeros((b.height, 2))}, truth="y", instance="id"
        )


def test_input_errors():
    df = small()
    splits = split.kfold(df, k=3, instance="id")
    with pytest.raises(InvalidParameterError, match=r"learners must be a non-empty mapping"):
        fe.evaluate(df, splits, {}, truth="y", instance="id")
    with pytest.raises(InvalidParameterError, match=r"learner 'a' must be callable"):
        fe.evaluate(df, splits, {"a": 3}, truth="y", instance="id")
    with pytest.raises(InvalidParameterError, match=r"on_error must be 'raise' or 'collect'"):
        fe.evaluate(df, splits, {"a": threshold_rule}, truth="y", instance="id", on_error="ignore")
    with pytest.raises(ColumnNotFoundError, match=r"splits must have a 'repeat' column"):
        fe.evaluate(df, df, {"a": threshold_rule}, truth="y", instance="id")
    with pytest.raises(ColumnNotFoundError, match=r"splits must have the column 'instance'"):
        fe.evaluate(df, splits, {"a": threshold_rule}, truth="y")
    with pytest.raises(UnknownLabelError, match=r"every instance of splits must be in data"):
        fe.evaluate(df.head(6), splits, {"a": threshold_rule}, truth="y", instance="id")
    with pytest.raises(
        DuplicateKeyError, match=r"column 'id' \(instance=\) must hold unique values in data"
    ):
        fe.evaluate(
            pl.concat([df, df.head(1)]), splits, {"a": threshold_rule}, truth="y", instance="id"
        )
    with pytest.raises(InvalidParameterError, match=r"features must not include the truth column"):
        fe.evaluate(
            df, splits, {"a": threshold_rule}, truth="y", instance="id", features=["x", "y"]
        )
    with pytest.raises(ColumnNotFoundError, match=r"column 'z' \(features=\) not found"):
        fe.evaluate(df, splits, {"a": threshold_rule}, truth="y", instance="id", features=["z"])
    with pytest.raises(
        ColumnNotFoundError, match=r"^evaluate\(\): column 'yy' \(truth=\) not found"
    ):
        fe.evaluate(df, splits, {"a": threshold_rule}, truth="yy", instance="id")
    with pytest.raises(
        ColumnNotFoundError, match=r"^evaluate\(\): column 'key' \(instance=\) not found, got col"
    ):
        fe.evaluate(df, splits, {"a": threshold_rule}, truth="y", instance="key")


def test_progress_reporting(monkeypatch):
    df = small()
    splits = split.kfold(df, k=3, repeats=2, instance="id")
    calls = []
    fe.evaluate(
        df,
        splits,
        {"a": threshold_rule, "b": threshold_rule},
        truth="y",
        instance="id",
        progress=lambda done, total, what: calls.append((done, total)),
    )
    assert calls == [(i, 12) for i in range(1, 13)]
    buffer = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buffer)
    fe.evaluate(df, splits, {"a": threshold_rule}, truth="y", instance="id", progress=True)
    text = buffer.getvalue()
    assert "evaluate: [" in text and "6/6 fits" in text and text.endswith("\n")
    buffer.truncate(0)
    fe.evaluate(df, splits, {"a": threshold_rule}, truth="y", instance="id")  # not a TTY
    assert buffer.getvalue() == ""


# ---------------------------------------------------------------------------------------------
# learning and validation curves
# ---------------------------------------------------------------------------------------------
def test_learning_curve_subsets_are_nested_and_scored():
    df = small()
    splits = split.kfold(df, k=3, repeats=2, stratify="y", instance="id", seed=3)
    seen: dict[tuple, list[int]] = {}

    def recorder(train, test):
        # the learner predicts the held-out rows and its training rows (for the train score)
        held = sorted(set(test["id"].to_list()) - set(train["id"].to_list()))
        seen.setdefault(tuple(held), []).append(sorted(train["id"].to_list()))
        return [0] * test.height

    lc = fe.learning_curve(
        df,
        splits,
        {"zero": recorder},
        truth="y",
        instance="id",
        features=["id", "x"],
        train_sizes=[0.25, 0.5, 1.0, 3],
    )
    assert lc.columns == ["learner", "train_size", "repeat", "fold", "role", "error_rate"]
    assert sorted(lc["train_size"].unique().to_list()) == [2, 3, 4, 8]
    assert lc.height == 2 * 3 * 4 * 2  # repeats × folds × sizes × roles
    assert len(seen) == 6 and all(len(v) == 4 for v in seen.values())
    for subsets in seen.values():
        sets = sorted((set(s) for s in subsets), key=len)
        assert all(a <= b for a, b in zip(sets, sets[1:], strict=False))
    # validation error of an all-zero predictor = share of class 1 in the held-out fold
    for (repeat, fold), part in splits.with_columns().group_by("repeat", "fold"):
        expected = part["y"].mean()
        got = lc.filter(
            (pl.col("repeat") == repeat)
            & (pl.col("fold") == fold)
            & (pl.col("role") == "validation")
        )["error_rate"]
        assert (got - expected).abs().max() < 1e-12
    with pytest.raises(
        InvalidParameterError, match=r"train_sizes must not exceed the training set size, got 20"
    ):
        fe.learning_curve(
            df, splits, {"zero": recorder}, truth="y", instance="id", train_sizes=[20]
        )
    with pytest.raises(
        InvalidParameterError, match=r"train_sizes must be fractions in \(0, 1\] or integers"
    ):
        fe.learning_curve(
            df, splits, {"zero": recorder}, truth="y", instance="id", train_sizes=[1.5]
        )


def test_validation_curve(cancer):
    df = cancer.select("id", "x0", "x1", "y").head(150)
    splits = split.kfold(df, k=3, stratify="y", instance="id", seed=0)

    def tree(depth):
        return sklearn_learner(DecisionTreeClassifier(max_depth=depth, random_state=0), truth="y")

    vc = fe.validation_curve(
        df,
        splits,
        tree,
        "max_depth",
        [1, 8],
        truth="y",
        instance="id",
        metric=fe.accuracy("truth", "pred"),
    )
    assert vc.columns == ["max_depth", "repeat", "fold", "role", "accuracy"]
    assert vc["max_depth"].to_list()[:2] == [1, 1] and vc.height == 2 * 3 * 2
    x, y = df.select("x0", "x1").to_numpy(), df["y"].to_numpy()
    fold = splits["fold"].to_numpy()
    for depth in (1, 8):
        for f in range(3):
            est = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(
                x[fold != f], y[fold != f]
            )
            row = vc.filter((pl.col("max_depth") == depth) & (pl.col("fold") == f))
            train_acc = row.filter(pl.col("role") == "train")["accuracy"].item()
            val_acc = row.filter(pl.col("role") == "validation")["accuracy"].item()
            assert abs(train_acc - est.score(x[fold != f], y[fold != f])) < 1e-12
            assert abs(val_acc - est.score(x[fold == f], y[fold == f])) < 1e-12
    # a deeper tree fits its training folds at least as well (high variance side)
    means = (
        vc.filter(pl.col("role") == "train").group_by("max_depth").agg(pl.col("accuracy").mean())
    )
    assert means.sort("max_depth")["accuracy"].is_sorted()
    with pytest.raises(InvalidParameterError, match=r"metric must be a Polars expression"):
        fe.validation_curve(df, splits, tree, "d", [1], truth="y", instance="id", metric="acc")


def test_curves_on_train_val_test_ignore_test_set():
    df = small()
    tvt = split.train_val_test(df, sizes=(0.5, 0.25, 0.25), instance="id")
    vc = fe.validation_curve(
        df,
        tvt,
        lambda c: lambda tr, te: (te["x"] > c).cast(pl.Int64),
        "cut",
        [0.5],
        truth="y",
        instance="id",
    )
    assert vc["role"].to_list() == ["train", "validation"]
    val = tvt.filter(pl.col("role") == "validation")
    expected = ((val["x"] > 0.5).cast(pl.Int64) != val["y"]).mean()
    assert vc.filter(pl.col("role") == "validation")["error_rate"].item() == expected


def test_results_feed_the_paired_tests(cancer):
    """5×2 splits → evaluate → per-fold errors → cv5x2_t_test; McNemar reads the same frame."""
    df = cancer.head(200)
    splits = split.cv5x2(df, stratify="y", instance="id", seed=7)
    learners = {
        "tree": sklearn_learner(DecisionTreeClassifier(max_depth=2, random_state=0), truth="y"),
        "nb": sklearn_learner(GaussianNB(), truth="y"),
    }
    res = fe.evaluate(df, splits, learners, truth="y", instance="id")
    per_fold = res.group_by("learner", "repeat", "fold").agg(fe.error_rate("truth", "pred"))
    assert per_fold.height == 2 * 10
    test = fe.cv5x2_t_test(per_fold, "error_rate", a="tree", b="nb")
    assert test.height == 1 and np.isfinite(test["statistic"].item())
    mc = fe.mcnemar(res, "truth", "pred", a="tree", b="nb", by=["repeat", "fold"])
    assert mc.height == 10


def test_curves_accept_the_users_column_names_in_metric() -> None:
    """issue 15: one rule (the output uses 'truth', 'instance') and the user's names work too."""
    df = pl.DataFrame(
        {"id": range(8), "x": [0, 1, 2, 3, 4, 5, 6, 7], "y": [0, 0, 0, 0, 1, 1, 1, 1]}
    )
    splits = fe.split.kfold(df, k=2, stratify="y", instance="id")

    def rule(train: pl.DataFrame, test: pl.DataFrame) -> pl.Series:
        return (test["x"] > 2.5).cast(pl.Int64)

    def curve(metric: pl.Expr) -> pl.DataFrame:
        return fe.learning_curve(
            df,
            splits,
            {"rule": rule},
            truth="y",
            instance="id",
            features=["x"],
            train_sizes=[0.5, 1.0],
            metric=metric,
        )

    assert_frame_equal(curve(fe.accuracy("y", "pred")), curve(fe.accuracy("truth", "pred")))
    with pytest.raises(
        InvalidParameterError,
        match=r"learning_curve\(\): metric must be an aggregate expression over "
        r"the columns \[.*'truth'.*'y'.*\], got an error: .*nope",
    ):
        curve(fe.accuracy("nope", "pred"))
