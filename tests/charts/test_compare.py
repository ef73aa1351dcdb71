"""Comparison charts (frameeval/charts/compare/): figures 2.6–2.8, Demšar diagrams, rank
heatmaps and metric distributions."""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import frameeval as fe
from frameeval import charts
from frameeval.charts.compare import cliques
from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError
from tests.charts import examples as ex

#: The notes' table for figure 2.6 (seeds/000_*.txt, "图 2.6 的 Matlab 绘制"): P(k errors) for
#: m = 10, ε = 0.3, printed to six decimals.
NOTES_PROBABILITIES = [
    0.028248,
    0.121061,
    0.233474,
    0.266828,
    0.200121,
    0.102919,
    0.036757,
    0.009002,
    0.0014470,
    0.000138,
    0.000006,
]


def _data(spec: dict, name: str | None = None) -> list[dict]:
    return spec["datasets"][name or spec["data"]["name"]]


def _layers(spec: dict) -> list[dict]:
    return spec["spec"]["layer"] if "spec" in spec else spec["layer"]


# --------------------------------------------------------------------------------------------
# binomial (figure 2.6)
# --------------------------------------------------------------------------------------------
def test_binomial_draws_the_given_probabilities_with_the_rejection_region():
    """Figure 2.6 with the notes' numbers: m = 10, ε0 = 0.3, α = 0.05. The critical count is
    5 (P(errors > 5) = 0.047 < 0.05 ≤ P(errors > 4), eq 2.27 as corrected in the notes)."""
    dist = pl.DataFrame({"errors": list(range(11)), "probability": NOTES_PROBABILITIES})
    assert stats.binom.sf(5, 10, 0.3) < 0.05 <= stats.binom.sf(4, 10, 0.3)
    spec = charts.binomial(dist, critical_count=5, m=10, eps0=0.3, alpha=0.05).to_dict()
    bars = [r for r in _data(spec) if r["__fe_layer"] == "bars"]
    assert [r["probability"] for r in bars] == NOTES_PROBABILITIES
    rejected = [r["errors"] for r in bars if r["__fe_region"].startswith("reject")]
    assert rejected == [6, 7, 8, 9, 10]
    critical = [r for r in _data(spec) if r["__fe_layer"] == "critical"]
    assert [(r["__fe_x"], r["__fe_text"]) for r in critical] == [(5.5, "ε̄ = 0.50 (5 errors)")]
    bar = spec["layer"][0]
    assert bar["mark"]["type"] == "bar"
    assert bar["encoding"]["y"]["field"] == "probability"
    assert bar["encoding"]["y2"] == {"datum": 0}
    assert bar["encoding"]["color"]["scale"]["domain"][1].startswith("reject")
    assert "m = 10, ε0 = 0.3, α = 0.05" in spec["title"]["subtitle"]


def test_binomial_critical_count_from_rate_or_columns():
    dist = ex.binomial_distribution()
    by_count = charts.binomial(dist, critical_count=5).to_dict()
    by_rate = charts.binomial(dist, critical_value=0.5, m=10).to_dict()
    from_columns = charts.binomial(
        dist.with_columns(critical_value=pl.lit(0.5), m=pl.lit(10), eps0=pl.lit(0.3))
    ).to_dict()

    def regions(spec):
        return [r["__fe_region"] for r in _data(spec) if r["__fe_layer"] == "bars"]

    assert regions(by_count) == regions(by_rate) == regions(from_columns)
    assert "ε0 = 0.3" in from_columns["title"]["subtitle"]


def test_binomial_with_the_reject_column_of_fe_binomial_distribution():
    """``fe.binomial_distribution(m, eps, alpha=)`` returns ``errors, error_rate, probability,
    reject``: the region is the reject column, the critical count its largest kept value."""
    dist = ex.binomial_distribution().with_columns(
        error_rate=pl.col("errors") / 10, reject=pl.col("errors") > 5
    )
    spec = charts.binomial(dist, eps0=0.3, alpha=0.05).to_dict()
    rejected = [
        r["errors"]
        for r in _data(spec)
        if r["__fe_layer"] == "bars" and r["__fe_region"].startswith("reject")
    ]
    assert rejected == [6, 7, 8, 9, 10]
    critical = [r["__fe_x"] for r in _data(spec) if r["__fe_layer"] == "critical"]
    assert critical == [5.5]


