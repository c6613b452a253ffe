"""The channel of one link as the editor shows it: one row per element with its loss.

A pure function of the design, its cable plant and the structured layout
(:func:`model.structured.layout.structured_layout`); the inspector only displays it. Each row
is one element of :class:`model.structured.channels.Channel` in light's order from the link's A end: its
part (number at its length), length, the connectors at its two sides, its polarity, its share
of the insertion loss and whether it is the element the polarity check says to change.

Per-element loss (domain-facts §8a NV-STRUCT), the same terms as
:func:`model.structured.channels.loss_budget`, split by where they arise: a cord or trunk carries its
length × the mode's attenuation; a panel or cassette carries its mated connector pairs (an
adapter one, a cassette two). The rows therefore add up to the budget's loss exactly (a test
holds them to it).

Also here: :func:`channel_objects`, which says where each channel element sits on the plan
(panels and cassettes in their rack, cords on their link, trunks themselves), so a finding that
names elements can select them.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.catalog.parts import part_number_for, row_number
from model.catalog.structured import StructuredCatalog, structured_catalog
from model.structured.channels import (
    CONNECTOR_FAMILY,
    CONNECTOR_FIBRES,
    Channel,
    Element,
    LossBudget,
    loss_budget,
)
from model.structured.cords import recorded_pieces, typed_length
from model.structured.layout import StructuredLayout
from model.structured.layout_records import Trunk, cassette_rack
from model.structured.polarity import PolarityResult, check_polarity

KIND_WORDS = {"cord": "Patch cord", "panel": "Panel", "trunk": "Trunk", "cassette": "Cassette"}


@dataclass(frozen=True)
class SegmentRow:
    """One element of a channel, in words and figures (lengths m, losses dB)."""

    index: int
    kind: str  # cord / panel / trunk / cassette
    object_id: str
    # The BOM's orderable number (at its length for cords and trunks; "quote" where the
    # catalog's is an EST- estimate), "" when no part is orderable
    part: str
    description: str
    length_m: float
    connectors: str  # "A side ↔ B side"
    polarity: str
    loss_db: float
    loss_text: str  # how the loss arises ("10 m × 3.0 dB/km", "1 MPO mated pair")
    change: str = ""  # the polarity fix on this element, "" when it is not the one to change
    name: str = ""  # what the design calls it: the panel device's name, else the element id
    place: str = (
        ""  # where it is: "in A01" (a panel), "A01 to A05" (a trunk), its two ends (a cord)
    )


@dataclass(frozen=True)
class ChannelView:
    channel: Channel
    budget: LossBudget
    polarity: PolarityResult
    rows: tuple[SegmentRow, ...]
    polarity_text: str
    panel_rule: str  # the NV-STRUCT panel/reach rule and whether the channel keeps it
    length_text: str = ""  # which length the channel is: the link's typed one or as laid

    @property
    def ok(self) -> bool:
        return self.polarity.ok and not self.budget.over_budget and "exceeds" not in self.panel_rule


def _polarity_words(element: Element) -> str:
    if element.kind == "panel":
        return "straight through (adapter)"
    if element.kind == "cassette":
        side = "rear to front" if element.reverse else "front to rear"
        return f"method {element.polarity}, LC port {element.port} ({side})"
    if element.polarity == "AB":
        return "A-to-B (crossed)"
    if element.polarity == "AA":
        return "A-to-A (straight)"
    return f"Type {element.polarity}" + {"A": " (straight)", "B": " (flipped)"}.get(
        element.polarity, " (pairs flipped)"
    )


def cord_fibre_part(design, medium: str):
    """The fibre part a medium's modules take (its patch cords are that part), or None."""
    catalog = design.catalog
    for part in catalog.module_parts.values():
        if part.medium == medium and part.fibre in catalog.fibre_parts:
            return catalog.fibre_parts[part.fibre]
    return None


