"""``main.py push-netbox FILE --url URL --token-file F``: the design written through NetBox's API.

The plan (created / changed / deleted per type) is printed first; ``--dry-run`` stops there and
writes nothing. Progress goes to stderr, one line per step, and so does every object NetBox
refused, with NetBox's own error text; the exit code is 1 when any object was refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli import CliError
from cli.export_common import load_and_route
from model.outputs.netbox.export import netbox_schedule, netbox_tables
from model.outputs.netbox.library_types import TYPE_NAMINGS, TYPES_HALLWRIGHT, TYPES_LIBRARY
from model.outputs.netbox.rest_client import RestClient
from model.outputs.netbox.rest_objects import PushRefused, desired_objects
from model.outputs.netbox.rest_push import push
from model.outputs.netbox.rest_send import CONNECTIONS
from model.outputs.netbox.rest_state import ApiError
from model.outputs.writers import ExportError
from model.plant.physical_plant import build_plant
from model.runtime.gc_policy import collector_paused


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="write the design into a NetBox through its REST API (idempotent; --dry-run plans)",
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument("--url", required=True, help="NetBox's address, e.g. https://netbox:8000")
    parser.add_argument(
        "--token-file",
        required=True,
        metavar="F",
        help="a file holding the API token (write-enabled; kept out of the command line)",
    )
    parser.add_argument("--site", help="the NetBox site's name (default: the design's name)")
    parser.add_argument("--dry-run", action="store_true", help="print the plan and write nothing")
    parser.add_argument(
        "--types",
        choices=TYPE_NAMINGS,
        default=TYPES_HALLWRIGHT,
        help="device-type names, as export-netbox --types names them: hallwright (default) or "
        "library (the devicetype-library's manufacturer, models and port names: a NetBox loaded "
        "from the library keeps its types and gets no second one)",
    )
    parser.add_argument(
        "--branch", help="a netbox-branching branch to write into (the plugin must be installed)"
    )
    parser.add_argument(
        "--timings",
        action="store_true",
        help="print the HTTP requests per endpoint (objects, seconds) to stderr at the end",
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=CONNECTIONS,
        metavar="N",
        help=f"requests of one kind in flight at once (default {CONNECTIONS}; 1 to "
        f"{MAX_CONNECTIONS}): a NetBox served by several workers writes them side by side",
    )
    parser.add_argument(
        "--plan-json", metavar="FILE", help="also write the plan (keys per type) as JSON"
    )


MAX_CONNECTIONS = 16  # more than a NetBox's workers only queue at its server


def _token(path: str) -> str:
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise CliError(f"cannot read the token file {path}: {exc.strerror}") from None
    if not token or any(c.isspace() for c in token):
        raise CliError(f"the token file {path} must hold one API token and nothing else")
    return token


def run(args: argparse.Namespace) -> int:
    token = _token(args.token_file)
    if not 1 <= args.connections <= MAX_CONNECTIONS:
        raise CliError(f"--connections must be 1 to {MAX_CONNECTIONS}, not {args.connections}")
    if not args.url.startswith(("http://", "https://")):
        raise CliError(f"--url must start with http:// or https://, not {args.url!r}")
    design, plant = load_and_route(args.file)
    if args.site:
        design.name = args.site  # this process's copy only: the file is not written
    try:
        with collector_paused():
            phys = build_plant(plant, with_links=True)
            schedule = netbox_schedule(design, plant, phys)
            export = netbox_tables(design, schedule, plant, phys, args.types)
            desired = desired_objects(export)
    except (ExportError, PushRefused) as exc:
        raise CliError(str(exc)) from None

    def say(what: str) -> None:
        print(f"push-netbox: {what}", file=sys.stderr, flush=True)

    try:
        client = RestClient(args.url, token)
        if args.branch:
            client = RestClient(args.url, token, client.branch_schema(args.branch))
            say(f"writing into branch {args.branch!r}")
        # With the library's names, the types a NetBox loaded from the library holds are its own
        result = push(
            client,
            desired,
            dry_run=args.dry_run,
            progress=say,
            keep_held_types=args.types == TYPES_LIBRARY,
            connections=args.connections,
        )
    except ApiError as exc:
        raise CliError(
            exc.text if exc.status == 0 else f"NetBox refused a request: {exc}"
        ) from None
    finally:
        if args.timings:
            for line in client.tally_lines():
                say(f"HTTP {line}")
    if args.plan_json:
        Path(args.plan_json).write_text(json.dumps(result.plan_json(), indent=1), "utf-8")
    verb = "would write" if args.dry_run else "wrote"
    print(f"site {export.site!r} at {args.url}: {verb} (plan made before any write)")
    for line in result.summary_lines():
        print(f"  {line}")
    for refusal in result.refused:
        print(
            f"refused {refusal.kind} {' / '.join(map(str, refusal.key))}: {refusal.error}",
            file=sys.stderr,
        )
    if result.refused:
        print(f"{len(result.refused)} objects refused (listed above)", file=sys.stderr)
        return 1
    return 0
