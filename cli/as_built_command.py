"""``main.py as-built FILE LENGTHS.csv [-o OUT.hall.json]``: measured lengths into the design.

Each row names a cable by its label and gives the measured length in metres; the links get
them as as-built lengths, and the estimate's error is reported per route kind so the slack
settings can be recalibrated. Writes FILE in place unless ``-o`` names another file.
"""

from __future__ import annotations

import argparse
import os
import sys

from cli import CliError, load_or_refuse
from model.asbuilt.lengths import apply_lengths, read_lengths
from model.asbuilt.report_csv import ReportError
from model.engine.routed_links import RoutedLinks
from model.files.design_file import DesignFileError, save_design


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name, help="measured cable lengths (by label) into the design's as-built lengths"
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument("lengths", help="CSV with columns label, length_m")
    parser.add_argument(
        "-o", "--output", metavar="OUT.hall.json", help="save here instead of over FILE"
    )


def run(args: argparse.Namespace) -> int:
    if args.output and os.path.realpath(args.output) == os.path.realpath(args.lengths):
        raise CliError(f"cannot write {args.output}: it is the lengths file {args.lengths}")
    design = load_or_refuse(args.file)
    try:
        measured = read_lengths(args.lengths)
    except ReportError as exc:
        raise CliError(str(exc)) from None
    plant = RoutedLinks(design)
    errors, problems = apply_lengths(design, plant, measured)
    for problem in problems:
        print(f"hallwright as-built: {args.lengths}: {problem}", file=sys.stderr)
    out = args.output or args.file
    try:
        save_design(design, out)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    applied = sum(e.cables for e in errors)
    print(f"{out}: {applied} as-built lengths of {len(measured)} rows")
    print(
        f"{'route':22} {'cables':>6} {'mean err m':>10} {'mean |err| m':>12} {'max |err| m':>11} {'mean err %':>10}"
    )
    for e in errors:
        print(
            f"{e.route_kind:22} {e.cables:6d} {e.mean_error_m:10.2f} {e.mean_abs_error_m:12.2f} "
            f"{e.max_abs_error_m:11.2f} {e.mean_error_pct:10.1f}"
        )
    return 0
