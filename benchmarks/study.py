"""A seeded benchmark study as partitioned Parquet: the input of ``frameeval report`` at scale.

One row per prediction of ``learners`` learners for every instance of ``datasets`` binary data
sets, each evaluated by ``folds``-fold cross-validation with ``instances`` test instances per
fold — 10 × 20 × 10 × 10,000 = 20M rows by default (issue 15). One Parquet file per data set.

Columns: ``dataset`` (str), ``learner`` (str, long names such as ``gradient_boosting_07``),
``fold`` (Int32), ``instance`` (Int32, unique within a data set), ``truth`` (Int8, 0/1),
``pred`` (Int8), ``score`` (Float64). Every learner has its own skill on every data set (drawn
once), so the Friedman test has something to find. ``decimals`` rounds the score (3 by default,
as probabilities stored by real studies have ties; ``None`` keeps it continuous, one distinct
score per row: the hardest case for the per-distinct-score count tables behind ROC/AUC).

    python -m benchmarks.study DIR [--datasets 10 --learners 20 --folds 10 --instances 10000]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import polars as pl

FAMILIES = (
    "logistic_regression",
    "random_forest",
    "gradient_boosting",
    "support_vector_machine",
    "k_nearest_neighbours",
    "naive_bayes",
    "decision_tree",
    "multilayer_perceptron",
)


def learner_names(n: int) -> list[str]:
    """``n`` distinct, realistically long learner names."""
    return [f"{FAMILIES[i % len(FAMILIES)]}_{i:02d}" for i in range(n)]  # loop-ok: names


def generate(
    directory: str | Path,
    *,
    datasets: int = 10,
    learners: int = 20,
    folds: int = 10,
    instances: int = 10_000,
    decimals: int | None = 3,
    seed: int = 15,
) -> list[str]:
    """Write the study (one Parquet file per data set) unless present; return the file paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    names = learner_names(learners)
    paths = []
    rows = folds * instances
    for d in range(datasets):  # loop-ok: one seeded file per data set
        path = directory / f"dataset-{d:03d}.parquet"
        paths.append(str(path))
        if path.exists():
            continue
        rng = np.random.default_rng([seed, d])
        truth = (rng.random(rows) < rng.uniform(0.3, 0.6)).astype(np.int8)
        difficulty = rng.normal(0.0, 1.0, rows)  # shared by every learner: paired predictions
        skill = rng.uniform(0.4, 1.6, learners) + np.linspace(0.4, 0.0, learners)
        sign = 2.0 * truth - 1.0
        frames = []
        for j in range(learners):  # loop-ok: one seeded column block per learner
            logit = sign * skill[j] + 0.6 * difficulty + rng.normal(0.0, 1.0, rows)
            score = 1.0 / (1.0 + np.exp(-logit))
            if decimals is not None:
                score = score.round(decimals)
            frames.append(
                pl.DataFrame(
                    {
                        "learner": np.full(rows, names[j]),
                        "fold": np.repeat(np.arange(folds, dtype=np.int32), instances),
                        "instance": np.arange(rows, dtype=np.int32),
                        "truth": truth,
                        "pred": (score >= 0.5).astype(np.int8),
                        "score": score,
                    }
                )
            )
        frame = pl.concat(frames).with_columns(pl.lit(f"dataset_{d:02d}").alias("dataset"))
        frame.select("dataset", pl.exclude("dataset")).write_parquet(path, row_group_size=500_000)
    return paths


def generate_regression(
    directory: str | Path,
    *,
    datasets: int = 10,
    learners: int = 20,
    folds: int = 10,
    instances: int = 10_000,
    seed: int = 24,
) -> list[str]:
    """The regression twin of :func:`generate` (issue 24): ``truth`` and ``pred`` Float64 (a
    target on each data set's own scale; each learner with its own bias and noise, plus an
    error shared by every learner, so the comparison is paired), no score."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    names = learner_names(learners)
    paths = []
    rows = folds * instances
    for d in range(datasets):  # loop-ok: one seeded file per data set
        path = directory / f"dataset-{d:03d}.parquet"
        paths.append(str(path))
        if path.exists():
            continue
        rng = np.random.default_rng([seed, d])
        scale = rng.uniform(1.0, 100.0)
        truth = rng.normal(3.0, 1.0, rows) * scale
        shared = rng.normal(0.0, 0.3, rows) * scale  # the hard instances, hard for everyone
        noise = rng.uniform(0.2, 0.8, learners) + np.linspace(0.0, 0.3, learners)
        bias = rng.normal(0.0, 0.05, learners)
        frames = []
        for j in range(learners):  # loop-ok: one seeded column block per learner
            pred = truth + shared + (bias[j] + noise[j] * rng.normal(0.0, 1.0, rows)) * scale
            frames.append(
                pl.DataFrame(
                    {
                        "learner": np.full(rows, names[j]),
                        "fold": np.repeat(np.arange(folds, dtype=np.int32), instances),
                        "instance": np.arange(rows, dtype=np.int32),
                        "truth": truth,
                        "pred": pred,
                    }
                )
            )
        frame = pl.concat(frames).with_columns(pl.lit(f"dataset_{d:02d}").alias("dataset"))
        frame.select("dataset", pl.exclude("dataset")).write_parquet(path, row_group_size=500_000)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--datasets", type=int, default=10)
    parser.add_argument("--learners", type=int, default=20)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--instances", type=int, default=10_000)
    parser.add_argument("--decimals", type=int, default=3, help="-1: continuous scores")
    args = parser.parse_args()
    paths = generate(
        args.directory,
        datasets=args.datasets,
        learners=args.learners,
        folds=args.folds,
        instances=args.instances,
        decimals=None if args.decimals < 0 else args.decimals,
    )
    print(f"{len(paths)} files in {args.directory}")


if __name__ == "__main__":
    main()
