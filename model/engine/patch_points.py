"""Patch points of each link's channel, from the cabling style and the racks: what the media choice must respect.

The structured layer lays the channels (:mod:`model.structured.paths` documents the paths: a
``cross-connect`` channel passes a panel in each end's rack, a ``zones`` channel also its zone's
distribution panel and the far zone's); the media choice needs only how many patch points each
link's channel passes, so a medium whose panel rule forbids that many (NV-STRUCT: 100G-lane
multimode with at most two) is never chosen for it. The paths are defined here, below both, so
the engine and the layout count the same panels without the engine importing the layout.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from model.design.rack_rows import rack_rows
from model.design.structured_edit import panel_types

# Per design: (its device-edit count, its network racks). Only devices decide which racks are
# network racks, and the media choice asks after every edit: a rack move at zoned L spent 10 of
# its 23 ms walking the devices again.
_NETWORK: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def network_racks(design) -> frozenset[str]:
    """Racks holding a switch and no GPU server (the network rows' racks)."""
    edits = getattr(design, "_device_edits", None)
    cached = _NETWORK.get(design)
    if cached is not None and edits is not None and cached[0] == edits:
        return cached[1]
    types = design.catalog.device_types
    switch, server = set(), set()
    for device in design.devices.values():
        category = types[device.type].category
        if device.role == "gpu-server" or category == "server":
            server.add(device.rack)
        elif category in ("switch", "nvlink-switch"):
            switch.add(device.rack)
    got = frozenset(switch - server)
    if edits is not None:
        _NETWORK[design] = (edits, got)
    return got


def zone_hubs(design) -> dict[str, str]:
    """Per rack: the rack of its zone's distribution point (see the module docstring)."""
    network = network_racks(design)
    if network:
        cx = sum(design.racks[r].x for r in network) / len(network)
        cy = sum(design.racks[r].y for r in network) / len(network)
    else:
        cx = cy = 0.0
    out: dict[str, str] = {}
    for _, racks in rack_rows(design):
        hubs = [r for r in racks if r.id in network]
        if not hubs:  # a row without network gear: an HDA panel rack at the row's near end
            hubs = [
                min((racks[0], racks[-1]), key=lambda r: (math.hypot(r.x - cx, r.y - cy), r.name))
            ]
        for rack in racks:
            hub = min(hubs, key=lambda h: (abs(h.x - rack.x) + abs(h.y - rack.y), h.name))
            out[rack.id] = rack.id if rack.id in network else hub.id
    return out


def style_path(style: str, rack_a: str, rack_b: str, hubs: dict[str, str]) -> list[str]:
    """Racks of the patch points of a channel from ``rack_a`` to ``rack_b`` under ``style``."""
    if style == "cross-connect" or (style == "zones" and hubs.get(rack_a) == hubs.get(rack_b)):
        return [rack_a, rack_b]  # one zone: rack panel to rack panel (or to its HDA panel)
    if style != "zones":
        return []
    path = [rack_a]
    for hub in (hubs.get(rack_a, rack_a), hubs.get(rack_b, rack_b)):
        if hub != path[-1]:
            path.append(hub)
    if rack_b != path[-1]:
        path.append(rack_b)
    return path


def rack_patch_points(
    design, rack_index: dict[str, int], rack_a: np.ndarray, rack_b: np.ndarray
) -> np.ndarray:
    """Patch points of the style's channel between racks ``rack_a`` and ``rack_b`` (row numbers
    of ``rack_index``) per link: 0 within a rack or when cabled direct, 2 rack panel to rack
    panel, up to 4 through two zones' distribution panels (as :func:`style_path` counts)."""
    style = design.settings.cabling
    out = np.zeros(len(rack_a), dtype=np.int64)
    apart = rack_a != rack_b
    if style == "cross-connect":
        out[apart] = 2
    elif style == "zones":
        hub = np.arange(max(rack_index.values(), default=-1) + 1)
        for rack_id, hub_id in zone_hubs(design).items():
            if rack_id in rack_index and hub_id in rack_index:
                hub[rack_index[rack_id]] = rack_index[hub_id]
        ha, hb = hub[rack_a], hub[rack_b]
        points = 2 + np.where(ha != hb, (ha != rack_a).astype(np.int64) + (rack_b != hb), 0)
        out[apart] = points[apart]
    return out


def via_patch_points(design, link_ids) -> dict[str, int]:
    """Per link routed via panels by hand (``Link.via``): the panels it names that exist (the
    layout's path; a link naming none that exist follows the style's path)."""
    via = design.links_via_panels()
    if not via:
        return {}
    ptypes = panel_types(design)
    devices = design.devices
    out = {}
    for link_id in set(link_ids) & via:
        count = sum(
            1
            for panel_id in design.links[link_id].via
            if panel_id in devices and devices[panel_id].type in ptypes
        )
        if count:
            out[link_id] = count
    return out
