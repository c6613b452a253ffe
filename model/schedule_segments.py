"""Cabling-schedule rows per segment of a structured design (patch cord / trunk / patch cord).

For a design whose cabling style is not ``direct``, every link that runs through panels
(:func:`model.structured_layout.structured_layout`) is listed as its segments instead of one
row: the A-end patch cord (device port to its rack's panel front), the trunk (panel rear to
panel rear) and the B-end patch cord, in that order, each a row of the schedule's own columns
(:data:`model.schedule.SCHEDULE_COLUMNS`). ``link_id`` is the channel's id (the link's) and
groups a channel's rows; ``cable_id`` names the physical assembly (``{link}:cord-a``, the
trunk's id, ``{link}:cord-b``). Links that stay direct keep their row unchanged, so a direct
design's schedule is exactly what it was.

Choices, written down:

* Panel ports are numbered in the layout's own order (trunk by trunk, as the layout counts a
  rack's MPO ports): port p of a rack is port ((p-1) mod 72)+1 of its panel ⌈p/72⌉, labelled
  ``{rack}-PP{n}:{port}`` at the front and ``{rack}-PP{n}:R{port}`` at the rear (an MPO adapter
  panel's rear position is its front position). LC channels: cassette c of a rack sits in
  enclosure ⌈c/4⌉, slot ((c-1) mod 4)+1, labelled ``{rack}-EN{e}-C{slot}:{lc port}`` at the
  front and ``…:R`` at its MPO rear.
* The panels sit at the top of their rack (the layout's rule): MPO panels from the top U down,
  then the LC enclosures below them; the ``a_u``/``b_u`` of a panel end is that U.
* ``medium`` stays the link's medium; ``medium_kind`` says the segment: ``patch-cord`` or
  ``trunk``. A cord's ``part`` is the module's fibre part at the cord's length, a trunk's the
  trunk part at its length; the trunk row carries the link's tray route, cords ``(in rack)``.
* A link with several fibres per port (800G SR8: two MPO per port) has that many cords and
  trunks: one row each, ``cable_id`` suffixed ``.1``, ``.2``. An LC trunk carrying up to six
  channels is one row, listed under the first channel it carries (one physical cable, one row).
* Rows follow the schedule row's A end: when the schedule turned a link round (its B end sorts
  first), its segments are listed from the B end, each with its ends swapped.
"""

from __future__ import annotations

import math
from collections import defaultdict

from msgspec.structs import replace

from model.channels import CONNECTOR_FAMILY
from model.parts import part_number_for
from model.structured_catalog import structured_catalog
from model.structured_layout import CASSETTE_PORTS, LC_ENCLOSURE, MPO_PANEL, structured_layout

PATCH_CORD, TRUNK = "patch-cord", "trunk"
END_FIELDS = ("rack", "u", "device", "port", "cage", "module")


def _num(value: float) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 3)


class _Ports:
    """Panel port labels of one rack, numbered as the layout fills them."""

    def __init__(self, design, per_panel: int, slots: int) -> None:
        self.design = design
        self.per_panel = per_panel
        self.slots = slots
        self.mpo: dict[str, int] = defaultdict(int)
        self.mpo_total: dict[str, int] = {}

    def _rack(self, rack_id: str):
        return self.design.racks[rack_id]

    def mpo_port(self, rack_id: str) -> tuple[str, int, str, str]:
        """(panel name, U, front port label, rear port label) of the rack's next MPO port."""
        self.mpo[rack_id] += 1
        p = self.mpo[rack_id]
        n, port = (p - 1) // self.per_panel + 1, (p - 1) % self.per_panel + 1
        rack = self._rack(rack_id)
        return f"{rack.name}-PP{n}", rack.height_u - n + 1, str(port), f"R{port}"

    def cassette_port(self, rack_id: str, cassette: int, lc_port: int) -> tuple[str, int, str, str]:
        rack = self._rack(rack_id)
        e, slot = (cassette - 1) // self.slots + 1, (cassette - 1) % self.slots + 1
        mpo_panels = math.ceil(self.mpo_total.get(rack_id, 0) / self.per_panel)
        return f"{rack.name}-EN{e}-C{slot}", rack.height_u - mpo_panels - e + 1, str(lc_port), "R"


def _device_end(design, end, row_end: dict) -> dict:
    device = design.devices[end.device]
    rack = design.racks[device.rack].name
    return {
        "label": f"{rack}-U{device.u}-{end.port}",
        "rack": rack,
        "u": device.u,
        "device": device.name,
        "port": end.port,
        "cage": row_end["cage"],
        "module": row_end["module"],
    }


def _panel_end(rack_name: str, panel: str, u: int, port: str) -> dict:
    return {
        "label": f"{panel}:{port}",
        "rack": rack_name,
        "u": u,
        "device": panel,
        "port": port,
        "cage": "",
        "module": "",
    }


def _row(base, cable_id: str, kind: str, a: dict, b: dict, length, ordered, part, route):
    fields = {f"a_{k}": a[k] for k in END_FIELDS} | {f"b_{k}": b[k] for k in END_FIELDS}
    return replace(
        base,
        cable_id=cable_id,
        label=f"{a['label']} to {b['label']}",
        medium_kind=kind,
        length_m=_num(length),
        ordered_length_m=_num(ordered),
        part=part,
        route=route,
        **fields,
    )


