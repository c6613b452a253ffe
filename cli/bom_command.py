"""``main.py bom FILE -o OUT.csv|OUT.xlsx``: the bill of materials.

CSV: one line per part with a closing Total line. XLSX: sheets "Summary", "BOM",
"Cabling schedule" and "Warnings".
"""

from __future__ import annotations

import argparse

from cli import CliError
from cli.export_common import add_policy_argument, load_and_route, output_path, summary_stream
from cli.process_exit import is_own_process
from cli.progress import Progress
from model.outputs.bom import bom_totals
from model.outputs.bom_files import export_bom
from model.outputs.writers import ExportError
from model.runtime.gc_policy import collector_paused


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="bill of materials as CSV or XLSX")
    parser.add_argument("file", help="a .hall.json design file")
    add_policy_argument(parser)
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT.csv|OUT.xlsx",
        help="output file; the extension chooses the format",
    )


def run(args: argparse.Namespace) -> int:
    out, suffix = output_path(args.output, (".csv", ".xlsx"), inputs=[args.file])
    progress = Progress("bom")
    design, plant = load_and_route(args.file, args.policy)
    progress.step("routed")
    # The analysis, the schedule and the sheets make millions of new objects and almost no
    # garbage cycles: with the collector on, XL ran three full collections (0.25-0.5 s in all)
    # and ~40 middle ones that freed nothing.
    try:
        with collector_paused():
            lines = export_bom(out, design, plant, progress.step, is_own_process(), suffix)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    progress.done()
    totals = bom_totals(lines)
    print(
        f"{out}: {len(lines)} BOM lines, {totals.power_w / 1000:,.1f} kW, "
        f"USD {totals.price_usd:,.0f} (indicative)",
        file=summary_stream(out),
    )
    return 0
