"""``main.py export-netbox FILE -o DIR``: NetBox bulk-import CSVs, numbered in import order."""

from __future__ import annotations

import argparse

from cli import CliError
from cli.export_common import load_and_route
from model.bom import schedule_rows
from model.export import ExportError
from model.export.netbox import netbox_tables, write_netbox_dir


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="NetBox import CSVs (sites ... cables) into a folder")
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="DIR",
        help="output folder (created if missing; files in it are replaced)",
    )


def run(args: argparse.Namespace) -> int:
    design, plant = load_and_route(args.file)
    try:
        tables = netbox_tables(design, schedule_rows(design, plant))
        paths = write_netbox_dir(args.output, tables)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    counts = ", ".join(
        f"{len(rows)} {name[3:-4].replace('_', ' ')}" for name, (_, rows) in tables.items()
    )
    print(f"{args.output}: {len(paths)} files ({counts})")
    return 0
