"""The benchmark tasks run (at a tiny size) and report frameeval next to its alternatives."""

from __future__ import annotations

import pytest

from benchmarks import tasks


@pytest.mark.parametrize("name", sorted(tasks.TASKS))
def test_task_runs_and_reports(name: str) -> None:
    reported: list[tuple[str, dict[str, float]]] = []

    def timed(fn, repeat: int = 1) -> float:
        fn()
        return 1.0

    tasks.TASKS[name](20_000, 20, lambda task, rows: reported.append((task, rows)), timed, None)
    assert reported
    for _task, rows in reported:
        assert "frameeval" in rows and len(rows) >= 2
