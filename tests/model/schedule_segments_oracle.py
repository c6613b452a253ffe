"""The per-segment schedule as it was made row by row (a tuple per segment, ports numbered
channel by channel), before :mod:`model.outputs.schedule_segments` made it column-wise: kept
only as the oracle of tests/model/test_schedule_segment_columns.py, never used by the model.
"""

from __future__ import annotations

from collections import defaultdict

from model.catalog.parts import part_number_for
from model.catalog.structured import structured_catalog
from model.outputs.bom_parts import row_number  # the BOM's number, as the schedule shows it
from model.outputs.schedule_columns import SCHEDULE_COLUMNS
from model.outputs.schedule_segment_cells import num as _num  # the schedule's mm rounding
from model.structured.channel_view import point_rack
from model.structured.layout import structured_layout, uses_structured

PATCH_CORD, TRUNK = "patch-cord", "trunk"
END_FIELDS = ("rack", "u", "device", "port", "cage", "module")
# Rows are tuples in SCHEDULE_COLUMNS order, and an end is a tuple (label, *END_FIELDS): a zoned
# XL hall has ~900k segment rows, and a Struct or dict per row and per end (made, replaced,
# swapped, then turned back into columns) was most of its schedule's time.
_C = {name: i for i, name in enumerate(SCHEDULE_COLUMNS)}
_LINK, _LABEL, _SPEED, _MEDIUM, _KIND, _ROUTE = (
    _C[n] for n in ("link_id", "label", "speed_gbps", "medium", "medium_kind", "route")
)
_A_DEVICE, _A_PORT = _C["a_device"], _C["a_port"]
_A_CAGE, _B_CAGE, _A_MODULE, _B_MODULE = (
    _C[n] for n in ("a_cage", "b_cage", "a_module", "b_module")
)
assert SCHEDULE_COLUMNS[3:11] == tuple(f"{e}_{k}" for e in "ab" for k in END_FIELDS[:4])
assert SCHEDULE_COLUMNS[16:20] == ("a_cage", "b_cage", "a_module", "b_module")


def _rounded(values: list) -> list:
    """``[_num(v) for v in values]``, each distinct float rounded once (a zoned XL hall has
    786k cord lengths of a few thousand values): a comprehension over a dict, not a call per
    value."""
    got = {v: round(v, 3) for v in set(values) if type(v) is float and v == v and v != 0.0}
    return [got[v] if type(v) is float and v in got else _num(v) for v in values]


def _ranges(ports: list[int]) -> str:
    """[1, 2, 3, 7] -> "R1-R3,R7"."""
    out: list[str] = []
    run: list[int] = []
    for p in sorted(set(ports)):
        if run and p == run[-1] + 1:
            run.append(p)
            continue
        if run:
            out.append(f"R{run[0]}" + (f"-R{run[-1]}" if len(run) > 1 else ""))
        run = [p]
    if run:
        out.append(f"R{run[0]}" + (f"-R{run[-1]}" if len(run) > 1 else ""))
    return ",".join(out)


class _Places:
    """Racks, names and U of the channels' patch points, and their port numbers."""

    def __init__(self, design, layout) -> None:
        self.design = design
        self.trunks = {t.id: t for t in layout.trunks}
        self.next_port: dict[str, int] = {}  # per adapter panel: the last port numbered
        self._named: dict[tuple[str, str], tuple] = {}

    def rack(self, elements, i: int) -> str | None:
        return point_rack(self.design, self.trunks, elements, i)

    def end(self, rack_id: str, element, port: str) -> tuple:
        key = (rack_id, element.object_id)
        named = self._named.get(key)
        if named is None:
            design = self.design
            device = design.devices.get(element.object_id)
            name = (device.name or device.id) if device is not None else element.object_id
            u = device.u if device is not None else 0
            named = self._named[key] = (design.racks[rack_id].name, u, name)
        rack, u, name = named
        return (f"{name}:{port}", rack, u, name, port, "", "")

    def front(self, point: tuple) -> tuple:
        """The front end of a patch point (element, rack, port) of step 1: its port."""
        element, rack_id, port = point
        return self.end(rack_id, element, str(port))

    def rear(self, point: tuple) -> tuple:
        """The rear end of a patch point: a cassette's MPO, an adapter's port from behind."""
        element, rack_id, port = point
        return self.end(rack_id, element, "R" if element.kind == "cassette" else f"R{port}")


