"""Edit API of structured cabling: place and remove patch panels, route a link via panels.

Choice (issue #18, item 1): panels are **design records**. A panel is a :class:`Device` of role
``patch-panel`` whose catalog device type id is also a structured-catalog panel part
(``panel-mpo-1u-72``, ``enclosure-1u-4``; :data:`PANEL_TYPES`), so it takes real U in its rack
(the rack's U and space check, the elevation, the file, the BOM's "Patch panels") like any other
device; its ports, connectors and losses are the structured part's. A link's channel passes the
panels named by ``Link.via`` (A end to B end); an empty ``via`` lets the design's cabling style
choose them (:mod:`model.structured.layout`). Cassettes are not records: an enclosure's
cassettes follow from the channels through it.

Every function validates first and changes nothing when it refuses (:class:`DesignError`), then
edits through the :class:`~model.design.design.Design` methods, so listeners see one change per call.
Each returns what an undo command needs to put the design back:

* :func:`place_panel` returns the new device (undo: ``design.remove_devices([device.id])``);
* :func:`remove_panels` returns a :class:`PanelRemoval` (undo: :func:`restore_panels`);
* :func:`route_via` returns the link as it was (undo: ``design.update_links([old])``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import msgspec

from model.catalog.structured import structured_catalog
from model.design.design import Design, DesignError, Removed
from model.design.entities import Device, Link
from model.design.link_entries import via_problem
from model.design.placement import DeviceNames


def panel_types(design: Design) -> frozenset[str]:
    """Device type ids that are structured panels (a patch-panel type with a structured part)."""
    parts = structured_catalog().panels
    return frozenset(
        t.id
        for t in design.catalog.device_types.values()
        if t.category == "patch-panel" and t.id in parts and parts[t.id].u > 0
    )


def patch_racks(design: Design) -> frozenset[str]:
    """Racks whose catalog type is a patch rack (role ``patch``): panels only, serving the
    racks of their row that have no U left for their own (:mod:`model.structured.paths`)."""
    rack_types = design.catalog.rack_types
    return frozenset(
        r.id
        for r in design.racks.values()
        if r.type in rack_types and rack_types[r.type].role == "patch"
    )


PANEL_TYPES = ("panel-mpo-1u-72", "enclosure-1u-4")  # the bundled ones: MPO panel, LC enclosure


def is_panel(design: Design, device_id: str) -> bool:
    """Whether ``device_id`` is a structured patch panel of the design."""
    device = design.devices.get(device_id)
    return device is not None and device.type in panel_types(design)


def panels_in_rack(design: Design, rack_id: str, type_id: str | None = None) -> list[Device]:
    """The rack's structured panels (of ``type_id`` if given), top of the rack first."""
    types = panel_types(design)
    found = [
        d
        for d in design.devices_in_rack(rack_id)
        if d.type in types and (type_id is None or d.type == type_id)
    ]
    return sorted(found, key=lambda d: (-d.u, d.id))


def top_free_u(design: Design, rack_id: str, u_height: int = 1) -> int | None:
    """The highest U where ``u_height`` free slots start (panels go to the top of a rack)."""
    rack = design.racks[rack_id]
    used: set[int] = set()
    for dev in design.devices_in_rack(rack_id):
        used.update(range(dev.u, dev.u + design.device_type(dev).u_height))
    for u in range(rack.height_u - u_height + 1, 0, -1):
        if not used.intersection(range(u, u + u_height)):
            return u
    return None


def new_panel(
    design: Design,
    rack_id: str,
    type_id: str,
    u: int | None = None,
    device_id: str | None = None,
    names: DeviceNames | None = None,
) -> Device:
    """A panel record for ``rack_id`` (not yet added): at ``u`` or the top free U, named by its
    rack and U (``C01-U42``, :mod:`model.design.panel_names`). ``names``: the names taken so
    far when many panels are placed one after another (the generator)."""
    if rack_id not in design.racks:
        raise DesignError(f"no rack {rack_id!r} to place a panel in")
    if type_id not in panel_types(design):
        raise DesignError(f"{type_id!r} is not a patch panel type of the structured catalog")
    height = design.catalog.device_types[type_id].u_height
    if u is None:
        u = top_free_u(design, rack_id, height)
        if u is None:
            rack = design.racks[rack_id]
            raise DesignError(f"rack {rack.name!r} has no {height} free U for a patch panel")
    return Device(
        id=device_id or design.new_id("pp"),
        name=(names or DeviceNames(design)).take_at(type_id, rack_id, u),
        type=type_id,
        rack=rack_id,
        u=u,
        role="patch-panel",
    )


def place_panel(design: Design, rack_id: str, type_id: str, u: int | None = None) -> Device:
    """Place a panel of ``type_id`` in ``rack_id`` at ``u`` (default: the top free U)."""
    device = new_panel(design, rack_id, type_id, u)
    design.add_devices([device])  # the U collision check is the design's
    return device


@dataclass
class PanelRemoval:
    """What :func:`remove_panels` changed: the removed devices and the links it re-routed."""

    removed: Removed = field(default_factory=Removed)
    links_before: list[Link] = field(default_factory=list)


def remove_panels(design: Design, ids: Iterable[str]) -> PanelRemoval:
    """Remove panels; links routed via them forget those panels (their other panels stay)."""
    ids = list(dict.fromkeys(ids))
    for device_id in ids:
        if not is_panel(design, device_id):
            raise DesignError(f"{device_id!r} is not a patch panel")
    gone = set(ids)
    before = [link for link in design.links.values() if gone.intersection(link.via)]
    with design.batch():
        if before:
            design.update_links(
                msgspec.structs.replace(
                    link,
                    via=tuple(p for p in link.via if p not in gone),
                    as_built_pieces_m=(),  # recorded on the route it no longer takes
                )
                for link in before
            )
        removed = design.remove_devices(ids)
    return PanelRemoval(removed, before)


def restore_panels(design: Design, removal: PanelRemoval) -> None:
    """Undo :func:`remove_panels`."""
    with design.batch():
        design.restore(removal.removed)
        if removal.links_before:
            design.update_links(removal.links_before)


def route_via(design: Design, link_id: str, panel_ids: Sequence[str]) -> Link:
    """Route ``link_id`` through ``panel_ids`` (A end to B end; empty: the cabling style's
    automatic panels). Returns the link as it was. Panels must be distinct structured panels;
    whether their connectors suit the link's optics is the analysis's finding, not a refusal
    (the medium is chosen later, by the engine)."""
    link = design.links.get(link_id)
    if link is None:
        raise DesignError(f"no link {link_id!r}")
    panel_ids = tuple(panel_ids)
    problem = via_problem(panel_ids)  # the loader's rule too
    if problem is not None:
        raise DesignError(f"link {link_id!r}: {problem}")
    for panel_id in panel_ids:
        if not is_panel(design, panel_id):
            raise DesignError(f"link {link_id!r}: {panel_id!r} is not a patch panel")
    if panel_ids != link.via:
        # The recorded piece lengths were the old route's cords and trunks
        design.update_links([msgspec.structs.replace(link, via=panel_ids, as_built_pieces_m=())])
    return link


__all__ = [
    "PANEL_TYPES",
    "PanelRemoval",
    "is_panel",
    "new_panel",
    "panel_types",
    "panels_in_rack",
    "patch_racks",
    "place_panel",
    "remove_panels",
    "restore_panels",
    "route_via",
    "top_free_u",
]
