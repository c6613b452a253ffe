"""``main.py export-netbox FILE -o DIR``: NetBox import files (shared types apart, site files)."""

from __future__ import annotations

import argparse

from cli import CliError
from cli.export_common import load_and_route
from model.export import ExportError
from model.export.netbox import netbox_tables, write_netbox_dir
from model.schedule import schedule_rows


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name, help="NetBox import files (shared device types, then the site) into a folder"
    )
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
        export = netbox_tables(design, schedule_rows(design, plant, segments=False), plant)
        paths = write_netbox_dir(args.output, export)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    counts = ", ".join(
        f"{len(rows)} {stem[3:].replace('_', ' ')}" for stem, (_, rows) in export.tables.items()
    )
    print(
        f"{args.output}: {len(paths)} files for site {export.site!r} "
        f"({len(export.device_types)} device types, "
        f"{len(export.module_types)} module types, "
        f"{counts}); import order in README.txt"
    )
    return 0
