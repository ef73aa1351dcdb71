"""The ``frameeval`` command. Thin: parses arguments, calls the library, prints."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from frameeval._version import __version__


def _report(args: argparse.Namespace) -> int:
    from frameeval.datasets import EXAMPLE_RESULTS
    from frameeval.exceptions import FrameEvalError
    from frameeval.report import report
    from frameeval.report.roles import read_results

    if args.example == (args.results is not None):
        raise _UsageError("give either RESULTS or --example, not both and not neither")
    if Path(args.output).exists() and not args.force:
        raise FrameEvalError(
            f"output {args.output!r} exists; refusing to overwrite it without --force"
        )
    source = str(EXAMPLE_RESULTS) if args.example else args.results
    data = read_results(source)

    from frameeval.report.build import STEPS
    from frameeval.report.progress import ConsoleProgress

    progress = ConsoleProgress(STEPS, quiet=args.quiet)  # a tqdm bar on a TTY, else lines
    from frameeval.report.roles import Roles, infer_roles

    given = Roles(truth=args.truth, pred=args.pred, score=args.score, learner=args.learner,
                  dataset=args.by, fold=args.fold, repeat=args.repeat, instance=args.instance)
    roles, inferred = infer_roles(data.collect_schema(), given)
    progress(f"columns: {roles.describe(inferred)}")
    with progress:
        path = report(
            data, args.output, truth=roles.truth, pred=roles.pred, score=roles.score,
            learner=roles.learner, dataset=roles.dataset, fold=roles.fold, repeat=roles.repeat,
            instance=roles.instance, alpha=args.alpha, cost01=args.cost01, cost10=args.cost10,
            pos_label=_label(args.pos_label), title=args.title, force=args.force,
            progress=progress, score_decimals=args.score_decimals,
        )
    print(f"frameeval: wrote {path}", file=sys.stderr)
    return 0


def _label(value: str | None) -> object:
    """A --pos-label string as the label it most likely is (an int where it parses)."""
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return value


def _demo(args: argparse.Namespace) -> int:
    import polars as pl

    import frameeval as fe

    data = fe.datasets.example_results().filter(pl.col("dataset") == "breast_cancer")
    table = data.group_by("learner").agg(
        fe.accuracy("truth", "pred"), fe.f1("truth", "pred"), fe.roc_auc("truth", "score")
    ).sort("learner")
    with pl.Config(tbl_rows=-1):
        print(table)
    return 0


class _UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="frameeval",
        description="Model evaluation and selection on long-format result frames.",
    )
    parser.add_argument("--version", action="version", version=f"frameeval {__version__}")
    sub = parser.add_subparsers(dest="command")
    rep = sub.add_parser(
        "report",
        help="write a self-contained HTML report of a result table",
        description="Write one self-contained (offline) HTML report of a long result table "
        "(Parquet, a glob of Parquet files, or CSV). Column roles not given are inferred "
        "from common names and printed.",
    )
    rep.add_argument("results", nargs="?", help="Parquet file, glob of Parquet files, or CSV")
    rep.add_argument("--example", action="store_true",
                     help="use the embedded example results (real data, 5 learners x 4 data sets)")
    rep.add_argument("-o", "--output", default="report.html", help="output HTML file")
    rep.add_argument("--force", action="store_true", help="overwrite an existing output")
    for role in ("truth", "pred", "score", "learner", "fold", "repeat", "instance"):
        rep.add_argument(f"--{role}", default=None, metavar="COLUMN", help=f"the {role} column")
    rep.add_argument("--by", default=None, metavar="COLUMN",
                     help="the data set (block) column")
    rep.add_argument("--pos-label", default=None, help="positive class of binary tasks")
    rep.add_argument("--alpha", type=float, default=0.05, help="significance level")
    rep.add_argument("--cost01", type=float, default=1.0,
                     help="cost of missing a positive (eq 2.23)")
    rep.add_argument("--cost10", type=float, default=1.0, help="cost of a false alarm")
    rep.add_argument("--title", default="frameeval report")
    rep.add_argument("--score-decimals", type=int, default=None, metavar="N",
                     help="round scores to N decimals before ROC/AUC/P-R/cost curves (for "
                     "continuous scores on very large inputs; default: exact)")
    rep.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    rep.set_defaults(func=_report)
    demo = sub.add_parser("demo", help="print a few measures of the embedded example")
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
    except _UsageError as err:
        parser.error(str(err))
    except Exception as err:  # a one-line message, not a traceback
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f"frameeval: error: {first}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