def _device_end(design, end, cage: str, module: str) -> tuple:
    device = design.devices[end.device]
    rack = design.racks[device.rack].name
    return (f"{rack}-U{device.u}-{end.port}", rack, device.u, device.name, end.port, cage, module)


def _row(base: tuple, cable_id: str, kind: str, a: tuple, b: tuple, length, ordered, part, route):
    return (
        cable_id,
        base[_LINK],
        f"{a[0]} to {b[0]}",
        a[1],
        a[2],
        a[3],
        a[4],
        b[1],
        b[2],
        b[3],
        b[4],
        base[_SPEED],
        base[_MEDIUM],
        kind,
        length,
        ordered,
        a[5],
        b[5],
        a[6],
        b[6],
        part,
        route,
    )


def _swapped_row(
    base: tuple, cable_id: str, kind: str, a: tuple, b: tuple, length, ordered, part, route
):
    """``_swap(_row(...))`` made at once: the segment from A to B listed from its B end."""
    label = f"{a[0]} to {b[0]}"
    if label.find(" to ") == len(a[0]):
        a_label, b_label = a[0], b[0]
    else:  # an end label holding " to ": split where _swap splits, at the first
        a_label, _, b_label = label.partition(" to ")
    return (
        cable_id,
        base[_LINK],
        f"{b_label} to {a_label}",
        b[1],
        b[2],
        b[3],
        b[4],
        a[1],
        a[2],
        a[3],
        a[4],
        base[_SPEED],
        base[_MEDIUM],
        kind,
        length,
        ordered,
        b[5],
        a[5],
        b[6],
        a[6],
        part,
        _reverse_route(route),
    )


def _cord_route(from_rack: str, to_rack: str) -> str:
    """A cord's route: ``(in rack)``, or the racks it runs between when its panel stands in a
    patch rack of the run (model.generators.patch_racks), the way its length was counted."""
    return "(in rack)" if from_rack == to_rack else f"{from_rack} > {to_rack}"


def _reverse_route(route: str) -> str:
    return " > ".join(reversed(route.split(" > "))) if " > " in route else route


def segment_rows(design, plant, rows: list[tuple], layout=None) -> list[tuple]:
    """``rows`` (the schedule's, one per link, as tuples in ``SCHEDULE_COLUMNS`` order) with
    each paneled link replaced by its segments (``layout``: the design's structured layout when
    the caller has it, else built here)."""
    if not uses_structured(design):
        return rows
    if layout is None:
        layout = structured_layout(plant)
    structured = layout.structured_links()
    if not structured:
        return rows
    places = _Places(design, layout)
    # Per link: its cord pairs (rows of the cord table), one per fibre (pair), in order.
    pairs_of: dict[str, list[int]] = defaultdict(list)
    for k, link_id in enumerate(layout.cords.link_ids):
        pairs_of[link_id].append(k)
    legs, trunk_ends, middle_of = _number_ports(rows, structured, layout.channels, places, pairs_of)
    segments = _Segments(design, layout.cords, places, trunk_ends, middle_of, pairs_of)
    # 2. Rows, in the schedule's order.
    result = []
    for row in rows:
        copies = legs.get(row[_LINK])
        if copies is None:
            result.append(row)
        else:
            result.extend(segments.of_link(row, copies))
    return result