def trunk_part_text(trunk: Trunk, catalog: StructuredCatalog | None = None) -> str:
    """A trunk's part as the inspector shows it: the BOM's number at the trunk's ordered length
    ("quote" where the catalog's is an EST- estimate) and what it is, or "none orderable" (no
    part, or none long enough). The catalog's trunk id (``trunk.part``) is an internal key, and
    the estimate no number to order by, so neither is shown as the part number."""
    tpart = (catalog or structured_catalog()).trunks.get(trunk.part)
    number = row_number(part_number_for(tpart.part_number, trunk.ordered_m)) if tpart else ""
    return f"{number}: {tpart.description}" if tpart and number else "none orderable"


def channel_view(
    design,
    channel: Channel,
    catalog: StructuredCatalog | None = None,
    layout: StructuredLayout | None = None,
) -> ChannelView:
    """The rows, totals, polarity verdict and panel rule of ``channel`` (``layout``, the
    structured layout it comes from, names the racks of its trunks and virtual panels)."""
    catalog = catalog or structured_catalog()
    trunks = {t.id: t for t in layout.trunks} if layout is not None else {}
    names, places = _names_and_places(design, channel, trunks)
    budget = loss_budget(channel, catalog)
    polarity = check_polarity(channel)
    attenuation = catalog.attenuation_db_per_km[channel.mode]
    family = CONNECTOR_FAMILY.get(channel.connector, "MPO")
    fibre = cord_fibre_part(design, channel.medium)
    fix_index, fix_element = polarity.fix if polarity.fix else (None, None)
    rows: list[SegmentRow] = []
    for i, e in enumerate(channel.elements):
        if e.kind in ("cord", "trunk"):
            loss = e.length_m / 1000.0 * attenuation
            loss_text = f"{e.length_m:g} m × {attenuation:g} dB/km"
            if e.kind == "cord":
                part = part_number_for(fibre.part_number, e.length_m) if fibre else ""
                description = fibre.description if fibre else channel.connector
                connectors = f"{channel.connector} ↔ {channel.connector}"
            else:
                tpart = catalog.trunks.get(e.part)
                part = part_number_for(tpart.part_number, e.length_m) if tpart else ""
                description = tpart.description if tpart else "no orderable trunk"
                width = CONNECTOR_FIBRES.get(channel.connector, 12)
                width = 12 if width == 2 else width  # LC channels ride a cassette's MPO-12
                connectors = f"MPO-{width} leg ↔ MPO-{width} leg"
                if tpart and tpart.fibres > width:
                    connectors += f" ({tpart.fibres}-fibre trunk)"
        else:
            ppart = catalog.panels.get(e.part)
            pairs = ppart.mated_pairs if ppart else (family,)
            loss = sum(catalog.connector_loss_db[c] for c in pairs)
            loss_text = " + ".join(
                f"{c} mated pair {catalog.connector_loss_db[c]:g} dB" for c in pairs
            )
            part = ppart.part_number if ppart else ""
            description = ppart.description if ppart else "adapter"
            if ppart is None:
                connectors = f"{family} ↔ {family}"
            elif e.kind == "cassette":
                front = f"{ppart.front_connector} port {e.port}"
                rear = f"{ppart.rear_connector} rear"
                connectors = f"{rear} ↔ {front}" if e.reverse else f"{front} ↔ {rear}"
            else:
                connectors = f"{ppart.front_connector} front ↔ {ppart.rear_connector} rear"
        part = row_number(part)  # as the BOM and the schedule show it ("quote" for an EST-)
        change = ""
        if i == fix_index and fix_element is not None:
            if fix_element.port != e.port:
                change = f"move to LC port {fix_element.port}"
            else:
                change = f"change to {_polarity_words(fix_element)}"
        rows.append(
            SegmentRow(
                i,
                e.kind,
                e.object_id,
                part,
                description,
                e.length_m,
                connectors,
                _polarity_words(e),
                loss,
                loss_text,
                change,
                names[i],
                places[i],
            )
        )
    return ChannelView(
        channel,
        budget,
        polarity,
        tuple(rows),
        polarity.message(channel),
        _panel_rule(channel, budget),
        length_words(design, channel, trunks),
    )


