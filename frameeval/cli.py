"""The ``frameeval`` command. Thin: parses arguments, checks them on the data's schema (and a
cheap scan of the truth column), calls the library, prints.

No column is ignored silently: a role with no column is said on stderr (``frameeval report:
warning: …``, even with ``-q``), with the unused columns and a "did you mean" when one of them
looks like the role; the page says it too.

Exit codes: 0 success; 2 a usage error (a flag, a column name, a label, the input or output
path) — one line on stderr naming the flag, found before any work; 1 an error in the data found
while computing (one line on stderr).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import frameeval as fe
from frameeval._params import FRACTION, NON_NEGATIVE, Number
from frameeval._roles import COMMON_NAMES
from frameeval._version import __version__
from frameeval.datasets import EXAMPLE_RESULTS, ITEMS_RESULTS, REGRESSION_RESULTS
from frameeval.exceptions import FrameEvalError

EXIT_OK, EXIT_DATA, EXIT_USAGE = 0, 1, 2
_ROLE_HELP = {
    "truth": "the true label column",
    "pred": "the predicted (hard) label column",
    "score": "the score column (numeric, larger = more positive), for ROC, P-R and cost curves",
    "learner": "the learner (model) column",
    "fold": "the cross-validation fold column",
    "repeat": "the repetition (run, seed) column",
    "instance": "the test-instance (row id) column, for McNemar's pairing",
}


class _UsageError(Exception):
    """A command-line mistake: one line, exit code 2."""


class _Formatter(argparse.HelpFormatter):
    """Help that shows each option's default (where it has one worth showing)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            action.option_strings
            and "%(default)" not in text
            and action.default not in (None, False, argparse.SUPPRESS)
        ):
            text += " (default: %(default)s)"
        return text


