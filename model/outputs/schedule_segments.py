"""Cabling-schedule rows per segment of a structured design (patch cord / trunk / patch cord).

For a design with links through panels (:func:`model.structured.layout.structured_layout`),
every such link is listed as its segments instead of one row: the A-end patch cord (device port
to its first panel's front), each trunk (panel rear to panel rear, or through an intermediate
adapter), and the B-end patch cord, each a row of the schedule's own columns
(:data:`model.outputs.schedule.SCHEDULE_COLUMNS`). ``link_id`` is the channel's id (the link's) and
groups a channel's rows; ``cable_id`` names the physical assembly (``{link}:cord-a``, the
trunk's id, ``{link}:cord-b``). Links that stay direct keep their row unchanged, so a direct
design's schedule is exactly what it was.

Choices, written down:

* **Ports.** Each MPO leg of a channel takes the next port of every adapter panel it passes,
  panel by panel, the channels in the order of their schedule labels (the layout counts ports
  per panel, it does not number them; the NetBox export numbers them the same way); the front of port p is ``{panel}:{p}``, its rear ``{panel}:R{p}``. A cassette's
  front is the channel's LC port (``{cassette}:{k}``, the layout's mirrored ports), its rear
  ``{cassette}:R``. A panel is named as the design names its device (``pp1``); a panel the
  layout needs beyond the placed ones (*virtual*, PANELS_NOT_PLACED) by its layout id with U 0.
* **Trunks.** A trunk is one physical cable, however many legs it bundles (MPO-24/48/144): one
  row, listed under the first channel (in schedule order) it carries, its ends labelled with
  the rear ports of all its legs (``R1-R3,R7``). ``medium_kind`` says the segment
  (``patch-cord`` or ``trunk``), ``medium`` stays the link's; a cord's ``part`` is the module's
  fibre part at the cord's ordered length, a trunk's the trunk part at its length; the trunk row
  carries the link's tray route, a cord ``(in rack)``, or ``C01 > C-P1`` when its panel stands
  in a patch rack (the racks it runs between, from the row's A end).
* **Several fibres per port** (800G SR8: two MPO per port; duplex links of several pairs): one
  cord row per fibre per end, ``cable_id`` suffixed ``.1``, ``.2``, each on its own panel port.
* Rows follow the schedule row's A end: when the schedule turned a link round (its B end sorts
  first), its segments are listed from the B end, each with its ends swapped.

Made column by column (:class:`_Segments`): the rows of the links that stay direct are gathered
from the link table's columns, a paneled link's block of rows is placed by integer offsets, and
the cord rows' cells (labels, ports, lengths, parts) are joined as object arrays over the
channels' integer codes (:mod:`model.outputs.schedule_segment_ports`); only the trunk rows
(~100k at zoned XL) are made one by one. A row tuple per segment (~1.2 M at zoned XL) made in
Python was ~10 s of that hall's schedule.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter, eq

import numpy as np

from model.catalog.parts import part_number_for
from model.catalog.structured import structured_catalog
from model.common.arrays import FirstSeen, unique_inverse
from model.outputs.bom_parts import row_number
from model.outputs.schedule_columns import (
    PLANT_ROW,
    SCHEDULE_COLUMNS,
    TURNED,
    objects,
    unique_pairs,
)
from model.outputs.schedule_segment_cells import (
    Codes,
    EndLabel,
    LinkCells,
    by_value,
    deduplicated,
    device_end,
    fill,
    gathered_cells,
    num,
    reverse_route,
    rounded_coded,
)
from model.outputs.schedule_segment_ports import Middles, number_ports, trunk_end_ports
from model.outputs.schedule_segment_table import (
    JOINED,
    Coded,
    CodedOut,
    Joined,
    texts,
)
from model.structured.channels import channel_plant_rows, channel_rows_of_plant_rows
from model.structured.layout import structured_layout, uses_structured

PATCH_CORD, TRUNK = "patch-cord", "trunk"
_PART, _LENGTH_M, _ORDERED_M = attrgetter("part"), attrgetter("length_m"), attrgetter("ordered_m")
_END = ("rack", "u", "device", "port")
assert SCHEDULE_COLUMNS[3:11] == tuple(f"{e}_{k}" for e in "ab" for k in _END)
assert SCHEDULE_COLUMNS[16:20] == ("a_cage", "b_cage", "a_module", "b_module")


def segment_columns(design, plant, codes: Codes, layout=None) -> dict[str, list] | None:
    """The schedule's columns (``SCHEDULE_COLUMNS`` -> a list per row) with each paneled link's
    row of the link table (``codes``: its columns, one row per link in schedule order)
    replaced by its segments; None when no link runs through panels (the link table stands).
    ``layout``: the design's structured layout when the caller has it, else built here."""
    out = segment_cells(design, plant, codes, layout)
    return None if out is None else {name: out.full(name) for name in SCHEDULE_COLUMNS}


