"""NetBox trunk legs of a structured design: each leg's panel ports, one cable per leg and
trunk segment, and the cable texts the cords share (cable types from the plant's media, labels,
descriptions); :mod:`model.outputs.netbox.panels` says what is exported and why."""

from __future__ import annotations

import functools
from itertools import chain
from operator import attrgetter, itemgetter

import numpy as np

from model.common.arrays import unique_inverse, unique_sorted
from model.outputs.netbox.columns import Column, Lookup, Repeat
from model.outputs.netbox.names import DESCRIPTION_MAX, fit_name
from model.outputs.netbox.panel_records import LinkFacts, PanelExport, PanelPorts, PlacedLegs
from model.structured.layout import LC_ENCLOSURE, MPO_PANEL


def _place_legs(
    design, layout, trunks: dict, ports: PanelPorts, order: list[str], ranks=None
) -> PlacedLegs:
    """The layout's legs with their ports per node, taken in the order of their channels'
    labels (``order``: the legs' links in (label, id) order); the ports by :func:`_leg_ports`.
    Read from the layout's leg columns (``TrunkLegs``): no leg object is made. ``ranks``: when
    each leg has one link, that link's place in ``order`` per leg, if the caller knows them."""

    def rack_of(holder: str, trunk_ids, i: int) -> str:
        if holder in design.devices:
            return design.devices[holder].rack
        t = trunks[trunk_ids[min(i, len(trunk_ids) - 1)]]
        return t.rack_a if i < len(trunk_ids) else t.rack_b

    legs = layout.legs
    n = len(legs)
    # In the order of the legs' (label, link id) lists, compared as lists of the links' ranks
    # in that order (the same comparison: a rank orders as its pair, no two links share one).
    if ranks is not None:
        pick = np.argsort(ranks, kind="stable").tolist()
    elif set(map(len, legs.links)) == {1}:  # one link per leg: sort its rank
        rank = dict(zip(order, range(len(order)), strict=True))
        ranks = np.fromiter(map(rank.__getitem__, map(itemgetter(0), legs.links)), np.int64, n)
        pick = np.argsort(ranks, kind="stable").tolist()
    else:
        rank = dict(zip(order, range(len(order)), strict=True))
        pick = sorted(range(n), key=lambda k: list(map(rank.__getitem__, legs.links[k])))
    holders = list(map(legs.holders.__getitem__, pick))
    trunk_ids = list(map(legs.trunks.__getitem__, pick))
    cassettes = np.fromiter(map(legs.cassettes.__getitem__, pick), bool, n)
    start, names, name, number = _leg_ports(design, holders, trunk_ids, cassettes, ports, rack_of)
    links = list(map(legs.links.__getitem__, pick))
    at = np.array(pick, dtype=np.int64)
    return PlacedLegs(links, trunk_ids, cassettes, start, names, name, number, at)


