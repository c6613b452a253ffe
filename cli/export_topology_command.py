"""``main.py export-topology FILE --format slurm-tree|slurm-block|topograph|k8s-labels [-o OUT]``: the fabric for schedulers."""

from __future__ import annotations

import argparse
import sys

from cli import CliError, load_or_refuse

NAUTOBOT = "nautobot-design"


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    from model.outputs.topology_files import FORMATS

    parser = sub.add_parser(
        name,
        help="the compute fabric for schedulers: Slurm topology.conf (tree, block), Topograph, k8s labels",
        description="Write the design's compute fabric as a scheduler reads it. Nodes that reach "
        "the same switches one tier up become one logical switch (a scalable unit's rail leaves "
        "are one leaf). slurm-tree: topology.conf for topology/tree (SwitchName= Nodes=|Switches=); "
        "slurm-block: topology.conf for topology/block (BlockName= Nodes=, BlockSizes=), blocks "
        "being the NVLink domains, else the logical leaves; topograph: NVIDIA Topograph's model "
        "YAML (switches, nodes, capacity_blocks); k8s-labels: one Node per server with the "
        "network.topology.nvidia.com/leaf|spine|core|accelerator labels; nautobot-design: the "
        "devices, interfaces and planned cables as a Nautobot Design Builder design (NVIDIA "
        "Config Manager keeps intended cabling in Nautobot).",
    )
    parser.add_argument("file", help="a .hall.json design")
    parser.add_argument(
        "--format", required=True, choices=(*FORMATS, NAUTOBOT), help="which file to write"
    )
    parser.add_argument(
        "-o", "--output", default="-", help="output file (default: standard output)"
    )


def run(args: argparse.Namespace) -> int:
    from model.files.output_file import OutputRefused, output_target, write_output
    from model.outputs.fabric_tree import fabric_tree
    from model.outputs.topology_files import WRITERS, TopologyExportError

    design = load_or_refuse(args.file)
    try:
        if args.format == NAUTOBOT:
            from cli.analyze_command import cable_plant
            from model.outputs.nautobot_design import NautobotExportError, nautobot_design

            try:
                text = nautobot_design(design, cable_plant(design))
            except NautobotExportError as exc:
                raise CliError(str(exc)) from None
        else:
            text = WRITERS[args.format](fabric_tree(design))
    except TopologyExportError as exc:
        raise CliError(str(exc)) from None
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    try:
        write_output(output_target(args.output), text.encode())
    except OutputRefused as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{args.output} cannot be written ({exc.strerror or exc})") from None
    print(f"{args.format}: {args.output}", file=sys.stderr)
    return 0
