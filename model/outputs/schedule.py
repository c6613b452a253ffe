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

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter

import numpy as np
from msgspec import Struct

from model.design.design import Design
from model.engine.routed_links import NO_MEDIUM, RoutedLinks
from model.outputs.bom_parts import row_number
from model.outputs.schedule_columns import (
    PLANT_ROW,
    SCHEDULE_COLUMNS,
    TURNED,
    coded,
    gathered,
    objects,
    per_value,
)
from model.outputs.schedule_labels import link_labels
from model.outputs.schedule_order import (
    DeviceColumns,
    KeptLinks,
    device_columns,
    end_codes,
    kept_links,
    schedule_order,
)
from model.outputs.schedule_routes import route_column
from model.outputs.writers.csv_writer import CodedColumns
from model.plant.links import PART_COLUMNS, LinkParts
from model.plant.physical_plant import PhysicalPlant, build_plant
from model.structured.layout import uses_structured

_NO_PARTS = ("", "", "", "", "", "")
_NUMBER_COLUMNS = ("a_module", "b_module", "part")  # part numbers: row_number's


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

    def forget(self, name: str) -> None:
        """Let go of column ``name``'s values when the table keeps them for a later reader (a
        table made by :func:`schedule_table` does); it is made again if asked for."""

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
    from model.outputs.schedule_segments import segment_cells

    # The layout the plant's items were counted from: built once per schedule; the segments
    # are made column by column from the link rows' columns, as codes: the writers take them
    # as coded runs, and the per-row lists are made only when asked for.
    cells = segment_cells(design, plant, table.codes, phys.structured, table.forget)
    if cells is None:
        return table
    full = {name: cells.full for name in SCHEDULE_COLUMNS}
    return _LazyTable(
        lambda: ({name: make(name) for name, make in full.items()}, [], []),
        cells.column,
        cells.writer_columns,
        cells.n,
        cells.unordered,
    )


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
    kept = kept_links(design, plant)
    devs = device_columns(design)
    ends = end_codes(design, kept.recs, kept.keep, devs.ids)
    columns = _LinkColumns(design, plant, phys, kept, devs, ends)
    want = set(SCHEDULE_COLUMNS) if only is None else set(only)
    return _LazyTable(
        partial(columns.full, want),
        columns.codes_of,
        columns.coded_columns if only is None else None,
        len(kept.ids),
        columns.unordered,
        columns.forget,
    )


