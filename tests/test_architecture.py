"""The layers of docs/architecture.md hold: no module imports a higher layer (not even inside a
function), no file of the package is part of an import circle, no underscore name crosses
top-level modules, and the page lists every top-level module of the package."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "frameeval"

LAYERS = [
    {"exceptions", "_typing", "_version", "_deprecation", "_files", "_extensions", "_params"},
    {"_frame", "_validate", "_inputs", "_roles", "_split_frame"},
    {"metrics"},
    {"confusion", "measure_set", "curves", "thresholds", "calibration", "forecast", "io"},
    {"split", "evaluate", "decompose"},
    {"compare", "uncertainty", "items", "agreement", "ratings", "subgroups"},
    {"dask"},
    {"charts"},
    {"report"},
    {"cli", "__main__", "__init__", "datasets"},
]


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The parsed file, once per test process (the tests below read every file; none
    changes a tree)."""
    return ast.parse(path.read_text(encoding="utf-8"))


LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
#: (importing file, imported top-level module): upward imports allowed — none; a lower layer that
#: needs a higher one names an extension point (frameeval/_extensions.py) that the top serves
UPWARD: set[tuple[str, str]] = set()


def _imports() -> list[tuple[str, str, ast.ImportFrom | ast.Import]]:
    """(file relative to the package, its top-level module, import node) for every import of a
    frameeval module anywhere in the package (module level or inside functions)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        top = rel.split("/")[0].removesuffix(".py")
        for node in ast.walk(_tree(path)):
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


def _module_of(rel: str) -> str:
    """``compare/auto/result.py`` -> ``frameeval.compare.auto.result``."""
    parts = rel.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["frameeval", *parts])


def _import_graph() -> dict[str, set[str]]:
    """Module -> the frameeval modules it imports anywhere (module level, inside functions,
    under ``TYPE_CHECKING``). ``from a.b import c`` imports ``a.b.c`` when that is a module,
    else ``a.b``; a relative import is resolved against the importing file's package."""
    modules = {
        _module_of(p.relative_to(PACKAGE).as_posix()): p for p in sorted(PACKAGE.rglob("*.py"))
    }
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.split(".")[0] == "frameeval"]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                if base.split(".")[0] != "frameeval":
                    continue
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rpartition(".")[0]
                if target in modules and target != module:
                    graph[module].add(target)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_circle_even_inside_functions() -> None:
    """Every import of a frameeval module counts — at module level, inside a function or under
    ``TYPE_CHECKING`` — and no set of modules imports itself round."""
    assert _circles(_import_graph()) == []


def test_every_imported_frameeval_module_exists() -> None:
    """A renamed module leaves no import behind (mypy, told to ignore missing imports, would
    not say so)."""
    missing = []
    for rel, _, node in _imports():
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[0] != "frameeval" or len(parts) < 2:
                continue
            path = PACKAGE.joinpath(*parts[1:])
            if not (path.with_suffix(".py").exists() or (path / "__init__.py").exists()):
                missing.append((rel, module))
    assert missing == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]


def test_no_underscore_name_crosses_top_level_modules() -> None:
    crossing = []
    for rel, top, node in _imports():
        for target, names in _targets(node):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if target != top and private:
                crossing.append((rel, target, private))
    assert crossing == []


def private_module_imports() -> list[tuple[str, str]]:
    """(importing file, module) for every import of a ``_``-named module of another top-level
    package (``frameeval.metrics.stats`` from ``forecast/``)."""
    found = []
    for rel, top, node in _imports():
        if isinstance(node, ast.ImportFrom) and not node.level:
            names = [f"{node.module}.{a.name}" for a in node.names]
            modules = [node.module or "", *names]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if len(parts) < 3 or parts[0] != "frameeval" or parts[1] == top:
                continue
            path = PACKAGE.joinpath(*parts[1:])
            is_module = path.with_suffix(".py").exists() or (path / "__init__.py").exists()
            if is_module and any(p.startswith("_") and not p.startswith("__") for p in parts[2:]):
                found.append((rel, module))
    return sorted(set(found))


def test_no_module_imports_another_packages_private_module() -> None:
    """A ``_`` module is its package's own; what other packages use has a public name."""
    assert private_module_imports() == []


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


# ---------------------------------------------------------------------------------------------
# one way in (issue 33 point 1): the input sequence is declared, not hand-written
# ---------------------------------------------------------------------------------------------
#: the schema rules of the input sequence; :mod:`frameeval._inputs` compiles them from a
#: declaration (``Inputs(Column(role, kind, *rules))``)
DTYPE_RULES = {"check_labels", "check_numeric", "check_numeric_or_decimal"}