def _leg_ports(
    design, holders_of: list, trunks_of: list, cassettes: np.ndarray, ports: PanelPorts, rack_of
) -> tuple[np.ndarray, list[str], np.ndarray, np.ndarray]:
    """Per leg (in numbering order; ``holders_of`` its patch points, ``trunks_of`` its trunks),
    its nodes' ports: (each leg's first node and the nodes' count, the panels' NetBox names,
    each node's name as a position in them, its port number). A placed panel's port is the
    rank of its use among its uses over the legs' nodes in order, after the ports it gave
    before (one stable sort of the nodes' codes, not a counter per node: ~1.2 M nodes at zoned
    XL); a virtual holder's is taken in that order (:meth:`PanelPorts.take`)."""
    count = np.fromiter(map(len, holders_of), np.int64, len(holders_of))
    holders = list(chain.from_iterable(holders_of))
    n = len(holders)
    code_of = dict.fromkeys(holders)
    distinct = list(code_of)
    code_of.update(zip(distinct, range(len(distinct)), strict=True))
    code = np.fromiter(map(code_of.__getitem__, holders), np.int64, n)
    order = np.argsort(code, kind="stable")
    ranked = code[order]
    run = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]]) if n else ranked
    number = np.empty(n, dtype=np.int64)
    number[order] = np.arange(n) - np.repeat(run, np.diff(np.r_[run, n]))
    devices, next_port = design.devices, ports.next
    placed = np.fromiter((h in devices for h in distinct), bool, len(distinct))
    base = np.fromiter(
        (next_port[h] if p else 0 for h, p in zip(distinct, placed.tolist(), strict=True)),
        np.int64,
        len(distinct),
    )
    number += base[code] + 1
    uses = np.bincount(code, minlength=len(distinct))
    for h, p, b, u in zip(distinct, placed.tolist(), base.tolist(), uses.tolist(), strict=True):
        if p:
            next_port[h] = b + u
    # A distinct holder's name is at its code ("" for a virtual one, whose nodes are named
    # below by the panel each is taken from).
    names = [ports.names[h] if p else "" for h, p in zip(distinct, placed.tolist(), strict=True)]
    name = code  # the node's holder code is its name's position; virtual nodes renamed below
    start = np.r_[np.cumsum(count) - count, n]
    virtual = np.flatnonzero(~placed[code]).tolist()
    if virtual:  # taken one by one, in the nodes' order
        leg_of = np.repeat(np.arange(len(holders_of)), count)
        position: dict[str, int] = {}
        for k in virtual:
            g = int(leg_of[k])
            i, last = k - int(start[g]), int(count[g]) - 1
            part = LC_ENCLOSURE if cassettes[g] and i in (0, last) else MPO_PANEL
            got, number[k] = ports.take(holders[k], rack_of(holders[k], trunks_of[g], i), part)
            at = position.get(got)
            if at is None:
                at = position[got] = len(names)
                names.append(got)
            name[k] = at
    return start, names, name, number


def _fit_label(text: str) -> str:
    """``fit_name(text, 100)`` without the call when it fits already (most labels do)."""
    return text if len(text) <= 100 and text == text.strip() else fit_name(text, 100)


def _cable_types(plant, link_ids: list[str], rows: np.ndarray | None = None) -> list[str]:
    """Each link's NetBox cable type (its medium's), from the plant's medium column."""
    return _per_medium(plant, link_ids, [m.netbox_type for m in plant.media], rows)


def _medium_rows(plant, link_ids: list[str]) -> np.ndarray:
    """Each link's medium (a row of ``plant.media``; -1 where none was chosen)."""
    index = plant.index
    return plant.medium_index[np.fromiter(map(index.__getitem__, link_ids), np.int64)]


def _per_medium(
    plant, link_ids: list[str], texts: list[str], rows: np.ndarray | None = None
) -> list[str]:
    """Each link's text of its medium (``texts``, one per medium; "" where none was chosen),
    gathered by numpy from the plant's medium column (``rows``: :func:`_medium_rows` of the
    links, when the caller has them)."""
    chosen = _medium_rows(plant, link_ids) if rows is None else rows
    table = np.empty(len(texts) + 1, dtype=object)
    table[:-1], table[-1] = texts, ""
    return table[np.where(chosen >= 0, chosen, len(texts))].tolist()