class _LinkColumns:
    """The schedule's columns of the kept links in schedule order, each made on first use."""

    def __init__(
        self,
        design: Design,
        plant: RoutedLinks,
        phys: PhysicalPlant | None,
        kept: KeptLinks,
        devs: DeviceColumns,
        ends: tuple,
    ) -> None:
        self.trays, self.plant, self.phys, self.kept, self.devs = (
            design.trays,
            plant,
            phys,
            kept,
            devs,
        )
        self.na, self.nb, self.port_list, pca, pcb = ends
        self.swapped, first, second, order = schedule_order(devs, ends, kept.ids)
        self.order, self.n = order, len(kept.ids)
        self.found = kept.row >= 0
        self.safe = np.where(self.found, kept.row, 0)
        # ---- gathered in schedule order: what every column needs
        self.sw = self.swapped[order]
        self.fo, self.so = first[order], second[order]
        self.ids_o = objects(kept.ids, self.n)[order]
        pa_o, pb_o = pca[order], pcb[order]
        self.a_pcode, self.b_pcode = np.where(self.sw, pb_o, pa_o), np.where(self.sw, pa_o, pb_o)
        self.link_id = self.ids_o.tolist()
        self.dev_u_list = devs.u.tolist()
        media = plant.media
        self.m_o = np.where(kept.medium < 0, len(media), kept.medium)[order]
        self._codes: dict[str, tuple[Sequence, np.ndarray]] = {}
        self._texts: dict[str, list] = {}
        self._parts = None

    def part_text(self):
        """The getter of the part columns (the physical plant's, built once when not given)."""
        if self._parts is None:
            phys = self.phys
            if phys is None or not phys.link_parts:
                phys = self.phys = build_plant(self.plant, with_links=True)
            self._parts = _part_columns(
                phys.link_parts, self.kept.row[self.order], self.ids_o, self.sw
            )
        return self._parts

    def codes_of(self, name: str) -> tuple[Sequence, np.ndarray]:
        """(distinct values, code per row in schedule order) of column ``name``; the plant's
        per-link values are taken for the links it has (none for the others)."""
        got = self._codes.get(name)
        if got is None:
            got = self._codes[name] = self._plant_codes(name) or self._other_codes(name)
        return got

    def _plant_codes(self, name: str) -> tuple[Sequence, np.ndarray] | None:
        """Codes of a column of the plant's per-link figures (speed, lengths, route), else None."""
        plant, found, safe, order = self.plant, self.found, self.safe, self.order
        if name == "speed_gbps":
            speed = np.where(found, plant.speed_gbps[safe], 0.0)[order]
            return per_value(speed, lambda s: s if s % 1 else int(s))
        if name == "length_m":
            length = np.where(found, plant.length_m[safe], np.nan)[order]
            return per_value(length, lambda v: round(v, 2) if v == v else None)
        if name == "ordered_length_m":
            medium = self.kept.medium
            ordered = np.where(found & (medium >= 0), plant.ordered_m[safe], np.nan)[order]
            return per_value(ordered, lambda v: round(v, 3) if v == v else None)
        if name == "route":
            status = np.where(found, plant.status[safe].astype(np.int64), NO_MEDIUM)
            drop = self.devs.drop
            texts, route = route_column(
                plant,
                self.trays,
                status,
                drop[self.na],
                drop[self.nb],
                self.swapped,
                self.kept.ids,
                self.kept.row,
            )
            return texts, route[order]
        return None

    def _other_codes(self, name: str) -> tuple[Sequence, np.ndarray]:
        """Codes of a part, medium, per-row or end column."""
        media = self.plant.media
        if name == PLANT_ROW:
            return self.plant.link_ids, self.kept.row[self.order]
        if name == TURNED:
            return [False, True], self.sw.astype(np.int64)
        if name in PART_COLUMNS and name != "cable_id":
            return self.part_text()(name, coded=True)
        if name == "medium":
            return [m.id for m in media] + [""], self.m_o
        if name == "medium_kind":
            return [m.kind for m in media] + [""], self.m_o
        if name in ("link_id", "label", "cable_id"):  # one value per row
            return self.text(name), np.arange(self.n, dtype=np.int64)
        end, field_name = name[:2], name[2:]
        if field_name == "port":
            return self.port_list, self.a_pcode if end == "a_" else self.b_pcode
        devs = self.devs
        per_device = {
            "rack": devs.rack_name,
            "u": self.dev_u_list,
            "device": devs.names,
            "device_id": devs.ids,
        }
        return per_device[field_name], self.fo if end == "a_" else self.so

    def forget(self, name: str) -> None:
        """Drop column ``name``'s cached values and codes (made again when asked for)."""
        self._texts.pop(name, None)
        self._codes.pop(name, None)

    def text(self, name: str) -> list:
        """Column ``name`` as one value per row."""
        got = self._texts.get(name)
        if got is None:
            got = self._texts[name] = self._make_text(name)
        return got

    def _make_text(self, name: str) -> list:
        """Column ``name`` made per row: ids, labels and part texts as such, the rest gathered."""
        if name == "link_id":
            return self.link_id
        if name == "label":
            port_list = self.port_list
            port_names = objects(port_list, len(port_list))
            a_port, b_port = port_names[self.a_pcode].tolist(), port_names[self.b_pcode].tolist()
            ends = (self.fo, a_port, self.a_pcode), (self.so, b_port, self.b_pcode)
            names = (self.devs.rack_name, self.devs.u, port_list)
            return link_labels(self.kept.recs, self.order, names, *ends, self.link_id)
        if name in ("cable_id", "a_cage", "b_cage"):
            return self.part_text()(name)
        if name in ("a_u", "b_u"):
            return self.devs.u[self.fo if name == "a_u" else self.so].tolist()
        return gathered(*self.codes_of(name))

    def full(self, want: set[str]) -> tuple[dict[str, list], list[str], list[str]]:
        """The ``want``-ed columns as per-row lists, and the device ids of both ends."""
        columns = {name: self.text(name) for name in SCHEDULE_COLUMNS if name in want}
        return columns, self.text("a_device_id"), self.text("b_device_id")

    def unordered(self) -> int:
        """Rows with no orderable length."""
        values, codes = self.codes_of("ordered_length_m")
        none_at = [k for k, v in enumerate(values) if v is None]
        return int(np.isin(codes, none_at).sum()) if none_at else 0

    def coded_columns(self) -> list:
        """The same table for a CSV writer: an end's rack, U and device are one per device, and
        the medium, lengths, modules, part and route have few distinct rows."""
        devs, codes_of, text = self.devs, self.codes_of, self.text
        per_device = list(zip(devs.rack_name, self.dev_u_list, devs.names, strict=True))
        plant_figures = ("speed_gbps", "medium", "medium_kind", "length_m", "ordered_length_m")
        return [
            text("cable_id"),
            self.link_id,
            text("label"),
            CodedColumns(per_device, self.fo, 3),
            coded([codes_of("a_port")]),
            CodedColumns(per_device, self.so, 3),
            coded([codes_of("b_port")]),
            coded([codes_of(name) for name in plant_figures]),
            text("a_cage"),
            text("b_cage"),
            coded([codes_of(name) for name in ("a_module", "b_module", "part")]),
            coded([codes_of("route")]),
        ]


