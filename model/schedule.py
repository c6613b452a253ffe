"""Cabling schedule (cut sheet): a pure function of a design and its cable plant.

Counting conventions are the bill of materials' (:mod:`model.bom`): backplane links come with
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
NetBox), which format per column; :func:`schedule_rows` gives the same rows as
:class:`ScheduleRow` records for callers that want one object per cable. A module that lists
more rows per link (the per-segment rows of structured cabling) builds a ``ScheduleTable`` with
the same ``SCHEDULE_COLUMNS`` (``ScheduleTable.from_rows``) and the writers take it unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

import numpy as np
from msgspec import Struct

from model.bom import natural_key
from model.cabling import NO_MEDIUM, NO_TRAY_PATH, SAME_RACK, CablePlant
from model.design import Design
from model.plant import PhysicalPlant, build_plant
from model.structured_layout import uses_structured

SCHEDULE_COLUMNS = (
    "cable_id",
    "link_id",
    "label",
    "a_rack",
    "a_u",
    "a_device",
    "a_port",
    "b_rack",
    "b_u",
    "b_device",
    "b_port",
    "speed_gbps",
    "medium",
    "medium_kind",
    "length_m",
    "ordered_length_m",
    "a_cage",
    "b_cage",
    "a_module",
    "b_module",
    "part",
    "route",
)
_A_DEVICE, _B_DEVICE, _A_PORT, _B_PORT, _LABEL = (
    attrgetter(n) for n in ("a.device", "b.device", "a.port", "b.port", "label")
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
    names devices by id); they are not cut-sheet columns.
    """

    columns: dict[str, list]
    a_device_id: list[str] = field(default_factory=list)
    b_device_id: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.columns["link_id"])

    def column_list(self) -> list[list]:
        """The columns in ``SCHEDULE_COLUMNS`` order (what a writer formats one by one)."""
        return [self.columns[name] for name in SCHEDULE_COLUMNS]

    def rows(self) -> list[ScheduleRow]:
        names = SCHEDULE_COLUMNS
        return [ScheduleRow(**dict(zip(names, values, strict=True))) for values in self.tuples()]

    def tuples(self):
        """Rows as tuples in ``SCHEDULE_COLUMNS`` order (an iterator)."""
        return zip(*self.column_list(), strict=True)

    @classmethod
    def from_rows(cls, rows: Sequence[ScheduleRow]) -> ScheduleTable:
        """A table of given rows (another module's rows, or a filtered schedule)."""
        if not rows:
            return cls({name: [] for name in SCHEDULE_COLUMNS})
        values = list(zip(*(row.as_row() for row in rows), strict=True))
        return cls({name: list(col) for name, col in zip(SCHEDULE_COLUMNS, values, strict=True)})


def schedule_rows(
    design: Design,
    plant: CablePlant,
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


def _ranks(names: list[str]) -> dict[str, int]:
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
    plant: CablePlant,
    phys: PhysicalPlant | None = None,
    *,
    segments: bool = True,
) -> ScheduleTable:
    """The schedule of :func:`schedule_rows`, column by column (see the module docstring).

    ``segments``: a structured design's paneled links as their segments (patch cord / trunk /
    patch cord, :mod:`model.schedule_segments`), as installers pull them. ``False`` keeps one
    row per link end to end, with the device ids: what the NetBox export (which writes panels
    and trunks itself) and the point-to-point file need. A direct design is the same either way.
    """
    if phys is None or not phys.link_parts:
        phys = build_plant(plant, with_links=True)
    table = _link_table(design, plant, phys)
    if not segments or not uses_structured(design):
        return table
    from model.schedule_segments import segment_rows

    # The layout the plant's items were counted from: built once per schedule.
    layout = phys.structured
    return ScheduleTable.from_rows(segment_rows(design, plant, table.rows(), layout))


