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

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import eq

import numpy as np

from model.catalog.parts import part_number_for
from model.catalog.structured import structured_catalog
from model.common.arrays import FirstSeen, unique_inverse
from model.outputs.bom_parts import row_number
from model.outputs.schedule_columns import SCHEDULE_COLUMNS, TURNED, objects
from model.outputs.schedule_segment_ports import Middles, number_ports, trunk_end_ports
from model.outputs.schedule_segment_table import (
    PER_ROW,
    Coded,
    CodedOut,
    as_coded,
    from_codes,
    pick,
    texts,
)
from model.structured.layout import structured_layout, uses_structured

PATCH_CORD, TRUNK = "patch-cord", "trunk"
_END = ("rack", "u", "device", "port")
assert SCHEDULE_COLUMNS[3:11] == tuple(f"{e}_{k}" for e in "ab" for k in _END)
assert SCHEDULE_COLUMNS[16:20] == ("a_cage", "b_cage", "a_module", "b_module")


# value -> round(value, 3). Rounding to digits formats the float (~1 us) and a zoned XL
# schedule rounds 1.8 M lengths of a few thousand distinct values. Floats only, zero apart:
# 1 == 1.0 and 0.0 == -0.0 as keys, though they round to different things.
_ROUNDED: dict[float, float] = {}


def _num(value: float | None) -> float | None:
    if value is None or value != value:  # NaN: not orderable
        return None
    if type(value) is not float or value == 0.0:
        return round(value, 3)
    got = _ROUNDED.get(value)
    if got is None:
        if len(_ROUNDED) >= 200_000:  # bounded: a design of all-distinct lengths
            _ROUNDED.clear()
        got = _ROUNDED[value] = round(value, 3)
    return got


def _rounded(values: list) -> np.ndarray:
    """``[_num(v) for v in values]`` as an object array, each distinct value rounded once (a
    zoned XL hall has 786k cord lengths of a few thousand values). A dict lookup per value
    when every distinct value is a nonzero float or None (as keys 1 == 1.0 and 0.0 == -0.0,
    though they round to different things), else a check per value."""
    distinct = set(values)
    if all(v is None or (type(v) is float and v != 0.0) for v in distinct):
        got = {v: _num(v) for v in distinct}  # NaN: each NaN object is its own key
        return objects(list(map(got.__getitem__, values)), len(values))
    floats = {v: round(v, 3) for v in distinct if type(v) is float and v == v and v != 0.0}
    return objects(
        [floats[v] if type(v) is float and v in floats else _num(v) for v in values],
        len(values),
    )


def _reverse_route(route: str) -> str:
    return " > ".join(reversed(route.split(" > "))) if " > " in route else route


# Column ``name`` of the link table as (its values, a code per row: row k holds
# values[codes[k]]): :meth:`model.outputs.schedule.ScheduleTable.codes`.
Codes = Callable[[str], tuple[Sequence, np.ndarray]]


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
    return _Segments(design, layout, codes, forget).columns()