def test_binomial_critical_value_column_without_m_column():
    dist = ex.binomial_distribution().with_columns(critical_value=pl.lit(0.5))
    spec = charts.binomial(dist).to_dict()
    assert [r["__fe_x"] for r in _data(spec) if r["__fe_layer"] == "critical"] == [5.5]


def test_binomial_observed_and_facets():
    dist = pl.concat(
        [
            ex.binomial_distribution(10, 0.3).with_columns(learner=pl.lit("a"), critical_count=5),
            ex.binomial_distribution(10, 0.2).with_columns(learner=pl.lit("b"), critical_count=4),
        ]
    )
    spec = charts.binomial(dist, facet="learner", observed=3).to_dict()
    assert spec["facet"]["field"] == "learner"
    critical = {r["learner"]: r["__fe_x"] for r in _data(spec) if r["__fe_layer"] == "critical"}
    assert critical == {"a": 5.5, "b": 4.5}
    observed = [layer for layer in _layers(spec) if "data" in layer]
    assert {r["x"] for layer in observed for r in _data(spec, layer["data"]["name"])} == {3.0}


def test_binomial_needs_a_critical_value():
    with pytest.raises(InvalidParameterError, match=r"binomial\(\): the rejection region needs"):
        charts.binomial(ex.binomial_distribution())
    with pytest.raises(ColumnNotFoundError, match=r"binomial\(\): column 'errors' \(errors=\)"):
        charts.binomial(ex.binomial_distribution().rename({"errors": "k"}), critical_count=5)


# --------------------------------------------------------------------------------------------
# t distribution (figure 2.7)
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_t_distribution_shades_the_critical_regions(alternative):
    """The shaded tails hold probability α (scipy's t as oracle); for k = 10 error rates
    (df = 9) and α = 0.05 the two-sided critical value is 2.262 (figure 2.7's setting)."""
    df, alpha = 9, 0.05
    spec = charts.t_distribution(df, alpha=alpha, statistic=1.3, alternative=alternative).to_dict()
    tail = _data(spec, spec["layer"][0]["data"]["name"])
    density = _data(spec, spec["layer"][1]["data"]["name"])
    crit = stats.t.ppf(1 - (alpha / 2 if alternative == "two-sided" else alpha), df)
    if alternative == "two-sided":
        assert round(crit, 3) == 2.262
    lower = [r["t"] for r in tail if r["tail"] == "lower"]
    upper = [r["t"] for r in tail if r["tail"] == "upper"]
    if alternative in ("two-sided", "less"):
        assert max(lower) == pytest.approx(-crit, abs=1e-12)
    if alternative in ("two-sided", "greater"):
        assert min(upper) == pytest.approx(crit, abs=1e-12)
    assert not (alternative == "less" and upper) and not (alternative == "greater" and lower)
    for row in density[::40]:
        assert row["density"] == pytest.approx(stats.t.pdf(row["t"], df), abs=1e-12)
    rules = [layer for layer in spec["layer"] if layer["mark"]["type"] == "rule"]
    assert len(rules) == 2  # critical values and the statistic
    assert f"df = {df}" in spec["title"]["subtitle"]


def test_t_distribution_parameter_errors():
    with pytest.raises(InvalidParameterError, match=r"t_distribution\(\): df must be > 0, got 0"):
        charts.t_distribution(0)
    with pytest.raises(InvalidParameterError, match=r"alpha must be in \(0, 1\), got 1.5"):
        charts.t_distribution(5, alpha=1.5)
    with pytest.raises(InvalidParameterError, match=r"alternative must be"):
        charts.t_distribution(5, alternative="both")


