"""fe.measures(ci=) and classification_report(ci=): Wilson intervals against statsmodels,
bootstrap coverage by simulation,
seeds, row order, grouped = per group, DeLong, errors (frameeval/uncertainty/intervals.py)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from scipy import stats

import frameeval as fe
from frameeval.exceptions import InvalidParameterError
from frameeval.uncertainty.intervals import poisson_draw

PROPORTIONS = ["accuracy", "error_rate", "precision", "recall", "tnr", "npv", "fpr", "fnr"]


def _labels(seed: int, groups: int, n: int) -> pl.DataFrame:
    """Binary truth and prediction, groups of different sizes and skill."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    y = rng.random(n) < 0.3 + 0.4 * (g % 3) / 2
    hit = rng.random(n) < 0.6 + 0.1 * (g % 4)
    p = np.where(hit, y, ~y)
    return pl.DataFrame({"g": g, "y": y.astype(np.int64), "p": p.astype(np.int64)})


def _counts(df: pl.DataFrame) -> pl.DataFrame:
    y, p = pl.col("y") == 1, pl.col("p") == 1
    return (
        df.group_by("g")
        .agg(
            (y & p).sum().cast(pl.Int64).alias("tp"),
            (~y & p).sum().cast(pl.Int64).alias("fp"),
            (y & ~p).sum().cast(pl.Int64).alias("fn"),
            (~y & ~p).sum().cast(pl.Int64).alias("tn"),
        )
        .sort("g")
    )


def test_wilson_equals_statsmodels() -> None:
    """Each proportion measure's interval is statsmodels' proportion_confint(method="wilson")
    of its successes and trials, per group (groups with zero trials: null)."""
    from statsmodels.stats.proportion import proportion_confint

    df = _labels(1, 40, 1500)
    # a group that predicts no positive: precision's trials are 0, its interval null
    df = pl.concat([df, pl.DataFrame({"g": [99] * 4, "y": [1, 0, 1, 0], "p": [0] * 4})])
    out = fe.measures(df, "y", "p", by="g", measures=PROPORTIONS, ci=0.9)
    c = _counts(df)
    tp, fp, fn, tn = (c[k].to_numpy() for k in ("tp", "fp", "fn", "tn"))
    pairs = {
        "accuracy": (tp + tn, tp + fp + fn + tn),
        "error_rate": (fp + fn, tp + fp + fn + tn),
        "precision": (tp, tp + fp),
        "recall": (tp, tp + fn),
        "tnr": (tn, tn + fp),
        "npv": (tn, tn + fn),
        "fpr": (fp, fp + tn),
        "fnr": (fn, fn + tp),
    }
    assert out["g"].to_list() == c["g"].to_list()
    for name, (x, n) in pairs.items():
        low, high = proportion_confint(x, np.maximum(n, 1), alpha=0.1, method="wilson")
        low, high = np.where(n > 0, low, np.nan), np.where(n > 0, high, np.nan)
        got_low = out[f"{name}_low"].fill_null(np.nan).to_numpy()
        got_high = out[f"{name}_high"].fill_null(np.nan).to_numpy()
        np.testing.assert_allclose(got_low, low, rtol=0, atol=1e-12, err_msg=name)
        np.testing.assert_allclose(got_high, high, rtol=0, atol=1e-12, err_msg=name)
    assert out.filter(pl.col("g") == 99)["precision_low"][0] is None


def test_wilson_micro_precision_is_accuracy_interval() -> None:
    """Micro-averaged precision of single-label data is accuracy: the same counts, the same
    Wilson interval (multiclass)."""
    rng = np.random.default_rng(2)
    df = pl.DataFrame({"y": rng.integers(0, 3, 300), "p": rng.integers(0, 3, 300)})
    out = fe.measures(df, "y", "p", measures=["accuracy", "precision"], average="micro", ci=0.95)
    assert out["precision_low"][0] == pytest.approx(out["accuracy_low"][0], abs=1e-15)
    assert out["precision_high"][0] == pytest.approx(out["accuracy_high"][0], abs=1e-15)


