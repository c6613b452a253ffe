"""The patch cords of a structured layout and each channel's row, worked out as arrays.

Step 4 of :func:`model.structured.layout.structured_layout`: once the legs are laid and the
trunks bundled, every link on a leg gets a cord at each end (its device to the leg's end
panel) and, on its first leg, its channel's row in the layout's
:class:`~model.structured.channel_table.ChannelTable`. A cord no orderable length reaches is a finding.
"""

from __future__ import annotations

import math
from operator import attrgetter
from typing import TYPE_CHECKING

import numpy as np

from model.catalog.parts import FibrePart, part_words, vendor_neutral_fibre
from model.common.findings import Finding
from model.structured.channel_table import ChannelTable, RowIndex
from model.structured.stock_lengths import stock_lengths_at, stock_lengths_found

if TYPE_CHECKING:
    from model.structured.channel_groups import ChannelColumns
    from model.structured.layout_records import StructuredLayout


def lay_cords(
    layout: StructuredLayout,
    table: ChannelTable,
    per_leg: tuple[list, list, list, list, tuple[np.ndarray, np.ndarray], ChannelColumns],
    fibre_of,
    slack_m,
    typed_m: dict[str, float] | None = None,
    recorded: dict[str, tuple[float | None, ...]] | None = None,
    msa: dict[str, FibrePart] | None = None,
    lean: bool = False,
    row_index: RowIndex | None = None,
    kept: KeptCords | None = None,
) -> None:
    """The cords of every leg's links, as columns; each link's channel row (its first leg) and,
    for a link of several fibres, their lengths (``leg_lengths_m``). A cord is the link's vertical at that end + the
    slack per end + the rack distance to its panel, ordered at the next orderable length of
    the link's fibre part (the first >= it, to 1 nm: numpy's lower-bound search over every cord).

    ``typed_m``: per link with a typed length (as-built, else override), that length: the
    channel's too, so its two cords share what its trunks leave (:func:`_typed_cords`).
    ``recorded``: per link, its pieces' recorded lengths (``Link.as_built_pieces_m``); a
    recorded cord is that length, whatever the typed length would share out. ``msa``: per
    link on a module not NVIDIA's, the vendor-neutral fibre its cords are instead of the
    medium's (:func:`msa_cord_fibres`). ``lean``: the cords and their findings only, no channel
    row in ``table`` (the findings' layout, :func:`model.structured.layout.structured_layout`).
    ``row_index``: the last layout's link -> row index (:class:`RowIndex`), shared when the
    rows are the same links. ``kept``: the last layout's cords of this design
    (:class:`KeptCords`), worked out again only where their lengths changed."""
    # ``per_leg``: columns, one value per leg (its table leg, the cords' rack distances A and
    # B, its trunks' length), every leg's members one after the other and how many each leg
    # has, and the members' columns: a cord pair per member of each leg, its figures
    # gathered from the members' rows (393k at zoned XL).
    leg_no, dist_a, dist_b, leg_trunk_m, (member, sizes), columns = per_leg
    total = len(member)
    if not total:
        return
    # In the order the sum was written cord by cord: (vertical + slack) + distance.
    a_m = (columns.up_a[member] + slack_m) + np.repeat(np.asarray(dist_a, dtype=np.float64), sizes)
    b_m = (columns.up_b[member] + slack_m) + np.repeat(np.asarray(dist_b, dtype=np.float64), sizes)
    # The members' rows are those of the table's fibres when the columns were made from them
    # (model.structured.channel_groups shares a FibreTable's list of link ids).
    fibre_rows = member if columns.link_ids is getattr(table.fibres, "link_ids", None) else None
    shape: tuple | None = None
    if kept is not None:
        # Typed or recorded lengths, vendor-neutral cords or a findings-only layout: made whole.
        plain = not (typed_m or recorded or msa or lean)
        shape = (member, sizes, leg_no, columns.link_ids, columns.medium, columns.media)
        shape += (fibre_of, fibre_rows is not None)
        if plain and kept.same_shape(shape):
            kept.relay(layout, table, a_m, b_m, row_index)
            return
        kept.forget()
        if not plain:
            shape = None
    link_ids = columns.link_ids_at(member)
    leg_of = np.repeat(np.asarray(leg_no, dtype=np.int64), sizes)
    ports = (np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)).tolist()
    trunk_m = np.repeat(np.asarray(leg_trunk_m, dtype=np.float64), sizes)
    del leg_no, dist_a, dist_b, leg_trunk_m
    if typed_m:
        _typed_cords(link_ids, typed_m, a_m, b_m, trunk_m)
    if recorded:
        _recorded_cords(link_ids, recorded, a_m, b_m, leg_of, table, layout.findings)
    parts, codes, part_ids, part_no = _cord_parts(
        link_ids, columns.medium[member], columns.media, fibre_of, msa
    )
    # The catalog's own length objects (math.nan itself where none is long enough), as
    # a rounding up returns them: object columns, gathered by the search's index; and
    # which cords have none, from the search too (not read back off the 786k objects).
    got_cols = np.full((2, total), math.nan, dtype=object)
    unknown = np.ones((2, total), dtype=bool)
    for code in part_no.values():
        rows = np.flatnonzero(codes == code)
        if not len(rows):  # a medium's part every cord of which is a vendor-neutral one
            continue
        lengths = parts[int(rows[0])].lengths_m
        for got, none, wanted in zip(got_cols, unknown, (a_m, b_m), strict=True):
            got[rows], none[rows] = stock_lengths_found(lengths, wanted[rows])
    got_a, got_b = got_cols[0].tolist(), got_cols[1].tolist()
    _unorderable_cords(layout, link_ids, parts, a_m, b_m, got_a, got_b, unknown)
    cords = layout.cords
    cords.link_ids = link_ids
    cords.parts = part_ids
    cords.a_m, cords.b_m = a_m.tolist(), b_m.tolist()
    cords.a_ordered, cords.b_ordered = got_a, got_b
    cords.fibre_rows = fibre_rows
    if lean:
        return
    # A link's first leg makes its channel; a further fibre (pair) adds its cords only. Most
    # halls have one pair per link: no member twice, no pass per cord pair.
    if np.bincount(member).max() <= 1:
        known = fibre_rows.tolist() if fibre_rows is not None else None
        legs = leg_of.tolist()
        table.add_rows(link_ids, legs, ports, got_a, got_b, known, row_index)
        if kept is not None and shape is not None:
            channel_rows = (legs, ports, known)
            kept.keep(
                shape, (parts, codes, part_no), (a_m, b_m), cords, channel_rows, table.derived
            )
        return
    first: dict[str, int] = {}
    repeats = [row for row, lid in enumerate(link_ids) if first.setdefault(lid, row) != row]
    # Each fibre's length (cords + its leg's trunks), for the skew check.
    fibre_m = ((np.asarray(got_a, dtype=np.float64) + trunk_m) + np.asarray(got_b)).tolist()
    leg_lengths = layout.leg_lengths_m
    for row in repeats:
        link_id = link_ids[row]
        leg_m = leg_lengths.get(link_id)
        if leg_m is None:
            leg_m = leg_lengths[link_id] = [fibre_m[first[link_id]]]
        leg_m.append(fibre_m[row])
    first_rows = list(first.values())
    legs = leg_of.tolist()
    table.add_rows(
        list(first),
        [legs[r] for r in first_rows],
        [ports[r] for r in first_rows],
        [got_a[r] for r in first_rows],
        [got_b[r] for r in first_rows],
        fibre_rows[first_rows].tolist() if fibre_rows is not None else None,
        row_index,
    )


