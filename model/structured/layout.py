"""Structured-cabling layout of a design: panels, bundled MPO trunks, patch cords, channels.

A pure function of the cable plant, ``design.settings.cabling``, the placed panel devices and
``Link.via`` (:mod:`model.design.structured_edit`):

* ``direct`` — every link on a module medium is one fibre (:func:`model.structured.channels.plant_channels`),
  exactly the plant of before: no panel, no trunk (unless a link is routed via panels by hand).
* ``cross-connect`` — each inter-rack channel is patch cord (device to its rack's panel) –
  panel – MPO trunk (rack top to rack top, along the link's tray route) – panel – patch cord.
  Two patch points, NV-STRUCT's maximum for 100G-lane multimode.
* ``zones`` — TIA-942 zones (:mod:`model.structured.paths`): rack panel – trunk – zone (HDA)
  panel – trunk – network-rack (MDA) panel.

Choices, written down:

* **Panels.** The patch points use the panel devices placed in the racks
  (:class:`~model.structured.paths.PanelPool`: top panel first, one MPO port per trunk leg, one
  enclosure slot per cassette); ``generate --cabling`` places them (:func:`place_panels`). A
  rack whose own panels are full uses those of the patch racks of its row, nearest first
  (the network racks' overflow; :mod:`model.generators.patch_racks` places such racks): the
  cord runs on to the patch rack and a trunk ending there is ordered that way longer. A rack
  still short of placed panels gets *virtual* ones (ordered in the BOM, reported as
  PANELS_NOT_PLACED) so an older design or a hand-built one still has its channels.
* **Legs.** A trunk *leg* is one MPO connector at each end: an MPO-12/-16 channel's fibre (a link
  with several fibres per port, 800G SR8, takes one leg per fibre), or the MPO-12 rear of an
  LC cassette pair carrying up to six duplex channels (near port k meets far port 7-k, method B).
* **Bundling.** Legs between the same two panels (same mode and leg width) share trunks: the
  smallest trunk of the catalog (MPO-12/16/24/48/144) that carries all of them, else the
  largest, repeated. A trunk is ordered at the longest of its legs; the BOM lists trunks by
  fibre count and length.
* **Polarity.** Cords are the module's own fibre part (NVIDIA MPO-12/APC crossover, Type B;
  duplex A-to-B); the first trunk of a channel is Type B and any further trunk Type A (through
  an MPO adapter), so the channel keeps one flip (domain-facts §8a). A link's record of what
  is installed (``Link.polarity``, :mod:`model.structured.link_polarity`) overrides its elements.
* **Lengths.** Cord = the link's vertical at that end + the design's slack per end (+ the rack
  distance when the panel is in another rack); trunk = the horizontal route between the two
  panels' racks (the link's own route between its two racks, else
  :class:`~model.structured.paths.RackDistances`) + the slack % + a 2 m service loop
  (LEVIATHAN: 2-3 m per trunk run, the low end), ordered at the next orderable length. A
  piece whose length a link recorded (``Link.as_built_pieces_m``: import-netbox, an as-built
  lengths file) is that length instead; a trunk at the longest its links recorded.
* Same-rack links and links on integrated cables (DAC, AOC, ...) stay direct.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from model.catalog.parts import FibrePart
from model.catalog.structured import StructuredCatalog, structured_catalog
from model.common.findings import Finding
from model.design.placement import DeviceNames
from model.design.structured_edit import new_panel, panel_types
from model.runtime.gc_policy import collector_paused
from model.structured.channel_groups import group_channels
from model.structured.channel_legs import channel_legs
from model.structured.channel_table import ChannelTable
from model.structured.channels import plant_fibres
from model.structured.cords import (
    lay_cords,
    msa_cord_fibres,
    polarity_records,
    recorded_lengths,
    typed_lengths,
)
from model.structured.layout_records import LC_CASSETTE as LC_CASSETTE
from model.structured.layout_records import (  # re-exported: callers read them from here
    LC_ENCLOSURE,
    MPO_PANEL,
    StructuredLayout,
)
from model.structured.layout_records import Trunk as Trunk
from model.structured.layout_records import TrunkLeg as TrunkLeg
from model.structured.leg_reuse import LegMemo
from model.structured.legs import LegLayer
from model.structured.paths import (
    PanelPool,
    RackDistances,
    overflow_racks,
)
from model.structured.polarity import CASSETTE_PORTS as CASSETTE_PORTS  # the NetBox export's
from model.structured.trunk_bundles import bundle_trunks as _bundle_trunks

CABLING_STYLES = ("direct", "cross-connect", "zones")


def uses_structured(design) -> bool:
    """Whether any link runs through panels (a structured style, or a link routed via panels)."""
    return design.settings.cabling != "direct" or bool(design.links_via_panels())


def panel_usage(plant, rack_id: str | None = None) -> dict[str, tuple[int, int]]:
    """Per placed panel (of ``rack_id``, or all): (MPO ports or cassette slots used, how many it
    has) — what the rack elevation shows on a panel (0 used when no link runs through it)."""
    design = plant.design
    types = panel_types(design)
    panels = [
        d
        for d in (design.devices_in_rack(rack_id) if rack_id else design.devices.values())
        if d.type in types
    ]
    if not panels:
        return {}
    catalog = structured_catalog()
    use = (
        structured_layout(plant, catalog, panels_only=True).panel_use
        if uses_structured(design)
        else {}
    )
    out = {}
    for panel in panels:
        part = catalog.panels[panel.type]
        out[panel.id] = use.get(panel.id, (0, part.slots or part.front_ports))
    return out


def set_cabling(design, style: str) -> None:
    """Set the design's cabling style; ``direct`` leaves a fresh design exactly as generated."""
    if style == design.settings.cabling:
        return
    revision = design.revision
    design.set_settings(msgspec.structs.replace(design.settings, cabling=style))
    design.revision = revision  # a generator's output, not a user edit