def _trunk_leg_cables(
    out: PanelExport, site: str, trunks: dict, placed: PlacedLegs, facts: LinkFacts
) -> None:
    """Trunk legs: one cable per leg and segment, named after the trunk's two panels.

    Made column by column over the segments (leg by leg, segment by segment: a zoned XL hall
    has ~790k), from integer codes: each segment's trunk, its panels' names and port numbers
    (gathered from the legs' node columns: segment ``s`` of a leg joins its nodes ``s`` and
    ``s + 1``); a leg's number in its trunk is the rank of its segment among the trunk's, a
    trunk's label number the rank of its first segment among those of the same panel pair; the
    texts (port names, labels, descriptions, lengths) are made once per distinct value. Made
    row by row this was ~2 s of that hall's export."""
    if not len(placed):
        return
    first_links = list(map(itemgetter(0), placed.links))
    known = facts.media_rows
    rows = known[1] if known is not None and known[0] == first_links else None
    cable_type = _cable_types(facts.plant, first_links, rows)
    count = np.fromiter(map(len, placed.trunks), np.int64, len(placed))
    n_rows = int(count.sum())
    if not n_rows:
        return
    leg_of = np.repeat(np.arange(len(placed)), count)
    s = np.arange(n_rows) - np.repeat(np.cumsum(count) - count, count)
    trunk_ids = list(chain.from_iterable(placed.trunks))
    near = placed.start[leg_of] + s  # the segment's nodes: near, and the next one (far)
    # Codes: trunks by first use, panel names in text order (the A side is the one sorting first)
    trunk_code = dict.fromkeys(trunk_ids)
    trunk_list = list(trunk_code)
    trunk_code.update(zip(trunk_list, range(len(trunk_list)), strict=True))
    code = np.fromiter(map(trunk_code.__getitem__, trunk_ids), np.int64, n_rows)
    used = unique_sorted(np.r_[placed.name[near], placed.name[near + 1]]).tolist()
    used_names = list(map(placed.names.__getitem__, used))
    names = sorted(set(used_names))
    name_code = dict(zip(names, range(len(names)), strict=True))
    text_rank = np.zeros(len(placed.names), dtype=np.int64)
    text_rank[used] = list(map(name_code.__getitem__, used_names))
    na = text_rank[placed.name[near]]
    nb = text_rank[placed.name[near + 1]]
    ka = placed.number[near]
    kb = placed.number[near + 1]
    cassettes = placed.cassettes[leg_of]
    # Leg number: the segment's rank among its trunk's segments (in row order), from 1.
    by_trunk = np.argsort(code, kind="stable")
    sorted_code = code[by_trunk]
    run_start = np.flatnonzero(np.r_[True, sorted_code[1:] != sorted_code[:-1]])
    rank = np.arange(n_rows) - np.repeat(run_start, np.diff(np.r_[run_start, n_rows]))
    leg_no = np.empty(n_rows, dtype=np.int64)
    leg_no[by_trunk] = rank + 1
    labels = _trunk_labels(trunk_list, by_trunk[run_start], na, nb, names)
    # Ports: "F{k}" leaving a zone panel, "C{k}" a cassette end, else "R{k}".
    a_letter = np.where(s > 0, 0, np.where(cassettes, 1, 2))
    last = np.diff(placed.start) - 1
    b_letter = np.where(cassettes & (s + 1 == last[leg_of]), 1, 2)
    rear_a, a_text = _port_texts(a_letter, ka)
    rear_b, b_text = _port_texts(b_letter, kb)
    # A side: the panel sorting first, whatever way (by name, then port name).
    swap = nb < na
    same = np.flatnonzero(nb == na)
    if len(same):
        swap[same] = [
            b_text[x] < a_text[y] for x, y in zip(rear_b[same], rear_a[same], strict=True)
        ]
    first = list(map(trunks.__getitem__, trunk_list))
    descriptions, description = _leg_descriptions(leg_no, code, first)
    lengths, length_code = _trunk_lengths(first)
    one = leg_no == 1
    # The columns as lookups by code (columns.joined): side A's and B's panels in ``names``,
    # their ports in the A then B port texts; side B is always a rear port.
    ports = [*a_text, *b_text]
    kind = ["dcim.frontport", "dcim.rearport"]
    columns: tuple[Column, ...] = (
        Repeat(site, n_rows),
        Lookup(names, np.where(swap, nb, na)),
        Lookup(kind, np.where(swap | (s == 0), 1, 0)),
        Lookup(ports, np.where(swap, rear_b + len(a_text), rear_a)),
        Repeat(site, n_rows),
        Lookup(names, np.where(swap, na, nb)),
        Lookup(kind, np.where(swap & (s > 0), 0, 1)),
        Lookup(ports, np.where(swap, rear_a, rear_b + len(a_text))),
        Lookup(cable_type, leg_of),
        Repeat("planned", n_rows),
        Lookup(labels, code),
        Lookup([*lengths, None], np.where(one, length_code[code], len(lengths))),
        Lookup(["m", ""], np.where(one, 0, 1)),
        Lookup(descriptions, description),
    )
    for column, piece in zip(out.cable_columns, columns, strict=True):
        column.append(piece)


