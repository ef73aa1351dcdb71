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
import re
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.frameeval")

_CONTINUATION = "Confusing indentation for continuation line"


class _ContinuationFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return _CONTINUATION not in record.getMessage()


logging.getLogger("mkdocs.plugins.griffe").addFilter(_ContinuationFilter())

MEASURE_TABLE = "<!-- measure-table -->"


def measure_table_markdown() -> str:
    """The registry (``fe.measure_table()``) as a Markdown table: the docs table of every
    measure is generated from the declarations, never written by hand."""
    import frameeval as fe

    def cell(value: Any) -> str:
        text = "" if value is None else str(value)
        return text.replace("|", "\\|").replace("\n", " ")

    table = fe.measure_table()
    head = (
        "| measure | kind | formula | eq | better | range | null when | statistics |\n"
        "|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for row in table.iter_rows(named=True):
        name = f"`{row['name']}`" + (f" (alias `{row['aliases']}`)" if row["aliases"] else "")
        upper = "∞" if row["upper"] is None else f"{row['upper']:g}"
        rows.append(
            f"| {name} | {row['kind']} | {cell(row['formula'])} | {row['equation']} | "
            f"{'higher' if row['higher_is_better'] else 'lower'} | [{row['lower']:g}, {upper}] | "
            f"{cell(row['undefined'])} | {cell(row['statistics'])} |"
        )
    return head + "\n".join(rows) + "\n"


#: ``<!-- measure-builders: regression -->``: the API entries of a measure module's builders;
#: ``<!-- measure-names -->``: the names of every built-in builder, comma-separated
MEASURE_BUILDERS = re.compile(r"<!-- measure-builders: (\w+) -->")
MEASURE_NAMES = "<!-- measure-names -->"


def builder_names(module: str | None = None) -> list[str]:
    """The built-in builders (of one measure module), in the order of the registry: each
    measure's name is written once, in its declaration, and the API pages list it from there."""
    import importlib

    import frameeval as fe

    home = importlib.import_module(f"frameeval.metrics.{module or 'builtin'}")
    return [name for name in fe.MEASURES if name in home.__all__]


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace the measure markers with the generated table, API entries and names."""
    if MEASURE_TABLE in markdown:
        markdown = markdown.replace(MEASURE_TABLE, measure_table_markdown())
    if MEASURE_NAMES in markdown:
        markdown = markdown.replace(MEASURE_NAMES, ", ".join(builder_names()))
    return MEASURE_BUILDERS.sub(
        lambda m: "\n".join(f"::: frameeval.{name}" for name in builder_names(m.group(1))), markdown
    )


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
