"""Tests of frameeval.split: hold-out, k-fold, LOO, 5x2, train/validation/test, bootstrap, folds,
and Efron's .632 / .632+ estimators.

Oracles: scikit-learn's StratifiedKFold (per-class and per-fold counts), a pure-Python reference
of the documented assignment algorithm (SplitMix64 in exact integer arithmetic: the platform
independence claim), mlxtend's ``no_information_rate``, a NumPy transcription of Efron &
Tibshirani (1997) eqs. (24)–(32), and the binomial law of bootstrap counts (eq. in 2.2.3).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from sklearn.model_selection import StratifiedKFold

import frameeval as fe
from frameeval import split
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    InvalidDtypeError,
    InvalidParameterError,
    MissingValueError,
)
from frameeval.split._plan import SALT_ORDER, fraction

MASK = (1 << 64) - 1


# ---------------------------------------------------------------------------------------------
# a pure-Python reference of the documented algorithm
# ---------------------------------------------------------------------------------------------
def splitmix(x: int) -> int:
    x &= MASK
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & MASK
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def salt(seed: int, purpose: int, *parts: int) -> int:
    state = splitmix(seed ^ purpose)
    for part in parts:
        state = splitmix((state + (part + 1) * 0x9E3779B97F4A7C15) & MASK)
    return state


def reference_positions(
    keys: list[int], strata: list[int] | None, seed: int, repeat: int
) -> list[int]:
    """Position of each row in the seeded order, strata (sorted) laid end to end."""
    s = salt(seed, SALT_ORDER, repeat)
    hashes = [splitmix((k & MASK) ^ s) for k in keys]
    strata = strata if strata is not None else [0] * len(keys)
    order = sorted(range(len(keys)), key=lambda i: (strata[i], hashes[i]))
    pos = [0] * len(keys)
    for p, i in enumerate(order):
        pos[i] = p
    return pos


def reference_kfold(keys, strata, k, seed, repeats):
    out = []
    for r in range(repeats):
        rotation = salt(seed, SALT_ORDER, r, 0) % k
        out.append([(p + rotation) % k for p in reference_positions(keys, strata, seed, r)])
    return out


# ---------------------------------------------------------------------------------------------
# strategies
# ---------------------------------------------------------------------------------------------
seeds = st.integers(0, MASK)
ids = st.lists(st.integers(-(2**63), 2**63 - 1), min_size=2, max_size=40, unique=True)


@st.composite
def stratified(draw, min_per_class: int = 1):
    """(ids, labels, k) with every class holding at least k rows."""
    k = draw(st.integers(2, 5))
    counts = draw(st.lists(st.integers(max(k, min_per_class), 12), min_size=1, max_size=4))
    labels = [c for c, n in enumerate(counts) for _ in range(n)]
    labels = draw(st.permutations(labels))
    keys = draw(
        st.lists(
            st.integers(-(2**40), 2**40), min_size=len(labels), max_size=len(labels), unique=True
        )
    )
    return keys, list(labels), k


def frame(keys, labels=None, groups=None) -> pl.DataFrame:
    cols = {"id": pl.Series(keys, dtype=pl.Int64)}
    if labels is not None:
        cols["y"] = labels
    if groups is not None:
        cols["g"] = groups
    return pl.DataFrame(cols)


def per_repeat(out: pl.DataFrame, column: str) -> list[list]:
    return [
        part.sort("id")[column].to_list()
        for part in out.sort("repeat").partition_by("repeat", maintain_order=True)
    ]


# ---------------------------------------------------------------------------------------------
# k-fold
# ---------------------------------------------------------------------------------------------
@given(keys=ids, data=st.data(), seed=seeds)
def test_kfold_matches_reference_and_partitions(keys, data, seed):
    """Exact agreement with the integer reference; every row once per repeat; sizes ±1."""
    k = data.draw(st.integers(2, len(keys)))
    repeats = data.draw(st.integers(1, 3))
    out = split.kfold(frame(keys), k=k, repeats=repeats, instance="id", seed=seed)
    assert out.height == len(keys) * repeats
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    expected = reference_kfold(keys, None, k, seed, repeats)
    assert per_repeat(out, "fold") == [[e[i] for i in order] for e in expected]
    sizes = out.group_by("repeat", "fold").len()
    assert sizes.height == k * repeats  # no empty fold
    assert sizes["len"].max() - sizes["len"].min() <= 1
    assert out.select(pl.struct("repeat", "id").is_unique().all()).item()


@given(case=stratified(), seed=seeds)
def test_stratified_counts_match_sklearn(case, seed):
    """Per class and per fold the counts are those of sklearn's StratifiedKFold (sorted), and
    the fold assignment matches the integer reference."""
    keys, labels, k = case
    out = split.kfold(frame(keys, labels), k=k, repeats=2, stratify="y", instance="id", seed=seed)
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    expected = reference_kfold(keys, labels, k, seed, 2)
    assert per_repeat(out, "fold") == [[e[i] for i in order] for e in expected]
    y = np.array(labels)
    sk_folds = np.empty(len(y), dtype=int)
    for f, (_, test) in enumerate(StratifiedKFold(k, shuffle=True, random_state=0).split(y, y)):
        sk_folds[test] = f
    for part in out.partition_by("repeat"):
        ours = part.group_by("y", "fold").len()
        for c in set(labels):
            mine = sorted(ours.filter(pl.col("y") == c)["len"].to_list())
            theirs = sorted(Counter(sk_folds[y == c].tolist()).values())
            assert mine == theirs
        fold_sizes = sorted(part.group_by("fold").len()["len"].to_list())
        assert fold_sizes == sorted(Counter(sk_folds.tolist()).values())


@given(case=stratified(), seed=seeds)
def test_row_order_invariance_and_lazy_equals_eager(case, seed):
    keys, labels, k = case
    df = frame(keys, labels)
    a = split.kfold(df, k=k, repeats=2, stratify="y", instance="id", seed=seed)
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed % 1000)
    b = split.kfold(shuffled, k=k, repeats=2, stratify="y", instance="id", seed=seed)
    c = split.kfold(shuffled.lazy(), k=k, repeats=2, stratify="y", instance="id", seed=seed)
    assert isinstance(c, pl.LazyFrame)
    assert a.sort("repeat", "id").equals(b.sort("repeat", "id"))
    assert fe.collect(c).equals(b)  # input order kept within a repeat


@given(groups=st.lists(st.integers(0, 9), min_size=4, max_size=40), seed=seeds, k=st.integers(2, 3))
def test_grouped_folds_keep_groups_together(groups, seed, k):
    n_groups = len(set(groups))
    df = frame(list(range(len(groups))), groups=groups)
    if n_groups < k:
        with pytest.raises(InvalidParameterError, match=r"k must not exceed the number of groups"):
            split.kfold(df, k=k, group="g", instance="id", seed=seed)
        return
    out = split.kfold(df, k=k, repeats=2, group="g", instance="id", seed=seed)
    assert out.height == 2 * len(groups)
    assert out.group_by("repeat", "g").agg(pl.col("fold").n_unique())["fold"].max() == 1
    per_fold = out.group_by("repeat", "fold").agg(pl.col("g").n_unique())
    assert per_fold.height == 2 * k
    assert per_fold["g"].max() - per_fold["g"].min() <= 1
    # order invariance without instance=: groups are the units
    shuffled = df.reverse()
    a = split.kfold(df.drop("id"), k=k, group="g", seed=seed).unique(["g", "fold"]).sort("g")
    b = split.kfold(shuffled.drop("id"), k=k, group="g", seed=seed).unique(["g", "fold"]).sort("g")
    assert a.select("g", "fold").equals(b.select("g", "fold"))


def test_grouped_stratified_uses_majority_class():
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2, 3, 3, 4, 4, 5], "y": [0, 0, 1, 0, 0, 1, 1, 1, 0, 1]})
    # group majority classes: 1→0, 2→0, 3→1, 4→0 (a tie: the smallest), 5→1
    out = split.kfold(df, k=2, group="g", stratify="y", seed=3)
    assert out.height == 10
    fold_of = dict(out.unique(["g", "fold"]).select("g", "fold").iter_rows())
    assert fold_of[3] != fold_of[5]  # the two class-1 groups are spread over the folds
    assert len({fold_of[1], fold_of[2], fold_of[4]}) == 2
    # without group 5, class 1 has one group (4 counts as class 0): fewer than k
    with pytest.raises(InvalidParameterError, match="at least k=2 groups, got 1 groups for y=1"):
        split.kfold(df.filter(pl.col("g") != 5), k=2, group="g", stratify="y")


def test_repeats_and_seeds_differ():
    df = frame(list(range(60)))
    out = split.kfold(df, k=5, repeats=3, instance="id", seed=11)
    folds = per_repeat(out, "fold")
    assert folds[0] != folds[1] and folds[1] != folds[2]
    other = per_repeat(split.kfold(df, k=5, instance="id", seed=12), "fold")
    assert other[0] != folds[0]
    again = per_repeat(split.kfold(df, k=5, repeats=3, instance="id", seed=11), "fold")
    assert again == folds


def test_same_assignment_with_one_thread():
    """Thread count does not matter: a fresh process with POLARS_MAX_THREADS=1 agrees."""
    df = frame(list(range(-50, 250, 3)), [i % 3 for i in range(100)])
    here = split.kfold(df, k=4, repeats=2, stratify="y", instance="id", seed=99)
    code = (
        "import polars as pl, frameeval as fe, sys\n"
        "df = pl.DataFrame({'id': list(range(-50, 250, 3)), 'y': [i % 3 for i in range(100)]})\n"
        "out = fe.split.kfold(df, k=4, repeats=2, stratify='y', instance='id', seed=99)\n"
        "sys.stdout.write(','.join(map(str, out['fold'].to_list())))\n"
    )
    env = {**os.environ, "POLARS_MAX_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    assert result.stdout == ",".join(map(str, here["fold"].to_list()))


def test_string_and_date_keys():
    """Non-integer keys are ranked: the assignment follows the key set, not the row order."""
    names = [f"patient-{i:03d}" for i in range(30)]
    df = pl.DataFrame({"name": names, "y": [i % 2 for i in range(30)]})
    a = split.kfold(df, k=3, stratify="y", instance="name", seed=5)
    b = split.kfold(df.reverse(), k=3, stratify="y", instance="name", seed=5)
    assert a.sort("name").equals(b.sort("name"))
    # rank keys: same as integer keys 1..30 in sorted order
    c = split.kfold(
        df.with_columns(id=pl.int_range(1, 31)), k=3, stratify="y", instance="id", seed=5
    )
    assert a.sort("name")["fold"].to_list() == c.sort("id")["fold"].to_list()
    dates = pl.DataFrame(
        {"d": pl.date_range(pl.date(2020, 1, 1), pl.date(2020, 1, 20), eager=True)}
    )
    out = split.kfold(dates, k=4, instance="d")
    assert sorted(out.group_by("fold").len()["len"].to_list()) == [5, 5, 5, 5]
    with pytest.raises(
        InvalidDtypeError, match=r"column 'l' \(instance=\) must hold scalar values"
    ):
        split.kfold(pl.DataFrame({"l": [[1], [2], [3]]}), k=2, instance="l")


def test_row_index_key_without_instance():
    df = pl.DataFrame({"x": [5.0, 1.0, 3.0, 2.0]})
    out = split.kfold(df, k=2, seed=1)
    assert out.columns == ["instance", "x", "repeat", "fold"]
    assert out["instance"].to_list() == [0, 1, 2, 3]
    expected = reference_kfold([0, 1, 2, 3], None, 2, 1, 1)[0]
    assert out["fold"].to_list() == expected
    with pytest.raises(InvalidParameterError, match="instance= is required when data has a column"):
        split.kfold(out.drop("repeat", "fold"), k=2)


def test_kfold_does_not_mutate_and_keeps_columns():
    df = pl.DataFrame({"id": [3, 1, 2, 4], "x": ["a", "b", "c", "d"]})
    before = df.clone()
    out = split.kfold(df, k=2, repeats=2, instance="id")
    assert df.equals(before)
    assert out.select("id", "x").equals(pl.concat([df, df]))
    assert out.schema["repeat"] == pl.Int32 and out.schema["fold"] == pl.Int32


def test_loo_and_cv5x2():
    df = pl.DataFrame({"id": [10, 30, 20, 40, 50], "g": [1, 1, 2, 3, 3]})
    out = split.loo(df, instance="id")
    assert out["fold"].to_list() == [0, 2, 1, 3, 4]  # rank of the key
    assert out.group_by("fold").len()["len"].to_list() == [1] * 5
    logo = split.loo(df, group="g")
    assert logo.group_by("g").agg(pl.col("fold").unique())["fold"].list.len().max() == 1
    assert logo["fold"].n_unique() == 3
    with pytest.raises(
        InvalidParameterError, match=r"loo\(\): leave-one-out needs at least 2 rows, got 1"
    ):
        split.loo(df.head(1))
    cv = split.cv5x2(pl.DataFrame({"id": range(10), "y": [0, 1] * 5}), stratify="y", instance="id")
    counts = cv.group_by("repeat", "fold", "y").len()
    assert counts.height == 5 * 2 * 2
    assert set(counts["len"].to_list()) <= {2, 3}
    direct = split.kfold(
        pl.DataFrame({"id": range(10), "y": [0, 1] * 5}),
        k=2,
        repeats=5,
        stratify="y",
        instance="id",
    )
    assert cv.equals(direct)


# ---------------------------------------------------------------------------------------------
# hold-out and train / validation / test
# ---------------------------------------------------------------------------------------------
@given(case=stratified(), seed=seeds, t=st.sampled_from([0.2, 0.25, 0.3, 1 / 3, 0.5, 0.7]))
def test_holdout_stratified_shares(case, seed, t):
    keys, labels, _ = case
    m = len(keys)
    n_test = math.floor(m * t + 0.5)
    df = frame(keys, labels)
    if n_test in (0, m):
        with pytest.raises(InvalidParameterError, match="must leave at least one"):
            split.holdout(df, test_size=t, stratify="y", instance="id", seed=seed)
        return
    out = split.holdout(df, test_size=t, repeats=2, stratify="y", instance="id", seed=seed)
    assert out.height == 2 * m
    for part in out.partition_by("repeat"):
        test = part.filter(pl.col("role") == "test")
        assert test.height == n_test
        for c, n_c in Counter(labels).items():
            got = test.filter(pl.col("y") == c).height
            assert abs(got - t * n_c) < 1  # within one row of the class's share
    # the Bresenham selection over the reference positions
    pos = reference_positions(keys, labels, seed, 0)
    frac = fraction(t)
    sel = [
        (2 * (p + 1) * frac.numerator + frac.denominator) // (2 * frac.denominator)
        - (2 * p * frac.numerator + frac.denominator) // (2 * frac.denominator)
        for p in pos
    ]
    order = sorted(range(m), key=lambda i: keys[i])
    roles = per_repeat(out, "role")[0]
    assert roles == ["test" if sel[i] else "train" for i in order]


@given(case=stratified(min_per_class=3), seed=seeds)
def test_train_val_test(case, seed):
    keys, labels, _ = case
    m = len(keys)
    sizes = (0.6, 0.2, 0.2)
    df = frame(keys, labels)
    n_test = math.floor(m * 0.2 + 0.5)
    rest = m - n_test
    n_val = math.floor(rest * 0.25 + 0.5)
    if 0 in (n_test, n_val, rest - n_val):
        with pytest.raises(InvalidParameterError, match="must give every role at least one"):
            split.train_val_test(df, sizes=sizes, stratify="y", instance="id", seed=seed)
        return
    out = split.train_val_test(df, sizes=sizes, stratify="y", instance="id", seed=seed)
    counts = Counter(out["role"].to_list())
    assert counts == {"test": n_test, "validation": n_val, "train": rest - n_val}
    for c, n_c in Counter(labels).items():
        part = out.filter(pl.col("y") == c)
        got = Counter(part["role"].to_list())
        assert abs(got["test"] - 0.2 * n_c) < 1
        assert abs(got["validation"] - 0.2 * n_c) < 2
        assert abs(got["train"] - 0.6 * n_c) < 2
    hold = split.holdout(df, test_size=0.2, stratify="y", instance="id", seed=seed)
    assert (out["role"] == "test").to_list() == (hold["role"] == "test").to_list()


def test_holdout_groups_and_parameters():
    df = pl.DataFrame({"g": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "x": range(10)})
    out = split.holdout(df, test_size=0.4, group="g", seed=2)
    assert out.group_by("g").agg(pl.col("role").n_unique())["role"].max() == 1
    assert out.filter(pl.col("role") == "test")["g"].n_unique() == 2
    for bad in (0, 1, 1.5, -0.1, True, "0.3"):
        with pytest.raises(
            InvalidParameterError, match=r"holdout\(\): test_size must be a number in \(0, 1\)"
        ):
            split.holdout(df, test_size=bad)
    with pytest.raises(InvalidParameterError, match=r"sizes must sum to 1, got \(0.6, 0.2, 0.3\)"):
        split.train_val_test(df, sizes=(0.6, 0.2, 0.3))
    with pytest.raises(InvalidParameterError, match=r"sizes must be three fractions"):
        split.train_val_test(df, sizes=(0.8, 0.2))
    with pytest.raises(InvalidParameterError, match=r"sizes\[1\] must be a number in \(0, 1\)"):
        split.train_val_test(df, sizes=(0.5, 0.0, 0.5))
    with pytest.raises(
        InvalidParameterError, match=r"test_size=0.1 must leave at least one of the 3 rows"
    ):
        split.holdout(df.head(3), test_size=0.1)


@pytest.mark.parametrize(
    ("sizes", "message"),
    [
        ((0.6, math.nan, 0.4), r"sizes\[1\] must be a number in \(0, 1\), got nan\.$"),
        ((0.6, 0.2, math.inf), r"sizes\[2\] must be a number in \(0, 1\), got inf\.$"),
        ((0.6, True, 0.2), r"sizes must be three fractions \(train, validation, test\), got "),
        ((0.6, np.int64(0), 0.4), r"sizes must be three fractions"),
        ("0.6", r"sizes must be three fractions"),
        (None, r"sizes must be three fractions \(train, validation, test\), got None\.$"),
    ],
)
def test_train_val_test_sizes_name_the_sequence_or_the_element(sizes, message):
    """A non-number element (a bool, a NumPy integer) fails the sequence's rule; NaN or inf
    reaches the element's own fraction rule and message."""
    df = pl.DataFrame({"x": range(10)})
    with pytest.raises(InvalidParameterError, match=r"^train_val_test\(\): " + message):
        split.train_val_test(df, sizes=sizes)