def test_row_order_invariance_and_lazy() -> None:
    """Wilson and bootstrap intervals do not depend on the row order (the replicate weights
    are drawn per distinct row from its values); a LazyFrame gives the same frame lazily."""
    df = _labels(3, 6, 600)
    kwargs = {"by": "g", "measures": ["accuracy", "precision", "f1", "mcc"], "ci": 0.95}
    kwargs["n_resamples"] = 50
    a = fe.measures(df, "y", "p", **kwargs)
    b = fe.measures(df.sample(fraction=1.0, shuffle=True, seed=5), "y", "p", **kwargs)
    assert_frame_equal(a, b)
    lazy = fe.measures(df.lazy(), "y", "p", **kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), a)


def test_seed_reproducible_and_different_seeds_differ() -> None:
    df = _labels(4, 3, 400)
    kwargs = {"by": "g", "measures": ["f1"], "ci": 0.95, "n_resamples": 100}
    a = fe.measures(df, "y", "p", seed=1, **kwargs)
    assert_frame_equal(a, fe.measures(df, "y", "p", seed=1, **kwargs))
    b = fe.measures(df, "y", "p", seed=2, **kwargs)
    assert_frame_equal(a.select("g", "f1"), b.select("g", "f1"))
    assert (a["f1_low"] != b["f1_low"]).any() or (a["f1_high"] != b["f1_high"]).any()


def test_grouped_equals_per_group() -> None:
    """One call with by= equals one call per group (Wilson, bootstrap and DeLong)."""
    rng = np.random.default_rng(5)
    df = _labels(5, 4, 400).with_columns(s=pl.Series(rng.random(400)))
    kwargs = {
        "measures": ["accuracy", "f1", "roc_auc", "log_loss"],
        "ci": 0.9,
        "n_resamples": 60,
        "seed": 7,
    }
    grouped = fe.measures(df, "y", "p", "s", by="g", **kwargs)
    for (key,), part in df.partition_by("g", as_dict=True, maintain_order=True).items():
        alone = fe.measures(part, "y", "p", "s", by="g", **kwargs)
        assert_frame_equal(grouped.filter(pl.col("g") == key), alone)
    delong = fe.measures(
        df, "y", score="s", by="g", measures=["roc_auc"], ci=0.9, ci_method={"roc_auc": "delong"}
    )
    ref = fe.delong_ci(df, "y", "s", by="g", level=0.9)
    np.testing.assert_allclose(delong["roc_auc_low"].to_numpy(), ref["lower"].to_numpy())
    np.testing.assert_allclose(delong["roc_auc_high"].to_numpy(), ref["upper"].to_numpy())


def test_bootstrap_coverage_label_measures() -> None:
    """Percentile intervals of F1 and MCC cover the population value in 95 % ± 5 points of 300
    groups, each a sample of 200 rows from one population: P(y) = 0.4, TPR 0.7, FPR 0.2, so
    TP, FN, FP, TN = 0.28, 0.12, 0.12, 0.48, F1 = 0.56 / 0.80 = 0.7, MCC = 0.12 / 0.24 = 0.5."""
    rng = np.random.default_rng(11)
    groups, n = 300, 200
    y = rng.random(groups * n) < 0.4
    p = np.where(y, rng.random(groups * n) < 0.7, rng.random(groups * n) < 0.2)
    df = pl.DataFrame({"g": np.repeat(np.arange(groups), n), "y": y, "p": p})
    out = fe.measures(df, "y", "p", by="g", measures=["f1", "mcc"], ci=0.95, seed=3)
    for name, truth in (("f1", 0.7), ("mcc", 0.5)):
        covered = ((out[f"{name}_low"] <= truth) & (truth <= out[f"{name}_high"])).mean()
        assert 0.90 <= covered <= 1.0, (name, covered)


