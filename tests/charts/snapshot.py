"""Reduced Vega-Lite specs for snapshot tests: structure (layers, marks, encodings, transforms,
titles), not data values.

Data sets become the sorted list of their columns and get stable names (``data0``, ``data1``… in
order of first reference); explicit sort orders (lists of data values) become their length;
``$schema`` and Altair's default ``config`` are dropped. Set
``FRAMEEVAL_UPDATE_SNAPSHOTS=1`` to rewrite the stored snapshots after an intended change.
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

SNAPSHOTS = Path(__file__).parent / "snapshots"


def _columns(records: list[dict[str, Any]]) -> list[str]:
    return sorted({key for record in records for key in record})


def skeleton(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec without data values (see the module docstring)."""
    datasets = spec.get("datasets", {})
    names: dict[str, str] = {}

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key in ("$schema", "datasets", "config"):
                    continue
                if key == "data" and isinstance(value, dict):
                    if "name" in value:
                        name = names.setdefault(value["name"], f"data{len(names)}")
                        out[key] = {"name": name}
                    elif "values" in value:
                        out[key] = {"columns": _columns(value["values"])}
                    else:
                        out[key] = walk(value)
                    continue
                if key == "sort" and isinstance(value, list):
                    out[key] = f"<{len(value)} values>"  # an order of data values
                    continue
                out[key] = walk(value)
            return out
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    reduced = walk(spec)
    reduced["datasets"] = {
        names[name]: _columns(records) for name, records in datasets.items() if name in names
    }
    return reduced


def _rounded(node: Any) -> Any:
    """Floats to 12 significant digits: a scale domain computed from data may differ in its
    last bit between runs (the streaming engine sums in varying order)."""
    if isinstance(node, float):
        return float(f"{node:.12g}")
    if isinstance(node, dict):
        return {key: _rounded(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_rounded(item) for item in node]
    return node


def assert_matches_snapshot(name: str, spec: dict[str, Any]) -> None:
    """Compare a chart's skeleton with the stored snapshot (or rewrite it when asked)."""
    path = SNAPSHOTS / f"{name}.json"
    reduced = _rounded(json.loads(json.dumps(skeleton(spec), sort_keys=True)))
    if os.environ.get("FRAMEEVAL_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(json.dumps(reduced, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        return
    assert path.exists(), (
        f"no snapshot {path.name}; run with FRAMEEVAL_UPDATE_SNAPSHOTS=1 to create it"
    )
    stored = _rounded(json.loads(path.read_text()))
    if reduced != stored:
        diff = difflib.unified_diff(
            json.dumps(stored, indent=1, sort_keys=True, ensure_ascii=False).splitlines(),
            json.dumps(reduced, indent=1, sort_keys=True, ensure_ascii=False).splitlines(),
            "snapshot",
            "chart",
            lineterm="",
        )
        raise AssertionError(
            f"chart {name!r} differs from its snapshot {path.name}:\n" + "\n".join(list(diff)[:60])
        )