# --------------------------------------------------------------------------------------------
# CD diagrams (figure 2.8, Demšar 2006 figure 1)
# --------------------------------------------------------------------------------------------
def test_cd_interval_is_rank_plus_minus_half_cd():
    """Figure 2.8 from Table 2.5: average ranks 1, 2.125, 2.875; CD = 2.344·√(3·4/(6·4)) (eq 2.36
    with Table 2.7's q_0.05 for k = 3)."""
    spec = charts.cd_diagram(ex.average_ranks(), cd=ex.BOOK_CD).to_dict()
    rows = [r for r in _data(spec) if r["__fe_layer"] == "rank"]
    for row in rows:  # each bar whole, centred on its rank (issue 32: no clipping at 1 and k)
        lo = row["average_rank"] - ex.BOOK_CD / 2
        hi = row["average_rank"] + ex.BOOK_CD / 2
        assert row["__fe_lo"] == pytest.approx(lo, abs=1e-12)
        assert row["__fe_hi"] == pytest.approx(hi, abs=1e-12)
        assert (row["__fe_lo"] + row["__fe_hi"]) / 2 == pytest.approx(row["average_rank"])
    assert min(r["__fe_lo"] for r in rows) < 1.0 and max(r["__fe_hi"] for r in rows) > 3.0
    segment, point = spec["layer"][1], spec["layer"][2]
    domain = segment["encoding"]["x"]["scale"]["domain"]
    assert domain == pytest.approx([1 - ex.BOOK_CD / 2, 2.875 + ex.BOOK_CD / 2])
    assert segment["encoding"]["x"]["axis"]["values"] == [1, 2, 3]  # ticks 1..k
    assert "dotted line: the right end of the best learner's bar" in " ".join(
        spec["title"]["subtitle"]
    )
    assert segment["mark"]["type"] == "rule" and segment["encoding"]["x2"]["field"] == "__fe_hi"
    assert point["encoding"]["x"]["field"] == "average_rank"
    assert point["encoding"]["y"]["sort"] == ["A", "B", "C"]
    best = [r for r in _data(spec) if r["__fe_layer"] == "best"]
    assert best[0]["__fe_x"] == pytest.approx(1 + ex.BOOK_CD / 2)


def test_cd_from_the_ranks_alone_is_nemenyis_critical_difference():
    """No cd=: the Nemenyi CD = q_α √(k(k+1)/6N) from the ranks frame's k and n_blocks (issue
    25); equal to fe.nemenyi's critical_value, per group, at the given alpha."""
    rng = np.random.default_rng(0)
    rows = [
        (metric, f"d{d}", f"m{m}", float(rng.random()))
        for metric, k in (("acc", 3), ("f1", 5))
        for d in range(6 if metric == "acc" else 9)
        for m in range(k)
    ]
    scores = pl.DataFrame(rows, schema=["metric", "dataset", "learner", "value"], orient="row")
    kw = {"block": "dataset", "learner": "learner", "by": "metric", "higher_is_better": True}
    ranks = fe.average_ranks(scores, "value", **kw)
    for alpha in (0.05, 0.1):
        spec = charts.cd_diagram(ranks, alpha=alpha).to_dict()
        got = {r["metric"]: r["cd"] for r in _data(spec) if r["__fe_layer"] == "rank"}
        want = (
            fe.nemenyi(scores, "value", alpha=alpha, **kw)
            .group_by("metric")
            .agg(pl.col("critical_value").first())
        )
        for metric, cd in want.iter_rows():
            assert got[metric] == pytest.approx(cd, abs=1e-12)
    assert got["acc"] == pytest.approx(fe.nemenyi_q(3, 0.1) * (3 * 4 / (6 * 6)) ** 0.5)
    book = ex.average_ranks().with_columns(n_blocks=pl.lit(4))
    spec = charts.cd_diagram(book).to_dict()
    cds = [r["cd"] for r in _data(spec) if r["__fe_layer"] == "rank"]
    assert cds == [pytest.approx(ex.BOOK_CD, abs=1e-3)] * 3  # Table 2.7's 2.344, rounded
    demsar = charts.cd_diagram(book, style="demsar").to_dict()
    assert [r["__fe_text"] for r in _data(demsar) if r["__fe_layer"] == "cd"] == ["CD = 1.66"]
    with pytest.raises(InvalidParameterError, match=r"cd_diagram\(\): alpha must be in"):
        charts.cd_diagram(book, alpha=1.5)


