"""The benchmark tasks. Each prints frameeval's time next to the alternatives, in one run."""

from __future__ import annotations

import contextlib
import math
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import frameeval as fe
from benchmarks.data import regression_frame, result_frame

KEYS = ["dataset", "model", "fold"]
Report = Callable[[str, dict[str, Any]], None]
Timed = Callable[..., Any]  # returns a benchmarks.timing.Measure


def _sklearn_loops(
    df: pl.DataFrame,
    measure: Callable[..., Any],
    timed: Timed,
    n_groups: int | None,
    what: str,
    columns: tuple[str, ...] = ("y_true", "y_pred", "score"),
) -> dict[str, Any]:
    """The per-group scikit-learn loop, timed two ways (both rows are reported):

    * **as users write it**: iterate ``df.group_by(keys)`` and call scikit-learn on each group's
      columns, from the frame to the last result (grouping and conversion included);
    * **calls only**: the frame already split into NumPy arrays outside the timer, only the
      scikit-learn calls timed — the loop's lower bound.

    With ``n_groups`` both run on that many groups and are scaled to all groups.
    """
    from benchmarks.timing import Measure

    sub = df
    if n_groups is not None:
        chosen = df.select(KEYS).unique(maintain_order=True).head(n_groups)
        sub = df.join(chosen, on=KEYS, how="semi")
    total = df.select(KEYS).n_unique()
    share = total / sub.select(KEYS).n_unique()

    def from_frame() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _key, group in sub.group_by(KEYS):  # loop-ok: this *is* the baseline
                measure(*(group[c].to_numpy() for c in columns))

    arrays = [
        tuple(p[c].to_numpy() for c in columns)
        for p in sub.partition_by(KEYS, maintain_order=False)
    ]

    def calls_only() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for group in arrays:  # loop-ok: baseline
                measure(*group)

    extrapolated = f"{sub.select(KEYS).n_unique()} groups timed, scaled" if n_groups else ""
    rows = {}
    for label, fn in (
        (f"scikit-learn loop, as users write it: {what}", from_frame),
        ("  the same, scikit-learn calls only (pre-split arrays)", calls_only),
    ):
        m = timed(fn, repeat=1)
        rows[label] = Measure(m.seconds * share, m.peak_bytes, extrapolated)
    return rows