def _report(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if not args.example and args.results is None:
        parser.print_usage(sys.stderr)
        raise _UsageError(
            "give RESULTS (a Parquet file, a glob of Parquet files, a CSV file, or "
            "lm-evaluation-harness samples files) or --example."
        )
    if args.example and args.results is not None:
        raise _UsageError("give either RESULTS or --example, not both.")
    if Path(args.output).exists() and not args.force:
        raise _UsageError(f"-o/--output {args.output!r} exists; pass --force to overwrite it.")
    _check_numbers(args)
    lm_eval = args.results is not None and args.results.lower().endswith(".jsonl")
    if args.item is not None or args.example == "items" or lm_eval:
        return _items_report(args)

    examples = {"classification": EXAMPLE_RESULTS, "regression": REGRESSION_RESULTS}
    source = str(examples[args.example]) if args.example else _existing(args.results)
    data, resolved, pos_label = _checked_input(args, source)
    # no column is ignored silently: a role without one, and the unused columns (even with -q)
    for line in resolved.unused(data.collect_schema().names()).warnings():
        if resolved.task == "regression" and ("--score" in line or "--pred " in line):
            continue  # a regression has no score (and its pred is required)
        print(f"{parser.prog}: warning: {line}", file=sys.stderr)

    from frameeval.report import write
    from frameeval.report.build import STEPS
    from frameeval.report.progress import ConsoleProgress
    from frameeval.report.regression import REGRESSION_STEPS
    from frameeval.report.sections import Options

    steps = REGRESSION_STEPS if resolved.task == "regression" else STEPS
    progress = ConsoleProgress(steps, quiet=args.quiet)  # a tqdm bar on a TTY, else lines
    args.progress = progress  # an error is said with the step it happened in
    progress(f"task: {resolved.task}; columns: {_described(resolved)}")
    options = Options(
        args.alpha, args.rope, args.cost01, args.cost10, pos_label, args.score_decimals,
        Path(source).name if args.example else source, tuple(args.sensitive or ()),
    )  # fmt: skip
    with progress:
        path = write(
            data, args.output, resolved, options, title=args.title, force=args.force,
            progress=progress,
        )  # fmt: skip
    print(f"frameeval: wrote {path}", file=sys.stderr)
    return EXIT_OK


def _described(resolved: Any) -> str:
    """The columns by role and the forecast columns, each said inferred or given."""
    inferred = resolved.inferred
    extra = [
        f"{role}={column!r} ({'inferred' if role in inferred else 'given'})"
        for role, column in resolved.forecast.columns().items()
        if column is not None
    ]
    return ", ".join([resolved.roles.describe(set(inferred)), *extra])


def _checked_input(args: argparse.Namespace, source: str) -> tuple[Any, ...]:
    """Everything the user typed, checked on the schema and a cheap scan — the roles inferred
    and the task checked once: ``(data, resolved, pos_label)``; an error is a usage error
    (exit 2) naming the flag."""
    from frameeval.report.roles import (
        Roles,
        check_roles,
        numeric_score,
        read_results,
        resolve,
        with_forecast,
    )

    try:  # everything the user typed is checked here, on the schema and a cheap scan
        data = read_results(source)
        given = Roles(
            args.truth, args.pred, args.score, args.learner, args.by, args.fold, args.repeat,
            args.instance,
        )  # fmt: skip
        resolved = resolve(data, given, task=args.task, sensitive=args.sensitive or (), cli=True)
        roles = resolved.roles
        pos_label = check_roles(data, roles, args.pos_label, cli=True, task=resolved.task)
        data = numeric_score(data, roles)
        forecast = {"lower": args.lower, "upper": args.upper, "quantile": args.quantile}
        resolved = with_forecast(data, resolved, forecast, args.level, cli=True)
    except FrameEvalError as err:
        raise _UsageError(_first_line(err).removeprefix("frameeval report: error: ")) from None
    return data, resolved, pos_label


def _items_report(args: argparse.Namespace) -> int:
    """``frameeval report --item ITEM`` (or ``--example items``): the item-level report."""
    from frameeval.report.items import ITEM_STEPS, items_report
    from frameeval.report.progress import ConsoleProgress
    from frameeval.report.roles import read_results

    example = args.example == "items"
    if args.example and not example:
        raise _UsageError("--item goes with RESULTS or --example items, not another example.")
    source = str(ITEMS_RESULTS) if example else _existing(args.results)
    # lm-evaluation-harness samples files read into benchmark, model, item, score
    lm_eval = not example and source.lower().endswith(".jsonl")
    item = "item" if (example or lm_eval) and args.item is None else args.item
    cluster = "cluster" if example and args.cluster is None else args.cluster
    sample = "epoch" if example and args.sample is None else args.sample
    progress = ConsoleProgress(ITEM_STEPS, quiet=args.quiet)
    try:
        with progress:
            path = items_report(
                read_results(source),
                args.output,
                item=item,
                score=args.score,
                model=args.learner,
                benchmark=args.by,
                cluster=cluster,
                sample=sample,
                alpha=args.alpha,
                title=args.title,
                force=args.force,
                progress=progress,
            )
    except FrameEvalError as err:
        raise _UsageError(_first_line(err).removeprefix("report(): ")) from None
    print(f"frameeval: wrote {path}", file=sys.stderr)
    return EXIT_OK


#: the numeric flags (their ``args`` names): the rule (frameeval._params) and its wording
_NUMBERS = {
    "alpha": (FRACTION, "a number in (0, 1)"),
    "cost01": (NON_NEGATIVE, "finite >= 0"),
    "cost10": (NON_NEGATIVE, "finite >= 0"),
    "rope": (
        Number(low=0.0, none=True),
        "finite >= 0 (the half-width of the region of practical equivalence)",
    ),
    "score_decimals": (Number(low=0, integer=True, none=True), "an integer >= 0"),
}


def _check_numbers(args: argparse.Namespace) -> None:
    """The numeric flags, before any work: each error names its flag."""
    for name, (rule, text) in _NUMBERS.items():  # loop-ok: five flags
        value = getattr(args, name)
        if not rule.holds(value):
            flag = "--" + name.replace("_", "-")
            raise _UsageError(f"{flag} must be {text}, got {value}.")


def _existing(source: str) -> str:
    """RESULTS, required to name a file or a glob of files that exist."""
    import glob

    found = bool(glob.glob(source)) if any(ch in source for ch in "*?[") else Path(source).exists()
    if not found:
        raise _UsageError(
            f"RESULTS {source!r} must name a file or a glob of files, got no such file."
        )
    return source


#: ``accuracy(): `` at the start of a library error: the report's reader did not call it
_FUNCTION = re.compile(r"^[A-Za-z_][\w.]*\(\): ")


def _reader_line(err: BaseException, step: str | None) -> str:
    """A data error for the report's reader: the report step it happened in and the column,
    not the internal function (``accuracy(): column 'pred' …`` → ``while counting …: column
    'pred' …``)."""
    line = _FUNCTION.sub("", _first_line(err))
    return f"while {step}: {line}" if step else line


def _first_line(err: BaseException) -> str:
    text = str(err)
    return text.splitlines()[0] if text else type(err).__name__


def _demo(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import polars as pl

    data = fe.datasets.example_results().filter(pl.col("dataset") == "breast_cancer")
    table = (
        data.group_by("learner")
        .agg(fe.accuracy("truth", "pred"), fe.f1("truth", "pred"), fe.roc_auc("truth", "score"))
        .sort("learner")
    )
    size = (
        fe.collect(data.lazy())
        .select(
            pl.col("instance").n_unique().alias("n"),
            pl.col("learner").n_unique().alias("k"),
            pl.col("fold").n_unique().alias("folds"),
            pl.col("repeat").n_unique().alias("repeats"),
        )
        .row(0, named=True)
    )
    repeats = "" if size["repeats"] == 1 else f" × {size['repeats']} repeats"
    print(
        f"Breast cancer (Wisconsin diagnostic, scikit-learn): {size['n']} patients, positive "
        f"class 1 = malignant. {size['k']} learners, {size['folds']}-fold cross-validation"
        f"{repeats}.\nEach learner's accuracy, F1 (of the positive class) and ROC AUC, pooled "
        f"over the test folds (every patient predicted once{' per repeat' if repeats else ''} "
        "by a model that did not see it):"
    )
    with pl.Config(tbl_rows=-1, float_precision=3, tbl_hide_dataframe_shape=True):
        print(table)
    print(
        "A whole report on all four example data sets, with the tests that say which "
        "differences matter: frameeval report --example"
    )
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="frameeval",
        description="Model evaluation and selection on long-format result frames.",
        epilog="Exit codes: 0 success, 2 usage error (a flag, column, label or path), "
        "1 data error found while computing. Errors are one line on stderr.",
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"frameeval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    rep = sub.add_parser(
        "report",
        help="write a self-contained HTML report of a result table",
        description="Write one self-contained (offline) HTML report of a long result table "
        "(one row per prediction: Parquet, a glob of Parquet files, or CSV; or "
        "lm-evaluation-harness samples files, read as an item-level study). Column roles "
        "not given are inferred from common names and printed; a role with several "
        "candidate columns must be given.",
        epilog="Exit codes: 0 success, 2 usage error, 1 data error.",
        formatter_class=_Formatter,
    )
    _input_arguments(rep)
    _role_arguments(rep)
    _analysis_arguments(rep)
    rep.set_defaults(func=_report, sub=rep)
    demo = sub.add_parser(
        "demo",
        help="print accuracy, F1 and AUC of the embedded example (no input needed)",
        description="Print accuracy, F1 and ROC AUC of five learners on the embedded "
        "breast-cancer example results: a first look without any data of your own.",
        formatter_class=_Formatter,
    )
    demo.set_defaults(func=_demo, sub=demo)
    return parser


def _input_arguments(rep: argparse.ArgumentParser) -> None:
    """RESULTS or --example, and where the page goes."""
    rep.add_argument(
        "results",
        nargs="?",
        metavar="RESULTS",
        help="Parquet file, glob of Parquet files (quote it), CSV file, or "
        "lm-evaluation-harness samples files (.jsonl, quote a glob)",
    )
    rep.add_argument(
        "--example",
        nargs="?",
        const="classification",
        choices=("classification", "regression", "items"),
        help="use embedded example results (real data, 5 learners x 4 data sets) instead "
        "of RESULTS: the classifiers (--example alone), the regressors (--example "
        "regression) or an item-level study (--example items)",
    )
    rep.add_argument(
        "-o", "--output", default="report.html", metavar="PATH", help="output HTML file"
    )
    rep.add_argument("--force", action="store_true", help="overwrite an existing output file")


def _role_arguments(rep: argparse.ArgumentParser) -> None:
    """The columns by role (inferred when not given), the task and the forecast and item-level columns."""

    for role, text in _ROLE_HELP.items():
        names = ", ".join(COMMON_NAMES[role])
        rep.add_argument(
            f"--{role}", metavar="COLUMN", help=f"{text} (default: the column named {names})"
        )
    blocks = ", ".join(COMMON_NAMES["block"])
    rep.add_argument(
        "--by",
        metavar="COLUMN",
        help="the data set (block) column; the tests compare learners over its "
        f"values (default: the column named {blocks})",
    )
    rep.add_argument(
        "--pos-label",
        metavar="LABEL",
        help="positive class of the binary data sets; required for string labels "
        "(default: 1, or True for boolean labels)",
    )
    rep.add_argument(
        "--task",
        choices=("classification", "regression"),
        help="the task (default: detected — a truth or pred column with non-integral "
        "numbers is a regression)",
    )
    for side, names in (
        ("lower", "lower, y_lower, pred_lower, lower_bound or lo"),
        ("upper", "upper, y_upper, pred_upper, upper_bound or hi"),
    ):
        rep.add_argument(
            f"--{side}",
            metavar="COLUMN",
            help=f"regression: the {side} bound of a prediction interval (default: the column "
            f"named {names})",
        )
    rep.add_argument(
        "--quantile",
        metavar="COLUMN",
        help="regression: the level of each row's predicted quantile (one row per instance x "
        "level; default: the column named quantile, level, tau or q)",
    )
    rep.add_argument(
        "--level",
        type=float,
        default=0.9,
        help="regression: nominal coverage of the --lower/--upper intervals",
    )
    for role, text in (
        (
            "item",
            "item-level study: the item column (one row per model x item [x sample]); "
            "gives the item-level report (paired, clustered comparisons, leaderboard)",
        ),
        ("cluster", "item-level study: the column of each item's cluster (clustered SEs)"),
        ("sample", "item-level study: the column numbering K answers per item (epoch, seed)"),
    ):
        rep.add_argument(f"--{role}", metavar="COLUMN", help=text)


def _analysis_arguments(rep: argparse.ArgumentParser) -> None:
    """The tests, costs, subgroups and display options."""
    rep.add_argument("--alpha", type=float, default=0.05, help="significance level of the tests")
    rep.add_argument(
        "--rope",
        type=float,
        metavar="R",
        help="half-width of a region of practical equivalence, in the units of accuracy and "
        "AUC (e.g. 0.01, one point): the answer then uses the Bayesian signed-rank test over "
        "data sets (Benavoli et al. 2017) instead of p-values (default: none)",
    )
    rep.add_argument(
        "--cost01",
        type=float,
        default=1.0,
        help="cost of missing a positive, for the cost curves (eq 2.23)",
    )
    rep.add_argument(
        "--cost10",
        type=float,
        default=1.0,
        help="cost of a false alarm, for the cost curves (eq 2.23)",
    )
    rep.add_argument("--title", default="frameeval report", help="title of the HTML page")
    rep.add_argument(
        "--sensitive",
        nargs="+",
        metavar="COL",
        help="column(s) whose groups (their intersections) a Subgroups section compares: "
        "each learner's gaps with intervals, learners compared on the same rows, slices found",
    )
    rep.add_argument(
        "--score-decimals",
        type=int,
        metavar="N",
        help="round scores to N decimals before ROC/AUC/P-R/cost curves (for "
        "continuous scores on very large inputs; default: exact)",
    )
    rep.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_OK
    sub: Any = args.sub
    try:
        return int(args.func(args, sub))
    except _UsageError as err:
        print(f"{sub.prog}: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("frameeval: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # a one-line message, not a traceback
        step = getattr(getattr(args, "progress", None), "step", None)
        print(f"{sub.prog}: error: {_reader_line(err, step)}", file=sys.stderr)
        return EXIT_DATA


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