def test_cd_from_a_nemenyi_frame_or_column_and_facets():
    ranks = pl.concat(
        [
            ex.average_ranks().with_columns(metric=pl.lit("accuracy")),
            ex.demsar_ranks().with_columns(metric=pl.lit("f1")),
        ]
    )
    nemenyi = pl.DataFrame({"metric": ["accuracy", "f1"], "cd": [ex.BOOK_CD, ex.DEMSAR_CD]})
    spec = charts.cd_diagram(ranks, nemenyi).to_dict()
    assert spec["facet"]["field"] == "metric"
    assert spec["resolve"] == {"scale": {"y": "independent"}}
    cds = {r["metric"]: r["cd"] for r in _data(spec) if r["__fe_layer"] == "rank"}
    assert cds == {"accuracy": ex.BOOK_CD, "f1": ex.DEMSAR_CD}
    joined = ranks.join(nemenyi, on="metric")
    assert charts.cd_diagram(joined).to_dict() == spec


def test_cd_diagram_with_the_frames_of_fe_average_ranks_and_fe_nemenyi():
    """``fe.average_ranks`` adds ``n_blocks``; ``fe.nemenyi`` is a pairwise table with a ``cd``
    column repeated on every pair: neither extra column is taken for a key."""
    ranks = ex.average_ranks().with_columns(n_blocks=pl.lit(4))
    pairs = pl.DataFrame(
        {
            "a": ["A", "A", "B"],
            "b": ["B", "C", "C"],
            "rank_difference": [-1.125, -1.875, -0.75],
            "cd": [ex.BOOK_CD] * 3,
            "reject": [False, True, False],
        }
    )
    spec = charts.cd_diagram(ranks, pairs).to_dict()
    assert "facet" not in spec
    assert {r["cd"] for r in _data(spec) if r["__fe_layer"] == "rank"} == {ex.BOOK_CD}
    demsar = charts.cd_diagram(ranks, pairs, style="demsar").to_dict()
    bars = [(r["__fe_low"], r["__fe_high"]) for r in _data(demsar) if r["__fe_layer"] == "clique"]
    assert bars == [(1.0, 2.125), (2.125, 2.875)]


def test_demsar_cliques_golden():
    """Demšar (2006) §3.2.4: average ranks C4.5 3.143, C4.5+m 2.000, C4.5+cf 2.893,
    C4.5+m+cf 1.964. At α = 0.05 (CD = 1.25) no pair differs: one clique of all four. At
    α = 0.10 (CD = 1.12) C4.5 is worse than C4.5+m and C4.5+m+cf (differences 1.143, 1.179 >
    1.12), leaving the cliques {C4.5+m+cf, C4.5+m, C4.5+cf} and {C4.5+cf, C4.5}."""
    ranks = ex.demsar_ranks().with_columns(cd=pl.lit(ex.DEMSAR_CD))
    assert cliques(ranks, "learner", "average_rank", []).select("low", "high").rows() == [
        (1.964, 3.143)
    ]
    ranks = ranks.with_columns(cd=pl.lit(ex.DEMSAR_CD_10))
    assert cliques(ranks, "learner", "average_rank", []).select("low", "high").rows() == [
        (1.964, 2.893),
        (2.893, 3.143),
    ]


def _brute_force_cliques(ranks: list[float], cd: float) -> set[tuple[float, float]]:
    """Maximal sets of learners with max − min rank ≤ cd (over all subsets), of size ≥ 2."""
    groups = []
    for size in range(2, len(ranks) + 1):
        for subset in itertools.combinations(sorted(ranks), size):
            if subset[-1] - subset[0] <= cd + 1e-12:
                groups.append(subset)
    maximal = [g for g in groups if not any(set(g) < set(h) for h in groups)]
    return {(g[0], g[-1]) for g in maximal}


@given(
    ranks=st.lists(st.integers(4, 40).map(lambda v: v / 4), min_size=2, max_size=7, unique=True),
    cd=st.integers(1, 24).map(lambda v: v / 8),
)
def test_cliques_against_brute_force(ranks, cd):
    frame = pl.DataFrame(
        {"learner": [f"l{i}" for i in range(len(ranks))], "average_rank": ranks, "cd": cd}
    )
    found = cliques(frame, "learner", "average_rank", [])
    assert set(found.select("low", "high").rows()) == _brute_force_cliques(ranks, cd)
    assert found.get_column("clique").to_list() == list(range(found.height))


def test_cliques_grouped_equal_per_group():
    a = ex.demsar_ranks().with_columns(cd=pl.lit(ex.DEMSAR_CD_10), metric=pl.lit("a"))
    b = ex.average_ranks().with_columns(cd=pl.lit(ex.BOOK_CD), metric=pl.lit("b"))
    together = cliques(pl.concat([a, b]), "learner", "average_rank", ["metric"])
    alone = pl.concat([cliques(p, "learner", "average_rank", ["metric"]) for p in (a, b)])
    assert together.sort("metric", "clique").equals(alone.sort("metric", "clique"))