def place_panels(design, plant=None, layout=None) -> int:
    """Place, at the top of each rack, the panels its channels need (the generator's step);
    returns how many were placed. A rack without the U puts them in the patch racks of its
    row, nearest first; what no rack has the U for stays virtual (a finding). ``layout``: the
    design's current layout (panels only will do) when the caller has it."""
    return _place_panels(design, plant, layout)[0]


def panels_left(design, plant=None, layout=None) -> dict[str, int]:
    """:func:`place_panels`, returning per rack the U of the panels nothing had room for
    (none left: empty), which the generator gives patch racks (model.generators.patch_racks)."""
    return _place_panels(design, plant, layout)[1]


def _place_panels(design, plant, layout=None) -> tuple[int, dict[str, int]]:
    from model.engine.routed_links import RoutedLinks

    if layout is None:
        plant = plant or RoutedLinks(design)
        layout = structured_layout(plant, panels_only=True)
    names = DeviceNames(design)
    overflow = overflow_racks(design)
    placed = 0
    left: dict[str, int] = {}
    for (rack_id, type_id), count in sorted(layout.virtual_panels.items()):
        # The rack itself first, then the patch racks of its row, nearest first (the order
        # the layout's PanelPool takes their ports in).
        where = iter((rack_id, *overflow.get(rack_id, ())))
        holder: str | None = next(where)
        for n in range(count):
            device = None
            while device is None and holder is not None:
                try:
                    device = new_panel(design, holder, type_id, names=names)
                except ValueError:  # no free U left: the next patch rack, else virtual
                    holder = next(where, None)
            if device is None:  # no rack has the U: it stays virtual (PANELS_NOT_PLACED)
                u_height = design.catalog.device_types[type_id].u_height
                left[rack_id] = left.get(rack_id, 0) + (count - n) * u_height
                break
            design.add_devices([device])
            placed += 1
    return placed, left


def structured_layout(
    plant,
    catalog: StructuredCatalog | None = None,
    panels_only: bool = False,
    trunks_only: bool = False,
    distances: Callable[[str, str], float] | None = None,
    findings_only: bool = False,
    memo: LegMemo | None = None,
) -> StructuredLayout:
    """The channels, trunks, cords and panels of ``plant``'s design (see the module docstring).

    ``distances``: the rack distances to use (a caller laying out the same trays and racks
    again keeps them, :mod:`model.generators.cabling_session`), else searched for this layout.

    ``panels_only``: only what the patch points take — ``virtual_panels``, ``panel_use`` and
    their findings — without bundling trunks or making cords and channels. Panels are taken
    while the legs are laid out, before any trunk exists, so these are the full layout's own
    figures; placing the panels of a generated XL hall needed nothing else, and the whole
    layout was ~60 % of ``generate --cabling``.

    ``trunks_only``: the panels and the trunks, without channels, cords and legs (no channel
    is in ``channels``): what a picture draws (~a third of a zoned XL layout less).

    ``findings_only``: the full layout's ``findings`` (and ``cords``, whose links are those of
    its channels), without the channels' table rows and trunk legs no finding reads: what
    ``routes`` prints. A design with recorded piece lengths gets the full layout (their check
    reads the table's legs).

    ``memo``: a :class:`~model.structured.leg_reuse.LegMemo` kept from this design's last
    full layout (an editor's analysis after each edit): its rack distances are reused, and its
    legs when the edit changed only lengths (a rack move); the layout is the same as without.
    Only a full layout reads or fills it."""
    # A zoned XL hall's layout makes millions of objects and no cycles: with the collector on,
    # its full collections re-scanned them all (a third of the layout's time).
    with collector_paused():
        return _layout(
            plant,
            catalog or structured_catalog(),
            panels_only,
            trunks_only,
            distances,
            findings_only,
            memo,
        )


