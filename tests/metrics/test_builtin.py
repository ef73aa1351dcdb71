"""Each built-in measure's name is written once, in its declaration (issue 33, point 5): the
builders, the ``__all__`` of ``frameeval.metrics`` and ``frameeval``, the doctests and the
typed stub are generated from the registry. And ``Measure``'s fields after ``formula_text``
are keyword-only, still taken by position for one release with a DeprecationWarning."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import frameeval as fe
from frameeval.metrics import builtin, classification, probability, ranking, regression

MODULES = (classification, probability, ranking, regression)


def test_the_stub_for_type_checkers_is_current() -> None:
    """builtin.pyi is what ``python -m frameeval.metrics.builtin`` writes; regenerate it with
    that command after declaring a measure."""
    path = Path(builtin.__file__).with_suffix(".pyi")
    assert path.read_text(encoding="utf-8") == builtin.stub()


def test_every_registered_measure_and_alias_has_its_builder_everywhere() -> None:
    names = {
        n
        for n, m in fe.MEASURES.items()
        if any(m is getattr(mod, c, None) for mod in MODULES for c in mod.__all__)
    }
    assert names == set(builtin.__all__)
    for name in names:
        builder = getattr(fe, name)
        assert builder is getattr(fe.metrics, name) is getattr(builtin, name)
        assert builder.__name__ == name and builder.measure is fe.MEASURES[name]
        assert name in fe.__all__ and name in fe.metrics.__all__
        home = next(mod for mod in MODULES if name in mod.__all__)
        assert getattr(home, name) is builder and name in home.__test__
        assert f"fe.{name}(" in inspect.getdoc(builder)  # its doctest calls it by its name
    assert fe.MEASURES["recall"].builder is fe.recall and fe.tpr is not fe.recall


def test_the_declarations_pass_every_field_by_keyword() -> None:
    """No built-in declaration passes a field by position (``True, 0.0, 1.0, "2.8"``)."""
    for module in MODULES:
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                "declare", "_declare", "Measure",
            ):  # fmt: skip
                assert not node.args, f"{module.__name__}:{node.lineno} passes by position"


def test_the_fields_after_formula_text_by_position_warn_and_still_work() -> None:
    head = ("x", "binary", lambda c: c.tp, True, 0.0, 1.0, "—", "d", "t")
    with pytest.warns(
        DeprecationWarning,
        match=r"Measure\(\): passing undefined, references "
        r"by position is deprecated .* \(undefined=, references=\), got 11",
    ):
        old = fe.Measure(*head, "never defined", ("a paper",))  # type: ignore[misc]
    assert (old.undefined, old.references) == ("never defined", ("a paper",))
    nine = fe.Measure(*head)  # the nine leading fields by position: no warning
    assert nine.undefined == "never" and nine.name == "x"
    with pytest.raises(TypeError, match="multiple values for argument 'undefined'"):
        fe.Measure(*head, "a", undefined="b")  # type: ignore[misc]
    params = inspect.signature(fe.Measure).parameters
    assert params["undefined"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["formula_text"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