def test_demsar_layout():
    spec = charts.cd_diagram(ex.demsar_ranks(), cd=ex.DEMSAR_CD_10, style="demsar").to_dict()
    rows = _data(spec)
    layers = {r["__fe_layer"] for r in rows}
    assert layers == {"left", "right", "axis", "tick", "cd", "clique"}
    left = {r["learner"] for r in rows if r["__fe_layer"] == "left"}
    right = {r["learner"] for r in rows if r["__fe_layer"] == "right"}
    assert left == {"C4.5+m+cf", "C4.5+m"} and right == {"C4.5+cf", "C4.5"}
    ticks = sorted(r["__fe_x"] for r in rows if r["__fe_layer"] == "tick")
    assert ticks == [1.0, 2.0, 3.0, 4.0]
    cd = [r for r in rows if r["__fe_layer"] == "cd"][0]
    assert cd["__fe_x2"] - cd["__fe_x"] == pytest.approx(ex.DEMSAR_CD_10)
    assert cd["__fe_text"] == "CD = 1.12"
    bars = sorted((r["__fe_low"], r["__fe_high"]) for r in rows if r["__fe_layer"] == "clique")
    assert bars == [(1.964, 2.893), (2.893, 3.143)]
    # labels: the outermost learner of each side sits lowest (lines never cross)
    lefts = sorted((r["average_rank"], r["__fe_y"]) for r in rows if r["__fe_layer"] == "left")
    assert lefts[0][1] > lefts[1][1]
    aligns = [
        layer["mark"].get("align") for layer in spec["layer"] if layer["mark"]["type"] == "text"
    ]
    assert "right" in aligns and "left" in aligns


def _demsar_frames():
    import frameeval as fe
    from tests.compare.test_demsar_example import table

    df = table(paper_order=True)
    kw = dict(block="data_set", higher_is_better=True)
    return fe, df, kw, fe.average_ranks(df, "auc", **kw)


def _bars(spec: dict) -> list[tuple[float, float]]:
    return sorted(
        (r["__fe_low"], r["__fe_high"]) for r in _data(spec) if r["__fe_layer"] == "clique"
    )


def test_cd_diagram_from_each_procedure():
    """Issue 17: cliques drawn from the decisions of Nemenyi, Wilcoxon–Holm and Bonferroni–Dunn
    (``fe.cliques`` of their ``reject``); the CD bar only where a CD exists."""
    fe, df, kw, ranks = _demsar_frames()
    nemenyi = fe.nemenyi(df, "auc", alpha=0.10, **kw)
    spec = charts.cd_diagram(ranks, nemenyi, test="nemenyi").to_dict()
    # Demšar's figure 1 at α = 0.10: {m+cf, m, cf} and {cf, C4.5}, as the CD layout gives
    assert _bars(spec) == _bars(charts.cd_diagram(ranks, nemenyi, style="demsar").to_dict())
    assert len(_bars(spec)) == 2
    assert [r["__fe_text"] for r in _data(spec) if r["__fe_layer"] == "cd"] == ["CD = 1.12"]

    holm = fe.wilcoxon(df, "auc", adjust="holm", **kw)
    spec = charts.cd_diagram(ranks, holm, test="wilcoxon_holm").to_dict()
    members = fe.cliques(holm, ranks)
    expected = sorted(
        (p["average_rank"].min(), p["average_rank"].max()) for p in members.partition_by("clique")
    )
    np.testing.assert_allclose(_bars(spec), expected, rtol=1e-12)
    assert not [r for r in _data(spec) if r["__fe_layer"] == "cd"]
    assert "Holm" in str(spec["title"])

    dunn = fe.bonferroni_dunn(df, "auc", control="C4.5", alpha=0.10, **kw)
    spec = charts.cd_diagram(ranks, dunn, test="bonferroni_dunn").to_dict()
    # C4.5 differs from C4.5+m and C4.5+m+cf, not from C4.5+cf
    np.testing.assert_allclose(_bars(spec), [(40.5 / 14, 44 / 14)], rtol=1e-12)
    texts = [r["__fe_text"] for r in _data(spec) if r["__fe_layer"] in ("left", "right")]
    assert "C4.5 (3.143) (control)" in texts
    cd = dunn["critical_value"][0]
    assert [r["__fe_x2"] for r in _data(spec) if r["__fe_layer"] == "cd"] == [1 + cd]


