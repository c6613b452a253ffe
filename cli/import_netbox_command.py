"""``main.py import-netbox DIR -o FILE [--site NAME]``: a NetBox site back as a design.

DIR holds NetBox's list exports ("Export -> All data"), saved as netbox_sites.csv,
netbox_racks.csv, netbox_devices.csv and netbox_cables.csv. Exit 0 when every rack, device and
cable of the site came back; 1 when the design was written but some did not (each listed, with
why); 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys

from cli import CliError
from model.asbuilt.netbox_import import import_netbox
from model.asbuilt.report_csv import ReportError
from model.design.design import DesignError
from model.files.design_file import DesignFileError, save_design


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="a NetBox site (its list exports as CSV) back as a design")
    parser.add_argument(
        "folder", help="folder with netbox_sites/racks/devices/cables.csv (NetBox 'All data')"
    )
    parser.add_argument("-o", "--output", required=True, metavar="FILE.hall.json")
    parser.add_argument("--site", help="the site to import when the files hold several")


def run(args: argparse.Namespace) -> int:
    try:
        result = import_netbox(args.folder, args.site)
    except (ReportError, DesignError) as exc:
        raise CliError(str(exc)) from None
    try:
        save_design(result.design, args.output)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    d = result.design
    said = sys.stderr if args.output == "-" else sys.stdout  # -o -: the design is stdout
    print(
        f"{args.output}: {len(d.racks)} racks, {len(d.devices)} devices, {len(d.links)} links",
        file=said,
    )
    for note in result.notes:
        print(f"note: {note}", file=said)
    # Nothing is dropped silently: each object not brought back, and the exit code says so
    for line in result.left_out:
        print(f"left out: {line}", file=said)
    if result.left_out:
        print(
            f"{len(result.left_out):,} objects of the site not brought back (listed above); "
            "the design holds the rest",
            file=said,
        )
        return 1
    return 0
