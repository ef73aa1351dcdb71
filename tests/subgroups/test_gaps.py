"""fe.subgroups.by_group / gaps / compare_gaps against fairlearn 0.15's MetricFrame and its
fairness functions (oracle, ≤ 1e-12), on random grouped data (hypothesis) and on scikit-learn's
bundled breast-cancer data with a derived attribute; intervals keep a 3-row group; bad input."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import frameeval as fe
from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError, MissingValueError
from tests.helpers.examples import budget

TOL = 1e-12


def _sk(name: str):
    from fairlearn.metrics import false_positive_rate, selection_rate
    from sklearn import metrics as skm

    return {
        "accuracy": skm.accuracy_score,
        "selection_rate": selection_rate,
        "recall": lambda y, p: skm.recall_score(y, p, zero_division=np.nan),
        "precision": lambda y, p: skm.precision_score(y, p, zero_division=np.nan),
        "f1": lambda y, p: skm.f1_score(y, p, zero_division=np.nan),
        "fpr": lambda y, p: (
            false_positive_rate(y, p, pos_label=1) if (np.asarray(y) == 0).any() else np.nan
        ),
    }[name]


def _close(a: float | None, b: float) -> bool:
    if a is None:
        return b is None or (isinstance(b, float) and math.isnan(b))
    return abs(a - b) <= TOL


def _frame(seed: int, n: int, groups: int, models: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pl.DataFrame(
        {
            "model": rng.choice([f"m{i}" for i in range(models)], n),
            "sex": rng.choice(["F", "M"], n),
            "age": rng.choice([f"a{i}" for i in range(groups)], n),
            "y": y,
            "p": np.where(rng.random(n) < 0.7, y, 1 - y),
        }
    )


MEASURES = ["accuracy", "selection_rate", "recall", "precision", "f1", "fpr"]


@settings(max_examples=budget(6))
@given(
    seed=st.integers(0, 10_000), n=st.integers(30, 120), groups=st.integers(2, 4), two=st.booleans()
)
def test_gaps_equal_fairlearn_metricframe(seed: int, n: int, groups: int, two: bool) -> None:
    from fairlearn.metrics import MetricFrame

    df = _frame(seed, n, groups, 2)
    sensitive = ["sex", "age"] if two else ["age"]
    out = fe.subgroups.gaps(df, "y", "p", sensitive=sensitive, by="model", measures=MEASURES)
    values = fe.subgroups.by_group(df, "y", "p", sensitive=sensitive, by="model", measures=MEASURES)
    for (model,), part in df.partition_by("model", as_dict=True).items():
        pdf = part.to_pandas()
        mf = MetricFrame(
            metrics={m: _sk(m) for m in MEASURES},
            y_true=pdf["y"],
            y_pred=pdf["p"],
            sensitive_features=pdf[sensitive],
        )
        mine = out.filter(pl.col("model") == model)
        for m in MEASURES:
            row = mine.filter(pl.col("measure") == m).row(0, named=True)
            by_group = mf.by_group[m].dropna()
            if len(by_group) < 2:
                assert row["difference"] is None
                continue
            assert _close(row["overall"], mf.overall[m])
            assert _close(row["group_min"], mf.group_min()[m])
            assert _close(row["group_max"], mf.group_max()[m])
            assert _close(row["difference"], mf.difference()[m])
            assert _close(row["difference_to_overall"], mf.difference(method="to_overall")[m])
            if mf.group_max()[m] != 0:
                assert _close(row["ratio"], mf.ratio()[m])
            if mf.overall[m] != 0:
                assert _close(row["ratio_to_overall"], mf.ratio(method="to_overall")[m])
            assert row["n_groups"] == len(mf.by_group[m])
            assert len(row["undefined"]) == int(mf.by_group[m].isna().sum())
        got = values.filter(pl.col("model") == model)
        for m in MEASURES:
            mine_values = got.filter(pl.col("measure") == m)
            assert mine_values.height == len(mf.by_group[m])
            for r in mine_values.iter_rows(named=True):
                index = tuple(r[s] for s in sensitive) if two else r[sensitive[0]]
                assert _close(r["value"], mf.by_group[m].loc[index])


@settings(max_examples=budget(6))
@given(seed=st.integers(0, 10_000), n=st.integers(30, 120), two=st.booleans())
def test_fairness_criteria_equal_fairlearn(seed: int, n: int, two: bool) -> None:
    from fairlearn.metrics import (
        demographic_parity_difference,
        demographic_parity_ratio,
        equal_opportunity_difference,
        equal_opportunity_ratio,
        equalized_odds_difference,
        equalized_odds_ratio,
    )

    df = _frame(seed, n, 3, 1)
    sensitive = ["sex", "age"] if two else "age"
    out = fe.subgroups.gaps(
        df,
        "y",
        "p",
        sensitive=sensitive,
        measures=["demographic_parity", "equal_opportunity", "equalized_odds"],
    )
    pdf = df.to_pandas()
    kw = {"sensitive_features": pdf[sensitive]}
    y, p = pdf["y"], pdf["p"]
    rows = {r["measure"]: r for r in out.iter_rows(named=True)}
    keys = sensitive if two else [sensitive]
    classes = df.group_by(keys).agg(pl.col("y").n_unique())["y"].min()
    if classes < 2:
        # fairlearn (with scikit-learn 1.9) gives TPR = 0 / FPR = 0 to a group without
        # positives / negatives, so its gap counts an empty cell; frameeval flags the group
        assert any(len(r["undefined"]) for r in rows.values())
        return
    oracle = {
        "demographic_parity": (demographic_parity_difference, demographic_parity_ratio),
        "equal_opportunity": (equal_opportunity_difference, equal_opportunity_ratio),
        "equalized_odds": (equalized_odds_difference, equalized_odds_ratio),
    }
    for name, (difference, ratio) in oracle.items():
        for method, column in (("between_groups", ""), ("to_overall", "_to_overall")):
            expected_d = difference(y, p, method=method, **kw)
            expected_r = ratio(y, p, method=method, **kw)
            if math.isnan(expected_d):
                continue
            assert _close(rows[name][f"difference{column}"], expected_d), (name, method)
            if not math.isnan(expected_r):
                assert _close(rows[name][f"ratio{column}"], expected_r), (name, method)


def test_control_features_equal_fairlearn_per_control_level() -> None:
    """fairlearn's ``control_features``: one difference per control level (it does not
    aggregate over them); ``control=`` gives one row per level."""
    from fairlearn.metrics import MetricFrame

    df = _frame(3, 400, 3, 1)
    out = fe.subgroups.gaps(df, "y", "p", sensitive="age", control="sex", measures=["recall"])
    pdf = df.to_pandas()
    mf = MetricFrame(
        metrics={"recall": _sk("recall")},
        y_true=pdf["y"],
        y_pred=pdf["p"],
        sensitive_features=pdf["age"],
        control_features=pdf["sex"],
    )
    for r in out.iter_rows(named=True):
        assert _close(r["difference"], mf.difference()["recall"].loc[r["sex"]])
        assert _close(r["ratio"], mf.ratio()["recall"].loc[r["sex"]])
        assert _close(r["overall"], mf.overall["recall"].loc[r["sex"]])
        assert _close(
            r["difference_to_overall"], mf.difference(method="to_overall")["recall"].loc[r["sex"]]
        )


def test_breast_cancer_with_a_derived_attribute_equals_fairlearn() -> None:
    """Real data: a logistic regression on scikit-learn's bundled breast-cancer set, the
    groups a derived attribute (tumour size: mean radius in tertiles) crossed with texture."""
    from fairlearn.metrics import MetricFrame, equalized_odds_difference
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x, y = load_breast_cancer(return_X_y=True, as_frame=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
    pred = cross_val_predict(model, x, y, cv=5)
    df = pl.DataFrame(
        {
            "size": pl.Series(x["mean radius"]).bin_quantiles(
                3, labels=["small", "medium", "large"]
            ),
            "texture": np.where(x["mean texture"] > x["mean texture"].median(), "rough", "smooth"),
            "y": y.to_numpy(),
            "p": pred,
        }
    ).with_columns(pl.col("size").cast(pl.String))
    measures = ["accuracy", "selection_rate", "fpr", "precision"]
    out = fe.subgroups.gaps(df, "y", "p", sensitive=["size", "texture"], measures=measures)
    pdf = df.to_pandas()
    mf = MetricFrame(
        metrics={m: _sk(m) for m in measures},
        y_true=pdf["y"],
        y_pred=pdf["p"],
        sensitive_features=pdf[["size", "texture"]],
    )
    for r in out.iter_rows(named=True):
        if mf.by_group[r["measure"]].dropna().size < 2:
            continue
        assert _close(r["difference"], mf.difference()[r["measure"]])
        assert _close(r["group_min"], mf.group_min()[r["measure"]])
    eo = fe.subgroups.gaps(df, "y", "p", sensitive="size", measures=["equalized_odds"])
    expected = equalized_odds_difference(pdf["y"], pdf["p"], sensitive_features=pdf["size"])
    assert _close(eo["difference"][0], expected)


def test_no_positives_is_an_undefined_flag_not_a_zero_gap() -> None:
    """A group without positives has no recall: it is listed in ``undefined`` and takes no
    part in the gap; with one defined group left the gap is null (no interval [0, 0])."""
    df = pl.DataFrame(
        {
            "g": ["a"] * 4 + ["b"] * 4 + ["c"] * 3,
            "y": [1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0],
            "p": [1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0],
        }
    )
    out = fe.subgroups.gaps(df, "y", "p", sensitive="g", measures=["recall"], ci=0.9)
    row = out.row(0, named=True)
    assert row["undefined"] == ["c"]
    assert row["n_groups"] == 3
    assert row["difference"] == pytest.approx(2 / 3 - 1 / 2)
    values = fe.subgroups.by_group(df, "y", "p", sensitive="g", measures=["recall"])
    assert values.filter(pl.col("g") == "c").row(0) == ("c", "recall", None, 3, True)
    alone = df.filter(pl.col("g") != "a")
    one = fe.subgroups.gaps(alone, "y", "p", sensitive="g", measures=["recall"], ci=0.9)
    assert one["difference"][0] is None
    assert one["difference_low"][0] is None and one["difference_high"][0] is None


def test_intervals_keep_a_three_row_group() -> None:
    """Every replicate keeps the 3-row group (stratified by group): its rows are drawn 3
    times in each, and the interval exists and holds the value."""
    from frameeval.subgroups.gaps import replicate_rows

    rng = np.random.default_rng(0)
    n = 200
    df = pl.DataFrame(
        {
            "g": ["rare"] * 3 + ["common"] * (n - 3),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 2, n),
        }
    )
    drawn = replicate_rows(df.lazy(), [], ["g"], None, None, 100, 0).collect()
    per = drawn.group_by("g", "__fe_b").agg(pl.col("__fe_rw").sum())
    assert per.height == 200
    assert per.filter(pl.col("g") == "rare")["__fe_rw"].to_list() == [3.0] * 100
    assert per.filter(pl.col("g") == "common")["__fe_rw"].unique().to_list() == [n - 3.0]
    out = fe.subgroups.gaps(df, "y", "p", sensitive="g", measures=["accuracy"], ci=0.95)
    row = out.row(0, named=True)
    assert row["difference_low"] <= row["difference"] <= row["difference_high"]
    assert 0.0 <= row["difference_low"] < row["difference_high"] <= 1.0


def test_intervals_do_not_depend_on_row_order_with_instance_and_are_seeded() -> None:
    df = _frame(1, 150, 3, 1).with_row_index("id")
    a = fe.subgroups.gaps(df, "y", "p", sensitive="age", ci=0.9, instance="id", n_resamples=40)
    b = fe.subgroups.gaps(
        df.sample(fraction=1.0, shuffle=True, seed=3),
        "y",
        "p",
        sensitive="age",
        ci=0.9,
        instance="id",
        n_resamples=40,
    )
    assert a.equals(b)
    c = fe.subgroups.gaps(
        df, "y", "p", sensitive="age", ci=0.9, instance="id", n_resamples=40, seed=1
    )
    assert not a.equals(c)


def test_lazy_in_lazy_out_and_equal_to_eager() -> None:
    df = _frame(2, 100, 3, 2)
    lazy = fe.subgroups.gaps(df.lazy(), "y", "p", sensitive="age", by="model")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(fe.subgroups.gaps(df, "y", "p", sensitive="age", by="model"))


def test_compare_gaps_is_paired_and_finds_the_larger_gap() -> None:
    """Model b errs on the positives of group "old" only; a is equally good everywhere. The
    paired bootstrap sees b's recall gap as larger (small p); the instance pairs the rows."""
    rng = np.random.default_rng(5)
    n = 600
    age = rng.choice(["young", "old"], n)
    y = rng.integers(0, 2, n)
    good = np.where(rng.random(n) < 0.9, y, 1 - y)
    bad = np.where((age == "old") & (y == 1) & (rng.random(n) < 0.5), 0, good)
    rows = pl.DataFrame({"id": np.arange(n), "age": age, "y": y})
    df = pl.concat(
        [
            rows.with_columns(model=pl.lit("a"), p=pl.Series(good)),
            rows.with_columns(model=pl.lit("b"), p=pl.Series(bad)),
        ]
    )
    out = fe.subgroups.compare_gaps(
        df, "y", "p", sensitive="age", measures=["recall", "accuracy"], instance="id"
    )
    recall = out.filter(pl.col("measure") == "recall").row(0, named=True)
    assert (recall["a"], recall["b"]) == ("a", "b")
    assert recall["difference"] < 0 and recall["ci_high"] < 0
    assert recall["p_value"] < 0.05 and recall["reject"]
    gaps = fe.subgroups.gaps(df, "y", "p", sensitive="age", by="model", measures=["recall"])
    assert recall["gap_a"] == gaps["difference"][0] and recall["gap_b"] == gaps["difference"][1]
    # Holm over the grid of two rows: the smaller p doubled
    ps = sorted(out["p_value"].to_list())
    assert out["p_adjusted"].min() == pytest.approx(min(1.0, 2 * ps[0]))
    bh = fe.subgroups.compare_gaps(
        df, "y", "p", sensitive="age", measures=["recall", "accuracy"], instance="id", adjust="bh"
    )
    from statsmodels.stats.multitest import multipletests

    expected = multipletests(bh["p_value"].to_numpy(), method="fdr_bh")[1]
    np.testing.assert_allclose(bh["p_adjusted"].to_numpy(), expected, rtol=0, atol=1e-12)