class KeptCords:
    """The last layout's cords of a design (an editor's analysis lays it out after every edit)
    with what they were laid on, for the next layout: when its legs, members, media and fibre
    parts are the same (a rack move changes lengths only), the cords are the same links, parts,
    legs and ports, and only a cord whose length changed (bit for bit) is ordered again (most
    of ``lay_cords``' ~0.15 s of a zoned XL move was making the 393k-long columns afresh).
    Kept for the plain case only: one fibre (pair) per link, no typed or recorded length, no
    vendor-neutral cord. ``reused``: whether the last :func:`lay_cords` relaid the kept cords."""

    def __init__(self) -> None:
        self.reused = False
        self._shape: tuple | None = None  # (members, sizes, legs, link ids, media, ...)
        self._parts: tuple = ()  # per cord: its fibre part, part number; numbers by part id
        self._lengths: tuple = ()  # (a_m, b_m): the cords' wanted lengths (float64)
        self._cords: tuple = ()  # link ids, part ids, a_m, b_m, ordered A, ordered B lists
        self._rows: tuple = ()  # the channel rows' legs, ports and fibre rows (or None)
        # The last table's arrays of its row columns (ChannelTable.derived: the same dict, which
        # the checks fill after the layout), shared or patched by the next relay.
        self._derived: dict = {}

    def same_shape(self, shape: tuple) -> bool:
        """Whether ``shape`` (as :func:`lay_cords` lists it) is the kept cords' (arrays and
        lists compared element by element: the same objects after a rack move)."""
        kept = self._shape
        self.reused = kept is not None and all(
            np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
            for a, b in zip(kept, shape, strict=True)
        )
        return self.reused

    def forget(self) -> None:
        self._shape, self._parts, self._lengths, self._cords, self._rows = None, (), (), (), ()
        self._derived = {}

    def keep(
        self, shape: tuple, parts: tuple, lengths: tuple, cords, rows: tuple, derived: dict
    ) -> None:
        self._shape, self._parts, self._lengths, self._rows = shape, parts, lengths, rows
        self._derived = derived
        self._cords = (
            cords.link_ids,
            cords.parts,
            cords.a_m,
            cords.b_m,
            cords.a_ordered,
            cords.b_ordered,
        )

    def relay(self, layout, table: ChannelTable, a_m, b_m, row_index) -> None:
        """The kept cords into ``layout`` and their rows into ``table``, at lengths ``a_m`` and
        ``b_m``: the cords whose length changed ordered again, as :func:`lay_cords` does."""
        parts, codes, part_no = self._parts
        link_ids, part_ids, was_a, was_b, got_a, got_b = self._cords
        columns: list[tuple[list, list]] = []
        got_arrays: list[np.ndarray] = []  # per end, the ordered lengths as float64
        for wanted, was_m, was_got in ((a_m, was_a, got_a), (b_m, was_b, got_b)):
            old = self._lengths[len(columns)]
            changed = np.flatnonzero(old.view(np.int64) != wanted.view(np.int64))
            now_m, now_got = list(was_m), list(was_got)  # a made layout's columns: only read
            for code in part_no.values():
                rows = changed[codes[changed] == code]
                if len(rows):
                    got = stock_lengths_at(parts[int(rows[0])].lengths_m, wanted[rows]).tolist()
                    for r, length, ordered in zip(
                        rows.tolist(), wanted[rows].tolist(), got, strict=True
                    ):
                        now_m[r], now_got[r] = length, ordered
            for r in changed[codes[changed] < 0].tolist():  # no part: unorderable, as laid
                now_m[r] = float(wanted[r])
            got_arrays.append(_patched(self._derived.get(_ORDERED[len(columns)]), now_got, changed))
            columns.append((now_m, now_got))
        (a_list, got_a), (b_list, got_b) = columns
        self._lengths = (a_m, b_m)
        self._cords = (link_ids, part_ids, a_list, b_list, got_a, got_b)
        unknown = (np.isnan(got_arrays[0]), np.isnan(got_arrays[1]))
        _unorderable_cords(layout, link_ids, parts, a_list, b_list, got_a, got_b, unknown)
        cords = layout.cords
        cords.link_ids, cords.parts = link_ids, part_ids
        cords.a_m, cords.b_m, cords.a_ordered, cords.b_ordered = a_list, b_list, got_a, got_b
        legs, ports, known = self._rows
        cords.fibre_rows = self._shape[0] if known is not None else None  # type: ignore[index]
        table.add_rows(link_ids, legs, ports, got_a, got_b, known, row_index)
        # The table's row arrays: the legs, ports and fibre rows are the kept lists, the
        # ordered lengths those patched above (as the table's lists are only when it holds
        # these rows alone).
        derived, last = table.derived, self._derived
        if len(table.link_ids) == len(link_ids):
            for name in ("legs", "ports", "fibre_rows") if known is not None else ("legs", "ports"):
                if name in last:
                    derived[name] = last[name]
            derived.update(zip(_ORDERED, got_arrays, strict=True))
        self._derived = derived


