"""Reads of a design (ids, ports, what sits where, what links where) and the checks edits make.

A mixin of :class:`~model.design.design.Design`: it reads the design's dicts and indexes and changes
nothing; the checks raise :class:`~model.design.records.DesignError` with a sentence naming the
object.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Set

from model.catalog.components import DeviceType
from model.catalog.ports import PortInfo, port_table, validate_breakout
from model.common.name_key import name_key
from model.design.entities import END_DEVICE, END_PORT, LINK_A, LINK_B, Device, Rack
from model.design.records import DesignError
from model.design.state import DesignState


class DesignQueries(DesignState):
    """What a design answers about itself; :class:`~model.design.design.Design` provides the data."""

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
            or any(d.id == object_id for d in self.hall.dimensions)
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
        return set(self._device_table().get(device_id, ()))

    def links_of_racks(self, rack_ids: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for rack_id in rack_ids:
            for device_id in self._rack_devices.get(rack_id, ()):
                out.update(self._device_table().get(device_id, ()))
        return out

    def link_at_port(self, device_id: str, port: str) -> str | None:
        return self._port_table().get((device_id, port))

    def free_ports(self, device_id: str, role: str | None = None) -> list[str]:
        used = self._port_table()
        return [
            name
            for name, info in self.ports(device_id).items()
            if (role is None or info.role == role) and (device_id, name) not in used
        ]

    def gpu_count(self) -> int:
        """GPUs of all the design's devices, counted again only after a device edit: the
        inspector's design form shows it after every edit, and at XL the sum walks 20k devices
        (3-5 ms of the GUI thread after each rack move). Every change to ``devices`` goes
        through the edit API, which counts device edits (``_emit``); the catalog's device types
        are fixed for the design's life."""
        cached = self._gpu_total
        if cached is None or cached[0] != self._device_edits:
            types = self.catalog.device_types
            total = sum(types[d.type].gpu_count for d in self.devices.values())
            cached = self._gpu_total = (self._device_edits, total)
        return cached[1]

    # ----------------------------------------------------------------------------- lookup tables

    def _port_table(self) -> dict[tuple[str, str], str]:
        """(device id, port) -> link id, built from ``links`` on first use after a file load
        (``None`` until then: see :mod:`model.design.bulk_load`); edits keep it current."""
        table = self._port_links
        if table is None:
            ids, a_ends, b_ends = self._link_columns()
            keys = zip(
                [*map(END_DEVICE, a_ends), *map(END_DEVICE, b_ends)],
                [*map(END_PORT, a_ends), *map(END_PORT, b_ends)],
                strict=True,
            )
            table = self._port_links = dict(zip(keys, ids + ids, strict=True))
        return table

    def _device_table(self) -> dict[str, set[str]]:
        """Device id -> ids of its links, built like :meth:`_port_table` on first use."""
        table = self._device_links
        if table is None:
            ids, a_ends, b_ends = self._link_columns()
            ends = [*map(END_DEVICE, a_ends), *map(END_DEVICE, b_ends)]
            table = {device_id: set() for device_id in ends}
            # table[end device].add(link id) per end, in C (a deque of size 0 drains the map).
            deque(map(set.add, map(table.__getitem__, ends), ids + ids), maxlen=0)
            self._device_links = table
        return table

    def _link_columns(self) -> tuple[list[str], list, list]:
        links = list(self.links.values())
        return list(self.links), list(map(LINK_A, links)), list(map(LINK_B, links))

    # ----------------------------------------------------------------------------- helpers

    def _check_new_ids(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        # Set operations in C first (an XL hall adds ~460k links at once: ~0.7 s one has_id call
        # each); only a refused batch is walked in order, to name the first id used twice.
        fresh = set(ids)
        if len(fresh) == len(ids) and not any(
            fresh & table.keys() for table in (self.racks, self.devices, self.links, self.trays)
        ):
            fresh &= {o.id for o in self.hall.obstacles} | {d.id for d in self.hall.dimensions}
            if not fresh:
                return
        seen: set[str] = set()
        for object_id in ids:
            if object_id in seen or self.has_id(object_id):
                raise DesignError(f"id {object_id!r} is already used")
            seen.add(object_id)

    def _check_rack_names(self, racks: list[Rack]) -> None:
        """Refuse blank rack names and names another rack has (compared as they display:
        :func:`model.common.name_key.name_key`, case, spaces, full-width and zero-width
        characters aside), judged on the names every rack would have after the edit."""
        names = {r.id: r.name for r in self.racks.values()} | {r.id: r.name for r in racks}
        # Every holder of each name, not just the first: an edited rack may come before the rack
        # that already holds the name in the table's order.
        holders: dict[str, list[str]] = {}
        for rack_id, name in names.items():
            holders.setdefault(name_key(name), []).append(rack_id)
        for rack in racks:
            if not name_key(rack.name):
                raise DesignError(f"rack {rack.id!r} needs a name")
            other = next((r for r in holders[name_key(rack.name)] if r != rack.id), None)
            if other is not None:
                raise DesignError(
                    f"rack {rack.id!r} cannot be called {rack.name!r}: another rack is already "
                    f"called {names[other]} (rack names are compared as they display: ignoring "
                    "case, spaces, full-width and invisible characters)"
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

    def _occupied_u(self, rack_id: str, exclude: Set[str] = frozenset()) -> dict[int, str]:
        slots: dict[int, str] = {}
        types = self.catalog.device_types
        for device_id in self._rack_devices.get(rack_id, ()):
            if device_id in exclude:
                continue
            device = self.devices[device_id]
            for u in range(device.u, device.u + types[device.type].u_height):
                slots[u] = device.name or device.id
        return slots
