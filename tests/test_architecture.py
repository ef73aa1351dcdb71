"""The layers of docs/architecture.md hold: no module imports a higher layer (but the two
documented lazy imports), no underscore name crosses top-level modules, and the page lists every
top-level module of the package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "frameeval"

LAYERS = [
    {"exceptions", "_typing", "_version", "_deprecation", "_files"},
    {"_frame", "_validate", "_roles", "_split_frame"},
    {"metrics"},
    {"confusion", "measure_set", "curves", "thresholds", "calibration", "forecast"},
    {"split", "evaluate", "decompose"},
    {"compare", "uncertainty", "subgroups"},
    {"dask"},
    {"charts"},
    {"report"},
    {"cli", "__main__", "__init__", "datasets"},
]
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
#: (importing file, imported top-level module): the upward imports docs/architecture.md names
UPWARD = {
    ("_frame.py", "dask"),
    ("compare/auto/result.py", "charts"),
    ("measure_set.py", "uncertainty"),
    ("confusion.py", "uncertainty"),
}


def _imports() -> list[tuple[str, str, ast.ImportFrom | ast.Import]]:
    """(file relative to the package, its top-level module, import node) for every import of a
    frameeval module anywhere in the package (module level or inside functions)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        top = rel.split("/")[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom | ast.Import):
                out.append((rel, top, node))
    return out


def _targets(node: ast.ImportFrom | ast.Import) -> list[tuple[str, list[str]]]:
    """(top-level frameeval module imported, names imported from it). ``import frameeval`` and
    ``from frameeval import name`` (a name of the flat namespace, not a module) import the
    package's ``__init__``, the top layer."""
    if isinstance(node, ast.Import):
        return [
            ("__init__" if a.name == "frameeval" else a.name.split(".")[1], [])
            for a in node.names
            if a.name == "frameeval" or a.name.startswith("frameeval.")
        ]
    module = node.module or ""
    if module == "frameeval":
        return [(a.name, []) if a.name in LAYER else ("__init__", [a.name]) for a in node.names]
    if module.startswith("frameeval."):
        return [(module.split(".")[1], [a.name for a in node.names])]
    return []


def test_every_top_level_module_has_a_layer_and_is_on_the_page() -> None:
    tops = {
        p.name.removesuffix(".py")
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))
    }
    assert tops == set(LAYER), f"unlisted: {tops - set(LAYER)}, gone: {set(LAYER) - tops}"
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for name in tops:
        shown = f"{name}/" if (PACKAGE / name).is_dir() else f"{name}.py"
        assert shown in page, f"docs/architecture.md does not show {shown}"


def test_no_module_imports_a_higher_layer() -> None:
    upward = set()
    for rel, top, node in _imports():
        for target, _ in _targets(node):
            if target in LAYER and LAYER[target] > LAYER[top]:
                upward.add((rel, target))
    assert upward == UPWARD


def test_no_underscore_name_crosses_top_level_modules() -> None:
    crossing = []
    for rel, top, node in _imports():
        for target, names in _targets(node):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if target != top and private:
                crossing.append((rel, target, private))
    assert crossing == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import frameeval", [("__init__", [])]),
        ("import frameeval as fe", [("__init__", [])]),
        ("import frameeval.charts as c", [("charts", [])]),
        ("from frameeval import accuracy, charts", [("__init__", ["accuracy"]), ("charts", [])]),
        ("from frameeval import _DASK_FORMS", [("__init__", ["_DASK_FORMS"])]),
        ("from frameeval.compare import friedman", [("compare", ["friedman"])]),
        ("import polars as pl", []),
    ],
)
def test_every_form_of_importing_frameeval_is_seen(source: str, expected: list) -> None:
    """``import frameeval`` from a lower layer imports the top of the package (its
    ``__init__``): the layer rule sees it, as it sees ``from frameeval import accuracy``."""
    (node,) = ast.parse(source).body
    assert isinstance(node, ast.Import | ast.ImportFrom)
    assert _targets(node) == expected
