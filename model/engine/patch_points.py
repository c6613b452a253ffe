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
import operator
import weakref
from dataclasses import dataclass

import numpy as np

from model.design.rack_rows import rack_rows
from model.design.structured_edit import panel_types, patch_racks

# Per design: (its device-edit count, its network racks). Only devices decide which racks are
# network racks, and the media choice asks after every edit: a rack move at zoned L spent 10 of
# its 23 ms walking the devices again.
_NETWORK: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# The last answer with the devices dict it was read off and that dict's design's device-edit
# count: a snapshot of a design (model.engine.snapshot) shares the previous snapshot's devices
# dict while no device was edited, so each analysis job's new snapshot finds its answer here
# (a live design's dict changes in place, and its count with it).
_NETWORK_LAST: list[tuple] = []


def network_racks(design) -> frozenset[str]:
    """Racks holding a switch and no GPU server (the network rows' racks)."""
    edits = getattr(design, "_device_edits", None)
    cached = _NETWORK.get(design)
    if cached is not None and edits is not None and cached[0] == edits:
        return cached[1]
    last = _NETWORK_LAST[0] if _NETWORK_LAST else None
    if last is not None and edits is not None and last[0] is design.devices and last[1] == edits:
        _NETWORK[design] = (edits, last[2])
        return last[2]
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
        _NETWORK_LAST[:] = [(design.devices, edits, got)]
    return got


class _RackFigures:
    """What this module derives from a design's racks, kept while they stand: its network racks
    and rack records (compared by identity: edits replace a rack's record, never change it, so
    a moved, renamed, added or removed rack misses), and, each made when first asked for, the
    zone hubs, the patch reach by rack and the media inputs by cabling style. Why: a plant
    refresh asks for the hubs twice and the reach thrice (the media choice's patch points,
    channel pieces, the plant's media inputs: ~14 ms each of the GUI thread at zoned XL)."""

    def __init__(self, network: frozenset[str], records: list) -> None:
        self.network, self.records = network, records
        self.hubs: dict[str, str] | None = None
        self.reach: dict[str, float] | None = None
        self.reach_known = False  # None is an answer too: no patch rack
        self.media_inputs: dict[str, dict[str, tuple]] = {}

    def stand(self, network: frozenset[str], records: list) -> bool:
        return (
            (self.network is network or self.network == network)
            and len(self.records) == len(records)
            and all(map(operator.is_, self.records, records))
        )


_FIGURES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# The figures last made, for a design with none yet that stands on the same records: the
# analysis worker's snapshot of a design shares its rack records (model.engine.snapshot), so
# the hubs the live design's plant refresh worked out after a rack move serve the snapshot's
# layout too (~14 ms of each zoned XL move's analysis, worked out again there).
_FIGURES_LAST: list[_RackFigures] = []


def _figures(design) -> _RackFigures:
    network, records = network_racks(design), list(design.racks.values())
    kept = _FIGURES.get(design)
    if kept is None or not kept.stand(network, records):
        last = _FIGURES_LAST[0] if _FIGURES_LAST else None
        if last is not None and last.stand(network, records):
            kept = _FIGURES[design] = last
        else:
            kept = _FIGURES[design] = _RackFigures(network, records)
            _FIGURES_LAST[:] = [kept]
    return kept


def zone_hubs(design) -> dict[str, str]:
    """Per rack: the rack of its zone's distribution point (see the module docstring). The
    dict is shared with later callers while the racks stand: not to be changed."""
    kept = _figures(design)
    if kept.hubs is None:
        kept.hubs = _zone_hubs(design, kept.network)
    return kept.hubs


def _zone_hubs(design, network: frozenset[str]) -> dict[str, str]:
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


RUN_GAP_M = 0.05  # racks whose footprints are this close stand in one run (no aisle between)


def overflow_racks(design) -> dict[str, tuple[str, ...]]:
    """Per rack of a run of racks that holds patch racks (catalog rack type of role
    ``patch``): those patch racks, nearest first (:func:`patch_way_m`, then name), where the
    rack's panels go when its own U is full (:class:`model.structured.paths.PanelPool`). A
    run is a row's racks standing side by side (:func:`~model.design.rack_rows.rack_rows`;
    a cross aisle ends it): a patch rack serves its neighbours, never racks across an aisle.
    Empty when the design has no patch rack."""
    patch = patch_racks(design)
    if not patch:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for run in _runs(design):
        here = [r for r in run if r.id in patch]
        if not here:
            continue
        for rack in run:
            if rack.id not in patch:
                out[rack.id] = tuple(
                    p.id for p in sorted(here, key=lambda p: (patch_way_m(rack, p), p.name))
                )
    return out


def patch_way_m(rack, patch) -> float:
    """The way (m) from a rack to a patch rack of its run that a cord to a panel there runs on
    for, and a trunk ending there is ordered longer by: centre to centre along the row
    (|dx| + |dy|; the two stand side by side, under one row tray)."""
    return abs(rack.x - patch.x) + abs(rack.y - patch.y)


