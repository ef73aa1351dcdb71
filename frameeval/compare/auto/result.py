"""The result of the automatic comparison (:class:`Comparison`) and its verdict text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._extensions import provider
from frameeval.compare.auto.context import MEAN_BASED, PAIR_PROCEDURES, TEST_NAMES, Context
from frameeval.compare.auto.display import comparison_html
from frameeval.compare.words import format_p, format_value
from frameeval.exceptions import InsufficientDataError
from frameeval.metrics.measure import display_name

__all__ = ["Comparison", "verdict_table"]


# ---------------------------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare_learners`. Every frame starts with the ``by`` keys.

    Attributes
    ----------
    procedure
        The procedure used: ``"t"``, ``"wilcoxon"``, ``"anova"``, ``"friedman"``,
        ``"skillings_mack"``, ``"bayes_signed_rank"``, on one data set's splits
        ``"corrected_t"``, ``"cv5x2_f"``, ``"cv5x2_t"``, ``"bayes_correlated_t"``, or
        ``"none"`` (nothing could be tested);
        with ``by`` groups that used different procedures, their names joined by ``", "``
        (``design`` has the procedure of each group).
    verdict
        A short paragraph in words; with ``by``, one paragraph per group, each starting with its
        keys, separated by blank lines (``verdicts`` has them as a frame).
    design
        ``*by, procedure, omnibus_test, post_hoc_test, n_learners, n_blocks, n_missing, reason``:
        one row per group; ``reason`` says in words why this procedure.
    checks
        ``*by, check, learner, statistic, p_value, alpha, passed``: the assumption checks that
        chose the procedure — ``"shapiro_wilk"`` per learner (α/k, Bonferroni), then
        ``"bartlett"`` (all normal) or ``"levene"`` (median-centred) for equal variances
        (k > 2 only; ``learner`` null). Empty for groups that were not checked (forced
        procedure, missing cells, a ROPE, fewer than 3 blocks).
    omnibus
        ``*by, test, n_learners, n_blocks, statistic, df1, df2, p_value, critical_value,
        alpha, reject, chi2, chi2_p_value`` (one row per group tested; ``chi2`` and
        ``chi2_p_value`` are Friedman's χ² form, null for the other tests).
    post_hoc
        ``*by, test, a, b, difference, statistic, p_value, p_adjusted, critical_value, alpha,
        reject, better, cohen_d, cliff_delta, p_a_better, p_rope, p_b_better``: one row per
        pair (a < b). On splits: ``p_value`` the pair's raw p-value, ``p_adjusted`` the Holm
        (Shaffer) adjusted one, ``reject`` = ``p_adjusted`` < α, ``difference`` the mean a − b
        over the splits, ``cohen_d`` (d_z) and ``cliff_delta`` of the paired split values,
        ``critical_value`` null; over data sets these three are null. ``difference`` is
        the rank difference (Nemenyi, a − b; Skillings–Mack: of the mean within-block ranks),
        the mean difference (t test, Tukey), the median of the differences (Wilcoxon) or the
        posterior mean difference (Bayesian); ``p_value`` is family-wise for k > 2 (Nemenyi,
        Tukey, and Holm-adjusted for the Skillings–Mack z tests ``"skillings_mack_holm"``);
        ``better`` the better learner of a rejected pair; the three probabilities only for the
        Bayesian test (where ``reject`` means one of ``p_a_better``, ``p_b_better`` is
        ≥ 1 − α).
    ranks
        ``*by, learner, position, average_rank, mean, std, median, mad, n_blocks, cd``:
        ``position`` 1 = the best learner by the procedure's criterion (average rank for the
        rank tests, mean for the t test and ANOVA); ``mad`` the raw median absolute
        deviation; ``cd`` the Nemenyi critical difference of the group (what the CD diagram
        draws).
    effect_sizes
        ``*by, learner, reference, effect_size, method, magnitude``: each learner against the
        best (``reference``), oriented so that a positive value means the best is better;
        ``method`` ``"cohen_d"`` (normal) or ``"akinshin_gamma"`` (otherwise), ``magnitude``
        ``negligible / small / medium / large`` (|d| < 0.2, 0.5, 0.8; autorank's thresholds).
    cliques
        ``*by, clique, learner``: maximal runs of learners, in ``position`` order, no two of
        which differ significantly by the post-hoc test (single learners included).
    verdicts
        ``*by, verdict``.
    per_data_set
        With several data sets each evaluated on splits (a fold column): the split-level
        :class:`Comparison` of every data set (frames keyed by ``*by, <block>``: every pair by
        the corrected resampled t test, Holm-adjusted, or another procedure for correlated
        splits); None otherwise. On one data set's splits the result itself is split-level:
        ``design`` then also has ``n_repeats, n_folds, n_dropped, test_train_ratio`` and
        ``n_blocks`` counts the (complete) splits; ``omnibus`` is empty.
    """

    procedure: str
    verdict: str
    design: pl.DataFrame
    checks: pl.DataFrame
    omnibus: pl.DataFrame
    post_hoc: pl.DataFrame
    ranks: pl.DataFrame
    effect_sizes: pl.DataFrame
    cliques: pl.DataFrame
    verdicts: pl.DataFrame
    metric: str
    learner: str
    block: str
    by: tuple[str, ...]
    alpha: float
    higher_is_better: bool
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: with several data sets, each evaluated on splits (a fold column): the split-level
    #: comparison of every data set (its frames keyed by ``*by, <block>``); else None
    per_data_set: Comparison | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return self.verdict

    def to_frame(self) -> dict[str, pl.DataFrame]:
        """The result as tidy frames, by name: ``design``, ``checks``, ``omnibus``,
        ``post_hoc``, ``ranks``, ``effect_sizes``, ``cliques``, ``verdicts`` (see the class
        attributes for their columns). Each frame starts with the ``by`` keys."""
        return {
            "design": self.design,
            "checks": self.checks,
            "omnibus": self.omnibus,
            "post_hoc": self.post_hoc,
            "ranks": self.ranks,
            "effect_sizes": self.effect_sizes,
            "cliques": self.cliques,
            "verdicts": self.verdicts,
        }

    def chart(self, *, style: Literal["interval", "demsar"] = "demsar", **kwargs: Any) -> Any:
        """The critical-difference diagram of the average ranks
        (:func:`frameeval.charts.cd_diagram`), one panel per ``by`` group.

        The bars join learners whose average ranks differ by at most the Nemenyi CD; when the
        procedure was not Friedman + Nemenyi (the t test, Wilcoxon, ANOVA + Tukey), the title
        says which test decided, as the bars then only orient the reader.
        """
        cd_diagram = provider("cd_diagram")
        split_level = set(self.design.get_column("procedure").to_list()) & set(PAIR_PROCEDURES)
        if split_level and self.ranks.get_column("cd").null_count() == self.ranks.height:
            raise InsufficientDataError(
                "Comparison.chart(): the CD diagram draws average ranks over data sets, got a "
                f"comparison over one data set's splits (procedure {sorted(split_level)[0]!r})."
                "\nHint: the pairs are in .post_hoc; frameeval.charts.metric_distribution "
                "draws the values per split."
            )
        keys = list(self.by)
        ranks = self.ranks.filter(pl.col("cd").is_not_null()).select(
            *keys, pl.col("learner"), "average_rank", "cd"
        )
        if "title" not in kwargs:
            procs = set(self.design.get_column("procedure").to_list()) - {"none"}
            if procs == {"friedman"}:
                kwargs["title"] = f"Friedman + Nemenyi: average ranks with CD (α = {self.alpha:g})"
            else:
                from frameeval.compare.auto.context import procedure_words

                tests = " and the ".join(procedure_words(p) for p in sorted(procs)) or "no test"
                kwargs["title"] = (
                    f"Average ranks; the bars (Nemenyi CD, α = {self.alpha:g}) only orient: "
                    f"the {tests} decided"
                )
        return cd_diagram(ranks, style=style, learner="learner", by=keys or None, **kwargs)

    def _repr_html_(self) -> str:
        """The comparison in a notebook: one headline per group (winner and significance),
        the verdict, the results table and the CD diagram (inline SVG)."""
        return comparison_html(self)


