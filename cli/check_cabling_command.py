"""``main.py check-cabling FILE REPORT... [--format F] [-o OUT.csv]``: observed neighbours
against the design.

A report is ibnetdiscover or iblinkinfo output, lldpctl ``-f json`` or ``-f keyvalue`` (one
file per host, named after it), a Cable Validation Tool link table (.xlsx or .csv), a NetBox
cable CSV or Hallwright's own neighbour CSV; its format is detected unless ``--format`` names
it. Exit 0 when every link was seen where the design puts it, 1 when a link is MISWIRED or
MISSING, 2 on bad input.
"""

from __future__ import annotations

import argparse

from cli import CliError, load_or_refuse
from cli.export_common import output_path, summary_stream
from model.asbuilt.cabling_check import (
    FORMATS,
    PROBLEMS,
    ReportError,
    check_cabling,
    stream_report,
    summary,
)
from model.outputs.writers import ExportError
from model.outputs.writers.csv_writer import write_csv

RESULT_COLUMNS = ("status", "link_id", "label", "expected", "observed", "report_lines")


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="compare what the hall reports (ibnetdiscover, iblinkinfo, lldpctl, CVT, NetBox "
        "cables, neighbour CSV) with the design's links",
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument(
        "report",
        nargs="+",
        help="report file(s) or folder(s) of them; LLDP: one file per host, named after the "
        "host unless it holds the host's 'show chassis' output",
    )
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        help="the reports' format (default: detected from each file): "
        + "; ".join(f"{f.name}: {f.title}" for f in FORMATS.values()),
    )
    parser.add_argument("-o", "--output", metavar="OUT.csv", help="write every result row here")


def run(args: argparse.Namespace) -> int:
    if args.output:
        out, _suffix = output_path(args.output, (".csv",), inputs=[args.file, *args.report])
    design = load_or_refuse(args.file)
    try:
        rows = check_cabling(design, stream_report(args.report, args.format))
    except ReportError as exc:
        raise CliError(str(exc)) from None
    if args.output:
        try:
            write_csv(
                out,
                RESULT_COLUMNS,
                [(r.status, r.link_id, r.label, r.expected, r.observed, r.where) for r in rows],
            )
        except ExportError as exc:
            raise CliError(str(exc)) from None
    listing = summary_stream(args.output or "")  # not into the CSV on standard output
    for row in rows:
        if row.status != "OK":
            detail = row.observed or "not in the report"
            print(
                f"{row.status:10} {row.label or row.link_id or '-'}: {row.expected} ; {detail}",
                file=listing,
            )
    counts = summary(rows)
    print(", ".join(f"{n} {status}" for status, n in counts.items()), file=listing)
    return 1 if any(counts[s] for s in PROBLEMS) else 0
