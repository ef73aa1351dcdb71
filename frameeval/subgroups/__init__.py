"""Subgroups: where a model fails and whom it fails.

* :func:`by_group` — every measure in every group (``sensitive=`` one column or their
  intersections), long form;
* :func:`gaps` — the gaps between groups (fairlearn's ``difference`` / ``ratio``, between
  groups and to overall; demographic parity, equal opportunity, equalized odds) with
  intervals from a bootstrap stratified by group;
* :func:`compare_gaps` — one model's gap against another's on the same rows (paired
  bootstrap), p-values adjusted over the grid;
* :func:`power` — rows per group needed to detect a gap in a rate, and the gap detectable now;
* :func:`slices` — the slices where a model errs most, found by SliceLine's search.
"""

from frameeval.subgroups.gaps import by_group, compare_gaps, gaps
from frameeval.subgroups.power import power
from frameeval.subgroups.slices import OUTPUTS as slices_outputs
from frameeval.subgroups.slices import slices

__all__ = ["by_group", "compare_gaps", "gaps", "power", "slices", "slices_outputs"]