# ---------------------------------------------------------------------------------------------
# the verdict
# ---------------------------------------------------------------------------------------------
_p = format_p


def _f(x: float | None, digits: int = 2) -> str:
    if x is None:
        return "undefined"
    if not np.isfinite(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{digits}f}"


def verdict_table(
    design: pl.DataFrame,
    checks: pl.DataFrame,
    omnibus: pl.DataFrame,
    post_hoc: pl.DataFrame,
    ranks: pl.DataFrame,
    effects: pl.DataFrame,
    ctx: Context,
) -> pl.DataFrame:
    keys = ctx.keys
    texts = []
    for row in design.iter_rows(named=True):  # loop-ok: words per group, after the statistics
        sel = pl.lit(True)
        for k in keys:  # loop-ok: builds one filter expression
            sel = sel & (pl.col(k).eq_missing(pl.lit(row[k])))
        tables = (t.filter(sel) for t in (omnibus, post_hoc, ranks, effects))
        texts.append(_verdict(row, ctx, *tables))
    return pl.concat(
        [design.select(*keys), pl.DataFrame({"verdict": texts}, schema={"verdict": pl.String})],
        how="horizontal",
    )


def _verdict(
    row: dict[str, Any],
    ctx: Context,
    omnibus: pl.DataFrame,
    post_hoc: pl.DataFrame,
    ranks: pl.DataFrame,
    effects: pl.DataFrame,
) -> str:
    proc = row["procedure"]
    k, n, alpha = row["n_learners"], row["n_blocks"], ctx.alpha
    a = f"α = {alpha:g}"
    if proc == "none":
        if row["all_tied"] and k >= 2 and n >= 2:
            return (
                f"Nothing can be concluded: all {k} learners ({row['__learners']}) have the same "
                f"{ctx.metric} on every one of the {n} blocks, so no test can tell them apart."
            )
        return f"Nothing can be concluded: {row['reason']}."
    best = ranks.filter(pl.col("position") == 1).row(0, named=True)
    mean_based = proc in MEAN_BASED
    # the value and the average rank as the results table prints them (one rounding for both)
    if mean_based:
        lead = (
            f"{best['learner']} has the best mean {display_name(ctx.metric)} "
            f"({format_value(best['mean'])})"
        )
    else:
        lead = f"{best['learner']} ranks best (average rank {format_value(best['average_rank'])})"
    design_text = f"{k} learners, N = {n} blocks"
    why = f"Procedure: {proc}, because {row['reason']}."
    sentences = [f"{lead} among {design_text}."]
    if proc == "bayes_signed_rank":
        return " ".join([*sentences, _bayes_sentence(post_hoc, ctx), why])
    om = omnibus.row(0, named=True) if omnibus.height else None
    if om is None:
        return " ".join([*sentences, why])
    name = TEST_NAMES.get(om["test"], om["test"])
    stat = _omnibus_statistic(om)
    little = " — with so few blocks the tests have little power" if n < 5 else ""
    effects_by = {r["learner"]: r for r in effects.iter_rows(named=True)}  # loop-ok: words
    if k == 2:
        pair = post_hoc.row(0, named=True)
        other = pair["b"] if best["learner"] == pair["a"] else pair["a"]
        test = f"{name}: {stat}{_effect_text(effects_by.get(other))}"
        if om["reject"]:  # the best of two learners against the other
            said = f"It is significantly better than {other} at {a} ({test})."
        else:
            said = f"The difference from {other} is not significant at {a} ({test}){little}."
        return " ".join([*sentences, said, why])
    post_name = (
        TEST_NAMES.get(str(post_hoc.item(0, "test")), "post-hoc test") if post_hoc.height else ""
    )
    if om["reject"] is not True:
        sentences.append(
            f"The {name} does not reject that all learners perform the same at {a} ({stat}): "
            f"no difference can be claimed{little or ''}; collect more blocks (data sets)."
        )
        sentences.append(why)
        return " ".join(sentences)
    crit = ""
    if post_hoc.height and post_hoc.item(0, "test") == "nemenyi":
        crit = f", CD = {_f(post_hoc.item(0, 'critical_value'))}"
    elif post_hoc.height and post_hoc.item(0, "test") == "tukey_hsd":
        crit = f", HSD = {_f(post_hoc.item(0, 'critical_value'), 3)}"
    differ = post_hoc.filter(pl.col("reject").fill_null(False))
    if differ.height == 0:
        sentences.append(
            f"The {name} rejects that all learners perform the same at {a} ({stat}), but no "
            f"pair differs significantly by the {post_name} ({a}{crit} with N = {n}): collect "
            "more data sets, or compare against one control (Bonferroni–Dunn)."
        )
    else:
        words = _pair_words(differ, ranks, effects_by, best["learner"])
        sentences.append(
            f"The {name} rejects that all learners perform the same at {a} ({stat}); by the "
            f"{post_name} ({a}{crit}) these pairs differ significantly: {'; '.join(words)}. "
            "No other pair differs significantly."
        )
    sentences.append(why)
    return " ".join(sentences)