def test_benjamini_hochberg_equals_statsmodels() -> None:
    from statsmodels.stats.multitest import multipletests

    from frameeval.subgroups.gaps import benjamini_hochberg

    p = np.random.default_rng(0).random(37) ** 3
    got = pl.select(benjamini_hochberg(pl.lit(pl.Series(p)))).to_series().to_numpy()
    np.testing.assert_allclose(got, multipletests(p, method="fdr_bh")[1], rtol=0, atol=1e-12)


def test_bad_input_is_a_typed_error() -> None:
    df = _frame(0, 40, 2, 1)
    with pytest.raises(
        MissingValueError, match=r"column 'age' \(sensitive=\) must not contain nulls"
    ):
        fe.subgroups.gaps(
            df.with_columns(pl.when(pl.col("y") == 1).then(pl.col("age")).alias("age")),
            "y",
            "p",
            sensitive="age",
        )
    for level in (0, 1, 1.5, -0.1, "0.9"):
        with pytest.raises(
            InvalidParameterError, match=r"gaps\(\): ci must be a confidence level in \(0, 1\)"
        ):
            fe.subgroups.gaps(df, "y", "p", sensitive="age", ci=level)
    with pytest.raises(InvalidParameterError, match=r"gaps\(\): sensitive= must name one column"):
        fe.subgroups.gaps(df, "y", "p", sensitive=[])
    with pytest.raises(InvalidParameterError, match="must differ from by="):
        fe.subgroups.gaps(df, "y", "p", sensitive="age", by="age")
    for func in (fe.subgroups.gaps, fe.subgroups.by_group):  # was Polars' DuplicateError
        with pytest.raises(
            InvalidParameterError,
            match=r"sensitive= columns must differ from the truth, pred, score and weight "
            r"columns, got \['y'\]",
        ):
            func(df, "y", "p", sensitive=["age", "y"])
    with pytest.raises(InvalidParameterError, match="reads score="):
        fe.subgroups.gaps(df, "y", "p", sensitive="age", measures=["roc_auc"])
    with pytest.raises(InvalidParameterError, match="adjust must be 'holm' or 'bh'"):
        fe.subgroups.compare_gaps(df, "y", "p", sensitive="age", adjust="x")


