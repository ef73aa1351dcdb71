"""Agreement between raters: LLM judges, human annotators, any labellers of the same items.

* :func:`fleiss_kappa` — Fleiss' κ, a fixed number of raters per item (nominal categories);
* :func:`krippendorff_alpha` — Krippendorff's α, any number of raters, missing ratings, four
  levels of measurement (nominal, ordinal, interval, ratio);
* :func:`cohen_kappa` — Cohen's κ between two raters (every pair, or one), unweighted, linear
  or quadratic weights.

Each takes a long ratings table (one row per ``by`` keys × item × rater), is computed per group
in one Polars plan and offers a cluster-bootstrap percentile interval (``ci=``, items or
``cluster=`` units resampled by replicate weights). See ``docs/agreement.md``.
"""

from __future__ import annotations

from frameeval.agreement.cohen import cohen_kappa
from frameeval.agreement.fleiss import fleiss_kappa
from frameeval.agreement.krippendorff import krippendorff_alpha

__all__ = ["cohen_kappa", "fleiss_kappa", "krippendorff_alpha"]