class _LazyTable(ScheduleTable):
    """A schedule made column-wise: its :attr:`coded` columns (what the CSV command writes)
    and the full per-row lists (``columns``, the device ids) on first use, and :meth:`codes`
    from the codes the columns are gathered by. The CSV of a big hall then never makes ~20
    lists of 393k cells it does not write, nor the NetBox export lists it reads as codes; a
    structured design's schedule, whose segment rows are made from codes, never codes the
    link rows it replaces (~0.5 s of CPU at zoned XL)."""

    def __init__(self, make, codes_of, make_coded, length: int, unordered, forget=None) -> None:
        self._forget = forget
        self._make = make
        self._made: tuple[dict[str, list], list[str], list[str]] | None = None
        self._codes_of = codes_of
        self._make_coded = make_coded
        self._coded: list | None = None
        self._length, self._unordered = length, unordered

    @property
    def coded(self) -> list | None:
        """The coded columns, made on first use (None when ``only`` was given)."""
        if self._coded is None and self._make_coded is not None:
            self._coded, self._make_coded = self._make_coded(), None
        return self._coded

    @coded.setter
    def coded(self, value: list | None) -> None:
        self._coded, self._make_coded = value, None

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

    def forget(self, name: str) -> None:
        if self._forget is not None:
            self._forget(name)

    def codes(self, name: str) -> tuple[Sequence, np.ndarray]:
        return self._codes_of(name)


def _part_columns(parts, rows: np.ndarray, own_ids: np.ndarray, swapped: np.ndarray):
    """A getter of the (cable_id, a_cage, b_cage, a_module, b_module, part) columns of plant
    ``rows`` (-1: a link missing from the plant), the two ends exchanged where ``swapped``: the
    getter gives a column's list, or with ``coded=True`` its (distinct texts, code per row). A
    link the plant lists no parts for runs on a cable of its own id with nothing else known."""
    if isinstance(parts, LinkParts):
        code = {name: parts.codes(name, rows) for name in PART_COLUMNS}
        # The module and cable part numbers as the BOM lists them (one text per distinct one).
        numbers = {
            name: objects(
                [row_number(n) for n in parts.names(name).tolist()], len(parts.names(name))
            )
            for name in _NUMBER_COLUMNS
        }
        for x, y in (("a_cage", "b_cage"), ("a_module", "b_module")):
            code[x], code[y] = (
                np.where(swapped, code[y], code[x]),
                np.where(swapped, code[x], code[y]),
            )

        def coded_text(name: str, coded: bool = False):
            if name in numbers:
                return (
                    (numbers[name].tolist(), code[name])
                    if coded
                    else numbers[name][code[name]].tolist()
                )
            if coded:  # code -1 is the last name, ""
                return parts.names(name).tolist(), code[name]
            return parts.text(name, code[name], own_ids)

        return coded_text
    ids = own_ids.tolist()
    got = [parts.get(lid) for lid in ids]
    tup = [g if g is not None else (lid, *_NO_PARTS[1:]) for g, lid in zip(got, ids, strict=True)]
    cols = [list(map(itemgetter(k), tup)) for k in range(6)]
    sw = swapped.tolist()
    for xi, yi in ((1, 2), (3, 4)):
        a, b = cols[xi], cols[yi]
        cols[xi] = [q if s else p for p, q, s in zip(a, b, sw, strict=True)]
        cols[yi] = [p if s else q for p, q, s in zip(a, b, sw, strict=True)]
    by_name = dict(zip(PART_COLUMNS, cols, strict=True))
    for name in _NUMBER_COLUMNS:  # as the BOM lists them
        by_name[name] = [row_number(n) for n in by_name[name]]

    def listed_text(name: str, coded: bool = False):
        if coded:
            values = list(dict.fromkeys(by_name[name]))
            at = {v: k for k, v in enumerate(values)}
            return values, np.fromiter(map(at.__getitem__, by_name[name]), np.int64, len(ids))
        return by_name[name]

    return listed_text
