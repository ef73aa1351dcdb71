"""Names every docstring example may assume (numpydoc's convention, as numpy's ``np``):
``pl`` (polars) and ``fe`` (frameeval), put in the doctest namespace here."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

import frameeval as fe


@pytest.fixture(autouse=True)
def _example_names(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace.update(pl=pl, fe=fe)