# The channel table's columns of the cords' ordered lengths, A then B (ChannelTable.derived).
_ORDERED = ("cord_a_m", "cord_b_m")
_POLARITY, _PIECES = attrgetter("polarity"), attrgetter("as_built_pieces_m")


def _patched(last: np.ndarray | None, now: list, changed: np.ndarray) -> np.ndarray:
    """``now`` (a column of ordered lengths) as float64: ``last`` (its array before the rows
    ``changed``) with those rows written in, else made from the whole list."""
    if last is None or len(last) != len(now):
        return np.asarray(now, dtype=np.float64)
    out = last.copy()
    rows = changed.tolist()
    out[changed] = np.fromiter(map(now.__getitem__, rows), np.float64, len(rows))
    return out


def _cord_parts(link_ids, medium: np.ndarray, media: list[str], fibre_of, msa):
    """Per cord: its fibre part (or None), the part's number (-1: none) and id (""); and the
    numbers by part id. A cord is its medium's fibre part (``medium``: per cord, its number in
    ``media``), or the link's ``msa`` one."""
    part_no: dict[str, int] = {}  # fibre part id -> its number; "" (no part): -1
    # Per medium (a hall has a few): its fibre part, the part's number and id, numbered in
    # the order the cords first take them.
    used, first = np.unique(medium, return_index=True)
    part_of = np.full(len(media), None, dtype=object)
    code_of = np.full(len(media), -1, dtype=np.int64)
    id_of = np.full(len(media), "", dtype=object)
    for m in used[np.argsort(first)].tolist():
        p = fibre_of.get(media[m])
        if p is not None:
            part_of[m], code_of[m], id_of[m] = p, part_no.setdefault(p.id, len(part_no)), p.id
    parts = part_of[medium]  # an object array: read at a few rows only (no 393k-long list)
    codes = code_of[medium]
    part_ids = id_of[medium].tolist()
    if msa:  # an AMD or Broadcom hall's cords (an NVIDIA hall has none: no pass per cord)
        for row, link_id in enumerate(link_ids):
            own = msa.get(link_id)
            if own is not None:
                parts[row], part_ids[row] = own, own.id
                codes[row] = part_no.setdefault(own.id, len(part_no))
    return parts, codes, part_ids, part_no


