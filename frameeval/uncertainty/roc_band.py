"""A pointwise bootstrap confidence band of the ROC curve: :func:`roc_band`."""

from __future__ import annotations

from typing import Any, Literal

import polars as pl

from frameeval._deprecation import renamed_argument
from frameeval._frame import finish, to_lazy
from frameeval._inputs import Column, Inputs, require_positive
from frameeval._params import FLAG
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import label_expr
from frameeval.compare.door import check_distinct
from frameeval.compare.plan import check_int
from frameeval.compare.results import ROC_BAND
from frameeval.uncertainty.bootstrap import bootstrap_intervals, check_interval, open_bootstrap

__all__ = ["roc_band"]


#: the inputs of the ROC band: binary labels and scores
BAND = Inputs(Column("truth", "label", "label"), Column("score", "numeric", "finite"))


def _tpr_at(is_pos: pl.Expr, score: str, fpr: float) -> pl.Expr:
    """TPR of the tie-aware ROC curve at false positive rate ``fpr`` (an aggregation).

    With k = fpr · n⁻ and v the (⌊k⌋ + 1)-th largest negative score, a / b the negatives above /
    at v and c / d the positives above / at v, the curve crosses FPR = k/n⁻ on the diagonal step
    of the tie block at v: TPR = (c + d (k − a) / b) / n⁺. At k = a (a negative's FPR) that is
    the top of the vertical step there, the largest TPR at that FPR; at FPR = 1 it is 1.
    """
    s = pl.col(score).cast(pl.Float64)
    neg = ~is_pos
    n_pos = is_pos.sum().cast(pl.Float64)
    n_neg = neg.sum().cast(pl.Float64)
    defined = (n_pos > 0) & (n_neg > 0)
    if fpr >= 1.0:
        return pl.when(defined).then(pl.lit(1.0))
    k = n_neg * fpr
    index = pl.min_horizontal(k.floor(), n_neg - 1).cast(pl.Int64)
    v = s.filter(neg).sort(descending=True).get(index, null_on_oob=True)

    def count(rows: pl.Expr) -> pl.Expr:
        return rows.sum().cast(pl.Float64)

    above, tied = count(neg & (s > v)), count(neg & (s == v))
    tp = count(is_pos & (s > v)) + count(is_pos & (s == v)) * (k - above) / tied
    return pl.when(defined).then(tp / n_pos)


def roc_band(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    instance: str | None = None,
    points: int = 21,
    repeats: int = 1000,
    level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    stratify: bool = True,
    seed: int = 0,
    batch_size: int | None = None,
    stratified: bool | None = None,
    n: int | None = None,
) -> Any:
    """A pointwise bootstrap confidence band of the ROC curve (vertical averaging), per group.

    At ``points`` equally spaced false positive rates the true positive rate of the ROC curve is
    a measure like any other; its bootstrap interval at every FPR gives the band (Fawcett 2006,
    §8.1 "vertical averaging"; Macskassy & Provost 2004). The replicates are those of
    :func:`bootstrap_ci`, by default stratified by class so every resample has both classes.

    Parameters
    ----------
    data
        Long result frame (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        instance (× ``by`` group).
    truth, score
        True label and score columns (larger score = more positive).
    by
        Key column(s): one band per group.
    pos_label
        The positive class (default 1 / True; required for string labels).
    points
        Number of FPR values 0, 1/(points − 1), …, 1 (≥ 2).
    instance, repeats, level, method, seed, batch_size
        As in :func:`bootstrap_ci` (``n=`` is the deprecated alias of ``repeats=``, for one release).
    stratify
        Resample positives and negatives separately (default), keeping the class sizes.
    stratified
        Deprecated alias of ``stratify`` (one name per meaning, as in :func:`bootstrap_ci`);
        it warns and will be removed in the next release.

    Returns
    -------
    Same kind as ``data`` with ``*by, fpr, tpr, std_error, lower, upper, level, method,
    n_replicates``, one row per group and FPR value, sorted by keys and ``fpr``: ``tpr`` — the
    TPR of the group's ROC curve at ``fpr``; ``lower``, ``upper`` — the pointwise interval.

    Notes
    -----
    The ROC curve is the tie-aware one of §2.3.3 (a run of tied scores is one diagonal step), and
    the TPR at an FPR where the curve rises vertically is the top of that rise (at FPR 0: the
    share of positives scored above every negative; at FPR 1: 1). The band is pointwise: each
    FPR has coverage ``level`` on its own; the whole curve lies inside it less often. A group
    with one class gives nulls.

    References
    ----------
    Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters 27(8).
    Macskassy & Provost (2004), "Confidence bands for ROC curves", ROCAI. Zhou Zhihua, *Machine
    Learning*, §2.3.3.

    See Also
    --------
    bootstrap_ci, delong_ci, frameeval.charts.uncertainty.roc_band

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 1, 0, 0, 0], "s": [0.9, 0.8, 0.3, 0.7, 0.2, 0.1]})
    >>> band = fe.roc_band(df, "y", "s", points=3, repeats=50)
    >>> band.select("fpr", "tpr").rows()
    [(0.0, 0.6666666666666666), (0.5, 1.0), (1.0, 1.0)]
    """
    func = "roc_band"
    level = check_interval(level, method, func)
    points = check_int(points, func, "points", 2)
    repeats = renamed_argument(func, "n", "repeats", n, repeats, "the same count")
    if stratified is not None:
        import warnings

        warnings.warn(
            f"{func}(): stratified= is deprecated, use stratify= (the same meaning).",
            DeprecationWarning,
            stacklevel=2,
        )
        stratify = stratified
    FLAG(func, "stratify", stratify)
    lf, _ = to_lazy(data, func)
    schema = lf.collect_schema()
    checks = BAND.compile(schema, func, truth=truth, score=score)
    is_pos = label_expr(truth, schema) == require_positive(checks, schema, func, truth, pos_label)
    grid = [i / (points - 1) for i in range(points)]
    names = [f"__fe_tpr_{i}" for i in range(points)]
    measures = [_tpr_at(is_pos, score, f).alias(name) for f, name in zip(grid, names, strict=True)]
    parts = open_bootstrap(
        data,
        func,
        measures,
        by,
        instance,
        truth if stratify else None,
        repeats,
        seed,
        batch_size,
        ROC_BAND,
        checks,
    )
    check_distinct(func, parts["keys"], truth=truth, score=score, instance=instance)
    out = bootstrap_intervals(
        parts, level, method, instance, truth if stratify else None
    ).with_columns(
        pl.col("metric").replace_strict(names, grid, return_dtype=pl.Float64).alias("fpr"),
        pl.col("estimate").alias("tpr"),
    )
    return finish(ROC_BAND.out(out, parts["keys"], sort=False), parts["eager"])