def _runs(design) -> list[list]:
    """The racks of each row in runs of racks standing side by side, along the row."""
    out = []
    for _, racks in rack_rows(design):
        xs = [r.x for r in racks]
        ys = [r.y for r in racks]
        along_x = max(xs) - min(xs) >= max(ys) - min(ys)
        racks = sorted(racks, key=(lambda r: (r.x, r.y)) if along_x else (lambda r: (r.y, r.x)))
        run = [racks[0]]
        for prev, rack in zip(racks, racks[1:], strict=False):
            step = abs(rack.x - prev.x) if along_x else abs(rack.y - prev.y)
            if step > (rack.width_m + prev.width_m) / 2 + RUN_GAP_M:
                out.append(run)
                run = []
            run.append(rack)
        out.append(run)
    return out


def patch_reach_m(design, rack_index: dict[str, int]) -> np.ndarray | None:
    """Per rack (row number of ``rack_index``): the farthest :func:`patch_way_m` to the patch
    racks its panels may go to, for the network racks (the racks whose switches leave no U
    for their panels); 0 for the others. None when the design has no patch rack. What the
    media choice adds to a channel's cords and trunks at such a rack: the layout's way is at
    most this (it takes the nearest patch rack with a free port)."""
    reach = _patch_reach_by_rack(design)
    if reach is None:
        return None
    out = np.zeros(max(rack_index.values(), default=-1) + 1)
    for rack_id, way_m in reach.items():
        if rack_id in rack_index:
            out[rack_index[rack_id]] = way_m
    return out


def _patch_reach_by_rack(design) -> dict[str, float] | None:
    """:func:`patch_reach_m` by rack id, the network racks with patch racks in their run only."""
    kept = _figures(design)
    if not kept.reach_known:
        kept.reach, kept.reach_known = _reach_by_rack(design, kept.network), True
    return kept.reach


def _reach_by_rack(design, network: frozenset[str]) -> dict[str, float] | None:
    overflow = overflow_racks(design)
    if not overflow:
        return None
    racks = design.racks
    out = {}
    for rack_id in network:
        patch = overflow.get(rack_id)
        if patch:
            rack = racks[rack_id]
            out[rack_id] = max(patch_way_m(rack, racks[p]) for p in patch)
    return out


def media_inputs_by_rack(design) -> dict[str, tuple]:
    """Per rack, what the media choice reads for its links besides their own routes: its zone
    hub (zones) and its and its hub's :func:`patch_reach_m`. A rack edit can change these for
    racks it does not touch (a hub follows the rows and the network racks' centroid; a patch
    rack moved or removed changes its run's reach), so the plant compares them after each rack
    edit and chooses those racks' links again (#43). Empty when nothing of these applies. The
    dict is shared with later callers while the racks stand: not to be changed."""
    kept = _figures(design)
    style = design.settings.cabling
    if style in kept.media_inputs:
        return kept.media_inputs[style]
    reach = _patch_reach_by_rack(design) or {}
    out: dict[str, tuple]
    if style == "zones":
        out = {r: (h, reach.get(r, 0.0), reach.get(h, 0.0)) for r, h in zone_hubs(design).items()}
    else:
        out = {r: (None, way_m, 0.0) for r, way_m in reach.items()}
    kept.media_inputs[style] = out
    return out


def _hub_rows(design, rack_index: dict[str, int]) -> np.ndarray:
    """Per rack row: its zone's distribution rack's row (:func:`zone_hubs`)."""
    hub = np.arange(max(rack_index.values(), default=-1) + 1)
    for rack_id, hub_id in zone_hubs(design).items():
        if rack_id in rack_index and hub_id in rack_index:
            hub[rack_index[rack_id]] = rack_index[hub_id]
    return hub


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
        hub = _hub_rows(design, rack_index)
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


def links_via_devices(design, device_ids) -> set[str]:
    """Links routed by hand (``Link.via``) through any of ``device_ids``. Their patch points
    (:func:`via_patch_points`) count those devices while they exist as panels, so a device
    added, removed or given another type (a panel an LC enclosure no longer is) changes those
    links' channels, hence media, though the links themselves were not edited."""
    via = design.links_via_panels()
    edited = set(device_ids)
    if not via or not edited:
        return set()
    links = design.links
    return {link_id for link_id in via if not edited.isdisjoint(links[link_id].via)}


TRUNK_SERVICE_LOOP_M = 2.0  # LEVIATHAN: 2-3 m service loop per fibre trunk run (the low end)


