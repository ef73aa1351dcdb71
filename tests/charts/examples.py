"""Small synthetic frames with exactly the columns of the computational modules' outputs.

The chart tests and ``docs/make_chart_images.py`` draw these. The numbers come from numpy (seeded)
with the textbook definitions, so the pictures look like real results; the charts under test
never recompute them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from scipy import stats

LEARNERS = ("logistic", "tree", "forest")


def scores(n: int = 60, seed: int = 7) -> pl.DataFrame:
    """Binary truth and scores of three learners on two data sets (separation grows A<B<C)."""
    rng = np.random.default_rng(seed)
    parts = []
    for dataset, shift in (("breast", 0.3), ("spam", 0.0)):
        truth = rng.integers(0, 2, n)
        for learner, gap in zip(LEARNERS, (0.8, 1.3, 2.0), strict=True):
            score = 1 / (1 + np.exp(-(truth * (gap + shift) + rng.normal(0, 1, n) - gap / 2)))
            if learner == "tree":  # a tree's scores are coarse: many ties
                score = np.round(score * 5) / 5
            parts.append(
                pl.DataFrame(
                    {"dataset": dataset, "learner": learner, "truth": truth, "score": score}
                )
            )
    return pl.concat(parts)


def _roc_points(truth: np.ndarray, score: np.ndarray) -> dict[str, np.ndarray]:
    order = np.argsort(-score, kind="stable")
    s, t = score[order], truth[order]
    distinct = np.r_[np.nonzero(np.diff(s))[0], len(s) - 1]
    tp = np.cumsum(t)[distinct]
    fp = np.cumsum(1 - t)[distinct]
    pos, neg = t.sum(), len(t) - t.sum()
    return {
        "threshold": np.r_[np.inf, s[distinct]],
        "fpr": np.r_[0.0, fp / neg],
        "tpr": np.r_[0.0, tp / pos],
        "tp": tp,
        "fp": fp,
        "pos": pos,
    }


def _per_group(frame: pl.DataFrame, by: list[str], build) -> pl.DataFrame:
    parts = []
    for key, part in frame.sort(by).group_by(by, maintain_order=True):
        out = build(part["truth"].to_numpy(), part["score"].to_numpy())
        parts.append(
            out.select(*[pl.lit(v).alias(k) for k, v in zip(by, key, strict=True)], pl.all())
        )
    return pl.concat(parts)


def roc_curve(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """``*by, threshold, fpr, tpr`` with the (0, 0) start at threshold +inf."""

    def build(truth, score):
        p = _roc_points(truth, score)
        return pl.DataFrame({k: p[k] for k in ("threshold", "fpr", "tpr")})

    return _per_group(frame, by, build)


def roc_auc(curve: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """``*by, roc_auc``: the trapezoid area of the curve."""
    return (
        curve.group_by(by)
        .agg(
            (
                (pl.col("fpr") - pl.col("fpr").shift(1))
                * (pl.col("tpr") + pl.col("tpr").shift(1))
                / 2
            )
            .sum()
            .alias("roc_auc")
        )
        .sort(by)
    )


def pr_curve(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """``*by, threshold, recall, precision``."""

    def build(truth, score):
        p = _roc_points(truth, score)
        return pl.DataFrame(
            {
                "threshold": p["threshold"][1:],
                "recall": p["tp"] / p["pos"],
                "precision": p["tp"] / (p["tp"] + p["fp"]),
            }
        )

    return _per_group(frame, by, build)


def break_even_point(curve: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """``*by, break_even_point``: the curve point closest to P = R (mean of the two)."""
    return (
        curve.with_columns(gap=(pl.col("precision") - pl.col("recall")).abs())
        .group_by(by)
        .agg(
            ((pl.col("precision") + pl.col("recall")) / 2)
            .sort_by("gap")
            .first()
            .alias("break_even_point")
        )
        .sort(by)
    )


def cost_lines(curve: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """``*by, point, p_cost, norm_cost``: (0, FPR) → (1, FNR), two rows per ROC point."""
    points = curve.with_columns(point=pl.int_range(pl.len()).over(by))
    start = points.select(*by, "point", p_cost=pl.lit(0.0), norm_cost=pl.col("fpr"))
    end = points.select(*by, "point", p_cost=pl.lit(1.0), norm_cost=1 - pl.col("tpr"))
    return pl.concat([start, end]).sort([*by, "point", "p_cost"])


def cost_envelope(curve: pl.DataFrame, by: list[str], n: int = 101) -> pl.DataFrame:
    """``*by, p_cost, norm_cost``: the lower envelope on an n-point grid (enough for pictures)."""
    grid = pl.DataFrame({"p_cost": np.linspace(0, 1, n)})
    return (
        curve.join(grid, how="cross")
        .with_columns(
            norm_cost=pl.col("fpr") * (1 - pl.col("p_cost"))
            + (1 - pl.col("tpr")) * pl.col("p_cost")
        )
        .group_by([*by, "p_cost"])
        .agg(pl.col("norm_cost").min())
        .sort([*by, "p_cost"])
    )


def expected_total_cost(envelope: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """``*by, expected_total_cost``: trapezoid area under the envelope."""
    return (
        envelope.group_by(by)
        .agg(
            (
                (pl.col("p_cost") - pl.col("p_cost").shift(1))
                * (pl.col("norm_cost") + pl.col("norm_cost").shift(1))
                / 2
            )
            .sum()
            .alias("expected_total_cost")
        )
        .sort(by)
    )


def binomial_distribution(m: int = 10, eps0: float = 0.3) -> pl.DataFrame:
    """``errors, probability`` of Binomial(m, eps0): figure 2.6 (the notes' m = 10, ε = 0.3)."""
    errors = np.arange(m + 1)
    return pl.DataFrame({"errors": errors, "probability": stats.binom.pmf(errors, m, eps0)})


def binomial_critical_count(m: int = 10, eps0: float = 0.3, alpha: float = 0.05) -> int:
    """min c with P(errors > c) < alpha (eq 2.27 as corrected in the notes)."""
    c = 0
    while stats.binom.sf(c, m, eps0) >= alpha:
        c += 1
    return c


def metric_table(seed: int = 3) -> pl.DataFrame:
    """``dataset, fold, learner, accuracy``: 4 data sets × 5 folds × 3 learners."""
    rng = np.random.default_rng(seed)
    rows = []
    for d, dataset in enumerate(("breast", "iris", "wine", "digits")):
        for fold in range(5):
            for learner, base in zip(LEARNERS, (0.86, 0.82, 0.9), strict=True):
                acc = min(1.0, base + 0.02 * d + rng.normal(0, 0.025))
                rows.append((dataset, fold, learner, float(acc)))
    return pl.DataFrame(rows, schema=["dataset", "fold", "learner", "accuracy"], orient="row")


def rank_table() -> pl.DataFrame:
    """``dataset, learner, rank``: the book's Table 2.5 (four data sets, algorithms A, B, C)."""
    ranks = {
        "D1": (1.0, 2.0, 3.0),
        "D2": (1.0, 2.5, 2.5),
        "D3": (1.0, 2.0, 3.0),
        "D4": (1.0, 2.0, 3.0),
    }
    rows = [
        (dataset, learner, r)
        for dataset, values in ranks.items()
        for learner, r in zip("ABC", values, strict=True)
    ]
    return pl.DataFrame(rows, schema=["dataset", "learner", "rank"], orient="row")


def average_ranks() -> pl.DataFrame:
    """``learner, average_rank`` of Table 2.5: 1, 2.125, 2.875."""
    return pl.DataFrame({"learner": ["A", "B", "C"], "average_rank": [1.0, 2.125, 2.875]})


#: CD for k = 3, N = 4, α = 0.05 (eq 2.36 with q_α = 2.344 of Table 2.7).
BOOK_CD = 2.344 * (3 * 4 / (6 * 4)) ** 0.5


def demsar_ranks() -> pl.DataFrame:
    """Average ranks of Demšar (2006), Table 6 / Figure 1: four learners on 14 data sets."""
    return pl.DataFrame(
        {
            "learner": ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
            "average_rank": [3.143, 2.000, 2.893, 1.964],
        }
    )


#: CD for k = 4, N = 14, α = 0.05 (q_α = 2.569): Demšar (2006), section 3.2.2.
DEMSAR_CD = 2.569 * (4 * 5 / (6 * 14)) ** 0.5


def confusion_matrix() -> pl.DataFrame:
    """``learner, actual, predicted, count`` for a 3-class task (iris-like)."""
    labels = ["setosa", "versicolor", "virginica"]
    counts = {
        "tree": [[50, 0, 0], [0, 47, 3], [0, 4, 46]],
        "forest": [[50, 0, 0], [0, 48, 2], [0, 2, 48]],
    }
    rows = [
        (learner, labels[i], labels[j], float(table[i][j]))
        for learner, table in counts.items()
        for i in range(3)
        for j in range(3)
    ]
    return pl.DataFrame(rows, schema=["learner", "actual", "predicted", "count"], orient="row")


def bias_variance() -> pl.DataFrame:
    """``degree, n_instances, n_repeats, error, bias_squared, variance`` (figure 2.9 shape)."""
    degree = np.arange(1, 10)
    bias2 = 1.2 / degree**1.3
    variance = 0.012 * degree**1.6
    noise = 0.05
    return pl.DataFrame(
        {
            "degree": degree,
            "n_instances": 50,
            "n_repeats": 20,
            "error": bias2 + variance + noise,
            "bias_squared": bias2,
            "variance": variance,
        }
    )


def learning_curve(seed: int = 5) -> pl.DataFrame:
    """``train_size, fold, role, score``: accuracy per fold, train and validation."""
    rng = np.random.default_rng(seed)
    rows = []
    for size in (20, 40, 80, 160, 320):
        for fold in range(5):
            val = 0.95 - 0.5 / np.sqrt(size) * 3 + rng.normal(0, 0.02)
            train = 1.0 - 0.3 / np.sqrt(size) + rng.normal(0, 0.005)
            rows.append((size, fold, "train", float(min(train, 1.0))))
            rows.append((size, fold, "validation", float(val)))
    return pl.DataFrame(rows, schema=["train_size", "fold", "role", "score"], orient="row")


def validation_curve(seed: int = 6) -> pl.DataFrame:
    """``C, fold, role, score`` over a log grid of a regularisation parameter."""
    rng = np.random.default_rng(seed)
    rows = []
    for c in (0.001, 0.01, 0.1, 1.0, 10.0, 100.0):
        x = np.log10(c)
        for fold in range(5):
            train = 0.72 + 0.27 / (1 + np.exp(-(x + 1))) + rng.normal(0, 0.005)
            val = train - 0.03 - 0.05 * max(x, 0) ** 1.5 + rng.normal(0, 0.015)
            rows.append((c, fold, "train", float(min(train, 1.0))))
            rows.append((c, fold, "validation", float(val)))
    return pl.DataFrame(rows, schema=["C", "fold", "role", "score"], orient="row")


#: Demšar (2006) critical value q_0.10 for k = 4 (his Table 5(b)): CD = 1.12 at α = 0.10.
DEMSAR_CD_10 = 2.291 * (4 * 5 / (6 * 14)) ** 0.5


def regression_results(n: int = 400, seed: int = 8) -> pl.DataFrame:
    """``learner, truth, pred``: one target, three regressors of growing noise (one biased)."""
    rng = np.random.default_rng(seed)
    truth = rng.gamma(4.0, 2.0, n)
    parts = []
    for learner, noise, bias in (("ridge", 1.0, 0.0), ("forest", 1.5, 0.4), ("knn", 2.5, -0.5)):
        pred = truth + bias + rng.normal(0, noise, n)
        parts.append(pl.DataFrame({"learner": learner, "truth": truth, "pred": pred}))
    return pl.concat(parts)


def quantile_scores(seed: int = 9) -> pl.DataFrame:
    """``learner, quantile, pinball_loss, coverage`` of a calibrated, a too narrow and a too
    wide normal quantile forecaster (coverage = Φ(z_τ / s) for spread factor s)."""
    levels = np.array([0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95])
    rows = []
    for learner, spread in (("calibrated", 1.0), ("narrow", 0.6), ("wide", 1.6)):
        coverage = stats.norm.cdf(spread * stats.norm.ppf(levels))
        for level, cov in zip(levels, coverage, strict=True):
            rows.append((learner, float(level), 0.1 + abs(cov - level), float(cov)))
    return pl.DataFrame(
        rows, schema=["learner", "quantile", "pinball_loss", "coverage"], orient="row"
    )


def gallery() -> dict[str, Any]:
    """One chart per picture (and variant) on the example frames: the tests render each to SVG
    and snapshot its spec; ``docs/make_chart_images.py`` writes them to docs/img/."""
    from frameeval import charts

    by = ["dataset", "learner"]
    s = scores()
    roc = roc_curve(s, by)
    auc = roc_auc(roc, by)
    pr = pr_curve(s, by)
    bep = break_even_point(pr, by)
    lines = cost_lines(roc, by)
    envelope = cost_envelope(roc, by)
    total = expected_total_cost(envelope, by)

    def breast(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.filter(pl.col("dataset") == "breast").drop("dataset")

    def tree(frame: pl.DataFrame) -> pl.DataFrame:
        return breast(frame).filter(pl.col("learner") == "tree")

    import frameeval as fe

    intervals = fe.delong_ci(s, "truth", "score", by=by)
    band = fe.roc_band(breast(s), "truth", "score", by="learner", repeats=30, points=6, seed=0)
    calibration = fe.calibration_curve(breast(s), "truth", "score", by="learner", bins=5)
    operating = fe.threshold_table(
        breast(s), "truth", "score", by="learner", measures=["precision", "recall", "f1", "mcc"]
    )
    chosen = fe.best_threshold(breast(s), "truth", "score", by="learner", measure="mcc")

    blocks = metric_table().with_columns(
        pl.concat_str([pl.col("dataset"), pl.col("fold").cast(pl.String)], separator="/").alias(
            "block"
        )
    )
    bayes = {"rope": 0.01, "n_samples": 2000, "seed": 0}
    signed_rank = fe.bayes_signed_rank(blocks, "accuracy", **bayes)
    posterior = fe.compare.bayes_signed_rank_samples(
        blocks, "accuracy", a="logistic", b="tree", **bayes
    )

    return {
        "posterior_simplex": charts.posterior_simplex(posterior, signed_rank, max_points=500),
        "bayes_matrix": charts.bayes_matrix(signed_rank),
        "comparison_matrix": charts.comparison_matrix(fe.comparison_matrix(blocks, "accuracy")),
        "forest": charts.forest(intervals, reference=0.5),
        "roc_band": charts.roc_band(band),
        "calibration": charts.calibration(calibration),
        "threshold": charts.threshold(operating, best=chosen),
        "roc": charts.roc(breast(roc), breast(auc)),
        "roc_facet": charts.roc(roc, auc, facet="dataset"),
        "pr": charts.pr(breast(pr), breast(bep)),
        "gains": charts.gains(fe.gains_curve(breast(s), "truth", "score", by="learner")),
        "lift": charts.lift(fe.lift_curve(breast(s), "truth", "score", by="learner")),
        "ks": charts.ks(
            fe.roc_curve(breast(s), "truth", "score", by="learner"),
            fe.ks_statistic(breast(s), "truth", "score", by="learner"),
        ),
        "cost_curve": charts.cost_curve(tree(envelope), tree(lines), tree(total)),
        "cost_curve_facet": charts.cost_curve(envelope, lines, total, facet="dataset"),
        "binomial": charts.binomial(
            binomial_distribution(),
            critical_count=binomial_critical_count(),
            m=10,
            eps0=0.3,
            alpha=0.05,
            observed=4,
        ),
        "t_distribution": charts.t_distribution(9, alpha=0.05, statistic=1.3),
        "cd_diagram": charts.cd_diagram(average_ranks(), cd=BOOK_CD),
        "cd_diagram_demsar": charts.cd_diagram(demsar_ranks(), cd=DEMSAR_CD_10, style="demsar"),
        "rank_heatmap": charts.rank_heatmap(rank_table(), average_ranks()),
        "metric_distribution": charts.metric_distribution(
            metric_table(), "accuracy", facet="dataset"
        ),
        "confusion_heatmap": charts.confusion_heatmap(confusion_matrix()),
        "confusion_heatmap_normalized": charts.confusion_heatmap(
            confusion_matrix(), normalize="true"
        ),
        "bias_variance": charts.bias_variance(bias_variance(), complexity="degree"),
        "learning_curve": charts.learning_curve(learning_curve()),
        "validation_curve": charts.validation_curve(validation_curve(), "C", log_x=True),
        "predicted_actual": charts.predicted_actual(
            regression_results(), "truth", "pred", facet="learner", bins=20
        ),
        "residuals": charts.residuals(
            regression_results(), "truth", "pred", facet="learner", bins=20
        ),
        "residual_distribution": charts.residual_distribution(
            regression_results(), "truth", "pred", color="learner", bins=25
        ),
        "quantile_coverage": charts.quantile_coverage(quantile_scores()),
        "leaderboard": charts.leaderboard(
            fe.items.leaderboard(
                fe.datasets.items_results().filter(pl.col("benchmark").is_in(["iris", "wine"])),
                "correct",
                by="benchmark",
                cluster="cluster",
                sample="epoch",
                n_resamples=100,
            )
        ),
        "subgroup_gaps": _subgroup_gaps(breast(s)),
    }


def _subgroup_gaps(rows: pl.DataFrame) -> Any:
    """Recall and selection rate of each learner in three derived groups, with intervals."""
    import frameeval as fe
    from frameeval import charts

    data = rows.with_columns(
        (pl.col("score") > 0.5).cast(pl.Int64).alias("pred"),
        pl.int_range(pl.len()).over("learner").mod(3).cast(pl.String).alias("group"),
    )
    common = {"sensitive": "group", "by": "learner", "measures": ["recall", "selection_rate"]}
    values = fe.subgroups.by_group(data, "truth", "pred", ci=0.95, **common)
    gaps = fe.subgroups.gaps(data, "truth", "pred", **common)
    return charts.subgroup_gaps(values, gaps, sensitive="group", color="learner")
