"""Benchmark: frameeval's regression measures against polarbearings on polarbearings' protocol.

Usage: ``python -m benchmarks.bench_polarbearings [--rows 100000 10000000] [--repeats 5]
[--group-rows 1000000] [--groups 1000] [--metrics rmse r2 ...]``

polarbearings' README (section Performance) reports, per metric, the **speed-up against
scikit-learn** (scikit-learn time ÷ library time), the **median of clean runs**, at **100k and
10M rows** for single metrics, and for **grouped metrics (per segment)**. Its benchmark suite
(``benchmarks/bench_regression.py``, ``bench_grouped.py`` of its repository) times a Polars
``select`` of one expression on a two-column frame against the scikit-learn function on the
NumPy arrays, and a ``group_by(group).agg(...)`` on 1,000 rows per group against a Python loop
that masks each group out of the arrays (``groups == g``) and calls scikit-learn. This script
does the same, side by side in one process on the same data, for three libraries:

* frameeval: ``fe.rmse / mae / r2 / …`` expressions in a lazy ``select`` (or lazy
  ``group_by().agg()``), and ``fe.measures`` (all the measures over shared statistics);
* polarbearings: ``pb.rmse / mae / r2_score / …`` the same way (and an eager ``select`` /
  ``group_by`` — the form its own suite times — for the many-metrics and grouped rows);
* scikit-learn on the NumPy arrays (pre-extracted, as in polarbearings' suite).

Before any timing every value of frameeval is checked against polarbearings' and
scikit-learn's (relative difference ≤ 1e-9); a mismatch stops the run.

Data (as polarbearings' ``make_regression_positive``): a log-normal target and a prediction
``y · exp(0.1 z)``, strictly positive, so every measure (MAPE, MSLE, the deviances) is defined.
Grouped: ``--groups`` segments of ``--group-rows / --groups`` consecutive rows each (polarbearings'
layout: ``np.repeat(arange(groups), rows_per_group)``).

The machine this runs on may be shared: within each repetition the libraries run one after the
other (in a rotating order), so a burst of load from elsewhere falls on all of them alike; the
load average is printed before and after each section. Times are medians over ``--repeats``
repetitions after one untimed warm-up run (which is also the value check).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np
import polars as pl

import frameeval as fe

polarbearings: Any
try:
    import polarbearings
except ImportError:  # the `bench` extra; the tests run with the `test` extra only
    polarbearings = None

TOLERANCE = 1e-9


class Metric(NamedTuple):
    """One measure in the three libraries: frameeval's expression and ``fe.measures`` entry,
    polarbearings' expression, scikit-learn's function of (y, p) or None where it has none."""

    name: str
    ours: Callable[[], pl.Expr]
    measure: Any  # a registered name or a configured fe.Measure
    theirs: Callable[[], pl.Expr] | None
    sklearn: Callable[[np.ndarray, np.ndarray], float] | None


def metrics(pb: Any) -> list[Metric]:
    from sklearn import metrics as skm

    y, p = "y", "p"
    configured = fe.MEASURES
    table = [
        ("rmse", fe.rmse, "rmse", "rmse", skm.root_mean_squared_error, {}),
        ("mse", fe.mse, "mse", "mse", skm.mean_squared_error, {}),
        ("mae", fe.mae, "mae", "mae", skm.mean_absolute_error, {}),
        ("r2", fe.r2, "r2", "r2_score", skm.r2_score, {}),
        ("mape", fe.mape, "mape", "mape", skm.mean_absolute_percentage_error, {}),
        ("smape", fe.smape, "smape", "smape", None, {}),
        ("msle", fe.msle, "msle", "mean_squared_log_error", skm.mean_squared_log_error, {}),
        (
            "rmsle",
            fe.rmsle,
            "rmsle",
            "root_mean_squared_log_error",
            skm.root_mean_squared_log_error,
            {},
        ),
        (
            "median_absolute_error",
            fe.median_absolute_error,
            "median_absolute_error",
            "median_absolute_error",
            skm.median_absolute_error,
            {},
        ),
        ("max_error", fe.max_error, "max_error", "max_error", skm.max_error, {}),
        (
            "explained_variance",
            fe.explained_variance,
            "explained_variance",
            "explained_variance_score",
            skm.explained_variance_score,
            {},
        ),
        ("huber_loss", fe.huber_loss, "huber_loss", "huber_loss", None, {"delta": 1.0}),
        (
            "pinball_loss(0.9)",
            fe.pinball_loss,
            "pinball_loss",
            "mean_pinball_loss",
            skm.mean_pinball_loss,
            {"alpha": 0.9},
        ),
        (
            "tweedie_deviance(1.5)",
            fe.tweedie_deviance,
            "tweedie_deviance",
            "mean_tweedie_deviance",
            skm.mean_tweedie_deviance,
            {"power": 1.5},
        ),
        (
            "poisson_deviance",
            fe.poisson_deviance,
            "poisson_deviance",
            "mean_poisson_deviance",
            skm.mean_poisson_deviance,
            {},
        ),
        (
            "gamma_deviance",
            fe.gamma_deviance,
            "gamma_deviance",
            "mean_gamma_deviance",
            skm.mean_gamma_deviance,
            {},
        ),
    ]
    out: list[Metric] = []
    for name, ours, registered, theirs, sk, params in table:
        measure = (
            configured[registered].configure(f"m{len(out)}", **params)
            if params
            else configured[registered]
        )

        def our_expr(ours: Any = ours, params: dict[str, Any] = params, i: int = len(out)) -> Any:
            return ours(y, p, **params).alias(f"m{i}")

        their_expr = None
        if pb is not None:

            def their_expr(
                theirs: str = theirs, params: dict[str, Any] = params, i: int = len(out)
            ) -> Any:
                return getattr(pb, theirs)(y, p, **params).alias(f"m{i}")

        sk_fn = None
        if sk is not None:

            def sk_fn(a: np.ndarray, b: np.ndarray, sk: Any = sk, params: Any = params) -> float:
                return float(sk(a, b, **params))

        out.append(Metric(name, our_expr, measure, their_expr, sk_fn))
    return out


def regression_arrays(n: int, seed: int = 42) -> tuple[np.ndarray, np.ndarray]:
    """A log-normal target and a multiplicatively noisy, strictly positive prediction."""
    rng = np.random.default_rng(seed)
    y = np.exp(rng.standard_normal(n))
    return y, y * np.exp(0.1 * rng.standard_normal(n))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} (2 = both cores busy on 2 cores)"


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


def interleaved(cases: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median wall time per case over ``repeats`` repetitions; each repetition runs every case
    once, starting one further along the list each time, so that load from elsewhere falls on
    all of them alike. One untimed warm-up run first; the garbage collector is off while timing."""
    names = list(cases)
    for name in names:
        cases[name]()
    times: dict[str, list[float]] = {name: [] for name in names}
    gc.collect()
    gc.disable()  # as timeit: no collector pause inside one library's timing
    try:
        for r in range(repeats):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                start = time.perf_counter()
                cases[name]()
                times[name].append(time.perf_counter() - start)
    finally:
        gc.enable()
    return {name: statistics.median(ts) for name, ts in times.items()}


