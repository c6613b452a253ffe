"""The way back: a site NetBox exported, read by import-netbox, compared with its design.

Run with Hallwright's Python: ``round_trip.py DESIGN.hall.json BACK.hall.json``. The design
that comes back must have the same devices (by name) and the same links (by the names of both
ends, either way round), the design's cabling style (panels come back from the layout), the
racks' ids, floor positions and rotations, the trays and the outline (kept in the racks' and
site's comments), and an as-built length on every link that NetBox recorded one for. Exit 0,
or 1 with what differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from model.files.design_file import load_design  # noqa: E402


def _ends(design) -> set[frozenset]:
    name = {d.id: d.name for d in design.devices.values()}
    return {
        frozenset([(name[k.a.device], k.a.port), (name[k.b.device], k.b.port)])
        for k in design.links.values()
    }


def main(design_path: str, back_path: str) -> int:
    design, back = load_design(design_path), load_design(back_path)
    failures = []
    devices = {d.name for d in design.devices.values()}
    came = {d.name for d in back.devices.values()}
    if came != devices:
        failures.append(f"devices: {len(devices - came)} missing, {len(came - devices)} extra")
    want, got = _ends(design), _ends(back)
    if got != want:
        failures.append(f"links: {len(want - got)} missing, {len(got - want)} extra")
    if _vias(back) != _vias(design) and any(k.via for k in back.links.values()):
        failures.append("links: the panels they are routed via differ")
    if back.settings.cabling != design.settings.cabling:
        failures.append(
            f"cabling {back.settings.cabling!r}, the design's {design.settings.cabling!r}"
        )
    # The floor plan rides in the racks' and site's comments (model/outputs/netbox/floor_record)
    if _floor(back) != _floor(design):
        failures.append("racks' ids, floor positions or rotations, the trays or the outline differ")
    backplane = sum(1 for k in back.links.values() if k.as_built_m is None)
    print(
        f"{back.name}: {len(back.devices)} devices, {len(back.links)} links came back "
        f"({back.settings.cabling}); {len(back.links) - backplane} with as-built lengths"
    )
    for failure in failures:
        print(f"FAIL {back.name}: {failure}")
    return 1 if failures else 0


def _floor(design) -> tuple:
    racks = {
        r.name: (r.id, round(r.x, 3), round(r.y, 3), r.rotation) for r in design.racks.values()
    }
    return racks, design.trays, list(design.hall.outline)


def _vias(design) -> set:
    """Per link (its two ends' names): the names of the panels (or enclosures) its first trunk
    leg passes, A end first or reversed (the schedule may list a link from either end)."""
    from model.engine.routed_links import RoutedLinks
    from model.structured.layout import structured_layout

    layout = structured_layout(RoutedLinks(design))
    name = {d.id: d.name for d in design.devices.values()}
    holders: dict[str, tuple] = {}
    for leg in layout.legs:
        for link_id in leg.links:
            holders.setdefault(link_id, tuple(name.get(h, h) for h in leg.holders))
    out = set()
    for link in design.links.values():
        ends = frozenset([(name[link.a.device], link.a.port), (name[link.b.device], link.b.port)])
        path = holders.get(link.id, ())
        out.add((ends, min(path, path[::-1])))
    return out


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