def _effect_text(eff: dict[str, Any] | None) -> str:
    """``"; effect size Cohen's d = 1.23 (large)"`` of the other learner, or nothing."""
    if not eff or eff["effect_size"] is None:
        return ""
    return (
        f"; effect size {_es_name(eff['method'])} = {_f(eff['effect_size'])} ({eff['magnitude']})"
    )


def _bayes_sentence(post_hoc: pl.DataFrame, ctx: Context) -> str:
    """What the Bayesian signed-rank test finds: the pairs decided at probability ≥ 1 − α."""
    decided = post_hoc.filter(pl.col("reject"))
    if decided.height == 0:
        return (
            f"The Bayesian signed-rank test (rope = {ctx.rope:g}) finds no pair where one "
            f"learner is better with probability ≥ {1 - ctx.alpha:g}."
        )
    pairs = "; ".join(
        f"{r['better']} better than {r['b'] if r['better'] == r['a'] else r['a']} "
        f"(P = {max(r['p_a_better'], r['p_b_better']):#.3g})"
        for r in decided.iter_rows(named=True)  # loop-ok: words
    )
    return f"The Bayesian signed-rank test (rope = {ctx.rope:g}) finds: {pairs}."


def _omnibus_statistic(om: dict[str, Any]) -> str:
    """The omnibus test's statistic, degrees of freedom and p-value in the usual notation."""
    if om["test"] == "friedman_iman_davenport":
        return (
            f"F_F = {_f(om['statistic'])}, {_p(om['p_value'])}; "
            f"χ²_F = {_f(om['chi2'])}, {_p(om['chi2_p_value'])}"
        )
    if om["test"] == "rm_anova":
        return f"F({om['df1']:g}, {om['df2']:g}) = {_f(om['statistic'])}, {_p(om['p_value'])}"
    if om["test"] == "paired_t":
        return f"t({om['df1']:g}) = {_f(om['statistic'])}, {_p(om['p_value'])}"
    if om["test"] == "wilcoxon":
        return f"T = {_f(om['statistic'], 1)}, {_p(om['p_value'])}"
    if om["test"] == "skillings_mack":
        return f"SM = {_f(om['statistic'])}, df = {om['df1']:g}, {_p(om['p_value'])}"
    return f"statistic = {_f(om['statistic'])}, {_p(om['p_value'])}"


def _pair_words(
    differ: pl.DataFrame, ranks: pl.DataFrame, effects_by: dict[Any, dict[str, Any]], best: Any
) -> list[str]:
    """``better > worse`` for each significant pair, by the ranks' positions, with the effect
    size of the best learner's pairs."""
    order = {r["learner"]: r["position"] for r in ranks.iter_rows(named=True)}  # loop-ok
    items = []
    for r in differ.iter_rows(named=True):  # loop-ok: words per significant pair
        worse = r["b"] if r["better"] == r["a"] else r["a"]
        items.append((order.get(r["better"], 0), order.get(worse, 0), r["better"], worse))
    items.sort()
    words = []
    for _, _, better, worse in items:  # loop-ok: words
        eff = effects_by.get(worse) if better == best else None
        extra = (
            f" ({_es_name(eff['method'])} = {_f(eff['effect_size'])}, {eff['magnitude']})"
            if eff and eff["effect_size"] is not None
            else ""
        )
        words.append(f"{better} > {worse}{extra}")
    return words


def _es_name(method: str) -> str:
    return {
        "cohen_d": "Cohen's d",
        "akinshin_gamma": "Akinshin's γ",
        "cliff_delta": "Cliff's δ",
    }.get(method, method)
