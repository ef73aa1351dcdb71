"""``import frameeval`` stays light: the heavy dependencies load on first use (issue 15)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("scipy", "altair", "vl_convert", "great_tables", "statsmodels", "dask", "distributed")


def _loaded_after(code: str) -> set[str]:
    probe = (
        f"{code}\nimport sys\nprint('\\n'.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return set(out.stdout.split())


def test_import_frameeval_loads_no_heavy_dependency() -> None:
    loaded = _loaded_after("import frameeval")
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_the_cli_parser_loads_no_heavy_dependency() -> None:
    loaded = _loaded_after("from frameeval.cli import build_parser\nbuild_parser()")
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_lazy_names_resolve_to_the_same_objects() -> None:
    import frameeval as fe
    import frameeval.charts
    import frameeval.compare
    import frameeval.report
    import frameeval.uncertainty
    from frameeval import bootstrap_ci, friedman, write_report

    assert friedman is frameeval.compare.friedman is fe.friedman
    assert bootstrap_ci.__wrapped__ is frameeval.uncertainty.bootstrap_ci  # the Dask dispatch
    assert write_report is frameeval.report.report
    assert fe.charts.roc is frameeval.charts.roc
    assert fe.compare is frameeval.compare and fe.report is frameeval.report
    for name in fe.__all__:
        assert getattr(fe, name) is not None, name
    assert set(fe.__all__) <= set(dir(fe))


def test_an_unknown_name_is_an_attribute_error() -> None:
    import pytest

    import frameeval as fe

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        fe.nope  # noqa: B018


def test_each_subpackage_imports_first_in_a_fresh_interpreter() -> None:
    for module in (
        "frameeval.uncertainty",
        "frameeval.compare",
        "frameeval.charts",
        "frameeval.report",
        "frameeval.cli",
    ):
        # an import cycle would fail the child process (CalledProcessError)
        assert "frameeval" in _loaded_after(f"import {module}")


def test_first_use_loads_scipy() -> None:
    loaded = _loaded_after("import frameeval as fe\nfe.friedman")
    assert "scipy" in loaded
