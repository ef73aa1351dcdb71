"""What the readers share: expanding a path or glob into files, and the error of a malformed
file (naming the file and the line)."""

from __future__ import annotations

import glob
import os
from pathlib import Path

from frameeval.exceptions import FileFormatError, InvalidParameterError


def expand(func: str, path_or_glob: str | os.PathLike[str], pattern: str) -> list[Path]:
    """The files of ``path_or_glob``, sorted: one file, every file matching ``pattern`` in a
    directory (recursively), or the matches of a glob (``**`` allowed)."""
    if not isinstance(path_or_glob, str | os.PathLike):
        raise InvalidParameterError(
            f"{func}(): path_or_glob must be a path or a glob pattern (a string), got "
            f"{type(path_or_glob).__name__}."
        )
    text = os.fspath(path_or_glob)
    path = Path(text)
    if path.is_dir():
        files = sorted(p for p in path.rglob(pattern) if p.is_file())
    elif any(c in text for c in "*?["):
        files = sorted(Path(p) for p in glob.glob(text, recursive=True) if Path(p).is_file())
    elif path.is_file():
        files = [path]
    else:
        files = []
    if not files:
        raise InvalidParameterError(
            f"{func}(): path_or_glob must name a file, a directory holding {pattern!r} files "
            f"or a glob matching files, got {text!r}, which matches none."
        )
    return files


def malformed(func: str, path: Path, line: int | None, rule: str, got: str) -> FileFormatError:
    """``<func>(): <file>, line <n>: <rule>, got <got>.``"""
    where = f"{path}" if line is None else f"{path}, line {line}"
    if len(got) > 120:
        got = got[:117] + "..."
    return FileFormatError(f"{func}(): {where}: {rule}, got {got}.")
