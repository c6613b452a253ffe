"""``main.py schedule FILE -o OUT.csv``: the cabling schedule (cut sheet), one row per cable."""

from __future__ import annotations

import argparse
import sys

from cli import CliError
from cli.export_common import add_policy_argument, load_and_route, output_path, summary_stream
from cli.progress import Progress
from model.outputs.schedule import SCHEDULE_COLUMNS, schedule_table
from model.outputs.writers import ExportError

# The CSV writer itself, not model.outputs.bom_files's write_schedule_csv (the same call):
# that module brings the XLSX writer and the BOM (openpyxl, ~0.1 s of imports at start).
from model.outputs.writers.csv_writer import write_csv_columns
from model.runtime.gc_policy import collector_paused


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="cabling schedule (cut sheet) as CSV")
    parser.add_argument("file", help="a .hall.json design file")
    add_policy_argument(parser)
    parser.add_argument("-o", "--output", required=True, metavar="OUT.csv", help="output file")


def run(args: argparse.Namespace) -> int:
    out, _suffix = output_path(args.output, (".csv",), inputs=[args.file])
    progress = Progress("schedule")
    design, plant = load_and_route(args.file, args.policy)
    progress.step("routed")
    # The table and its text make millions of new objects and no garbage cycles: with the collector
    # on, its young collections re-scan them ~60 times (~0.1 s at XL) for nothing to free.
    try:
        with collector_paused():
            rows = schedule_table(design, plant)
            progress.step("scheduled")
            write_csv_columns(out, SCHEDULE_COLUMNS, rows.csv_columns())
    except ExportError as exc:
        raise CliError(str(exc)) from None
    progress.done()
    missing = rows.unordered_count()
    print(f"{out}: {len(rows)} cables", file=summary_stream(out))
    if missing:
        print(
            f"hallwright schedule: {missing} cables have no orderable medium or length "
            "(ordered_length_m is empty); run 'main.py bom' to an .xlsx for the warnings",
            file=sys.stderr,
        )
    return 0
