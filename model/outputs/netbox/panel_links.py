"""The cabling schedule's links as the NetBox panels read them: per schedule row its link id,
label and whether the row lists the link from its B end; and for the paneled links, their two
ends and media as the schedule's own codes (:meth:`ScheduleTable.codes`), gathered by numpy.

Why from the schedule: it has put every link's ends in codes already (device, port, medium,
which end it lists first). Looking each of a zoned XL hall's 393k paneled links up again by id
(the link, its two ends, their devices and ports, its plant row) was ~1 s of its export; the
gathers are a few milliseconds. A schedule given as rows (tests, small halls) has no codes of
its ends: its links are then read from the design link by link, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, compress
from operator import attrgetter, ne, or_

import numpy as np

from model.design.entities import END_DEVICE, END_PORT
from model.outputs.netbox.names import interface_name
from model.outputs.schedule import ScheduleTable
from model.outputs.schedule_columns import TURNED, objects

# A field of the links' two ends: (its texts, each link's A end's code in them, its B end's)
EndField = tuple[list[str], np.ndarray, np.ndarray]


@dataclass
class ScheduleLinks:
    """The schedule's rows as the panels read them (one entry per row, schedule order)."""

    ids: list[str]
    labels: list[str]
    flipped: np.ndarray  # bool: the row's A end is the link's B end, and is named otherwise
    table: ScheduleTable | None  # the table whose codes give the ends; None: a table of rows

    def flipped_ids(self) -> set[str]:
        """The links of the flipped rows."""
        return set(compress(self.ids, self.flipped.tolist()))


def schedule_links(design, schedule: ScheduleTable) -> ScheduleLinks:
    """The rows of ``schedule``; which are flipped read from its codes when it has them (it
    says which links it turned, :data:`TURNED`), else compared end by end with the design's."""
    col = schedule.columns
    ids, labels = col["link_id"], col["label"]
    try:
        _, turned = schedule.codes(TURNED)
    except KeyError:  # a table of given rows: its ends are only its texts
        return ScheduleLinks(ids, labels, _flipped_by_ends(design, col), None)
    return ScheduleLinks(ids, labels, _flipped_by_codes(schedule, turned == 1), schedule)


def _flipped_by_codes(table: ScheduleTable, turned: np.ndarray) -> np.ndarray:
    """Rows the schedule turned (listed from the link's B end) whose two ends differ by rack,
    U, device name or port: a link between two ends named alike stays as it is."""
    at = np.flatnonzero(turned)
    differ = np.zeros(len(at), dtype=bool)
    for name in ("rack", "u", "device", "port"):
        a_values, a_codes = table.codes(f"a_{name}")
        b_values, b_codes = table.codes(f"b_{name}")
        a = objects(a_values, len(a_values))[a_codes[at]]
        b = objects(b_values, len(b_values))[b_codes[at]]
        differ |= a != b
    flipped = np.zeros(len(turned), dtype=bool)
    flipped[at] = differ
    return flipped


def _flipped_by_ends(design, col: dict[str, list]) -> np.ndarray:
    """Rows whose A end (rack, U, device name, port) is not their link's A end, compared with
    C-level maps (a device's rack, U and name made once per device)."""
    link_ids = col["link_id"]
    a_ends = list(map(attrgetter("a"), map(design.links.__getitem__, link_ids)))
    devices, racks = design.devices, design.racks
    device_key = {
        d: (racks[devices[d].rack].name, devices[d].u, devices[d].name)
        for d in dict.fromkeys(map(END_DEVICE, a_ends))
    }
    other_port = map(ne, col["a_port"], map(END_PORT, a_ends))
    rows = zip(col["a_rack"], col["a_u"], col["a_device"], strict=True)
    other_device = map(ne, map(device_key.__getitem__, map(END_DEVICE, a_ends)), rows)
    return np.fromiter(map(or_, other_port, other_device), bool, len(link_ids))


def ends_by_codes(
    table: ScheduleTable, rows: np.ndarray, device_names: dict[str, str], plant
) -> tuple[EndField, EndField, np.ndarray] | None:
    """(device NetBox names, interface names, plant medium rows) of the links of schedule
    ``rows`` at their A and B ends, gathered from the table's codes (the link's A end is the
    row's B end where the schedule turned it); None when the table's media are not the
    plant's (a schedule not made from it)."""
    by_id = {m.id: k for k, m in enumerate(plant.media)} | {"": -1}
    medium_ids, medium_codes = table.codes("medium")
    if not by_id.keys() >= set(medium_ids):
        return None
    medium = np.array([by_id[m] for m in medium_ids], dtype=np.int64)
    _, turned = table.codes(TURNED)
    turned = turned[rows] == 1
    devices = _end_codes(table, "device_id", rows, turned)
    ports = _end_codes(table, "port", rows, turned)
    return (
        ([device_names[d] for d in devices[0]], devices[1], devices[2]),
        (list(map(interface_name, ports[0])), ports[1], ports[2]),
        medium[medium_codes[rows] % len(medium)],
    )


def _end_codes(table: ScheduleTable, name: str, rows: np.ndarray, turned: np.ndarray):
    """Column ``a_{name}`` / ``b_{name}`` of ``rows`` as (values, the link's A end's code, its
    B end's): the two columns' values one list (the B column's after the A column's unless
    they are the same list)."""
    a_values, a_codes = table.codes(f"a_{name}")
    b_values, b_codes = table.codes(f"b_{name}")
    a = a_codes[rows] % max(len(a_values), 1)
    b = b_codes[rows] % max(len(b_values), 1)
    values: Sequence = a_values
    if b_values is not a_values:
        values, b = [*a_values, *b_values], b + len(a_values)
    return list(values), np.where(turned, b, a), np.where(turned, a, b)


def ends_by_link(
    design, order: list[str], device_names: dict[str, str]
) -> tuple[EndField, EndField]:
    """(device NetBox names, interface names) at the A and B ends of each link of ``order``,
    looked up link by link in the design, each text made once per distinct value."""
    n = len(order)
    links = list(map(design.links.__getitem__, order))
    refs = [list(map(attrgetter(side), links)) for side in "ab"]
    device_code = dict(zip(device_names, range(len(device_names)), strict=True))
    devices = [
        np.fromiter(map(device_code.__getitem__, map(END_DEVICE, r)), np.int64, n) for r in refs
    ]
    ports = [list(map(END_PORT, r)) for r in refs]
    port_code = dict.fromkeys(chain(*ports))
    port_texts = list(map(interface_name, port_code))
    port_code.update(zip(port_code, range(len(port_code)), strict=True))
    a_port, b_port = (np.fromiter(map(port_code.__getitem__, p), np.int64, n) for p in ports)
    return (list(device_names.values()), devices[0], devices[1]), (port_texts, a_port, b_port)