def msa_cord_fibres(plant) -> dict[str, FibrePart]:
    """Per link of ``plant`` (a RoutedLinks) whose module takes a vendor-neutral fibre, that
    fibre: its patch cords are that part, as its direct fibre would be
    (:func:`model.catalog.parts.vendor_neutral_fibre`, the rule of
    :func:`model.plant.tally.msa_fibres`; the A end's module decides where both ends have
    one). An NVIDIA hall's links have none."""
    tables = plant.parts
    # The (medium, cage spec) pairs whose module takes one: the plant's specs are the ones
    # entered in ``tables.modules``, so an NVIDIA hall stops here, with no pass over its links.
    own_of = {
        key: own
        for key, part in tables.modules.items()
        if (own := vendor_neutral_fibre(part, tables.own_fibre.get(part.id))) is not None
    }
    if not own_of:
        return {}
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    found = np.full(len(medium), -1, dtype=np.int64)
    fibres = list(dict.fromkeys(own_of.values()))
    for spec in (plant.spec_b, plant.spec_a):  # the A end last: its fibre wins
        spec = np.asarray(spec, dtype=np.int64)
        for (m, s), own in own_of.items():
            found[(medium == m) & (spec == s)] = fibres.index(own)
    link_ids = plant.link_ids
    return {link_ids[r]: fibres[found[r]] for r in np.flatnonzero(found >= 0).tolist()}


