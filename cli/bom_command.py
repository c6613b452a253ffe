"""``main.py bom FILE -o OUT.csv|OUT.xlsx``: the bill of materials.

CSV: one line per part with a closing Total line. XLSX: sheets "Summary", "BOM",
"Cabling schedule" and "Warnings".
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cli import CliError
from cli.export_common import add_policy_argument, load_and_route
from cli.progress import Progress
from model.bom import bom_lines, bom_totals, export_findings, summary_rows
from model.export import ExportError
from model.export.bom_export import write_bom_csv, write_bom_xlsx
from model.fabrics import plant_fabric_rows
from model.plant import build_plant
from model.schedule import schedule_table


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
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise CliError(f"cannot write {out.name}: the output must end in .csv or .xlsx")
    progress = Progress("bom")
    design, plant = load_and_route(args.file, args.policy)
    progress.step("routed")
    # One physical plant for the BOM lines (by fabric) and the schedule sheet (per link)
    phys = (
        build_plant(plant, with_links=True, fabric_rows=plant_fabric_rows(design, plant))
        if suffix == ".xlsx"
        else None
    )
    lines = bom_lines(design, plant, phys)
    progress.step("counted")
    try:
        if suffix == ".csv":
            write_bom_csv(out, lines)
        else:
            findings = export_findings(design, plant, phys)
            progress.step("analysed")
            summary = summary_rows(design, plant, lines, findings)
            schedule = schedule_table(design, plant, phys)
            progress.step("scheduled")
            write_bom_xlsx(out, summary, lines, schedule, findings)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    progress.done()
    totals = bom_totals(lines)
    print(
        f"{out}: {len(lines)} BOM lines, {totals.power_w / 1000:,.1f} kW, "
        f"USD {totals.price_usd:,.0f} (indicative)"
    )
    return 0
