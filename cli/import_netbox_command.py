"""``main.py import-netbox DIR|--url URL --token-file F -o FILE [--site NAME]``: a NetBox site
back as a design.

DIR holds NetBox's list exports ("Export -> All data"), saved as netbox_sites.csv,
netbox_racks.csv, netbox_devices.csv and netbox_cables.csv. Exit 0 when every rack, device and
cable of the site came back; 1 when the design was written but some did not (each listed, with
why); 2 on bad input. With ``--url`` the site is read through NetBox's REST API (push-netbox's
client) into list exports of the same form first (``--lists-to`` keeps them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from cli import CliError
from model.asbuilt.netbox_import import import_netbox
from model.asbuilt.report_csv import ReportError
from model.design.design import DesignError
from model.files.design_file import DesignFileError, save_design


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name, help="a NetBox site (its list exports as CSV, or its REST API) back as a design"
    )
    parser.add_argument(
        "folder",
        nargs="?",
        help="folder with netbox_sites/racks/devices/cables.csv (NetBox 'All data'); "
        "or give --url and --token-file instead",
    )
    parser.add_argument("-o", "--output", required=True, metavar="FILE.hall.json")
    parser.add_argument("--site", help="the site to import when NetBox holds several")
    parser.add_argument("--url", help="read the site through NetBox's REST API at this address")
    parser.add_argument(
        "--token-file", metavar="F", help="with --url: a file holding a (read) API token"
    )
    parser.add_argument(
        "--lists-to",
        metavar="DIR",
        help="with --url: keep the lists read from the API in DIR (as NetBox's list exports)",
    )


def _from_api(args: argparse.Namespace, folder: Path) -> list[str]:
    """Read the site over REST into ``folder``; the cables not all brought back."""
    from cli.push_netbox_command import _token
    from model.asbuilt.netbox_rest_lists import rest_lists
    from model.outputs.netbox.rest_client import RestClient
    from model.outputs.netbox.rest_state import ApiError

    if not args.token_file:
        raise CliError("--url needs --token-file (a file holding an API token)")
    client = RestClient(args.url, _token(args.token_file))
    try:
        site, uneven = rest_lists(client, args.site, folder)
    except ApiError as exc:
        raise CliError(exc.text if exc.status == 0 else f"NetBox at {args.url}: {exc}") from None
    args.site = site
    return uneven


def run(args: argparse.Namespace) -> int:
    if (args.folder is None) == (args.url is None):
        raise CliError("give a folder of NetBox list exports, or --url and --token-file")
    if args.url is None and (args.token_file or args.lists_to):
        raise CliError("--token-file and --lists-to go with --url")
    uneven: list[str] = []
    try:
        if args.url is None:
            result = import_netbox(args.folder, args.site)
        else:
            with tempfile.TemporaryDirectory(prefix="netbox-lists-") as temporary:
                folder = Path(args.lists_to or temporary)
                uneven = _from_api(args, folder)
                result = import_netbox(folder, args.site)
    except (ReportError, DesignError) as exc:
        raise CliError(str(exc)) from None
    result.left_out[:0] = uneven
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
