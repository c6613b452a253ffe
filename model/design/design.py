"""The Design: a hall with its trays, racks, devices and links, and the edit API that changes it.

Every change to a design goes through the methods of :class:`Design`. They validate first and
change nothing when they refuse (raising :class:`DesignError` with a sentence naming the
object), then apply the change and notify listeners with one :class:`~model.design.changes.Change` per edit
naming every id it touched (see :mod:`model.design.changes`), so that views, the geometry cache and the
analysis can update incrementally. Rack overlaps,
racks outside the hall and over-budget racks are allowed: the analysis reports them as warnings.

The edit API refuses whatever the file loader refuses, so the editor can never write a file it
cannot open: every record must fit the file's ranges (``model.design.record_checks``: finite numbers
within the limits of the entity types), and rack names are unique ignoring case and
surrounding spaces, and not blank (a choice: an installer reads "a01" and "A01" as one rack).
The ``add_*`` methods take ``fields_checked=True`` only from the loader, whose decoder has
just enforced those very ranges (checking 400k links twice would double the load time).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager

import msgspec

from model.catalog.components import Catalog, CatalogFile, builtin_catalog
from model.catalog.ports import port_table
from model.design.annotation_edits import AnnotationEdits
from model.design.changes import DEVICE_KINDS, ChangeKind, ChangeNotifier, Listener, Subscription
from model.design.entities import (
    Cooling,
    Device,
    Hall,
    Link,
    Obstacle,
    Point,
    Power,
    Rack,
    Settings,
    Tray,
)
from model.design.hall_checks import hall_problem, trays_problem
from model.design.limits import MAX_NAME_LENGTH
from model.design.links import LinkEdits
from model.design.panel_names import follow_rack_names, moved_name
from model.design.power_checks import power_problem
from model.design.queries import DesignQueries
from model.design.records import (
    DesignError,
    Removed,
    check_polyline,
    fit_fields,
    merge_removed,
    one_change,
    placement,
)

# Re-exported: the design's error and removal record are read from here everywhere.
__all__ = ["Design", "DesignError", "Removed"]


class Design(DesignQueries, LinkEdits, AnnotationEdits):
    """A data hall design. Read the public dicts freely; change them only through methods."""

    def __init__(
        self,
        hall: Hall,
        *,
        name: str = "Untitled hall",
        settings: Settings | None = None,
        custom_types: CatalogFile | None = None,
        base_catalog: Catalog | None = None,
    ) -> None:
        self.name = name
        self.hall = hall
        self.settings = settings or Settings()
        self.trays: dict[str, Tray] = {}
        self.racks: dict[str, Rack] = {}
        self.devices: dict[str, Device] = {}
        self.links: dict[str, Link] = {}
        self._base_catalog = base_catalog or builtin_catalog()
        self.custom_types = custom_types or CatalogFile()
        self.catalog = self._base_catalog.extended(self.custom_types)
        self._rack_devices: dict[str, set[str]] = {}
        # Lookup tables of the links; None = not built yet (a loaded file builds them on first
        # use: most commands never ask), so read them through _device_table / _port_table.
        self._device_links: dict[str, set[str]] | None = {}
        self._port_links: dict[tuple[str, str], str] | None = {}
        self._via_links: set[str] = set()  # links routed through panels (Link.via non-empty)
        # What the generator that made this design had to decide for the user (a sentence each;
        # shown after generating, never saved: a file read back has none).
        self.generation_notes: list[str] = []
        self._changes = ChangeNotifier()
        self._id_counters: dict[str, int] = {}
        self.revision = 0  # bumped by every edit; caches compare it
        # Counts the edits of devices (every kind in DEVICE_KINDS) and, unlike ``revision``, is
        # never reset (a load or a generator sets revision back to 0): what caches of figures
        # that only devices change compare (gpu_count), so a rack move or a link edit keeps them.
        self._device_edits = 0
        self._gpu_total: tuple[int, int] | None = None  # (device edits, GPUs): see gpu_count
        # The loader's integer codes of the link ends (model.design.bulk_load.LoadedLinkCodes), for
        # the cable plant; dropped by the first edit.
        self._loaded_codes = None

    # ----------------------------------------------------------------------------- listeners

    def subscribe(self, listener: Listener) -> Subscription:
        """Call ``listener(change)`` after every edit; close the returned handle to stop."""
        return self._changes.subscribe(listener)

    def batch(self) -> AbstractContextManager[None]:
        """Gather the edit-API calls made inside into one Change (one user edit, one event)."""
        return self._changes.batch()

    def _emit(self, kind: ChangeKind, ids: Iterable[str] = ()) -> None:
        self.revision += 1
        if kind in DEVICE_KINDS:
            self._device_edits += 1
        self._loaded_codes = None
        self._changes.record(kind, ids)

    # ----------------------------------------------------------------------------- name, hall, settings

    def set_name(self, name: str) -> None:
        if not isinstance(name, str):
            raise DesignError(f"a design's name must be text, not {name!r}")
        if len(name) > MAX_NAME_LENGTH:
            raise DesignError(f"a design's name has at most {MAX_NAME_LENGTH} characters")
        if name != self.name:
            self.name = name
            self._emit(ChangeKind.NAME_CHANGED)

    def set_hall(self, hall: Hall) -> None:
        (hall,) = fit_fields([hall], "the hall")
        ids = [o.id for o in hall.obstacles]
        if len(set(ids)) != len(ids):
            raise DesignError("two obstacles share one id")
        clash = [
            i
            for i in ids
            if i in self.racks or i in self.devices or i in self.links or i in self.trays
        ]
        if clash:
            raise DesignError(f"obstacle id {clash[0]!r} is already used by another object")
        if len(hall.outline) < 3:
            raise DesignError("the hall outline needs at least 3 corners")
        problem = hall_problem(hall) or power_problem(hall)  # the loader refuses these too
        if problem:
            raise DesignError(problem)
        if hall != self.hall:
            self.hall = hall
            self._emit(ChangeKind.HALL_CHANGED)

    def set_power(self, power: Power) -> None:
        """Replace the hall's power distribution (feeds, panels, redundancy): one hall edit,
        checked as the loader checks it (model.design.power_checks)."""
        if not isinstance(power, Power):
            raise DesignError(f"a hall's power distribution must be a Power record, not {power!r}")
        self.set_hall(msgspec.structs.replace(self.hall, power=power))

    def set_rack_pdus(self, pdus: Mapping[str, Iterable[str]]) -> None:
        """Set which power panels each rack's PDUs plug into (rack id -> panel ids, one per
        PDU). Refuses an unknown rack or panel, and changes nothing when it refuses."""
        panels = {p.id for p in self.hall.power.panels}
        racks = []
        for rack_id, panel_ids in pdus.items():
            if rack_id not in self.racks:
                raise DesignError(f"no rack has the id {rack_id!r}")
            ids = tuple(panel_ids)
            unknown = [p for p in ids if p not in panels]
            if unknown:
                raise DesignError(f"no power panel of the hall has the id {unknown[0]!r}")
            racks.append(msgspec.structs.replace(self.racks[rack_id], pdus=ids))
        self.update_racks(racks)

    def set_cooling(self, cooling: Cooling) -> None:
        """Replace the hall's cooling units (CDUs, CRAHs, redundancy): one hall edit, checked
        as the loader checks it (model.design.power_checks)."""
        if not isinstance(cooling, Cooling):
            raise DesignError(f"a hall's cooling must be a Cooling record, not {cooling!r}")
        self.set_hall(msgspec.structs.replace(self.hall, cooling=cooling))

    def set_rack_cooling(self, cooling: Mapping[str, Iterable[str]]) -> None:
        """Set which cooling units (CDU and CRAH ids) serve each rack (rack id -> unit ids).
        Refuses an unknown rack or unit, and changes nothing when it refuses."""
        units = {c.id for c in self.hall.cooling.cdus} | {c.id for c in self.hall.cooling.crahs}
        racks = []
        for rack_id, unit_ids in cooling.items():
            if rack_id not in self.racks:
                raise DesignError(f"no rack has the id {rack_id!r}")
            ids = tuple(unit_ids)
            unknown = [u for u in ids if u not in units]
            if unknown:
                raise DesignError(f"no cooling unit of the hall has the id {unknown[0]!r}")
            racks.append(msgspec.structs.replace(self.racks[rack_id], cooling=ids))
        self.update_racks(racks)

    def set_settings(self, settings: Settings) -> None:
        (settings,) = fit_fields([settings], "the design settings")
        if settings != self.settings:
            self.settings = settings
            self._emit(ChangeKind.SETTINGS_CHANGED)

    # ----------------------------------------------------------------------------- trays

    def add_trays(self, trays: Iterable[Tray], *, fields_checked: bool = False) -> None:
        trays = list(trays)
        if not fields_checked:
            trays = fit_fields(trays, "tray")
        self._check_new_ids(t.id for t in trays)
        for tray in trays:
            check_polyline(tray)
        problem = trays_problem(trays, [*self.trays.values(), *trays])
        if problem:
            raise DesignError(problem)
        for tray in trays:
            self.trays[tray.id] = tray
        self._emit(ChangeKind.TRAYS_ADDED, (t.id for t in trays))

    def update_trays(self, trays: Iterable[Tray]) -> None:
        trays = list(trays)
        trays = fit_fields(trays, "tray")
        for tray in trays:
            if tray.id not in self.trays:
                raise DesignError(f"no tray {tray.id!r}")
            check_polyline(tray)
        changed = {t.id: t for t in trays}
        problem = trays_problem(trays, [changed.get(i, t) for i, t in self.trays.items()])
        if problem:
            raise DesignError(problem)
        for tray in trays:
            self.trays[tray.id] = tray
        self._emit(ChangeKind.TRAYS_CHANGED, (t.id for t in trays))

    def remove_trays(self, ids: Iterable[str]) -> Removed:
        ids = list(dict.fromkeys(ids))
        for tray_id in ids:
            if tray_id not in self.trays:
                raise DesignError(f"no tray {tray_id!r}")
        removed = Removed(trays=[self.trays.pop(t) for t in ids])
        self._emit(ChangeKind.TRAYS_REMOVED, ids)
        return removed

    # ----------------------------------------------------------------------------- geometry edits
    # A corner dragged, inserted or deleted, a tray or obstacle moved: each one edit through
    # update_trays / set_hall, so the same checks as the loader's apply (hall_checks).

    def set_tray_points(self, tray_id: str, points: Iterable[Point]) -> None:
        """Reshape one tray: its whole polyline, (x, y) metres."""
        tray = self.trays.get(tray_id)
        if tray is None:
            raise DesignError(f"no tray {tray_id!r}")
        new = msgspec.structs.replace(
            tray, points=_points(points, f"tray {tray.name or tray_id!r}")
        )
        if new != tray:
            self.update_trays([new])

    def move_trays(self, ids: Iterable[str], dx_m: float, dy_m: float) -> None:
        """Shift whole trays by (dx, dy) metres (each point rounded to the micrometre)."""
        ids = list(dict.fromkeys(ids))
        self._require(self.trays, ids, "tray")
        moved = [
            msgspec.structs.replace(
                self.trays[t], points=_shifted(self.trays[t].points, dx_m, dy_m)
            )
            for t in ids
        ]
        if dx_m or dy_m:
            self.update_trays(moved)

    @one_change
    def split_tray(self, tray_id: str, corner: int, new_id: str) -> None:
        """Cut a tray in two at an inner corner: the tray keeps the part up to that corner and
        ``new_id`` (same width, depth and elevation) takes the rest from it."""
        tray = self.trays.get(tray_id)
        if tray is None:
            raise DesignError(f"no tray {tray_id!r}")
        if not 0 < corner < len(tray.points) - 1:
            raise DesignError(
                f"tray {tray.name or tray_id!r}: split at an inner corner, not an end"
            )
        rest = msgspec.structs.replace(tray, id=new_id, points=tray.points[corner:])
        self.update_trays([msgspec.structs.replace(tray, points=tray.points[: corner + 1])])
        self.add_trays([rest])

    @one_change
    def join_trays(self, keep_id: str, other_id: str) -> None:
        """Make one tray of two whose ends meet (within the design's tray join tolerance): the
        first keeps its id, width, depth and elevation and takes the other's run."""
        self._require(self.trays, [keep_id, other_id], "tray")
        if keep_id == other_id:
            raise DesignError("join two different trays")
        keep, other = self.trays[keep_id], self.trays[other_id]
        if keep.under_floor != other.under_floor:
            raise DesignError("a tray under the floor cannot join an overhead one")
        reach_m = self.settings.tray_join_tolerance_m
        a, b = list(keep.points), list(other.points)
        # The four ways two polylines can meet end to end, the closest pair first.
        ways = [(a, b), (a, b[::-1]), (a[::-1], b), (a[::-1], b[::-1])]
        first, second = min(ways, key=lambda w: math.dist(w[0][-1], w[1][0]))
        gap_m = math.dist(first[-1], second[0])
        if gap_m > reach_m:
            raise DesignError(
                f"trays {keep.name or keep_id!r} and {other.name or other_id!r} do not meet "
                f"(their nearest ends are {gap_m:.2f} m apart; the join tolerance is "
                f"{reach_m:g} m)"
            )
        self.remove_trays([other_id])
        self.update_trays([msgspec.structs.replace(keep, points=first + second[1:])])

    def set_outline(self, points: Iterable[Point]) -> None:
        """Reshape the hall outline (its corners in order, not closed)."""
        self.set_hall(msgspec.structs.replace(self.hall, outline=_points(points, "the outline")))

    def set_obstacles(self, obstacles: Iterable[Obstacle]) -> None:
        """Replace the hall's obstacles (drawn, edited, moved or deleted) in this order."""
        self.set_hall(msgspec.structs.replace(self.hall, obstacles=list(obstacles)))

    def move_obstacles(self, ids: Iterable[str], dx_m: float, dy_m: float) -> None:
        """Shift obstacles by (dx, dy) metres."""
        wanted = set(ids)
        known = {o.id for o in self.hall.obstacles}
        missing = sorted(wanted - known)
        if missing:
            raise DesignError(f"no obstacle {missing[0]!r}")
        self.set_obstacles(
            msgspec.structs.replace(o, polygon=_shifted(o.polygon, dx_m, dy_m))
            if o.id in wanted
            else o
            for o in self.hall.obstacles
        )

    # ----------------------------------------------------------------------------- racks

    def add_racks(self, racks: Iterable[Rack], *, fields_checked: bool = False) -> None:
        racks = list(racks)
        if not fields_checked:
            racks = fit_fields(racks, "rack")
        self._check_new_ids(r.id for r in racks)
        for rack in racks:
            if rack.type not in self.catalog.rack_types:
                raise DesignError(f"rack {rack.name or rack.id!r}: unknown rack type {rack.type!r}")
        self._check_rack_names(racks)
        for rack in racks:
            self.racks[rack.id] = rack
            self._rack_devices.setdefault(rack.id, set())
        self._emit(ChangeKind.RACKS_ADDED, (r.id for r in racks))

    def move_racks(self, positions: Mapping[str, tuple[float, float]]) -> None:
        """Move racks to new centre positions (metres)."""
        self._require(self.racks, positions, "rack")
        new: dict[str, Rack] = {}
        for rack_id, place in positions.items():
            rack = self.racks[rack_id]
            try:
                x, y = (float(v) for v in place)
            except (TypeError, ValueError):
                raise DesignError(
                    f"rack {rack.name!r}: a position is two numbers, not {place!r}"
                ) from None
            if (rack.x, rack.y) != (x, y):
                new[rack_id] = msgspec.structs.replace(rack, x=x, y=y)
        new = dict(zip(new, fit_fields(new.values(), "rack"), strict=True))
        self.racks.update(new)
        moved = list(new)
        if moved:
            self._emit(ChangeKind.RACKS_MOVED, moved)

    def rotate_racks(self, rotations: Mapping[str, int]) -> None:
        self._require(self.racks, rotations, "rack")
        for rack_id, rotation in rotations.items():
            if rotation not in (0, 90, 180, 270):
                raise DesignError(
                    f"rack {rack_id!r}: rotation must be 0, 90, 180 or 270, not {rotation}"
                )
        new = {
            rack_id: msgspec.structs.replace(self.racks[rack_id], rotation=rotation)
            for rack_id, rotation in rotations.items()
            if self.racks[rack_id].rotation != rotation
        }
        new = dict(zip(new, fit_fields(new.values(), "rack"), strict=True))
        self.racks.update(new)
        turned = list(new)
        if turned:
            self._emit(ChangeKind.RACKS_MOVED, turned)

    @one_change
    def update_racks(self, racks: Iterable[Rack]) -> None:
        """Replace rack records (name, type, size, budget, position) keeping their ids."""
        racks = list(racks)
        for rack in racks:
            if rack.id not in self.racks:
                raise DesignError(f"no rack {rack.id!r}")
            if rack.type not in self.catalog.rack_types:
                raise DesignError(f"rack {rack.name or rack.id!r}: unknown rack type {rack.type!r}")
        racks = fit_fields(racks, "rack")
        self._check_rack_names(racks)
        moved = [r.id for r in racks if placement(r) != placement(self.racks[r.id])]
        renamed = {
            r.id: (self.racks[r.id].name, r.name) for r in racks if r.name != self.racks[r.id].name
        }
        for rack in racks:
            self.racks[rack.id] = rack
        self._emit(ChangeKind.RACKS_CHANGED, (r.id for r in racks))
        if moved:
            self._emit(ChangeKind.RACKS_MOVED, moved)
        if renamed:  # panels named by their rack (C01-U42) take its new name, in this edit
            devices = (self.devices[d] for r in renamed for d in self._rack_devices.get(r, ()))
            panels = follow_rack_names(devices, renamed)
            # Only the names change (cut to the name limit by panel_name): nothing for
            # update_devices to check, whose port and U checks took ~40 ms for 600 panels.
            for panel in panels:
                self.devices[panel.id] = panel
            if panels:
                self._emit(ChangeKind.DEVICES_CHANGED, (p.id for p in panels))

    @one_change
    def remove_racks(self, ids: Iterable[str]) -> Removed:
        """Remove racks with their devices and those devices' links."""
        ids = list(dict.fromkeys(ids))
        self._require(self.racks, ids, "rack")
        device_ids = [d for r in ids for d in sorted(self._rack_devices.get(r, ()))]
        removed = self.remove_devices(device_ids) if device_ids else Removed()
        removed.racks = [self.racks.pop(r) for r in ids]
        for rack_id in ids:
            self._rack_devices.pop(rack_id, None)
        self._emit(ChangeKind.RACKS_REMOVED, ids)
        return removed

    # ----------------------------------------------------------------------------- devices

    def add_devices(self, devices: Iterable[Device], *, fields_checked: bool = False) -> None:
        devices = list(devices)
        if not fields_checked:
            devices = fit_fields(devices, "device")
        self._check_new_ids(d.id for d in devices)
        occupied = {
            rack_id: self._occupied_u(rack_id)
            for rack_id in {d.rack for d in devices}
            if rack_id in self.racks
        }
        for device in devices:
            dtype = self._check_device(device)
            slots = occupied[device.rack]
            span = range(device.u, device.u + dtype.u_height)
            clash = next((slots[u] for u in span if u in slots), None)
            if clash is not None:
                raise DesignError(
                    f"device {device.name or device.id!r} at U{device.u} of rack "
                    f"{self.racks[device.rack].name!r} collides with {clash!r}"
                )
            for u in span:
                slots[u] = device.name or device.id
        for device in devices:
            self.devices[device.id] = device
            self._rack_devices[device.rack].add(device.id)
        self._emit(ChangeKind.DEVICES_ADDED, (d.id for d in devices))

    @one_change
    def move_devices(self, places: Mapping[str, tuple[str, int]]) -> None:
        """Move devices to (rack id, U position); a panel named by its place (``C01-U42``,
        :mod:`model.design.panel_names`) is named by its new one."""
        self._require(self.devices, places, "device")
        moving = set(places)
        renamed: list[str] = []  # panels named by their place (C01-U42) follow it
        occupied: dict[str, dict[int, str]] = {}
        new: dict[str, Device] = {}
        for device_id, (rack_id, u) in places.items():
            if rack_id not in self.racks:
                raise DesignError(f"no rack {rack_id!r} to move device {device_id!r} into")
            old = self.devices[device_id]
            name = moved_name(old, self.racks[old.rack].name, self.racks[rack_id].name, u)
            (device,) = fit_fields(
                [msgspec.structs.replace(old, rack=rack_id, u=u, name=name)], "device"
            )
            if name != old.name:
                renamed.append(device_id)
            new[device_id] = device
            slots = occupied.setdefault(rack_id, self._occupied_u(rack_id, exclude=moving))
            height = self.device_type(device_id).u_height
            for slot in range(device.u, device.u + height):
                if slot in slots:
                    raise DesignError(
                        f"device {old.name!r} at U{device.u} of rack "
                        f"{self.racks[rack_id].name!r} collides with {slots[slot]!r}"
                    )
                slots[slot] = old.name
        for device_id, device in new.items():
            self._rack_devices[self.devices[device_id].rack].discard(device_id)
            self.devices[device_id] = device
            self._rack_devices[device.rack].add(device_id)
        self._emit(ChangeKind.DEVICES_MOVED, places.keys())
        if renamed:
            self._emit(ChangeKind.DEVICES_CHANGED, renamed)

    def update_devices(self, devices: Iterable[Device]) -> None:
        """Replace device records (name, type, role, breakout); rack and U must not change here."""
        devices = list(devices)
        devices = fit_fields(devices, "device")
        for device in devices:
            old = self.devices.get(device.id)
            if old is None:
                raise DesignError(f"no device {device.id!r}")
            if (old.rack, old.u) != (device.rack, device.u):
                raise DesignError("use move_devices to change a device's rack or U position")
            dtype = self._check_device(device)
            others = self._occupied_u(device.rack, exclude={device.id})
            for slot in range(device.u, device.u + dtype.u_height):
                if slot in others:
                    raise DesignError(f"device {device.name!r} would collide with {others[slot]!r}")
            ports = port_table(dtype, device.breakout)
            for link_id in self._device_table().get(device.id, ()):
                link = self.links[link_id]
                for end in (link.a, link.b):
                    if end.device == device.id and end.port not in ports:
                        raise DesignError(
                            f"device {device.name!r}: port {end.port!r} used by link "
                            f"{link_id!r} would no longer exist"
                        )
        for device in devices:
            self.devices[device.id] = device
        self._emit(ChangeKind.DEVICES_CHANGED, (d.id for d in devices))

    @one_change
    def remove_devices(self, ids: Iterable[str]) -> Removed:
        """Remove devices and their links."""
        ids = list(dict.fromkeys(ids))
        self._require(self.devices, ids, "device")
        device_links = self._device_table()
        link_ids = sorted({link for d in ids for link in device_links.get(d, ())})
        removed = self.remove_links(link_ids) if link_ids else Removed()
        removed.devices = [self.devices.pop(d) for d in ids]
        for device in removed.devices:
            self._rack_devices.get(device.rack, set()).discard(device.id)
            device_links.pop(device.id, None)
        self._emit(ChangeKind.DEVICES_REMOVED, ids)
        return removed

    # ----------------------------------------------------------------------------- undo support

    @one_change
    def restore(self, removed: Removed) -> None:
        """Put back what a removal took out (in dependency order)."""
        if removed.trays:
            self.add_trays(removed.trays)
        if removed.racks:
            self.add_racks(removed.racks)
        if removed.devices:
            self.add_devices(removed.devices)
        if removed.links:
            self.add_links(removed.links)

    @one_change
    def delete(self, ids: Iterable[str]) -> Removed:
        """Remove any mix of trays, racks, devices and links (cascading), as one removal."""
        ids = list(dict.fromkeys(ids))
        unknown = [
            i
            for i in ids
            if not (i in self.trays or i in self.racks or i in self.devices or i in self.links)
        ]
        if unknown:
            raise DesignError(f"nothing with id {unknown[0]!r} to delete")
        out = Removed()
        racks = [i for i in ids if i in self.racks]
        rack_set = set(racks)
        devices = [i for i in ids if i in self.devices and self.devices[i].rack not in rack_set]
        if racks:
            out = merge_removed(out, self.remove_racks(racks))
        if devices:
            out = merge_removed(out, self.remove_devices(devices))
        links = [i for i in ids if i in self.links]
        if links:
            out = merge_removed(out, self.remove_links(links))
        trays = [i for i in ids if i in self.trays]
        if trays:
            out = merge_removed(out, self.remove_trays(trays))
        return out


def _points(points: Iterable[Point], what: str) -> list[Point]:
    try:
        return [(float(x), float(y)) for x, y in points]
    except (TypeError, ValueError):
        raise DesignError(f"{what}: every corner is two numbers") from None


def _shifted(points: Iterable[Point], dx_m: float, dy_m: float) -> list[Point]:
    return [(round(x + dx_m, 6), round(y + dy_m, 6)) for x, y in points]
