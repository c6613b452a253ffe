"""``main.py export-netbox FILE -o DIR``: NetBox import files (shared types apart, site files)."""

from __future__ import annotations

import argparse

from cli import CliError
from cli.export_common import load_and_route
from cli.progress import Progress
from model.outputs.netbox.export import netbox_schedule, netbox_tables, write_netbox_dir
from model.outputs.netbox.library_export import read_held_types
from model.outputs.netbox.library_types import TYPE_NAMINGS, TYPES_HALLWRIGHT, TYPES_LIBRARY
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
    parser.add_argument(
        "--types",
        choices=TYPE_NAMINGS,
        default=None,
        help="device-type names: hallwright (default: NetBox 4.7's own interface types, e.g. "
        "infiniband-ndr-4x) or library (the netbox-community devicetype-library's manufacturer, "
        "models and port names; every YAML passes the library's schema)",
    )
    parser.add_argument(
        "--types-from",
        metavar="DIR",
        help="a devicetype-library checkout or NetBox's device/module-type YAML export: the "
        "types it holds are not written (implies --types library)",
    )


def run(args: argparse.Namespace) -> int:
    types = args.types or (TYPES_LIBRARY if args.types_from else TYPES_HALLWRIGHT)
    if args.types_from and types != TYPES_LIBRARY:
        raise CliError("--types-from matches the library's names: use it with --types library")
    held = None
    if args.types_from:  # read before the design: a wrong folder is refused at once
        try:
            held = read_held_types(args.types_from)
        except ExportError as exc:
            raise CliError(str(exc)) from None
    progress = Progress("export-netbox")
    design, plant = load_and_route(args.file)
    progress.step("routed")
    try:
        # One physical plant for the schedule (cables) and the module file. The collector is
        # paused meanwhile: millions of strings, lists and arrays that make no cycles, whose
        # allocations set off collections walking all of them (~0.4 s at XL, two of them full).
        with collector_paused():
            phys = build_plant(plant, with_links=True)
            schedule = netbox_schedule(design, plant, phys)
            export = netbox_tables(
                design, schedule, plant, phys, types, held, args.types_from or ""
            )
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
    for line in export.library.lines() if export.library else ():
        print(f"  {line}")
    return 0