# ---------------------------------------------------------------------------------------------
# bootstrap
# ---------------------------------------------------------------------------------------------
@given(keys=ids, seed=seeds, stratify=st.booleans())
def test_bootstrap_sample_size(keys, seed, stratify):
    labels = [k % 2 for k in keys]
    df = frame(keys, labels)
    out = split.bootstrap(
        df, repeats=3, instance="id", seed=seed, stratify="y" if stratify else None
    )
    assert out.height == 3 * len(keys)
    assert out["count"].min() >= 0
    sums = out.group_by("repeat").agg(pl.col("count").sum())["count"]
    assert sums.to_list() == [len(keys)] * 3
    if stratify:
        per_class = out.group_by("repeat", "y").agg(pl.col("count").sum(), pl.len())
        assert (per_class["count"] == per_class["len"]).all()
    shuffled = split.bootstrap(
        df.reverse(), repeats=3, instance="id", seed=seed, stratify="y" if stratify else None
    )
    assert out.sort("repeat", "id").equals(shuffled.sort("repeat", "id"))


def test_bootstrap_out_of_bag_share_and_binomial_counts():
    """Out-of-bag share ≈ (1 − 1/m)^m (2.2.3) and counts ~ Binomial(m, 1/m)."""
    m, repeats = 50, 400
    out = split.bootstrap(frame(list(range(m))), repeats=repeats, instance="id", seed=2024)
    oob = out.group_by("repeat").agg((pl.col("count") == 0).mean().alias("oob"))["oob"].to_numpy()
    expected = (1 - 1 / m) ** m
    se = oob.std(ddof=1) / math.sqrt(repeats)
    assert abs(oob.mean() - expected) < 4 * se
    freq = out.group_by("count").agg(pl.len().alias("n"))
    observed = dict(freq.iter_rows())
    cells = [0, 1, 2, 3]
    exp = [stats.binom.pmf(c, m, 1 / m) * m * repeats for c in cells]
    exp.append(m * repeats - sum(exp))
    obs = [observed.get(c, 0) for c in cells]
    obs.append(m * repeats - sum(obs))
    chi2 = stats.chisquare(obs, exp)
    assert chi2.pvalue > 1e-3


