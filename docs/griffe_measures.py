"""A Griffe extension for the API reference: the built-in measures' expression builders.

``frameeval.metrics.builtin`` binds the builders at import time from the measure declarations
(each name is written once, in its declaration), so its source holds no ``def`` for Griffe's
static reading. This extension imports that one module and adds each builder as a function
member, with the signature and numpydoc docstring its declaration generates; everything else
is still read from the source.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import griffe

MODULE = "frameeval.metrics.builtin"

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: griffe.ParameterKind.positional_only,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: griffe.ParameterKind.positional_or_keyword,
    inspect.Parameter.VAR_POSITIONAL: griffe.ParameterKind.var_positional,
    inspect.Parameter.KEYWORD_ONLY: griffe.ParameterKind.keyword_only,
    inspect.Parameter.VAR_KEYWORD: griffe.ParameterKind.var_keyword,
}


def _annotation(value: Any) -> str | None:
    if value is inspect.Parameter.empty:
        return None
    return inspect.formatannotation(value).replace("polars.expr.expr.", "pl.")


def _function(name: str, builder: Any, parent: griffe.Module) -> griffe.Function:
    signature = inspect.signature(builder)
    parameters = griffe.Parameters(
        *(
            griffe.Parameter(
                p.name,
                annotation=_annotation(p.annotation),
                kind=_KINDS[p.kind],
                default=None if p.default is inspect.Parameter.empty else repr(p.default),
            )
            for p in signature.parameters.values()
        )
    )
    function = griffe.Function(
        name, parameters=parameters, returns=_annotation(signature.return_annotation)
    )
    function.docstring = griffe.Docstring(
        inspect.cleandoc(builder.__doc__ or ""), parent=function, parser="numpy"
    )
    function.parent = parent
    return function


class MeasureBuilders(griffe.Extension):
    """Add the runtime builders of :data:`MODULE` to its statically loaded module."""

    def on_module_members(self, *, mod: griffe.Module, **kwargs: Any) -> None:
        if mod.path != MODULE:
            return
        runtime = importlib.import_module(MODULE)
        for name in runtime.__all__:
            mod.set_member(name, _function(name, getattr(runtime, name), mod))
