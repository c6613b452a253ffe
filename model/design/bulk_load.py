"""Bulk load of a file's devices and links: the checks of ``Design.add_devices`` and
``Design.add_links`` as whole-set operations.

The file loader adds every link of a design at once. ``Design.add_links`` (the edit API's path,
kept for edits) checks them one by one: a 400k-link file spent 72 % of its load there and 21 %
in one ``has_id`` per id. :func:`add_loaded_links` decides the same question, "would
``add_links`` accept this whole list?", with whole-set operations: duplicate ids by the size
of the links table it fills (taken back on a refusal), taken ids by disjointness, unknown
devices by a failed code lookup, ports used twice by the count of distinct codes, and port
validity once per distinct (device type, breakout) group rather than once per link end. Ports
used twice and port validity are judged on integer codes of the ends (one sort of 786k
numbers, not 786k (device, port) tuples hashed); the codes are kept for the cable plant
(:class:`LoadedLinkCodes`), which would otherwise read every end again. The two lookup tables
(port -> link, device -> links) are left to be built on first use (``Design._port_table`` /
``_device_table``): most commands never read them.

A choice: when the answer is "no", this module does not word the refusal itself. It raises
:class:`BulkRefused` (a ``DesignError``) and the loader's existing slow path adds the records one
at a time through ``add_links``, which words every refusal. So a bad file gets exactly the
messages and JSON paths it got before, by construction, and this module only has to agree
with ``add_links`` on accept or refuse (tests/model/test_bulk_load.py checks both ways).

Devices the same way (:func:`add_loaded_devices`): ``add_devices`` checks each device in Python
(rack, type, U position, breakout, the U slots it takes), ~4 us a device, 0.1-0.15 s for the 35k
devices of a zoned XL hall; here each check is a set or array operation over all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import numpy as np

from model.catalog.ports import port_table, validate_breakout
from model.common.arrays import FirstSeen, unique_sorted
from model.design.changes import ChangeKind
from model.design.design import Design, DesignError
from model.design.entities import END_DEVICE, END_PORT, LINK_A, LINK_B, Device, Link
from model.design.state import LoadedLinkCodes


class BulkRefused(DesignError):
    """The bulk checks found a problem; the one-at-a-time path says which and where."""


def design_ids(design: Design) -> set[str]:
    """Every id the design uses (what ``Design.has_id`` answers for one id)."""
    ids = _ids_besides_links(design)
    ids.update(design.links)
    return ids


def _ids_besides_links(design: Design) -> set[str]:
    """The ids ``Design._check_new_ids`` compares a new link's with, but the links' own: the
    dimension lines' too (a link named like one was accepted here and refused by ``add_links``)."""
    ids = set(design.racks)
    ids.update(design.devices, design.trays)
    ids.update(o.id for o in design.hall.obstacles)
    ids.update(d.id for d in design.hall.dimensions)
    return ids


def add_loaded_devices(design: Design, devices: Sequence[Device]) -> None:
    """Add the devices of a file whose fields the decoder has already checked, accepting and
    refusing exactly what ``design.add_devices(devices, fields_checked=True)`` would.

    For a design being loaded (no devices yet: every U slot is free); a design that has
    devices takes ``add_devices`` itself."""
    if design.devices:
        design.add_devices(devices, fields_checked=True)
        return
    ids = list(map(_ID, devices))
    design._check_new_ids(ids)  # what add_devices asks first, with its own sentence
    racks = list(map(_RACK, devices))
    types = list(map(_TYPE, devices))
    catalog_types = design.catalog.device_types
    if not (set(racks) <= design.racks.keys() and set(types) <= catalog_types.keys()):
        raise BulkRefused("a device names an unknown rack or device type")
    # The decoder enforced U >= 1 (Device.u's range); breakouts judged once per distinct one.
    if any(map(_BREAKOUT, devices)):
        breakouts = {(d.type, tuple(sorted(d.breakout.items()))) for d in devices if d.breakout}
        for type_id, breakout in breakouts:
            if validate_breakout(catalog_types[type_id], dict(breakout)) is not None:
                raise BulkRefused("a device breaks out a port group it cannot")
    _check_u_slots(design, racks, types, devices)
    design.devices.update(zip(ids, devices, strict=True))
    rack_devices = design._rack_devices
    for device_id, rack_id in zip(ids, racks, strict=True):
        rack_devices[rack_id].add(device_id)
    design._emit(ChangeKind.DEVICES_ADDED, ids)


