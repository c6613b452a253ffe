"""Structured-cabling layout of a design: rack-top panels, MPO trunks, patch cords, channels.

A pure function of the cable plant and ``design.settings.cabling``:

* ``direct`` — every link on a module medium is one fibre (:func:`model.channels.plant_channels`),
  exactly the plant of before: no panel, no trunk.
* ``cross-connect`` — every rack with optical links to other racks gets patch panels at its
  top; each inter-rack channel is patch cord (device to its rack's panel) – panel – MPO trunk
  (rack top to rack top, along the link's tray route) – panel – patch cord. Two patch points,
  NV-STRUCT's maximum for 100G-lane multimode.

Choices, written down:

* MPO-12 / MPO-16 channels (parallel optics) each take one trunk of their own fibre count
  (trunk-mpo12 / trunk-mpo16) through MPO adapter panels; polarity for parallel optics: the
  module's own crossover (Type-B) fibre as patch cords and a Type-B trunk (domain-facts §8a:
  parallel optics across a Type-B trunk need no flip). A link with several fibres per port
  (800G SR8: two MPO per port) takes that many trunks, cords and panel ports. Bundling several channels into MPO-24/48/144
  trunks is not done yet.
* LC duplex channels (FR4) go through MPO-12-to-6-LC cassettes: six channels share one MPO-12
  trunk; near port k meets far port 7-k (method B: A-to-B cords, Type-B trunk, mirrored ports).
* Cord length = the link's vertical at that end + the design's slack per end; trunk length =
  the horizontal route (hops + trays + floor) + the design's slack % + a 2 m service loop
  (LEVIATHAN: 2-3 m per trunk run, the low end). Each is ordered at the next orderable length
  (cords: the module's fibre part; trunks: the trunk part); a trunk of one bundle is ordered at
  the longest of its channels.
* Same-rack links and links on integrated cables (DAC, AOC, ...) stay direct.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import msgspec
import numpy as np

from model.channels import CONNECTOR_FAMILY, CONNECTOR_FIBRES, Channel, Element, plant_channels
from model.findings import Finding
from model.structured_catalog import StructuredCatalog, structured_catalog

CABLING_STYLES = ("direct", "cross-connect")
TRUNK_SERVICE_LOOP_M = 2.0  # LEVIATHAN: 2-3 m service loop per fibre trunk run
MPO_PANEL = "panel-mpo-1u-72"
LC_CASSETTE = "cassette-mpo12-lc6-a"
LC_ENCLOSURE = "enclosure-1u-4"
CASSETTE_PORTS = 6


@dataclass(frozen=True)
class Trunk:
    id: str
    part: str  # structured-catalog trunk id
    rack_a: str
    rack_b: str
    length_m: float
    ordered_m: float  # NaN: longer than the part's longest length
    links: tuple[str, ...]
    quantity: int = 1  # parallel channels of a link with several fibres per port (800G SR8)


@dataclass(frozen=True)
class Cord:
    link_id: str
    end: str  # "a" / "b"
    fibre_part: str
    length_m: float
    ordered_m: float
    quantity: int = 1


@dataclass
class StructuredLayout:
    style: str
    channels: dict[str, Channel]
    trunks: list[Trunk] = field(default_factory=list)
    cords: list[Cord] = field(default_factory=list)
    # Per rack: MPO adapter ports used and LC cassettes used (panels/enclosures derive from them).
    mpo_ports: dict[str, int] = field(default_factory=dict)
    cassettes: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def panel_counts(self, catalog: StructuredCatalog | None = None) -> dict[str, int]:
        """Per panel part id: how many to order (adapter panels and enclosures, per rack)."""
        catalog = catalog or structured_catalog()
        per_panel = catalog.panels[MPO_PANEL].front_ports
        slots = catalog.panels[LC_ENCLOSURE].slots
        out = {
            MPO_PANEL: sum(math.ceil(n / per_panel) for n in self.mpo_ports.values()),
            LC_ENCLOSURE: sum(math.ceil(n / slots) for n in self.cassettes.values()),
            LC_CASSETTE: sum(self.cassettes.values()),
        }
        return {k: v for k, v in out.items() if v}

    def structured_links(self) -> set[str]:
        return {c.link_id for c in self.channels.values() if c.panels}


def set_cabling(design, style: str) -> None:
    """Set the design's cabling style; ``direct`` leaves a fresh design exactly as generated."""
    if style == design.settings.cabling:
        return
    revision = design.revision
    design.set_settings(msgspec.structs.replace(design.settings, cabling=style))
    design.revision = revision  # a generator's output, not a user edit


def _round_up(lengths: tuple[float, ...], length_m: float) -> float:
    k = int(np.searchsorted(np.asarray(lengths, dtype=float), length_m - 1e-9))
    return float(lengths[k]) if k < len(lengths) else math.nan