def test_bootstrap_groups_and_folds():
    df = pl.DataFrame({"g": [1, 1, 2, 3, 3, 3, 4], "x": range(7)})
    out = split.bootstrap(df, repeats=5, group="g", seed=1)
    assert out.group_by("repeat", "g").agg(pl.col("count").n_unique())["count"].max() == 1
    per_group = out.unique(["repeat", "g"]).group_by("repeat").agg(pl.col("count").sum())
    assert per_group["count"].to_list() == [4] * 5
    b = split.bootstrap(frame(list(range(20))), repeats=2, instance="id", seed=4)
    train, test = split.folds(b, repeat=1)
    counts = b.filter(pl.col("repeat") == 1)
    assert train.height == 20
    assert test.height == counts.filter(pl.col("count") == 0).height
    assert set(train["id"]).isdisjoint(set(test["id"]))
    assert Counter(train["id"].to_list()) == {
        i: c for i, c in counts.select("id", "count").iter_rows() if c > 0
    }


# ---------------------------------------------------------------------------------------------
# folds()
# ---------------------------------------------------------------------------------------------
def test_folds_partition_each_split():
    df = frame(list(range(17)), [i % 3 for i in range(17)])
    s = split.kfold(df.lazy(), k=4, repeats=2, stratify="y", instance="id", seed=8)
    for r in range(2):
        tests = []
        for f in range(4):
            train, test = split.folds(s, repeat=r, fold=f)
            assert isinstance(train, pl.LazyFrame)
            train, test = train.collect(), test.collect()
            assert train.columns == ["id", "y"]
            assert set(train["id"]).isdisjoint(test["id"])
            assert train.height + test.height == 17
            tests.extend(test["id"].to_list())
        assert sorted(tests) == list(range(17))
    tvt = split.train_val_test(df, instance="id")
    train, val = split.folds(tvt, test="validation")
    # 17 rows: test round(3.4) = 3, validation round(14 · 0.25) = 4 (halves up), train 10
    assert val.height == 4 and train.height == 10
    with pytest.raises(ColumnNotFoundError, match=r"splits must have a 'repeat' column"):
        split.folds(df)
    with pytest.raises(InvalidParameterError, match=r"test must be 'test' or 'validation'"):
        split.folds(tvt, test="train")