def _typed_cords(link_ids, typed_m: dict[str, float], a_m, b_m, trunk_m) -> None:
    """Cords (``a_m``, ``b_m``, in place) of the links with a typed length: the typed length
    less the trunks of the leg, split between the two ends as the laid cords are, so the
    channel (ordered cords + trunks) is the typed length rounded up to the cords' stock
    lengths. A typed length no longer than the trunks leaves the laid cords (the trunks are
    shared by the bundle and are not shortened for one link)."""
    rows = np.asarray([r for r, lid in enumerate(link_ids) if lid in typed_m], dtype=np.int64)
    if not len(rows):
        return
    wanted = np.asarray([typed_m[link_ids[r]] for r in rows.tolist()], dtype=np.float64)
    share = wanted - trunk_m[rows]
    laid = a_m[rows] + b_m[rows]
    fits = (share > 0) & (laid > 0)
    rows, share, laid = rows[fits], share[fits], laid[fits]
    a_new = a_m[rows] * (share / laid)
    a_m[rows], b_m[rows] = a_new, share - a_new


def _recorded_cords(
    link_ids, recorded: dict, a_m, b_m, leg_of, table: ChannelTable, findings: list[Finding]
) -> None:
    """Cords (``a_m``, ``b_m``, in place) of the links whose pieces have recorded lengths: each
    recorded cord is its record (ordered at that length's stock length, as any cord), when the
    record has the leg's shape (a cord, one trunk per segment, a cord); a record that has not
    is used for none of its pieces, and a RECORDED_PIECES_UNUSED finding says so."""
    unused: set[str] = set()
    middles = table.middles
    legs = leg_of.tolist()
    trunks_of: dict[int, int] = {}  # table leg -> its trunks (a leg carries up to 6 channels)
    for row, link_id in enumerate(link_ids):
        pieces = recorded.get(link_id)
        if pieces is None:
            continue
        leg = legs[row]
        trunks = trunks_of.get(leg)
        if trunks is None:
            trunks = trunks_of[leg] = sum(1 for e in middles[leg] if e.kind == "trunk")
        if len(pieces) != trunks + 2:
            if link_id not in unused:
                unused.add(link_id)
                findings.append(_unused_record(link_id, len(pieces), trunks))
            continue
        if pieces[0] is not None:
            a_m[row] = pieces[0]
        if pieces[-1] is not None:
            b_m[row] = pieces[-1]


def _unused_record(link_id: str, pieces: int, trunks: int) -> Finding:
    """RECORDED_PIECES_UNUSED: a link's recorded lengths are of another channel than its own."""
    return Finding(
        code="RECORDED_PIECES_UNUSED",
        severity="info",
        message=f"link {link_id}: its {pieces} recorded lengths (cord, {pieces - 2} trunks, "
        f"cord) are not those of its channel ({trunks} trunks through the panels the cabling "
        "style chooses); its cords and trunks are estimated. Route it via the panels it was "
        "recorded through, or record it again",
        objects=(link_id,),
    )


