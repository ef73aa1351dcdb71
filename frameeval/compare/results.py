"""One shape out: the result schema of every comparison test, declared once per family, and the
one place where a test's numbers become its ``reject``.

A family (:class:`Family`) names the columns its tests share — the two learners ``a, b`` in
front, the decision ``p_value, critical_value, alpha, reject``, the ``better`` learner and the
effect sizes behind — and each test of the family adds only its own statistics
(:meth:`Family.shape`). The resulting :class:`Shape` is all a test function needs to know about
its output: :meth:`Shape.check` refuses ``by=`` keys (and kept role columns) named like an
output column, :meth:`Shape.decide` adds ``reject`` by the test's declared :data:`Rule`, and
:meth:`Shape.out` selects the columns after the keys in their order and sorts by the keys.

Every ``reject`` of ``frameeval.compare`` (and of the automatic comparison on top of it, and of
``frameeval.uncertainty``'s DeLong test) is an expression of :func:`reject`; a module of either
package writes no output column list and no ``reject`` expression of its own
(tests/compare/test_results.py holds it to that). The intervals of ``frameeval.uncertainty``
declare their columns here too (:data:`INTERVAL_SHAPES`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, cast

import polars as pl

from frameeval._typing import FrameT
from frameeval.compare.door import check_outputs

__all__ = ["Family", "Rule", "Shape", "decide", "reject"]

#: How a test decides (the documented rule of each test):
#:
#: * ``"p_value"`` — p_value < alpha; ``"p_adjusted"`` — p_adjusted < alpha (strict: a p-value
#:   equal to α does not reject);
#: * ``"statistic"`` — statistic > critical_value; ``"abs_statistic"`` — |statistic| >
#:   critical_value (two-sided t tests); ``"chi2"`` — chi2 > chi2_critical_value (Friedman's
#:   χ² form, as ``chi2_reject``);
#: * ``"errors"`` — errors > critical_count (the binomial test, eq 2.27);
#: * ``"posterior"`` — p_a_better ≥ 1 − α or p_b_better ≥ 1 − α (a Bayesian pair is decided when
#:   a region's posterior probability reaches 1 − α; autorank's rule).
#:
#: A null operand gives a null ``reject``: the test is undefined there. The rules that compare a
#: statistic with a critical value agree with the p-value rule wherever both come from the same
#: distribution, except at the boundary.
Rule = Literal["p_value", "p_adjusted", "statistic", "abs_statistic", "chi2", "errors", "posterior"]


def reject(rule: Rule, alpha: float | pl.Expr | None = None) -> pl.Expr:
    """The ``reject`` column of ``rule`` (``chi2_reject`` for ``"chi2"``), read from the frame's
    columns; ``alpha`` (default: the ``alpha`` column) for the p-value and posterior rules."""
    level = pl.col("alpha") if alpha is None else alpha
    if rule == "p_value":
        return decide(pl.col("p_value"), level)
    if rule == "p_adjusted":
        return decide(pl.col("p_adjusted"), level)
    if rule == "chi2":
        return (pl.col("chi2") > pl.col("chi2_critical_value")).alias("chi2_reject")
    if rule == "errors":
        return (pl.col("errors") > pl.col("critical_count")).alias("reject")
    if rule == "posterior":
        sure = 1.0 - level
        return ((pl.col("p_a_better") >= sure) | (pl.col("p_b_better") >= sure)).alias("reject")
    statistic = pl.col("statistic").abs() if rule == "abs_statistic" else pl.col("statistic")
    return (statistic > pl.col("critical_value")).alias("reject")


def decide(p_value: pl.Expr, alpha: float | pl.Expr) -> pl.Expr:
    """``reject``, the rule that turns a p-value into a decision: ``p_value < alpha``.

    Strict: a p-value equal to α does not reject (the documented ``reject`` = p_value < α of
    every p-value based test, and of the adjusted p-values of the multiple-comparison
    procedures). A null p-value (or a null α) gives a null ``reject``: the test is undefined
    there, neither rejected nor not rejected."""
    return (p_value < alpha).alias("reject")


@dataclass(frozen=True)
class Shape:
    """The result schema of one test: its columns after the ``by=`` keys, in order, how it
    decides (``rules``, applied in order) and the columns it is sorted by after the keys."""

    family: str
    columns: tuple[str, ...]
    rules: tuple[Rule, ...] = ()
    order: tuple[str, ...] = ()

    def check(self, func: str, keys: Sequence[str], **roles: str | None) -> None:
        """Keys and kept role columns must not share a name with an output column."""
        check_outputs(func, keys, self.columns, **roles)

    def decide(self, frame: FrameT, alpha: float | pl.Expr | None = None) -> FrameT:
        """``frame`` with the test's ``reject`` column(s) (:func:`reject`)."""
        return frame.with_columns(reject(rule, alpha) for rule in self.rules)

    def out(self, frame: FrameT, keys: Sequence[str], *, sort: bool = True) -> FrameT:
        """The output columns after the keys, sorted by the keys and :attr:`order` (``sort=False``:
        in the frame's row order)."""
        order = [*keys, *self.order] if sort else []
        out = frame.select(*keys, *self.columns)
        return out.sort(order, nulls_last=True) if order else out

    def with_column(self, name: str, after: str) -> Shape:
        """The shape with one more column ``name`` right after ``after``."""
        at = self.columns.index(after) + 1
        return replace(self, columns=(*self.columns[:at], name, *self.columns[at:]))

    def deciding(self, *rules: Rule) -> Shape:
        """The shape decided by other ``rules`` (a test with an exact and an approximate form)."""
        return replace(self, rules=rules)


