"""Per-link parts of the physical plant (cages, plugs, cable), kept column by column.

:func:`model.plant.physical_plant.build_plant` with ``with_links`` says, for every link, which cable assembly
it runs on, the labels of its two cages, the module part in each (empty for an integrated
cable's end) and the part number of its cable or fibre at its length. At 400k links a tuple per
link costs more than the counting itself, so :class:`LinkParts` holds small integer codes per
plant row into short lists of distinct names, built with numpy in one pass; the schedule gathers
whole columns from the codes (:meth:`LinkParts.codes`, :meth:`LinkParts.names`). It is also a
read-only mapping ``link id -> (cable_id, a_cage, b_cage, a_module, b_module, part)`` for
callers that ask about single links (the inspector, the links table, the NetBox modules); the
mapping lists the plant's non-backplane rows in row order, then its backplane rows, as the
dict it replaces did.

A ``LinkParts`` is a snapshot: it copies the plant's link ids, so a later edit of the plant
(which moves rows) never changes what it says.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping, ValuesView

import numpy as np

from model.catalog.parts import part_number_for
from model.plant.tally import ComponentRows

BACKPLANE_PART = "rack backplane"
PART_COLUMNS = ("cable_id", "a_cage", "b_cage", "a_module", "b_module", "part")


class LinkParts(Mapping):
    """``link id -> (cable_id, a_cage, b_cage, a_module, b_module, part)``, stored as codes.

    For each column of ``PART_COLUMNS``, one integer code per plant row (``len(link_ids)``
    rows) indexing that column's distinct texts (:meth:`names`; the two cage columns share one
    list, as do the two module columns, so swapping the ends swaps codes). Every names array
    ends with ``""``, so code -1 reads as the empty text, except that a ``cable_id`` code of -1
    means the link's own id (a fibre, or a cable of one link). ``rows`` are the plant rows the
    mapping lists, in its order.
    """

    def __init__(
        self,
        link_ids: list[str],
        rows: np.ndarray,
        codes: dict[str, np.ndarray],
        names: dict[str, np.ndarray],
    ) -> None:
        self.link_ids = list(link_ids)
        self.rows = np.asarray(rows, dtype=np.int64)
        self._codes = codes
        self._names = names
        self._listed = np.zeros(len(self.link_ids), dtype=bool)
        self._listed[self.rows] = True
        self._index: dict[str, int] | None = None

    # ---- the column API (the schedule)

    def codes(self, column: str, rows: np.ndarray) -> np.ndarray:
        """Codes of ``column`` (one of ``PART_COLUMNS``) for plant ``rows``; -1 for a row the
        mapping does not list or a negative row (a link missing from the plant)."""
        rows = np.asarray(rows, dtype=np.int64)
        known = rows >= 0
        safe = np.where(known, rows, 0)
        return np.where(known & self._listed[safe], self._codes[column][safe], -1)

    def names(self, column: str) -> np.ndarray:
        """The distinct texts of ``column``, an object array ending with ``""`` (code -1)."""
        return self._names[column]

    def text(self, column: str, codes: np.ndarray, own_ids: np.ndarray | None = None) -> list:
        """The texts of ``codes`` of ``column`` as a list; for ``cable_id`` a code -1 is the
        link's own id, taken from ``own_ids`` (an object array, one per code)."""
        out = self._names[column][codes]
        if column == "cable_id" and own_ids is not None:
            own = codes < 0
            if own.any():
                out[own] = own_ids[own]
        return out.tolist()

    # ---- the mapping (single links)

    def _row(self, link_id: str) -> int | None:
        if self._index is None:
            self._index = dict(zip(self.link_ids, range(len(self.link_ids)), strict=True))
        r = self._index.get(link_id)
        return r if r is not None and self._listed[r] else None

    def _tuple(self, r: int) -> tuple[str, str, str, str, str, str]:
        codes, names = self._codes, self._names
        c = int(codes["cable_id"][r])
        return (
            self.link_ids[r] if c < 0 else names["cable_id"][c],
            *(names[col][int(codes[col][r])] for col in PART_COLUMNS[1:]),
        )

    def __getitem__(self, link_id: str) -> tuple[str, str, str, str, str, str]:
        r = self._row(link_id)
        if r is None:
            raise KeyError(link_id)
        return self._tuple(r)

    def __contains__(self, link_id: object) -> bool:
        return isinstance(link_id, str) and self._row(link_id) is not None

    def __iter__(self) -> Iterator[str]:
        ids = self.link_ids
        return iter([ids[r] for r in self.rows.tolist()])

    def __len__(self) -> int:
        return len(self.rows)

    def _columns(self) -> list[list]:
        rows = self.rows
        own = np.array(self.link_ids, dtype=object)[rows] if len(rows) else np.zeros(0, object)
        return [self.text(col, self._codes[col][rows], own) for col in PART_COLUMNS]

    def items(self) -> ItemsView:
        return _Items(self)

    def values(self) -> ValuesView:
        return _Values(self)