class _Segments:
    """The per-segment schedule of one layout, made column by column (see the module docstring)."""

    def __init__(self, design, layout, codes: Codes, forget=None) -> None:
        self.design, self.layout, self.forget = design, layout, forget
        self._fibre_parts: tuple[list[str], np.ndarray] | None = None  # the cords' part codes
        # Columns are read as (values, code per row) (ScheduleTable.codes): the link table
        # then never makes the per-row lists of the columns every paneled row replaces.
        self.codes = codes
        self.link_ids: Sequence[str] = codes("link_id")[0]  # one value per row
        self.trunks = {t.id: t for t in layout.trunks}
        channels = layout.channels
        row_of = channels.structured
        n_rows = len(channels.link_ids)
        # Per channel row: its cord pairs (rows of the cord table) in cord order, and copies.
        cords = layout.cords
        n_pairs = len(cords.link_ids)
        if cords.link_ids == channels.link_ids and _rows_in_order(row_of, channels.link_ids):
            # A cord pair per channel row, in the rows' order (what the layout lays): the
            # pairs' rows without a lookup of each link id (~0.15 s at zoned XL)
            pair_row = np.arange(n_pairs, dtype=np.int64)
        else:
            pair_row = np.fromiter(
                map(row_of.get, cords.link_ids, repeat(-1, n_pairs)), np.int64, n_pairs
            )
        valid = np.flatnonzero(pair_row >= 0)
        self.pairs = valid[np.argsort(pair_row[valid], kind="stable")]
        count = np.bincount(pair_row[valid], minlength=n_rows)
        self.pair_start = np.cumsum(count) - count
        self.copies = np.maximum(count, 1)
        # Per channel row: its middle (its leg's, or its own: cassette ports, a polarity record).
        legs = np.asarray(channels.legs, dtype=np.int64)
        own = np.asarray(channels.leg_cassettes, dtype=bool)[legs] if n_rows else legs > 0
        own[[row_of[k] for k in channels.records if k in row_of]] = True
        own_rows = np.flatnonzero(own)
        middles = list(channels.middles)
        middles += [channels.middle_of(channels.link_ids[r]) for r in own_rows.tolist()]
        self.middle = legs.copy()
        self.middle[own_rows] = len(channels.middles) + np.arange(len(own_rows))
        shapes = np.full(len(middles), -1, dtype=np.int64)
        shapes[: len(channels.middles)] = channels.leg_shape
        self.mids = Middles(design, self.trunks, middles, shapes)
        # Per row of the link table: its channel row (-1: a link that stays direct).
        n = len(self.link_ids)
        self.channel_of = np.fromiter(
            map(row_of.get, self.link_ids, repeat(-1, n)), dtype=np.int64, count=n
        )
        order_rows = self._label_order(row_of, n_rows, codes("label"))
        ordered_copies = self.copies[order_rows]
        self.ports, self.unit_middle = number_ports(
            self.mids, self.middle[order_rows], ordered_copies
        )
        self.unit_start = np.empty(n_rows, dtype=np.int64)
        self.unit_start[order_rows] = np.cumsum(ordered_copies) - ordered_copies
        self.trunk_a, self.trunk_b = trunk_end_ports(self.mids, self.unit_middle, self.ports)
        self.mids.numbered()

    def _label_order(
        self, row_of: dict[str, int], n_rows: int, labels: tuple[Sequence, np.ndarray]
    ):
        """Step 1's order: the channel rows by their links' schedule labels (``labels``: the
        link table's column as values and codes), ties by link id. Each channel's label is
        gathered through its link-table row (a dict of the 393k labels of a zoned XL hall and
        a set of them were ~40 MB at the start of the schedule's peak), and the labels are
        sorted by id first only when two are the same (the schedule's labels are unique)."""
        n = len(self.channel_of)
        listed = np.flatnonzero(self.channel_of >= 0)
        table_row = np.full(n_rows, n, dtype=np.int64)  # n: no row (a label "")
        table_row[self.channel_of[listed]] = listed
        values, codes = labels
        cells = np.empty(n + 1, dtype=object)
        cells[:n], cells[n] = objects(values, len(values))[codes], ""

        def labels_of(rows: np.ndarray) -> list[str]:
            return [label or "" for label in cells[table_row[rows]].tolist()]

        rows = np.fromiter(row_of.values(), np.int64, n_rows)
        texts = labels_of(rows)
        by_label = sorted(range(n_rows), key=texts.__getitem__)
        in_order = list(map(texts.__getitem__, by_label))
        if any(map(eq, in_order[1:], in_order[:-1])):  # a tie: by id, then (stable) label
            rows = np.fromiter(map(row_of.__getitem__, sorted(row_of)), np.int64, n_rows)
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
        self.paneled_columns = cells = _Cells(self.codes, paneled)
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
                out.put(name, start[direct_rows], _gathered(self.codes, name, direct_rows))
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
            ends = _device_end(cells, swapped, side)
            self._cords(out, place(row, offset), side, row, k, channel, ends, swapped)
            del ends  # not held while the other end's cords are made
        rank = np.arange(len(listed_row)) - np.searchsorted(listed_row, listed_row)
        at = place(listed_row, copies[listed_row] + rank)
        self._trunks(out, at, channel, swapped, listed_at, listed_row, listed_n)
        return out

    def _swapped(self, cells: _Cells) -> np.ndarray:
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
            _joined(names[2].cells()[point], ":", port_text.cells()),
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
        cable_id = link + f":cord-{side}"
        several = self.copies[ch] > 1  # a cord per fibre: suffixed .1, .2 (most have one)
        if several.any():
            cable_id = cable_id + np.where(several, "." + texts(k + 1).cells(), "")
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
        _fill(out, at, values, pre_a, pre_b, turned)

    def _point_names(self) -> tuple[Coded, ...]:
        """Per patch point code: its rack name, U and name (coded by point code)."""
        names = self.mids.point_names
        every = np.arange(len(names), dtype=np.int64)
        return tuple(Coded([p[i] for p in names], every) for i in range(3))

    @staticmethod
    def _cord_routes(from_rack: Coded, to_rack: Coded, turned: np.ndarray) -> Coded:
        """A cord's route: ``(in rack)``, or the racks it runs between when its panel stands in
        a patch rack of the run (model.generators.patch_racks), the way its length was counted;
        from the row's A end. Made once per distinct (from, to, turned) rack name: the ends'
        codes count devices and patch points (a device end's values are one per device, both
        ends' lists laid end to end), ~130k keys at zoned XL for a few thousand rack pairs."""
        from_names, from_codes = _by_value(from_rack)
        to_names, to_codes = _by_value(to_rack)
        size = max(len(to_names), 1)
        key = (from_codes * size + to_codes) * 2 + turned
        uniq, inverse = unique_inverse(key)
        values = []
        for k in uniq.tolist():
            a, b = divmod(k >> 1, size)
            a_rack, b_rack = from_names[a], to_names[b]
            if a_rack == b_rack:
                values.append("(in rack)")
            else:
                route = f"{a_rack} > {b_rack}"
                values.append(_reverse_route(route) if k & 1 else route)
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
            rounded = Coded([_num(v) for v in ordered_m], ordered_code)
        else:
            rounded = _rounded_coded(ordered)
        return _rounded_coded(length), rounded, parts

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
            name = names[2][point]
            label = name.cells() + ":" + port
            ends.append((label, names[0][point], names[1][point], name, port))
        trunks = [self.trunks[t] for t in objects(mids.trunk_ids, len(mids.trunk_ids))[codes]]
        catalog = structured_catalog()
        part_of: dict[tuple[str, float], str] = {}  # (trunk part, ordered m) -> part number
        for key in {(t.part, t.ordered_m) for t in trunks}:
            spec = catalog.trunks.get(key[0])
            part_of[key] = row_number(part_number_for(spec.part_number, key[1]) if spec else "")
        turned = swapped[rows]
        # The link's route when it is the channel's only trunk; listed from the B end, a route
        # was turned round twice (as the rows were made).
        link_route = cells["route"][rows]
        known = link_route.values
        n_known = len(known)
        route_code = np.where(turned, link_route.codes + n_known, link_route.codes)
        # Each text once (turned twice, a route is nearly always itself): the writers format
        # a coded column once per value (~50k more at zoned XL)
        route = _deduplicated(
            Coded(
                [*known, *(_reverse_route(_reverse_route(r)) for r in known), ""],
                np.where(mids.n_trunks[middle] == 1, route_code, 2 * n_known),
            )
        )
        values = {
            "cable_id": objects([t.id for t in trunks], len(trunks)),
            "link_id": cells["link_id"][rows],
            "speed_gbps": cells["speed_gbps"][rows],
            "medium": cells["medium"][rows],
            "medium_kind": TRUNK,
            "route": route,
            "length_m": _rounded_coded([t.length_m for t in trunks]),
            "ordered_length_m": _rounded_coded([t.ordered_m for t in trunks]),
            # Coded by part number, not one value per trunk: the writers format the modules
            # and part run once per distinct row (~100k of them at zoned XL, a few hundred so)
            "part": _deduplicated(
                Coded(
                    [part_of[(t.part, t.ordered_m)] for t in trunks],
                    np.arange(len(trunks), dtype=np.int64),
                )
            ),
        }
        near, far = ((*e, "", "") for e in ends)
        _fill(out, at, values, near, far, turned)


