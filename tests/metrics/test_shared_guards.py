"""One check per rule in an eager query (issue 31): the builders of one eager ``agg`` /
``select`` that declare the same data rule on the same rows check it once, and every rule is
still checked — by the first builder planned with it, or by one whose value reads its
aggregates anyway — on both faces."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import InvalidParameterError, MissingValueError, UnknownLabelError


def _four(y: str = "y", p: str = "p") -> list[pl.Expr]:
    return [fe.precision(y, p), fe.recall(y, p), fe.f1(y, p), fe.accuracy(y, p)]


def _frame(n: int = 400, seed: int = 31) -> pl.DataFrame:
    import numpy as np

    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "g": rng.integers(0, 9, n),
            "h": rng.integers(0, 3, n),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 2, n),
            "t": rng.gamma(2.0, 1.0, n),
            "f": rng.gamma(2.0, 1.0, n),
        }
    )


def test_an_eager_agg_of_many_builders_gives_the_lazy_values() -> None:
    df = _frame()
    exprs = [*_four(), fe.rmse("t", "f"), fe.mae("t", "f"), fe.r2("t", "f"), fe.mape("t", "f")]
    renamed = [e.alias(f"c{i}") for i, e in enumerate(exprs)]
    for chosen in (exprs, renamed):
        eager = df.group_by("g").agg(chosen).sort("g")
        lazy = df.lazy().group_by("g").agg(chosen).sort("g").collect()
        assert_frame_equal(eager, lazy, check_exact=False, rel_tol=1e-12)
        assert_frame_equal(
            df.select(chosen), df.lazy().select(chosen).collect(), check_exact=False, rel_tol=1e-12
        )


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_a_third_class_is_found_whichever_builder_checks_it(lazy, order) -> None:
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2], "y": [0, 1, 1, 2, 1], "p": [0, 1, 0, 0, 1]})
    four = _four()
    chosen = four[order:] + four[:order]
    frame = df.lazy() if lazy else df
    with pytest.raises(InvalidParameterError, match=r"^\w+\(\): average='binary' needs"):
        fe.collect(frame.group_by("g").agg(chosen))
    with pytest.raises(InvalidParameterError, match=r"^\w+\(\): average='binary' needs"):
        fe.collect(frame.select(chosen))


@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_the_class_rule_goes_to_the_builder_that_reads_both_counts(order) -> None:
    # f1 reads Σ[y = pos] and Σ[p = pos], as the class rule does: in an eager query it checks
    # the rule for precision and recall (which then read two sums each), wherever it stands
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2], "y": [0, 1, 1, 2, 1], "p": [0, 1, 0, 0, 1]})
    four = _four()
    chosen = four[order:] + four[:order]
    with pytest.raises(InvalidParameterError, match=r"^f1\(\): average='binary' needs"):
        df.group_by("g").agg(chosen)
    # a weighted F1 reads weighted sums, not the counts: the first builder planned checks it
    names = [e.meta.output_name() for e in chosen]
    name = next(n for n in names if n != "accuracy")
    df = df.with_columns(w=pl.lit(1.0))
    weighted = fe.f1("y", "p", weight="w")
    with_weights = [weighted if n == "f1" else e for n, e in zip(names, chosen, strict=True)]
    with pytest.raises(InvalidParameterError, match=rf"^{name}\(\): average='binary' needs"):
        df.group_by("g").agg(with_weights)


@pytest.mark.parametrize("lazy", [False, True])
def test_a_null_is_found_when_another_builder_checks_it(lazy) -> None:
    df = pl.DataFrame({"g": [1, 1, 2], "y": [1, 0, None], "p": [1, 0, 1]})
    frame = df.lazy() if lazy else df
    with pytest.raises(MissingValueError, match=r"column 'y' \(truth=\) must not contain nulls"):
        fe.collect(frame.group_by("g").agg(fe.accuracy("y", "p"), fe.precision("y", "p")))
    bad = pl.DataFrame({"t": [1.0, float("nan")], "f": [1.0, 2.0]})
    frame = bad.lazy() if lazy else bad
    # the error names a builder of the query that declares the rule: rmse, or mae when the
    # planning history of the process makes mae's plan claim it first (seen after the merge
    # with the input declarations; every rule is still checked)
    with pytest.raises(
        MissingValueError, match=r"^(rmse|mae)\(\): column 't' \(truth=\) must be finite"
    ):
        fe.collect(frame.select(fe.rmse("t", "f"), fe.mae("t", "f").alias("m")))


def test_a_builder_in_a_window_keeps_its_own_checks() -> None:
    # every (g, h) window holds two classes, group g = 1 three: the builder over the whole
    # group must raise although the one in the window (planned first) passes
    df = pl.DataFrame({"g": [1, 1, 1, 1], "h": [1, 1, 2, 2], "y": [0, 1, 2, 1], "p": [0, 1, 2, 1]})
    with pytest.raises(InvalidParameterError, match=r"^recall\(\): average='binary' needs"):
        df.group_by("g").agg(fe.precision("y", "p").over("h").first(), fe.recall("y", "p"))
    with pytest.raises(InvalidParameterError, match=r"^recall\(\): average='binary' needs"):
        df.select(fe.precision("y", "p").over("h"), fe.recall("y", "p").over("g"))


def test_builders_of_different_columns_check_their_own_rules() -> None:
    df = pl.DataFrame({"y": [0, 1, 1], "p": [0, 1, 0], "q": [0, 1, 2]})
    with pytest.raises(
        InvalidParameterError, match=r"^recall\(\): .* columns 'y' \(truth=\) and 'q'"
    ):
        fe.collect(df.select(fe.precision("y", "p"), fe.recall("y", "q")))


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize(
    ("t", "f", "error", "message"),
    [
        # a domain rule reports the smallest offending value
        (
            [2.0, -1.0, -3.0],
            [1.0, 1.0, 1.0],
            "NegativeValueError",
            r"'t' \(truth=\) must be >= 0.* -3\.0\.",
        ),
        (
            [2.0, 1.0, 3.0],
            [1.0, 0.0, -2.0],
            "InvalidValueError",
            r"'f' \(pred=\) must be > 0.* -2\.0\.",
        ),
        # the finiteness of both columns is checked before the domain rules
        (
            [2.0, -1.0, 3.0],
            [1.0, float("nan"), 1.0],
            "MissingValueError",
            r"'f' \(pred=\) must be finite",
        ),
        (
            [float("-inf"), 1.0, 3.0],
            [1.0, 1.0, 1.0],
            "MissingValueError",
            r"'t' \(truth=\) must be finite",
        ),
        (
            [None, -1.0, 3.0],
            [1.0, 1.0, 1.0],
            "MissingValueError",
            r"'t' \(truth=\) must not contain nulls",
        ),
    ],
)
def test_a_domain_rule_keeps_its_place_and_its_example(lazy, t, f, error, message) -> None:
    from frameeval import exceptions

    df = pl.DataFrame({"g": [1, 1, 1], "t": t, "f": f}, schema_overrides={"t": pl.Float64})
    frame = df.lazy() if lazy else df
    cls = getattr(exceptions, error)
    with pytest.raises(cls, match=r"^poisson_deviance\(\): column " + message):
        fe.collect(frame.select(fe.poisson_deviance("t", "f")))
    with pytest.raises(cls, match=r"^poisson_deviance\(\): column " + message):
        fe.collect(frame.group_by("g").agg(fe.poisson_deviance("t", "f")))


def test_an_eager_auc_reads_its_sums_once_and_keeps_its_checks() -> None:
    # unweighted AUC and rank loss are planned over one struct of their aggregates in an eager
    # query (the rank sum, M+, the length and the checks' counts): the lazy values, every rule
    df = _frame().with_columns(s=pl.col("t"), w=pl.col("f"))
    exprs = [
        fe.roc_auc("y", "s"),
        fe.rank_loss("y", "s"),
        fe.roc_auc("y", "s", pos_label=0).alias("auc0"),
        fe.roc_auc("y", "s", weight="w").alias("auc_w"),
        fe.average_precision("y", "s"),
    ]
    eager = df.group_by("g").agg(exprs).sort("g")
    assert_frame_equal(eager, df.lazy().group_by("g").agg(exprs).sort("g").collect())
    bad = df.with_columns(s=pl.when(pl.col("g") == 3).then(float("nan")).otherwise(pl.col("s")))
    with pytest.raises(MissingValueError, match=r"^(roc_auc|rank_loss)\(\): column 's' .* NaN"):
        bad.group_by("g").agg(exprs[:2])
    with pytest.raises(UnknownLabelError, match=r"^roc_auc\(\): pos_label \(7\) must be a class"):
        df.group_by("g").agg(fe.roc_auc("y", "s", pos_label=7), fe.rank_loss("y", "s"))
