"""Patch points of a structured channel: which racks' panels a link passes, by style or by hand.

A link's *path* is the list of racks whose panels its channel passes, A end to B end:

* ``Link.via`` set (the editor's "route via panels"): the racks of those panel devices, and those
  very panels;
* ``cross-connect``: the rack of each end (a panel at the top of each rack, one trunk between);
* ``zones`` (TIA-942): every rack belongs to a zone whose distribution rack (HDA) is the nearest
  network rack of its row (a rack with switches and no GPU server: a scalable unit's leaf rack);
  a row without network gear is one zone whose HDA is a panel rack at the row's end nearest
  the network racks. Network racks are their own distribution point (the MDA's backbone runs
  rack panel to rack panel). A channel passes its own rack panel, its zone's HDA panel when
  that is neither end (an interconnect: trunk to trunk through one MPO adapter), the far
  zone's HDA panel likewise, and the far rack panel. Choice, written down: the HDA is an
  interconnect, not a cross-connect; a channel through a row-end HDA has three patch points,
  more than NV-STRUCT's two for 100G-lane multimode, so the media choice gives it single-mode
  optics, which have no panel rule (:mod:`model.engine.patch_points` counts the same points for
  it); a medium pinned by hand is kept and the analysis flags it (CHANNEL_TOO_MANY_PANELS).
  A server to its zone's leaf rack is two patch points, as cross-connect.

Lengths between racks that are not the link's own two racks (a trunk to an HDA) are the tray
distance between the racks' centres (the measure tool's, :meth:`RoutedLinks.tray_distance`),
or the Manhattan distance when no tray joins them; memoised per rack pair for one layout.
"""

from __future__ import annotations

import math
from operator import itemgetter

from model.design.structured_edit import panel_types
from model.engine.patch_points import (
    network_racks,
    overflow_racks,
    patch_way_m,
    style_path,
    zone_hubs,
)

_PORTS_LEFT = itemgetter(1)  # a free slot's ports (or slots) left: [panel id, left]

__all__ = [
    "PanelPool",
    "RackDistances",
    "overflow_racks",
    "patch_way_m",
    "network_racks",
    "panel_face",
    "style_path",
    "zone_hubs",
]


class RackDistances:
    """Horizontal trunk length between two racks (m, without slack), memoised.

    A pair is kept by the racks' ids and positions, so one instance can serve several layouts
    of a hall being cabled (:class:`model.generators.cabling_session.CablingSession`): a rack
    moved is searched again, and :meth:`follow` forgets everything when the tray graph's inputs
    change; :meth:`use` takes a plant built afresh over the same trays (its searches start over,
    the pairs stand: a pair's distance depends only on the two positions and the tray graph)."""

    def __init__(self, plant) -> None:
        self.plant = plant
        self._memo: dict[tuple, float] = {}
        # The tray searches from each source node, shared by the pairs: a zoned XL hall asks
        # 224 rack pairs, 448 searches from 128 nodes (~70 % of them repeats).
        self._searches: dict[int, list[float]] = {}
        self._graph_key: tuple | None = None

    def follow(self, graph_key: tuple) -> None:
        """Forget every distance when the tray graph's inputs are no longer ``graph_key``'s."""
        if graph_key != self._graph_key:
            self._memo.clear()
            self._searches.clear()
            self._graph_key = graph_key

    def use(self, plant) -> None:
        """Search ``plant`` from now on (built afresh over the same tray graph)."""
        self.plant = plant
        self._searches.clear()

    def __call__(self, rack_a: str, rack_b: str) -> float:
        if rack_a == rack_b:
            return 0.0
        racks = self.plant.design.racks
        a, b = (racks[rack_a], racks[rack_b]) if rack_a < rack_b else (racks[rack_b], racks[rack_a])
        key = (a.id, b.id, a.x, a.y, b.x, b.y)
        got = self._memo.get(key)
        if got is None:
            got = self.plant.tray_distance((a.x, a.y), (b.x, b.y), self._searches)
            if got is None:
                got = abs(a.x - b.x) + abs(a.y - b.y)
            self._memo[key] = got
        return got


def panel_face(design, panel_id: str) -> str:
    """The face a panel's trunk leaves its rack by: the placed panel's port face, else the
    front (a virtual panel; generated panels are front-facing)."""
    device = design.devices.get(panel_id)
    dtype = design.catalog.device_types.get(device.type) if device is not None else None
    return getattr(dtype, "ports_face", "front") if dtype is not None else "front"