#: The decision every frequentist test reports, in this order.
DECISION = ("p_value", "critical_value", "alpha", "reject")
#: The effect-size columns every two-learner test ends with (docs/bayes.md, "Effect sizes").
EFFECT_COLUMNS = ("mean_difference", "cohen_d", "cliff_delta")
PROBABILITIES = ("p_a_better", "p_rope", "p_b_better")
POSTERIOR_MEANS = ("mean_a_better", "mean_rope", "mean_b_better")
RULES = ("p_value", "p_adjusted", "statistic", "abs_statistic", "chi2", "errors", "posterior")


def _names(names: str | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(names.split()) if isinstance(names, str) else names


@dataclass(frozen=True)
class Family:
    """The columns a family of tests shares: ``head`` (first), ``decision`` (after the test's
    statistics), ``tail`` (last), and the sort order after the keys (column names as one
    space-separated string or a tuple)."""

    name: str
    head: str | tuple[str, ...] = ()
    decision: str | tuple[str, ...] = DECISION
    tail: str | tuple[str, ...] = ()
    order: str | tuple[str, ...] = ()

    def shape(
        self,
        statistics: str | tuple[str, ...] = (),
        rules: str = "",
        *,
        decision: str | None = None,
        tail: str = "",
        order: str | None = None,
    ) -> Shape:
        """One test's schema: the family's head, the test's ``statistics``, the family's
        decision (or ``decision``), the family's tail and the test's own ``tail``; decided by
        ``rules`` (names of :data:`Rule`, space-separated)."""
        middle = self.decision if decision is None else decision
        parts = (self.head, statistics, middle, self.tail, tail)
        columns = tuple(c for part in parts for c in _names(part))
        decided = tuple(cast(Rule, r) for r in rules.split())
        assert all(r in RULES for r in decided), rules
        return Shape(self.name, columns, decided, _names(self.order if order is None else order))


# ---------------------------------------------------------------------------------------------
# the families and their tests
# ---------------------------------------------------------------------------------------------
ONE_LEARNER = Family("one learner")
BINOMIAL = ONE_LEARNER.shape(
    "m errors eps0 statistic",
    "errors",
    decision="p_value critical_count critical_value alpha reject",
)
T_TEST = ONE_LEARNER.shape("n_values mean std eps0 statistic df", "abs_statistic")

TWO_LEARNERS = Family("two learners", "a b", tail=("better", *EFFECT_COLUMNS), order="a b")
PAIRED_T = TWO_LEARNERS.shape("n_pairs mean std statistic df", "abs_statistic")
CV5X2_T = TWO_LEARNERS.shape("mean std statistic df", "abs_statistic")
WILCOXON = TWO_LEARNERS.shape(
    "n_blocks n_zero r_plus r_minus statistic z exact", "p_value", tail="rank_biserial"
)
#: McNemar's χ² form decides by its critical value, the exact binomial form by its p-value
MCNEMAR = TWO_LEARNERS.shape("e00 e01 e10 e11 statistic df", "statistic")
CONTINGENCY = Family("two learners", "a b", decision=()).shape(
    "cell b_correct a_correct count", order="cell"
)

RESAMPLED = replace(TWO_LEARNERS, name="resampled")
CORRECTED_T = RESAMPLED.shape("n_pairs mean std statistic df", "abs_statistic")
CV5X2_F = RESAMPLED.shape("n_repeats mean statistic df1 df2", "statistic")

OMNIBUS = Family("omnibus", "n_learners n_blocks")
FRIEDMAN = OMNIBUS.shape(
    "chi2 chi2_df chi2_p_value chi2_critical_value chi2_reject statistic df1 df2", "chi2 statistic"
)
SKILLINGS_MACK = OMNIBUS.shape("n_missing statistic df", "statistic")
ALIGNED_RANKS = OMNIBUS.shape("statistic df", "statistic")
QUADE = OMNIBUS.shape("statistic df1 df2", "statistic")
#: the repeated-measures ANOVA of the automatic comparison
RM_ANOVA = OMNIBUS.shape("statistic df1 df2", "statistic")

POST_HOC = Family("post-hoc", "a b", order="a b")
RANK_PAIRS = POST_HOC.shape(
    "n_learners n_blocks average_rank_a average_rank_b rank_difference statistic q_alpha",
    "statistic",
    tail="better",
)
ADJUSTED_PAIRS = POST_HOC.shape(
    "average_rank_a average_rank_b statistic",
    "p_adjusted",
    decision="p_value p_adjusted alpha reject",
)
#: what Holm's step-down adds to a frame of p-values
HOLM = Family("post-hoc", decision="p_adjusted alpha reject").shape(rules="p_adjusted")
#: Tukey's HSD after the repeated-measures ANOVA (automatic comparison)
TUKEY_HSD = POST_HOC.shape("difference statistic", "p_value", tail="better")

BAYESIAN = Family("Bayesian", "a b", decision=(), order="a b")
CORRELATED_T = BAYESIAN.shape(("mean_difference", *PROBABILITIES, "cohen_d", "cliff_delta"))
SIGNED_RANK = BAYESIAN.shape(
    ("mean_difference", *PROBABILITIES, *POSTERIOR_MEANS, "n_blocks", "cohen_d", "cliff_delta")
)
SIGNED_RANK_SAMPLES = BAYESIAN.shape("sample a_better rope b_better", order="a b sample")

PAIRS = Family("pairs", "a b", decision=(), order="a b")
EFFECT_SIZE = PAIRS.shape(
    "n_blocks mean_difference cohen_d cohen_d_magnitude cliff_delta cliff_delta_magnitude"
)
MATRIX = PAIRS.shape("mean_difference wins ties losses p_value p_adjusted cohen_d cliff_delta")

RANKS = Family("ranks", decision=())
RANK_TABLE = RANKS.shape("rank")
AVERAGE_RANKS = RANKS.shape("average_rank n_blocks")

# the intervals of frameeval.uncertainty: a bootstrap interval's columns after its estimate
INTERVALS = Family("intervals", decision=(), tail="std_error lower upper level method n_replicates")
BOOTSTRAP_CI = INTERVALS.shape("metric estimate bias")
ROC_BAND = INTERVALS.shape("fpr tpr")
DELONG_CI = Family("intervals", decision=()).shape(
    "metric estimate variance std_error lower upper level method n_pos n_neg"
)
DELONG_TEST = Family("two learners", "a b", tail="better").shape(
    "n_pos n_neg roc_auc_a roc_auc_b difference std_error lower upper statistic", "abs_statistic"
)

#: public function → its shape (tests/compare/test_results.py runs each and compares)
SHAPES: dict[str, Shape] = {
    "binomial_test": BINOMIAL,
    "t_test": T_TEST,
    "paired_t_test": PAIRED_T,
    "cv5x2_t_test": CV5X2_T,
    "wilcoxon": WILCOXON,
    "mcnemar": MCNEMAR,
    "contingency_table": CONTINGENCY,
    "corrected_resampled_t_test": CORRECTED_T,
    "cv5x2_f_test": CV5X2_F,
    "friedman": FRIEDMAN,
    "skillings_mack": SKILLINGS_MACK,
    "friedman_aligned_ranks": ALIGNED_RANKS,
    "quade": QUADE,
    "nemenyi": RANK_PAIRS,
    "bonferroni_dunn": RANK_PAIRS,
    "rank_post_hoc": ADJUSTED_PAIRS,
    "shaffer": ADJUSTED_PAIRS,
    "bergmann_hommel": ADJUSTED_PAIRS,
    "bayes_correlated_t": CORRELATED_T,
    "bayes_signed_rank": SIGNED_RANK,
    "bayes_signed_rank_samples": SIGNED_RANK_SAMPLES,
    "effect_size": EFFECT_SIZE,
    "comparison_matrix": MATRIX,
    "average_ranks": AVERAGE_RANKS,
}
#: the same for frameeval.uncertainty
INTERVAL_SHAPES: dict[str, Shape] = {
    "bootstrap_ci": BOOTSTRAP_CI,
    "roc_band": ROC_BAND,
    "delong_ci": DELONG_CI,
    "delong_test": DELONG_TEST,
}

# ---------------------------------------------------------------------------------------------
# the automatic comparison's tables: its design (after the keys, before the split-design
# details), and every procedure's results stacked into the omnibus and the post-hoc table (every procedure's results stacked into them)
# ---------------------------------------------------------------------------------------------
DESIGN_COLUMNS = _names("procedure omnibus_test post_hoc_test n_learners n_blocks n_missing reason")
SPLIT_DESIGN = _names("n_repeats n_folds n_dropped test_train_ratio")
_FLOATS = dict.fromkeys(
    ("statistic", "df1", "df2", "p_value", "critical_value", "alpha"), pl.Float64
)
OMNIBUS_SCHEMA = {
    **{"test": pl.String, "n_learners": pl.Int64, "n_blocks": pl.Int64, **_FLOATS},
    **{"reject": pl.Boolean, "chi2": pl.Float64, "chi2_p_value": pl.Float64},
}
POST_HOC_SCHEMA = {
    **{"test": pl.String, "a": pl.String, "b": pl.String, "difference": pl.Float64},
    **{"statistic": pl.Float64, "p_value": pl.Float64, "p_adjusted": pl.Float64},
    **{"critical_value": pl.Float64, "alpha": pl.Float64, "reject": pl.Boolean},
    **{"better": pl.String, "cohen_d": pl.Float64, "cliff_delta": pl.Float64},
    **dict.fromkeys(PROBABILITIES, pl.Float64),
}
