"""The cables file of the NetBox export (``08_cables``, ``09_backplane_cables``): one row per
link, A and B ends as NetBox's cable import names them (site, device, ``dcim.interface``, port),
NetBox's cable type, the ordered length. A schedule given column by column is written as
columns (:func:`table_cables`); rows as rows."""

from __future__ import annotations

from itertools import repeat

import numpy as np

from model.design.design import Design
from model.design.entities import END_DEVICE, END_PORT, LINK_A, LINK_B
from model.outputs.netbox.columns import Lookup, Repeat, Table
from model.outputs.netbox.device_types import cable_description
from model.outputs.netbox.names import LABEL_MAX, fit_name, interface_name
from model.outputs.schedule import ScheduleTable
from model.outputs.writers import ExportError

CABLE_HEADER = (
    "side_a_site",
    "side_a_device",
    "side_a_type",
    "side_a_name",
    "side_b_site",
    "side_b_device",
    "side_b_type",
    "side_b_name",
    "type",
    "status",
    "label",
    "length",
    "length_unit",
    "description",
)
# CABLE_HEADER[8:] is CABLE_ROW_TAIL, the rows model.outputs.netbox.panels makes (a test holds it)


def cable_row(site, names, a, b, medium, label, length) -> tuple:
    return (
        site,
        names[a.device],
        "dcim.interface",
        interface_name(a.port),
        site,
        names[b.device],
        "dcim.interface",
        interface_name(b.port),
        medium.netbox_type if medium else "",
        "planned",
        fit_name(label, LABEL_MAX),
        None if length is None else round(length, 2),
        "m" if length is not None else "",
        cable_description(medium) if medium else "",
    )


def schedule_cables(design, schedule, plant, site, device_names) -> list[tuple] | Table:
    if isinstance(schedule, ScheduleTable):
        return table_cables(design, schedule, plant, site, device_names)
    rows = []
    for row in schedule:
        link = design.links.get(row.link_id)
        if link is None:
            raise ExportError(f"schedule row {row.link_id!r} names no link of the design")
        a, b = link.a, link.b
        if end_key(design, a.device, a.port) != (row.a_rack, row.a_u, row.a_device, row.a_port):
            a, b = b, a
        medium = plant.medium(row.link_id) if row.link_id in plant.index else None
        length = row.ordered_length_m if row.ordered_length_m is not None else row.length_m
        rows.append(cable_row(site, device_names, a, b, medium, row.label, length))
    return rows


def table_cables(design, table: ScheduleTable, plant, site, device_names) -> Table:
    """:func:`schedule_cables` of a schedule given column by column, as columns: the A and B
    ends are the table's (device id and port per end); names, ports, types and lengths are
    lookups into the table's distinct values by its codes (:meth:`ScheduleTable.codes`: the
    writer formats each value once, the cells are gathered by numpy)."""
    col = table.columns
    link_ids = col["link_id"]
    if not all(map(design.links.__contains__, link_ids)):
        missing = next(lid for lid in link_ids if lid not in design.links)
        raise ExportError(f"schedule row {missing!r} names no link of the design")
    n = len(link_ids)
    # The medium of each row: the schedule's medium column names it by id (the plant's medium
    # of that link, "" for none), so the cells are looked up by id without the plant's link
    # index. A column naming some other id (a schedule not made from this plant) is not
    # trusted: the medium is then found by link id. (A twin-port cable's cable id "l-1+"
    # names no link, which is why the link id is used.)
    by_id = {m.id: k for k, m in enumerate(plant.media)} | {"": -1}
    medium_ids, kinds = table.codes("medium")
    types = [m.netbox_type for m in plant.media] + [""]
    words = [cable_description(m) for m in plant.media] + [""]
    if by_id.keys() >= set(medium_ids):
        types = [types[by_id[m_id]] for m_id in medium_ids]
        words = [words[by_id[m_id]] for m_id in medium_ids]
    else:
        row = np.fromiter(map(plant.index.get, link_ids, repeat(-1)), np.int64, n)
        medium = np.asarray(plant.medium_index, dtype=np.int64)
        kinds = np.where(row >= 0, medium[np.maximum(row, 0)], -1) if n else np.zeros(0, np.int64)
    # The length of each row: its ordered length, else its routed length (both as codes).
    ordered, ordered_code = table.codes("ordered_length_m")
    routed, routed_code = table.codes("length_m")
    lengths = [*ordered, *routed]
    unordered = np.array([v is None for v in ordered], dtype=bool)
    length_code = np.where(
        unordered[ordered_code], len(ordered) + np.asarray(routed_code), ordered_code
    ).astype(np.int64)
    kept, length_code = used_codes(length_code, len(lengths))
    lengths = [lengths[k] for k in kept]
    rounded = [None if v is None else round(v, 2) for v in lengths]
    units = ["" if v is None else "m" for v in lengths]
    labels = col["label"]
    if max(map(len, labels), default=0) > LABEL_MAX or list(map(str.strip, labels)) != labels:
        fitted = {v: fit_name(v, LABEL_MAX) for v in set(labels)}
        labels = list(map(fitted.__getitem__, labels))
    interface = Repeat("dcim.interface", n)
    ends = []
    for end in ("a", "b"):
        device_ids, device_code = table.codes(f"{end}_device_id")
        kept, device_code = used_codes(device_code, len(device_ids))
        ports, port_code = table.codes(f"{end}_port")
        kept_ports, port_code = used_codes(port_code, len(ports))
        ends.append(
            (
                Lookup([device_names[device_ids[k]] for k in kept], device_code),
                Lookup([interface_name(ports[k]) for k in kept_ports], port_code),
            )
        )
    kept, kinds = used_codes(kinds, len(types))
    types, words = [types[k] for k in kept], [words[k] for k in kept]
    (a_device, a_port), (b_device, b_port) = ends
    return Table(
        CABLE_HEADER,
        [
            Repeat(site, n),
            a_device,
            interface,
            a_port,
            Repeat(site, n),
            b_device,
            interface,
            b_port,
            Lookup(types, kinds),
            Repeat("planned", n),
            labels,
            Lookup(rounded, length_code),
            Lookup(units, length_code),
            Lookup(words, kinds),
        ],
    )