# ---------------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------------
def test_error_messages():
    df = frame(list(range(6)), [0, 0, 0, 1, 1, 2])
    with pytest.raises(
        InvalidParameterError, match=r"kfold\(\): k must be an integer >= 2, got 1\."
    ):
        split.kfold(df, k=1)
    with pytest.raises(
        InvalidParameterError, match=r"k must not exceed the number of rows, got k=7 with 6 rows"
    ):
        split.kfold(df, k=7)
    lazy = split.kfold(df.lazy(), k=7)  # data-dependent: raised when computed
    with pytest.raises(InvalidParameterError, match="k=7 with 6 rows"):
        fe.collect(lazy)
    with pytest.raises(
        InvalidParameterError,
        match=r"every class of column 'y' \(stratify=\) must have at least k=2 rows, got 1 rows for y=2",
    ):
        split.kfold(df, k=2, stratify="y")
    with pytest.raises(InvalidParameterError, match=r"repeats must be an integer >= 1, got 0"):
        split.kfold(df, repeats=0)
    with pytest.raises(
        InvalidParameterError, match=r"seed must be an integer in \[0, 2\*\*64\), got -1"
    ):
        split.kfold(df, seed=-1)
    with_null = df.with_columns(g=pl.Series([1, None, 2, 2, 3, 3]))
    with pytest.raises(MissingValueError, match=r"column 'g' \(group=\) must not contain nulls"):
        split.kfold(with_null, k=2, group="g")
    with pytest.raises(MissingValueError, match=r"column 'y' \(stratify=\) must not contain nulls"):
        split.holdout(df.with_columns(y=pl.Series([0, None, 1, 1, 0, 0])), stratify="y")
    with pytest.raises(
        DuplicateKeyError,
        match=r"column 'id' \(instance=\) must hold unique values, got 1 duplicated values \(smallest 0\)",
    ):
        split.bootstrap(df.with_columns(id=pl.Series([0, 0, 1, 2, 3, 4])), instance="id")
    with pytest.raises(
        MissingValueError, match=r"column 'id' \(instance=\) must not contain nulls"
    ):
        split.kfold(df.with_columns(id=pl.Series([0, None, 1, 2, 3, 4])), k=2, instance="id")
    with pytest.raises(ColumnNotFoundError, match=r"column 'yy' \(stratify=\) not found"):
        split.kfold(df, stratify="yy")
    with pytest.raises(
        InvalidParameterError, match=r"must not already contain the output column 'fold'"
    ):
        split.kfold(df.with_columns(fold=pl.lit(1)), k=2)


