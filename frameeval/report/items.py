"""The report on an item-level study: k models on the same items of one or more benchmarks
(``frameeval report --item item [--cluster cluster] [--sample epoch]``).

The page answers first — per benchmark, which model is best, by how much, paired (and
clustered) against each other model, with the leaderboard's tie groups; across benchmarks,
Friedman's rank test and Nemenyi's pairs — then shows the leaderboard chart, the means with
their naive and clustered standard errors (and the within/between-item split with K answers),
every pair's paired comparison and the power of each comparison. Every number comes from
:mod:`frameeval.items` and :mod:`frameeval.compare`; this module only chooses what to show.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl

from frameeval import charts, items
from frameeval._frame import collect, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._validate import check_alpha
from frameeval.compare import friedman, nemenyi
from frameeval.compare.words import format_p
from frameeval.exceptions import InvalidParameterError
from frameeval.report.page import Page, check_new, write_atomic

__all__ = ["ITEM_STEPS", "ItemRoles", "build_items_report", "infer_item_roles", "items_report"]


class ItemSteps(NamedTuple):
    """The progress steps of an item-level report, in order."""

    compare: str = "comparing models item by item"
    leaderboard: str = "leaderboard"
    means: str = "means and standard errors"
    power: str = "power"
    ranks: str = "rank tests across benchmarks"


#: The progress steps of an item-level report.
ITEM_STEPS = ItemSteps()
#: Common column names of each role, first match wins.
COMMON = {
    "score": ("correct", "score", "accuracy", "acc", "value"),
    "model": ("model", "learner", "system"),
    "benchmark": ("benchmark", "task", "dataset"),
}
#: Bootstrap replicates of the leaderboard's rank intervals.
N_RESAMPLES = 1000
#: ... fewer (at least :data:`MIN_RESAMPLES`) when models × clusters × replicates would pass this
#: many rows (the bootstrap table of a 2M-row study of 10,000-item benchmarks)
MAX_REPLICATE_ROWS = 20_000_000
MIN_RESAMPLES = 200
REFERENCES = {
    "answer": "Paired differences on shared items, clustered standard errors on C − 1 df "
    "(Miller 2024, 'Adding Error Bars to Evals'); exact McNemar for one 0/1 answer per item; "
    "Holm's correction over all pairs × benchmarks.",
    "leaderboard": "Rank = 1 + the number of models whose interval lies wholly above (Chatbot "
    "Arena); intervals from a paired cluster bootstrap over the items.",
    "ranks": "Demšar (2006): Friedman's test of equal average ranks over the benchmarks, "
    "Nemenyi's critical difference (Zhou §2.4.4, eqs 2.34–2.36).",
    "means": "Naive SE s/√n against the clustered SE (1/n)·√(C/(C−1)·Σ_c(Σ_{i∈c}(x_i − x̄))²); "
    "with K answers per item, Var(x̄) = (ω² + σ²/K)/n.",
    "power": "n = (z_{1−α/2} + z_{1−β})²·(ω² + σ_a²/K_a + σ_b²/K_b)/δ² (Miller 2024, §5), "
    "inverted for the minimum detectable difference at the current n; power 0.8.",
}


@dataclass(frozen=True)
class ItemRoles:
    """The columns of an item-level study."""

    score: str
    model: str
    item: str
    benchmark: str | None = None
    cluster: str | None = None
    sample: str | None = None

    def describe(self) -> str:
        named = {k: v for k, v in vars(self).items() if v is not None}
        return ", ".join(f"{k}={v!r}" for k, v in named.items())


#: the columns of an item-level study, declared in the order of :class:`ItemRoles` (any dtype
#: here: the item functions the report calls check their own)
_ITEM_INPUTS = Inputs(*(Column(role) for role in ItemRoles.__dataclass_fields__))


def infer_item_roles(
    schema: pl.Schema,
    *,
    item: str,
    score: str | None = None,
    model: str | None = None,
    benchmark: str | None = None,
    cluster: str | None = None,
    sample: str | None = None,
    where: str = "report()",
) -> ItemRoles:
    """The roles given, the others from :data:`COMMON` names (``score`` and ``model`` are
    required; a missing benchmark column means one benchmark)."""
    found: dict[str, str | None] = {"score": score, "model": model, "benchmark": benchmark}
    for role, names in COMMON.items():  # loop-ok: three roles
        if found[role] is None:
            found[role] = next((n for n in names if n in schema and n != item), None)
    for role in ("score", "model"):  # loop-ok: two roles
        if found[role] is None:
            raise InvalidParameterError(
                f"{where}: the {role} column must be given (--{'learner' if role == 'model' else role}) "
                f"or named {', '.join(COMMON[role])}, got columns {list(schema.names())}."
            )
    roles = ItemRoles(
        score=str(found["score"]),
        model=str(found["model"]),
        item=item,
        benchmark=found["benchmark"],
        cluster=cluster,
        sample=sample,
    )
    _ITEM_INPUTS.compile(schema, where.removesuffix("()"), **vars(roles))
    return roles


@dataclass
class _Tables:
    board: pl.DataFrame
    pairs: pl.DataFrame
    means: pl.DataFrame
    naive: pl.DataFrame
    power: pl.DataFrame
    #: the bootstrap replicates of the leaderboard
    resamples: int
    #: the pairs without clustering (the effect of pairing alone), None without cluster=
    flat: pl.DataFrame | None = None


def _tables(
    lf: pl.LazyFrame, roles: ItemRoles, alpha: float, say: Callable[[str], None]
) -> _Tables:
    common: dict[str, Any] = {"model": roles.model, "item": roles.item, "by": roles.benchmark}
    common["sample"] = roles.sample
    data = collect(lf)
    say(ITEM_STEPS.compare)
    pairs = items.compare(data, roles.score, cluster=roles.cluster, alpha=alpha, **common)
    say(ITEM_STEPS.leaderboard)
    keys = [k for k in (roles.benchmark, roles.model, roles.cluster or roles.item) if k]
    units = data.select(keys).n_unique()
    resamples = max(MIN_RESAMPLES, min(N_RESAMPLES, MAX_REPLICATE_ROWS // max(units, 1)))
    board = items.leaderboard(
        data, roles.score, cluster=roles.cluster, n_resamples=resamples, seed=0, **common
    )
    say(ITEM_STEPS.means)
    means = items.means(data, roles.score, cluster=roles.cluster, level=1 - alpha, **common)
    naive = items.means(data, roles.score, method="clt", level=1 - alpha, **common)
    say(ITEM_STEPS.power)
    power = items.power(data, roles.score, alpha=alpha, **common)
    flat = None
    if roles.cluster is not None:
        flat = items.compare(data, roles.score, alpha=alpha, **common)
    return _Tables(board, pairs, means, naive, power, resamples, flat)


def _fmt(x: Any, digits: int = 3) -> str:
    """A number with ``digits`` decimals; — for a missing one."""
    return "—" if x is None else f"{float(x):.{digits}f}"


def _verdicts(t: _Tables, roles: ItemRoles, alpha: float) -> list[str]:
    """One sentence per benchmark: the best model, its margin, the paired tests, the tie group."""
    keys = [roles.benchmark] if roles.benchmark else []
    out = []
    groups = t.board.partition_by(keys, maintain_order=True) if keys else [t.board]
    for board in groups:  # loop-ok: one sentence per benchmark
        name = str(board[roles.benchmark][0]) if roles.benchmark else "the items"
        top = board.sort("position")
        best = str(top[roles.model][0])
        pairs = t.pairs
        if roles.benchmark:
            pairs = pairs.filter(pl.col(roles.benchmark) == board[roles.benchmark][0])
        mine = pairs.filter((pl.col("a") == best) | (pl.col("b") == best)).with_columns(
            pl.when(pl.col("a") == best).then(pl.col("b")).otherwise(pl.col("a")).alias("other"),
            pl.when(pl.col("a") == best)
            .then(pl.col("difference"))
            .otherwise(-pl.col("difference"))
            .alias("margin"),
        )
        runner = mine.sort("margin").head(1)
        tied = top.filter(pl.col("tie_group") == 1)[roles.model].to_list()
        beaten = mine.filter(pl.col("reject") & (pl.col("margin") > 0))["other"].to_list()
        sentence = (
            f"On {name} ({top['n_items'][0]} items), {best} is best with a mean of "
            f"{_fmt(top['mean'][0])}."
        )
        if runner.height:
            r = runner.row(0, named=True)
            lead = (
                f"ties with {r['other']}"
                if abs(r["margin"]) < 5e-4
                else f"leads {r['other']} by {_fmt(r['margin'])}"
            )
            sentence += (
                f" It {lead} (paired SE {_fmt(r['se'])}, {r['test']}, adjusted "
                f"{format_p(r['p_adjusted'])}; per-item correlation "
                f"{_fmt(r['correlation'], 2)})."
            )
        if beaten:
            sentence += f" It is significantly better than {', '.join(beaten)} (α = {alpha:g})."
        else:
            sentence += f" No paired difference from it is significant (α = {alpha:g})."
        if len(tied) > 1:
            sentence += f" Top tie group (overlapping rank intervals): {', '.join(tied)}."
        out.append(sentence)
    return out


def _answer(page: Page, t: _Tables, roles: ItemRoles, alpha: float) -> None:
    page.heading("The answer", REFERENCES["answer"])
    how = "clustered by " + repr(roles.cluster) if roles.cluster else "paired on the items"
    samples = (
        f"; each item's score the mean of its answers over {roles.sample!r}" if roles.sample else ""
    )
    page.text(f"Every pair of models compared item by item ({how}{samples}).", css="note")
    for sentence in _verdicts(t, roles, alpha):  # loop-ok: one per benchmark
        page.text(sentence, css="verdict")


def _leaderboard(page: Page, t: _Tables, roles: ItemRoles) -> None:
    page.heading("Leaderboard", REFERENCES["leaderboard"])
    page.text(f"{t.resamples:,} bootstrap replicates (seed 0).", css="note")
    page.chart(charts.leaderboard(t.board, model=roles.model))
    page.table(t.board.with_columns(pl.col("mean", "ci_low", "ci_high").round(4)), "Leaderboard")
    page.download("leaderboard.csv", "text/csv", t.board.write_csv())


def _rank_tests(page: Page, t: _Tables, roles: ItemRoles, alpha: float) -> None:
    page.heading("Across benchmarks: rank tests", REFERENCES["ranks"])
    if roles.benchmark is None:
        page.text(
            "One benchmark (no benchmark column): no rank test across benchmarks.", css="skip"
        )
        return
    cells = t.board.select(roles.benchmark, roles.model, "mean")
    n = cells[roles.benchmark].n_unique()
    if n < 2:
        page.text(f"One benchmark ({n}): no rank test across benchmarks.", css="skip")
        return
    common: dict[str, Any] = {
        "block": roles.benchmark,
        "learner": roles.model,
        "higher_is_better": True,
        "alpha": alpha,
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test = friedman(cells, "mean", **common)
        pairs = nemenyi(cells, "mean", **common)
    for note in dict.fromkeys(str(w.message) for w in caught):  # loop-ok: a warning or two
        page.text(f"Note: {note}", css="note")
    row = test.row(0, named=True)
    verdict = "reject" if row["reject"] else "do not reject"
    page.text(
        f"Friedman's test over {n} benchmarks and {row['n_learners']} models: we {verdict} "
        f"equal average ranks (Iman–Davenport F = {_fmt(row['statistic'], 2)} on "
        f"{row['df1']} and {row['df2']} df, {format_p(row['p_value'])}). With few benchmarks the test has little power: a "
        "model best on every benchmark can still not separate.",
        css="verdict",
    )
    page.table(test, "Friedman test")
    page.table(pairs, "Nemenyi pairs (average ranks)")


def _means(page: Page, t: _Tables, roles: ItemRoles) -> None:
    page.heading("Means and standard errors", REFERENCES["means"])
    keys = [k for k in (roles.benchmark, roles.model) if k]
    naive = t.naive.select(*keys, pl.col("se").alias("se_naive"))
    table = t.means.join(naive, on=keys).with_columns(
        (pl.col("se") / pl.col("se_naive")).alias("se_ratio")
    )
    if roles.cluster:
        ratios = table["se_ratio"].drop_nulls()
        page.text(
            f"Clustering by {roles.cluster!r} changes the standard error by a factor "
            f"{_fmt(ratios.min(), 2)}–{_fmt(ratios.max(), 2)} (median {_fmt(ratios.median(), 2)}) "
            "over the naive s/√n.",
            css="note",
        )
    page.table(table.with_columns(pl.selectors.float().round(4)), "Means per benchmark and model")


def _pairs(page: Page, t: _Tables, roles: ItemRoles) -> None:
    page.heading("Every pair of models")
    flat = t.flat if t.flat is not None else t.pairs
    ratio = (flat["se"] / flat["se_unpaired"]).drop_nulls()
    if ratio.len():
        page.text(
            f"Pairing on the items: the paired SE of a difference (not clustered) is "
            f"{_fmt(ratio.median(), 2)} × the unpaired one (median over the pairs; range "
            f"{_fmt(ratio.min(), 2)}–{_fmt(ratio.max(), 2)}): the per-item correlation of the "
            "models is taken out. The table's se is the paired"
            + (" and clustered" if t.flat is not None else "")
            + " one.",
            css="note",
        )
    page.table(t.pairs.with_columns(pl.selectors.float().round(4)), "Paired comparisons")
    page.download("pairs.csv", "text/csv", t.pairs.write_csv())


def _power(page: Page, t: _Tables) -> None:
    page.heading("Power", REFERENCES["power"])
    page.table(
        t.power.with_columns(pl.selectors.float().round(4)),
        "Minimum detectable difference (mde) at the current number of items",
    )


def build_items_report(
    data: Any,
    roles: ItemRoles,
    *,
    alpha: float = 0.05,
    title: str = "frameeval report",
    progress: Callable[[str], None] | None = None,
) -> Page:
    """The item-level page (see the module docstring)."""
    say = progress or (lambda message: None)
    lf, _ = to_lazy(data, "report")
    t = _tables(lf, roles, alpha, say)
    page = Page(title=title)
    _answer(page, t, roles, alpha)
    _leaderboard(page, t, roles)
    say(ITEM_STEPS.ranks)
    _rank_tests(page, t, roles, alpha)
    _means(page, t, roles)
    _pairs(page, t, roles)
    _power(page, t)
    return page


def items_report(
    data: Any,
    path: str | Path,
    *,
    item: str,
    score: str | None = None,
    model: str | None = None,
    benchmark: str | None = None,
    cluster: str | None = None,
    sample: str | None = None,
    alpha: float = 0.05,
    title: str = "frameeval report",
    force: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """Write the report on an item-level study to ``path`` (one offline HTML file).

    One row per ``benchmark × model × item`` (× ``sample``), a score or 0/1 correct flag, every
    model scored on every item of its benchmark. ``score``, ``model`` and ``benchmark`` are
    inferred from common column names (correct / score, model / learner, benchmark / task /
    dataset) when not given.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from frameeval.report.items import items_report
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "items.html"
    >>> small = fe.datasets.items_results().filter(pl.col("benchmark") == "wine")
    >>> items_report(small, out, item="item", cluster="cluster", sample="epoch").name
    'items.html'
    """
    check_new(path, force)  # fail before the work, not after it
    check_alpha(alpha, "report")
    lf, _ = to_lazy(data, "report")
    roles = infer_item_roles(
        lf.collect_schema(),
        item=item,
        score=score,
        model=model,
        benchmark=benchmark,
        cluster=cluster,
        sample=sample,
    )
    page = build_items_report(lf, roles, alpha=alpha, title=title, progress=progress)
    return write_atomic(path, page.render(), force=force)