@contextlib.contextmanager
def _native_stderr_silenced() -> Iterator[None]:
    """Send file descriptor 2 to /dev/null for a call into a third-party extension, whose panic
    handler writes there directly (not through ``sys.stderr``); the caller prints one line."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _third_party(name: str, fn: Callable[[], Any], timed: Timed) -> dict[str, Any]:
    """``{name: timed(fn)}``, or ``{}`` with one printed line when ``fn`` fails — also on a Rust
    panic inside the extension (pyo3's ``PanicException`` is a ``BaseException``, and its panic
    handler writes ~20 lines straight to file descriptor 2, silenced here for a first trial
    call and for the timed runs: a panic in a multi-threaded group_by may come on any run)."""
    try:
        with _native_stderr_silenced():
            fn()
            measured = timed(fn)
    except BaseException as err:
        if isinstance(err, KeyboardInterrupt | SystemExit):
            raise
        kind = "a Rust panic" if type(err).__name__ == "PanicException" else type(err).__name__
        first = (str(err).strip().splitlines() or [""])[0][:100]
        print(f"  ({name} fails here: {kind}: {first})")
        return {}
    return {name: measured}


def _binary_label_alternatives(df: pl.DataFrame, timed: Timed) -> dict[str, Any]:
    """polars-ds and polarbearings, where installed: binary label measures per group (both take
    a score and a threshold; the 0/1 prediction with threshold 0.5 is the same labelling)."""
    rows: dict[str, Any] = {}
    try:
        import polars_ds as pds

        # polars-ds 0.13 panics inside group_by on Polars 2.1 (struct dtype)
        rows |= _third_party(
            "polars-ds query_confusion_matrix(all_metrics=True)",
            lambda: df.group_by(KEYS).agg(
                pds.query_confusion_matrix("y_true", "y_pred", all_metrics=True)
            ),
            timed,
        )
    except ImportError:
        pass
    try:
        import polarbearings as pb

        rows["polarbearings accuracy, precision, recall, f1_score"] = timed(
            lambda: df.group_by(KEYS).agg(
                pb.accuracy("y_true", "y_pred").alias("a"),
                pb.precision("y_true", "y_pred"),
                pb.recall("y_true", "y_pred"),
                pb.f1_score("y_true", "y_pred"),
            )
        )
    except ImportError:
        pass
    return rows


#: rounds of an interleaved comparison (:func:`_interleaved`)
ROUNDS = 25


def _interleaved(
    cases: dict[str, Callable[[], Any]], timed: Timed, rounds: int | None = None
) -> dict[str, Any]:
    """The best wall time of each case over :data:`ROUNDS` rounds that run every case once, in
    turn: a speed goal compares two rows measured side by side in the same seconds, so a
    slower stretch of a shared machine (a noisy neighbour, a frequency step) slows both
    instead of one (timed apart, best-of-N ratios at 10–20 ms moved by ±0.3 between runs).
    ``timed`` runs the rounds once, then each case once more (the memory pass's peak)."""
    import time

    from benchmarks.timing import Measure

    best = dict.fromkeys(cases, float("inf"))
    n_rounds = ROUNDS if rounds is None else rounds

    def run_rounds() -> None:
        for fn in cases.values():  # loop-ok: a handful of cases, each warmed once
            fn()
        order = list(cases.items())
        for i in range(n_rounds):  # loop-ok: timing rounds
            # forwards, then backwards: no case always runs first (or after the same one)
            for name, fn in order if i % 2 == 0 else order[::-1]:  # loop-ok: one round
                start = time.perf_counter()
                fn()
                best[name] = min(best[name], time.perf_counter() - start)

    timed(run_rounds, repeat=1)
    # each case once more through ``timed``: its peak memory in the memory pass
    peaks = {name: timed(fn, repeat=1).peak_bytes for name, fn in cases.items()}
    note = f"best of {n_rounds} interleaved"
    return {name: Measure(seconds, peaks[name], note) for name, seconds in best.items()}


def _goal(what: str, ratio: float, goal: str, met: bool) -> None:
    """One line under a table: a speed goal of docs/performance.md and whether this run met it."""
    print(f"  goal: {what} = {ratio:.2f}x ({goal}: {'met' if met else 'NOT met'})")


def _floors(df: pl.DataFrame, *labels: str) -> dict[str, Callable[[], Any]]:
    """The bare Polars counts, on both engines: eager ``DataFrame.group_by`` (the in-memory
    engine) and ``LazyFrame.collect()`` (Polars 2's default, the streaming engine)."""
    floors: dict[str, Callable[[], Any]] = {
        "polars floor: group_by(keys).len, eager": lambda: df.group_by(KEYS).agg(pl.len()),
        "polars floor: group_by(keys).len, lazy (streaming)": lambda: (
            df.lazy().group_by(KEYS).agg(pl.len()).collect()
        ),
    }
    if labels:
        floors["polars floor: group_by(keys + labels).len, eager"] = lambda: df.group_by(
            *KEYS, *labels
        ).agg(pl.len())
        floors["polars floor: group_by(keys + labels).len, lazy (streaming)"] = lambda: (
            df.lazy().group_by(*KEYS, *labels).agg(pl.len()).collect()
        )
    return floors


def label_metrics(
    n_rows: int,
    n_groups: int,
    report: Report,
    timed: Timed,
    sk_groups: int | None,
    n_classes: int = 2,
) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups, n_classes=n_classes)
    rows = {
        "frameeval": timed(
            lambda: fe.classification_report(df, truth="y_true", pred="y_pred", by=KEYS)
        )
    }
    if n_classes == 2:
        four = [
            fe.accuracy("y_true", "y_pred"),
            fe.precision("y_true", "y_pred"),
            fe.recall("y_true", "y_pred"),
            fe.f1("y_true", "y_pred"),
        ]
        names = ["precision", "recall", "f1", "accuracy"]
        y, p = pl.col("y_true") == 1, pl.col("y_pred") == 1
        floor = "polars floor: lazy group_by(keys).agg(len, the four sums P, R, F1, acc need)"
        lazy_four = "frameeval: 4 expressions, lazy group_by().agg().collect()"
        lazy_measures = "frameeval: fe.measures(P, R, F1, accuracy), lazy"
        # issue 22's goals: the three rows side by side (interleaved), each check included
        goals = _interleaved(
            {
                floor: lambda: (
                    df.lazy()
                    .group_by(KEYS)
                    .agg(
                        pl.len(),
                        y.sum().alias("y"),
                        p.sum().alias("p"),
                        (y & p).sum().alias("yp"),
                        (pl.col("y_true") == pl.col("y_pred")).sum().alias("hit"),
                    )
                    .collect()
                ),
                lazy_four: lambda: df.lazy().group_by(KEYS).agg(four).collect(),
                lazy_measures: lambda: fe.measures(
                    df.lazy(), truth="y_true", pred="y_pred", by=KEYS, measures=names
                ).collect(),
            },
            timed,
        )
        rows |= goals
        eager_floor = "polars floor: the same five sums, eager df.group_by().agg()"
        eager_four = "frameeval: 4 expressions, eager df.group_by().agg()"
        sums = [
            pl.len(),
            y.sum().alias("y"),
            p.sum().alias("p"),
            (y & p).sum().alias("yp"),
            (pl.col("y_true") == pl.col("y_pred")).sum().alias("hit"),
        ]
        # issue 31: the eager face (the in-memory engine) against the same sums, eagerly
        rows |= _interleaved(
            {
                eager_floor: lambda: df.group_by(KEYS).agg(sums),
                eager_four: lambda: df.group_by(KEYS).agg(four),
            },
            timed,
        )
        rows["frameeval: fe.accuracy alone, lazy"] = timed(
            lambda: df.lazy().group_by(KEYS).agg(fe.accuracy("y_true", "y_pred")).collect()
        )
        rows["polars floor: lazy group_by(keys).agg(len, label columns)"] = timed(
            lambda: (
                df.lazy()
                .group_by(KEYS)
                .agg(pl.len(), pl.col("y_true").sum(), pl.col("y_pred").sum())
                .collect()
            )
        )

        def sk(y: np.ndarray, p: np.ndarray, s: np.ndarray) -> Any:
            return (
                skm.accuracy_score(y, p),
                skm.precision_score(y, p),
                skm.recall_score(y, p),
                skm.f1_score(y, p),
            )

        what = "accuracy, precision, recall, f1 per group"
    else:

        def sk(y: np.ndarray, p: np.ndarray, s: np.ndarray) -> Any:
            # the same table as frameeval's report: per class P/R/F1/support + the averages
            return skm.classification_report(y, p, output_dict=True, zero_division=np.nan)

        what = "classification_report(output_dict=True) per group"
    rows |= {name: timed(fn) for name, fn in _floors(df, "y_true", "y_pred").items()}
    if n_classes == 2:
        rows |= _binary_label_alternatives(df, timed)
    rows |= _sklearn_loops(df, sk, timed, sk_groups, what)
    if n_classes != 2:
        rows |= {
            f"{k} [per-class P/R/F only]": v
            for k, v in _sklearn_loops(
                df,
                lambda y, p, s: skm.precision_recall_fscore_support(y, p, zero_division=np.nan),
                timed,
                sk_groups,
                "precision_recall_fscore_support",
            ).items()
        }
    report(f"grouped label metrics ({n_classes} classes): classification_report", rows)
    if n_classes == 2:
        base = rows[floor].seconds
        four_s, measures_s = rows[lazy_four].seconds, rows[lazy_measures].seconds
        loop = rows[f"scikit-learn loop, as users write it: {what}"].seconds
        _goal(
            "4 label expressions (P, R, F1, accuracy) / floor",
            four_s / base,
            "<= 2",
            four_s <= 2 * base,
        )
        _goal(
            "fe.measures(P, R, F1, accuracy) / floor",
            measures_s / base,
            "<= 2",
            measures_s <= 2 * base,
        )
        _goal(
            "scikit-learn loop / 4 label expressions", loop / four_s, ">= 120", loop >= 120 * four_s
        )
        eager = rows[eager_four].seconds / rows[eager_floor].seconds
        _goal("4 label expressions, eager / the same sums, eager", eager, "<= 2", eager <= 2)