def segment_rows(design, plant, rows: list) -> list:
    """``rows`` (the schedule's, one per link) with each paneled link replaced by its segments."""
    if design.settings.cabling == "direct":
        return rows
    layout = structured_layout(plant)
    if not layout.structured_links():
        return rows
    sc = structured_catalog()
    ports = _Ports(design, sc.panels[MPO_PANEL].front_ports, sc.panels[LC_ENCLOSURE].slots)
    ports.mpo_total = dict(layout.mpo_ports)
    by_link = {row.link_id: row for row in rows}
    fibre_parts = design.catalog.fibre_parts
    segments: dict[str, list] = defaultdict(list)
    cords = iter(layout.cords)
    cassette_no: dict[str, int] = defaultdict(int)
    for trunk in layout.trunks:
        first = layout.channels.get(trunk.links[0]) if trunk.links else None
        lc = first is not None and CONNECTOR_FAMILY.get(first.connector) == "LC"
        if lc:
            cassette_no[trunk.rack_a] += 1
            cassette_no[trunk.rack_b] += 1
        tpart = sc.trunks.get(trunk.part)
        trunk_part = part_number_for(tpart.part_number, trunk.ordered_m) if tpart else ""
        for i, link_id in enumerate(trunk.links):
            cord_a, cord_b = next(cords), next(cords)
            base = by_link.get(link_id)
            if base is None:  # a backplane or unlisted link: nothing to list
                continue
            link = design.links[link_id]
            rack_a, rack_b = design.racks[trunk.rack_a].name, design.racks[trunk.rack_b].name
            swapped = base.a_device != design.devices[link.a.device].name or (
                base.a_port != link.a.port
            )
            row_a = {"cage": base.b_cage if swapped else base.a_cage}
            row_a["module"] = base.b_module if swapped else base.a_module
            row_b = {"cage": base.a_cage if swapped else base.b_cage}
            row_b["module"] = base.a_module if swapped else base.b_module
            dev_a, dev_b = _device_end(design, link.a, row_a), _device_end(design, link.b, row_b)
            fpart = fibre_parts.get(cord_a.fibre_part)
            qty = 1 if lc else trunk.quantity
            out = segments[link_id]
            for k in range(1, qty + 1):
                suffix = f".{k}" if qty > 1 else ""
                if lc:
                    pa = ports.cassette_port(trunk.rack_a, cassette_no[trunk.rack_a], i + 1)
                    pb = ports.cassette_port(
                        trunk.rack_b, cassette_no[trunk.rack_b], CASSETTE_PORTS - i
                    )
                else:
                    pa, pb = ports.mpo_port(trunk.rack_a), ports.mpo_port(trunk.rack_b)
                front_a = _panel_end(rack_a, pa[0], pa[1], pa[2])
                front_b = _panel_end(rack_b, pb[0], pb[1], pb[2])
                rear_a = _panel_end(rack_a, pa[0], pa[1], pa[3])
                rear_b = _panel_end(rack_b, pb[0], pb[1], pb[3])
                for cord, dev, front, name in (
                    (cord_a, dev_a, front_a, "cord-a"),
                    (cord_b, dev_b, front_b, "cord-b"),
                ):
                    part = part_number_for(fpart.part_number, cord.ordered_m) if fpart else ""
                    a, b = (dev, front) if name == "cord-a" else (front, dev)
                    row = _row(
                        base,
                        f"{link_id}:{name}{suffix}",
                        PATCH_CORD,
                        a,
                        b,
                        cord.length_m,
                        cord.ordered_m,
                        part,
                        "(in rack)",
                    )
                    out.append((name, k, row))
                if not lc or i == 0:
                    row = _row(
                        base,
                        f"{trunk.id}{suffix}",
                        TRUNK,
                        rear_a,
                        rear_b,
                        trunk.length_m,
                        trunk.ordered_m,
                        trunk_part,
                        base.route if not swapped else _reverse_route(base.route),
                    )
                    out.append(("trunk", k, row))
            segments[link_id] = out
    result = []
    order = {"cord-a": 0, "trunk": 1, "cord-b": 2}
    for row in rows:
        parts = segments.get(row.link_id)
        if not parts:
            result.append(row)
            continue
        link = design.links[row.link_id]
        swapped = row.a_device != design.devices[link.a.device].name or row.a_port != link.a.port
        listed = [r for _, _, r in sorted(parts, key=lambda p: (order[p[0]], p[1]))]
        if swapped:
            listed = [_swap(r) for r in reversed(listed)]
        result.extend(listed)
    return result


def _reverse_route(route: str) -> str:
    return " > ".join(reversed(route.split(" > "))) if " > " in route else route


def _swap(row):
    """The same segment listed from its other end."""
    fields = {}
    for k in END_FIELDS:
        fields[f"a_{k}"], fields[f"b_{k}"] = getattr(row, f"b_{k}"), getattr(row, f"a_{k}")
    a_label, _, b_label = row.label.partition(" to ")
    route = _reverse_route(row.route) if row.medium_kind == TRUNK else row.route
    return replace(row, label=f"{b_label} to {a_label}", route=route, **fields)