def _check_u_slots(
    design: Design, racks: list[str], types: list[str], devices: Sequence[Device]
) -> None:
    """No two devices take one U of one rack: each device's slots (rack number, U) coded as
    integers, refused when a code repeats."""
    n = len(devices)
    height_of = {t: design.catalog.device_types[t].u_height for t in set(types)}
    rack_code = FirstSeen()
    rack = np.fromiter(map(rack_code.__getitem__, racks), np.int64, n)
    bottom = np.fromiter(map(_U, devices), np.int64, n)
    height = np.fromiter(map(height_of.__getitem__, types), np.int64, n)
    taken = int(height.sum())
    if not taken:
        return
    width = int((bottom + height).max()) + 1
    # Slot k of a device: its bottom U + k (k counts up from each device's first slot).
    first = np.repeat(rack * width + bottom, height)
    step = np.arange(taken) - np.repeat(np.cumsum(height) - height, height)
    if unique_sorted(first + step).size != taken:
        raise BulkRefused("two devices take one U of a rack")


def add_loaded_links(design: Design, links: Sequence[Link], *, plain: bool = False) -> None:
    """Add the links of a file whose fields the decoder has already checked, accepting and
    refusing exactly what ``design.add_links(links, fields_checked=True)`` would.

    The whole-set checks are for a design being loaded (no links yet: the loader adds them
    last); a design that has links takes ``add_links`` itself. ``plain``: the loader found
    ``plain_links(links)`` true, so no link pins a medium or runs via a panel, and those two
    passes over the links are skipped. Links as the file gate gives them: an empty polarity
    record is ``NO_POLARITY`` (``share_empty_polarity``)."""
    if design.links:
        design.add_links(links, fields_checked=True)
        return
    # Each pass runs in C (map, zip, dict): a Python loop over 786k link ends costs ~0.3 s.
    ids = list(map(_ID, links))
    table = design.links
    table.update(zip(ids, links, strict=True))  # taken back below if the links are refused
    try:
        # A repeated id leaves fewer entries than links; the table is the set of new ids.
        if len(table) != len(ids) or not table.keys().isdisjoint(_ids_besides_links(design)):
            raise BulkRefused("a link id is repeated or already used")
        ends = _EndCodes(design, links)
        if ends.distinct_ports() != 2 * len(ids):
            raise BulkRefused("a port is used twice")
        _check_ports(design, ends)
        pins = set() if plain else set(map(_MEDIUM, links)) - {"auto"}
        if not pins <= design.catalog.media_types.keys():
            raise BulkRefused("a link names an unknown medium")
    except BulkRefused:
        table.clear()
        raise
    if not plain:
        design._via_links.update(map(_ID, filter(_VIA, links)))  # links routed through panels
    # Built from ``links`` on first use (Design._port_table / _device_table): validate,
    # schedule, routes and the exports never ask, and building them is ~0.5 s at XL.
    design._port_links = design._device_links = None
    design._emit(ChangeKind.LINKS_ADDED, ids)
    # After the event: any later edit drops them (Design._emit).
    design._loaded_codes = LoadedLinkCodes(
        len(ids), ends.device_ids, ends.port_names, ends.device, ends.port, not pins
    )


def loaded_link_codes(design: Design) -> LoadedLinkCodes | None:
    """The end codes the loader left, while the design is unedited since the load; else None."""
    codes = getattr(design, "_loaded_codes", None)  # a Design made without __init__ has none
    return codes if codes is not None and codes.link_count == len(design.links) else None