def length_words(design, channel: Channel, trunks: dict | None = None) -> str:
    """Which length the channel is, in one sentence: its pieces' recorded lengths (import-netbox)
    where it has them, each piece said recorded or estimated; else the link's typed length
    (as-built, else override) when it has one, else the length as laid (see
    :func:`model.structured.cords.lay_cords`). ``trunks``: the layout's trunks by id (a trunk
    another link of its bundle recorded is recorded)."""
    link = design.links.get(channel.link_id)
    typed = typed_length(link) if link is not None else None
    if not channel.panels:
        if typed is None:
            return f"{channel.length_m:g} m: the link's routed length"
        return f"{channel.length_m:g} m: the link's {typed[1]} length {typed[0]:g} m"
    trunks_m = sum(e.length_m for e in channel.elements if e.kind == "trunk")
    pieces = [e for e in channel.elements if e.kind in ("cord", "trunk")]
    recorded = recorded_pieces(link, len(pieces) - 2)
    if recorded:
        trunks = trunks or {}
        words = []
        for n, (e, given) in enumerate(zip(pieces, recorded, strict=True)):
            trunk = trunks.get(e.object_id) if e.kind == "trunk" else None
            known = trunk.recorded if trunk is not None else given is not None
            name = ("cord A", "cord B")[n > 0] if e.kind == "cord" else f"trunk {n}"
            words.append(f"{name} {e.length_m:g} m {'recorded' if known else 'estimated'}")
        return f"{channel.length_m:g} m: " + ", ".join(words)
    if typed is None:
        return f"{channel.length_m:g} m as laid: cords from the racks, {trunks_m:g} m of trunks"
    if typed[0] <= trunks_m:
        return (
            f"{channel.length_m:g} m as laid: the link's {typed[1]} length {typed[0]:g} m is "
            f"no longer than its {trunks_m:g} m of trunks (shared by the bundle)"
        )
    return (
        f"{channel.length_m:g} m: the link's {typed[1]} length {typed[0]:g} m, "
        f"{trunks_m:g} m of it trunks and the rest cords at their stock lengths"
    )


def parts_text(view: ChannelView) -> str:
    """The parts a paneled channel is built of, A end to B end, in one line: what the
    inspector's "Cable" line shows for it instead of the direct fibre it no longer orders.
    Cords and trunks carry their ordered length; the patch points their part number."""
    words = []
    for row in view.rows:
        part = row.part or "none orderable"
        length = f" ({row.length_m:g} m)" if row.kind in ("cord", "trunk") else ""
        words.append(f"{KIND_WORDS[row.kind].lower()} {part}{length}")
    return " + ".join(words)


def _names_and_places(design, channel: Channel, trunks: dict) -> tuple[list[str], list[str]]:
    """Per element: the name the design gives it and where it is, in words."""
    racks, devices = design.racks, design.devices
    link = design.links.get(channel.link_id)
    names, point_racks = [], []
    for i, e in enumerate(channel.elements):
        device = devices.get(e.object_id)
        names.append((device.name or device.id) if device is not None else e.object_id)
        rack = (
            patch_point_rack(design, trunks, channel, i)
            if e.kind in ("panel", "cassette")
            else None
        )
        point_racks.append(racks[rack].name if rack in racks else "")
    points = [i for i, e in enumerate(channel.elements) if e.kind in ("panel", "cassette")]
    places = []
    for i, e in enumerate(channel.elements):
        if e.kind in ("panel", "cassette"):
            places.append(f"in {point_racks[i]}" if point_racks[i] else "")
        elif e.kind == "trunk":
            trunk = trunks.get(e.object_id)
            ends = (racks[trunk.rack_a].name, racks[trunk.rack_b].name) if trunk else ("", "")
            places.append(f"{ends[0]} to {ends[1]}" if trunk else "")
        elif link is not None and points:
            end = link.a if i < points[0] else link.b
            device = devices[end.device]
            panel = names[points[0]] if i < points[0] else names[points[-1]]
            here = f"{device.name}:{end.port}"
            places.append(f"{here} to {panel}" if i < points[0] else f"{panel} to {here}")
        elif link is not None:
            places.append(
                f"{devices[link.a.device].name}:{link.a.port} to "
                f"{devices[link.b.device].name}:{link.b.port}"
            )
        else:
            places.append("")
    return names, places


