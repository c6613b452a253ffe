"""``main.py compare A.hall.json B.hall.json [--json]``: KPIs side by side and the physical diff."""

from __future__ import annotations

import argparse
import json

from cli import load_or_refuse


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="two designs side by side: KPIs and what changed physically",
        description="Compare two designs: GPUs, cost and optics power per GPU, bisection, "
        "all-reduce time, failures per day; racks moved, links added and removed, media "
        "flipped, BOM lines changed.",
    )
    parser.add_argument("a", help="the first .hall.json design (the baseline)")
    parser.add_argument("b", help="the second .hall.json design (the variant)")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from cli.analyze_command import cable_plant
    from model.analysis.report import _clean
    from model.studies.compare import compare_designs

    a = load_or_refuse(args.a)
    plant_a = cable_plant(a)
    b = load_or_refuse(args.b)
    plant_b = cable_plant(b)
    result = _clean(compare_designs(a, plant_a, b, plant_b)[0])
    print(json.dumps(result, indent=2) if args.json else text(result, args.a, args.b))
    return 0


def _fmt(value) -> str:
    if isinstance(value, str):  # a word column (the bisection method)
        return value
    if value is None:
        return "n/a"
    if isinstance(value, int) or abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def text(result: dict, name_a: str, name_b: str) -> str:
    from model.studies.compare import KPI_LABELS

    lines = [
        f"A = {name_a}",
        f"B = {name_b}",
        f"{'':28}{'A':>16}{'B':>16}{'B - A':>16}",
        *(
            f"{KPI_LABELS[k]:28}{_fmt(v['a']):>16}{_fmt(v['b']):>16}{_fmt(v['delta']):>16}"
            for k, v in result["kpis"].items()
        ),
    ]
    diff = result["diff"]
    if result["identical"]:
        lines.append("Physically identical.")
        return "\n".join(lines)
    for key, label in (
        ("racks_moved", "Racks moved"),
        ("racks_added", "Racks added"),
        ("racks_removed", "Racks removed"),
        ("devices_added", "Devices added"),
        ("devices_removed", "Devices removed"),
        ("links_added", "Links added"),
        ("links_removed", "Links removed"),
    ):
        if diff[key]:
            shown = ", ".join(diff[key][:12]) + (" ..." if len(diff[key]) > 12 else "")
            lines.append(f"{label} ({len(diff[key]):,}): {shown}")
    if diff["media_flipped"]:
        lines.append(f"Media flipped ({len(diff['media_flipped']):,}):")
        for f in diff["media_flipped"][:12]:
            lines.append(f"  {f['link']}: {f['from']} -> {f['to']}")
    if diff["bom_changed"]:
        lines.append(f"BOM lines changed ({len(diff['bom_changed']):,}):")
        for line in diff["bom_changed"][:20]:
            length = f" {line['length_m']:g} m" if line["length_m"] else ""
            lines.append(f"  {line['part']}{length}: {_fmt(line['a'])} -> {_fmt(line['b'])}")
    return "\n".join(lines)
