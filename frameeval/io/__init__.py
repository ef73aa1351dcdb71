"""Readers: the files evaluators already have, as frameeval's long tables.

* :func:`read_lm_eval_samples` — lm-evaluation-harness ``--log_samples`` JSONL (per item);
* :func:`read_inspect_samples` — inspect_ai's sample table (``samples_df``) saved as CSV or
  Parquet (per item and epoch);
* :func:`read_openml_predictions` — an OpenML run's ``predictions.arff`` (per repeat, fold and
  instance);
* :func:`read_tsml_results` — aeon / tsml-eval results files (per data set, estimator,
  resample and case).

Each returns a ``pl.DataFrame`` with documented columns; a malformed file raises
:class:`~frameeval.exceptions.FileFormatError` naming the file and the line. See
``docs/readers.md``.
"""

from __future__ import annotations

from frameeval.io.inspect_samples import read_inspect_samples
from frameeval.io.lm_eval import read_lm_eval_samples
from frameeval.io.openml import read_openml_predictions
from frameeval.io.tsml import read_tsml_results

__all__ = [
    "read_inspect_samples",
    "read_lm_eval_samples",
    "read_openml_predictions",
    "read_tsml_results",
]