def _trunk_labels(
    trunk_list: list[str], first_row: np.ndarray, na: np.ndarray, nb: np.ndarray, names: list
) -> list[str]:
    """Per trunk (in first-use order), its label ``{panel}-{panel} trunk {k}``: its panels as
    at its first segment, in text order, ``k`` counted per pair of panels in first-use order
    (the rank of the trunk among its pair's, by one stable sort; the pair's text made once per
    pair, the labels by one C-level map: a zoned XL hall has ~100k trunks)."""
    x, y = na[first_row], nb[first_row]
    n = len(x)
    assert n == len(trunk_list)
    if not n:
        return []
    key = np.minimum(x, y) * len(names) + np.maximum(x, y)
    pairs, pair = unique_inverse(key)
    by_pair = np.argsort(pair, kind="stable")
    ranked = pair[by_pair]
    run = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    k = np.empty(n, dtype=np.int64)
    k[by_pair] = np.arange(1, n + 1) - np.repeat(run, np.diff(np.r_[run, n]))
    texts = [f"{names[p // len(names)]}-{names[p % len(names)]}" for p in pairs.tolist()]
    out = list(map("{} trunk {}".format, map(texts.__getitem__, pair.tolist()), k.tolist()))
    # Most fit as they are: the longest within 100 and no pair's text starting with a space
    if max(map(len, out)) <= 100 and not any(t[:1].isspace() for t in texts):
        return out
    return list(map(_fit_label, out))


def _port_texts(letter: np.ndarray, number: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Port names ``F{k}``/``C{k}``/``R{k}`` (``letter`` 0/1/2) as (code per row, texts)."""
    key = number * 3 + letter
    uniq, inverse = unique_inverse(key)
    texts = [f"{'FCR'[k % 3]}{k // 3}" for k in uniq.tolist()]
    return inverse, texts


def _leg_descriptions(
    leg_no: np.ndarray, code: np.ndarray, trunks: list
) -> tuple[list[str], np.ndarray]:
    """(the segments' descriptions, each segment's code in them): its leg number of its
    trunk's legs and the trunk's part (``code``: its trunk in ``trunks``), each made once per
    distinct (leg number, legs, part): a code per trunk for its (legs, part) by C-level maps
    (a zoned XL hall has ~100k trunks), one numpy key per segment."""
    of_trunk = list(map(attrgetter("legs", "part"), trunks))
    kind_of = dict.fromkeys(of_trunk)
    kinds = list(kind_of)
    kind_of.update(zip(kinds, range(len(kinds)), strict=True))
    kind = np.fromiter(map(kind_of.__getitem__, of_trunk), np.int64, len(trunks))
    width = max(len(kinds), 1)
    uniq, inverse = unique_inverse(leg_no * width + kind[code])
    texts = []
    for key in uniq.tolist():
        n, k = divmod(key, width)
        legs, part = kinds[k]
        what = f"leg {n} of {legs} of one {part or 'MPO'} trunk"
        if n != 1:
            what += ", length on leg 1"
        texts.append(_description(what, ""))
    return texts, inverse.reshape(-1)


def _trunk_lengths(trunks: list) -> tuple[list[float], np.ndarray]:
    """The trunks' lengths as leg 1 carries them, as (values, code per trunk): ordered, else
    as laid, rounded to cm once per distinct value. One physical trunk, one length: on leg 1
    only, so that NetBox's sum of cable lengths is what is bought (the other legs say where
    their length is)."""
    n = len(trunks)
    got = np.fromiter(map(attrgetter("ordered_m"), trunks), np.float64, n)
    laid = np.fromiter(map(attrgetter("length_m"), trunks), np.float64, n)
    uniq, inverse = np.unique(np.where(got == got, got, laid), return_inverse=True)
    return [round(v, 2) for v in uniq.tolist()], inverse.reshape(-1)


@functools.lru_cache(maxsize=4096)
def _description(what: str, fibre_part: str, medium_id: str = "") -> str:
    """A cable's description (a hall's ~1 M cords and legs have a few hundred)."""
    text = what + (f" ({fibre_part})" if fibre_part else "")
    return fit_name(text + (f" [{medium_id}]" if medium_id else ""), DESCRIPTION_MAX)