def _number_ports(rows: list[tuple], structured, table, places: _Places, pairs_of: dict) -> tuple:
    """Step 1, ports: every leg of every channel, panel by panel, the channels in the order of
    their schedule labels, as the NetBox export numbers them (model.outputs.netbox.panels), so
    a panel port is the same in both.

    Returns (per link, per copy, per patch point: (element, rack id, port number: the adapter
    panel's port, the cassette's LC port); per trunk, the panel ports of its A and B ends; per
    link, the elements between its cords). A point's front and rear ends (label, rack, U,
    name) are made by step 2 for the few it lists (the two ends of a copy, the ends of a trunk
    not listed yet): made here for every point of the 393k channels of a zoned XL hall, they
    were ~2.4 M tuples and strings, most of them never read."""
    legs: dict[str, list[list[tuple]]] = {}
    trunk_ends: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    label_of = {row[_LINK]: row[_LABEL] for row in rows}
    devices, next_port = places.design.devices, places.next_port
    # The elements between a channel's cords are read off the layout (no channel is made for
    # them), once for both steps.
    middle_of = {}
    # In label order, ties by id: sorted by id, then (stable) by label, as strings (a key
    # tuple per channel compared tuple by tuple was ~2x the time at zoned XL).
    ordered = sorted(structured)
    ordered.sort(key=lambda k: label_of.get(k) or "")
    for link_id in ordered:
        middle = middle_of[link_id] = table.middle_of(link_id)
        last = len(middle) - 1
        points = []  # (position, element, rack) of each patch point
        for i, element in enumerate(middle):
            if element.kind == "panel" or element.kind == "cassette":
                device = devices.get(element.object_id)  # point_rack's first answer, inline
                rack_id = device.rack if device is not None else places.rack(middle, i)
                points.append((i, element, rack_id))
        copies = max(1, len(pairs_of[link_id]))
        per_copy = []
        for k in range(copies):
            ends = []
            for i, element, rack_id in points:
                if element.kind == "cassette":
                    port = element.port + (-k if element.reverse else k)
                else:
                    port = next_port[element.object_id] = next_port.get(element.object_id, 0) + 1
                    # Before and after it: a trunk, or a cord (off the ends of the middle).
                    if i > 0 and middle[i - 1].kind == "trunk":
                        trunk_ends[middle[i - 1].object_id][1].append(port)
                    if i < last and middle[i + 1].kind == "trunk":
                        trunk_ends[middle[i + 1].object_id][0].append(port)
                ends.append((element, rack_id, port))
            per_copy.append(ends)
        legs[link_id] = per_copy
    return legs, trunk_ends, middle_of


