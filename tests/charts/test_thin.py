"""Thinning of large curves (frameeval/charts/_thin.py): lossless pass, pixel pass, budgets."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from frameeval import charts
from frameeval.charts._thin import MAX_ROWS, MIN_POINTS, ORDER, thin_curve


def _roc(n: int, seed: int = 0) -> pl.DataFrame:
    """A binormal ROC curve with n distinct scores (n + 1 vertices)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, n)
    score = rng.normal(truth * 1.0, 1.0)
    order = np.argsort(-score)
    tp = np.cumsum(truth[order])
    fp = np.cumsum(1 - truth[order])
    return pl.DataFrame(
        {
            "threshold": np.r_[np.inf, score[order]],
            "fpr": np.r_[0.0, fp / fp[-1]],
            "tpr": np.r_[0.0, tp / tp[-1]],
        }
    )


def _thin(frame: pl.DataFrame, by=(), max_points: int = MAX_ROWS, exact: bool = True):
    return thin_curve(
        frame.lazy(),
        "fpr",
        "tpr",
        by=list(by),
        order=["fpr", "tpr"],
        descending=[False, False],
        max_points=max_points,
        exact=exact,
    ).collect()


def _distance_to_polyline(points: np.ndarray, path: np.ndarray) -> np.ndarray:
    """Distance of each point to the nearest segment of the polyline ``path``."""
    a, b = path[:-1], path[1:]
    ab = b - a
    length2 = (ab**2).sum(axis=1)
    ap = points[:, None, :] - a[None, :, :]
    t = np.clip((ap * ab[None]).sum(axis=2) / np.where(length2 > 0, length2, 1.0), 0, 1)
    nearest = a[None] + t[..., None] * ab[None]
    return np.sqrt(((points[:, None, :] - nearest) ** 2).sum(axis=2)).min(axis=1)


def test_200k_point_curve_gives_a_small_spec_with_its_end_points():
    curve = _roc(200_000)
    chart = charts.roc(curve)
    spec = chart.to_dict()
    data = spec["datasets"][spec["data"]["name"]]
    text = json.dumps(spec, allow_nan=False)
    assert len(data) <= MAX_ROWS
    assert len(text) < 600_000, len(text)
    points = [(row["fpr"], row["tpr"]) for row in data]
    assert (0.0, 0.0) in points and (1.0, 1.0) in points


def test_pixel_pass_keeps_the_extremes_of_every_bin():
    """The M4 rule: per x bin the first, last, lowest and highest vertex survive exactly."""
    curve = _roc(20_000, seed=1)
    budget = 400
    kept = _thin(curve, max_points=budget, exact=False)
    assert kept.height <= budget
    n_bins = budget // 4
    binned = [
        frame.with_columns(
            bin=(pl.col("fpr") * n_bins).floor().clip(upper_bound=n_bins - 1).cast(pl.Int64)
        )
        for frame in (curve, kept)
    ]
    extremes = [
        frame.group_by("bin").agg(pl.col("tpr").min(), pl.col("tpr").max().alias("top")).sort("bin")
        for frame in binned
    ]
    assert extremes[0].equals(extremes[1])
    # no vertex moved: every kept row is an input row
    assert kept.select("fpr", "tpr").join(curve, on=["fpr", "tpr"], how="anti").height == 0


