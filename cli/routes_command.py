"""``main.py routes FILE``: each link's routed length in pieces, ordered length, medium and why."""

from __future__ import annotations

import argparse

from cli import load_or_refuse
from cli.export_common import add_policy_argument
from model.cabling import CablePlant


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="print each link's routed length, medium and reason")
    parser.add_argument("file", help="a .hall.json design file")
    add_policy_argument(parser)


def run(args: argparse.Namespace) -> int:
    design = load_or_refuse(args.file)
    plant = CablePlant(design, args.policy)
    for link_id in sorted(plant.link_ids, key=_natural):
        link = design.links[link_id]
        row = plant.index[link_id]
        medium = plant.medium(link_id)
        ordered = plant.ordered_m[row]
        ordered_text = "-" if ordered != ordered else f"{ordered:g} m"
        print(
            f"{link_id}: {link.a.device} {link.a.port} -> {link.b.device} {link.b.port}, "
            f"{plant.speed_gbps[row]:g}G"
        )
        print(f"  route   {plant.route(link_id).describe()}")
        if plant.length_m[row] != plant.routed_m[row]:
            print(f"  length  {plant.length_m[row]:.2f} m (measured or typed)")
        print(f"  medium  {medium.id if medium else 'none'}, ordered {ordered_text}")
        print(f"  reason  {plant.reason(link_id)}")
    from model.plant import build_plant

    for finding in [*plant.findings(), *build_plant(plant).findings]:
        print(f"{finding.severity.upper()} {finding.code}: {finding.message}")
    return 0


def _natural(text: str) -> tuple:
    import re

    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))
