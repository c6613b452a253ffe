"""``main.py generate TEMPLATE [options] -o FILE``: build a placed fabric and save it as a design."""

from __future__ import annotations

import argparse
import sys

from cli import CliError
from cli.progress import Progress
from model.files.design_file import DesignFileError, save_design
from model.generators.generate import TEMPLATES, GenerateError, apply_cabling, generate
from model.structured.layout import CABLING_STYLES

# option dest -> templates that take it
_OPTIONS = {
    "nodes": ("leaf-spine", "rail-optimized"),
    "node_type": ("leaf-spine", "rail-optimized", "fat-tree"),
    "switch": TEMPLATES,
    "spine_switch": ("leaf-spine",),
    "oversubscription": ("leaf-spine", "rail-optimized", "nvl72", "helios"),
    "reserve_ports": ("leaf-spine", "rail-optimized", "nvl72", "helios"),
    "k": ("fat-tree",),
    "su_nodes": ("rail-optimized",),
    "tiers": ("rail-optimized", "nvl72", "helios"),
    "racks": ("nvl72", "helios"),
    "su_racks": ("nvl72", "helios"),
    "placement": TEMPLATES,
    "name": TEMPLATES,
    "fabrics": TEMPLATES,
    "facility": TEMPLATES,
    "platform": ("nvl72",),
    "pod": ("nvl72",),
    "planes": ("rail-optimized", "nvl72", "helios"),
    "port_mode": ("rail-optimized", "nvl72", "helios"),
    "rack_type": ("leaf-spine", "rail-optimized", "fat-tree"),
    "servers_per_rack": ("leaf-spine", "rail-optimized", "fat-tree"),
    "optics": TEMPLATES,
}
_REQUIRED = {
    "leaf-spine": ("nodes", "node_type", "switch"),
    "fat-tree": ("k",),
    "rail-optimized": ("nodes", "node_type", "switch", "su_nodes"),
    "nvl72": ("racks",),
    "helios": ("racks",),
}


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="generate a fabric placed in a hall",
        description="Generate a fabric (servers, switches, every link) laid out in rows of racks "
        "with trays, and save it as a design file.",
    )
    parser.add_argument("template", choices=TEMPLATES)
    parser.add_argument("-o", "--output", required=True, help="the .hall.json file to write")
    add_generator_options(parser)
    parser.add_argument(
        "--cabling",
        choices=CABLING_STYLES,
        default="direct",
        help="direct (default: one fibre per link), cross-connect (patch panels at the top of "
        "each rack, MPO trunks between them, patch cords to the devices) or zones (TIA-942: "
        "rack panels trunked to their row's zone panel, zone panels to the network racks)",
    )