def test_cd_diagram_against_a_control_and_by_groups():
    fe, df, kw, ranks = _demsar_frames()
    nemenyi = fe.nemenyi(df, "auc", alpha=0.10, **kw)
    spec = charts.cd_diagram(ranks, nemenyi, test="nemenyi", control="C4.5+m+cf").to_dict()
    np.testing.assert_allclose(_bars(spec), [(27.5 / 14, 40.5 / 14)], rtol=1e-12)
    two = pl.concat([df.with_columns(metric=pl.lit(m)) for m in ("auc", "auc2")])
    ranks2 = fe.average_ranks(two, "auc", by="metric", **kw)
    pairs2 = fe.nemenyi(two, "auc", by="metric", alpha=0.10, **kw)
    spec = charts.cd_diagram(ranks2, pairs2, test="nemenyi").to_dict()
    assert spec["facet"]["field"] == "metric"
    assert len(_bars(spec)) == 4


def test_cd_diagram_test_errors():
    fe, df, kw, ranks = _demsar_frames()
    with pytest.raises(InvalidParameterError, match=r"test must be 'nemenyi', 'wilcoxon_holm'"):
        charts.cd_diagram(ranks, 1.0, test="tukey")
    with pytest.raises(InvalidParameterError, match=r"need the pairwise frame of the procedure"):
        charts.cd_diagram(ranks, 1.0, test="nemenyi")
    with pytest.raises(InvalidParameterError, match=r"draw the 'demsar' layout"):
        charts.cd_diagram(ranks, fe.nemenyi(df, "auc", **kw), test="nemenyi", style="interval")
    plain = fe.wilcoxon(df, "auc", **kw)
    with pytest.raises(InvalidParameterError, match=r"needs Holm-corrected comparisons"):
        charts.cd_diagram(ranks, plain, test="wilcoxon_holm")


def test_cd_diagram_errors():
    with pytest.raises(InvalidParameterError, match=r"cd_diagram\(\): cd= is required"):
        charts.cd_diagram(ex.average_ranks())
    with pytest.raises(InvalidParameterError, match=r"cd_diagram\(\): cd must be > 0, got -1"):
        charts.cd_diagram(ex.average_ranks(), cd=-1)
    with pytest.raises(InvalidParameterError, match=r"style must be 'interval' or 'demsar'"):
        charts.cd_diagram(ex.average_ranks(), cd=1.0, style="box")
    with pytest.raises(
        ColumnNotFoundError,
        match=r"cd_diagram\(\): learner= must be given when "
        r"no column has a common learner name",
    ):
        charts.cd_diagram(ex.average_ranks().rename({"learner": "method"}), cd=1.0)
    with pytest.raises(ColumnNotFoundError, match=r"column 'nope' \(learner=\) not found"):
        charts.cd_diagram(ex.average_ranks(), cd=1.0, learner="nope")
    # a common learner name is inferred (issue 15)
    charts.cd_diagram(ex.average_ranks().rename({"learner": "model"}), cd=1.0)


# --------------------------------------------------------------------------------------------
# rank heatmap and metric distribution
# --------------------------------------------------------------------------------------------
def test_rank_heatmap():
    spec = charts.rank_heatmap(ex.rank_table(), ex.average_ranks()).to_dict()
    rect, text = spec["layer"]
    assert rect["mark"]["type"] == "rect" and text["mark"]["type"] == "text"
    # learners by mean rank over the blocks (not the average row): an explicit order, so that
    # Vega-Lite does not drop it on the layered marks ("unioned domains" warning, issue 18)
    table = ex.rank_table()
    means = {
        name: statistics.mean(table.filter(pl.col("learner") == name).get_column("rank"))
        for name in table.get_column("learner").unique()
    }
    assert rect["encoding"]["x"]["sort"] == sorted(means, key=lambda n: (means[n], n))
    assert text["encoding"]["x"]["sort"] == rect["encoding"]["x"]["sort"]
    assert rect["encoding"]["y"]["sort"] == ["D1", "D2", "D3", "D4", "average rank"]
    assert rect["encoding"]["color"]["scale"]["domain"] == [1, 3]
    values = {(r["__fe_block"], r["learner"]): r["__fe_value"] for r in _data(spec)}
    assert values[("D2", "B")] == 2.5 and values[("average rank", "B")] == 2.125
    assert text["encoding"]["text"]["field"] == "__fe_value"


