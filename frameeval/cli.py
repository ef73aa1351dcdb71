"""The ``frameeval`` command. Thin: parses arguments, calls the library, prints."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from frameeval._version import __version__


def _demo(args: argparse.Namespace) -> int:
    import polars as pl

    import frameeval as fe

    data = pl.DataFrame(
        {
            "model": ["a"] * 6 + ["b"] * 6,
            "y": [1, 0, 1, 1, 0, 0] * 2,
            "p": [1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0],
        }
    )
    report = fe.classification_report(data, truth="y", pred="p", by="model")
    with pl.Config(tbl_rows=-1):
        print(report)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="frameeval",
        description="Model evaluation and selection on long-format result frames.",
    )
    parser.add_argument("--version", action="version", version=f"frameeval {__version__}")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="print a classification report of a tiny example")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except Exception as err:  # one line, not a traceback
        from frameeval.exceptions import FrameEvalError

        if isinstance(err, FrameEvalError | OSError):
            print(f"frameeval: error: {err}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