@dataclass(frozen=True)
class ChannelPieces:
    """Per link, what the structured layout will lay for its channel before ordering: a cord at
    each end (vertical + slack per end, the panel in the device's rack), ``trunks`` trunk runs
    whose horizontal is ``trunk_m`` (route + slack % + a service loop each). The layout orders
    each piece at its next stock length, so a channel is longer than the routed link: a 45 m
    link became a 54 m channel at zoned XL (40.5 + 2 m of trunk ordered at 50 m, 2 cords of
    2 m), beyond the 50 m a 100G-lane multimode channel with panels reaches. The media choice
    checks the channel's length, not the link's. ``typed``: rows whose typed length (as-built,
    override) the layout makes the channel's own (:mod:`model.structured.cords`)."""

    cord_a_m: np.ndarray
    cord_b_m: np.ndarray
    trunk_m: np.ndarray
    trunks: np.ndarray
    typed: np.ndarray

    def trunk_unorderable(self, trunk_lengths: np.ndarray) -> np.ndarray:
        """Per link: whether its channel's trunk run is longer than any stock trunk of
        ``trunk_lengths`` (sorted, m): no medium of that mode can be laid for it from stock
        (XL with every network zoned: 119 OM4 trunks of 100.9 m, the catalog's longest 100 m,
        TRUNK_NOT_ORDERABLE, on channels whose 10/25G multimode optics reach further)."""
        if not len(trunk_lengths):
            return np.zeros(len(self.trunks), dtype=bool)
        return (self.trunks > 0) & (self.trunk_m > float(trunk_lengths[-1]) + 1e-9)

    def length_m(
        self, cord_lengths: np.ndarray, trunk_lengths: np.ndarray, link_m: np.ndarray
    ) -> np.ndarray:
        """The channel's length with cords and trunks at their next stock length
        (``cord_lengths``, ``trunk_lengths``: sorted, m); ``link_m`` where the link is direct or
        its length typed. A run past every stock length is left at its wanted length (the
        layout reports it as not orderable)."""
        cords = _stock(cord_lengths, self.cord_a_m) + _stock(cord_lengths, self.cord_b_m)
        # The first run orders the route; a run through a further zone panel adds at least a
        # service loop at the shortest stock length (its hop's distance is the layout's).
        first = _stock(trunk_lengths, self.trunk_m)
        loop = float(_stock(trunk_lengths, np.asarray([TRUNK_SERVICE_LOOP_M]))[0])
        channel = cords + first + np.maximum(self.trunks - 1, 0) * loop
        return np.where((self.trunks > 0) & ~self.typed, channel, link_m)


def _stock(lengths: np.ndarray, wanted_m: np.ndarray) -> np.ndarray:
    """Next stock length >= each wanted length; the wanted length when none is that long."""
    if not len(lengths):
        return wanted_m
    k = np.searchsorted(lengths, wanted_m - 1e-9)
    return np.where(k < len(lengths), lengths[np.minimum(k, len(lengths) - 1)], wanted_m)


def _longest_per_key(key: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per row, the largest of ``values`` over the rows of its ``key``. By a stable sort of the
    keys, which come in runs (a fabric's links are listed by rack pair: at zoned XL 393k links
    in 14k runs of 7k rack pairs), and a maximum per run of equal keys: ~5 ms, where
    ``np.unique`` with its inverse and ``np.maximum.at`` were ~25-30 ms."""
    out = np.empty(len(values))
    if not len(key):
        return out
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    largest = np.maximum.reduceat(values[order], starts)
    out[order] = np.repeat(largest, np.diff(np.append(starts, len(ordered))))
    return out


def channel_pieces(
    design,
    patch_points: np.ndarray,
    pair: tuple[np.ndarray, np.ndarray],
    vertical_m: tuple[np.ndarray, np.ndarray],
    horizontal_m: np.ndarray,
    typed: np.ndarray,
    rack_index: dict[str, int] | None = None,
) -> ChannelPieces:
    """:class:`ChannelPieces` of links with ``patch_points`` between racks ``pair`` (row
    numbers), their verticals and horizontal route (m, no slack). A trunk is ordered at the
    longest route of the legs it bundles, so each link's run is taken at the longest route
    between its two racks (of these rows)."""
    settings = design.settings
    rack_a, rack_b = pair
    lo, hi = np.minimum(rack_a, rack_b), np.maximum(rack_a, rack_b)
    key = lo * (int(hi.max(initial=0)) + 1) + hi
    longest_m = _longest_per_key(key, np.nan_to_num(horizontal_m))
    cord_a_m = vertical_m[0] + settings.slack_per_end_m
    cord_b_m = vertical_m[1] + settings.slack_per_end_m
    reach = patch_reach_m(design, rack_index) if rack_index is not None else None
    if reach is not None and rack_index is not None:
        # Panels in a patch rack: the cord runs on to it, and the trunks ending there (into
        # and out of a zone's distribution rack in mid-path) are ordered that way longer.
        cord_a_m = cord_a_m + reach[rack_a]
        cord_b_m = cord_b_m + reach[rack_b]
        longest_m = longest_m + reach[rack_a] + reach[rack_b]
        if design.settings.cabling == "zones":
            hub = _hub_rows(design, rack_index)
            ha, hb = hub[rack_a], hub[rack_b]
            apart = ha != hb
            longest_m = longest_m + 2 * np.where(apart & (ha != rack_a), reach[ha], 0.0)
            longest_m = longest_m + 2 * np.where(apart & (hb != rack_b), reach[hb], 0.0)
    run_m = longest_m * (1 + settings.slack_pct / 100) + TRUNK_SERVICE_LOOP_M
    trunks = np.maximum(patch_points - 1, 0)
    return ChannelPieces(cord_a_m, cord_b_m, run_m, trunks, typed)
