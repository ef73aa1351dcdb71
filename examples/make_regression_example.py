"""Make the embedded regression example: real regressors on real data, 10-fold CV.

Five scikit-learn regressors (ridge regression, k-nearest neighbours, a decision tree, a random
forest and gradient boosting) are evaluated by 10-fold cross-validation (one repeat, seed 0) on
four real data sets that ship offline: scikit-learn's diabetes (disease progression, 442
patients) and three of statsmodels' — Engel's food expenditure (235 households, from income),
Grunfeld's investment data (220 firm-years, from value and capital) and the credit-card
expenditure data (72 people, average expenditure from age, income and home ownership). The
result is the long frame of DESIGN §1 with a 90 % prediction interval per prediction, written
to ``frameeval/datasets/regression_results.parquet`` (what
``frameeval report --example regression`` reads).

The interval is split-conformal in spirit, from the training data only: ``pred ± q``, where
``q`` is the 90 % quantile of the learner's absolute residuals in a 5-fold cross-validation on
the training folds (``cross_val_predict``) — an honest interval, not tuned on the test fold.

Run: ``python examples/make_regression_example.py [--out PATH] [--small]`` (``--small``: the
diabetes data, three learners, 3-fold — the test suite runs that). Without ``--out`` the table
goes to a temporary directory; the packaged table is replaced only when ``--out`` names it,
and never by a ``--small`` table.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import polars as pl
import statsmodels.api as sm
from sklearn.base import clone
from sklearn.datasets import load_diabetes
from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "frameeval/datasets/regression_results.parquet"
#: nominal coverage of the prediction interval
LEVEL = 0.9


def load(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and target of one data set (every one ships with scikit-learn or statsmodels)."""
    if name == "diabetes":
        bunch = load_diabetes()
        return np.asarray(bunch.data, float), np.asarray(bunch.target, float)
    if name == "engel":
        frame = sm.datasets.engel.load_pandas().data
        return frame[["income"]].to_numpy(float), frame["foodexp"].to_numpy(float)
    if name == "grunfeld":
        frame = sm.datasets.grunfeld.load_pandas().data
        return frame[["value", "capital"]].to_numpy(float), frame["invest"].to_numpy(float)
    if name == "credit_card":
        frame = sm.datasets.ccard.load_pandas().data
        features = frame[["AGE", "INCOME", "OWNRENT"]].to_numpy(float)
        return features, frame["AVGEXP"].to_numpy(float)
    raise ValueError(f"unknown data set {name!r}")


def learners() -> dict[str, object]:
    return {
        "ridge": make_pipeline(StandardScaler(), Ridge(alpha=1.0)),
        "knn": make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=5)),
        "decision_tree": DecisionTreeRegressor(min_samples_leaf=5, random_state=0),
        "random_forest": RandomForestRegressor(n_estimators=100, random_state=0),
        "gradient_boosting": GradientBoostingRegressor(random_state=0),
    }


def make(small: bool = False) -> pl.DataFrame:
    names = ["diabetes"] if small else ["diabetes", "engel", "grunfeld", "credit_card"]
    chosen = learners()
    if small:
        chosen = {k: chosen[k] for k in ("ridge", "knn", "decision_tree")}
    k = 3 if small else 10
    parts = []
    for name in names:  # loop-ok: a handful of data sets, each running user models
        x, y = load(name)
        folds = KFold(n_splits=k, shuffle=True, random_state=0).split(x)
        for fold, (train, test) in enumerate(folds):  # loop-ok: fits models
            for learner, estimator in chosen.items():  # loop-ok: fits models
                model = clone(estimator).fit(x[train], y[train])
                pred = model.predict(x[test])
                inner = cross_val_predict(clone(estimator), x[train], y[train], cv=5)
                half = float(np.quantile(np.abs(y[train] - inner), LEVEL))
                parts.append(
                    pl.DataFrame(
                        {
                            "dataset": name,
                            "learner": learner,
                            "repeat": 0,
                            "fold": fold,
                            "instance": test.astype(np.int64),
                            "truth": y[test],
                            "pred": pred,
                            "lower": pred - half,
                            "upper": pred + half,
                        },
                        schema_overrides={"repeat": pl.Int32, "fold": pl.Int32},
                    )
                )
    return pl.concat(parts).sort("dataset", "learner", "repeat", "fold", "instance")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"output Parquet file (default: a new temporary directory; the packaged table "
        f"is {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--small", action="store_true", help="diabetes only, three learners, 3-fold (the tests)"
    )
    args = parser.parse_args()
    if args.out is None:
        args.out = (
            Path(tempfile.mkdtemp(prefix="frameeval-example-")) / "regression_results.parquet"
        )
    if args.small and args.out.resolve() == DEFAULT_OUT:
        parser.error(f"--small must not overwrite the packaged table {DEFAULT_OUT}; pass --out")
    table = make(small=args.small)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.write_parquet(args.out, compression="zstd", statistics=True)
    print(f"wrote {args.out} ({table.height:,} rows)")


if __name__ == "__main__":
    main()
