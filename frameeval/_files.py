"""Writing files safely: the whole new content or the old file, never a half-written one.

Used by :func:`frameeval.charts.save` and the report page (:mod:`frameeval.report.page`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


def _file_mode(path: Path) -> int:
    """The permissions a plain ``open(path, "w")`` would give (mkstemp's are owner-only)."""
    if path.exists():
        return path.stat().st_mode & 0o777
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` through a temporary file in the same directory, then rename
    it over ``path`` (a reader sees the old file or the new one, never a partial write); the file
    gets the permissions ``open(path, "w")`` would give."""
    mode = _file_mode(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