def regression_sums() -> tuple[list[pl.Expr], list[pl.Expr]]:
    """What ``rmse, mae, r2, mape`` read, as bare Polars aggregates over ``y_true`` / ``y_pred``:
    the seven sums, and the truth's min / max (also read by ``benchmarks.probes``)."""
    y, f = pl.col("y_true"), pl.col("y_pred")
    e = f - y
    sums = [
        pl.len(),
        (e * e).sum().alias("ee"),
        e.abs().sum().alias("ae"),
        y.sum().alias("y"),
        (y * y).sum().alias("yy"),
        (e.abs() / y.abs()).sum().alias("ape"),
        (y == 0).sum().alias("zero"),
    ]
    return sums, [y.min().alias("y_min"), y.max().alias("y_max")]


def regression_metrics(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """``fe.measures(rmse, mae, r2, mape)`` per group (issue 24, point 6): goals ≤ 2× a bare
    Polars group_by of the statistics these four read, ≥ 50× the scikit-learn loop."""
    from sklearn import metrics as skm

    df = regression_frame(n_rows, n_groups)
    names = ["rmse", "mae", "r2", "mape"]
    four = [getattr(fe, n)("y_true", "y_pred") for n in names]
    sums, extremes = regression_sums()
    eager_floor = "polars floor: group_by(keys).agg(the 7 sums + min/max of y the four read), eager"
    lazy_floor = "polars floor: the same, lazy (streaming)"
    eager_four = "frameeval: 4 expressions, eager df.group_by().agg()"
    lazy_four = "frameeval: 4 expressions, lazy group_by().agg().collect()"
    lazy_measures = "frameeval: fe.measures(rmse, mae, r2, mape), lazy"
    # issues 24 and 31: each face side by side with its floor (interleaved)
    rows = _interleaved(
        {
            "frameeval": lambda: fe.measures(
                df, truth="y_true", pred="y_pred", by=KEYS, measures=names
            ),
            lazy_measures: lambda: fe.measures(
                df.lazy(), truth="y_true", pred="y_pred", by=KEYS, measures=names
            ).collect(),
            eager_floor: lambda: df.group_by(KEYS).agg(*sums, *extremes),
            eager_four: lambda: df.group_by(KEYS).agg(four),
            lazy_floor: lambda: df.lazy().group_by(KEYS).agg(*sums, *extremes).collect(),
            lazy_four: lambda: df.lazy().group_by(KEYS).agg(four).collect(),
        },
        timed,
    )
    rows["polars floor: the 7 sums only (no min/max), eager"] = timed(
        lambda: df.group_by(KEYS).agg(*sums)
    )

    def sk(y: np.ndarray, p: np.ndarray) -> Any:
        return (
            skm.root_mean_squared_error(y, p),
            skm.mean_absolute_error(y, p),
            skm.r2_score(y, p),
            skm.mean_absolute_percentage_error(y, p),
        )

    loop_name = "scikit-learn loop, as users write it: rmse, mae, r2, mape per group"
    rows |= _sklearn_loops(
        df, sk, timed, sk_groups, "rmse, mae, r2, mape per group", columns=("y_true", "y_pred")
    )
    report("grouped regression measures: fe.measures(rmse, mae, r2, mape)", rows)
    sec = {k: v.seconds for k, v in rows.items()}
    for what, ratio in (
        ("4 regression expressions, eager / floor, eager", sec[eager_four] / sec[eager_floor]),
        ("4 regression expressions, lazy / floor, lazy", sec[lazy_four] / sec[lazy_floor]),
        ("fe.measures (eager frame) / floor, eager", sec["frameeval"] / sec[eager_floor]),
        ("fe.measures, lazy / floor, lazy", sec[lazy_measures] / sec[lazy_floor]),
    ):
        _goal(what, ratio, "<= 2", ratio <= 2)
    loop = sec[loop_name] / sec["frameeval"]
    _goal("scikit-learn loop / fe.measures(rmse, mae, r2, mape)", loop, ">= 50", loop >= 50)


#: rows of the single-measure task at ``--scale small`` and above (issue 31: "5M rows")
SINGLE_ROWS = 5_000_000


def bare_formulas(truth: str = "y_true", pred: str = "y_pred") -> dict[str, pl.Expr]:
    """Each measure's formula in plain Polars, with no input check (the single-measure floor;
    also read by ``benchmarks.probes.single_measures``)."""
    y, f = pl.col(truth), pl.col(pred)
    e = f - y
    return {
        "mse": (e * e).mean(),
        "rmse": (e * e).mean().sqrt(),
        "mae": e.abs().mean(),
        "r2": 1.0 - (e * e).sum() / ((y - y.mean()) ** 2).sum(),
        "explained_variance": 1.0 - (e - e.mean()).pow(2).sum() / (y - y.mean()).pow(2).sum(),
        "mape": (e.abs() / y.abs()).mean(),
        "smape": (2.0 * e.abs() / (y.abs() + f.abs())).mean(),
        "msle": ((f.log1p() - y.log1p()) ** 2).mean(),
        "rmsle": ((f.log1p() - y.log1p()) ** 2).mean().sqrt(),
        "huber_loss": pl.when(e.abs() <= 1.0).then(0.5 * e * e).otherwise(e.abs() - 0.5).mean(),
        "poisson_deviance": (2.0 * (y * (y / f).log() - y + f)).mean(),
        "gamma_deviance": (2.0 * ((f / y).log() + y / f - 1.0)).mean(),
        "max_error": e.abs().max(),
        "median_absolute_error": e.abs().median(),
        "mean_error": e.mean(),
    }


def single_measures(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """Issue 31: one measure on a large column, ``df.select(fe.<measure>(...))`` on 5M rows
    (``n_rows`` below 1M, the tests' scale), next to its bare Polars formula (no checks),
    interleaved; and the fixed cost of one collect on 30 rows."""
    from benchmarks.run import Measure

    n = SINGLE_ROWS if n_rows >= 1_000_000 else n_rows
    rng = np.random.default_rng(0)
    truth = rng.lognormal(0.0, 1.0, n)
    df = pl.DataFrame({"y_true": truth, "y_pred": truth * np.exp(0.1 * rng.standard_normal(n))})
    cases: dict[str, Callable[[], Any]] = {}
    for name, bare in bare_formulas().items():  # loop-ok: one pair of rows per measure
        expr = getattr(fe, name)("y_true", "y_pred")
        cases[f"frameeval: df.select(fe.{name})"] = lambda expr=expr: df.select(expr)
        cases[f"polars: bare formula of {name}"] = lambda bare=bare: df.select(bare)
    rows = _interleaved(cases, timed, rounds=9)
    small = df.head(30)
    rmse = fe.rmse("y_true", "y_pred")
    four = [fe.rmse("y_true", "y_pred"), fe.mae("y_true", "y_pred"), fe.r2("y_true", "y_pred")]
    fixed = _interleaved(
        {
            "fixed cost: df.select(fe.rmse), 30 rows": lambda: small.select(rmse),
            "fixed cost: bare rmse, 30 rows": lambda: small.select(bare_formulas()["rmse"]),
            "fixed cost: df.select(rmse, mae, r2), 30 rows": lambda: small.select(four),
        },
        timed,
    )
    first = next(iter(rows))
    report(
        f"one measure on a large column: df.select, {n:,} rows",
        {"frameeval": rows[first], **{k: v for k, v in rows.items() if k != first}, **fixed},
    )
    for name in bare_formulas():  # loop-ok: one goal line per measure
        ours = rows[f"frameeval: df.select(fe.{name})"].seconds
        ratio = ours / rows[f"polars: bare formula of {name}"].seconds
        _goal(f"df.select(fe.{name}) / its bare formula", ratio, "<= 1.5", ratio <= 1.5)
    cost = fixed["fixed cost: df.select(fe.rmse), 30 rows"].seconds
    print(
        f"  goal: one collect of fe.rmse on 30 rows = {cost * 1e3:.2f} ms (< 1 ms: "
        f"{'met' if cost < 1e-3 else 'NOT met'})"
    )
    del Measure


def label_metrics_10(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    label_metrics(n_rows, n_groups, report, timed, sk_groups, n_classes=10)


def confusion(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups, n_classes=10)
    rows = {
        "frameeval": timed(lambda: fe.confusion_matrix(df, truth="y_true", pred="y_pred", by=KEYS))
    }
    rows |= {
        name: timed(fn) for name, fn in _floors(df, "y_true", "y_pred").items() if "labels" in name
    }
    rows |= _sklearn_loops(
        df, lambda y, p, s: skm.confusion_matrix(y, p), timed, sk_groups, "confusion_matrix"
    )
    report("grouped confusion matrices, 10 classes", rows)


def auc(n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups)
    bare = "polars: bare rank-sum, group_by(keys).agg(score.rank().sum())"
    auc = fe.roc_auc("y_true", "score")
    rank_sum = pl.col("score").rank().sum()
    # issue 22's goal: fe.roc_auc and the bare rank sum side by side (interleaved)
    rows = _interleaved(
        {
            "frameeval": lambda: df.group_by(KEYS).agg(auc),
            bare: lambda: df.group_by(KEYS).agg(rank_sum),
        },
        timed,
    )
    rows |= {
        "frameeval: the expression, lazy group_by().agg().collect()": timed(
            lambda: df.lazy().group_by(KEYS).agg(fe.roc_auc("y_true", "score")).collect()
        ),
        "frameeval ranking_report (count table)": timed(
            lambda: fe.ranking_report(df, truth="y_true", score="score", by=KEYS)
        ),
    }
    rows |= {name: timed(fn) for name, fn in _floors(df).items()}
    try:
        import polars_ds as pds

        rows |= _third_party(
            "polars-ds query_roc_auc",
            lambda: df.group_by(KEYS).agg(pds.query_roc_auc("y_true", "score")),
            timed,
        )
    except ImportError:
        pass
    try:
        import polarbearings as pb

        rows["polarbearings roc_auc"] = timed(
            lambda: df.group_by(KEYS).agg(pb.roc_auc("y_true", "score"))
        )
    except ImportError:
        pass
    rows |= _sklearn_loops(
        df, lambda y, p, s: skm.roc_auc_score(y, s), timed, sk_groups, "roc_auc_score"
    )
    report(f"grouped exact AUC, {n_groups} groups", rows)
    ratio = rows["frameeval"].seconds / rows[bare].seconds
    _goal("fe.roc_auc / the bare rank sum (eager)", ratio, "<= 1.3", ratio <= 1.3)


def auc_large_groups(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    auc(n_rows, 10, report, timed, None)


def roc(n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None) -> None:
    from sklearn import metrics as skm

    df = result_frame(n_rows, n_groups)
    rows = {
        "frameeval": timed(lambda: fe.roc_curve(df, truth="y_true", score="score", by=KEYS)),
        "polars floor: group_by(keys, score).len": timed(
            lambda: df.group_by(*KEYS, "score").agg(pl.len())
        ),
    }
    try:
        import polarbearings as pb

        rows["polarbearings roc_curve (every distinct score)"] = timed(
            lambda: pb.roc_curve(df, "y_true", "score", by=KEYS).collect()
        )
    except ImportError:
        pass
    rows |= _sklearn_loops(
        df,
        lambda y, p, s: skm.roc_curve(y, s, drop_intermediate=False),
        timed,
        sk_groups,
        "roc_curve(drop_intermediate=False)",
    )
    report(f"grouped ROC curves, {n_groups} groups", rows)


def fold_assignment(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """Stratified 10-fold × 10 repeats: frameeval's lazy seeded assignment vs scikit-learn's
    RepeatedStratifiedKFold index generation (all 100 train/test index pairs)."""
    from sklearn.model_selection import RepeatedStratifiedKFold

    df = result_frame(n_rows, n_groups, n_classes=3).select("y_true").with_row_index("id")
    y = df["y_true"].to_numpy()
    rows = {
        "frameeval": timed(
            lambda: fe.split.kfold(df, k=10, repeats=10, stratify="y_true", instance="id", seed=0),
            repeat=1,
        )
    }

    def sklearn_indices() -> None:
        cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
        for _train, _test in cv.split(np.zeros(len(y)), y):  # loop-ok: the baseline
            pass

    rows["scikit-learn RepeatedStratifiedKFold"] = timed(sklearn_indices, repeat=1)
    report(f"stratified 10-fold x 10 repeats, {n_rows:,} rows", rows)


def friedman_nemenyi(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """Friedman + Nemenyi on a learners × data sets accuracy table (long form), against scipy's
    friedmanchisquare + scikit-posthocs' posthoc_nemenyi_friedman on the wide matrix: 1,000
    learners × 100 data sets from --scale medium up, 200 × 100 at --scale small (1,000 learners
    alone took over a minute there, with its memory pass), 5 × 10 below 1M rows (the smoke
    test)."""
    if n_rows > 1_000_000:
        learners, blocks = 1_000, 100
    elif n_rows == 1_000_000:
        learners, blocks = 200, 100
    else:
        learners, blocks = 5, 10
    rng = np.random.default_rng(0)
    skill = rng.normal(0, 0.02, learners)
    acc = np.clip(0.8 + skill[None, :] + rng.normal(0, 0.03, (blocks, learners)), 0, 1)
    table = pl.DataFrame(
        {
            "block": np.repeat(np.arange(blocks), learners),
            "learner": np.tile(np.arange(learners), blocks),
            "accuracy": acc.ravel(),
        }
    )

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


def _parquet(df: pl.DataFrame, directory: Path, files: int = 8) -> list[str]:
    """Write ``df`` as ``files`` Parquet files (a partitioned data set); return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    per = -(-df.height // files)
    paths = []
    for i in range(files):  # loop-ok: one file per slice
        path = directory / f"part-{i:03d}.parquet"
        df.slice(i * per, per).write_parquet(path, row_group_size=250_000)
        paths.append(str(path))
    return paths


def _scale_plans(source: pl.LazyFrame) -> list[pl.LazyFrame]:
    """What the scale tasks compute: confusion counts, P/R/F1 report and exact AUC (+AP)."""
    return [
        fe.confusion_matrix(source, truth="y_true", pred="y_pred", by=KEYS),
        fe.classification_report(source, truth="y_true", pred="y_pred", by=KEYS),
        fe.ranking_report(source, truth="y_true", score="score", by=KEYS),
    ]


def _same_results(got: list[pl.DataFrame], expected: list[pl.DataFrame]) -> str:
    """'identical' when counts and AUC are equal and the float averages agree to 1e-12."""
    from polars.testing import assert_frame_equal

    for a, b in zip(got, expected, strict=True):
        assert_frame_equal(a, b, check_exact=False, rel_tol=1e-12, abs_tol=1e-12)
    for a, b in (
        (got[0], expected[0]),
        (got[2].select(*KEYS, "roc_auc"), expected[2].select(*KEYS, "roc_auc")),
    ):
        assert a.equals(b), "counts or AUC differ"
    return "results equal the in-memory run (counts, AUC exactly)"


def streaming(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """Out-of-core: the same three results from ``pl.scan_parquet`` of 8 files with the streaming
    engine, next to reading the files into memory first, and the floor of a bare streamed
    ``group_by`` on the same scan (low- and high-cardinality keys)."""
    from benchmarks.timing import Measure

    df = result_frame(n_rows, n_groups)
    with tempfile.TemporaryDirectory(prefix="frameeval-bench-") as tmp:
        paths = _parquet(df, Path(tmp))
        del df
        scan = pl.scan_parquet(paths)
        streamed: list[pl.DataFrame] = []

        def ours() -> None:
            streamed[:] = pl.collect_all(_scale_plans(scan), engine="streaming")

        def in_memory() -> list[pl.DataFrame]:
            eager = pl.read_parquet(paths)
            return pl.collect_all(_scale_plans(eager.lazy()), engine="in-memory")

        rows = {"frameeval": timed(ours)}
        eager = in_memory()
        m = timed(in_memory)
        rows["frameeval after reading all rows into memory"] = Measure(
            m.seconds, m.peak_bytes, _same_results(streamed, eager)
        )
        rows["polars floor: streamed group_by(keys).len"] = timed(
            lambda: scan.group_by(KEYS).agg(pl.len()).collect(engine="streaming")
        )
        rows["polars floor: streamed group_by(keys, score).len"] = timed(
            lambda: scan.group_by(*KEYS, "score").agg(pl.len()).collect(engine="streaming")
        )
    report(f"streaming from Parquet: confusion + report + exact AUC, {n_rows:,} rows", rows)


def dask_run(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """Many machines, simulated: ``frameeval.dask`` on a 2-worker ``distributed.LocalCluster``
    (processes) reading the same 8 Parquet files, next to the single-machine streaming run; the
    results must be identical. Peak memory of the Dask row is the largest worker's (its whole
    life) — the client holds only the merged count tables."""
    try:
        from distributed import Client, LocalCluster

        import frameeval.dask as fed
    except ImportError:
        print("\n## dask: skipped (pip install 'frameeval[dask]')")
        return
    from benchmarks.timing import Measure

    df = result_frame(n_rows, n_groups)
    with tempfile.TemporaryDirectory(prefix="frameeval-bench-") as tmp:
        paths = _parquet(df, Path(tmp))
        del df
        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster) as client,
        ):
            distributed: list[pl.DataFrame] = []

            def theirs() -> None:
                distributed[:] = [
                    fed.confusion_matrix(
                        paths, truth="y_true", pred="y_pred", by=KEYS, client=client
                    ),
                    fed.classification_report(
                        paths, truth="y_true", pred="y_pred", by=KEYS, client=client
                    ),
                    fed.ranking_report(
                        paths, truth="y_true", score="score", by=KEYS, client=client
                    ),
                ]

            single = pl.collect_all(_scale_plans(pl.scan_parquet(paths)), engine="streaming")
            ours = timed(
                lambda: pl.collect_all(_scale_plans(pl.scan_parquet(paths)), engine="streaming")
            )
            rows = {"frameeval": ours._replace(note="memory: the streaming task's frameeval row")}
            m = timed(theirs)

            def worker_peak() -> int:
                import resource

                return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

            peak = max(client.run(worker_peak).values())
            rows["frameeval.dask, LocalCluster 2 workers"] = Measure(
                m.seconds, peak, _same_results(distributed, single) + "; memory: worker peak"
            )
    report(f"Dask vs one machine: confusion + report + exact AUC, {n_rows:,} rows", rows)


def _import_seconds(module: str, runs: int = 3) -> float:
    """Cumulative import time of ``module`` in a fresh interpreter (``-X importtime``), best of
    ``runs``."""
    import re
    import subprocess
    import sys

    best = float("inf")
    for _ in range(runs):  # loop-ok: repeated measurement (best of runs)
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=True,
        )
        match = re.search(rf"\|\s*(\d+) \| {re.escape(module)}$", done.stderr, re.M)
        if match:
            best = min(best, int(match.group(1)) / 1e6)
    return best


def import_time(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """First contact: ``import frameeval`` (cumulative, ``-X importtime``, fresh interpreter)
    next to ``import polars`` alone, ``frameeval --help`` (wall time of the command), and what
    the first comparison test adds (scipy loads on first use). Each the best of 3 fresh
    interpreters above 1M rows; one at ``--scale small`` and below (a fresh interpreter's
    import varies little on a quiet machine; the 12 interpreters took ~12 s of CPU)."""
    import subprocess
    import sys
    import time

    from benchmarks.timing import Measure

    runs = 3 if n_rows > 1_000_000 else 1

    def wall(*args: str) -> float:
        best = float("inf")
        for _ in range(runs):  # loop-ok: repeated measurement (best of runs)
            start = time.perf_counter()
            subprocess.run([sys.executable, *args], capture_output=True, check=True)
            best = min(best, time.perf_counter() - start)
        return best

    def imported(module: str) -> float:
        return _import_seconds(module, runs)

    rows: dict[str, Measure | float] = {
        "frameeval": Measure(imported("frameeval"), None, "import frameeval, cumulative"),
        "import polars alone": Measure(imported("polars"), None, "cumulative"),
        "frameeval --help": Measure(wall("-m", "frameeval", "--help"), None, "wall, whole command"),
        "python -c pass": Measure(wall("-c", "pass"), None, "wall, the interpreter alone"),
        "import frameeval.compare (scipy, on first use)": Measure(
            imported("frameeval.compare"), None, "cumulative"
        ),
        "import frameeval.charts (altair, on first use)": Measure(
            imported("frameeval.charts"), None, "cumulative"
        ),
    }
    what = f"best of {runs} fresh interpreters" if runs > 1 else "one fresh interpreter each"
    report(f"import time: first contact ({what})", rows)


def report_main_job(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """The main job: ``fe.write_report`` on a partitioned Parquet study (one file per data set,
    binary with scores, :mod:`benchmarks.study`) of about ``n_rows`` rows — 10 data sets × 20
    learners × 10 folds × n_rows/2,000 instances per fold (20M rows: 10,000; up to 1M rows, 5
    data sets × n_rows/1,000 instances: the report's cost there is mostly per data set, not per
    row) — streamed from ``pl.scan_parquet``, next to the same report from the rows read into
    memory first. The note gives the page size. The 20M-row run with ``/usr/bin/time -v`` is
    in docs/performance.md (``python -m benchmarks.report_scale``)."""
    import importlib

    from benchmarks.study import generate
    from benchmarks.timing import Measure

    # the modules the report loads on first use (charts, scipy) load here, outside the timer:
    # otherwise the first row timed (streamed) pays them and the second does not
    for module in ("frameeval.report", "frameeval.charts", "frameeval.compare", "altair"):
        importlib.import_module(module)
    datasets = 10 if n_rows > 1_000_000 else 5
    instances = max(n_rows // (datasets * 200), 5)
    with tempfile.TemporaryDirectory(prefix="frameeval-bench-") as tmp:
        paths = generate(Path(tmp) / "study", datasets=datasets, instances=instances)
        rows = datasets * 20 * 10 * instances
        out = Path(tmp) / "report.html"

        def streamed() -> None:
            fe.write_report(pl.scan_parquet(paths), out, force=True)

        def in_memory() -> None:
            fe.write_report(pl.read_parquet(paths), out, force=True)

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = timed(streamed, repeat=1)
            size = out.stat().st_size
            theirs = timed(in_memory, repeat=1)
        rows_out = {
            "frameeval": Measure(ours.seconds, ours.peak_bytes, f"page {size / 2**20:.2f} MiB"),
            "frameeval after reading all rows into memory": theirs,
        }
    report(
        f"frameeval report: {rows:,} rows of partitioned Parquet ({datasets} data sets x 20 "
        "learners x 10 folds)",
        rows_out,
    )


PROBABILISTIC_GROUPS = (10, 100, 1_000)
PROBABILISTIC_ROWS = 1_000  # rows per group


def probabilistic(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """polarbearings' grouped protocol: 10, 100 and 1,000 groups × 1,000 rows, ROC AUC + log
    loss + Brier score per group, whatever the scale (below 1M rows, the tests' tiny scale: 2
    and ``n_groups`` groups)."""
    from sklearn import metrics as skm

    def three(y: np.ndarray, p: np.ndarray, s: np.ndarray) -> tuple[float, float, float]:
        return (
            skm.roc_auc_score(y, s),
            skm.log_loss(y, s, labels=[0, 1]),
            skm.brier_score_loss(y, s),
        )

    sizes = PROBABILISTIC_GROUPS if n_rows >= 1_000_000 else (2, n_groups)  # tiny: the tests
    for groups in sizes:  # loop-ok: the three sizes of the protocol
        df = result_frame(groups * PROBABILISTIC_ROWS, groups)
        rows = {
            "frameeval": timed(  # fe.measures(roc_auc, log_loss, brier_score)
                lambda df=df: fe.measures(
                    df,
                    truth="y_true",
                    score="score",
                    by=KEYS,
                    measures=["roc_auc", "log_loss", "brier_score"],
                )
            ),
            "frameeval: the expressions, group_by().agg()": timed(
                lambda df=df: df.group_by(KEYS).agg(
                    fe.roc_auc("y_true", "score"),
                    fe.log_loss("y_true", "score"),
                    fe.brier_score("y_true", "score"),
                )
            ),
        }
        truth, score = pl.col("y_true"), pl.col("score")
        floor = [
            score.rank("average").filter(truth == 1).sum().alias("r"),
            truth.sum(),
            score.sum(),
        ]
        rows["polars floor: per-group rank sum of the positives + two sums"] = timed(
            lambda df=df, floor=floor: df.group_by(KEYS).agg(floor)
        )
        try:
            import polarbearings as pb

            rows["polarbearings roc_auc, log_loss, brier_score"] = timed(
                lambda df=df: df.group_by(KEYS).agg(
                    pb.roc_auc("y_true", "score").alias("auc"),
                    pb.log_loss("y_true", "score").alias("ll"),
                    pb.brier_score("y_true", "score").alias("bs"),
                )
            )
        except ImportError:
            pass
        some = sk_groups if sk_groups is not None and sk_groups < groups else None
        rows |= _sklearn_loops(df, three, timed, some, "roc_auc_score, log_loss, brier_score_loss")
        report(
            f"grouped ROC AUC + log loss + Brier, {groups:,} groups x {PROBABILISTIC_ROWS:,} rows",
            rows,
        )


def _battles(n: int, n_models: int, seed: int = 0) -> pl.DataFrame:
    """Battles between models of normal log-strengths, 10 % ties (FastChat's winner values)."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0.0, 1.0, n_models)
    a = rng.integers(0, n_models, n)
    b = (a + rng.integers(1, n_models, n)) % n_models
    p = 1.0 / (1.0 + np.exp(strength[b] - strength[a]))
    tie = rng.random(n) < 0.1
    winner = np.where(tie, "tie", np.where(rng.random(n) < p, "model_a", "model_b"))
    names = np.array([f"model-{i:02d}" for i in range(n_models)])
    return pl.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner})


def bradley_terry(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """Bradley–Terry with a 100-replicate bootstrap (issue 35's goal: 1M battles ≤ 10 s,
    FastChat PR #3523's figure) against FastChat's method: scikit-learn's
    LogisticRegression (no intercept, no penalty) on the de-duplicated, tie-split count table,
    refitted per multinomial replicate. 1M battles × 50 models from 1M rows up."""
    n = 1_000_000 if n_rows >= 1_000_000 else n_rows
    battles = _battles(n, 50 if n >= 1_000_000 else 8)
    resamples = 100 if n >= 1_000_000 else 10  # the smoke test: 10

    def ours() -> None:
        fe.ratings.bradley_terry(battles, n_resamples=resamples, seed=0)

    rows: dict[str, Any] = {"frameeval": timed(ours, repeat=1)}

    def fastchat() -> None:
        import warnings

        from sklearn.linear_model import LogisticRegression

        counts = battles.group_by("model_a", "model_b", "winner").len()
        models = sorted(set(counts["model_a"]) | set(counts["model_b"]))
        code = {m: i for i, m in enumerate(models)}
        a = counts["model_a"].replace_strict(code).to_numpy()
        b = counts["model_b"].replace_strict(code).to_numpy()
        w = counts["winner"].to_numpy()
        n_counts = counts["len"].to_numpy()
        x = np.zeros((2 * len(a), len(models)))
        rows_ = np.arange(len(a))
        x[rows_, a], x[rows_, b] = math.log(10), -math.log(10)
        x[len(a) + rows_, a], x[len(a) + rows_, b] = math.log(10), -math.log(10)
        y = np.concatenate([np.ones(len(a)), np.zeros(len(a))])
        share_a = np.where(w == "model_a", 1.0, np.where(w == "tie", 0.5, 0.0))
        rng = np.random.default_rng(0)
        draws = rng.multinomial(n_counts.sum(), n_counts / n_counts.sum(), size=resamples)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for draw in draws:  # loop-ok: FastChat's loop over replicates (the baseline)
                weight = np.concatenate([draw * share_a, draw * (1.0 - share_a)])
                LogisticRegression(fit_intercept=False, penalty=None, tol=1e-6).fit(
                    x, y, sample_weight=weight
                )

    rows["FastChat method (scikit-learn per replicate)"] = timed(fastchat, repeat=1)
    report(f"Bradley-Terry + bootstrap, {n:,} battles x {resamples} replicates", rows)


def agreement(
    n_rows: int, n_groups: int, report: Report, timed: Timed, sk_groups: int | None
) -> None:
    """Fleiss' κ, Krippendorff's α (nominal) and Cohen's κ (all rater pairs), grouped over 100
    benchmarks × 1,000 items × 5 raters from 1M rows up (issue 35's goal: ≤ 2 s), against a
    per-benchmark loop over statsmodels' fleiss_kappa and the krippendorff package."""
    benchmarks, items, raters = (100, 1_000, 5) if n_rows >= 1_000_000 else (4, 200, 5)
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 5, (benchmarks, items))
    noise = rng.integers(0, 5, (benchmarks, items, raters))
    values = np.where(rng.random((benchmarks, items, raters)) < 0.7, truth[:, :, None], noise)
    df = pl.DataFrame(
        {
            "benchmark": np.repeat(np.arange(benchmarks), items * raters),
            "item": np.tile(np.repeat(np.arange(items), raters), benchmarks),
            "rater": np.tile(np.arange(raters), benchmarks * items),
            "rating": values.reshape(-1),
        }
    )

    def ours() -> None:
        fe.agreement.fleiss_kappa(df, by="benchmark")
        fe.agreement.krippendorff_alpha(df, by="benchmark")
        fe.agreement.cohen_kappa(df, by="benchmark")

    rows: dict[str, Any] = {"frameeval": timed(ours, repeat=1)}
    rows["frameeval fleiss_kappa"] = timed(
        lambda: fe.agreement.fleiss_kappa(df, by="benchmark"), repeat=1
    )
    rows["frameeval krippendorff_alpha"] = timed(
        lambda: fe.agreement.krippendorff_alpha(df, by="benchmark"), repeat=1
    )
    rows["frameeval cohen_kappa (every pair)"] = timed(
        lambda: fe.agreement.cohen_kappa(df, by="benchmark"), repeat=1
    )
    try:
        import krippendorff
        from sklearn.metrics import cohen_kappa_score
        from statsmodels.stats.inter_rater import aggregate_raters
        from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

        def theirs() -> None:
            for matrix in values:  # loop-ok: the per-benchmark loop (the baseline)
                sm_fleiss(aggregate_raters(matrix)[0])
                krippendorff.alpha(reliability_data=matrix.T, level_of_measurement="nominal")
                for i in range(raters):  # loop-ok: rater pairs (the baseline)
                    for j in range(i + 1, raters):  # loop-ok: rater pairs (the baseline)
                        cohen_kappa_score(matrix[:, i], matrix[:, j])

        rows["statsmodels + krippendorff + scikit-learn (loop)"] = timed(theirs, repeat=1)
    except ImportError:
        pass
    report(
        f"Fleiss + Krippendorff + Cohen (all pairs), {benchmarks} benchmarks x {items:,} items "
        f"x {raters} raters",
        rows,
    )


TASKS: dict[str, Callable[..., None]] = {
    "import_time": import_time,
    "label_metrics": label_metrics,
    "label_metrics_10": label_metrics_10,
    "regression_metrics": regression_metrics,
    "single_measures": single_measures,
    "confusion": confusion,
    "auc": auc,
    "auc_large_groups": auc_large_groups,
    "roc": roc,
    "probabilistic": probabilistic,
    "fold_assignment": fold_assignment,
    "friedman_nemenyi": friedman_nemenyi,
    "bradley_terry": bradley_terry,
    "agreement": agreement,
    "streaming": streaming,
    "dask": dask_run,
    "report": report_main_job,
}