# ---------------------------------------------------------------------------------------------
# Efron's .632 / .632+
# ---------------------------------------------------------------------------------------------
def efron_reference(train_truth, train_pred, test_instance, test_loss):
    """Efron & Tibshirani (1997) eqs. (24)–(32), transcribed in exact rational arithmetic."""
    from fractions import Fraction as F

    n = len(train_truth)
    err = F(sum(t != p for t, p in zip(train_truth, train_pred, strict=True)), n)
    per_instance = {}
    for i, loss in zip(test_instance, test_loss, strict=True):
        per_instance.setdefault(i, []).append(F(loss))
    err1 = sum(sum(v) / len(v) for v in per_instance.values()) / len(per_instance)
    labels = set(train_truth) | set(train_pred)
    gamma = sum(
        F(list(train_truth).count(c), n) * (1 - F(list(train_pred).count(c), n)) for c in labels
    )
    err1p = min(err1, gamma)
    r = (err1p - err) / (gamma - err) if (err1p > err and gamma > err) else F(0)
    e632 = F(368, 1000) * err + F(632, 1000) * err1
    plus = e632 + (err1p - err) * (F(368, 1000) * F(632, 1000) * r) / (1 - F(368, 1000) * r)
    return [float(v) for v in (err, err1, gamma, r, e632, plus)]