def _rows_in_order(row_of: dict[str, int], link_ids: list[str]) -> bool:
    """Whether ``row_of`` maps each of ``link_ids`` to its position and nothing else (list
    compares: C loops, most items the same objects)."""
    n = len(link_ids)
    return len(row_of) == n and list(row_of) == link_ids and list(row_of.values()) == list(range(n))


class _Cells(dict):
    """The link table's columns at the paneled rows, each made on first use: a per-row column
    (``PER_ROW``) as an object array, the others as :class:`Coded`."""

    def __init__(self, codes: Codes, rows: np.ndarray) -> None:
        super().__init__()
        self.codes, self.rows = codes, rows

    def __missing__(self, name: str):
        got = self[name] = _gathered(self.codes, name, self.rows)
        return got


def _gathered(codes_of: Codes, name: str, rows: np.ndarray):
    """Column ``name`` of ``table`` at ``rows``: a per-row column (``PER_ROW``) as an object
    array (gathered by its codes), the others as :class:`Coded`."""
    values, codes = codes_of(name)
    if name in PER_ROW:
        return objects(values, len(values))[codes[rows]]
    return from_codes(values, codes[rows])


def _by_value(coded: Coded) -> tuple[list, np.ndarray]:
    """``coded``'s distinct values (in order of first place in its value list) and a code per
    row into them (int64: a product of two codes may pass int32, CodedOut's code type)."""
    at: dict = {}
    code_of = np.fromiter(
        (at.setdefault(v, len(at)) for v in coded.values), np.int64, len(coded.values)
    )
    return list(at), code_of[coded.codes]


def _deduplicated(coded: Coded) -> Coded:
    """The same cells with each distinct value once in the value list."""
    return Coded(*_by_value(coded))