def used_codes(codes, size: int) -> tuple[list[int], np.ndarray]:
    """(the positions among ``size`` values that some row's code names, in order; each row's
    code among those): a lookup then holds only the values written, and a column that shows
    one value on every row is written as text between the cells."""
    codes = np.asarray(codes, dtype=np.int64) % max(size, 1)  # a negative code: from the end
    used = np.zeros(size, dtype=bool)
    used[codes] = True
    return np.flatnonzero(used).tolist(), (np.cumsum(used) - 1)[codes]


def backplane_cables(design, plant, site, device_names, rack_names) -> Table:
    """Links on a rack backplane: not ordered (no length), but plugged, so exported.

    Built as columns, each end read with C-level maps, a label prefix made once per device
    and the interface names once per port name: an NVL72 hall has ~300k such links, and a row
    tuple made per link was ~1 s of its export. Rows in order of (A device, A interface,
    B device, B interface), ties in order of link id."""
    backplane = [k for k, m in enumerate(plant.media) if m.kind == "backplane"]
    medium_index = np.asarray(plant.medium_index)
    rows = np.flatnonzero(np.isin(medium_index, backplane)).tolist()
    by_id = sorted(zip(map(plant.link_ids.__getitem__, rows), rows, strict=True))
    kept = [(lid, r) for lid, r in by_id if lid in design.links]
    if not kept:
        return Table.from_rows(CABLE_HEADER, [])
    links = [design.links[lid] for lid, _ in kept]
    a_ends, b_ends = list(map(LINK_A, links)), list(map(LINK_B, links))
    a_dev, a_port = list(map(END_DEVICE, a_ends)), list(map(END_PORT, a_ends))
    b_dev, b_port = list(map(END_DEVICE, b_ends)), list(map(END_PORT, b_ends))
    devices = design.devices
    prefix = {d: f"{rack_names[devices[d].rack]}-U{devices[d].u}-" for d in {*a_dev, *b_dev}}
    labels = [
        fit_name(link.label or f"{prefix[da]}{pa} to {prefix[db]}{pb}", LABEL_MAX)
        for link, da, pa, db, pb in zip(links, a_dev, a_port, b_dev, b_port, strict=True)
    ]
    iface = {p: interface_name(p) for p in {*a_port, *b_port}}
    name_a, if_a = list(map(device_names.__getitem__, a_dev)), list(map(iface.__getitem__, a_port))
    name_b, if_b = list(map(device_names.__getitem__, b_dev)), list(map(iface.__getitem__, b_port))
    medium = medium_index[[r for _, r in kept]].tolist()
    order = [k for *_, k in sorted(zip(name_a, if_a, name_b, if_b, range(len(kept)), strict=True))]
    media = {k: plant.media[k] for k in set(medium)}
    n = len(order)

    def ordered(column: list) -> list:
        return list(map(column.__getitem__, order))

    medium = ordered(medium)
    return Table(
        CABLE_HEADER,
        [
            Repeat(site, n),
            ordered(name_a),
            Repeat("dcim.interface", n),
            ordered(if_a),
            Repeat(site, n),
            ordered(name_b),
            Repeat("dcim.interface", n),
            ordered(if_b),
            Lookup({k: m.netbox_type for k, m in media.items()}, medium),
            Repeat("planned", n),
            ordered(labels),
            Repeat(None, n),
            Repeat("", n),
            Lookup({k: cable_description(m) for k, m in media.items()}, medium),
        ],
    )


def end_key(design: Design, device_id: str, port: str) -> tuple[str, int, str, str]:
    device = design.devices[device_id]
    return (design.racks[device.rack].name, device.u, device.name, port)