class _Items(ItemsView):
    def __iter__(self):
        parts = self._mapping
        return zip(iter(parts), zip(*parts._columns(), strict=True), strict=True)


class _Values(ValuesView):
    def __iter__(self):
        return zip(*self._mapping._columns(), strict=True)


def link_parts(
    link_ids: list[str],
    rows: np.ndarray,
    backplane: np.ndarray,
    cages: tuple[np.ndarray, np.ndarray, np.ndarray],
    modules: tuple[list[str], np.ndarray],
    cables: tuple[np.ndarray, ComponentRows | dict[int, list[int]], dict],
    fibres: tuple[np.ndarray, list[str], np.ndarray],
    with_backplane: bool,
) -> LinkParts:
    """The :class:`LinkParts` of plant ``rows`` (local row k = plant row ``rows[k]``).

    ``cages`` = (label of each cage node, node of each row's A and B end); ``modules`` =
    (module part numbers, module of each node or -1); ``cables`` = (component of each row, its
    rows per cable component, (part, length) per cable component); ``fibres`` = (fibre part
    of each row or -1, fibre part numbers, ordered length of each row). ``with_backplane``
    lists the backplane rows too (part "rack backplane", no cages).
    """
    n_all = len(link_ids)
    labels, ia, ib = cages
    module_names, module_of = modules
    comp, comp_rows, cable_of_comp = cables
    fibre_part_of_row, fibre_names, ordered = fibres
    codes = {name: np.full(n_all, -1, dtype=np.int64) for name in PART_COLUMNS}
    codes["a_cage"][rows], codes["b_cage"][rows] = ia, ib
    codes["a_module"][rows], codes["b_module"][rows] = module_of[ia], module_of[ib]
    # Part of each row: the cable of its component, else its fibre at its ordered length.
    part_names: list[str] = []
    part = np.full(len(rows), -1, dtype=np.int64)
    comp_part = np.full(int(comp.max()) + 1 if len(comp) else 0, -1, dtype=np.int64)
    cable_names: list[str] = []
    cable = np.full(len(rows), -1, dtype=np.int64)
    memo: dict[tuple[str, float], int] = {}
    for c, (cpart, length) in cable_of_comp.items():
        code = memo.get((cpart.id, length))
        if code is None:
            code = memo[(cpart.id, length)] = len(part_names)
            part_names.append(part_number_for(cpart.part_number, length))
        comp_part[c] = code
        members = comp_rows[c]
        part[members] = code
        if len(members) > 1:  # links sharing one assembly: the smallest link id + "+"
            first = min(link_ids[r] for r in rows[members].tolist())
            cable[members] = len(cable_names)
            cable_names.append(f"{first}+")
    # A fibre row of a component that is one cable assembly lists no fibre (as the BOM counts).
    on_cable = comp_part[comp] >= 0 if len(comp) else np.zeros(0, dtype=bool)
    fibre = np.flatnonzero((fibre_part_of_row >= 0) & ~on_cable)
    # One name per distinct (fibre part, ordered length): a sort of the lengths per part.
    fibre_part = fibre_part_of_row[fibre]
    for f in np.unique(fibre_part).tolist():
        sel = fibre[fibre_part == f]
        lengths, inverse = np.unique(ordered[sel], return_inverse=True)
        part[sel] = len(part_names) + inverse.reshape(-1)
        part_names.extend(part_number_for(fibre_names[f], x) for x in lengths.tolist())
    codes["part"][rows] = part
    codes["cable_id"][rows] = cable
    listed = rows
    if with_backplane:
        back = np.flatnonzero(backplane)
        if len(back):
            part_names.append(BACKPLANE_PART)
            codes["part"][back] = len(part_names) - 1
            cable_names.append("")
            codes["cable_id"][back] = len(cable_names) - 1
            listed = np.concatenate([rows, back])
    cage_names, plug_names = _names(labels), _names(module_names)  # shared by both ends
    names = {
        "cable_id": _names(cable_names),
        "a_cage": cage_names,
        "b_cage": cage_names,
        "a_module": plug_names,
        "b_module": plug_names,
        "part": _names(part_names),
    }
    return LinkParts(link_ids, listed, codes, names)


def _names(texts) -> np.ndarray:
    """``texts`` as an object array with ``""`` appended (what code -1 reads)."""
    out = np.empty(len(texts) + 1, dtype=object)
    out[: len(texts)] = texts
    out[-1] = ""
    return out