def link_end_codes(design: Design) -> LoadedLinkCodes:
    """The ends of the design's links as integer codes (:class:`LoadedLinkCodes`, links in
    ``design.links`` order): the loader's while the design is unedited, else coded now."""
    codes = loaded_link_codes(design)
    if codes is not None:
        return codes
    links = list(design.links.values())
    ends = _EndCodes(design, links)
    pins = {link.medium for link in links} - {"auto"}
    return LoadedLinkCodes(
        len(links), ends.device_ids, ends.port_names, ends.device, ends.port, not pins
    )


class _EndCodes:
    """The link ends as integer arrays (device number, port number): sorting 786k integers
    is several times cheaper than hashing 786k (device, port) tuples.

    Devices are numbered in ``design.devices`` order, ports in order of first use; each end is
    coded in the same C-level pass that reads it (no list of 786k names is kept)."""

    def __init__(self, design: Design, links: Sequence[Link]) -> None:
        self.device_ids = list(design.devices)
        device_code = dict(zip(self.device_ids, range(len(self.device_ids)), strict=True))
        port_code = FirstSeen()
        n = len(links)
        self.device = np.empty(2 * n, np.int64)
        self.port = np.empty(2 * n, np.int64)
        for half, side in (
            (slice(0, n), map(LINK_A, links)),
            (slice(n, 2 * n), map(LINK_B, links)),
        ):
            ends = list(side)
            try:
                self.device[half] = np.fromiter(
                    map(device_code.__getitem__, map(END_DEVICE, ends)), np.int64, n
                )
            except KeyError:
                raise BulkRefused("a link names an unknown device") from None
            self.port[half] = np.fromiter(
                map(port_code.__getitem__, map(END_PORT, ends)), np.int64, n
            )
        self.port_names = list(port_code)

    def distinct_ports(self) -> int:
        """How many distinct (device, port) pairs the ends name.

        Counted by marking each pair's code in a table of every possible code where that
        table is not much larger than the ends (~2 ms for XL's 786k ends, where listing the
        distinct codes, ``unique_sorted``, was ~6-15 ms); sorted otherwise."""
        width = max(len(self.port_names), 1)
        codes = self.device * width + self.port
        span = len(self.device_ids) * width
        if span > 16 * len(codes) + 4096:
            return int(unique_sorted(codes).size)
        present = np.zeros(span, dtype=bool)
        present[codes] = True
        return int(np.count_nonzero(present))


_ID = attrgetter("id")
_RACK, _TYPE, _U, _BREAKOUT = (attrgetter(f) for f in ("rack", "type", "u", "breakout"))
_MEDIUM = attrgetter("medium")
_VIA = attrgetter("via")


def _check_ports(design: Design, ends: _EndCodes) -> None:
    """Every used port exists on its device, judged once per distinct (device type, breakout,
    port): devices of one type and breakout have one port table."""
    devices = design.devices  # in the order of the device codes (_EndCodes)
    keys = [
        (d.type, tuple(sorted(d.breakout.items())) if d.breakout else ()) for d in devices.values()
    ]
    code_of = FirstSeen()
    group_of_device = np.fromiter(map(code_of.__getitem__, keys), np.int64, len(keys))
    width = max(len(ends.port_names), 1)
    used = unique_sorted(group_of_device[ends.device] * width + ends.port)
    groups: dict[int, set[str]] = {}
    names = ends.port_names
    for group, port in zip((used // width).tolist(), (used % width).tolist(), strict=True):
        groups.setdefault(group, set()).add(names[port])
    types = design.catalog.device_types
    for (type_id, breakout), code in code_of.items():
        if not groups.get(code, set()) <= port_table(types[type_id], dict(breakout)).keys():
            raise BulkRefused("a link names a port its device does not have")
