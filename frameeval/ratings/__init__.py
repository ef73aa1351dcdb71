"""Ratings from head-to-head comparisons: Bradley–Terry on the Elo scale.

* :func:`bradley_terry` — from battles (model a, model b, winner), as Chatbot Arena: maximum
  likelihood ratings, a multinomial bootstrap on the de-duplicated battle counts, rank
  intervals;
* :func:`bradley_terry_from_items` — from per-item scores, every shared item a battle between
  every pair of models.

See ``docs/agreement.md`` (section "Ratings from battles").
"""

from __future__ import annotations

from frameeval.ratings.bradley_terry import bradley_terry, bradley_terry_from_items

__all__ = ["bradley_terry", "bradley_terry_from_items"]
