"""The Design: a hall with its trays, racks, devices and links, and the edit API that changes it.

Every change to a design goes through the methods of :class:`Design`. They validate first and
change nothing when they refuse (raising :class:`DesignError` with a sentence naming the
object), then apply the change and notify listeners with one :class:`~model.changes.Change` per edit
naming every id it touched (see :mod:`model.changes`), so that views, the geometry cache and the
analysis can update incrementally. Rack overlaps,
racks outside the hall and over-budget racks are allowed: the analysis reports them as warnings.

The edit API refuses whatever the file loader refuses, so the editor can never write a file it
cannot open: every record must fit the file's ranges (``model.record_checks``: finite numbers
within the limits of the entity types), and rack names are unique ignoring case and
surrounding spaces, and not blank (a choice: an installer reads "a01" and "A01" as one rack).
The ``add_*`` methods take ``fields_checked=True`` only from the loader, whose decoder has
just enforced those very ranges (checking 400k links twice would double the load time).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

import msgspec

from model.catalog import Catalog, CatalogFile, DeviceType, builtin_catalog
from model.changes import ChangeKind, ChangeNotifier, Listener, Subscription
from model.entities import Device, Hall, Link, Rack, Settings, Tray
from model.file_checks import hall_problem, trays_problem
from model.limits import MAX_NAME_LENGTH
from model.ports import PortInfo, port_table, validate_breakout
from model.record_checks import fit_record


class DesignError(ValueError):
    """An edit or a file that would make the design inconsistent; the message says why."""


@dataclass
class Removed:
    """Everything one removal took out of the design, so that it can be put back (undo)."""

    trays: list[Tray] = field(default_factory=list)
    racks: list[Rack] = field(default_factory=list)
    devices: list[Device] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)


R = TypeVar("R", bound=msgspec.Struct)
P = ParamSpec("P")
T = TypeVar("T")


def _one_change(method: Callable[P, T]) -> Callable[P, T]:
    """An edit that calls other edits (a cascade, an undo) is still announced as one Change."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        with args[0].batch():
            return method(*args, **kwargs)

    return wrapper


