"""Console progress of ``frameeval report``: a tqdm bar on a terminal, plain lines otherwise."""

from __future__ import annotations

import io

from frameeval.report.build import STEPS
from frameeval.report.progress import ConsoleProgress


def test_plain_lines_when_not_a_terminal() -> None:
    out = io.StringIO()  # not a TTY
    with ConsoleProgress(STEPS, stream=out) as progress:
        progress("columns: truth='y' (inferred)")
        for step in STEPS:
            progress(step)
    lines = out.getvalue().splitlines()
    assert lines == [
        "frameeval: columns: truth='y' (inferred)…",
        *[f"frameeval: {step}…" for step in STEPS],
    ]


def test_a_bar_on_a_terminal_counts_the_steps() -> None:
    out = io.StringIO()
    progress = ConsoleProgress(STEPS, stream=out, bar=True)  # as on a TTY
    progress("columns: truth='y' (inferred)")
    for step in STEPS[:3]:
        progress(step)
    assert progress._bar.n == 3 and progress._bar.total == len(STEPS)
    progress.close()
    text = out.getvalue()
    assert "frameeval: columns: truth='y' (inferred)" in text  # info lines above the bar
    assert f"3/{len(STEPS)}" in text and "\r" in text  # a redrawn bar, not lines


def test_quiet_prints_nothing() -> None:
    out = io.StringIO()
    with ConsoleProgress(STEPS, stream=out, quiet=True, bar=True) as progress:
        for step in STEPS:
            progress(step)
    assert out.getvalue() == ""