def _panel_rule(channel: Channel, budget: LossBudget) -> str:
    """NV-STRUCT's panel count and paneled reach for this channel, in one sentence."""
    if not channel.panels:
        return "direct: no patch panel"
    parts = []
    if budget.max_panels is not None:
        verdict = "exceeds" if channel.panels > budget.max_panels else "within"
        parts.append(f"{channel.panels} patch points, {verdict} the {budget.max_panels} allowed")
    else:
        parts.append(f"{channel.panels} patch points (no panel rule for {channel.medium})")
    if budget.reach_m is not None:
        verdict = "exceeds" if channel.length_m > budget.reach_m + 1e-9 else "within"
        parts.append(f"{channel.length_m:g} m {verdict} the {budget.reach_m:g} m paneled reach")
    return "; ".join(parts)


@dataclass(frozen=True)
class PlanObject:
    """Where a channel element is on the plan: the rack of a panel, the link of a cord, a trunk."""

    kind: str
    rack_id: str | None = None
    link_id: str | None = None


def patch_point_rack(design, trunks: dict, channel: Channel, i: int) -> str | None:
    """Rack of the patch point ``channel.elements[i]``: its panel device's rack when the panel
    is placed, else the rack the adjacent trunk starts (after it) or ends (before it) in.
    ``trunks`` maps trunk id -> the layout's :class:`~model.structured.layout.Trunk`."""
    return point_rack(design, trunks, channel.elements, i)


def point_rack(design, trunks: dict, elements, i: int) -> str | None:
    """:func:`patch_point_rack` of ``elements[i]`` in a sequence of a channel's elements (the
    cords, which are never trunks, may be left out)."""
    device = design.devices.get(elements[i].object_id)
    if device is not None:
        return device.rack
    if i + 1 < len(elements) and elements[i + 1].object_id in trunks:
        return trunks[elements[i + 1].object_id].rack_a
    if i > 0 and elements[i - 1].object_id in trunks:
        return trunks[elements[i - 1].object_id].rack_b
    if elements[i].kind == "cassette":  # a channel through one patch point: no trunk beside it
        return cassette_rack(elements[i].object_id)
    return None


def channel_objects(layout: StructuredLayout, design) -> dict[str, PlanObject]:
    """Every element id of the layout's channels through panels -> where it sits on the plan.

    Panels and cassettes are in a rack (:func:`patch_point_rack`); cords belong to their link;
    trunks are their own plan objects (the trunk layer). Read off the layout's columns: each
    leg's shared elements once, and the two cords of each channel (the channels are not made:
    at zoned XL that was seconds on the editor's thread when a finding was selected). A patch
    point is next to the same trunks whichever channel passes it, so its first leg places it.
    """
    out: dict[str, PlanObject] = {}
    trunks = {t.id: t for t in layout.trunks}
    table = layout.channels
    for middle in table.middles:
        for i, e in enumerate(middle):
            if e.object_id in out:
                continue
            if e.kind == "trunk":
                trunk = trunks.get(e.object_id)
                out[e.object_id] = PlanObject("trunk", rack_id=trunk.rack_a if trunk else None)
            else:
                out[e.object_id] = PlanObject(e.kind, rack_id=point_rack(design, trunks, middle, i))
    for link_id in table.structured:
        cord = PlanObject("cord", link_id=link_id)
        out[f"{link_id}:cord-a"] = out[f"{link_id}:cord-b"] = cord
    return out
