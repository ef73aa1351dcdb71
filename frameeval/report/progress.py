"""Progress of ``frameeval report`` on the console: a tqdm bar on a terminal, plain lines otherwise.

The library never prints: :func:`frameeval.report.report` calls a ``progress(message)`` callback
with each step of :data:`frameeval.report.build.STEPS`. The CLI passes a :class:`ConsoleProgress`:
on a TTY it draws one tqdm bar (steps done of all steps, the current step as its label), elsewhere
(a pipe, a CI log) it prints one plain line per step, ``frameeval: <step>…``. Messages that are
not steps (the inferred column roles) are printed as lines in both cases.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

__all__ = ["ConsoleProgress"]


class ConsoleProgress:
    """A ``progress`` callback for the console; use as a context manager (closes the bar)."""

    def __init__(
        self,
        steps: tuple[str, ...],
        *,
        quiet: bool = False,
        stream: TextIO | None = None,
        bar: bool | None = None,
    ) -> None:
        self.steps = steps
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", lambda: False)
        self._use_bar = not quiet and (bar if bar is not None else isatty())
        self._bar: Any = None  # created at the first step: an error before it leaves no bar
        #: the last step announced: an error is said with the step it happened in
        self.step: str | None = None

    def warn(self, message: str) -> None:
        """``frameeval report: warning: <message>`` on the stream, even when quiet."""
        self._line(f"frameeval report: warning: {message}")

    def _line(self, line: str) -> None:
        """One line on the stream, above the bar when there is one."""
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def __call__(self, message: str) -> None:
        if message in self.steps:
            self.step = message
        if self.quiet:
            return
        if not self._use_bar:
            print(f"frameeval: {message}…", file=self.stream, flush=True)
            return
        if message not in self.steps:
            self._line(f"frameeval: {message}")
            return
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(
                total=len(self.steps),
                file=self.stream,
                unit="step",
                leave=False,
                mininterval=0,
                bar_format="frameeval: {l_bar}{bar}| {n}/{total} [{elapsed}]",
            )
        self._bar.set_description_str(message)
        self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> ConsoleProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