def _layout(
    plant,
    catalog: StructuredCatalog,
    panels_only: bool = False,
    trunks_only: bool = False,
    distances: Callable[[str, str], float] | None = None,
    findings_only: bool = False,
    memo: LegMemo | None = None,
) -> StructuredLayout:
    """The layout in the module docstring's four steps: group, legs, trunks, channels and cords."""
    design = plant.design
    style = design.settings.cabling
    direct = plant_fibres(plant)
    # The links that run through panels are added to the table in step 4; the others stay
    # direct. Polarity records are read now: the layout follows its design's revision only.
    # A memo keeps all three while the links stand; a one-shot reads each where it is used.
    entries = memo.link_entries(design) if memo is not None else None
    # A panels- or trunks-only layout of a structured design makes no channel: no record read
    # (~30 ms of a zoned XL picture).
    channel_less = (panels_only or trunks_only) and uses_structured(design)
    records = (
        {} if channel_less else entries[0] if entries is not None else polarity_records(design)
    )
    table = ChannelTable(direct, {lid: r for lid, r in records.items() if lid in direct})
    layout = StructuredLayout(style, table)
    if not uses_structured(design):
        return layout
    settings = design.settings
    fibre_of, fpp_of = _module_fibres(design.catalog)
    if panels_only or trunks_only or findings_only:
        memo = None  # a memo keeps a full layout's legs
    if memo is not None and distances is None:
        distances = memo.distance(plant)
    distance = RackDistances(plant) if distances is None else distances
    pool = PanelPool(
        design,
        {
            MPO_PANEL: catalog.panels[MPO_PANEL].front_ports,
            LC_ENCLOSURE: catalog.panels[LC_ENCLOSURE].slots,
        },
    )
    kept = memo.groups if memo is not None else None
    groups, columns, route_of = group_channels(plant, direct, fpp_of, layout.findings, kept)
    if memo is not None:
        legs, pool = memo.lay(design, pool, layout.findings, groups, columns, distance)
    else:
        legs = LegLayer(design, pool, layout.findings, panels_only)
        legs.lay(groups, columns, distance)
    groups.clear()
    if panels_only:
        layout.channels = ChannelTable({})  # no channel made, as no trunk or cord is
        return _with_panels(layout, design, pool, legs.cassette_no)
    recorded = entries[1] if entries is not None else recorded_lengths(design)
    if memo is not None:
        memo.bundle(layout, catalog, legs, route_of, settings.slack_pct, recorded)
    else:
        # Trunks only: no channel will take a trunk element (asked apart: the oracle's
        # stand-in bundles a full layout's trunks).
        extra = {"for_channels": False} if trunks_only else {}
        _bundle_trunks(layout, catalog, legs, route_of, settings.slack_pct, recorded, **extra)
    if trunks_only:
        layout.channels = ChannelTable({})  # no channel made, as no cord is
        return _with_panels(layout, design, pool, legs.cassette_no)
    lean = findings_only and not recorded
    if memo is not None:
        per_leg = memo.legs_of_channels(layout, table, legs, distance)
    else:
        per_leg = channel_legs(layout, table, legs, distance, lean)
    typed = entries[2] if entries is not None else typed_lengths(design)
    msa = msa_cord_fibres(plant)  # an AMD or Broadcom module's cords: its vendor-neutral fibre
    lay_cords(
        layout,
        table,
        (*per_leg, columns),
        fibre_of,
        settings.slack_per_end_m,
        typed,
        recorded,
        msa,
        lean,
        memo.rows if memo is not None else None,
        kept=memo.cords if memo is not None else None,
    )
    return _with_panels(layout, design, pool, legs.cassette_no)


def _module_fibres(catalog) -> tuple[dict, dict]:
    """Per module medium: the fibre part its modules take, and their fibres per port."""
    fibre_of: dict[str, FibrePart | None] = {}
    fpp_of: dict[str, int] = {}
    for part in catalog.module_parts.values():
        fibre_of.setdefault(part.medium, catalog.fibre_parts.get(part.fibre))
        fpp_of.setdefault(part.medium, part.fibres_per_port)
    return fibre_of, fpp_of


def _with_panels(
    layout: StructuredLayout, design, pool: PanelPool, cassette_no
) -> StructuredLayout:
    """``layout`` with the panels its legs took: cassettes, virtual panels, use of the placed
    panels, and a PANELS_NOT_PLACED finding per rack short of placed panels."""
    layout.cassettes = dict(cassette_no)
    layout.virtual_panels = pool.virtual_panels()
    layout.panel_use = {
        panel_id: (used, pool.capacity.get(design.devices[panel_id].type, 0))
        for panel_id, used in sorted(pool.used.items())
    }
    for (rack_id, type_id), count in sorted(layout.virtual_panels.items()):
        rack = design.racks[rack_id]
        layout.findings.append(
            Finding(
                code="PANELS_NOT_PLACED",
                severity="info",
                message=f"rack {rack.name}: its channels need {count} more {type_id} "
                f"({count} U) than the panels placed in it; place panels (or generate with "
                "--cabling) so the rack's U counts them",
                objects=(rack_id,),
            )
        )
    return layout