class Design:
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
        self._device_links: dict[str, set[str]] = {}
        self._port_links: dict[tuple[str, str], str] = {}
        self._via_links: set[str] = set()  # links routed through panels (Link.via non-empty)
        self._changes = ChangeNotifier()
        self._id_counters: dict[str, int] = {}
        self.revision = 0  # bumped by every edit; caches compare it

    # ----------------------------------------------------------------------------- listeners

    def subscribe(self, listener: Listener) -> Subscription:
        """Call ``listener(change)`` after every edit; close the returned handle to stop."""
        return self._changes.subscribe(listener)

    def batch(self) -> AbstractContextManager[None]:
        """Gather the edit-API calls made inside into one Change (one user edit, one event)."""
        return self._changes.batch()

    def _emit(self, kind: ChangeKind, ids: Iterable[str] = ()) -> None:
        self.revision += 1
        self._changes.record(kind, ids)

    # ----------------------------------------------------------------------------- queries

    def new_id(self, prefix: str) -> str:
        """A fresh id ``{prefix}-{n}`` not used by any object of the design."""
        n = self._id_counters.get(prefix, 0)
        while True:
            n += 1
            candidate = f"{prefix}-{n}"
            if not self.has_id(candidate):
                self._id_counters[prefix] = n
                return candidate

    def has_id(self, object_id: str) -> bool:
        return (
            object_id in self.racks
            or object_id in self.devices
            or object_id in self.links
            or object_id in self.trays
            or any(o.id == object_id for o in self.hall.obstacles)
        )

    def device_type(self, device: Device | str) -> DeviceType:
        if isinstance(device, str):
            device = self.devices[device]
        return self.catalog.device_types[device.type]

    def ports(self, device: Device | str) -> dict[str, PortInfo]:
        """The ports of a device (name -> speed, lanes, form factor, role), in order."""
        if isinstance(device, str):
            device = self.devices[device]
        return port_table(self.catalog.device_types[device.type], device.breakout)

    def devices_in_rack(self, rack_id: str) -> list[Device]:
        """Devices of a rack, bottom to top."""
        return sorted(
            (self.devices[d] for d in self._rack_devices.get(rack_id, ())), key=lambda d: d.u
        )

    def links_via_panels(self) -> frozenset[str]:
        """Ids of the links routed through patch panels by hand (``Link.via`` set)."""
        return frozenset(self._via_links)

    def links_of_device(self, device_id: str) -> set[str]:
        return set(self._device_links.get(device_id, ()))

    def links_of_racks(self, rack_ids: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for rack_id in rack_ids:
            for device_id in self._rack_devices.get(rack_id, ()):
                out.update(self._device_links.get(device_id, ()))
        return out

    def link_at_port(self, device_id: str, port: str) -> str | None:
        return self._port_links.get((device_id, port))

    def free_ports(self, device_id: str, role: str | None = None) -> list[str]:
        return [
            name
            for name, info in self.ports(device_id).items()
            if (role is None or info.role == role) and (device_id, name) not in self._port_links
        ]

    def gpu_count(self) -> int:
        types = self.catalog.device_types
        return sum(types[d.type].gpu_count for d in self.devices.values())

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
        (hall,) = _fit_fields([hall], "the hall")
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
        problem = hall_problem(hall)  # what the loader refuses (model/file_checks.py)
        if problem:
            raise DesignError(problem)
        if hall != self.hall:
            self.hall = hall
            self._emit(ChangeKind.HALL_CHANGED)

    def set_settings(self, settings: Settings) -> None:
        (settings,) = _fit_fields([settings], "the design settings")
        if settings != self.settings:
            self.settings = settings
            self._emit(ChangeKind.SETTINGS_CHANGED)

    # ----------------------------------------------------------------------------- trays

    def add_trays(self, trays: Iterable[Tray], *, fields_checked: bool = False) -> None:
        trays = list(trays)
        if not fields_checked:
            trays = _fit_fields(trays, "tray")
        self._check_new_ids(t.id for t in trays)
        for tray in trays:
            _check_polyline(tray)
        problem = trays_problem(trays, [*self.trays.values(), *trays])
        if problem:
            raise DesignError(problem)
        for tray in trays:
            self.trays[tray.id] = tray
        self._emit(ChangeKind.TRAYS_ADDED, (t.id for t in trays))

    def update_trays(self, trays: Iterable[Tray]) -> None:
        trays = list(trays)
        trays = _fit_fields(trays, "tray")
        for tray in trays:
            if tray.id not in self.trays:
                raise DesignError(f"no tray {tray.id!r}")
            _check_polyline(tray)
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

    # ----------------------------------------------------------------------------- racks

    def add_racks(self, racks: Iterable[Rack], *, fields_checked: bool = False) -> None:
        racks = list(racks)
        if not fields_checked:
            racks = _fit_fields(racks, "rack")
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
        new = dict(zip(new, _fit_fields(new.values(), "rack"), strict=True))
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
        new = dict(zip(new, _fit_fields(new.values(), "rack"), strict=True))
        self.racks.update(new)
        turned = list(new)
        if turned:
            self._emit(ChangeKind.RACKS_MOVED, turned)

    @_one_change
    def update_racks(self, racks: Iterable[Rack]) -> None:
        """Replace rack records (name, type, size, budget, position) keeping their ids."""
        racks = list(racks)
        for rack in racks:
            if rack.id not in self.racks:
                raise DesignError(f"no rack {rack.id!r}")
            if rack.type not in self.catalog.rack_types:
                raise DesignError(f"rack {rack.name or rack.id!r}: unknown rack type {rack.type!r}")
        racks = _fit_fields(racks, "rack")
        self._check_rack_names(racks)
        moved = [r.id for r in racks if _placement(r) != _placement(self.racks[r.id])]
        for rack in racks:
            self.racks[rack.id] = rack
        self._emit(ChangeKind.RACKS_CHANGED, (r.id for r in racks))
        if moved:
            self._emit(ChangeKind.RACKS_MOVED, moved)

    @_one_change
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
            devices = _fit_fields(devices, "device")
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

    def move_devices(self, places: Mapping[str, tuple[str, int]]) -> None:
        """Move devices to (rack id, U position)."""
        self._require(self.devices, places, "device")
        moving = set(places)
        occupied: dict[str, dict[int, str]] = {}
        new: dict[str, Device] = {}
        for device_id, (rack_id, u) in places.items():
            if rack_id not in self.racks:
                raise DesignError(f"no rack {rack_id!r} to move device {device_id!r} into")
            old = self.devices[device_id]
            (device,) = _fit_fields([msgspec.structs.replace(old, rack=rack_id, u=u)], "device")
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

    def update_devices(self, devices: Iterable[Device]) -> None:
        """Replace device records (name, type, role, breakout); rack and U must not change here."""
        devices = list(devices)
        devices = _fit_fields(devices, "device")
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
            for link_id in self._device_links.get(device.id, ()):
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

    @_one_change
    def remove_devices(self, ids: Iterable[str]) -> Removed:
        """Remove devices and their links."""
        ids = list(dict.fromkeys(ids))
        self._require(self.devices, ids, "device")
        link_ids = sorted({link for d in ids for link in self._device_links.get(d, ())})
        removed = self.remove_links(link_ids) if link_ids else Removed()
        removed.devices = [self.devices.pop(d) for d in ids]
        for device in removed.devices:
            self._rack_devices.get(device.rack, set()).discard(device.id)
            self._device_links.pop(device.id, None)
        self._emit(ChangeKind.DEVICES_REMOVED, ids)
        return removed

    # ----------------------------------------------------------------------------- links

    def add_links(self, links: Iterable[Link], *, fields_checked: bool = False) -> None:
        """Connect ports. Refused if a device or port is missing or a port is already used."""
        links = list(links)
        if not fields_checked:
            links = _fit_fields(links, "link")
        self._check_new_ids(link.id for link in links)
        devices = self.devices
        types = self.catalog.device_types
        media = self.catalog.media_types
        port_links = self._port_links
        taken: set[tuple[str, str]] = set()
        tables: dict[str, dict[str, PortInfo]] = {}
        for link in links:
            for end in (link.a, link.b):
                table = tables.get(end.device)
                if table is None:
                    device = devices.get(end.device)
                    if device is None:
                        raise DesignError(f"link {link.id!r}: no device {end.device!r}")
                    table = tables[end.device] = port_table(types[device.type], device.breakout)
                if end.port not in table:
                    raise DesignError(
                        f"link {link.id!r}: device {devices[end.device].name!r} "
                        f"has no port {end.port!r}"
                    )
                key = (end.device, end.port)
                if key in port_links or key in taken:
                    other = port_links.get(key, "another new link")
                    raise DesignError(
                        f"link {link.id!r}: port {end.port!r} of "
                        f"{devices[end.device].name!r} is already used by {other!r}"
                    )
                taken.add(key)
            if link.medium != "auto" and link.medium not in media:
                raise DesignError(f"link {link.id!r}: unknown medium {link.medium!r}")
        device_links = self._device_links
        for link in links:
            self.links[link.id] = link
            for end in (link.a, link.b):
                port_links[(end.device, end.port)] = link.id
                device_links.setdefault(end.device, set()).add(link.id)
            if link.via:
                self._via_links.add(link.id)
        self._emit(ChangeKind.LINKS_ADDED, (link.id for link in links))

    def update_links(self, links: Iterable[Link]) -> None:
        """Replace link records: medium, length override, as-built length, label (ends fixed)."""
        links = list(links)
        links = _fit_fields(links, "link")
        for link in links:
            old = self.links.get(link.id)
            if old is None:
                raise DesignError(f"no link {link.id!r}")
            if (old.a, old.b) != (link.a, link.b):
                raise DesignError("a link's ends cannot change; remove it and connect anew")
            if link.medium != "auto" and link.medium not in self.catalog.media_types:
                raise DesignError(f"link {link.id!r}: unknown medium {link.medium!r}")
        for link in links:
            self.links[link.id] = link
            if link.via:
                self._via_links.add(link.id)
            else:
                self._via_links.discard(link.id)
        self._emit(ChangeKind.LINKS_CHANGED, (link.id for link in links))

    def remove_links(self, ids: Iterable[str]) -> Removed:
        ids = list(dict.fromkeys(ids))
        self._require(self.links, ids, "link")
        removed = Removed(links=[self.links.pop(link_id) for link_id in ids])
        for link in removed.links:
            for end in (link.a, link.b):
                self._port_links.pop((end.device, end.port), None)
                self._device_links.get(end.device, set()).discard(link.id)
            self._via_links.discard(link.id)
        self._emit(ChangeKind.LINKS_REMOVED, ids)
        return removed

    # ----------------------------------------------------------------------------- undo support

    @_one_change
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

    @_one_change
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
            out = _merge(out, self.remove_racks(racks))
        if devices:
            out = _merge(out, self.remove_devices(devices))
        links = [i for i in ids if i in self.links]
        if links:
            out = _merge(out, self.remove_links(links))
        trays = [i for i in ids if i in self.trays]
        if trays:
            out = _merge(out, self.remove_trays(trays))
        return out

    # ----------------------------------------------------------------------------- helpers

    def _check_new_ids(self, ids: Iterable[str]) -> None:
        seen: set[str] = set()
        for object_id in ids:
            if object_id in seen or self.has_id(object_id):
                raise DesignError(f"id {object_id!r} is already used")
            seen.add(object_id)

    def _check_rack_names(self, racks: list[Rack]) -> None:
        """Refuse blank rack names and names another rack has (ignoring case and spaces), judged
        on the names every rack would have after the edit."""
        names = {r.id: r.name for r in self.racks.values()} | {r.id: r.name for r in racks}
        # Every holder of each name, not just the first: an edited rack may come before the rack
        # that already holds the name in the table's order.
        holders: dict[str, list[str]] = {}
        for rack_id, name in names.items():
            holders.setdefault(name.strip().casefold(), []).append(rack_id)
        for rack in racks:
            if not rack.name.strip():
                raise DesignError(f"rack {rack.id!r} needs a name")
            other = next((r for r in holders[rack.name.strip().casefold()] if r != rack.id), None)
            if other is not None:
                raise DesignError(
                    f"rack {rack.id!r} cannot be called {rack.name!r}: another rack is already "
                    f"called {names[other]} (rack names are compared ignoring case)"
                )

    @staticmethod
    def _require(table: Mapping[str, object], ids: Iterable[str], what: str) -> None:
        for object_id in ids:
            if object_id not in table:
                raise DesignError(f"no {what} {object_id!r}")

    def _check_device(self, device: Device) -> DeviceType:
        if device.rack not in self.racks:
            raise DesignError(f"device {device.name or device.id!r}: no rack {device.rack!r}")
        dtype = self.catalog.device_types.get(device.type)
        if dtype is None:
            raise DesignError(
                f"device {device.name or device.id!r}: unknown device type {device.type!r}"
            )
        if device.u < 1:
            raise DesignError(f"device {device.name or device.id!r}: U position must be 1 or more")
        problem = validate_breakout(dtype, device.breakout)
        if problem:
            raise DesignError(f"device {device.name or device.id!r}: {problem}")
        return dtype

    def _occupied_u(self, rack_id: str, exclude: set[str] = frozenset()) -> dict[int, str]:
        slots: dict[int, str] = {}
        types = self.catalog.device_types
        for device_id in self._rack_devices.get(rack_id, ()):
            if device_id in exclude:
                continue
            device = self.devices[device_id]
            for u in range(device.u, device.u + types[device.type].u_height):
                slots[u] = device.name or device.id
        return slots


def _placement(rack: Rack) -> tuple[float, float, int, float, float]:
    """What decides where a rack's ports are: changing it means the rack moved."""
    return (rack.x, rack.y, rack.rotation, rack.width_m, rack.depth_m)


def _merge(a: Removed, b: Removed) -> Removed:
    return Removed(a.trays + b.trays, a.racks + b.racks, a.devices + b.devices, a.links + b.links)


def _fit_fields(records: Iterable[R], what: str) -> list[R]:
    """The records as the file loader reads them back; refuse one it would refuse (see
    ``model.record_checks``)."""
    out = []
    for record in records:
        fitted, problem = fit_record(record)
        if problem:
            label = getattr(record, "name", "") or getattr(record, "id", "")
            raise DesignError(f"{what} {label!r}: {problem}" if label else f"{what}: {problem}")
        out.append(fitted)
    return out


def _check_polyline(tray: Tray) -> None:
    if len(tray.points) < 2:
        raise DesignError(f"tray {tray.name or tray.id!r} needs at least 2 points")