def segment_cells(design, plant, codes: Codes, layout=None, forget=None) -> CodedOut | None:
    """The columns of :func:`segment_columns` as :class:`CodedOut` (coded cells), or None.
    ``forget(name)``: the link table lets go of a column it keeps (its labels, once the
    channels are ordered and the direct rows made: ~35 MB at zoned XL, at the peak)."""
    if not uses_structured(design):
        return None
    if layout is None:
        layout = structured_layout(plant)
    if not layout.channels.structured:
        return None
    return _Segments(design, layout, codes, forget, plant).columns()


class _Segments:
    """The per-segment schedule of one layout, made column by column (see the module docstring)."""

    def __init__(self, design, layout, codes: Codes, forget=None, plant=None) -> None:
        self.design, self.layout, self.forget = design, layout, forget
        self._fibre_parts: tuple[list[str], np.ndarray] | None = None  # the cords' part codes
        # Columns are read as (values, code per row) (ScheduleTable.codes): the link table
        # then never makes the per-row lists of the columns every paneled row replaces.
        self.codes = codes
        self.link_ids: Sequence[str] = codes("link_id")[0]  # one value per row
        self.trunks = {t.id: t for t in layout.trunks}
        channels = layout.channels
        n_rows = len(channels.link_ids)
        # Per channel row: its cord pairs (rows of the cord table) in cord order, and copies.
        cords = layout.cords
        n_pairs = len(cords.link_ids)
        if cords.link_ids == channels.link_ids:
            # A cord pair per channel row, in the rows' order (what the layout lays): the
            # pairs' rows without a lookup of each link id (~0.15 s at zoned XL)
            pair_row = np.arange(n_pairs, dtype=np.int64)
        else:
            pair_row = _pair_rows(channels, cords)
        valid = np.flatnonzero(pair_row >= 0)
        self.pairs = valid[np.argsort(pair_row[valid], kind="stable")]
        count = np.bincount(pair_row[valid], minlength=n_rows)
        self.pair_start = np.cumsum(count) - count
        self.copies = np.maximum(count, 1)
        # Per channel row: its middle (its leg's, or its own: cassette ports, a polarity record).
        legs = np.asarray(channels.legs, dtype=np.int64)
        own = np.asarray(channels.leg_cassettes, dtype=bool)[legs] if n_rows else legs > 0
        own[channels.rows_of(channels.records)] = True
        own_rows = np.flatnonzero(own)
        middles = list(channels.middles)
        middles += [channels.middle_of(channels.link_ids[r]) for r in own_rows.tolist()]
        self.middle = legs.copy()
        self.middle[own_rows] = len(channels.middles) + np.arange(len(own_rows))
        shapes = np.full(len(middles), -1, dtype=np.int64)
        shapes[: len(channels.middles)] = channels.leg_shape
        self.mids = Middles(design, self.trunks, middles, shapes)
        # Per row of the link table: its channel row (-1: a link that stays direct).
        self.channel_of = _channel_of(channels, codes, plant, self.link_ids)
        order_rows = self._label_order(channels.link_ids, codes("label"))
        ordered_copies = self.copies[order_rows]
        self.ports, self.unit_middle = number_ports(
            self.mids, self.middle[order_rows], ordered_copies
        )
        self.unit_start = np.empty(n_rows, dtype=np.int64)
        self.unit_start[order_rows] = np.cumsum(ordered_copies) - ordered_copies
        self.trunk_a, self.trunk_b = trunk_end_ports(self.mids, self.unit_middle, self.ports)
        self.mids.numbered()

    def _label_order(self, link_ids: list[str], labels: tuple[Sequence, np.ndarray]):
        """Step 1's order: the channel rows by their links' schedule labels (``labels``: the
        link table's column as values and codes), ties by link id. Each channel's label is
        gathered through its link-table row (a dict of the 393k labels of a zoned XL hall and
        a set of them were ~40 MB at the start of the schedule's peak), and the labels are
        sorted by id first only when two are the same (the schedule's labels are unique)."""
        n, n_rows = len(self.channel_of), len(link_ids)
        listed = np.flatnonzero(self.channel_of >= 0)
        table_row = np.full(n_rows, n, dtype=np.int64)  # n: no row (a label "")
        table_row[self.channel_of[listed]] = listed
        values, codes = labels
        cells = np.empty(n + 1, dtype=object)
        cells[:n], cells[n] = objects(values, len(values))[codes], ""

        def labels_of(rows: np.ndarray) -> list[str]:
            return [label or "" for label in cells[table_row[rows]].tolist()]

        rows = np.arange(n_rows, dtype=np.int64)
        texts = labels_of(rows)
        by_label = sorted(range(n_rows), key=texts.__getitem__)
        in_order = list(map(texts.__getitem__, by_label))
        if any(map(eq, in_order[1:], in_order[:-1])):  # a tie: by id, then (stable) label
            by_id = sorted(range(n_rows), key=link_ids.__getitem__)
            rows = np.asarray(by_id, dtype=np.int64)
            texts = labels_of(rows)
            by_label = sorted(range(n_rows), key=texts.__getitem__)
        return rows[by_label]

    def columns(self) -> CodedOut:
        """Step 2: the rows, in the schedule's order (a paneled link's A-end cords, the trunks
        it lists first, its B-end cords; from its B end when the schedule turned it round)."""
        n = len(self.link_ids)
        channel = self.channel_of
        paneled = np.flatnonzero(channel >= 0)
        channel = channel[paneled]
        self.paneled_columns = cells = LinkCells(self.codes, paneled)
        swapped = self._swapped(cells)
        copies = self.copies[channel]
        listed_at, listed_row, listed_n = self._listed_trunks(channel)
        n_listed = np.bincount(listed_row, minlength=len(paneled))
        size = np.ones(n, dtype=np.int64)
        size[paneled] = 2 * copies + n_listed
        start = np.cumsum(size) - size
        out = CodedOut(int(size.sum()))
        direct = np.ones(n, dtype=bool)
        direct[paneled] = False
        direct_rows = np.flatnonzero(direct)
        if len(direct_rows):
            for name in SCHEDULE_COLUMNS:
                got = gathered_cells(self.codes, name, direct_rows)
                if name in JOINED:  # whole texts (not the link table's full list, kept here)
                    got = got.cells()
                out.put(name, start[direct_rows], got)
        if self.forget is not None:  # the link labels: read for the order and direct rows only
            self.forget("label")
        # Where each segment goes: its place in its link's block, counted from the B end
        # when the schedule turned the link round.
        p_start, p_size = start[paneled], size[paneled]

        def place(rows: np.ndarray, offset: np.ndarray) -> np.ndarray:
            last = p_size[rows] - 1
            return p_start[rows] + np.where(swapped[rows], last - offset, offset)

        for side in "ab":
            row = np.repeat(np.arange(len(paneled)), copies)
            k = np.arange(len(row)) - np.repeat(np.cumsum(copies) - copies, copies)
            offset = k if side == "a" else copies[row] + n_listed[row] + k
            ends = device_end(cells, swapped, side)
            self._cords(out, place(row, offset), side, row, k, channel, ends, swapped)
            del ends  # not held while the other end's cords are made
        rank = np.arange(len(listed_row)) - np.searchsorted(listed_row, listed_row)
        at = place(listed_row, copies[listed_row] + rank)
        self._trunks(out, at, channel, swapped, listed_at, listed_row, listed_n)
        return out

    def _swapped(self, cells: LinkCells) -> np.ndarray:
        """Per paneled row, whether its segments are listed from the link's B end: the link
        table turned the link round (:data:`TURNED`) and its B end is not named as its A end
        (same device name and port: listed as from the A end). Read from the table's codes:
        looking up ~0.4 M links and their A ends by id was ~0.3 s at zoned XL."""
        _, codes = self.codes(TURNED)
        turned = codes[cells.rows] == 1
        at = np.flatnonzero(turned)
        differ = np.zeros(len(at), dtype=bool)
        for name in ("device", "port"):
            a, b = cells[f"a_{name}"][at], cells[f"b_{name}"][at]
            differ |= a.cells() != b.cells()
        turned[at] = differ
        return turned

    def _listed_trunks(self, channel: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The trunks each paneled row lists (a trunk is one cable: listed under the first
        channel, in schedule order, that rides it): (trunk code, row, its trunk element's
        number in the row's middle), in row order."""
        mids = self.mids
        middle = self.middle[channel]
        trunk = mids.trunk[middle]
        width = trunk.shape[1]
        known = np.array([t in self.trunks for t in mids.trunk_ids] + [False], dtype=bool)
        valid = (np.arange(width) < mids.n_trunks[middle][:, None]) & known[trunk]
        flat = np.flatnonzero(valid.ravel())
        codes = trunk.ravel()[flat]
        # Each trunk's first place, in place order: by a running minimum per code, not the
        # sort np.unique makes of ~0.4 M trunk elements
        place = np.arange(len(codes))
        first_at = np.full(len(mids.trunk_ids), len(codes), dtype=np.int64)
        np.minimum.at(first_at, codes, place)
        first = first_at[codes] == place
        listed = flat[first]
        return codes[first], listed // width, listed % width

    def _cords(self, out, at, side, row, k, channel, device, swapped) -> None:
        """The cord rows of ``side`` ("a" or "b"): copy ``k`` of paneled row ``row``, at
        ``at`` of the output columns."""
        mids, cells = self.mids, self.paneled_columns
        ch = channel[row]
        pair = self.pairs[self.pair_start[ch] + k]
        unit = self.unit_start[ch] + k
        middle = self.unit_middle[unit]
        p = 0 if side == "a" else mids.n_points[middle] - 1
        point, port = mids.point[middle, p], self.ports[unit, p]
        names = self._point_names()
        port_text = texts(port)
        front = (
            EndLabel(self._point_heads()[point], port_text),
            names[0][point],
            names[1][point],
            names[2][point],
            port_text,
            "",
            "",
        )
        device = tuple(field[row] for field in device)
        pre_a, pre_b = (device, front) if side == "a" else (front, device)
        turned = swapped[row]
        link = cells["link_id"][row]
        # The link, then ":cord-a" (".1", ".2" more where a cord per fibre: most have one),
        # parts of one cell the writers join (no text made per cord here)
        suffix = f":cord-{side}"
        several = self.copies[ch] > 1
        if several.any():
            copy = texts(k + 1)
            suffixes = Coded(
                [f"{suffix}.{v}" for v in copy.values] + [suffix],
                np.where(several, copy.codes, len(copy.values)),
            )
        else:
            suffixes = Coded([suffix], np.zeros(len(row), dtype=np.int64))
        cable_id = Joined((link, suffixes))
        lengths, ordered, parts = self._cord_figures(side)
        values = {
            "cable_id": cable_id,
            "link_id": link,
            "speed_gbps": cells["speed_gbps"][row],
            "medium": cells["medium"][row],
            "medium_kind": PATCH_CORD,
            "route": self._cord_routes(pre_a[1], pre_b[1], turned),
            "length_m": lengths[pair],
            "ordered_length_m": ordered[pair],
            "part": parts[pair],
        }
        fill(out, at, values, pre_a, pre_b, turned)

    def _point_names(self) -> tuple[Coded, ...]:
        """Per patch point code: its rack name, U and name (coded by point code)."""
        names = self.mids.point_names
        every = np.arange(len(names), dtype=np.int64)
        return tuple(Coded([p[i] for p in names], every) for i in range(3))

    def _point_heads(self) -> Coded:
        """Per patch point code, the head of its port labels: ``{name}:``."""
        names = self.mids.point_names
        return Coded([f"{p[2]}:" for p in names], np.arange(len(names), dtype=np.int64))

    @staticmethod
    def _cord_routes(from_rack: Coded, to_rack: Coded, turned: np.ndarray) -> Coded:
        """A cord's route: ``(in rack)``, or the racks it runs between when its panel stands in
        a patch rack of the run (model.generators.patch_racks), the way its length was counted;
        from the row's A end. Made once per distinct (from, to, turned) rack name: the ends'
        codes count devices and patch points (a device end's values are one per device, both
        ends' lists laid end to end), ~130k keys at zoned XL for a few thousand rack pairs."""
        from_names, from_codes = by_value(from_rack)
        to_names, to_codes = by_value(to_rack)
        size = max(len(to_names), 1)
        uniq, inverse = unique_pairs(from_codes, to_codes * 2 + turned, 2 * size)
        values = []
        for k in uniq.tolist():
            a, b = divmod(k >> 1, size)
            a_rack, b_rack = from_names[a], to_names[b]
            if a_rack == b_rack:
                values.append("(in rack)")
            else:
                route = f"{a_rack} > {b_rack}"
                values.append(reverse_route(route) if k & 1 else route)
        return Coded(values, inverse)

    def _cord_figures(self, side: str) -> tuple[Coded, Coded, Coded]:
        """Per cord pair, the ``side`` cord's length and ordered length rounded as the schedule
        writes them, and its part number (one per fibre part and ordered length), each made
        once per distinct value (or pair of them), found by integer codes: a tuple per cord
        made and hashed twice was ~0.1 s of each side at zoned XL."""
        cords = self.layout.cords
        length = cords.a_m if side == "a" else cords.b_m
        ordered = cords.a_ordered if side == "a" else cords.b_ordered
        n = len(ordered)
        if self._fibre_parts is None:
            seen = FirstSeen()
            codes = np.fromiter(map(seen.__getitem__, cords.parts), np.int64, n)
            self._fibre_parts = (list(seen), codes)
        part_ids, part_code = self._fibre_parts
        seen_m = FirstSeen()
        ordered_code = np.fromiter(map(seen_m.__getitem__, ordered), np.int64, n)
        ordered_m = list(seen_m)
        # as dict keys, equal values are one (1 == 1.0, 0.0 == -0.0), as in a tuple key
        keys, inverse = unique_inverse(part_code * max(len(ordered_m), 1) + ordered_code)
        fibre_parts = self.design.catalog.fibre_parts
        numbers = []
        for part, at_m in (divmod(k, max(len(ordered_m), 1)) for k in keys.tolist()):
            fibre = fibre_parts.get(part_ids[part])
            got = part_number_for(fibre.part_number, ordered_m[at_m]) if fibre else ""
            numbers.append(row_number(got))
        parts = Coded(numbers, inverse)
        if all(v is None or (type(v) is float and v != 0.0) for v in ordered_m):
            rounded = Coded([num(v) for v in ordered_m], ordered_code)
        else:
            rounded = rounded_coded(ordered)
        return rounded_coded(length), rounded, parts

    def _trunks(self, out, at, channel, swapped, codes, rows, number) -> None:
        """The listed trunks' rows (``codes``), under paneled row ``rows``, the ``number``-th
        trunk of its middle, at ``at``: its ends the rear ports of all its legs
        (``R1-R3,R7``), its route the link's when it is the channel's only trunk."""
        mids, cells = self.mids, self.paneled_columns
        ch = channel[rows]
        unit, middle = self.unit_start[ch], self.middle[ch]
        names = self._point_names()
        ends = []
        for side, ranges in enumerate((self.trunk_a, self.trunk_b)):
            p = number + side
            point = mids.point[middle, p]
            cassette = mids.panel[middle, p] < 0
            rear = np.where(cassette, "R", "R" + texts(self.ports[unit, p]).cells())
            port = objects(ranges, len(ranges))[codes]
            none = np.array([v is None for v in port.tolist()], dtype=bool)
            port[none] = rear[none]
            if side == 0:  # a trunk leaving an intermediate adapter: its front ports
                front = np.flatnonzero(~cassette & (number > 0))
                port[front] = [t.replace("R", "") for t in port[front].tolist()]
            label = EndLabel(self._point_heads()[point], port)
            ends.append((label, names[0][point], names[1][point], names[2][point], port))
        cable_id = Coded(mids.trunk_ids, codes)  # the trunk's id
        trunks = list(map(self.trunks.__getitem__, cable_id.cells().tolist()))
        # Each trunk's fields read by one C loop per field (~100k trunks at zoned XL), its
        # part number made once per (trunk part, ordered m), coded by that pair
        ordered_m = list(map(_ORDERED_M, trunks))
        part_of = FirstSeen()  # (trunk part, ordered m) -> code, in order of first trunk
        keys = zip(map(_PART, trunks), ordered_m, strict=True)
        part_code = np.fromiter(map(part_of.__getitem__, keys), np.int64, len(trunks))
        catalog = structured_catalog()
        numbers = []
        for part, at_m in part_of:
            spec = catalog.trunks.get(part)
            numbers.append(row_number(part_number_for(spec.part_number, at_m) if spec else ""))
        turned = swapped[rows]
        # The link's route when it is the channel's only trunk; listed from the B end, a route
        # was turned round twice (as the rows were made).
        link_route = cells["route"][rows]
        known = link_route.values
        n_known = len(known)
        route_code = np.where(turned, link_route.codes + n_known, link_route.codes)
        # Each text once (turned twice, a route is nearly always itself): the writers format
        # a coded column once per value (~50k more at zoned XL)
        route = deduplicated(
            Coded(
                [*known, *(reverse_route(reverse_route(r)) for r in known), ""],
                np.where(mids.n_trunks[middle] == 1, route_code, 2 * n_known),
            )
        )
        values = {
            "cable_id": cable_id,
            "link_id": cells["link_id"][rows],
            "speed_gbps": cells["speed_gbps"][rows],
            "medium": cells["medium"][rows],
            "medium_kind": TRUNK,
            "route": route,
            "length_m": rounded_coded(list(map(_LENGTH_M, trunks))),
            "ordered_length_m": rounded_coded(ordered_m),
            # Coded by part number, not one value per trunk: the writers format the modules
            # and part run once per distinct row (~100k of them at zoned XL, a few hundred so)
            "part": deduplicated(Coded(numbers, part_code)),
        }
        near, far = ((*e, "", "") for e in ends)
        fill(out, at, values, near, far, turned)


def _pair_rows(channels, cords) -> np.ndarray:
    """Per cord pair, its link's channel row (-1: none): through the fibre rows both tables
    kept, else by the channel table's index of link ids."""
    fibre_rows, pairs = channels.fibre_rows, cords.fibre_rows
    if fibre_rows is not None and pairs is not None and len(fibre_rows) == len(channels.link_ids):
        rows = channels.column("fibre_rows", np.int64)
        size = int(max(rows.max(initial=-1), pairs.max(initial=-1))) + 1
        return channel_rows_of_plant_rows(rows, size)[pairs]  # the same inverse, on fibre rows
    row_of, n = channels.row_of, len(cords.link_ids)
    return np.fromiter(map(row_of.get, cords.link_ids, repeat(-1, n)), np.int64, n)


def _channel_of(channels, codes: Codes, plant, link_ids: Sequence[str]) -> np.ndarray:
    """Per row of the link table, its channel row (-1: a link that stays direct): through the
    rows' plant rows (the link table's ``PLANT_ROW`` codes) and the channels' own
    (:func:`~model.structured.channels.channel_plant_rows`), else by the channel table's
    index of link ids (a table of given rows, which has no plant rows)."""
    n = len(link_ids)
    try:
        plant_row = codes(PLANT_ROW)[1] if plant is not None else None
    except KeyError:
        plant_row = None
    if plant_row is None:
        row_of = channels.row_of
        return np.fromiter(map(row_of.get, link_ids, repeat(-1, n)), dtype=np.int64, count=n)
    n_plant = len(plant.link_ids)
    channel_of_plant = channel_rows_of_plant_rows(channel_plant_rows(plant, channels), n_plant + 1)
    return channel_of_plant[np.where(plant_row >= 0, plant_row, n_plant)]  # n_plant: -1 there
