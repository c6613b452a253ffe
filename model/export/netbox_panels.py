"""NetBox patch panels of a structured design: panel devices, front/rear ports, cords and trunks.

For a design cabled ``cross-connect`` (:func:`model.structured_layout.structured_layout`) every
inter-rack optical link is patch cord – panel – MPO trunk – panel – patch cord. NetBox models
exactly that with front and rear ports, so a cable trace from a GPU port runs through both
panels to the switch port:

* each rack's MPO adapter panels (``panel-mpo-1u-72``) are devices of a device type with 72
  front ports ``F1``.. and 72 rear ports ``R1``.. (MPO, one position each, ``Fk`` -> ``Rk``);
* each rack's LC cassettes sit four to an enclosure (``enclosure-1u-4``); an enclosure is one
  device whose type has, per slot ``s``, a rear port ``Cs`` (MPO, 6 positions) and six LC front
  ports ``Cs-1``..``Cs-6``;
* a link's two patch cords are cables device interface <-> panel front port, its trunk a cable
  rear port <-> rear port, with the cords' and the trunk's ordered lengths.

Choices, written down:

* Panel ports are numbered per rack in the order of the links' schedule labels, panels filled
  one after the other, so the same design always exports the same ports (also after a round
  trip through NetBox). A rack's cassettes are numbered in the same order, the ``n``-th in slot
  ``(n-1) % 4 + 1`` of enclosure ``(n-1) // 4 + 1``; its front port is the layout's cassette
  port.
* NetBox carries a position straight across a trunk; it does not model fibre polarity. The
  Type-B trunk of the layout mirrors the cassette ports (near port k meets far port 7-k,
  method B), so a cassette met at the far end of its trunk is exported with the mirrored map
  (front ``k`` -> rear position ``7-k``): NetBox's trace then lands on the port the installer
  really plugs. An enclosure's device type therefore names which of its slots are far ends;
  the part is the same.
* A link with two fibre connectors per port (800G SR8 / DR8: two MPO; FR8: two LC duplex) takes
  two panel (or cassette) ports per end and its share of the trunks; NetBox lets an interface
  hold one cable, so its cord is on the first panel port and every trunk is exported (rear to
  rear), the second connector's front ports left free.
* Panels sit at the top of their rack, in the highest free units; a rack without free units
  gets its panels unpositioned (NetBox allows a device in a rack without a position).

The device types are written in the devicetype-library format: ``rear-ports`` (name, type,
positions), ``front-ports`` (name, type, and the classic ``rear_port`` / ``rear_port_position``
that NetBox before 4.5 reads) and ``port-mappings`` (front_port, front_port_position,
rear_port, rear_port_position: what NetBox 4.5 and later read; each version ignores the other's
keys). Hooked into :func:`model.export.netbox.netbox_tables`; rows are dicts by column name.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from model.export.netbox_names import DESCRIPTION_MAX, fit_name, interface_name, slugify
from model.structured_catalog import structured_catalog
from model.structured_layout import CASSETTE_PORTS, LC_CASSETTE, LC_ENCLOSURE, MPO_PANEL
from model.structured_layout import structured_layout as layout_of

PANEL_ROLE = "patch-panel"
PANEL_VENDOR = "Generic"  # the structured catalog's parts are vendor "generic" estimates
MPO_PANEL_PREFIX = "PP"
ENCLOSURE_PREFIX = "FE"


@dataclass(frozen=True)
class PanelType:
    """A NetBox device type of a panel: the catalog part, and for an enclosure its far slots."""

    part_id: str
    slots: tuple[str, ...] = ()  # enclosures: per slot "near", "far" or "" (empty)

    @property
    def part(self):
        return structured_catalog().panels[self.part_id]

    @property
    def vendor(self) -> str:
        return PANEL_VENDOR

    @property
    def model(self) -> str:
        part = self.part
        if not self.slots:
            return part.part_number
        cassette = structured_catalog().panels[LC_CASSETTE].part_number
        held = ",".join(str(i + 1) for i, s in enumerate(self.slots) if s)
        far = ",".join(str(i + 1) for i, s in enumerate(self.slots) if s == "far")
        return fit_name(
            f"{part.part_number} + {cassette} in slots {held}"
            + (f", far end {far}" if far else ""),
            100,
        )

    @property
    def slug(self) -> str:
        return slugify(f"{self.vendor}-{self.model}")

    def ports(self) -> tuple[list[dict], list[dict], list[dict]]:
        """(rear ports, front ports, port mappings) of the device type."""
        rear, front, maps = [], [], []
        if not self.slots:
            for k in range(1, self.part.front_ports + 1):
                rear.append({"name": f"R{k}", "type": "mpo", "positions": 1})
                front.append({"name": f"F{k}", "type": "mpo", "rear_port": f"R{k}"})
                maps.append(_mapping(f"F{k}", f"R{k}", 1))
            return rear, front, maps
        for s, role in enumerate(self.slots, start=1):
            if not role:
                continue
            rear.append({"name": f"C{s}", "type": "mpo", "positions": CASSETTE_PORTS})
            for k in range(1, CASSETTE_PORTS + 1):
                position = CASSETTE_PORTS + 1 - k if role == "far" else k
                name = f"C{s}-{k}"
                front.append(
                    {
                        "name": name,
                        "type": "lc",
                        "rear_port": f"C{s}",
                        "rear_port_position": position,
                    }
                )
                maps.append(_mapping(name, f"C{s}", position))
        return rear, front, maps

    def document(self) -> dict[str, object]:
        part = self.part
        rear, front, maps = self.ports()
        doc: dict[str, object] = {
            "manufacturer": self.vendor,
            "model": self.model,
            "slug": self.slug,
            "part_number": fit_name(part.part_number, 50),
            "u_height": part.u,
            "is_full_depth": False,
            "airflow": "passive",
            "description": fit_name(part.description, DESCRIPTION_MAX),
            "comments": f"Hallwright {part.id}. Sources: {part.source}",
            "rear-ports": rear,
            "front-ports": front,
            "port-mappings": maps,
        }
        return doc


def _mapping(front: str, rear: str, position: int) -> dict[str, object]:
    return {
        "front_port": front,
        "front_port_position": 1,
        "rear_port": rear,
        "rear_port_position": position,
    }


@dataclass
class PanelExport:
    """What the panels add to a NetBox export (rows are dicts by NetBox column name)."""

    links: set[str] = field(default_factory=set)  # links exported as cord-trunk-cord
    types: list[PanelType] = field(default_factory=list)
    devices: list[dict[str, object]] = field(default_factory=list)
    cables: list[dict[str, object]] = field(default_factory=list)  # cords, then trunks
    front_ports: int = 0
    rear_ports: int = 0


@dataclass
class _Panel:
    rack: str
    type: PanelType
    name: str = ""
    u: int | None = None


def _top_units(design, rack_id: str, count: int) -> list[int | None]:
    """The ``count`` highest free units of the rack (1U panels), top first; None past full."""
    rack = design.racks[rack_id]
    used: set[int] = set()
    types = design.catalog.device_types
    for d in design.devices.values():
        if d.rack == rack_id:
            height = math.ceil(types[d.type].u_height) if d.type in types else 1
            used.update(range(d.u, d.u + max(1, height)))
    free = [u for u in range(rack.height_u, 0, -1) if u not in used]
    return [free[i] if i < len(free) else None for i in range(count)]


def panel_export(
    design, plant, site: str, device_names, rack_names, labels, flipped=frozenset()
) -> PanelExport:
    """Panels, cords and trunks of ``plant``'s design; an empty export for a direct design.

    ``device_names`` / ``rack_names``: the NetBox names already chosen (id -> name); ``labels``:
    link id -> the cabling schedule's label (cords are labelled after it); ``flipped``: links
    whose schedule A end is the link's B end (cord A is at the schedule's A end).
    """
    out = PanelExport()
    layout = layout_of(plant)
    # By label (unique per file, and what NetBox keeps): the same ports after a round trip.
    structured = sorted(layout.structured_links(), key=lambda k: (labels.get(k) or "", k))
    if not structured:
        return out
    out.links = set(structured)
    devices = design.devices
    # Per rack: MPO ports handed out so far; per cassette id: its role at its trunk.
    mpo_next: dict[str, int] = defaultdict(int)
    cassette_role: dict[str, str] = {}
    cassettes: dict[str, list[str]] = defaultdict(list)  # rack -> its cassettes, in order
    ends: dict[tuple[str, str], tuple[str, str, int]] = {}  # (link, end) -> (rack, kind, port)
    trunk_ends: dict[str, tuple] = {}
    quantity = {t.id: t.quantity for t in layout.trunks}
    for link_id in structured:
        channel = layout.channels[link_id]
        cord_a, near, trunk, far, cord_b = channel.elements
        link = design.links[link_id]
        rack_a, rack_b = devices[link.a.device].rack, devices[link.b.device].rack
        if near.kind == "panel":
            qty = quantity[trunk.object_id]
            first_a, first_b = mpo_next[rack_a] + 1, mpo_next[rack_b] + 1
            mpo_next[rack_a] += qty
            mpo_next[rack_b] += qty
            ends[(link_id, "a")] = (rack_a, "mpo", first_a)
            ends[(link_id, "b")] = (rack_b, "mpo", first_b)
            trunk_ends[trunk.object_id] = ("mpo", rack_a, first_a, rack_b, first_b, qty)
        else:
            for element, rack_id, role in ((near, rack_a, "near"), (far, rack_b, "far")):
                if element.object_id not in cassette_role:
                    cassette_role[element.object_id] = role
                    cassettes[rack_id].append(element.object_id)
            ends[(link_id, "a")] = (rack_a, near.object_id, near.port)
            ends[(link_id, "b")] = (rack_b, far.object_id, far.port)
            trunk_ends[trunk.object_id] = ("lc", near.object_id, far.object_id)

    panels = _place_panels(
        design, mpo_next, cassettes, cassette_role, device_names, rack_names, out
    )
    cords = {}
    for cord in layout.cords:
        cords.setdefault((cord.link_id, cord.end), cord)
    mediums = {}
    for link_id in structured:
        medium = plant.medium(link_id)
        mediums[link_id] = medium
        link = design.links[link_id]
        label = labels.get(link_id) or link.label or link_id
        order = ("b", "a") if link_id in flipped else ("a", "b")
        for end, which in zip(("a", "b"), order, strict=True):
            port_ref = link.a if which == "a" else link.b
            device_end = (
                site,
                device_names[port_ref.device],
                "dcim.interface",
                interface_name(port_ref.port),
            )
            panel_end = (site, *_front(panels, ends[(link_id, which)]))
            a, b = (device_end, panel_end) if end == "a" else (panel_end, device_end)
            cord = cords.get((link_id, which))
            out.cables.append(
                _cable(a, b, medium, f"{label} cord {end.upper()}", cord, "patch cord")
            )
    for trunk in layout.trunks:
        spec = trunk_ends.get(trunk.id)
        if spec is None:
            continue
        medium = mediums.get(trunk.links[0])
        pairs = _trunk_ends(panels, spec)
        names = (rack_names[trunk.rack_a], rack_names[trunk.rack_b])
        if names[0] > names[1]:  # A end in the rack that sorts first, as the schedule's cables
            pairs, names = [(b, a) for a, b in pairs], names[::-1]
        for k, (a, b) in enumerate(pairs, start=1):
            # Labels NetBox keeps across a round trip (the layout's trunk ids are its own).
            if spec[0] == "mpo":  # one link's trunk: after the link, as its cords
                first = trunk.links[0]
                label = f"{labels.get(first) or first} trunk" + (f" {k}" if len(pairs) > 1 else "")
            else:  # shared by a cassette's six channels: after its ends
                label = f"{names[0]}-{names[1]} trunk {a[0]} {a[2]}"
            out.cables.append(
                _cable((site, *a), (site, *b), medium, label, trunk, f"MPO trunk {trunk.part}")
            )
    return out


def _place_panels(design, mpo_ports, cassettes, cassette_role, device_names, rack_names, out):
    """The panel devices per rack (names unique beside the devices', ignoring case)."""
    catalog = structured_catalog()
    per_panel = catalog.panels[MPO_PANEL].front_ports
    slots = catalog.panels[LC_ENCLOSURE].slots
    taken = {name.casefold() for name in device_names.values()}
    panels: dict[tuple[str, str], object] = {}  # (rack, "mpo-k"/"enc-k") -> panel; cassettes
    types: dict[str, PanelType] = {}
    for rack_id in sorted(set(mpo_ports) | set(cassettes), key=lambda r: rack_names[r]):
        rack_panels: list[tuple[str, _Panel]] = []
        for i in range(math.ceil(mpo_ports.get(rack_id, 0) / per_panel)):
            rack_panels.append((f"mpo-{i + 1}", _Panel(rack_id, PanelType(MPO_PANEL))))
        by_enclosure: dict[int, list[str]] = defaultdict(lambda: [""] * slots)
        for n, cassette_id in enumerate(cassettes.get(rack_id, []), start=1):
            by_enclosure[(n - 1) // slots][(n - 1) % slots] = cassette_role[cassette_id]
            panels[("cassette", cassette_id)] = (rack_id, n)
        for e in sorted(by_enclosure):
            ptype = PanelType(LC_ENCLOSURE, tuple(by_enclosure[e]))
            rack_panels.append((f"enc-{e + 1}", _Panel(rack_id, ptype)))
        units = _top_units(design, rack_id, len(rack_panels))
        counters = {MPO_PANEL_PREFIX: 0, ENCLOSURE_PREFIX: 0}
        for (key, panel), u in zip(rack_panels, units, strict=True):
            prefix = ENCLOSURE_PREFIX if panel.type.slots else MPO_PANEL_PREFIX
            counters[prefix] += 1
            panel.name = _free_name(f"{rack_names[rack_id]}-{prefix}{counters[prefix]}", taken)
            panel.u = u
            panels[(rack_id, key)] = panel
            types.setdefault(panel.type.slug, panel.type)
            out.devices.append(
                {
                    "name": panel.name,
                    "role": PANEL_ROLE,
                    "manufacturer": PANEL_VENDOR,
                    "device_type": panel.type.model,
                    "status": "planned",
                    "rack": rack_names[rack_id],
                    "position": u,
                    "face": "front" if u is not None else "",
                    "airflow": "passive",
                    "description": fit_name(
                        f"Hallwright {panel.type.part.id} at the top of {rack_names[rack_id]}",
                        DESCRIPTION_MAX,
                    ),
                }
            )
            rear, front, _ = panel.type.ports()
            out.front_ports += len(front)
            out.rear_ports += len(rear)
    out.types = sorted(types.values(), key=lambda t: t.slug)
    return panels


def _free_name(name: str, taken: set[str]) -> str:
    candidate, n = fit_name(name, 64), 2
    while candidate.casefold() in taken:
        candidate = fit_name(f"{name}-{n}", 64)
        n += 1
    taken.add(candidate.casefold())
    return candidate


def _mpo_port(panels, rack_id: str, number: int) -> tuple[str, int]:
    per_panel = structured_catalog().panels[MPO_PANEL].front_ports
    panel = panels[(rack_id, f"mpo-{(number - 1) // per_panel + 1}")]
    return panel.name, (number - 1) % per_panel + 1


def _cassette_slot(panels, cassette_id: str) -> tuple[str, int]:
    slots = structured_catalog().panels[LC_ENCLOSURE].slots
    rack_id, n = panels[("cassette", cassette_id)]
    return panels[(rack_id, f"enc-{(n - 1) // slots + 1}")].name, (n - 1) % slots + 1


def _front(panels, end: tuple[str, str, int]) -> tuple[str, str, str]:
    rack_id, kind, port = end
    if kind == "mpo":
        name, k = _mpo_port(panels, rack_id, port)
        return name, "dcim.frontport", f"F{k}"
    name, slot = _cassette_slot(panels, kind)
    return name, "dcim.frontport", f"C{slot}-{port}"


def _trunk_ends(panels, spec) -> list[tuple[tuple, tuple]]:
    if spec[0] == "lc":
        (na, sa), (nb, sb) = _cassette_slot(panels, spec[1]), _cassette_slot(panels, spec[2])
        return [((na, "dcim.rearport", f"C{sa}"), (nb, "dcim.rearport", f"C{sb}"))]
    _, rack_a, first_a, rack_b, first_b, qty = spec
    out = []
    for j in range(qty):
        na, ka = _mpo_port(panels, rack_a, first_a + j)
        nb, kb = _mpo_port(panels, rack_b, first_b + j)
        out.append(((na, "dcim.rearport", f"R{ka}"), (nb, "dcim.rearport", f"R{kb}")))
    return out


def _cable(a: tuple, b: tuple, medium, label: str, piece, what: str) -> dict[str, object]:
    length = None
    if piece is not None:
        length = piece.ordered_m if piece.ordered_m == piece.ordered_m else piece.length_m
    return {
        "side_a_site": a[0],
        "side_a_device": a[1],
        "side_a_type": a[2],
        "side_a_name": a[3],
        "side_b_site": b[0],
        "side_b_device": b[1],
        "side_b_type": b[2],
        "side_b_name": b[3],
        "type": medium.netbox_type if medium is not None else "",
        "status": "planned",
        "label": fit_name(label, 100),
        "length": None if length is None else round(length, 2),
        "length_unit": "m" if length is not None else "",
        "description": fit_name(
            what + (f" ({piece.fibre_part})" if getattr(piece, "fibre_part", "") else ""),
            DESCRIPTION_MAX,
        ),
    }