class PanelPool:
    """Free ports of the placed panels, filled in order; what does not fit is *virtual*.

    Each rack's placed panels of a type are used top first, one port (an MPO adapter) or one
    slot (a cassette in an enclosure) at a time. When they are full, or a rack has none, the
    port goes to a panel of a patch rack of its row, nearest first (:func:`overflow_racks`:
    the network racks' panels that their switches leave no U for), then to a virtual panel
    ``{prefix}-{rack}`` that the BOM still orders and a finding reports (the rack's U then
    does not include it). ``home``: per patch-rack panel taken for another rack, its patch
    rack, so the cords and trunks that reach it add the way between the two racks.
    """

    def __init__(self, design, capacity: dict[str, int]) -> None:
        types = panel_types(design)
        self.capacity = capacity  # panel type -> ports (MPO panel) or slots (enclosure)
        self.free: dict[tuple[str, str], list[list]] = {}
        # The panels picked out first, then sorted (the same order: the key is unique by id):
        # a zoned XL hall has ~14k panels among 35k devices.
        pooled = [d for d in design.devices.values() if d.type in types and d.type in capacity]
        for device in sorted(pooled, key=lambda d: (d.rack, -d.u, d.id)):
            self.free.setdefault((device.rack, device.type), []).append(
                [device.id, capacity[device.type]]
            )
        self.virtual: dict[tuple[str, str], int] = {}  # (rack, type) -> ports/slots used
        self.used: dict[str, int] = {}  # placed panel id -> ports/slots used
        self.overflow = overflow_racks(design)
        self.home: dict[str, str] = {}
        self._slot_of: dict[str, list] | None = None  # placed panel id -> its free slot

    def take(self, key: tuple[str, str]) -> str:
        """A panel of ``key`` = (rack, panel type) with a free port, which it takes: a placed
        panel's id (the rack's own, else a patch rack's of its row), else the rack's virtual
        one. The layout takes one per patch point of every leg (~800k at zoned XL), the key
        made once per path."""
        slots = self.free.get(key)
        if slots:  # the rack's own panels, inline: the path nearly every port takes
            while slots and slots[0][1] == 0:
                del slots[0]
            if slots:
                slot = slots[0]
                slot[1] -= 1
                self.used[slot[0]] = self.used.get(slot[0], 0) + 1
                return slot[0]
        for patch_rack in self.overflow.get(key[0], ()):
            got = self._take_from(self.free.get((patch_rack, key[1])))
            if got is not None:
                self.home[got] = patch_rack
                return got
        self.virtual[key] = self.virtual.get(key, 0) + 1
        return virtual_panel_id(*key)

    def reserve(self, panel_id: str, count: int) -> None:
        """Keep ``count`` ports of the placed panel ``panel_id`` (named by hand) from
        :meth:`take`; :meth:`use` still counts them as they are laid."""
        if self._slot_of is None:  # made at the first reservation: most designs name none
            self._slot_of = {slot[0]: slot for slots in self.free.values() for slot in slots}
        slot = self._slot_of.get(panel_id)
        if slot is not None:
            slot[1] = max(0, slot[1] - count)

    def free_ports(self, key: tuple[str, str]) -> int:
        """Ports (or slots) left on the rack's own placed panels of ``key``'s type."""
        return sum(map(_PORTS_LEFT, self.free.get(key, ())))  # summed in C: once per path

    def take_runs(self, key: tuple[str, str], count: int) -> list[tuple[str, int]]:
        """The panels of ``count`` takes of ``key`` one after the other, as :meth:`take` gives
        them, in runs of (panel id, takes): a run of each of the rack's own panels for the
        ports it has left, then of its patch racks' panels, then its virtual panel. A path's
        legs take their rack's ports in a row, so a zoned XL hall's 800k takes are a few
        thousand runs here."""
        out: list[tuple[str, int]] = []
        taken = self._runs_from(self.free.get(key), count, out)
        # The rack's own panels are full: its patch racks' panels in their order, as take()
        # goes from one to the next; what is left, its virtual panel.
        for patch_rack in self.overflow.get(key[0], ()) if taken < count else ():
            first = len(out)
            taken += self._runs_from(self.free.get((patch_rack, key[1])), count - taken, out)
            for holder, _ in out[first:]:
                self.home[holder] = patch_rack
        if taken < count:
            self.virtual[key] = self.virtual.get(key, 0) + count - taken
            out.append((virtual_panel_id(*key), count - taken))
        return out

    def _runs_from(self, slots: list[list] | None, count: int, out: list) -> int:
        """Up to ``count`` ports of the panels ``slots`` in order, as runs onto ``out``;
        returns the ports taken."""
        taken = 0
        while slots and taken < count:
            slot = slots[0]
            if slot[1] == 0:
                del slots[0]
                continue
            n = min(slot[1], count - taken)
            out.append((slot[0], n))
            taken += n
            slot[1] -= n
            self.used[slot[0]] = self.used.get(slot[0], 0) + n
        return taken

    def _take_from(self, slots: list[list] | None) -> str | None:
        if not slots:
            return None
        # Panels with no port left are dropped from the front: a network rack's dozens of
        # panels were otherwise scanned again for each of its thousands of ports.
        while slots and slots[0][1] == 0:
            del slots[0]
        if not slots:
            return None
        slot = slots[0]
        slot[1] -= 1
        self.used[slot[0]] = self.used.get(slot[0], 0) + 1
        return slot[0]

    def use(self, panel_id: str, count: int = 1) -> int:
        """Use ``count`` ports of a named (via) panel; returns the ports now used."""
        self.used[panel_id] = self.used.get(panel_id, 0) + count
        return self.used[panel_id]

    def virtual_panels(self) -> dict[tuple[str, str], int]:
        """(rack, panel type) -> how many virtual panels the overflow needs."""
        return {key: math.ceil(used / self.capacity[key[1]]) for key, used in self.virtual.items()}


def virtual_panel_id(rack_id: str, type_id: str) -> str:
    return f"panel-{rack_id}" if type_id.startswith("panel-") else f"enclosure-{rack_id}"
