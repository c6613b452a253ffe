"""``main.py diff A B [--json]``: the semantic diff of two designs, as a pull-request review reads it."""

from __future__ import annotations

import argparse
import json

from cli import load_or_refuse


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="semantic diff of two designs: moves, additions, re-routes, media flips, KPI and BOM delta",
        description="What changed from design A to design B, object by object (matched by id): "
        "racks and devices moved, added and removed; links added, removed, re-routed (same ends, "
        "another length) and flipped to another medium; fields edited; settings; then the KPI "
        "table and the BOM lines whose quantity changed. Exit 0 whether or not they differ.",
    )
    parser.add_argument("a", help="the old .hall.json design")
    parser.add_argument("b", help="the new .hall.json design")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from cli.analyze_command import cable_plant
    from model.analysis.report import _clean
    from model.versioning.semantic_diff import semantic_diff

    a = load_or_refuse(args.a)
    plant_a = cable_plant(a)
    b = load_or_refuse(args.b)
    plant_b = cable_plant(b)
    result = _clean(semantic_diff(a, plant_a, b, plant_b))
    print(json.dumps(result, indent=2) if args.json else text(result, args.a, args.b))
    return 0


def _listed(label: str, items: list, shown: int = 12) -> str:
    more = f" ... (+{len(items) - shown:,})" if len(items) > shown else ""
    return f"{label} ({len(items):,}): " + ", ".join(map(str, items[:shown])) + more


def text(result: dict, name_a: str, name_b: str) -> str:
    """The diff in words: what changed first, then the KPI table and the BOM delta."""
    from cli.compare_command import _fmt
    from model.studies.compare import KPI_LABELS

    diff = result["diff"]
    lines = [f"--- {name_a}", f"+++ {name_b}"]
    if result["identical"]:
        lines.append("No change.")
        return "\n".join(lines)
    for key, label in (
        ("racks_moved", "Racks moved"),
        ("racks_added", "Racks added"),
        ("racks_removed", "Racks removed"),
        ("devices_added", "Devices added"),
        ("devices_removed", "Devices removed"),
        ("trays_added", "Trays added"),
        ("trays_removed", "Trays removed"),
        ("links_added", "Links added"),
        ("links_removed", "Links removed"),
    ):
        if diff[key]:
            lines.append(_listed(label, diff[key]))
    lines.extend(_moves_and_edits(diff))
    changed = {k: v for k, v in result["kpis"].items() if v["delta"] is None or v["delta"] != 0}
    if changed:
        lines.append(f"{'KPI':28}{'A':>16}{'B':>16}{'B - A':>16}")
    else:
        lines.append("KPIs unchanged.")
    for k, v in changed.items():
        lines.append(
            f"{KPI_LABELS[k]:28}{_fmt(v['a']):>16}{_fmt(v['b']):>16}{_fmt(v['delta']):>16}"
        )
    lines.extend(_bom_lines(diff))
    return "\n".join(lines)


def _moves_and_edits(diff: dict) -> list[str]:
    """Devices moved, links re-routed, media flipped, records and settings edited."""
    lines: list[str] = []
    if diff["devices_moved"]:
        lines.append(f"Devices moved ({len(diff['devices_moved']):,}):")
        for d in diff["devices_moved"][:12]:
            lines.append(
                f"  {d['id']}: {d['from'][0]} U{d['from'][1]} -> {d['to'][0]} U{d['to'][1]}"
            )
    if diff["links_rerouted"]:
        lines.append(f"Links re-routed ({len(diff['links_rerouted']):,}):")
        for r in diff["links_rerouted"][:12]:
            lines.append(f"  {r['id']}: {r['from_m']:.2f} m -> {r['to_m']:.2f} m")
    if diff["media_flipped"]:
        lines.append(f"Media flipped ({len(diff['media_flipped']):,}):")
        for f in diff["media_flipped"][:12]:
            lines.append(f"  {f['link']}: {f['from']} -> {f['to']}")
    for section, rows in diff["records_changed"].items():
        if rows:
            lines.append(f"{section.capitalize()} edited ({len(rows):,}):")
            for row in rows[:12]:
                lines.append(f"  {row['id']}: {', '.join(row['fields'])}")
    for s in diff["settings_changed"]:
        lines.append(f"Setting {s['name']}: {json.dumps(s['a'])} -> {json.dumps(s['b'])}")
    return lines


def _bom_lines(diff: dict) -> list[str]:
    """The BOM lines whose quantity changed (the first 20)."""
    from cli.compare_command import _fmt

    lines: list[str] = []
    if diff["bom_changed"]:
        lines.append(f"BOM lines changed ({len(diff['bom_changed']):,}):")
        for line in diff["bom_changed"][:20]:
            length = f" {line['length_m']:g} m" if line["length_m"] else ""
            delta = line["b"] - line["a"]
            lines.append(
                f"  {line['part']}{length}: {_fmt(line['a'])} -> {_fmt(line['b'])} ({delta:+g})"
            )
    return lines