class _Segments:
    """Step 2: the rows of a paneled link's segments, its cords and the trunks it lists first."""

    def __init__(self, design, cord_table, places: _Places, trunk_ends, middle_of, pairs_of):
        self.design, self.cord_table, self.places = design, cord_table, places
        self.trunk_ends, self.middle_of, self.pairs_of = trunk_ends, middle_of, pairs_of
        self.sc = structured_catalog()
        self.fibre_parts = design.catalog.fibre_parts
        self.listed_trunks: set[str] = set()
        # Per cord pair (a row of the cord table), column by column: its lengths rounded as
        # the schedule writes them and its two cords' part numbers (one per fibre part and
        # ordered length, :meth:`_cord_part`), made once for all cords instead of per row.
        self.part_of: dict[tuple[str, float], str] = {}  # (fibre part, ordered) -> part number
        parts = cord_table.parts
        self.a_m, self.b_m = _rounded(cord_table.a_m), _rounded(cord_table.b_m)
        self.a_ordered = _rounded(cord_table.a_ordered)
        self.b_ordered = _rounded(cord_table.b_ordered)
        self.a_part = self._cord_parts(parts, cord_table.a_ordered)
        self.b_part = self._cord_parts(parts, cord_table.b_ordered)

    def _cord_parts(self, parts: list[str], ordered: list[float]) -> list[str]:
        part_of = self.part_of
        for key in set(zip(parts, ordered, strict=True)).difference(part_of):
            self._cord_part(*key)
        return [part_of[key] for key in zip(parts, ordered, strict=True)]

    def of_link(self, row: tuple, copies: list):
        """The link's segment rows, A-end cord first (from its B end when the schedule row is
        turned round)."""
        design = self.design
        link = design.links[row[_LINK]]
        # Whether the schedule lists the link from its B end (its A end is the link's B).
        swapped = (row[_A_DEVICE], row[_A_PORT]) != (
            design.devices[link.a.device].name,
            link.a.port,
        )
        if swapped:
            cage_a, cage_b, mod_a, mod_b = (
                row[_B_CAGE],
                row[_A_CAGE],
                row[_B_MODULE],
                row[_A_MODULE],
            )
        else:
            cage_a, cage_b, mod_a, mod_b = (
                row[_A_CAGE],
                row[_B_CAGE],
                row[_A_MODULE],
                row[_B_MODULE],
            )
        make = _swapped_row if swapped else _row
        dev_a = _device_end(design, link.a, cage_a, mod_a)
        dev_b = _device_end(design, link.b, cage_b, mod_b)
        out_a, out_b = self._cords(row, copies, make, dev_a, dev_b)
        out_trunks = self._trunks(row, copies[0], make, swapped)
        if swapped:
            return reversed([*out_a, *out_trunks, *out_b])
        return [*out_a, *out_trunks, *out_b]

    def _cords(self, row: tuple, copies: list, make, dev_a: tuple, dev_b: tuple):
        """(A-end cord rows, B-end cord rows): one per fibre (pair) of the link at each end."""
        link_id = row[_LINK]
        places = self.places
        pairs = self.pairs_of[link_id]
        out_a: list = []
        out_b: list = []
        for k, ends in enumerate(copies):
            suffix = f".{k + 1}" if len(copies) > 1 else ""
            pair = pairs[k]
            front_a, front_b = places.front(ends[0]), places.front(ends[-1])
            out_a.append(
                make(
                    row,
                    f"{link_id}:cord-a{suffix}",
                    PATCH_CORD,
                    dev_a,
                    front_a,
                    self.a_m[pair],
                    self.a_ordered[pair],
                    self.a_part[pair],
                    _cord_route(dev_a[1], front_a[1]),
                )
            )
            out_b.append(
                make(
                    row,
                    f"{link_id}:cord-b{suffix}",
                    PATCH_CORD,
                    front_b,
                    dev_b,
                    self.b_m[pair],
                    self.b_ordered[pair],
                    self.b_part[pair],
                    _cord_route(front_b[1], dev_b[1]),
                )
            )
        return out_a, out_b

    def _cord_part(self, fibre_part: str, ordered_m: float) -> str:
        """The part number of a cord of ``fibre_part`` at ``ordered_m`` (once per pair)."""
        fpart = self.fibre_parts.get(fibre_part)
        part = row_number(part_number_for(fpart.part_number, ordered_m) if fpart else "")
        self.part_of[(fibre_part, ordered_m)] = part
        return part

    def _trunks(self, row: tuple, ends: list, make, swapped: bool) -> list[tuple]:
        """A row per trunk of the link not listed under an earlier link (a trunk is one cable)."""
        trunk_elements = [e for e in self.middle_of[row[_LINK]] if e.kind == "trunk"]
        out_trunks = []
        listed, places = self.listed_trunks, self.places
        for n, element in enumerate(trunk_elements):
            # Most trunks bundle several channels' legs and are listed already: that is asked
            # first (a trunk's id is its element's).
            if element.object_id in listed:
                continue
            trunk = places.trunks.get(element.object_id)
            if trunk is None:
                continue
            listed.add(trunk.id)
            near, far = places.rear(ends[n]), places.rear(ends[n + 1])
            a_ports, b_ports = self.trunk_ends[trunk.id]
            a_port = _ranges(a_ports) if a_ports else near[4]
            b_port = _ranges(b_ports) if b_ports else far[4]
            if (
                ends[n][0].kind == "panel" and n > 0
            ):  # a trunk leaving an intermediate adapter: front
                a_port = a_port.replace("R", "")
            a = (f"{near[3]}:{a_port}", *near[1:4], a_port, *near[5:])
            b = (f"{far[3]}:{b_port}", *far[1:4], b_port, *far[5:])
            tpart = self.sc.trunks.get(trunk.part)
            base_route = _reverse_route(row[_ROUTE]) if swapped else row[_ROUTE]
            out_trunks.append(
                make(
                    row,
                    trunk.id,
                    TRUNK,
                    a,
                    b,
                    _num(trunk.length_m),
                    _num(trunk.ordered_m),
                    row_number(
                        part_number_for(tpart.part_number, trunk.ordered_m) if tpart else ""
                    ),
                    base_route if len(trunk_elements) == 1 else "",
                )
            )
        return out_trunks