def structured_layout(plant, catalog: StructuredCatalog | None = None) -> StructuredLayout:
    """The channels, trunks, cords and panels of ``plant``'s design under its cabling style."""
    catalog = catalog or structured_catalog()
    design = plant.design
    style = design.settings.cabling
    direct = plant_channels(plant)
    layout = StructuredLayout(style, dict(direct))
    if style == "direct":
        return layout
    slack_end = design.settings.slack_per_end_m
    slack_pct = design.settings.slack_pct
    fibre_of, fpp_of = {}, {}
    for part in design.catalog.module_parts.values():
        fibre_of.setdefault(part.medium, design.catalog.fibre_parts.get(part.fibre))
        fpp_of.setdefault(part.medium, part.fibres_per_port)
    bundles: dict[tuple[str, str, str, str], list[tuple[str, float, float, float]]] = {}
    for link_id, channel in direct.items():
        method, up_a, horizontal, up_b = plant.pieces_m(link_id)
        if method == "same-rack":
            continue
        link = design.links[link_id]
        rack_a = design.devices[link.a.device].rack
        rack_b = design.devices[link.b.device].rack
        key = (rack_a, rack_b, channel.mode, channel.connector)
        lanes = fpp_of.get(channel.medium, 1)
        # A duplex link of several fibre pairs takes that many cassette ports (one channel each).
        repeat = lanes if CONNECTOR_FAMILY.get(channel.connector) == "LC" else 1
        bundles.setdefault(key, []).extend([(link_id, up_a, horizontal, up_b)] * repeat)
    n_trunk = 0
    cassette_no: dict[str, int] = defaultdict(int)
    for (rack_a, rack_b, mode, connector), members in sorted(bundles.items()):
        lc = CONNECTOR_FAMILY.get(connector) == "LC"
        per_trunk = CASSETTE_PORTS if lc else 1
        width = 12 if lc else CONNECTOR_FIBRES[connector]
        tpart = catalog.trunk_for(mode, width)
        for start in range(0, len(members), per_trunk):
            chunk = members[start : start + per_trunk]
            qty = 1 if lc else fpp_of.get(direct[chunk[0][0]].medium, 1)
            n_trunk += 1
            trunk_id = f"trunk-{n_trunk}"
            length = max(h for _, _, h, _ in chunk) * (1 + slack_pct / 100) + TRUNK_SERVICE_LOOP_M
            ordered = _round_up(tpart.lengths_m, length) if tpart else math.nan
            layout.trunks.append(
                Trunk(
                    trunk_id,
                    tpart.id if tpart else "",
                    rack_a,
                    rack_b,
                    length,
                    ordered,
                    tuple(c[0] for c in chunk),
                    qty,
                )
            )
            if tpart is None or math.isnan(ordered):
                layout.findings.append(
                    Finding(
                        code="TRUNK_NOT_ORDERABLE",
                        severity="error",
                        message=f"{trunk_id} {rack_a} to {rack_b}: {length:.1f} m of {mode} "
                        f"MPO-{width} trunk is longer than any orderable trunk",
                        objects=(trunk_id, *(c[0] for c in chunk)),
                    )
                )
            if lc:
                cassette_no[rack_a] += 1
                cassette_no[rack_b] += 1
                cas_a = f"cassette-{rack_a}-{cassette_no[rack_a]}"
                cas_b = f"cassette-{rack_b}-{cassette_no[rack_b]}"
            for i, (link_id, up_a, _, up_b) in enumerate(chunk):
                if lc and link_id in layout.channels and layout.channels[link_id].panels:
                    cords = [
                        Cord(link_id, end, c.fibre_part, c.length_m, c.ordered_m)
                        for end, c in (("a", layout.cords[-2]), ("b", layout.cords[-1]))
                    ]
                    layout.cords.extend(cords)  # a further fibre pair of the same link
                    continue
                old = direct[link_id]
                fpart = fibre_of.get(old.medium)
                cords = []
                for end, up in (("a", up_a), ("b", up_b)):
                    cord_len = up + slack_end
                    got = _round_up(fpart.lengths_m, cord_len) if fpart else math.nan
                    cords.append(Cord(link_id, end, fpart.id if fpart else "", cord_len, got, qty))
                layout.cords.extend(cords)
                trunk_el = Element("trunk", trunk_id, tpart.id if tpart else "", ordered, "B")
                trunk_el = (
                    trunk_el
                    if not math.isnan(ordered)
                    else Element("trunk", trunk_id, "", length, "B")
                )
                # Cords are the module's own fibre part: NVIDIA MPO-12/APC fibres are crossover
                # (Type B); with a Type-B trunk, three flips make one (Tx 1 -> Rx 12).
                cord_type = "AB" if lc else "B"
                cord_a = Element("cord", f"{link_id}:cord-a", "", cords[0].ordered_m, cord_type)
                cord_b = Element("cord", f"{link_id}:cord-b", "", cords[1].ordered_m, cord_type)
                if lc:
                    near = Element("cassette", cas_a, LC_CASSETTE, port=i + 1)
                    far = Element(
                        "cassette", cas_b, LC_CASSETTE, port=CASSETTE_PORTS - i, reverse=True
                    )
                else:
                    near = Element("panel", f"panel-{rack_a}", MPO_PANEL)
                    far = Element("panel", f"panel-{rack_b}", MPO_PANEL)
                    layout.mpo_ports[rack_a] = layout.mpo_ports.get(rack_a, 0) + qty
                    layout.mpo_ports[rack_b] = layout.mpo_ports.get(rack_b, 0) + qty
                layout.channels[link_id] = Channel(
                    link_id,
                    old.medium,
                    old.mode,
                    old.connector,
                    (cord_a, near, trunk_el, far, cord_b),
                )
    layout.cassettes = dict(cassette_no)
    return layout
