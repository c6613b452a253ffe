"""Cabling schedule (cut sheet): a pure function of a design and its cable plant.

Counting conventions are the bill of materials' (:mod:`model.outputs.bom`): backplane links come with
the rack and are not listed; a link with no orderable part is listed with its ordered length empty.

The cabling schedule has one row per link. ``link_id`` is the link id (stable across edits, the
same id as in the design file and the NetBox export); ``cable_id`` the physical assembly it runs
on (the two links of a straight twin-port cable share it); ``label`` is the link's own label when
the user gave one, else ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` (A end first), made unique
with `` #{link_id}`` when two rows would share a label. The A end is the end that sorts first by
(rack name, U, port) in natural order, and rows are sorted by A rack, A U, A port, so installers
work rack by rack.

The schedule is built column-wise (:func:`schedule_table`): each column is gathered from the
plant's per-link arrays and per-device / per-port tables, the rows are put in order by one sort of
integer keys (natural-order ranks of the distinct rack and port names), and the route text is
made once per distinct route. :class:`ScheduleTable` is the entry point for writers (CSV, XLSX,
NetBox), which format per column. The CSV command writes its ``coded`` columns (runs of columns
given as their distinct rows and a code per row, formatted once per distinct row); the full
per-row lists are made only when a writer asks for them (the XLSX sheet); the NetBox export
asks for the few it needs (``only=``) and reads the others as codes (``ScheduleTable.codes``).
:func:`schedule_rows` gives the same rows as :class:`ScheduleRow` records for callers that want
one object per cable. A module that lists more rows per link (the per-segment rows of
structured cabling) builds a ``ScheduleTable`` with the same ``SCHEDULE_COLUMNS``
(``ScheduleTable.from_rows``) and the writers take it unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import repeat
from operator import attrgetter, itemgetter

import numpy as np
from msgspec import Struct

from model.common.arrays import FirstSeen, unique_sorted
from model.common.natural_sort import natural_key
from model.design.bulk_load import loaded_link_codes
from model.design.design import Design
from model.engine.routed_links import NO_MEDIUM, RoutedLinks
from model.outputs.schedule_columns import (
    SCHEDULE_COLUMNS,
    break_ties_by_id,
    coded,
    gathered,
    objects,
    per_value,
    sorted_by,
)
from model.outputs.schedule_routes import route_column
from model.outputs.writers.csv_writer import CodedColumns
from model.plant.links import PART_COLUMNS, LinkParts
from model.plant.physical_plant import PhysicalPlant, build_plant
from model.structured.layout import uses_structured

_A_END, _B_END, _DEVICE, _PORT, _LABEL = (
    attrgetter(n) for n in ("a", "b", "device", "port", "label")
)
_NO_PARTS = ("", "", "", "", "", "")


class ScheduleRow(Struct, frozen=True, kw_only=True):
    """One cable of the cut sheet (lengths in metres; ``ordered_length_m`` None = not orderable)."""

    cable_id: str
    link_id: str
    label: str
    a_rack: str
    a_u: int
    a_device: str
    a_port: str
    b_rack: str
    b_u: int
    b_device: str
    b_port: str
    speed_gbps: float
    medium: str
    medium_kind: str
    length_m: float | None
    ordered_length_m: float | None
    a_cage: str
    b_cage: str
    a_module: str
    b_module: str
    part: str
    route: str

    def as_row(self) -> tuple:
        return tuple(getattr(self, name) for name in SCHEDULE_COLUMNS)


@dataclass
class ScheduleTable:
    """The schedule column by column: ``columns[name]`` is a list, one value per row, rows in
    schedule order, for every name of ``SCHEDULE_COLUMNS`` (values as in :class:`ScheduleRow`).

    ``a_device_id`` / ``b_device_id`` are the device ids of the A and B ends (the NetBox export
    names devices by id); they are not cut-sheet columns. ``coded`` is the same table for a CSV
    writer, as :class:`CodedColumns` where a run of columns has few distinct rows (an end's rack,
    U and device are one per device), in ``SCHEDULE_COLUMNS`` order; None when not made.
    """

    columns: dict[str, list]
    a_device_id: list[str] = field(default_factory=list)
    b_device_id: list[str] = field(default_factory=list)
    coded: list | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.columns["link_id"])

    def column_list(self) -> list[list]:
        """The columns in ``SCHEDULE_COLUMNS`` order (what a writer formats one by one)."""
        return [self.columns[name] for name in SCHEDULE_COLUMNS]

    def csv_columns(self) -> list:
        """What :func:`model.outputs.writers.csv_writer.write_csv_columns` takes for this table: the
        coded columns when made, else :meth:`column_list` (the same CSV bytes either way)."""
        return self.coded if self.coded is not None else self.column_list()

    def unordered_count(self) -> int:
        """Rows with no ordered length (no orderable medium or length)."""
        return self.columns["ordered_length_m"].count(None)

    def codes(self, name: str) -> tuple[Sequence, np.ndarray]:
        """Column ``name`` (of ``SCHEDULE_COLUMNS`` but ``cable_id``, or ``a_device_id`` /
        ``b_device_id``) as (values, code per row): row ``k`` holds ``values[codes[k]]``, a
        negative code counting from the end. A table made by :func:`schedule_table` gives
        each column's few distinct values (a writer formats each once, a reader gathers by
        numpy), made when asked for even when ``only`` left the column out."""
        if name in ("a_device_id", "b_device_id"):
            values = getattr(self, name)
        else:
            values = self.columns[name]
        return values, np.arange(len(values), dtype=np.int64)

    def rows(self) -> list[ScheduleRow]:
        names = SCHEDULE_COLUMNS
        return [ScheduleRow(**dict(zip(names, values, strict=True))) for values in self.tuples()]

    def tuples(self):
        """Rows as tuples in ``SCHEDULE_COLUMNS`` order (an iterator)."""
        return zip(*self.column_list(), strict=True)

    @classmethod
    def from_rows(cls, rows: Sequence[ScheduleRow]) -> ScheduleTable:
        """A table of given rows (another module's rows, or a filtered schedule)."""
        return cls.from_tuples([row.as_row() for row in rows])

    @classmethod
    def from_tuples(cls, rows: Sequence[tuple]) -> ScheduleTable:
        """A table of rows given as tuples in ``SCHEDULE_COLUMNS`` order."""
        if not rows:
            return cls({name: [] for name in SCHEDULE_COLUMNS})
        values = zip(*rows, strict=True)
        return cls({name: list(col) for name, col in zip(SCHEDULE_COLUMNS, values, strict=True)})


def schedule_rows(
    design: Design,
    plant: RoutedLinks,
    phys: PhysicalPlant | None = None,
    *,
    segments: bool = True,
) -> list[ScheduleRow]:
    """One row per link (backplane links excluded), sorted for installers rack by rack.

    ``cable_id`` names the physical assembly (the two links of a straight twin-port cable share
    one: the smaller link id + "+"; a fibre or a single-link cable has its link's id);
    ``a_cage``/``b_cage`` the cages, ``a_module``/``b_module`` the module part numbers (empty
    for an integrated cable's end), ``part`` the cable's or fibre's part number at its length.
    """
    return schedule_table(design, plant, phys, segments=segments).rows()


def _ranks(names) -> dict[str, int]:
    """Rank of each distinct name in natural order (names with equal sort keys share a rank)."""
    out: dict[str, int] = {}
    rank, last = -1, None
    for name in sorted(set(names), key=natural_key):
        key = natural_key(name)
        if key != last:
            rank, last = rank + 1, key
        out[name] = rank
    return out


def schedule_table(
    design: Design,
    plant: RoutedLinks,
    phys: PhysicalPlant | None = None,
    *,
    segments: bool = True,
    only: Collection[str] | None = None,
) -> ScheduleTable:
    """The schedule of :func:`schedule_rows`, column by column (see the module docstring).

    ``segments``: a structured design's paneled links as their segments (patch cord / trunk /
    patch cord, :mod:`model.outputs.schedule_segments`), as installers pull them. ``False`` keeps one
    row per link end to end, with the device ids: what the NetBox export (which writes panels
    and trunks itself) and the point-to-point file need. A direct design is the same either way.

    ``only``: the names of ``SCHEDULE_COLUMNS`` the caller reads: ``columns`` then holds just
    those (the device ids too), the other columns are never made (the route and the parts cost
    ~0.3 s at XL), there are no ``coded`` columns and ``rows()`` is not available; any column
    can still be read as codes (:meth:`ScheduleTable.codes`). It is ignored where the rows
    become segments (they are made from whole rows).
    """
    if not segments or not uses_structured(design):
        return _link_table(design, plant, phys, only)
    # Segments are made from whole rows, whatever ``only`` says.
    if phys is None or not phys.link_parts:
        phys = build_plant(plant, with_links=True)
    table = _link_table(design, plant, phys, None)
    from model.outputs.schedule_segments import segment_rows

    # The layout the plant's items were counted from: built once per schedule. Rows stay
    # tuples from column to column (no ScheduleRow each: ~1.3 M of them at XL).
    layout = phys.structured
    rows = segment_rows(design, plant, list(table.tuples()), layout)
    return ScheduleTable.from_tuples(rows)


def _link_table(
    design: Design,
    plant: RoutedLinks,
    phys: PhysicalPlant | None,
    only: Collection[str] | None,
) -> ScheduleTable:
    """One row per link (backplane links excluded), column by column, in schedule order.

    Every column is gathered from per-link numpy arrays (plant rows, device positions, port
    ranks) after one sort; text is made per distinct value (a rack name, a medium, a rounded
    length) and gathered, and only the default label is joined per link (by numpy ``+`` of
    object arrays of per-device prefixes and port names).
    """
    racks, devices, trays = design.racks, design.devices, design.trays
    types = design.catalog.device_types
    media = plant.media
    # ---- which links: every design link but those on a rack backplane
    all_ids = list(design.links)
    all_recs = list(design.links.values())
    if all_ids == plant.link_ids:
        row_of = np.arange(len(all_ids), dtype=np.int64)
    else:
        index = plant.index
        row_of = np.fromiter(map(index.get, all_ids, repeat(-1)), np.int64, len(all_ids))
    known = row_of >= 0
    medium_all = np.full(len(all_ids), -1, dtype=np.int64)
    medium_all[known] = plant.medium_index[row_of[known]]
    backplane = np.array([m.kind == "backplane" for m in media] + [False])
    keep = np.flatnonzero(~backplane[np.where(medium_all < 0, len(media), medium_all)])
    if len(keep) != len(all_ids):
        ids = [all_ids[k] for k in keep.tolist()]
        recs = [all_recs[k] for k in keep.tolist()]
    else:
        ids, recs = all_ids, all_recs
    n = len(ids)
    row = row_of[keep]
    found = row >= 0
    safe = np.where(found, row, 0)
    medium = medium_all[keep]
    # ---- ends: per-device tables gathered by position
    device_ids = list(devices)
    na, nb, port_list, pca, pcb = _end_codes(design, recs, keep, device_ids)
    dev_objs = list(devices.values())
    rack_name = [racks[d.rack].name for d in dev_objs]
    rack_rank_of = _ranks(rack_name)
    dev_rack_rank = np.array([rack_rank_of[r] for r in rack_name], dtype=np.int64)
    dev_u = np.array([d.u for d in dev_objs], dtype=np.int64)
    # The drop point of each end (rack and the face its ports are on): cables between the same
    # two drops follow the same trays, so a route's text is made once per pair of drops.
    rack_no = {rid: k for k, rid in enumerate(dict.fromkeys(d.rack for d in dev_objs))}
    dev_drop = np.array(
        [2 * rack_no[d.rack] + (types[d.type].ports_face == "front") for d in dev_objs],
        dtype=np.int64,
    )
    port_rank_of = _ranks(port_list)
    port_rank = np.array([port_rank_of[p] for p in port_list], dtype=np.int64)
    pra, prb = port_rank[pca], port_rank[pcb]
    ka = np.stack([dev_rack_rank[na], dev_u[na], pra])
    kb = np.stack([dev_rack_rank[nb], dev_u[nb], prb])
    # B end first when it sorts first by (rack, U, port): compare the keys lexicographically
    swapped = np.zeros(n, dtype=bool)
    decided = np.zeros(n, dtype=bool)
    for k in range(3):
        swapped |= ~decided & (kb[k] < ka[k])
        decided |= ka[k] != kb[k]
    first = np.where(swapped, nb, na)
    second = np.where(swapped, na, nb)
    k_first, k_second = np.where(swapped, kb, ka), np.where(swapped, ka, kb)
    order = break_ties_by_id(*sorted_by(np.concatenate([k_first, k_second])), ids)
    # ---- gather in schedule order what every column needs
    sw = swapped[order]
    fo, so = first[order], second[order]
    ids_o = objects(ids, n)[order]
    pa_o, pb_o = pca[order], pcb[order]
    a_pcode, b_pcode = np.where(sw, pb_o, pa_o), np.where(sw, pa_o, pb_o)
    want = set(SCHEDULE_COLUMNS) if only is None else set(only)
    link_id = ids_o.tolist()
    names = [d.name for d in dev_objs]
    dev_u_list = dev_u.tolist()
    m_o = np.where(medium < 0, len(media), medium)[order]

    @cache
    def part_text():
        nonlocal phys
        if phys is None or not phys.link_parts:
            phys = build_plant(plant, with_links=True)
        return _part_columns(phys.link_parts, row[order], ids_o, sw)

    @cache
    def codes_of(name: str) -> tuple[Sequence, np.ndarray]:
        """(distinct values, code per row in schedule order) of column ``name``; the plant's
        per-link values are taken for the links it has (none for the others)."""
        if name == "speed_gbps":
            speed = np.where(found, plant.speed_gbps[safe], 0.0)[order]
            return per_value(speed, lambda s: s if s % 1 else int(s))
        if name == "length_m":
            length = np.where(found, plant.length_m[safe], np.nan)[order]
            return per_value(length, lambda v: round(v, 2) if v == v else None)
        if name == "ordered_length_m":
            ordered = np.where(found & (medium >= 0), plant.ordered_m[safe], np.nan)[order]
            return per_value(ordered, lambda v: round(v, 3) if v == v else None)
        if name == "route":
            status = np.where(found, plant.status[safe].astype(np.int64), NO_MEDIUM)
            texts, route = route_column(
                plant, trays, status, dev_drop[na], dev_drop[nb], swapped, ids, row
            )
            return texts, route[order]
        if name in PART_COLUMNS and name != "cable_id":
            return part_text()(name, coded=True)
        if name == "medium":
            return [m.id for m in media] + [""], m_o
        if name == "medium_kind":
            return [m.kind for m in media] + [""], m_o
        if name in ("link_id", "label", "cable_id"):  # one value per row
            return text(name), np.arange(n, dtype=np.int64)
        end, field_name = name[:2], name[2:]
        at = fo if end == "a_" else so
        if field_name == "port":
            return port_list, a_pcode if end == "a_" else b_pcode
        per_device = {"rack": rack_name, "u": dev_u_list, "device": names, "device_id": device_ids}
        return per_device[field_name], at

    @cache
    def text(name: str) -> list:
        if name == "link_id":
            return link_id
        if name == "label":
            port_names = objects(port_list, len(port_list))
            a_port, b_port = port_names[a_pcode].tolist(), port_names[b_pcode].tolist()
            ends = (fo, a_port, a_pcode), (so, b_port, b_pcode)
            return _link_labels(recs, order, (rack_name, dev_u, port_list), *ends, link_id)
        if name in ("cable_id", "a_cage", "b_cage"):
            return part_text()(name)
        if name in ("a_u", "b_u"):
            return dev_u[fo if name == "a_u" else so].tolist()
        return gathered(*codes_of(name))

    def full_columns() -> tuple[dict[str, list], list[str], list[str]]:
        columns = {name: text(name) for name in SCHEDULE_COLUMNS if name in want}
        return columns, text("a_device_id"), text("b_device_id")

    def unordered() -> int:
        values, codes = codes_of("ordered_length_m")
        none_at = [k for k, v in enumerate(values) if v is None]
        return int(np.isin(codes, none_at).sum()) if none_at else 0

    coded_columns = None
    if only is None:
        # The same table for a CSV writer: an end's rack, U and device are one per device, and
        # the medium, lengths, modules, part and route have few distinct rows.
        per_device = list(zip(rack_name, dev_u_list, names, strict=True))
        coded_columns = [
            text("cable_id"),
            link_id,
            text("label"),
            CodedColumns(per_device, fo, 3),
            coded([codes_of("a_port")]),
            CodedColumns(per_device, so, 3),
            coded([codes_of("b_port")]),
            coded(
                [
                    codes_of(name)
                    for name in (
                        "speed_gbps",
                        "medium",
                        "medium_kind",
                        "length_m",
                        "ordered_length_m",
                    )
                ]
            ),
            text("a_cage"),
            text("b_cage"),
            coded([codes_of(name) for name in ("a_module", "b_module", "part")]),
            coded([codes_of("route")]),
        ]
    return _LazyTable(full_columns, codes_of, coded_columns, n, unordered)


class _LazyTable(ScheduleTable):
    """A schedule made column-wise: its :attr:`coded` columns at once (what the CSV command
    writes), the full per-row lists (``columns``, the device ids) on first use, and
    :meth:`codes` from the codes the columns are gathered by. The CSV of a big hall then never
    makes ~20 lists of 393k cells it does not write, nor the NetBox export lists it reads as
    codes."""

    def __init__(self, make, codes_of, coded: list | None, length: int, unordered) -> None:
        self._make, self._made = make, None
        self._codes_of = codes_of
        self.coded = coded
        self._length, self._unordered = length, unordered

    def _full(self) -> tuple[dict[str, list], list[str], list[str]]:
        if self._made is None:
            self._made, self._make = self._make(), None
        return self._made

    columns = property(lambda self: self._full()[0])
    a_device_id = property(lambda self: self._full()[1])
    b_device_id = property(lambda self: self._full()[2])

    def __len__(self) -> int:
        return self._length

    def unordered_count(self) -> int:
        return self._unordered()

    def codes(self, name: str) -> tuple[Sequence, np.ndarray]:
        return self._codes_of(name)


def _end_codes(design: Design, recs: list, keep: np.ndarray, device_ids: list[str]) -> tuple:
    """(A device position, B device position, port names, A port code, B port code) of the
    kept links ``recs`` (``keep``: their positions in ``design.links``). A design unedited since
    its load has them as the loader's integer codes (no walk of the records); else they are read
    from the records."""
    codes = loaded_link_codes(design)
    if codes is not None and codes.device_ids == device_ids:
        total = codes.link_count
        return (
            codes.device[:total][keep],
            codes.device[total:][keep],
            list(codes.port_names),
            codes.port[:total][keep],
            codes.port[total:][keep],
        )
    n = len(recs)
    where = {d: k for k, d in enumerate(device_ids)}
    # The ends once, then their fields: two one-level getters beat one two-level getter.
    ends_a, ends_b = list(map(_A_END, recs)), list(map(_B_END, recs))
    na = np.fromiter(map(where.__getitem__, map(_DEVICE, ends_a)), np.int64, n)
    nb = np.fromiter(map(where.__getitem__, map(_DEVICE, ends_b)), np.int64, n)
    ports_a, ports_b = list(map(_PORT, ends_a)), list(map(_PORT, ends_b))
    port_list = list(set(ports_a).union(ports_b))
    port_no = {p: k for k, p in enumerate(port_list)}
    pca = np.fromiter(map(port_no.__getitem__, ports_a), np.int64, n)
    pcb = np.fromiter(map(port_no.__getitem__, ports_b), np.int64, n)
    return na, nb, port_list, pca, pcb


def _link_labels(recs: list, order: np.ndarray, names: tuple, a_end, b_end, ids):
    """The label column in schedule order (``order``: the position in ``recs`` of each row):
    the link's own label, else :func:`_labels`, with `` #{link_id}`` on a label two rows share.
    ``names``: (rack name and U per device, the port names); ``a_end``/``b_end``: (device
    position, port name and port code (in the port names) per row)."""
    rack_name, dev_u, port_list = names
    own = list(map(_LABEL, recs))
    own_o = objects(own, len(own))[order].tolist() if any(own) else None
    label = _labels(own_o, np.array(rack_name, dtype=object), dev_u, a_end[:2], b_end[:2])
    if own_o is None and _defaults_distinct(names, a_end, b_end):
        return label
    if len(set(label)) != len(label):
        seen = Counter(label)
        label = [
            f"{text} #{lid}" if seen[text] > 1 else text
            for text, lid in zip(label, ids, strict=True)
        ]
    return label


def _defaults_distinct(names: tuple, a_end, b_end) -> bool:
    """Whether the default labels ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` are certainly
    all distinct, decided on integer codes of their parts instead of a set of 393k strings
    (~80 ms at XL). False when that cannot be told: the caller then compares the strings.

    A label reads back into its parts one way only, so distinct parts make distinct labels,
    when no U is negative (its text is digits), no rack name holds "-U" or " to ", and no port
    name holds " to " nor ends in " to". Then the first "-U" of a label ends its A rack (an
    occurrence across the rack's end would need the "-" that follows the rack to be a "U"),
    the next "-" ends the U, and the first " to " ends the A port: " to " holds no "-", so it
    cannot lie across the dashes, nor inside a name, nor across the A port's end (only a port
    ending in " to" makes one there: "p to" + " to B" reads as "p" + " to to B"). The B end
    is what follows, read the same way. ``names``, ``a_end`` and ``b_end`` as
    :func:`_link_labels` takes them."""
    rack_name, dev_u, port_list = names
    (dev_a, _, code_a), (dev_b, _, code_b) = a_end, b_end
    if len(dev_u) and int(dev_u.min()) < 0:
        return False
    if any("-U" in t or " to " in t for t in set(rack_name)):
        return False
    if any(" to " in t or t.endswith(" to") for t in port_list):
        return False
    # One code per (rack name, U): the prefix a device's ends are labelled with
    prefix = FirstSeen()
    prefix_of = np.fromiter(
        map(prefix.__getitem__, zip(rack_name, dev_u.tolist(), strict=True)), np.int64, len(dev_u)
    )
    width = max(len(port_list), 1)
    if (len(prefix) * width) ** 2 >= 1 << 63:  # the pair key would not fit in int64
        return False
    end_a = prefix_of[dev_a] * width + code_a
    end_b = prefix_of[dev_b] * width + code_b
    key = end_a * (len(prefix) * width) + end_b
    return len(unique_sorted(key)) == len(key)


def _labels(own: list[str] | None, rack_names, dev_u, a_end, b_end) -> list[str]:
    """The link's own label (``own``; None: no link has one), else
    ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` (A end first), from a ``{rack}-U{u}-`` prefix
    made once per device (``a_end``/``b_end`` = device position array, port name list)."""
    prefix = rack_names + objects((f"-U{u}-" for u in dev_u.tolist()), len(dev_u))
    (dev_a, port_a), (dev_b, port_b) = a_end, b_end
    made = list(
        map(
            "".join,
            zip(prefix[dev_a].tolist(), port_a, repeat(" to "), prefix[dev_b].tolist(), port_b),
        )
    )
    if own is not None:  # the links' own labels, where given
        made = [text or default for text, default in zip(own, made, strict=True)]
    return made


def _part_columns(parts, rows: np.ndarray, own_ids: np.ndarray, swapped: np.ndarray):
    """A getter of the (cable_id, a_cage, b_cage, a_module, b_module, part) columns of plant
    ``rows`` (-1: a link missing from the plant), the two ends exchanged where ``swapped``: the
    getter gives a column's list, or with ``coded=True`` its (distinct texts, code per row). A
    link the plant lists no parts for runs on a cable of its own id with nothing else known."""
    if isinstance(parts, LinkParts):
        code = {name: parts.codes(name, rows) for name in PART_COLUMNS}
        for x, y in (("a_cage", "b_cage"), ("a_module", "b_module")):
            code[x], code[y] = (
                np.where(swapped, code[y], code[x]),
                np.where(swapped, code[x], code[y]),
            )

        def coded_text(name: str, coded: bool = False):
            if coded:  # code -1 is the last name, ""
                return parts.names(name).tolist(), code[name]
            return parts.text(name, code[name], own_ids)

        return coded_text
    ids = own_ids.tolist()
    got = [parts.get(lid) for lid in ids]
    tup = [g if g is not None else (lid, *_NO_PARTS[1:]) for g, lid in zip(got, ids, strict=True)]
    cols = [list(map(itemgetter(k), tup)) for k in range(6)]
    sw = swapped.tolist()
    for x, y in ((1, 2), (3, 4)):
        a, b = cols[x], cols[y]
        cols[x] = [q if s else p for p, q, s in zip(a, b, sw, strict=True)]
        cols[y] = [p if s else q for p, q, s in zip(a, b, sw, strict=True)]
    by_name = dict(zip(PART_COLUMNS, cols, strict=True))

    def listed_text(name: str, coded: bool = False):
        if coded:
            values = list(dict.fromkeys(by_name[name]))
            at = {v: k for k, v in enumerate(values)}
            return values, np.fromiter(map(at.__getitem__, by_name[name]), np.int64, len(ids))
        return by_name[name]

    return listed_text
