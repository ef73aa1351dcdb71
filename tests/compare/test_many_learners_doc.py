"""Every number on docs/many-learners.md is produced here, from Demšar's (2006) Table 6 (AUC of
four C4.5 variants on 14 data sets), by the procedures the page describes — the frequentist
tests, the Bayesian signed-rank test, the comparison matrix and the effect sizes — and, for the
correlated Bayesian t-test (which needs one data set's fold scores), from the packaged example
results: the tables below are generated and must appear verbatim on the page (regenerate with
``python -m tests.compare.test_many_learners_doc``); the claims the text makes about them are
checked in ``test_the_claims_in_the_text`` and its neighbours."""

from __future__ import annotations

import warnings
from pathlib import Path

import polars as pl

import frameeval as fe
from tests.compare._tables import assert_frames_close
from tests.compare.test_demsar_example import table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "many-learners.md"
KW = dict(block="data_set", higher_is_better=True)
#: the failed run of the "missing results" section
GAP = (pl.col("data_set") == "lung cancer") & (pl.col("learner") == "C4.5+m")
#: the ROPE of the Bayesian tests on the page: one point of AUC (or accuracy)
ROPE = 0.01
REGIONS = ("p_a_better", "p_rope", "p_b_better")


def _fmt(value: object, digits: int = 4) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def omnibus_table(df: pl.DataFrame) -> str:
    with warnings.catch_warnings(action="ignore"):
        friedman = fe.friedman(df, "auc", **KW).row(0, named=True)
    rows = [
        (
            "`friedman` (χ², eq 2.34)",
            friedman["chi2"],
            f"{friedman['chi2_df']}",
            friedman["chi2_p_value"],
            friedman["chi2_reject"],
        ),
        (
            "`friedman` (Iman–Davenport F, eq 2.35)",
            friedman["statistic"],
            f"{friedman['df1']}, {friedman['df2']}",
            friedman["p_value"],
            friedman["reject"],
        ),
    ]
    for name, func in (
        ("skillings_mack", fe.skillings_mack),
        ("friedman_aligned_ranks", fe.friedman_aligned_ranks),
        ("quade", fe.quade),
    ):
        row = func(df, "auc", **KW).row(0, named=True)
        dof = f"{row['df']}" if "df" in row else f"{row['df1']}, {row['df2']}"
        rows.append((f"`{name}`", row["statistic"], dof, row["p_value"], row["reject"]))
    lines = ["| test | statistic | df | p-value | reject at α = 0.05 |", "|---|---|---|---|---|"]
    lines += [f"| {n} | {_fmt(s)} | {d} | {_fmt(p)} | {_fmt(r)} |" for n, s, d, p, r in rows]
    return "\n".join(lines)