def _link_table(design: Design, plant: CablePlant, phys: PhysicalPlant | None) -> ScheduleTable:
    """One row per link (backplane links excluded), column by column, in schedule order."""
    racks, devices, trays = design.racks, design.devices, design.trays
    if phys is None or not phys.link_parts:
        phys = build_plant(plant, with_links=True)
    parts = phys.link_parts
    types = design.catalog.device_types
    index = plant.index
    media = plant.media
    # ---- which links: every design link but those on a rack backplane
    all_ids = list(design.links)
    row_of = np.fromiter(map(index.get, all_ids, [-1] * len(all_ids)), np.int64, len(all_ids))
    known = row_of >= 0
    medium_all = np.full(len(all_ids), -1, dtype=np.int64)
    medium_all[known] = plant.medium_index[row_of[known]]
    backplane = np.array([m.kind == "backplane" for m in media] + [False])
    keep = np.flatnonzero(~backplane[np.where(medium_all < 0, len(media), medium_all)])
    ids = [all_ids[k] for k in keep.tolist()] if len(keep) != len(all_ids) else all_ids
    recs = list(map(design.links.__getitem__, ids))
    n = len(ids)
    row = row_of[keep]
    found = row >= 0
    safe = np.where(found, row, 0)
    medium = medium_all[keep]
    # ---- ends: per-device tables gathered by position
    dev_a, dev_b = list(map(_A_DEVICE, recs)), list(map(_B_DEVICE, recs))
    port_a, port_b = list(map(_A_PORT, recs)), list(map(_B_PORT, recs))
    device_ids = list(dict.fromkeys(dev_a + dev_b))
    where = dict(zip(device_ids, range(len(device_ids)), strict=True))
    na = np.fromiter(map(where.__getitem__, dev_a), np.int64, n)
    nb = np.fromiter(map(where.__getitem__, dev_b), np.int64, n)
    dev_objs = [devices[d] for d in device_ids]
    rack_name = [racks[d.rack].name for d in dev_objs]
    rack_rank_of = _ranks(rack_name)
    dev_rack_rank = np.array([rack_rank_of[r] for r in rack_name], dtype=np.int64)
    dev_u = np.array([d.u for d in dev_objs], dtype=np.int64)
    dev_name = [d.name for d in dev_objs]
    # The drop point of each end (rack and the face its ports are on): cables between the same
    # two drops follow the same trays, so a route's text is made once per pair of drops.
    rack_no = {rid: k for k, rid in enumerate(dict.fromkeys(d.rack for d in dev_objs))}
    dev_drop = np.array(
        [2 * rack_no[d.rack] + (types[d.type].ports_face == "front") for d in dev_objs],
        dtype=np.int64,
    )
    port_rank_of = _ranks(port_a + port_b)
    pra = np.fromiter(map(port_rank_of.__getitem__, port_a), np.int64, n)
    prb = np.fromiter(map(port_rank_of.__getitem__, port_b), np.int64, n)
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
    order = np.lexsort(tuple(k_second[::-1]) + tuple(k_first[::-1]))
    order = _break_ties_by_id(order, np.concatenate([k_first, k_second]), ids)
    # ---- per-link values from the plant's arrays (links missing from the plant: none)
    status = np.where(found, plant.status[safe].astype(np.int64), NO_MEDIUM)
    speed = np.where(found, plant.speed_gbps[safe], 0.0)
    length = np.where(found, plant.length_m[safe], np.nan)
    ordered = np.where(found & (medium >= 0), plant.ordered_m[safe], np.nan)
    route = _route_column(plant, trays, status, dev_drop[na], dev_drop[nb], swapped, ids, found)
    # ---- gather everything in schedule order
    o = order.tolist()
    sw = swapped[order].tolist()
    fo, so = first[order].tolist(), second[order].tolist()
    ids_o = [ids[k] for k in o]
    a_rack = [rack_name[d] for d in fo]
    b_rack = [rack_name[d] for d in so]
    a_u = dev_u[first[order]].tolist()
    b_u = dev_u[second[order]].tolist()
    a_port = [port_b[k] if s else port_a[k] for k, s in zip(o, sw, strict=True)]
    b_port = [port_a[k] if s else port_b[k] for k, s in zip(o, sw, strict=True)]
    own = [recs[k].label for k in o]
    label = [
        text or f"{ar}-U{au}-{ap} to {br}-U{bu}-{bp}"
        for text, ar, au, ap, br, bu, bp in zip(
            own, a_rack, a_u, a_port, b_rack, b_u, b_port, strict=True
        )
    ]
    seen = Counter(label)
    if len(seen) != len(label):
        label = [
            f"{text} #{lid}" if seen[text] > 1 else text
            for text, lid in zip(label, ids_o, strict=True)
        ]
    got = list(map(parts.get, ids_o, [None] * n))
    tup = [g if g is not None else (lid, *_NO_PARTS[1:]) for g, lid in zip(got, ids_o, strict=True)]
    cage_a, cage_b = list(map(itemgetter(1), tup)), list(map(itemgetter(2), tup))
    mod_a, mod_b = list(map(itemgetter(3), tup)), list(map(itemgetter(4), tup))
    a_cage = [b if s else a for a, b, s in zip(cage_a, cage_b, sw, strict=True)]
    b_cage = [a if s else b for a, b, s in zip(cage_a, cage_b, sw, strict=True)]
    a_module = [b if s else a for a, b, s in zip(mod_a, mod_b, sw, strict=True)]
    b_module = [a if s else b for a, b, s in zip(mod_a, mod_b, sw, strict=True)]
    medium_names = [m.id for m in media] + [""]
    kind_names = [m.kind for m in media] + [""]
    m_o = np.where(medium < 0, len(media), medium)[order].tolist()
    columns = {
        "cable_id": list(map(itemgetter(0), tup)),
        "link_id": ids_o,
        "label": label,
        "a_rack": a_rack,
        "a_u": a_u,
        "a_device": [dev_name[d] for d in fo],
        "a_port": a_port,
        "b_rack": b_rack,
        "b_u": b_u,
        "b_device": [dev_name[d] for d in so],
        "b_port": b_port,
        "speed_gbps": [s if s % 1 else int(s) for s in speed[order].tolist()],
        "medium": [medium_names[m] for m in m_o],
        "medium_kind": [kind_names[m] for m in m_o],
        "length_m": _rounded(length[order].tolist(), 2),
        "ordered_length_m": _rounded(ordered[order].tolist(), 3),
        "a_cage": a_cage,
        "b_cage": b_cage,
        "a_module": a_module,
        "b_module": b_module,
        "part": list(map(itemgetter(5), tup)),
        "route": [route[k] for k in o],
    }
    return ScheduleTable(
        columns,
        a_device_id=[device_ids[d] for d in fo],
        b_device_id=[device_ids[d] for d in so],
    )


