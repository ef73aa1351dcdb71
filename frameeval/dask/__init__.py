"""Many machines: the frame functions on a Dask cluster, with the single-machine numbers.

Optional backend (``pip install 'frameeval[dask]'``, which brings ``dask[distributed]``). Each
function here has the signature of its namesake in :mod:`frameeval` plus ``client=``, and takes
either a ``dask.dataframe.DataFrame`` or Parquet paths (a path, a glob or a list of them).

Two ways to compute, chosen by what the result needs:

**Mergeable statistics** — :func:`confusion_matrix`, :func:`classification_report`,
:func:`macro_micro`, :func:`cost_sensitive_error`, :func:`roc_curve`, :func:`roc_convex_hull`,
:func:`pr_curve`, :func:`ranking_report`, :func:`break_even_point`, :func:`best_threshold`,
:func:`cost_lines`, :func:`cost_curve`, :func:`expected_total_cost`. No row moves between
workers (each Parquet path is one task, read on the worker with ``pl.scan_parquet`` and the
streaming engine):

1. **Partial statistics, per partition** (on the workers, Polars): one ``group_by`` of the
   partition by the key columns and the raw label (and score) columns, with the row count — or the
   weight sum — and the mergeable input-check counts of :class:`frameeval._validate.Checks`
   (offending rows: a sum; smallest offending value: a min). These are the sufficient
   statistics of the single-machine functions: counts per group × (actual, predicted), per
   group × distinct score × label.
2. **Tree reduction** (on the workers): partials are concatenated ``split_every`` at a time and
   re-aggregated (sums; mins for the check values) until one table is left.
3. **Finish** (on the client): the input checks are enforced on the merged counts, so a bad row
   raises the same typed error, naming the same group, row count and value, as on one machine;
   then the merged table goes through *the same public function* of :mod:`frameeval`, with
   the count column as ``weight=``.

**Shuffle by key** — where an exact result needs all rows of an instance or of a group
together, the rows are first shuffled (``DataFrame.shuffle``, only the needed columns) so that
equal keys land in one partition; Parquet paths are read with
``dask.dataframe.read_parquet(..., dtype_backend="pyarrow")``, which keeps the files' dtypes.

* :func:`mcnemar`, :func:`contingency_table` — shuffled by ``*by, instance``: both learners'
  predictions of an instance meet in one partition, which is paired and counted per group
  with the single-machine code (cells e00…e11, rows per learner, the check counts); the
  counts are tree-reduced as above and the test is the single-machine code on the merged
  cells. A null instance and duplicate (instance, learner) rows are found in the partition
  holding them; the label checks, learners without rows, unpaired instances and two truths
  for one instance are merged counts, enforced on the client in the order one machine
  meets them.
* :func:`bootstrap_ci`, :func:`bootstrap_replicates` — shuffled by the ``by`` keys: each
  partition holds whole groups and runs the single-machine function; the per-partition
  results are concatenated and sorted by the keys. The draws hash (seed, replicate, slot)
  with the units in ``instance`` order, so a group gets the same replicates in any
  partition; without ``instance=`` the units would be in row order, which the shuffle does
  not keep, so ``instance=`` is required here. Without ``by=`` all rows form one group and
  go to one partition.
* :func:`frameeval.dask.items.means`, :func:`frameeval.dask.items.compare` (the submodule
  ``frameeval.dask.items``; ``fe.items.means`` / ``fe.items.compare`` hand a Dask DataFrame to
  them) — shuffled by the ``by`` keys like the bootstrap: each partition holds whole
  benchmarks and runs the single-machine function; ``compare`` runs there without
  ``adjust=`` and the client adjusts the concatenated pairs over all pairs × benchmarks with
  the single-machine step. A cluster's bootstrap weight hashes (seed, group, cluster,
  replicate), so ``method="bootstrap"`` gives the same replicates; float sums agree to the
  last bit or so (a group's rows arrive in another order).

**Subgroups** — :func:`frameeval.dask.subgroups.by_group`,
:func:`frameeval.dask.subgroups.gaps` (the submodule ``frameeval.dask.subgroups``;
``fe.subgroups.by_group`` / ``gaps`` hand a Dask DataFrame to them): label measures, unweighted,
without ``ci=`` merge — counts per ``*by, *control, *sensitive, truth, pred`` cell,
tree-reduced, the single-machine code on the merged cells (bit-identical); anything else
(score measures, ``weight=``, ``ci=``) is shuffled by the ``*by, *control`` keys and runs the
single-machine function per partition. ``gaps(ci=)`` needs ``instance=``, as the bootstrap
does.

Exactness: the merged counts are integers (or the weight sums), so confusion counts, ROC / P-R
points, AUC, break-even points, best thresholds, cost curves, McNemar's table and test and every
count-valued column are bit-identical to the single-machine result. Columns that average
non-integral ratios over rows in an unspecified order (the macro / weighted averages of
:func:`classification_report` and :func:`macro_micro`, average precision and the P-R area of
:func:`ranking_report`) can differ in the last bit — as two single-machine runs of those
functions can. With float ``weight=`` the partial sums are added in a different order than on
one machine, so weighted results agree to rounding (exact for integer-valued weights). Bootstrap
replicates are bit-identical; of the intervals, ``std_error`` and ``bias`` (and the BCa bounds,
through the jackknife) are float sums whose rounding in Polars depends on the other groups in
the frame, so they agree to about 1e-15 — as one machine's result for a group does with and
without the other groups.

Size: the merged table has one row per group × distinct (label, prediction) or per group ×
distinct (label, score); it must fit on the client. For continuous scores that is up to one
row per input row: round the scores (e.g. to 6 digits) when the data are larger than the client.
After a shuffle a partition holds whole instances (McNemar) or whole groups (bootstrap): a
bootstrap group must fit on one worker, with ``batch_size`` tiled copies of it.

Not offered here: bias–variance, DeLong intervals and tests, :func:`frameeval.roc_band`, the
paired t / Wilcoxon / Friedman tests (their inputs are small per-fold tables: collect them) and
``multiclass_roc_auc`` with its joint score columns.

Examples
--------
>>> import pandas as pd, dask.dataframe as dd, frameeval.dask as fed
>>> pdf = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
>>> ddf = dd.from_pandas(pdf, npartitions=2)
>>> fed.confusion_matrix(ddf, truth="y", pred="p")["count"].to_list()  # no client: dask's default
[2, 1, 1, 2]

On a cluster, pass ``client=distributed.Client("tcp://scheduler:8786")``; the same call runs
there.
"""

from __future__ import annotations

try:
    import dask  # noqa: F401 - the optional dependency, checked once here
    from dask import delayed  # noqa: F401
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "frameeval.dask needs the optional dependency dask[distributed]; "
        "install it with: pip install 'frameeval[dask]'"
    ) from err

from frameeval.dask import (
    items,  # noqa: F401 - the submodule: fed.items.means / .compare
    subgroups,  # noqa: F401 - the submodule: fed.subgroups.by_group / gaps
)

# the top-level functions with a Dask form (``_frame.DASK_FORMS``), one per name of the form
# table; ``items`` and ``subgroups`` are submodules
from frameeval.dask._forms import *  # noqa: F403
from frameeval.dask._forms import __all__  # noqa: F401
