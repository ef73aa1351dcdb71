"""Many learners over many data sets by their ranks: the rank table (Table 2.5) and average
ranks (chapter 2.4.4). The Friedman test on them (eqs 2.34–2.35) lives with the other omnibus
tests in :mod:`frameeval.compare.omnibus` (importable from here too).

Input: a long frame of metric values, one row per block (data set) × learner, a complete table
(every learner has a value on every block of its group). Ranks are 1 for the best learner of a
block; tied values share the mean of the ranks they span.
"""

from __future__ import annotations

import polars as pl

from frameeval._frame import finish
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.compare.omnibus import CHI2_MIN_BLOCKS, friedman  # noqa: F401 - their home
from frameeval.compare.precision import RANK_DIGITS
from frameeval.compare.ranked import RankInput, rank_sums, ranked_cells
from frameeval.compare.results import AVERAGE_RANKS, RANK_TABLE

__all__ = ["average_ranks", "friedman", "rank_table"]


@frame_function
def rank_table(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """The rank of every learner on every block (data set), as in Table 2.5.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one row per block × learner (× ``by`` group).
    metric
        Column with the metric values.
    block, learner
        Columns naming the block (data set, or fold) and the learner.
    by
        Key column(s): one table per group.
    higher_is_better
        Direction of ``metric``: True ranks the largest value first. Default: the direction of
        the registered measure of the same name (``"accuracy"``, ``"error_rate"``…); required
        otherwise.
    digits
        Significant digits the values are rounded to before they are ranked (default 12), so
        that values equal as decimals tie whatever their floating-point form (0.69 · 100 and
        69; docs/compare.md, "Ties"). ``None`` ranks the floating-point values as they are,
        as scipy does.

    Returns
    -------
    Same kind as ``data`` with ``*by, <block>, <learner>, <metric>, rank``: the metric value
    (Float64) and its rank within the block (Float64: 1 = best; tied values get the mean of the
    ranks they span, e.g. two learners tied for first both get 1.5). Sorted by keys, block and
    learner. Categorical learner names come out as strings.

    Notes
    -----
    Every learner of a group needs exactly one value on every block of the group
    (``InsufficientDataError`` listing the gaps, ``DuplicateKeyError``); metric values must be
    finite (``MissingValueError``).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, Table 2.5. Demšar (2006), JMLR 7, §3.2.2.

    Examples
    --------
    >>> df = pl.DataFrame({"block": ["D1"] * 3 + ["D2"] * 3, "learner": ["A", "B", "C"] * 2,
    ...                    "accuracy": [0.90, 0.85, 0.80, 0.70, 0.75, 0.75]})
    >>> fe.rank_table(df, "accuracy")["rank"].to_list()
    [1.0, 2.0, 3.0, 3.0, 1.5, 1.5]
    """
    block, learner = resolve_roles(data, "rank_table", [by, metric], block=block, learner=learner)
    func = "rank_table"
    outputs = [metric, *RANK_TABLE.columns]
    ranks, eager, keys, _, _ = ranked_cells(
        RankInput(data, func, metric, block, learner, by, higher_is_better),
        outputs,
        digits=digits,
        round_values=False,
    )
    out = ranks.select(*keys, block, learner, pl.col("__value").alias(metric), *RANK_TABLE.columns)
    return finish(out.sort([*keys, block, learner], nulls_last=True), eager)


@frame_function
def average_ranks(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """Average rank of every learner over the blocks (the last row of Table 2.5).

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`rank_table`.

    Returns
    -------
    Same kind as ``data`` with ``*by, <learner>, average_rank, n_blocks``: rᵢ, the mean over
    the N blocks of the learner's rank (Float64; 1 = best on every block), and N (Int64). Sorted
    by keys and learner. This frame and :func:`nemenyi`'s ``critical_value`` (the CD) are what a
    critical-difference diagram (figure 2.8) draws.

    Notes
    -----
    The average ranks of k learners sum to k(k + 1)/2; under the hypothesis that all learners
    perform the same, each has mean (k + 1)/2 and variance (k² − 1)/(12N) (chapter 2.4.4).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, Table 2.5. Demšar (2006), JMLR 7, §3.2.2.

    Examples
    --------
    >>> df = pl.DataFrame({"block": ["D1"] * 3 + ["D2"] * 3, "learner": ["A", "B", "C"] * 2,
    ...                    "accuracy": [0.90, 0.85, 0.80, 0.70, 0.75, 0.75]})
    >>> fe.average_ranks(df, "accuracy").rows()
    [('A', 2.0, 2), ('B', 1.75, 2), ('C', 2.25, 2)]
    """
    block, learner = resolve_roles(
        data, "average_ranks", [by, metric], block=block, learner=learner
    )
    func = "average_ranks"
    ranks, eager, keys, _, _ = ranked_cells(
        RankInput(data, func, metric, block, learner, by, higher_is_better),
        AVERAGE_RANKS.columns,
        digits=digits,
    )
    return finish(AVERAGE_RANKS.out(rank_sums(ranks, keys, learner), [*keys, learner]), eager)
