"""Bulk load of a file's links: the checks of ``Design.add_links`` as whole-set operations.

The file loader adds every link of a design at once. ``Design.add_links`` (the edit API's path,
kept for edits) checks them one by one: a 400k-link file spent 72 % of its load there and 21 %
in one ``has_id`` per id. :func:`add_loaded_links` decides the same question, "would
``add_links`` accept this whole list?", with set operations: duplicate and taken ids by set
size and disjointness, unknown devices by a set difference, ports used twice by set size, and
port validity once per distinct (device type, breakout) group rather than once per link end.
Then it fills ``links`` and the two lookup tables in one pass.

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
    end_ids = ids + ids
    new_ports = dict(zip(zip(end_devices, end_ports, strict=True), end_ids, strict=True))
    port_links = design._port_links
    if len(new_ports) != len(end_ids) or not port_links.keys().isdisjoint(new_ports):
        raise BulkRefused("a port is used twice")
    devices = design.devices
    used_devices = set(end_devices)
    if not devices.keys() >= used_devices:
        raise BulkRefused("a link names an unknown device")
    _check_ports(design, used_devices, end_devices, end_ports)
    media = design.catalog.media_types
    if not set(map(_MEDIUM, links)) - {"auto"} <= media.keys():
        raise BulkRefused("a link names an unknown medium")
    design.links.update(zip(ids, links, strict=True))
    design._via_links.update(map(_ID, filter(_VIA, links)))  # links routed through panels
    if port_links:
        port_links.update(new_ports)  # a lookup table: its order is free
    else:  # a design being loaded: the new table is the whole table (saves a 786k update)
        design._port_links = new_ports
    device_links = design._device_links
    for device_id in used_devices:
        device_links.setdefault(device_id, set())
    # device_links[end device].add(link id) for every end, in C (deque of size 0 drains it).
    deque(map(set.add, map(device_links.__getitem__, end_devices), end_ids), maxlen=0)
    design._emit(ChangeKind.LINKS_ADDED, ids)


_ID = attrgetter("id")
_MEDIUM = attrgetter("medium")
_VIA = attrgetter("via")
_A, _B = attrgetter("a"), attrgetter("b")
_DEVICE, _PORT = attrgetter("device"), attrgetter("port")


def _check_ports(
    design: Design, used_devices: set[str], end_devices: list[str], end_ports: list[str]
) -> None:
    """Every used port exists on its device, judged once per distinct (device type, breakout,
    port): devices of one type and breakout have one port table."""
    devices = design.devices
    # Each device's group as a small number: hashing 786k (number, port) pairs is several
    # times cheaper than hashing (type, breakout tuple, port) ones.
    code_of: dict[tuple[str, tuple[tuple[str, int], ...]], int] = {}
    group_of: dict[str, int] = {}
    for device_id in used_devices:
        device = devices[device_id]
        key = (device.type, tuple(sorted(device.breakout.items())))
        group_of[device_id] = code_of.setdefault(key, len(code_of))
    used = set(zip(map(group_of.__getitem__, end_devices), end_ports, strict=True))
    groups: dict[int, set[str]] = {}
    for group, port in used:
        groups.setdefault(group, set()).add(port)
    types = design.catalog.device_types
    for (type_id, breakout), code in code_of.items():
        if not groups.get(code, set()) <= port_table(types[type_id], dict(breakout)).keys():
            raise BulkRefused("a link names a port its device does not have")
