"""Bulk load of a file's links: the checks of ``Design.add_links`` as whole-set operations.

The file loader adds every link of a design at once. ``Design.add_links`` (the edit API's path,
kept for edits) checks them one by one: a 400k-link file spent 72 % of its load there and 21 %
in one ``has_id`` per id. :func:`add_loaded_links` decides the same question, "would
``add_links`` accept this whole list?", with set operations: duplicate and taken ids by set
size and disjointness, unknown devices by a set difference, ports used twice by set size, and
port validity once per distinct (device type, breakout) group rather than once per link end.
Ports used twice and port validity are judged on integer codes of the ends (one sort of 786k
numbers, not 786k (device, port) tuples hashed). Then it fills ``links``; on a design being
loaded the two lookup tables (port -> link, device -> links) are left to be built on first use
(``Design._port_table`` / ``_device_table``): most commands never read them.

A choice: when the answer is "no", this module does not word the refusal itself. It raises
:class:`BulkRefused` (a ``DesignError``) and the loader's existing slow path adds the records one
at a time through ``add_links``, which words every refusal. So a bad file gets exactly the
messages and JSON paths it got before, by construction, and this module only has to agree
with ``add_links`` on accept or refuse (tests/model/test_bulk_load.py checks both ways).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from model.changes import ChangeKind
from model.design import Design, DesignError
from model.entities import Link
from model.ports import port_table


class BulkRefused(DesignError):
    """The bulk checks found a problem; the one-at-a-time path says which and where."""


def design_ids(design: Design) -> set[str]:
    """Every id the design uses (what ``Design.has_id`` answers for one id)."""
    ids = set(design.racks)
    ids.update(design.devices, design.links, design.trays)
    ids.update(o.id for o in design.hall.obstacles)
    return ids


def add_loaded_links(design: Design, links: Sequence[Link]) -> None:
    """Add the links of a file whose fields the decoder has already checked, accepting and
    refusing exactly what ``design.add_links(links, fields_checked=True)`` would."""
    # Each pass runs in C (map, zip, set): a Python loop over 786k link ends costs ~0.3 s.
    ids = list(map(_ID, links))
    id_set = set(ids)
    if len(id_set) != len(ids) or not id_set.isdisjoint(design_ids(design)):
        raise BulkRefused("a link id is repeated or already used")
    # Ends first, then their fields: a dotted attrgetter ("a.device") per link costs ~3x more.
    a_ends, b_ends = list(map(_A, links)), list(map(_B, links))
    end_devices = [*map(_DEVICE, a_ends), *map(_DEVICE, b_ends)]
    end_ports = [*map(_PORT, a_ends), *map(_PORT, b_ends)]
    del a_ends, b_ends
    devices = design.devices
    used_devices = set(end_devices)
    if not devices.keys() >= used_devices:
        raise BulkRefused("a link names an unknown device")
    ends = _EndCodes(used_devices, end_devices, end_ports)
    loading = not design.links  # a design being loaded: its lookup tables wait for first use
    if loading:
        if ends.distinct_ports() != len(end_ports):
            raise BulkRefused("a port is used twice")
    else:
        new_ports = dict(zip(zip(end_devices, end_ports, strict=True), ids + ids, strict=True))
        port_links = design._port_table()
        if len(new_ports) != len(end_ports) or not port_links.keys().isdisjoint(new_ports):
            raise BulkRefused("a port is used twice")
    _check_ports(design, ends)
    media = design.catalog.media_types
    pins = set(map(_MEDIUM, links)) - {"auto"}
    if not pins <= media.keys():
        raise BulkRefused("a link names an unknown medium")
    design.links.update(zip(ids, links, strict=True))
    design._via_links.update(map(_ID, filter(_VIA, links)))  # links routed through panels
    if loading:
        # Built from ``links`` on first use (Design._port_table / _device_table): validate,
        # schedule, routes and the exports never ask, and building them is ~0.5 s at XL.
        design._port_links = design._device_links = None
    else:
        port_links.update(new_ports)
        device_links = design._device_table()
        for device_id in used_devices:
            device_links.setdefault(device_id, set())
        deque(map(set.add, map(device_links.__getitem__, end_devices), ids + ids), maxlen=0)
    design._emit(ChangeKind.LINKS_ADDED, ids)
    if loading:  # after the event: any later edit drops them (Design._emit)
        design._loaded_codes = LoadedLinkCodes(
            len(ids), ends.device_ids, ends.port_names, ends.device, ends.port, not pins
        )


class LoadedLinkCodes(NamedTuple):
    """The ends of a just-loaded design's links as integer codes, kept for the cable plant.

    The loader has already read every link end into these arrays; a :class:`CablePlant` built
    before any edit reads its per-link device and port columns from them with numpy gathers
    instead of walking 393k records again (~0.35 s at XL). Rows are the links in
    ``design.links`` order; ``device``/``port`` hold the A ends, then the B ends. ``Design``
    drops them on its next edit, so they never describe another state of the design.
    """

    link_count: int
    device_ids: list[str]  # device code -> device id
    port_names: list[str]  # port code -> port name
    device: np.ndarray  # int64, 2 * link_count: device code of each end (A ends, then B ends)
    port: np.ndarray  # int64, 2 * link_count: port code of each end
    all_auto: bool  # no link pins a medium


def loaded_link_codes(design: Design) -> LoadedLinkCodes | None:
    """The end codes the loader left, while the design is unedited since the load; else None."""
    codes = getattr(design, "_loaded_codes", None)  # a Design made without __init__ has none
    return codes if codes is not None and codes.link_count == len(design.links) else None


class _EndCodes:
    """The link ends as integer arrays (device number, port number): sorting 786k integers
    is several times cheaper than hashing 786k (device, port) tuples."""

    def __init__(self, used_devices: set[str], end_devices: list[str], end_ports: list[str]):
        self.device_ids = list(used_devices)
        self.port_names = list(set(end_ports))
        device_code = {d: k for k, d in enumerate(self.device_ids)}
        port_code = {p: k for k, p in enumerate(self.port_names)}
        n = len(end_devices)
        self.device = np.fromiter(map(device_code.__getitem__, end_devices), np.int64, n)
        self.port = np.fromiter(map(port_code.__getitem__, end_ports), np.int64, n)

    def distinct_ports(self) -> int:
        """How many distinct (device, port) pairs the ends name."""
        return int(_distinct(self.device * len(self.port_names) + self.port).size)


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted: by one sort (numpy's hash-based ``unique`` is ~10x slower
    on 786k int64 here)."""
    ordered = np.sort(values)
    return (
        ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if ordered.size else ordered
    )


