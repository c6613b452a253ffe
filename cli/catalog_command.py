"""``main.py catalog [FILE] [--kind devices|racks|media|nics|laser-sources]``: the catalog's ids and figures (the
bundled one, or a design's with its custom entries), one line each, for scripts and lookups."""

from __future__ import annotations

import argparse

KINDS = ("devices", "racks", "media", "nics", "laser-sources")


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="list the catalog's ids with their figures")
    parser.add_argument("file", nargs="?", help="a design file: its catalog, custom types too")
    parser.add_argument("--kind", choices=KINDS, help="only this part of the catalog")


def lines(catalog, kinds=KINDS) -> list[str]:
    """The catalog as text lines: a heading per part, then one id per line with its figures."""
    out: list[str] = []
    if "devices" in kinds:
        out.append("# devices: id, vendor model, U, power typical / max W, ports")
        for t in catalog.device_types.values():
            ports = ", ".join(
                f"{g.count}×{g.speed_gbps:g}G {g.form_factor} {g.role}" for g in t.port_groups
            )
            gpus = f", {t.gpu_count} GPUs" if t.gpu_count else ""
            lasers = f", {t.laser_sources} × {t.laser_source}" if t.laser_sources else ""
            out.append(
                f"{t.id}\t{t.vendor} {t.model}\t{t.u_height} U\t"
                f"{t.power_typical_w:g} / {t.power_max_w:g} W{gpus}\t{ports}{lasers}"
            )
    if "racks" in kinds:
        out.append("# racks: id, model, size, U, power budget")
        for r in catalog.rack_types.values():
            out.append(
                f"{r.id}\t{r.model}\t{r.width_m * 1000:.0f} × {r.depth_m * 1000:.0f} mm\t"
                f"{r.height_u} U\t{r.power_budget_kw:g} kW"
            )
    if "media" in kinds:
        out.append("# media: id, name, kind, speeds, reach, power per end, price per end")
        for m in catalog.media_types.values():
            speeds = "/".join(f"{s:g}G" for s in m.speeds_gbps)
            out.append(
                f"{m.id}\t{m.name}\t{m.kind}\t{speeds}\t≤{m.reach_m:g} m\t"
                f"{m.power_per_end_w:g} W/end\t${m.price_per_end_usd:,.0f}/end"
            )
    if "nics" in kinds:
        out.append("# nics: id, vendor model, family, cages, modes")
        for n in catalog.nic_types.values():
            modes = "; ".join(f"{m.ports}×{m.speed_gbps:g}G {m.protocol}" for m in n.modes)
            out.append(
                f"{n.id}\t{n.vendor} {n.model}\t{n.family}\t{'/'.join(n.form_factors)}\t{modes}"
            )
    if "laser-sources" in kinds:
        out.append("# laser sources: id, part number, lasers, power typical / max W, price")
        for p in catalog.laser_source_parts.values():
            out.append(
                f"{p.id}\t{p.part_number}\t{p.lasers} lasers\t"
                f"{p.power_w:g} / {p.power_w_max:g} W\t${p.price_usd:,.0f}"
            )
    return out


def run(args: argparse.Namespace) -> int:
    if args.file:
        from cli import load_or_refuse

        catalog = load_or_refuse(args.file).catalog
    else:
        from model.catalog.components import builtin_catalog

        catalog = builtin_catalog()
    print("\n".join(lines(catalog, (args.kind,) if args.kind else KINDS)))
    return 0