def _rounded(values: list[float], digits: int) -> list[float | None]:
    """``round(v, digits)`` of each value (None for NaN), rounded once per distinct value."""
    memo = {v: round(v, digits) for v in set(values) if v == v}
    return list(map(memo.get, values))


def _break_ties_by_id(order: np.ndarray, keys: np.ndarray, ids: list[str]) -> np.ndarray:
    """Rows whose sort keys are all equal (two links between the same two ports) by link id."""
    if len(order) < 2:
        return order
    sorted_keys = keys[:, order]
    same = (sorted_keys[:, 1:] == sorted_keys[:, :-1]).all(axis=0)
    if not same.any():
        return order
    out = order.copy()
    starts = np.flatnonzero(same & ~np.concatenate([[False], same[:-1]]))
    for s in starts.tolist():
        e = s + 1
        while e < len(same) and same[e]:
            e += 1
        out[s : e + 1] = sorted(order[s : e + 1].tolist(), key=ids.__getitem__)
    return out


def _route_column(plant, trays, status, drop_a, drop_b, swapped, ids, found) -> list[str]:
    """Route text of every link: made once per (drop pair, direction) and gathered."""
    n = len(ids)
    out = [""] * n
    same = (status & SAME_RACK) != 0
    floor = ~same & ((status & NO_TRAY_PATH) != 0)
    on_tray = np.flatnonzero(~same & ~floor & found)
    width = int(max(drop_a.max(initial=0), drop_b.max(initial=0))) + 1
    code = (drop_a[on_tray] * width + drop_b[on_tray]) * 2 + swapped[on_tray]
    uniq, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    paths: dict[int, list[str] | None] = {}
    texts = []
    for c, k in zip(uniq.tolist(), on_tray[first].tolist(), strict=True):
        pair = c // 2
        if pair not in paths:
            paths[pair] = _route_trays(plant, ids[k])
        texts.append(_route_text(paths[pair], int(status[k]), trays, bool(c % 2)))
    for k, t in zip(on_tray.tolist(), inverse.reshape(-1).tolist(), strict=True):
        out[k] = texts[t]
    for k in np.flatnonzero(same).tolist():
        out[k] = "(in rack)"
    for k in np.flatnonzero(floor).tolist():
        out[k] = "(no tray path: floor run)"
    return out


def _route_trays(plant: CablePlant, link_id: str) -> list[str] | None:
    try:
        return list(plant.route_tray_ids(link_id))
    except (AttributeError, KeyError, IndexError):
        return None


def _route_text(tray_ids: list[str] | None, status: int, trays: dict, swapped: bool) -> str:
    if status & SAME_RACK:
        return "(in rack)"
    if status & NO_TRAY_PATH:
        return "(no tray path: floor run)"
    if tray_ids is None:
        return ""
    ordered = reversed(tray_ids) if swapped else tray_ids
    names: list[str] = []
    for tray_id in ordered:
        name = (trays[tray_id].name or tray_id) if tray_id in trays else tray_id
        if not names or names[-1] != name:
            names.append(name)
    return " > ".join(names)