def _calls(name: str) -> set[str]:
    """Files of the package that call ``name`` (a plain name or an attribute)."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                if called == name:
                    found.add(path.relative_to(PACKAGE).as_posix())
    return found


def test_checks_are_built_only_by_the_compiler_of_input_declarations() -> None:
    """Every entry point's row rules come from ``Inputs.compile``: nothing else builds a
    ``Checks`` (a rule of the caller's own — a domain, a pairing — is added to the compiled
    object, so the frame face, the expression face and the Dask merge stay one object)."""
    assert _calls("Checks") == {"_inputs.py"}


def test_dtype_rules_are_called_only_by_the_compiler() -> None:
    """No hand-written ``require_columns`` → dtype check → ``Checks`` sequence: the dtype rules
    run only from a declaration (an entry point whose roles are inferred from the column names
    declares its resolved roles and compiles them after the inference; a chart declares the
    columns it plots, schema only)."""
    by_hand = set().union(*(_calls(name) for name in DTYPE_RULES)) - {"_inputs.py", "_validate.py"}
    assert by_hand == set()


def test_the_call_finder_sees_names_and_attributes() -> None:
    assert "_inputs.py" in _calls("require_columns")
    assert "charts/regression.py" in _calls("check_plotted")  # b.check_plotted(...)


def test_column_presence_is_declared() -> None:
    """An entry point's columns are named in its ``Inputs`` declaration (a column of any dtype
    is ``Column(role)``; a declaration may be compiled role by role where other checks come
    between, or after the roles are inferred), a chart's through ``charts._base.check_plotted``:
    nothing calls ``require_columns`` by hand."""
    assert _calls("require_columns") - {"_inputs.py", "_validate.py"} == set()


#: modules that still test ``isinstance(..., bool)`` by hand, and why (none is a scalar argument's
#: range check: those are ``frameeval._params`` rules)
BOOL_TESTS_BY_HAND = {
    "_params.py": "the declared validator itself",
    "_validate.py": "pos_label= must match the dtype of the truth column (a bool is a label there)",
    "compare/door.py": "a learner value must match the dtype of the learner column",
    "charts/compare/critical_difference.py": "cd= is a number or a frame: a dispatch, not a check",
    "io/lm_eval.py": "values read from a results file, not arguments",
    "report/page.py": "a bool cell is drawn as a mark, not checked",
}


def _tests_bool(node: ast.AST) -> bool:
    """``isinstance(x, bool)``, ``isinstance(x, bool | int)``, ``isinstance(x, (bool, int))``."""
    if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance"):
        return False
    if len(node.args) != 2:
        return False
    return any(isinstance(n, ast.Name) and n.id == "bool" for n in ast.walk(node.args[1]))


def test_scalar_arguments_are_checked_by_declared_rules() -> None:
    """No hand-written "a number but not a bool" check: scalar arguments are checked by a
    ``frameeval._params`` rule (``Number``, ``Flag``), except in the files listed (each with its
    reason)."""
    by_hand = {
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if any(_tests_bool(n) for n in ast.walk(_tree(path)))
    }
    assert by_hand == set(BOOL_TESTS_BY_HAND)


#: third-party libraries whose import is worth deferring (tests/test_import.py keeps them out
#: of ``import frameeval``), plus the array libraries that pull them in
HEAVY_LIBRARIES = {
    "scipy",
    "altair",
    "vl_convert",
    "great_tables",
    "statsmodels",
    "dask",
    "distributed",
    "sklearn",
    "numpy",
    "pandas",
    "pyarrow",
}

#: (importing module, imported module): frameeval imports inside a function whose target is
#: light — each binds a name the importing module also uses at module level, so it stays local
#: until that name is renamed
LIGHT_INSIDE_FUNCTIONS = {
    ("frameeval.compare.auto.run", "frameeval._roles"),
    ("frameeval.uncertainty.intervals", "frameeval.measure_set"),
}


def _module_imports(tree: ast.Module, module: str, is_package: bool) -> tuple[set, set]:
    """(targets imported at module level, frameeval targets imported inside functions)."""
    package = module if is_package else module.rpartition(".")[0]

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        return [f"{base}.{a.name}" for a in node.names]  # a name, or a module: see existing()

    top = {t for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom) for t in targets(n)}
    inner = {
        t
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        for n in ast.walk(f)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for t in targets(n)
        if t.split(".")[0] == "frameeval"
    }
    return top, inner


def test_every_frameeval_import_inside_a_function_defers_a_heavy_library() -> None:
    """An import of a frameeval module inside a function is there to keep a heavy library
    (scipy, altair, dask…) out of ``import frameeval`` — its target loads one at import time,
    directly or through its own module-level imports — or it is listed, with its reason, in
    ``LIGHT_INSIDE_FUNCTIONS``. (Circles cannot hide there: the circle test reads these
    imports too.)"""
    paths = {_module_of(p.relative_to(PACKAGE).as_posix()): p for p in PACKAGE.rglob("*.py")}
    top, inner = {}, {}
    for module, path in paths.items():
        tree = _tree(path)
        top[module], inner[module] = _module_imports(tree, module, path.name == "__init__.py")

    def existing(target: str) -> str | None:
        while target not in paths and "." in target:
            target = target.rpartition(".")[0]
        return target if target in paths else None

    # a module loads a heavy library when it, or a package above it, imports one at module
    # level, directly or through another frameeval module: the least fixed point, so the
    # answer does not depend on the order the files or sets are walked in
    direct: dict[str, bool] = {}
    through: dict[str, set[str]] = {}
    for module in paths:
        parts = module.split(".")
        chain = [module] + [".".join(parts[:i]) for i in range(2, len(parts))]
        direct[module] = any(
            target.split(".")[0] in HEAVY_LIBRARIES for m in chain for target in top[m]
        )
        through[module] = {
            t for m in chain for target in top[m] if (t := existing(target)) not in (None, m)
        }
    heavy = dict(direct)
    changed = True
    while changed:
        changed = False
        for module in sorted(paths):
            if not heavy[module] and any(heavy[t] for t in through[module]):
                heavy[module] = changed = True

    light = {
        (module, t)
        for module, targets in inner.items()
        for target in targets
        if (t := existing(target)) is not None and t != module and not heavy[t]
    }
    assert light == LIGHT_INSIDE_FUNCTIONS