@given(
    train=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=30),
    test=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=30
    ),
)
def test_efron632_against_reference(train, test):
    df = pl.concat(
        [
            pl.DataFrame(
                {
                    "role": ["train"] * len(train),
                    "instance": [-1] * len(train),
                    "truth": [t for t, _ in train],
                    "pred": [p for _, p in train],
                }
            ),
            pl.DataFrame(
                {
                    "role": ["test"] * len(test),
                    "instance": [i for i, _, _ in test],
                    "truth": [t for _, t, _ in test],
                    "pred": [p for _, _, p in test],
                }
            ),
        ]
    )
    out = split.efron632(df.with_columns(learner=pl.lit("a")))
    ref = efron_reference(
        [t for t, _ in train],
        [p for _, p in train],
        [i for i, _, _ in test],
        [float(t != p) for _, t, p in test],
    )
    got = out.select(
        "apparent_error",
        "oob_error",
        "no_information_rate",
        "relative_overfitting",
        "error_632",
        "error_632_plus",
    ).row(0)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    assert 0 <= got[3] <= 1


def test_no_information_rate_matches_mlxtend():
    from mlxtend.evaluate.bootstrap_point632 import no_information_rate as mlx_nir

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 40)
    p = rng.integers(0, 3, 40)
    df = pl.DataFrame({"truth": y, "pred": p, "k": [0] * 20 + [1] * 20})
    out = split.no_information_rate(df, by="k")
    for k in (0, 1):
        part = slice(20 * k, 20 * k + 20)
        expected = mlx_nir(y[part], p[part], lambda a, b: np.mean(a != b))
        assert abs(out.filter(pl.col("k") == k)["no_information_rate"].item() - expected) < 1e-12


def test_efron632_golden():
    """R' = 1 case: apparent 0, out-of-bag error at the no-information rate → .632+ = Err¹'."""
    df = pl.DataFrame(
        {
            "role": ["train"] * 4 + ["test"] * 4,
            "instance": [0, 1, 2, 3, 0, 1, 2, 3],
            "truth": [0, 0, 1, 1, 0, 0, 1, 1],
            "pred": [0, 0, 1, 1, 1, 0, 0, 1],
        }
    )
    out = split.efron632(df, by=None)
    # γ = 0.5·0.5 + 0.5·0.5 = 0.5 (Efron & Tibshirani eq. 27); Err¹ = 2/4
    assert out.row(0) == (0.0, 0.5, 0.5, 1.0, 0.316, 0.5)
