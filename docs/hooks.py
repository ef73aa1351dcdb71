"""MkDocs hooks for the frameeval site (listed in mkdocs.yml, excluded from the pages).

Topic pages written by other parts of the project may land after the navigation that names
them. ``PENDING`` lists those pages: while one is missing it is left out of the navigation (and
logged), so ``mkdocs build --strict`` keeps passing; once it exists it appears in its place.
Any other missing page in the navigation still fails the strict build.

Griffe's numpydoc parser warns about a two-space continuation line inside a section item (the
house style's bulleted ``Returns`` lists); that warning, and only it, is filtered out: the text
renders correctly, and every other docstring warning (an unknown parameter, a broken
cross-reference) still fails the strict build.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.frameeval")

_CONTINUATION = "Confusing indentation for continuation line"


class _ContinuationFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return _CONTINUATION not in record.getMessage()


logging.getLogger("mkdocs.plugins.griffe").addFilter(_ContinuationFilter())

PENDING = frozenset({"roc.md", "pr.md", "cost-curves.md", "performance.md"})


def _prune(items: list[Any], docs_dir: Path, dropped: list[str]) -> list[Any]:
    kept = []
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            value = _prune(value, docs_dir, dropped)
            kept.append({next(iter(item)): value} if isinstance(item, dict) else value)
        elif isinstance(value, str) and value in PENDING and not (docs_dir / value).exists():
            dropped.append(value)
        else:
            kept.append(item)
    return kept


def on_config(config: Any) -> Any:
    """Leave pending pages that do not exist yet out of the navigation."""
    if config.get("nav"):
        dropped: list[str] = []
        config["nav"] = _prune(config["nav"], Path(config["docs_dir"]), dropped)
        if dropped:
            log.info("pages not written yet, left out of the navigation: %s", ", ".join(dropped))
    return config