def _value(lazy: pl.LazyFrame, expr: Callable[[], pl.Expr]) -> Any:
    return lazy.select(expr()).collect().item()


def _seconds(t: float | None) -> str:
    return "—" if t is None else f"{t:.4f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or b is None else f"{a / b:.2f}"


def table(rows: list[tuple[str, float | None, float | None, float | None]]) -> list[str]:
    """Markdown rows: what, scikit-learn s, frameeval s, polarbearings s, the two speed-ups
    (scikit-learn ÷ library) and frameeval's time ÷ polarbearings'."""
    lines = [
        "| what | scikit-learn s | frameeval s | polarbearings s | frameeval speed-up"
        " | polarbearings speed-up | frameeval ÷ polarbearings (time) |",
        "|---|---|---|---|---|---|---|",
    ]
    for what, sk, ours, theirs in rows:
        lines.append(
            f"| {what} | {_seconds(sk)} | {_seconds(ours)} | {_seconds(theirs)} | "
            f"{_ratio(sk, ours)}× | {_ratio(sk, theirs)}× | {_ratio(ours, theirs)} |".replace(
                "—×", "—"
            )
        )
    return lines


def single(n: int, repeats: int, chosen: list[Metric], pb: Any) -> list[str]:
    """Each measure on one ``n``-row frame, then all of them in one select."""
    y, p = regression_arrays(n)
    lazy = pl.DataFrame({"y": y, "p": p}).lazy()
    df = lazy.collect()
    both = [m for m in chosen if m.sklearn is not None]
    rows: list[tuple[str, float | None, float | None, float | None]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in chosen:
            cases: dict[str, Callable[[], Any]] = {"fe": partial(_value, lazy, m.ours)}
            if m.theirs is not None:
                cases["pb"] = partial(_value, lazy, m.theirs)
            if m.sklearn is not None:
                cases["sk"] = partial(m.sklearn, y, p)
            values = {key: fn() for key, fn in cases.items()}
            for key in ("pb", "sk"):
                if key in values and not close(values["fe"], values[key]):
                    raise AssertionError(
                        f"{m.name} at {n:,} rows: frameeval {values['fe']!r}, {key} {values[key]!r}"
                    )
            t = interleaved(cases, repeats)
            rows.append((f"`{m.name}`", t.get("sk"), t["fe"], t.get("pb")))

        ours = [m.ours() for m in both]
        names = [m.measure for m in both]
        cases = {
            "fe lazy": lambda: lazy.select(ours).collect(),
            "fe eager": lambda: df.select(ours),
            "fe.measures": lambda: fe.measures(lazy, truth="y", pred="p", measures=names).collect(),
            "sk": lambda: [m.sklearn(y, p) for m in both if m.sklearn is not None],
        }
        if pb is not None:
            theirs = [m.theirs() for m in both if m.theirs is not None]
            cases["pb lazy"] = lambda: lazy.select(theirs).collect()
            cases["pb eager"] = lambda: df.select(theirs)
        got = cases["fe lazy"]().row(0)
        by_measures = cases["fe.measures"]().row(0)
        expected = cases["sk"]()
        for i, m in enumerate(both):
            if not (close(got[i], expected[i]) and close(by_measures[i], expected[i])):
                raise AssertionError(f"{m.name} in one select at {n:,} rows")
        t = interleaved(cases, repeats)
    k = len(both)
    rows += [
        (f"the {k} above in one lazy `select`", t["sk"], t["fe lazy"], t.get("pb lazy")),
        (f"the {k} above in one eager `select`", t["sk"], t["fe eager"], t.get("pb eager")),
        (f"the {k} above: `fe.measures` (no `by`)", t["sk"], t["fe.measures"], t.get("pb lazy")),
    ]
    return table(rows)


def grouped(n: int, groups: int, repeats: int, pb: Any) -> list[str]:
    """rmse, mae, r2 and mape per segment: group_by().agg() against the masked scikit-learn loop."""
    from sklearn import metrics as skm

    y, p = regression_arrays(n)
    g = np.repeat(np.arange(groups), -(-n // groups))[:n]
    lazy = pl.DataFrame({"group": g, "y": y, "p": p}).lazy()
    df = lazy.collect()
    names = ["rmse", "mae", "r2", "mape"]
    ours = [getattr(fe, name)("y", "p").alias(name) for name in names]

    def sk_loop() -> list[tuple[float, ...]]:
        out: list[tuple[float, ...]] = []
        for k in range(groups):  # loop-ok: this *is* the baseline (polarbearings' own form)
            mask = g == k
            a, b = y[mask], p[mask]
            out.append(
                (
                    skm.root_mean_squared_error(a, b),
                    skm.mean_absolute_error(a, b),
                    skm.r2_score(a, b),
                    skm.mean_absolute_percentage_error(a, b),
                )
            )
        return out

    cases: dict[str, Callable[[], Any]] = {
        "fe lazy": lambda: lazy.group_by("group").agg(ours).sort("group").collect(),
        "fe eager": lambda: df.group_by("group").agg(ours).sort("group"),
        "fe.measures": lambda: fe.measures(
            lazy, truth="y", pred="p", by="group", measures=names
        ).collect(),
        "sk": sk_loop,
    }
    if pb is not None:
        theirs = [
            pb.rmse("y", "p").alias("rmse"),
            pb.mae("y", "p").alias("mae"),
            pb.r2_score("y", "p").alias("r2"),
            pb.mape("y", "p").alias("mape"),
        ]
        cases["pb lazy"] = lambda: lazy.group_by("group").agg(theirs).sort("group").collect()
        cases["pb eager"] = lambda: df.group_by("group").agg(theirs).sort("group")
    expected = np.array(cases["sk"]())
    for key in [c for c in cases if c != "sk"]:
        got = cases[key]().select(names).to_numpy()
        if got.shape != expected.shape or not np.allclose(got, expected, rtol=TOLERANCE, atol=0):
            raise AssertionError(f"grouped {key} differs from the scikit-learn loop")
    t = interleaved(cases, repeats)
    what = f"rmse, mae, r2, mape per segment, {groups:,} segments × {n // groups:,} rows"
    return table(
        [
            (f"{what}: lazy `group_by().agg()`", t["sk"], t["fe lazy"], t.get("pb lazy")),
            (f"{what}: eager `group_by().agg()`", t["sk"], t["fe eager"], t.get("pb eager")),
            (f"{what}: `fe.measures(by=)`", t["sk"], t["fe.measures"], t.get("pb lazy")),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 10_000_000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--group-rows", type=int, default=1_000_000)
    parser.add_argument("--groups", type=int, default=1_000)
    parser.add_argument(
        "--metrics", nargs="+", default=None, help="only these measures (names as printed)"
    )
    parser.add_argument("--no-polarbearings", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    pb = None if args.no_polarbearings else polarbearings
    chosen = [m for m in metrics(pb) if args.metrics is None or m.name in args.metrics]
    if not chosen:
        parser.error(f"no measure among {args.metrics}; names: {[m.name for m in metrics(pb)]}")
    import sklearn

    version = "(not installed)" if pb is None else importlib.metadata.version("polarbearings")

    print(
        f"# frameeval vs polarbearings {version} vs "
        f"scikit-learn {sklearn.__version__} — median of {args.repeats} interleaved runs"
    )
    print(
        f"# {platform.platform()}, python {platform.python_version()}, polars {pl.__version__}, "
        f"threads {pl.thread_pool_size()}, {os.cpu_count()} CPUs"
    )
    print(
        "# speed-up = scikit-learn time ÷ library time (higher = faster);"
        " the last column < 1 means frameeval is faster"
    )
    for n in args.rows:
        print(f"\n## single metrics, {n:,} rows — {load()}")
        print("\n".join(single(n, args.repeats, chosen, pb)))
        print(f"# after: {load()}")
    print(f"\n## grouped metrics (per segment), {args.group_rows:,} rows — {load()}")
    print("\n".join(grouped(args.group_rows, args.groups, args.repeats, pb)))
    print(f"# after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
