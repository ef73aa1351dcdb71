"""Extension points: what a lower layer hands to a higher one without importing it.

A few features of a lower layer are carried out by a higher one: ``Comparison.chart()``
(``compare``, layer 5) draws with ``frameeval.charts`` (layer 7). Importing upwards would close an
import circle, so the lower layer names an *extension point* here and the top of the package
(``frameeval/__init__.py``, which Python runs before any submodule) says which function serves it.
The provider is named by its module and attribute and imported on first use, so nothing heavy
is imported before it is needed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from frameeval.exceptions import FrameEvalError

_PROVIDERS: dict[str, tuple[str, str]] = {}


def provide(**points: tuple[str, str]) -> None:
    """Say which function serves each point: ``point=(module, attribute)``, imported when
    asked for."""
    _PROVIDERS.update(points)


def provider(point: str) -> Callable[..., Any]:
    """The function that serves ``point``, loaded now."""
    try:
        module, attribute = _PROVIDERS[point]
    except KeyError:
        raise FrameEvalError(
            f"frameeval: no provider for the extension point {point!r}, got "
            f"{sorted(_PROVIDERS)}.\nHint: import frameeval first."
        ) from None
    served: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
    return served
