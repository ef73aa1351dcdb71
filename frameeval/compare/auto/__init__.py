"""The automatic comparison of learners: check the design, choose the tests the way Demšar (2006)
and autorank (Herbold 2020) do, run them, and say what the numbers mean.

The procedures are dispatched through a small table (:data:`PROCEDURES`): one function per
procedure, each taking the collected block × learner table and returning the omnibus and
post-hoc frames in the common shapes below. The missing-cells procedure calls
``frameeval.compare.skillings_mack`` and ``rank_post_hoc(test="skillings_mack")``; the Bayesian
one (a ROPE was given) ``frameeval.compare.bayes_signed_rank``.
"""

from __future__ import annotations

from frameeval.compare.auto.context import (  # noqa: F401 - also frameeval.compare.auto's
    N_SAMPLES,
    OMNIBUS_SCHEMA,
    POST_HOC_SCHEMA,
    SPLIT_PROCEDURES,
    TEST_NAMES,
    Procedure,
)
from frameeval.compare.auto.procedures import PROCEDURES, ProcedureFn  # noqa: F401
from frameeval.compare.auto.result import Comparison
from frameeval.compare.auto.run import compare_learners

__all__ = ["Comparison", "compare_learners"]