def _device_end(cells: _Cells, swapped: np.ndarray, side: str) -> tuple:
    """The fields (label, rack, U, name, port, cage, module) of one end of the paneled rows'
    links (``side`` "a": the link's A end): the schedule row's end, its other end where the
    schedule turned the link round. The label is ``{rack}-U{u}-{port}``, made once per
    distinct rack and U (:func:`_end_labels`) and only for this end: made for both ends at
    once, the other's ~0.4 M texts were held through this one's cords (~25 MB at zoned XL,
    at the schedule's peak). The label and cage are object arrays, the others
    :class:`Coded`."""
    x, y = ("a", "b") if side == "a" else ("b", "a")
    rack, u, device, port, cage, module = (
        pick(swapped, cells[f"{x}_{k}"], cells[f"{y}_{k}"])
        for k in ("rack", "u", "device", "port", "cage", "module")
    )
    return (_end_labels(rack, u, port), rack, u, device, port, cage, module)


def _end_labels(rack: Coded, u: Coded, port: Coded) -> np.ndarray:
    """``{rack}-U{u}-{port}`` per row, an object array: the ``{rack}-U{u}-`` prefix made once
    per distinct (rack, U), then joined to the port by one object-array ``+`` (the ends'
    ports are nearly one per row: a text per distinct end would be one per row)."""
    size = max(len(u.values), 1)
    uniq, inverse = unique_inverse(rack.codes.astype(np.int64) * size + u.codes)
    prefixes = [
        f"{rack.values[r]}-U{int(u.values[v])}-"
        for r, v in (divmod(k, size) for k in uniq.tolist())
    ]
    ports = objects(port.values, len(port.values))
    return objects(prefixes, len(prefixes))[inverse] + ports[port.codes]


def _fill(out, at: np.ndarray, values: dict, pre_a: tuple, pre_b: tuple, turned) -> None:
    """Rows at ``at`` of the ``out`` columns (:class:`CodedOut`, or a list of object arrays in
    ``SCHEDULE_COLUMNS`` order): ``values`` (column -> cells), their ends ``pre_a`` to
    ``pre_b`` (label, rack, U, name, port, cage, module), from ``pre_b`` where ``turned``
    (the schedule lists the link from its B end), labelled A end to B end."""
    label = _joined(pick(turned, pre_a[0], pre_b[0]), " to ", pick(turned, pre_b[0], pre_a[0]))
    # Turned round, a row whose A end's label makes a " to " before its own (one holding a
    # space: "go to", "x to y") is split where the row's label splits first.
    at_turned = np.flatnonzero(turned)
    labels = pre_a[0][at_turned].tolist()
    for k in [k for k, a in enumerate(labels) if " " in a]:
        a, i = labels[k], at_turned[k]
        if f"{a} to ".find(" to ") != len(a):
            a_label, _, b_label = f"{a} to {pre_b[0][i]}".partition(" to ")
            label[i] = f"{b_label} to {a_label}"
    column = {name: j for j, name in enumerate(SCHEDULE_COLUMNS)}

    def put(name: str, cells) -> None:
        if isinstance(out, CodedOut):
            out.put(name, at, cells)
        else:
            out[column[name]][at] = cells.cells() if isinstance(cells, Coded) else cells

    if len(values) + 1 + 2 * len(pre_a[1:]) != len(SCHEDULE_COLUMNS):  # kept under python -O
        raise AssertionError("the segment rows do not fill every schedule column")
    for name, cells in {**values, "label": label}.items():
        put(name, cells)
    # Each end's field picked as it is put: the 14 picked columns held at once were ~40 MB
    # of codes per ~0.4 M cords at zoned XL, at the schedule's peak.
    for name, a, b in zip(_END + ("cage", "module"), pre_a[1:], pre_b[1:], strict=True):
        put(f"a_{name}", pick(turned, a, b))
        put(f"b_{name}", pick(turned, b, a))


def _joined(first: np.ndarray, separator: str, second: np.ndarray) -> np.ndarray:
    """``first + separator + second`` (object arrays of text), each cell joined once: the
    sum of object arrays makes a text per row of ``first + separator`` first (~30 MB of
    texts made and dropped per ~0.4 M cords at zoned XL, at the schedule's peak)."""
    return objects(
        map(separator.join, zip(first.tolist(), second.tolist(), strict=True)), len(first)
    )


def _rounded_coded(values: list) -> Coded:
    """:func:`_rounded` as :class:`Coded`: each distinct value rounded once and coded, when
    every one is a nonzero float or None (as keys 1 == 1.0 and 0.0 == -0.0, though they round
    to different things; NaN: each NaN object its own key), else per value."""
    distinct = dict.fromkeys(values)
    if not all(v is None or (type(v) is float and v != 0.0) for v in distinct):
        return as_coded(_rounded(values), len(values))
    at = {v: k for k, v in enumerate(distinct)}
    codes = np.fromiter(map(at.__getitem__, values), np.int64, len(values))
    return Coded([_num(v) for v in distinct], codes)