def recorded_pieces(link, trunks: int) -> tuple[float | None, ...]:
    """The link's recorded piece lengths (cord A, each trunk, cord B) when they are those of a
    channel of ``trunks`` trunks, else none: what the layout takes from the record."""
    pieces = link.as_built_pieces_m if link is not None else ()
    return pieces if len(pieces) == trunks + 2 else ()


def link_entries(design) -> tuple[dict, dict, dict]:
    """What the layout reads off the links' own entries, per link that has one: its polarity
    record, its pieces' recorded lengths and its typed length (:func:`polarity_records`,
    :func:`recorded_lengths`, :func:`typed_lengths`)."""
    return polarity_records(design), recorded_lengths(design), typed_lengths(design)


def polarity_records(design) -> dict:
    """Per link with one, its record of the polarity installed (``Link.polarity``)."""
    links = design.links
    # Most designs record none: a test by ``any`` over the links in C first, as the pass
    # that builds the dict was ~25 ms of a zoned XL layout for an empty one.
    if not any(map(_POLARITY, links.values())):
        return {}
    return {lid: link.polarity for lid, link in links.items() if link.polarity}


def recorded_lengths(design) -> dict:
    """Per link with them, its pieces' recorded lengths (import-netbox: cord A, each trunk,
    cord B), which replace the estimates of those pieces; most designs have none (a test in
    C, then one pass where some link has them)."""
    links = design.links
    if not any(map(_PIECES, links.values())):
        return {}
    return {lid: link.as_built_pieces_m for lid, link in links.items() if link.as_built_pieces_m}


def typed_lengths(design) -> dict:
    """Per link with one, its typed length (:func:`typed_length`): the channel's length too
    (mostly none is typed: one pass, no call; a test by ``any`` in C was slower here, its two
    passes over the links at ~17 ms each)."""
    return {
        lid: given[0]
        for lid, link in design.links.items()
        if (link.as_built_m is not None or link.length_override_m is not None)
        and (given := typed_length(link)) is not None
    }


def typed_length(link) -> tuple[float, str] | None:
    """(length, which) a link's length is typed as: its as-built length, else its override."""
    if link.as_built_m is not None:
        return link.as_built_m, "as-built"
    if link.length_override_m is not None:
        return link.length_override_m, "override"
    return None


def _unorderable_cords(layout, link_ids, parts, a_m, b_m, got_a, got_b, unknown=None) -> None:
    """CORD_NOT_ORDERABLE (error), once per link: a patch cord longer than any length of its
    fibre part (a panel named far from the device: the cord runs over to that panel's rack).
    Its channel's length and loss are then unknown, and the BOM cannot order it.
    ``unknown``: per end (A, B) and cord, whether it has no ordered length (NaN), when the
    caller knows; else read off ``got_a`` and ``got_b``."""
    if unknown is None:
        unknown = np.isnan(np.asarray(got_a, dtype=np.float64))
        unknown |= np.isnan(np.asarray(got_b, dtype=np.float64))
    else:
        unknown = unknown[0] | unknown[1]
    seen: set[str] = set()
    for row in np.flatnonzero(unknown).tolist():
        link_id = link_ids[row]
        if link_id in seen:
            continue
        seen.add(link_id)
        end, length = ("A", a_m[row]) if got_a[row] != got_a[row] else ("B", b_m[row])
        part = parts[row]
        longest = f"{part.lengths_m[-1]:g} m" if part and part.lengths_m else "none"
        # named as the BOM lists it (an EST- estimate by what it is), not by the catalog id
        name = part_words(part.vendor, part.part_number, part.description) if part else "fibre"
        layout.findings.append(
            Finding(
                code="CORD_NOT_ORDERABLE",
                severity="error",
                message=f"link {link_id}: its {end}-end patch cord is {length:.1f} m, longer "
                f"than any orderable {name} cord (longest {longest}); "
                "its channel's loss is unknown. Patch it at a panel nearer the device",
                objects=(link_id, f"{link_id}:cord-{end.lower()}"),
            )
        )