def test_bootstrap_coverage_score_and_probability_measures() -> None:
    """AUC: positive scores N(1, 1), negative N(0, 1), AUC = Φ(1/√2). Log loss of calibrated
    scores s ~ U(0.05, 0.95), y ~ Bernoulli(s): E[−s log s − (1 − s) log(1 − s)] (by the
    midpoint rule). 150 groups of 80 rows; coverage 95 % ± 5 points."""
    rng = np.random.default_rng(12)
    groups, n = 150, 80
    g = np.repeat(np.arange(groups), n)
    y = rng.random(groups * n) < 0.5
    score = rng.normal(y.astype(float), 1.0)
    df = pl.DataFrame({"g": g, "y": y, "s": score})
    out = fe.measures(df, "y", score="s", by="g", measures=["roc_auc"], ci=0.95, seed=4)
    auc = float(stats.norm.cdf(1 / math.sqrt(2)))
    covered = ((out["roc_auc_low"] <= auc) & (auc <= out["roc_auc_high"])).mean()
    assert 0.90 <= covered <= 1.0, covered

    s = rng.uniform(0.05, 0.95, groups * n)
    df = pl.DataFrame({"g": g, "y": rng.random(groups * n) < s, "s": s})
    out = fe.measures(df, "y", score="s", by="g", measures=["log_loss"], ci=0.95, seed=4)
    grid = 0.05 + 0.9 * (np.arange(100_000) + 0.5) / 100_000
    loss = float(np.mean(-grid * np.log(grid) - (1 - grid) * np.log(1 - grid)))
    covered = ((out["log_loss_low"] <= loss) & (loss <= out["log_loss_high"])).mean()
    assert 0.90 <= covered <= 1.0, covered


def test_weighted_data_bootstraps_proportions() -> None:
    """With weight= accuracy is bootstrapped (no Wilson): the interval holds the value and
    differs from the unweighted Wilson one; asking for Wilson is an error."""
    df = _labels(6, 1, 300).with_columns(w=pl.Series(np.linspace(0.5, 2.0, 300)))
    out = fe.measures(df, "y", "p", measures=["accuracy"], weight="w", ci=0.95, n_resamples=100)
    assert out["accuracy_low"][0] < out["accuracy"][0] < out["accuracy_high"][0]
    with pytest.raises(InvalidParameterError, match=r"'wilson' needs an unweighted proportion"):
        fe.measures(
            df, "y", "p", measures=["accuracy"], weight="w", ci=0.95,
            ci_method={"accuracy": "wilson"},
        )  # fmt: skip


def test_output_layout() -> None:
    df = _labels(7, 2, 100)
    plain = fe.measures(df, "y", "p", by="g", measures=["accuracy", "f1"])
    assert plain.columns == ["g", "accuracy", "f1"]
    wide = fe.measures(df, "y", "p", by="g", measures=["accuracy", "f1"], ci=0.95, n_resamples=20)
    assert wide.columns == ["g", "accuracy", "accuracy_low", "accuracy_high", "f1", "f1_low"] + [
        "f1_high"
    ]
    assert_frame_equal(wide.select(plain.columns), plain)
    long = fe.measures(
        df, "y", "p", by="g", measures=["accuracy", "f1"], ci=0.95, n_resamples=20, long=True
    )
    assert long.columns == ["g", "measure", "value", "low", "high"]
    assert long["measure"].to_list() == ["accuracy", "f1"] * 2
    assert long.filter(pl.col("measure") == "f1")["high"].to_list() == wide["f1_high"].to_list()