def add_generator_options(parser: argparse.ArgumentParser) -> None:
    """The template options (shared with ``sweep``)."""
    parser.add_argument("--nodes", type=int, help="GPU servers (leaf-spine, rail-optimized)")
    parser.add_argument("--node-type", help="catalog id of the GPU server, e.g. dgx-h100")
    parser.add_argument("--switch", help="catalog id of the switch, e.g. qm9700, q3400, sn5600")
    parser.add_argument("--spine-switch", help="leaf-spine: a different spine switch")
    parser.add_argument(
        "--oversubscription", type=int, help="leaf downlink:uplink ratio R (1 = non-blocking)"
    )
    parser.add_argument(
        "--reserve-ports", type=int, help="leaf ports kept free (fabric manager, storage heads)"
    )
    parser.add_argument("--k", type=int, help="fat-tree: switch radix k (even)")
    parser.add_argument("--su-nodes", type=int, help="rail-optimized: nodes per scalable unit")
    parser.add_argument(
        "--tiers",
        choices=("auto", "2", "3", "rail-only"),
        help="rail-optimized / nvl72: switch tiers (default auto); rail-only drops the spines "
        "that join the rails (cross-rail traffic over NVLink)",
    )
    parser.add_argument("--racks", type=int, help="nvl72 / helios: NVL72 or AMD Helios racks")
    parser.add_argument(
        "--su-racks",
        type=int,
        help="nvl72 / helios: racks per scalable unit (nvl72: 8; helios: the fewest switches)",
    )
    parser.add_argument(
        "--platform",
        choices=("gb200", "gb300", "vera-rubin", "rubin-ultra"),
        help="nvl72: GB200 (400G NICs, qm9700), GB300 (ConnectX-8 800G, q3400) or Vera Rubin "
        "(ConnectX-9 800G, Spectrum-X sn6810) racks; rubin-ultra: Kyber NVL576 racks "
        "(600 kW, 800 V DC)",
    )
    parser.add_argument(
        "--pod",
        action="store_true",
        default=None,
        help="nvl72 --platform vera-rubin --racks 16: a Vera Rubin POD, the NVL72 racks with "
        "its Vera CPU, BlueField-4 STX storage and Spectrum-6 SPX networking racks and every "
        "network",
    )
    parser.add_argument(
        "--planes",
        type=int,
        help="rail-optimized / nvl72: multi-plane Spectrum-X, each NIC split across this many "
        "independent planes (2: a ConnectX-8 800G port as 2 x 400G); default 1",
    )
    parser.add_argument(
        "--port-mode",
        help="rail-optimized / nvl72: the switch's port mode, e.g. 144x800G on a q3400 or "
        "128x400G on an sn5610 (default auto: the mode of the NICs' speed); a mode no NIC of "
        "the catalog can be cabled to (the q3400's 288x400G) is refused with the reason",
    )
    parser.add_argument(
        "--placement",
        choices=("middle-of-row", "end-of-row"),
        help="where each SU's network racks stand in its row (middle-of-row)",
    )
    parser.add_argument("--name", help="the design's name")
    parser.add_argument(
        "--rack-type", help="server rack type (default: the catalog's choice per server type)"
    )
    parser.add_argument(
        "--servers-per-rack", type=int, help="GPU servers per rack (default: as power and U allow)"
    )
    parser.add_argument(
        "--optics",
        help="optics strategy per switch tier: pluggable (default), linear or co-packaged, "
        "or TIER=STRATEGY,... (leaf, spine, core); co-packaged puts each switch's co-packaged "
        "twin in its place (q3400 -> q3450-ld)",
    )
    parser.add_argument(
        "--facility",
        choices=("auto", "yes", "no"),
        help="power feeds, busways, CDUs, CRAHs and a floor rating per row (default auto: for "
        "racks a reference architecture specifies, NVL72 and DGX B300)",
    )
    parser.add_argument(
        "--fabrics",
        help="networks to build: compute (default), all, or a comma list of compute, storage, "
        "inband, oob (storage appliances, UFM and head nodes come with them)",
    )


def generator_params(args: argparse.Namespace, given: set[str] = frozenset()) -> dict:
    """The template's parameters from the options; ``given`` = names supplied elsewhere."""
    template = args.template
    params = {}
    for dest, templates in _OPTIONS.items():
        value = getattr(args, dest)
        if value is None:
            continue
        if template not in templates:
            raise CliError(f"{template} does not take --{dest.replace('_', '-')}; leave it out")
        params[dest] = value
    missing = [d for d in _REQUIRED[template] if d not in params and d not in given]
    if missing:
        raise CliError(
            f"{template} needs " + ", ".join("--" + d.replace("_", "-") for d in missing)
        )
    return params


def run(args: argparse.Namespace) -> int:
    template = args.template
    params = generator_params(args)
    progress = Progress("generate")
    try:
        design = generate(template, **params)
    except GenerateError as exc:
        progress.done()
        raise CliError(str(exc)) from None
    progress.step("generated")
    # Panels at the top of the racks for the structured styles, as the design records.
    apply_cabling(design, getattr(args, "cabling", "direct"))
    progress.step("cabling placed")
    try:
        save_design(design, args.output)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    finally:
        progress.done()
    roles: dict[str, int] = {}
    types = design.catalog.device_types
    for device in design.devices.values():
        is_switch = types[device.type].category in ("switch", "nvlink-switch")
        if is_switch or device.role == "gpu-server":
            roles[device.role] = roles.get(device.role, 0) + 1
    switches = ", ".join(
        f"{roles[r]} {r}"
        for r in ("nvlink-switch", "leaf", "spine", "core", "management")
        if r in roles
    )
    outline = design.hall.outline
    width = max(p[0] for p in outline) - min(p[0] for p in outline)
    depth = max(p[1] for p in outline) - min(p[1] for p in outline)
    said = sys.stderr if args.output == "-" else sys.stdout  # -o -: the design is stdout
    print(
        f"{args.output}: {template} — {roles.get('gpu-server', 0)} nodes, "
        f"{design.gpu_count()} GPUs, switches {switches}, {len(design.links)} links, "
        f"{len(design.racks)} racks in a {width:.1f} x {depth:.1f} m hall",
        file=said,
    )
    for note in design.generation_notes:
        print(f"note: {note}", file=said)
    return 0
