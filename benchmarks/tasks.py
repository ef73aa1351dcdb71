"""The benchmark tasks. Each prints frameeval's time next to the alternatives, in one run."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

import frameeval as fe
from benchmarks.data import result_frame

KEYS = ["dataset", "model", "fold"]
Report = Callable[[str, dict[str, float]], None]
Timed = Callable[..., float]


def _sklearn_loop(df: pl.DataFrame, measure: Callable[[np.ndarray, np.ndarray], Any],
                  n_groups: int | None) -> tuple[float, int]:
    """Time a per-group scikit-learn loop (what users write today); optionally on a subset."""
    import time

    parts = df.partition_by(KEYS, maintain_order=False)  # loop-ok: this *is* the baseline
    total = len(parts)
    if n_groups is not None:
        parts = parts[:n_groups]
    arrays = [(p["y_true"].to_numpy(), p["y_pred"].to_numpy(), p["score"].to_numpy())
              for p in parts]
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for y, p, s in arrays:  # loop-ok: baseline
            measure(y, p, s)
    elapsed = time.perf_counter() - start
    return elapsed * total / len(parts), total


def label_metrics(n_rows: int, n_groups: int, report: Report, timed: Timed,
                  sk_groups: int | None, n_classes: int = 2) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups, n_classes=n_classes)
    if n_classes == 2:
        def frameeval_run() -> pl.DataFrame:
            return df.group_by(KEYS).agg(
                fe.accuracy("y_true", "y_pred"),
                fe.precision("y_true", "y_pred"),
                fe.recall("y_true", "y_pred"),
                fe.f1("y_true", "y_pred"),
            )

        def sk(y: np.ndarray, p: np.ndarray, s: np.ndarray) -> Any:
            return (skm.accuracy_score(y, p), skm.precision_score(y, p),
                    skm.recall_score(y, p), skm.f1_score(y, p))
    else:
        def frameeval_run() -> pl.DataFrame:
            return fe.classification_report(df, truth="y_true", pred="y_pred", by=KEYS)

        def sk(y: np.ndarray, p: np.ndarray, s: np.ndarray) -> Any:
            return skm.precision_recall_fscore_support(y, p, zero_division=np.nan)

    rows = {"frameeval": timed(frameeval_run)}
    if n_classes == 2:
        rows["frameeval classification_report"] = timed(
            lambda: fe.classification_report(df, truth="y_true", pred="y_pred", by=KEYS))
    rows["polars floor: group_by().agg(len)"] = timed(lambda: df.group_by(KEYS).agg(pl.len()))
    rows["polars floor: group_by(+labels).len"] = timed(
        lambda: df.group_by(*KEYS, "y_true", "y_pred").agg(pl.len()))
    elapsed, _ = _sklearn_loop(df, sk, sk_groups)
    rows["scikit-learn per-group loop" + (" (extrapolated)" if sk_groups else "")] = elapsed
    task = f"grouped label metrics, {n_classes} classes"
    report(task, rows)


def label_metrics_10(n_rows: int, n_groups: int, report: Report, timed: Timed,
                     sk_groups: int | None) -> None:
    label_metrics(n_rows, n_groups, report, timed, sk_groups, n_classes=10)


def confusion(n_rows: int, n_groups: int, report: Report, timed: Timed,
              sk_groups: int | None) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups, n_classes=10)
    rows = {
        "frameeval": timed(lambda: fe.confusion_matrix(df, truth="y_true", pred="y_pred", by=KEYS)),
        "polars floor: group_by(+labels).len": timed(
            lambda: df.group_by(*KEYS, "y_true", "y_pred").agg(pl.len())),
    }
    elapsed, _ = _sklearn_loop(df, lambda y, p, s: skm.confusion_matrix(y, p), sk_groups)
    rows["scikit-learn per-group loop" + (" (extrapolated)" if sk_groups else "")] = elapsed
    report("grouped confusion matrices, 10 classes", rows)


def auc(n_rows: int, n_groups: int, report: Report, timed: Timed,
        sk_groups: int | None) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups)
    rows = {
        "frameeval": timed(lambda: df.group_by(KEYS).agg(fe.roc_auc("y_true", "score"))),
        "frameeval ranking_report (count table)": timed(
            lambda: fe.ranking_report(df, truth="y_true", score="score", by=KEYS)),
        "polars floor: group_by().agg(len)": timed(lambda: df.group_by(KEYS).agg(pl.len())),
    }
    try:
        import polars_ds as pds

        rows["polars-ds query_roc_auc"] = timed(
            lambda: df.group_by(KEYS).agg(pds.query_roc_auc("y_true", "score")))
    except ImportError:
        pass
    try:
        import polarbearings as pb

        rows["polarbearings roc_auc"] = timed(
            lambda: df.group_by(KEYS).agg(pb.roc_auc("y_true", "score")))
    except ImportError:
        pass
    elapsed, _ = _sklearn_loop(df, lambda y, p, s: skm.roc_auc_score(y, s), sk_groups)
    rows["scikit-learn per-group loop" + (" (extrapolated)" if sk_groups else "")] = elapsed
    report(f"grouped exact AUC, {n_groups} groups", rows)


def auc_large_groups(n_rows: int, n_groups: int, report: Report, timed: Timed,
                     sk_groups: int | None) -> None:
    auc(n_rows, 10, report, timed, None)


def roc(n_rows: int, n_groups: int, report: Report, timed: Timed,
        sk_groups: int | None) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups)
    rows = {
        "frameeval": timed(lambda: fe.roc_curve(df, truth="y_true", score="score", by=KEYS)),
    }
    elapsed, _ = _sklearn_loop(
        df, lambda y, p, s: skm.roc_curve(y, s, drop_intermediate=False), sk_groups)
    rows["scikit-learn per-group loop" + (" (extrapolated)" if sk_groups else "")] = elapsed
    report(f"grouped ROC curves, {n_groups} groups", rows)


def fold_assignment(n_rows: int, n_groups: int, report: Report, timed: Timed,
                    sk_groups: int | None) -> None:
    """Stratified 10-fold × 10 repeats: frameeval's lazy seeded assignment vs scikit-learn's
    RepeatedStratifiedKFold index generation (all 100 train/test index pairs)."""
    from sklearn.model_selection import RepeatedStratifiedKFold

    df = result_frame(n_rows, n_groups, n_classes=3).select("y_true").with_row_index("id")
    y = df["y_true"].to_numpy()
    rows = {
        "frameeval": timed(lambda: fe.split.kfold(df, k=10, repeats=10, stratify="y_true",
                                                  instance="id", seed=0), repeat=1),
    }

    def sklearn_indices() -> None:
        cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
        for _train, _test in cv.split(np.zeros(len(y)), y):  # loop-ok: the baseline
            pass

    rows["scikit-learn RepeatedStratifiedKFold"] = timed(sklearn_indices, repeat=1)
    report(f"stratified 10-fold x 10 repeats, {n_rows:,} rows", rows)


def friedman_nemenyi(n_rows: int, n_groups: int, report: Report, timed: Timed,
                     sk_groups: int | None) -> None:
    """Friedman + Nemenyi on a learners × data sets accuracy table (long form), against scipy's
    friedmanchisquare + scikit-posthocs' posthoc_nemenyi_friedman on the wide matrix: 1,000
    learners × 100 data sets at every scale (5 × 10 below 1M rows, for the smoke test)."""
    learners, blocks = (1_000, 100) if n_rows >= 1_000_000 else (5, 10)
    rng = np.random.default_rng(0)
    skill = rng.normal(0, 0.02, learners)
    acc = np.clip(0.8 + skill[None, :] + rng.normal(0, 0.03, (blocks, learners)), 0, 1)
    table = pl.DataFrame({
        "block": np.repeat(np.arange(blocks), learners),
        "learner": np.tile(np.arange(learners), blocks),
        "accuracy": acc.ravel(),
    })

    def ours() -> None:
        fe.friedman(table, "accuracy", block="block", learner="learner", higher_is_better=True)
        fe.nemenyi(table, "accuracy", block="block", learner="learner", higher_is_better=True)

    rows = {"frameeval": timed(ours, repeat=1)}
    try:
        import scikit_posthocs as sp
        from scipy import stats

        def theirs() -> None:
            stats.friedmanchisquare(*acc.T)
            sp.posthoc_nemenyi_friedman(acc)

        rows["scipy + scikit-posthocs (wide matrix)"] = timed(theirs, repeat=1)
    except ImportError:
        pass
    report(f"Friedman + Nemenyi, {learners:,} learners x {blocks} data sets", rows)


TASKS: dict[str, Callable[..., None]] = {
    "label_metrics": label_metrics,
    "label_metrics_10": label_metrics_10,
    "confusion": confusion,
    "auc": auc,
    "auc_large_groups": auc_large_groups,
    "roc": roc,
    "fold_assignment": fold_assignment,
    "friedman_nemenyi": friedman_nemenyi,
}
