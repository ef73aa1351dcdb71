"""How the benchmarks measure one row: the best wall time of a few runs, the peak memory a run
adds (Linux: ``VmHWM`` after a reset of the high-water mark), and how a task prints its rows.

:mod:`benchmarks.run` runs the tasks of :mod:`benchmarks.tasks`; both measure with this
module, which imports neither.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


class Measure(NamedTuple):
    """One measured row: best wall time (s) and peak extra memory (bytes; None where unknown)."""

    seconds: float
    peak_bytes: int | None = None
    note: str = ""


def _status_kib(field: str) -> int | None:
    try:
        match = re.search(rf"^{field}:\s+(\d+) kB", _STATUS.read_text(), re.M)
    except OSError:
        return None
    return int(match.group(1)) if match else None


def _trim_c_heap() -> None:
    """Return the C heap's free pages to the system (glibc ``malloc_trim``; elsewhere nothing),
    so that memory NumPy or scikit-learn freed in an earlier row is not reused unseen."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def peak_memory(fn: Callable[[], Any]) -> int | None:
    """Bytes the resident set rose above its level at the start while ``fn`` ran (Linux)."""
    gc.collect()
    _trim_c_heap()
    try:
        _CLEAR_REFS.write_text("5")  # resets VmHWM to the current resident set
    except OSError:
        return None
    before = _status_kib("VmRSS")
    fn()
    after = _status_kib("VmHWM")
    if before is None or after is None:
        return None
    return max(after - before, 0) * 1024


def timed(fn: Callable[[], Any], repeat: int = 3, budget: float = 0.5, cap: float = 3.0) -> Measure:
    """Best wall time of ``repeat`` runs — more, up to 15, while they add up to less than
    ``budget`` seconds, so that a 30 ms run is not judged on 3 noisy samples; fewer (at least
    one) once they add up to ``cap`` seconds, where one run's noise is small next to its time
    (memory comes from the memory pass). The garbage collector runs once before the runs and
    is off during them, as in :mod:`timeit` (a full collection before each run cost ~0.1 s
    with scikit-learn loaded: more than most runs it preceded). ``--scale small`` passes a
    smaller ``budget`` and ``cap`` (:data:`TIMING`)."""
    best, spent, runs = float("inf"), 0.0, 0
    gc.collect()  # once: a full collection costs ~0.1 s with scikit-learn loaded
    enabled = gc.isenabled()
    gc.disable()  # as timeit does: no collector pauses inside the runs
    try:
        while runs == 0 or (runs < repeat and spent < cap) or (spent < budget and runs < 15):
            start = time.perf_counter()
            fn()
            elapsed = time.perf_counter() - start
            best, spent, runs = min(best, elapsed), spent + elapsed, runs + 1
    finally:
        if enabled:
            gc.enable()
    return Measure(best)


def _mib(peak: int | None) -> str:
    return "       n/a" if peak is None else f"{peak / 2**20:7.0f} MiB"


def report(task: str, rows: dict[str, Measure | float]) -> None:
    """Print one task: per row the ratio to frameeval's time (first), the time and the memory."""
    measures = {k: v if isinstance(v, Measure) else Measure(v) for k, v in rows.items()}
    base = measures["frameeval"].seconds
    print(f"\n## {task}")
    print(f"  {'× frameeval':>11}  {'time':>9}  {'peak mem':>11}  what")
    for name, m in measures.items():
        note = f"  ({m.note})" if m.note else ""
        print(
            f"  {m.seconds / base:10.2f}x  {m.seconds:7.3f} s  {_mib(m.peak_bytes)}  {name}{note}"
        )