def test_poisson_draws_match_scipy() -> None:
    """The replicate weights' Poisson(λ) draws: mean, variance and CDF at a few points within
    sampling error of scipy's Poisson, for exact (λ ≤ 30) and approximated (λ > 30) means."""
    n = 40_000
    for lam in (1, 4, 30, 60):
        lf = pl.LazyFrame(
            {
                "w": pl.Series(np.arange(n, dtype=np.uint64) * 2654435761 + lam),
                "lam": np.full(n, float(lam)),
            }
        )
        k = poisson_draw(lf, "w", "lam", "k").collect()["k"].to_numpy()
        assert abs(k.mean() - lam) < 5 * math.sqrt(lam / n)
        assert abs(k.var() / lam - 1) < 0.05
        for q in (lam - math.sqrt(lam), lam, lam + 2 * math.sqrt(lam)):
            assert abs(np.mean(k <= q) - stats.poisson.cdf(q, lam)) < 0.015, (lam, q)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"ci": 1.5}, r"measures\(\): ci must be a confidence level in \(0, 1\) or None, got 1.5"),
        ({"ci": 0.9, "n_resamples": 1}, r"n_resamples must be an integer >= 2, got 1"),
        ({"ci": 0.9, "seed": "a"}, r"seed must be an integer in \[0, 2\*\*64\), got 'a'"),
        ({"ci_method": {"f1": "bootstrap"}}, r"ci_method= needs ci=, got ci=None"),
        ({"ci": 0.9, "ci_method": {"mcc": "bootstrap"}}, r"names measures not asked for"),
        ({"ci": 0.9, "ci_method": {"f1": "exact"}}, r"ci_method\['f1'\] must be one of"),
        ({"ci": 0.9, "ci_method": {"f1": "wilson"}}, r"'wilson' needs an unweighted proportion"),
        ({"ci": 0.9, "ci_method": {"f1": "delong"}}, r"'delong' applies to roc_auc"),
    ],
)
def test_errors(kwargs: dict, match: str) -> None:
    df = _labels(8, 1, 20)
    with pytest.raises(InvalidParameterError, match=match):
        fe.measures(df, "y", "p", measures=["f1"], **kwargs)


def test_classification_report_intervals() -> None:
    """classification_report(ci=): the values are the plain report's; per-class precision and
    recall and the micro row are Wilson intervals of TP / (TP + FP), TP / support and
    Σ TP / Σ support (statsmodels); F and the macro and weighted rows are bootstrapped
    (a bracket around the value for every class with data); same seed, same frame."""
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(13)
    n = 400
    df = pl.DataFrame({"g": rng.integers(0, 2, n), "y": rng.integers(0, 3, n)})
    df = df.with_columns(
        p=pl.when(pl.Series(rng.random(n)) < 0.6)
        .then("y")
        .otherwise(pl.Series(rng.integers(0, 3, n)))
    )
    plain = fe.classification_report(df, "y", "p", by="g")
    out = fe.classification_report(df, "y", "p", by="g", ci=0.95, n_resamples=80, seed=1)
    assert_frame_equal(out.select(plain.columns), plain)
    assert_frame_equal(
        out, fe.classification_report(df, "y", "p", by="g", ci=0.95, n_resamples=80, seed=1)
    )
    for (key,), part in df.partition_by("g", as_dict=True).items():
        rows = out.filter(pl.col("g") == key)
        for label in range(3):
            tp = part.filter((pl.col("y") == label) & (pl.col("p") == label)).height
            support = part.filter(pl.col("y") == label).height
            predicted = part.filter(pl.col("p") == label).height
            row = rows.filter(pl.col("label") == label)
            for name, trials in (("precision", predicted), ("recall", support)):
                low, high = proportion_confint(tp, trials, alpha=0.05, method="wilson")
                assert row[f"{name}_low"][0] == pytest.approx(low, abs=1e-12)
                assert row[f"{name}_high"][0] == pytest.approx(high, abs=1e-12)
        correct = part.filter(pl.col("y") == pl.col("p")).height
        low, high = proportion_confint(correct, part.height, alpha=0.05, method="wilson")
        micro = rows.filter(pl.col("average") == "micro")
        for name in ("precision", "recall", "f1"):
            assert micro[f"{name}_low"][0] == pytest.approx(low, abs=1e-12)
            assert micro[f"{name}_high"][0] == pytest.approx(high, abs=1e-12)
    assert ((out["f1_low"] <= out["f1"]) & (out["f1"] <= out["f1_high"])).all()
    assert out["f1_low"].null_count() == 0