def test_rank_heatmap_with_the_metric_column_of_fe_rank_table():
    """``fe.rank_table`` returns ``block, learner, <metric>, rank``: the float metric is not a
    block; it is shown in the tooltip."""
    ranks = ex.rank_table().with_columns(accuracy=1 - pl.col("rank") / 10)
    spec = charts.rank_heatmap(ranks).to_dict()
    rect = spec["layer"][0]
    assert rect["encoding"]["y"]["axis"]["title"] == "dataset"
    assert rect["encoding"]["tooltip"][-1]["field"] == "accuracy"


def test_rank_heatmap_combines_block_columns():
    ranks = ex.rank_table().with_columns(fold=pl.lit(0))
    spec = charts.rank_heatmap(ranks, block=["dataset", "fold"]).to_dict()
    assert spec["layer"][0]["encoding"]["y"]["axis"]["title"] == "dataset · fold"
    assert {r["__fe_block"] for r in _data(spec)} == {"D1 · 0", "D2 · 0", "D3 · 0", "D4 · 0"}


def test_metric_distribution():
    scores = ex.metric_table()
    spec = charts.metric_distribution(scores, facet="dataset").to_dict()
    box, points = spec["spec"]["layer"]
    assert box["mark"]["type"] == "boxplot" and points["mark"]["type"] == "point"
    assert box["encoding"]["y"]["field"] == "accuracy"
    medians = {
        name: statistics.median(scores.filter(pl.col("learner") == name).get_column("accuracy"))
        for name in scores.get_column("learner").unique()
    }
    expected = sorted(medians, key=lambda n: (-medians[n], n))
    assert box["encoding"]["x"]["sort"] == expected == points["encoding"]["x"]["sort"]
    assert points["encoding"]["xOffset"]["field"] == "__fe_jitter"
    assert {t["title"] for t in points["encoding"]["tooltip"]} == {
        "learner",
        "dataset",
        "fold",
        "accuracy",
    }
    assert sorted(r["accuracy"] for r in _data(spec)) == sorted(scores.get_column("accuracy"))
    jitter = [r["__fe_jitter"] for r in _data(spec)]
    assert all(-0.5 <= j < 0.5 for j in jitter)
    no_points = charts.metric_distribution(scores, "accuracy", points=False).to_dict()
    assert no_points["layer"][0]["encoding"]["x"]["axis"]["labelAngle"] == 0  # short names
    assert [layer["mark"]["type"] for layer in no_points["layer"]] == ["boxplot"]


def test_metric_distribution_needs_a_metric_when_ambiguous():
    scores = ex.metric_table().with_columns(f1=pl.col("accuracy") - 0.1)
    with pytest.raises(InvalidParameterError, match=r"metric= must name the column"):
        charts.metric_distribution(scores)
    assert (
        charts.metric_distribution(scores, "f1").to_dict()["layer"][0]["encoding"]["y"]["field"]
        == "f1"
    )


def test_long_learner_names_are_angled_not_truncated_or_colliding():
    """Issue 18: names such as ``decision_treeknnlogistic_regression`` ran together."""
    scores = ex.metric_table().with_columns(
        pl.concat_str(pl.lit("a_rather_long_learner_name_"), "learner").alias("learner")
    )
    axis = charts.metric_distribution(scores, width=200).to_dict()["layer"][0]["encoding"]["x"][
        "axis"
    ]
    assert axis["labelAngle"] == -40 and axis["labelAlign"] == "right"
    assert axis["labelLimit"] >= 200 and axis["labelOverlap"] is False
    ranks = ex.rank_table().with_columns(
        pl.concat_str(pl.lit("a_rather_long_learner_name_"), "learner").alias("learner")
    )
    top = charts.rank_heatmap(ranks).to_dict()["layer"][0]["encoding"]["x"]["axis"]
    assert top["labelAngle"] == -40 and top["labelAlign"] == "left"