def test_ties_keep_the_first_vertex_along_the_path():
    """Several vertices with a bin's lowest or highest y: the first along the path is kept, so
    a curve always thins to the same rows (an unstable tie-break once kept 2,000 or 2,001 of a
    200k-point curve's rows from run to run)."""
    n = 200_000  # large enough for Polars to sort in parallel
    x = np.arange(float(n))
    y = np.tile([0.0, 5.0, 1.0, 5.0, 0.0, 2.0, 3.0, 2.0, 4.0, 1.0], n // 10)
    kept = _thin(pl.DataFrame({"fpr": x, "tpr": y}), max_points=16, exact=False)
    expected = set()
    for b in range(4):  # budget 16: four bins of n / 4 vertices
        idx = np.arange(b * n // 4, (b + 1) * n // 4)
        expected |= {idx[0], idx[-1], idx[np.argmin(y[idx])], idx[np.argmax(y[idx])]}
    assert kept["fpr"].to_list() == sorted(float(i) for i in expected)
    curve = _roc(200_000)  # its staircase ties the two corners of a flat step
    runs = [_thin(curve) for _ in range(6)]
    assert all(run.equals(runs[0]) for run in runs)


def test_thinned_path_stays_within_one_bin_of_every_dropped_vertex():
    curve = _roc(5_000, seed=2)
    budget = 200
    kept = _thin(curve, max_points=budget)
    path = kept.select("fpr", "tpr").to_numpy()
    distance = _distance_to_polyline(curve.select("fpr", "tpr").to_numpy(), path)
    # a bin is 1/(budget/4) wide in x; the path crosses each bin between its extremes
    assert distance.max() <= 1 / (budget // 4) + 1e-12


@given(
    steps=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 4)), min_size=1, max_size=12
    )
)
def test_exact_pass_is_lossless(steps):
    """Dropping duplicates and same-direction collinear vertices leaves the drawn path unchanged:
    every input vertex lies on the kept polyline (within 1e-12), and corners are kept."""
    xs, ys = [0.0], [0.0]
    for dx, dy, repeat in steps:  # a monotone staircase with runs of collinear points
        for _ in range(repeat):
            xs.append(xs[-1] + dx / repeat)
            ys.append(ys[-1] + dy / repeat)
    curve = pl.DataFrame({"fpr": xs, "tpr": ys})
    kept = _thin(curve)
    path = kept.select("fpr", "tpr").to_numpy()
    if len(path) == 1:
        assert np.allclose(curve.to_numpy(), path[0])
        return
    assert _distance_to_polyline(curve.to_numpy(), path).max() <= 1e-12
    assert kept.row(0) == (xs[0], ys[0], 0) and kept.row(-1)[:2] == (xs[-1], ys[-1])
    # no kept interior vertex is collinear with its kept neighbours in the same direction
    if len(path) >= 3:
        a, b = path[1:-1] - path[:-2], path[2:] - path[1:-1]
        cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
        dot = (a * b).sum(axis=1)
        assert not np.any((np.abs(cross) <= 1e-9) & (dot > 0))


def test_groups_share_the_budget_and_keep_their_ends():
    curve = pl.concat([_roc(3_000, seed=s).with_columns(group=pl.lit(f"g{s}")) for s in range(4)])
    budget = 800
    kept = _thin(curve, by=["group"], max_points=budget)
    sizes = kept.group_by("group").len()
    assert sizes.height == 4
    assert sizes.get_column("len").max() <= max(budget // 4, MIN_POINTS)
    ends = kept.group_by("group").agg(
        pl.col("fpr").first().alias("f0"), pl.col("tpr").last().alias("t1")
    )
    assert ends.get_column("f0").to_list() == [0.0] * 4
    assert ends.get_column("t1").to_list() == [1.0] * 4
    # ORDER numbers each group's kept vertices along the path
    orders = kept.group_by("group").agg(pl.col(ORDER).sort().alias("o"))
    for order in orders.get_column("o").to_list():
        assert order == list(range(len(order)))


def test_grouped_thinning_equals_thinning_each_group_alone_below_the_budget():
    parts = [_roc(50, seed=s).with_columns(group=pl.lit(s)) for s in range(3)]
    together = _thin(pl.concat(parts), by=["group"]).sort("group", ORDER)
    alone = pl.concat([_thin(p, by=["group"]) for p in parts]).sort("group", ORDER)
    assert together.equals(alone)


def test_row_order_does_not_matter():
    curve = _roc(2_000, seed=4)
    shuffled = curve.sample(fraction=1.0, shuffle=True, seed=3)
    assert _thin(curve, max_points=300).equals(_thin(shuffled, max_points=300))


def test_null_values_do_not_break_thinning():
    curve = pl.DataFrame({"fpr": [0.0, 0.5, 0.5, 1.0], "tpr": [0.0, None, 0.5, 1.0]})
    kept = _thin(curve, max_points=16)
    assert kept.height >= 3
    assert kept.row(0)[:2] == (0.0, 0.0) and kept.row(-1)[:2] == (1.0, 1.0)
