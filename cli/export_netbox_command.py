"""``main.py export-netbox FILE -o DIR``: NetBox import files (shared types apart, site files)."""

from __future__ import annotations

import argparse

from cli import CliError
from cli.export_common import load_and_route
from cli.progress import Progress
from model.outputs.netbox.export import netbox_schedule, netbox_tables, write_netbox_dir
from model.outputs.writers import ExportError
from model.plant.physical_plant import build_plant
from model.runtime.gc_policy import collector_paused


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
    progress = Progress("export-netbox")
    design, plant = load_and_route(args.file)
    progress.step("routed")
    try:
        # One physical plant for the schedule (cables) and the module file. The collector is
        # paused meanwhile: millions of strings, lists and arrays that make no cycles, whose
        # allocations set off collections walking all of them (~0.4 s at XL, two of them full).
        with collector_paused():
            phys = build_plant(plant, with_links=True)
            export = netbox_tables(design, netbox_schedule(design, plant, phys), plant, phys)
            progress.step("tables built")
            paths = write_netbox_dir(args.output, export)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    finally:
        progress.done()
    counts = ", ".join(
        f"{len(table)} {stem[3:].replace('_', ' ')}" for stem, table in export.tables.items()
    )
    print(
        f"{args.output}: {len(paths)} files for site {export.site!r} "
        f"({len(export.device_types)} device types, {len(export.module_types)} module types, "
        f"{counts}); import order in README.txt"
    )
    return 0