def test_classification_report_weighted_and_labels() -> None:
    """With weight= every interval is bootstrapped; a class of labels= absent from the data
    keeps null values and null intervals."""
    rng = np.random.default_rng(14)
    df = pl.DataFrame({"y": rng.integers(0, 2, 200), "p": rng.integers(0, 2, 200)})
    df = df.with_columns(w=pl.Series(rng.uniform(0.5, 2.0, 200)))
    out = fe.classification_report(
        df, "y", "p", weight="w", labels=[0, 1, 2], ci=0.9, n_resamples=60
    )
    absent = out.filter(pl.col("label") == 2)
    assert absent["precision_low"][0] is None and absent["recall_high"][0] is None
    known = out.filter(pl.col("label") < 2)
    assert (
        (known["precision_low"] <= known["precision"])
        & (known["precision"] <= known["precision_high"])
    ).all()
    with pytest.raises(InvalidParameterError, match=r"classification_report\(\): ci must be"):
        fe.classification_report(df, "y", "p", ci=0.0)


def test_bootstrap_coverage_regression_measures() -> None:
    """Regression measures bootstrap the same way: truth ~ N(0, 1), pred = truth + e with
    e ~ N(0, 1), so MAE = E|e| = √(2/π) and RMSE = 1; 200 groups of 60 rows, coverage 95 % ± 5."""
    rng = np.random.default_rng(15)
    groups, n = 200, 60
    truth = rng.normal(size=groups * n)
    df = pl.DataFrame(
        {"g": np.repeat(np.arange(groups), n), "t": truth, "f": truth + rng.normal(size=groups * n)}
    )
    out = fe.measures(df, "t", "f", by="g", measures=["mae", "rmse"], ci=0.95, seed=5)
    for name, value in (("mae", math.sqrt(2 / math.pi)), ("rmse", 1.0)):
        covered = ((out[f"{name}_low"] <= value) & (value <= out[f"{name}_high"])).mean()
        assert 0.90 <= covered <= 1.0, (name, covered)


def test_interval_does_not_depend_on_the_other_measures_asked() -> None:
    """Label measures resample the confusion cells, score measures the distinct scores: F1's
    interval is the same asked alone or beside AUC and log loss."""
    rng = np.random.default_rng(16)
    df = _labels(16, 3, 300).with_columns(s=pl.Series(rng.random(300)))
    kwargs = {"by": "g", "ci": 0.95, "n_resamples": 50, "seed": 3}
    alone = fe.measures(df, "y", "p", "s", measures=["f1"], **kwargs)
    mixed = fe.measures(df, "y", "p", "s", measures=["f1", "roc_auc", "log_loss"], **kwargs)
    assert_frame_equal(mixed.select(alone.columns), alone)


def _registered() -> list[fe.Measure]:
    """Every registered measure once (aliases folded), but those with a required parameter."""
    from frameeval.metrics.measure import REQUIRED

    seen: list[fe.Measure] = []
    for m in fe.MEASURES.values():
        if not any(m is s for s in seen) and REQUIRED not in m.parameters.values():
            seen.append(m)
    return seen


@pytest.mark.parametrize("kind", ["label", "binary", "score", "probability", "regression"])
def test_every_registered_measure_gets_an_ordered_interval_in_its_range(kind: str) -> None:
    """Registry-wide (a new measure joins automatically): with ci= every measure has
    low ≤ high inside [lower, upper] (or both null), one call per kind."""
    chosen = [m for m in _registered() if m.kind == kind]
    assert chosen
    rng = np.random.default_rng(17)
    n = 120
    df = pl.DataFrame(
        {
            "g": rng.integers(0, 2, n),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 2, n),
            "s": rng.uniform(0.05, 0.95, n),
            "t": rng.uniform(0.5, 2.0, n),
            "f": rng.uniform(0.5, 2.0, n),
        }
    )
    truth = "t" if kind == "regression" else "y"
    roles = {"pred": "f" if kind == "regression" else "p"} if kind != "score" else {}
    if kind in ("score", "probability"):
        roles = {"score": "s"}
    out = fe.measures(df, truth, by="g", measures=chosen, ci=0.9, n_resamples=20, **roles)
    for m in chosen:
        low, high = out[f"{m.name}_low"], out[f"{m.name}_high"]
        assert (low.is_null() == high.is_null()).all(), m.name
        assert ((low <= high) | low.is_null()).all(), m.name
        assert ((low >= m.lower - 1e-12) | low.is_null()).all(), m.name
        if m.upper is not None:
            assert ((high <= m.upper + 1e-12) | high.is_null()).all(), m.name