def test_weighted_and_score_measures_equal_fairlearn() -> None:
    """The rows path (weights; AUC from scores): fairlearn with sample_params and
    scikit-learn's roc_auc_score."""
    from fairlearn.metrics import MetricFrame
    from sklearn.metrics import recall_score, roc_auc_score

    rng = np.random.default_rng(11)
    n = 400
    df = pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "y": rng.integers(0, 2, n),
            "s": rng.random(n),
            "w": rng.random(n) + 0.1,
        }
    ).with_columns(p=(pl.col("s") > 0.4).cast(pl.Int64))
    pdf = df.to_pandas()
    weighted = fe.subgroups.gaps(df, "y", "p", sensitive="g", measures=["recall"], weight="w")
    mf = MetricFrame(
        metrics=recall_score,
        y_true=pdf["y"],
        y_pred=pdf["p"],
        sensitive_features=pdf["g"],
        sample_params={"sample_weight": pdf["w"]},
    )
    assert _close(weighted["difference"][0], mf.difference())
    assert _close(weighted["ratio_to_overall"][0], mf.ratio(method="to_overall"))
    auc = fe.subgroups.gaps(df, "y", score="s", sensitive="g", measures=["roc_auc"])
    mf = MetricFrame(
        metrics=roc_auc_score, y_true=pdf["y"], y_pred=pdf["s"], sensitive_features=pdf["g"]
    )
    assert _close(auc["difference"][0], mf.difference())
    assert _close(auc["overall"][0], mf.overall)


def test_instance_and_model_are_named_when_missing() -> None:
    """instance= (gaps, compare_gaps) and model= (compare_gaps) come after the shared door."""
    df = pl.DataFrame({"sex": ["F", "M"] * 3, "y": [1, 0] * 3, "p": [1, 1, 0] * 2, "m": ["a"] * 6})
    with pytest.raises(
        ColumnNotFoundError, match=r"^gaps\(\): column 'id' \(instance=\) not found, got columns"
    ):
        fe.subgroups.gaps(df, "y", "p", sensitive="sex", instance="id")
    with pytest.raises(
        ColumnNotFoundError, match=r"^compare_gaps\(\): column 'model' \(model=\) not found"
    ):
        fe.subgroups.compare_gaps(df, "y", "p", sensitive="sex", instance="id")
    with pytest.raises(
        ColumnNotFoundError, match=r"^compare_gaps\(\): column 'id' \(instance=\) not found"
    ):
        fe.subgroups.compare_gaps(df, "y", "p", sensitive="sex", model="m", instance="id")