_ID = attrgetter("id")
_MEDIUM = attrgetter("medium")
_VIA = attrgetter("via")
_A, _B = attrgetter("a"), attrgetter("b")
_DEVICE, _PORT = attrgetter("device"), attrgetter("port")


def _check_ports(design: Design, ends: _EndCodes) -> None:
    """Every used port exists on its device, judged once per distinct (device type, breakout,
    port): devices of one type and breakout have one port table."""
    devices = design.devices
    code_of: dict[tuple[str, tuple[tuple[str, int], ...]], int] = {}
    group_of_device = np.empty(len(ends.device_ids), np.int64)
    for k, device_id in enumerate(ends.device_ids):
        device = devices[device_id]
        key = (device.type, tuple(sorted(device.breakout.items())))
        group_of_device[k] = code_of.setdefault(key, len(code_of))
    width = len(ends.port_names)
    used = _distinct(group_of_device[ends.device] * width + ends.port)
    groups: dict[int, set[str]] = {}
    names = ends.port_names
    for group, port in zip((used // width).tolist(), (used % width).tolist(), strict=True):
        groups.setdefault(group, set()).add(names[port])
    types = design.catalog.device_types
    for (type_id, breakout), code in code_of.items():
        if not groups.get(code, set()) <= port_table(types[type_id], dict(breakout)).keys():
            raise BulkRefused("a link names a port its device does not have")
