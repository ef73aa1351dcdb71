"""Per-item results: k models on the same items of many benchmarks — paired, clustered,
powered (``fe.items``).

One row per ``benchmark × model × item`` (× sample), a score or a 0/1 correct flag, often a
cluster of items: :func:`means` (a model's mean with a CLT, clustered, Wilson or cluster
bootstrap interval; the within/between-item variance split with K answers per item),
:func:`compare` (every pair of models on the items they share: paired, clustered, McNemar
for 0/1 scores, adjusted for multiplicity over pairs × benchmarks), :func:`power` (the
minimum detectable difference and the items needed) and :func:`leaderboard` (ranks with
intervals and tie groups from a paired cluster bootstrap). See ``docs/items.md``.
"""

from frameeval.items.compare import compare
from frameeval.items.leaderboard import leaderboard
from frameeval.items.means import means
from frameeval.items.power import power

__all__ = ["compare", "leaderboard", "means", "power"]