def pairwise_table(df: pl.DataFrame) -> str:
    key = ["a", "b"]
    frames = {
        "Nemenyi": fe.nemenyi(df, "auc", **KW).select(*key, pl.col("p_value").alias("p")),
        "Holm": fe.rank_post_hoc(df, "auc", **KW).select(*key, pl.col("p_adjusted").alias("p")),
        "Shaffer": fe.shaffer(df, "auc", **KW).select(*key, pl.col("p_adjusted").alias("p")),
        "Bergmann–Hommel": fe.bergmann_hommel(df, "auc", **KW).select(
            *key, pl.col("p_adjusted").alias("p")
        ),
        "aligned ranks, Holm": fe.rank_post_hoc(
            df, "auc", test="friedman_aligned_ranks", **KW
        ).select(*key, pl.col("p_adjusted").alias("p")),
        "Quade, Holm": fe.rank_post_hoc(df, "auc", test="quade", **KW).select(
            *key, pl.col("p_adjusted").alias("p")
        ),
        "Wilcoxon, Holm": fe.wilcoxon(df, "auc", adjust="holm", **KW).select(
            *key, pl.col("p_adjusted").alias("p")
        ),
    }
    base = fe.rank_post_hoc(df, "auc", adjust=None, **KW).select(*key, "statistic", "p_value")
    for name, frame in frames.items():
        base = base.join(frame.rename({"p": name}), on=key, how="left")
    names = list(frames)
    lines = [
        "| a | b | z | p (raw) | " + " | ".join(names) + " |",
        "|---|---|---|---|" + "---|" * len(names),
    ]
    for row in base.sort(key).iter_rows(named=True):
        cells = [_fmt(row[n]) for n in names]
        lines.append(
            f"| {row['a']} | {row['b']} | {_fmt(row['statistic'], 3)} | {_fmt(row['p_value'])} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def cliques_table(df: pl.DataFrame) -> str:
    ranks = fe.average_ranks(df, "auc", **KW)
    procedures = {
        "Nemenyi, α = 0.05": fe.nemenyi(df, "auc", **KW),
        "Nemenyi, α = 0.10": fe.nemenyi(df, "auc", alpha=0.10, **KW),
        "Shaffer, α = 0.05": fe.shaffer(df, "auc", **KW),
        "Bergmann–Hommel, α = 0.05": fe.bergmann_hommel(df, "auc", **KW),
        "Bergmann–Hommel, α = 0.10": fe.bergmann_hommel(df, "auc", alpha=0.10, **KW),
        "Wilcoxon–Holm, α = 0.05": fe.wilcoxon(df, "auc", adjust="holm", **KW),
    }
    lines = ["| procedure | cliques (best first) |", "|---|---|"]
    for name, pairs in procedures.items():
        members = fe.cliques(pairs, ranks)
        groups = [
            "{" + ", ".join(p["learner"].to_list()) + "}"
            for p in members.partition_by("clique", maintain_order=True)
        ]
        lines.append(f"| {name} | {' '.join(groups) or 'none'} |")
    return "\n".join(lines)


def missing_table(df: pl.DataFrame) -> str:
    gap = df.filter(~GAP)
    sm = fe.skillings_mack(gap, "auc", **KW).row(0, named=True)
    holm = fe.rank_post_hoc(gap, "auc", test="skillings_mack", **KW)
    lines = [
        f"Skillings–Mack with the missing cell: SM = {_fmt(sm['statistic'])}, df = {sm['df']}, "
        f"p = {_fmt(sm['p_value'])}, n_missing = {sm['n_missing']}.",
        "",
        "| a | b | average rank a | average rank b | z | p (Holm) | reject |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in holm.iter_rows(named=True):
        lines.append(
            f"| {r['a']} | {r['b']} | {_fmt(r['average_rank_a'], 3)} | "
            f"{_fmt(r['average_rank_b'], 3)} | {_fmt(r['statistic'], 3)} | "
            f"{_fmt(r['p_adjusted'])} | {_fmt(r['reject'])} |"
        )
    return "\n".join(lines)


def bayes_table(df: pl.DataFrame) -> str:
    out = fe.bayes_signed_rank(df, "auc", rope=ROPE, seed=0, **KW).select(
        "a", "b", "mean_difference", *REGIONS, "mean_a_better", "mean_rope", "mean_b_better"
    )
    lines = [
        "| a | b | mean_difference | p_a_better | p_rope | p_b_better "
        "| mean_a_better | mean_rope | mean_b_better |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in out.sort("a", "b").iter_rows(named=True):
        lines.append("| " + " | ".join(_fmt(v) for v in r.values()) + " |")
    return "\n".join(lines)


def matrix_table(df: pl.DataFrame) -> str:
    out = fe.comparison_matrix(df, "auc", **KW).select(
        "a", "b", "mean_difference", "wins", "ties", "losses", "p_value", "p_adjusted"
    )
    lines = [
        "| a | b | mean_difference | wins | ties | losses | p_value | p_adjusted |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in out.sort("a", "b").iter_rows(named=True):
        lines.append("| " + " | ".join(_fmt(v) for v in r.values()) + " |")
    return "\n".join(lines)


def effect_table(df: pl.DataFrame) -> str:
    out = fe.effect_size(df, "auc", block="data_set")
    paired = fe.wilcoxon(df, "auc", **KW).select("a", "b", "rank_biserial")
    out = out.join(paired, on=["a", "b"], how="left")
    lines = [
        "| a | b | mean_difference | cohen_d (d_z) | cliff_delta (δ) | rank_biserial (r) |",
        "|---|---|---|---|---|---|",
    ]
    for r in out.sort("a", "b").iter_rows(named=True):
        lines.append(
            f"| {r['a']} | {r['b']} | {_fmt(r['mean_difference'])} | "
            f"{_fmt(r['cohen_d'], 3)} ({r['cohen_d_magnitude']}) | "
            f"{_fmt(r['cliff_delta'], 3)} ({r['cliff_delta_magnitude']}) | "
            f"{_fmt(r['rank_biserial'], 3)} |"
        )
    return "\n".join(lines)


def fold_accuracy() -> pl.DataFrame:
    """The example results' accuracy per data set, learner and fold (10-fold CV, one repeat)."""
    results = fe.datasets.example_results()
    return results.group_by("dataset", "learner", "repeat", "fold").agg(
        fe.accuracy("truth", "pred")
    )


def correlated_t_table() -> str:
    cv = fold_accuracy().filter(pl.col("dataset") == "breast_cancer")
    out = fe.bayes_correlated_t(cv, "accuracy", fold="fold", repeat="repeat", rope=ROPE).select(
        "a", "b", "mean_difference", *REGIONS
    )
    lines = [
        "| a | b | mean_difference | p_a_better | p_rope | p_b_better |",
        "|---|---|---|---|---|---|",
    ]
    for r in out.sort("a", "b").iter_rows(named=True):
        lines.append("| " + " | ".join(_fmt(v) for v in r.values()) + " |")
    return "\n".join(lines)


def blocks() -> list[str]:
    df = table(paper_order=True)
    return [
        omnibus_table(df),
        pairwise_table(df),
        bayes_table(df),
        matrix_table(df),
        effect_table(df),
        correlated_t_table(),
        cliques_table(df),
        missing_table(df),
    ]


def test_the_page_shows_the_numbers_the_code_gives():
    text = PAGE.read_text("utf-8")
    for block in blocks():
        assert block in text, f"docs/many-learners.md is out of date; expected:\n{block}"


def test_the_claims_in_the_text():
    df = table(paper_order=True)
    for func in (fe.nemenyi, fe.shaffer, fe.bergmann_hommel, fe.rank_post_hoc):
        assert not func(df, "auc", **KW)["reject"].any()
    for test, rejected in (
        ("friedman_aligned_ranks", [("C4.5", "C4.5+m+cf")]),
        ("quade", [("C4.5", "C4.5+m+cf"), ("C4.5+cf", "C4.5+m+cf")]),
    ):
        out = fe.rank_post_hoc(df, "auc", test=test, **KW)
        assert out.filter("reject").select("a", "b").rows() == rejected
    from frameeval.compare.multiple import shaffer_counts

    assert shaffer_counts(4) == (0, 1, 2, 3, 6)


def _most_probable(frame: pl.DataFrame, columns: tuple[str, ...]) -> dict[tuple[str, str], str]:
    return {(r["a"], r["b"]): max(columns, key=lambda c: r[c]) for r in frame.iter_rows(named=True)}


def test_the_claims_about_the_bayesian_signed_rank_test():
    df = table(paper_order=True)
    out = fe.bayes_signed_rank(df, "auc", rope=ROPE, seed=0, **KW)
    decided = [
        (r["a"], r["b"], c) for r in out.iter_rows(named=True) for c in REGIONS if r[c] > 0.95
    ]
    assert decided == [("C4.5", "C4.5+m+cf", "p_b_better")]
    assert (out["p_rope"] < 0.95).all()
    # the frequentist view of that pair: only Quade's and the aligned ranks' post-hoc tests reject
    wilcoxon = fe.wilcoxon(df, "auc", adjust="holm", **KW).filter(
        (pl.col("a") == "C4.5") & (pl.col("b") == "C4.5+m+cf")
    )
    assert round(wilcoxon["p_adjusted"].item(), 4) == 0.0716
    assert wilcoxon["p_adjusted"].item() > 0.05
    for test in ("friedman_aligned_ranks", "quade"):
        rejected = fe.rank_post_hoc(df, "auc", test=test, **KW).filter("reject")
        assert ("C4.5", "C4.5+m+cf") in rejected.select("a", "b").rows()
    rope, m_side = "p_rope", "p_b_better"
    assert _most_probable(out, REGIONS) == {
        ("C4.5", "C4.5+cf"): rope,
        ("C4.5", "C4.5+m"): m_side,
        ("C4.5", "C4.5+m+cf"): m_side,
        ("C4.5+cf", "C4.5+m"): rope,
        ("C4.5+cf", "C4.5+m+cf"): m_side,
        ("C4.5+m", "C4.5+m+cf"): rope,
    }
    # the posterior means agree on the most probable region, less extremely
    means = ("mean_a_better", "mean_rope", "mean_b_better")
    assert [REGIONS[means.index(v)] for v in _most_probable(out, means).values()] == list(
        _most_probable(out, REGIONS).values()
    )
    narrow = out.filter((pl.col("a") == "C4.5+cf") & (pl.col("b") == "C4.5+m")).row(0, named=True)
    assert (round(narrow["p_rope"], 2), round(narrow["p_b_better"], 2)) == (0.51, 0.48)
    pair = out.filter((pl.col("a") == "C4.5") & (pl.col("b") == "C4.5+m+cf")).row(0, named=True)
    assert (round(pair["mean_b_better"], 2), round(pair["p_b_better"], 2)) == (0.71, 0.97)
    # p_a_better = 0 for C4.5 against C4.5+m: no data set has C4.5 ahead by more than the ROPE
    wide = df.pivot(on="learner", index="data_set", values="auc")
    assert round((wide["C4.5"] - wide["C4.5+m"]).max(), 6) == 0.008
    zero = out.filter((pl.col("a") == "C4.5") & (pl.col("b") == "C4.5+m")).row(0, named=True)
    assert zero["p_a_better"] == 0 and zero["mean_a_better"] == 0


def test_the_claims_about_the_comparison_matrix():
    df = table(paper_order=True)
    out = fe.comparison_matrix(df, "auc", **KW)
    row = out.filter((pl.col("a") == "C4.5+m+cf") & (pl.col("b") == "C4.5")).row(0, named=True)
    assert (row["wins"], row["ties"], row["losses"]) == (11, 1, 2)
    mirror = out.join(out, left_on=["a", "b"], right_on=["b", "a"], suffix="_m")
    assert mirror.height == 12
    assert (mirror["wins"] == mirror["losses_m"]).all() and (
        mirror["ties"] == mirror["ties_m"]
    ).all()
    assert (mirror["mean_difference"] == -mirror["mean_difference_m"]).all()
    assert (mirror["p_value"] == mirror["p_value_m"]).all()
    once = out.filter(pl.col("a") < pl.col("b"))
    assert once.filter(pl.col("p_value") < 0.05).height == 3
    assert (once["p_adjusted"] > 0.05).all()
    smallest = once.sort("p_adjusted").row(0, named=True)
    assert (smallest["a"], smallest["b"], round(smallest["p_adjusted"], 4)) == (
        "C4.5",
        "C4.5+m",
        0.0648,
    )
    # with Demšar's zero handling the matrix's p-values are wilcoxon(adjust="holm")'s
    zsplit = fe.comparison_matrix(df, "auc", zero_method="zsplit", **KW).filter(
        pl.col("a") < pl.col("b")
    )
    holm = fe.wilcoxon(df, "auc", adjust="holm", **KW)
    joined = zsplit.join(holm, on=["a", "b"], suffix="_w")
    assert joined.height == 6
    for col in ("p_value", "p_adjusted"):
        assert (joined[col] - joined[f"{col}_w"]).abs().max() < 1e-12
    assert (zsplit["p_value"] != once.sort("a", "b")["p_value"]).any()


def test_the_claims_about_the_effect_sizes():
    df = table(paper_order=True)
    out = fe.effect_size(df, "auc", block="data_set")
    words = {(r["a"], r["b"]): r["cohen_d_magnitude"] for r in out.iter_rows(named=True)}
    assert words == {
        ("C4.5", "C4.5+cf"): "negligible",
        ("C4.5", "C4.5+m"): "medium",
        ("C4.5", "C4.5+m+cf"): "medium",
        ("C4.5+cf", "C4.5+m"): "medium",
        ("C4.5+cf", "C4.5+m+cf"): "medium",
        ("C4.5+m", "C4.5+m+cf"): "small",
    }
    assert (out["cliff_delta_magnitude"] == "negligible").all()
    other_sign = out.filter(pl.col("cliff_delta") * pl.col("mean_difference") < 0)
    assert other_sign.select("a", "b").rows() == [("C4.5+m", "C4.5+m+cf")]
    assert (round(df["auc"].min(), 2), df["auc"].max()) == (0.56, 1.0)
    paired = fe.wilcoxon(df, "auc", **KW).filter(
        (pl.col("a") == "C4.5") & (pl.col("b") == "C4.5+m")
    )
    assert round(paired["rank_biserial"].item(), 3) == -0.771
    assert round(paired["cliff_delta"].item(), 3) == -0.107


def test_the_claims_about_the_correlated_t_test():
    cv = fold_accuracy().filter(pl.col("dataset") == "breast_cancer")
    assert cv.group_by("learner").len()["len"].to_list() == [10] * 5  # 10 folds, one repeat
    out = fe.bayes_correlated_t(cv, "accuracy", fold="fold", repeat="repeat", rope=ROPE)
    better = {"p_a_better": 0, "p_b_better": 1}
    worse_than = sorted(
        (r["b"], r["a"]) if c == "p_a_better" else (r["a"], r["b"])
        for r in out.iter_rows(named=True)
        for c in better
        if r[c] > 0.95
    )
    # (practically worse, practically better)
    assert worse_than == [
        ("decision_tree", "knn"),
        ("decision_tree", "logistic_regression"),
        ("decision_tree", "random_forest"),
        ("naive_bayes", "knn"),
        ("naive_bayes", "logistic_regression"),
    ]
    assert (out["p_rope"] < 0.95).all()
    split = out.filter((pl.col("a") == "knn") & (pl.col("b") == "logistic_regression"))
    assert (round(split["p_rope"].item(), 2), round(split["p_b_better"].item(), 2)) == (0.5, 0.45)
    # one call per data set with by=
    every = fe.bayes_correlated_t(
        fold_accuracy(), "accuracy", fold="fold", repeat="repeat", rope=ROPE, by="dataset"
    )
    assert_frames_close(every.filter(pl.col("dataset") == "breast_cancer").drop("dataset"), out)


if __name__ == "__main__":  # pragma: no cover
    print("\n\n".join(blocks()))
