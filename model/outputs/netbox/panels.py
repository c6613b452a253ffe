"""NetBox patch panels of a structured design: panel port templates, cords and trunk legs.

The layout (:func:`model.structured.layout.structured_layout`) routes each structured link as
patch cord – panel – MPO trunk – [zone panel – trunk –] panel – patch cord through the design's
panel devices (``Link.via`` or the style's path). Those panels are design devices, exported
with the other devices; this module adds what NetBox needs to trace through them:

* **Port templates** of the panel device types (:func:`panel_port_templates`), in the
  devicetype-library format: an MPO adapter panel (``panel-mpo-1u-72``) has front ``Fk`` on rear
  ``Rk`` (MPO, one position); an enclosure (``enclosure-1u-4``) has per slot ``s`` a rear ``Cs``
  (MPO, six positions) and LC fronts ``Cs-1``..``Cs-6`` on positions 1..6. ``front-ports``
  carries the classic ``rear_port`` / ``rear_port_position`` (NetBox before 4.5) and
  ``port-mappings`` what NetBox 4.5 and later read.
* **Ports** are handed out per panel in the order of the legs' schedule labels (one MPO port per
  leg, one enclosure slot per cassette pair end), so the same design exports the same ports,
  also after a round trip through NetBox, and an MPO panel's port ``k`` is the cabling
  schedule's ``{panel}:k`` (:mod:`model.outputs.schedule_segments` numbers them in the same order).
* **Cords**: interface <-> the leg's front port at each end (a cassette: front ``Cs-j`` for the
  leg's ``j``-th channel). A link of two connectors per port (800G SR8) has two legs; NetBox
  lets an interface hold one cable, so its cord is on the first leg's port.
* **Zone panels** (``--cabling zones``): the HDA panel's MPO adapter joins two trunks; the
  trunk from the A side lands on its rear ``Rk``, the trunk onward leaves from its front ``Fk``,
  so NetBox's trace passes ``Rk`` -> ``Fk`` like any adapter.

Choices, written down:

* **A bundled trunk is one cable per leg.** NetBox 4.7 follows a position through a
  multi-termination cable only with a cable *profile* (``dcim/cable_profiles.py``); without one
  (the legacy trace of ``CablePath.from_origin``) a rear port on a cable of several A and B
  terminations reaches *every* far termination and the path splits. Its trunk profiles stop at
  four one-position connectors (``trunk-4c1p``; ``trunk-8c4p`` has four positions per
  connector), while the layout bundles up to twelve MPO-12 legs in an MPO-144. So each leg is a
  cable rear port to rear port, all legs of a trunk with the trunk's label and a description
  "leg k of n of one <part> trunk": NetBox traces every channel, the label tells the installer
  they are one physical cable. The trunk's length is on leg 1 only (the others say so), so the
  sum of NetBox's cable lengths is the length bought, not n times it.
* **Cassette polarity.** NetBox carries a position straight across a trunk and models no
  polarity; the layout's method-B cassette pair meets near port ``k`` at far port ``7-k``. The
  enclosure type keeps one straight mapping (a device type is shared by every enclosure), and a
  far cord is exported on the front port NetBox's trace reaches (``Cs-k``), its description
  naming the cassette port the installer plugs (``7-k``).
* **Virtual panels** (a rack whose channels need more panels than are placed): exported as
  devices without a rack position, named ``<rack>-PPn`` / ``<rack>-FEn``, so the trace still
  passes; place the panels in the design to give them their U.
"""

from __future__ import annotations

import re
from itertools import chain, islice, repeat
from operator import eq, itemgetter

import numpy as np

from model.catalog.structured import structured_catalog
from model.common.arrays import unique_inverse
from model.outputs.netbox.columns import Column, Lookup, Repeat
from model.outputs.netbox.names import fit_name
from model.outputs.netbox.panel_legs import (
    _description,
    _medium_rows,
    _place_legs,
    _trunk_leg_cables,
)
from model.outputs.netbox.panel_links import ScheduleLinks, ends_by_codes, ends_by_link
from model.outputs.netbox.panel_records import (
    LinkFacts,
    PanelExport,
    PanelPorts,
    PlacedLegs,
)
from model.outputs.schedule_columns import PLANT_ROW
from model.structured.channels import channel_plant_rows
from model.structured.layout import CASSETTE_PORTS, LC_ENCLOSURE
from model.structured.layout import structured_layout as layout_of

PANEL_ROLE = "patch-panel"
_SPACE = re.compile(r"\s")


def panel_port_templates(part_id: str) -> tuple[list[dict], list[dict], list[dict]]:
    """(rear ports, front ports, port mappings) of a structured panel part's device type."""
    part = structured_catalog().panels.get(part_id)
    rear: list[dict] = []
    front: list[dict] = []
    maps: list[dict] = []
    if part is None:
        return rear, front, maps
    if part_id == LC_ENCLOSURE or part.slots:
        for s in range(1, part.slots + 1):
            rear.append({"name": f"C{s}", "type": "mpo", "positions": CASSETTE_PORTS})
            for k in range(1, CASSETTE_PORTS + 1):
                name = f"C{s}-{k}"
                front.append(
                    {"name": name, "type": "lc", "rear_port": f"C{s}", "rear_port_position": k}
                )
                maps.append(_mapping(name, f"C{s}", k))
        return rear, front, maps
    for k in range(1, part.front_ports + 1):
        rear.append({"name": f"R{k}", "type": "mpo", "positions": 1})
        front.append({"name": f"F{k}", "type": "mpo", "rear_port": f"R{k}"})
        maps.append(_mapping(f"F{k}", f"R{k}", 1))
    return rear, front, maps


def _mapping(front: str, rear: str, position: int) -> dict[str, object]:
    return {
        "front_port": front,
        "front_port_position": 1,
        "rear_port": rear,
        "rear_port_position": position,
    }


def panel_export(
    design, plant, site: str, device_names, rack_names, links: ScheduleLinks, layout=None
) -> PanelExport:
    """Cords and trunk legs of ``plant``'s design; an empty export for a direct design.

    ``device_names`` / ``rack_names``: the NetBox names already chosen (id -> name); ``links``:
    the cabling schedule's rows (cords are labelled after their labels; a flipped row's link
    has cord A at the schedule's A end, its B end); ``layout``: the plant's structured layout
    when the caller has it (the physical plant's).
    """
    out = PanelExport()
    layout = layout if layout is not None else layout_of(plant)
    if not layout.legs:
        return out
    trunks = {t.id: t for t in layout.trunks}
    ports = PanelPorts(
        design, device_names, rack_names, {n.casefold() for n in device_names.values()}
    )
    leg_rows = _leg_rows(links, layout, plant)
    ranks = at = None
    if leg_rows is not None:  # a leg per link, each link with its schedule row
        at = np.sort(leg_rows)
    else:
        out.links = set(chain.from_iterable(layout.legs.links))
        if links.table is not None:
            ids = links.ids
            found = np.flatnonzero(np.fromiter(map(out.links.__contains__, ids), bool, len(ids)))
            at = found if len(found) == len(out.links) else None  # each has its schedule row
    if at is not None and links.table is not None:
        out.rows = at
        facts = LinkFacts(design, plant, {})
        order, rows, labels = _label_order(links, at, facts)
        named = ends_by_codes(links.table, rows, device_names, plant)
        turned = links.flipped[rows]
        if leg_rows is not None:
            rank = np.zeros(len(links.ids), dtype=np.int64)
            rank[rows] = np.arange(len(rows))
            ranks = rank[leg_rows]
    else:
        facts = LinkFacts(design, plant, dict(zip(links.ids, links.labels, strict=True)))
        # In (label, id) order: by id, then (stable) by label
        order = sorted(out.links)
        order = list(
            map(
                order.__getitem__, sorted(range(len(order)), key=facts.labels_of(order).__getitem__)
            )
        )
        named, labels = None, facts.labels_of(order)
        flipped = links.flipped_ids()
        turned = np.fromiter(map(flipped.__contains__, order), bool, len(order))
    if named is None:
        device, port = ends_by_link(design, order, device_names)
        named = (device, port, _medium_rows(plant, order))
    placed = _place_legs(design, layout, trunks, ports, order, ranks=ranks)
    out.virtual = sorted(ports.virtual.values())
    _cord_cables(out, layout, placed, (site, named, turned, labels), facts, order)
    _trunk_leg_cables(out, site, trunks, placed, facts)
    return out


def _leg_rows(links: ScheduleLinks, layout, plant) -> np.ndarray | None:
    """Per leg of the layout, the schedule row of its link, when the schedule has codes, each
    leg carries one link and each link has one leg and one row (a zoned XL hall); else None.
    The paneled rows, their ranks in label order and the legs' order are then numpy gathers
    (by a set of the links, a rank per link and a lookup per leg they were ~0.4 s)."""
    if links.table is None:
        return None
    rows = _leg_rows_by_plant_rows(links.table, layout, plant)
    if rows is None:
        legs = layout.legs
        if set(map(len, legs.links)) != {1}:
            return None
        # One lookup per leg by link id.
        n = len(links.ids)
        row_of = dict(zip(links.ids, range(n), strict=True))
        rows = np.fromiter(
            map(row_of.get, map(itemgetter(0), legs.links), repeat(-1)), np.int64, len(legs)
        )
    if (rows < 0).any() or np.bincount(rows, minlength=len(links.ids)).max(initial=0) > 1:
        return None
    return rows


def _leg_rows_by_plant_rows(schedule, layout, plant) -> np.ndarray | None:
    """:func:`_leg_rows`' rows read off arrays where the layout has a leg per channel row and
    nothing else: as many legs as cord pairs (a member each) and channel rows (each link once,
    the cords' links the rows' in order), channel row k on leg k. Leg k's link is then row k's,
    whose plant row (:func:`~model.structured.channels.channel_plant_rows`) the schedule's rows
    name (their ``PLANT_ROW`` codes): no leg's links made, no link looked up by id. Else None."""
    table, cords, n_legs = layout.channels, layout.cords, len(layout.legs)
    if not (n_legs == len(cords.link_ids) == len(table.link_ids) == len(table.middles)):
        return None
    if cords.link_ids != table.link_ids:
        return None
    if not np.array_equal(table.column("legs", np.int64), np.arange(n_legs)):
        return None
    try:
        plant_row = schedule.codes(PLANT_ROW)[1]
    except KeyError:  # a table of given rows: its links are looked up
        return None
    n_plant = len(plant.link_ids)
    schedule_of = np.full(n_plant + 1, -1, dtype=np.int64)  # n_plant: no plant row, no row
    listed = np.flatnonzero(plant_row >= 0)
    schedule_of[plant_row[listed]] = listed
    return schedule_of[channel_plant_rows(plant, table)]


def _label_order(
    links: ScheduleLinks, at: np.ndarray, facts: LinkFacts
) -> tuple[list[str], np.ndarray, list[str]]:
    """The links of schedule rows ``at`` in (label, id) order: (their ids, their rows, their
    labels: the schedule's, else the link's own or its id). In schedule order the labels come
    nearly sorted (one sort of a zoned XL hall's 393k: ~0.03 s); where two links share a label
    (the schedule's labels are unique, a link's own need not be), by id, then (stable) by
    label: sorted by id the labels come nearly in order too. ``at``: distinct rows, ascending;
    as many as the schedule's (every link paneled: a zoned XL hall), they are all of them, in
    order, and the schedule's lists are read as they are (gathered they were ~0.06 s)."""
    every = len(at) == len(links.ids)
    ids = links.ids if every else list(map(links.ids.__getitem__, at.tolist()))
    labels = links.labels if every else list(map(links.labels.__getitem__, at.tolist()))
    if not all(labels):
        labels = [label or facts.label(i) for i, label in zip(ids, labels, strict=True)]
    pick = sorted(range(len(ids)), key=labels.__getitem__)
    ordered = list(map(labels.__getitem__, pick))
    if any(map(eq, ordered, islice(ordered, 1, None))):  # shared labels: ties go by id
        by_id = sorted(range(len(ids)), key=ids.__getitem__)
        by_label = list(map(labels.__getitem__, by_id))
        pick = list(map(by_id.__getitem__, sorted(range(len(by_id)), key=by_label.__getitem__)))
        ordered = list(map(labels.__getitem__, pick))
    picked = np.array(pick, dtype=np.int64)
    return list(map(ids.__getitem__, pick)), picked if every else at[picked], ordered


def _cord_cables(
    out: PanelExport,
    layout,
    placed: PlacedLegs,
    names: tuple,
    facts: LinkFacts,
    order: list[str],
) -> None:
    """Cords: each link's two ends on its first leg's end ports, in label order (``order``).

    ``names``: (site, the links' ends as :func:`model.outputs.netbox.panel_links.ends_by_codes`
    gives them, whether each link's schedule A end is its B end, the links' labels).
    Made column by column as lookups (:class:`Lookup`): each of a link's ends' device, port,
    panel, front port, length and description a code into one table of texts per field, the
    schedule's first end (X, cord A: device -> panel) and other end (Y, cord B: panel ->
    device) picked from the link's A and B ends by one numpy ``where``: a zoned XL hall has
    786k cords, and their cells made one by one (even by C-level maps) were ~2.5 s."""
    site, (device, port, medium_rows), turned, link_labels = names
    if not order:
        return
    n = len(order)
    # A cord's description ends in its link's medium id, as a point-to-point cable's does: the
    # cable type and fibre part alone do not tell an 800G SR8 channel (two MPO legs, one cord
    # exported per end) from a 400G SR4 one, and import-netbox reads the medium back from it.
    # The plant rows of the links' media, found once for the cords and the legs.
    rows = facts.media_rows = (order, medium_rows)
    first_legs = _first_legs(placed, order)
    panel, front, length, described = _cord_ends(
        layout, order, facts.plant, rows[1], placed, first_legs
    )
    misfits = _misfits(link_labels, 100 - len(" cord A"))  # the same for " cord B"
    labels = [""] * (2 * n)
    labels[0::2] = _cord_labels(link_labels, " cord A", misfits)
    labels[1::2] = _cord_labels(link_labels, " cord B", misfits)
    types = [*(m.netbox_type for m in facts.plant.media), ""]
    medium = np.where(rows[1] >= 0, rows[1], len(types) - 1)
    kinds = ["dcim.interface", "dcim.frontport"]
    x_first = np.tile(np.array([0, 1], dtype=np.int64), n)  # cord A's kind, then cord B's
    pieces: tuple[Column, ...] = (
        Repeat(site, 2 * n),
        _paired(device, panel, turned),
        Lookup(kinds, x_first),
        _paired(port, front, turned),
        Repeat(site, 2 * n),
        _paired(panel, device, turned),
        Lookup(kinds, 1 - x_first),
        _paired(front, port, turned),
        Lookup(types, np.repeat(medium, 2)),
        Repeat("planned", 2 * n),
        labels,
        _paired(length, length, turned),
        _paired((["m"] * (len(length[0]) - 1) + [""], *length[1:]), None, turned),  # "" if none
        _paired(described, described, turned),
    )
    for column, piece in zip(out.cable_columns, pieces, strict=True):
        column.append(piece)


def _paired(first: tuple, second: tuple | None, turned: np.ndarray) -> Lookup:
    """Each link's two cords' cells of one column: cord A's from the field ``first`` at the
    link's X end, cord B's from ``second`` (None: ``first`` again) at its Y end. A field is
    (its texts, each link's A end's code in them, its B end's); X is A unless ``turned``."""
    texts, fa, fb = first
    sa, sb, shift = fa, fb, 0
    if second is not None and second is not first:
        more, sa, sb = second
        texts, shift = [*texts, *more], len(texts)
    keys = np.empty(2 * len(turned), dtype=np.int64)
    keys[0::2] = np.where(turned, fb, fa)
    keys[1::2] = np.where(turned, sa, sb) + shift
    return Lookup(texts, keys)


def _first_legs(placed: PlacedLegs, order: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per link of ``order``, (its first placed leg, the link's place in that leg's links).
    The legs are placed in their links' order: when each carries one link and each link has
    one leg (a zoned XL hall's 393k), they are the links' own."""
    n = len(order)
    if len(placed) == n and set(map(len, placed.links)) == {1}:
        if list(map(itemgetter(0), placed.links)) == order:
            return np.arange(n), np.zeros(n, dtype=np.int64)
    first_leg: dict[str, tuple[int, int]] = {}
    for g, links in enumerate(placed.links):
        for j, link_id in enumerate(links):
            first_leg.setdefault(link_id, (g, j))
    got = list(map(first_leg.__getitem__, order))
    return (
        np.fromiter(map(itemgetter(0), got), np.int64, n),
        np.fromiter(map(itemgetter(1), got), np.int64, n),
    )


def _cord_ends(
    layout,
    order: list[str],
    plant,
    medium_rows: np.ndarray,
    placed: PlacedLegs,
    got: tuple[np.ndarray, np.ndarray],
) -> tuple:
    """Per link of ``order``, the panel-side fields of its two cords as (texts, codes at the
    link's A end, codes at its B end): the panel's NetBox name, the panel's front port, the
    cord's length (ordered, else as laid; rounded to cm; None without a cord pair) and its
    description. ``got``: :func:`_first_legs` of the links (the cords are on their first
    legs' end nodes); ``medium_rows`` the links' media in ``plant``. Each text is made once
    per distinct value."""
    cords = layout.cords
    n = len(order)
    n_pairs = len(cords.link_ids)
    leg, j = got
    pair = _first_pairs(cords.link_ids, layout.legs, order, placed, got)
    # A channel's cassette port, 1-based (0: an MPO panel's port, which has no positions)
    slot = np.where(placed.cassettes[leg], j + 1, 0)
    nodes = (placed.start[leg], placed.start[leg + 1] - 1)
    front_texts, front = _front_ports(
        np.r_[tuple(placed.number[k] for k in nodes)], np.r_[slot, slot]
    )
    far = np.where(pair >= 0, pair + n_pairs, -1)
    length_texts, length = _cord_lengths(
        [*cords.a_ordered, *cords.b_ordered], [*cords.a_m, *cords.b_m], np.r_[pair, far]
    )
    texts, described = _cord_descriptions(slot, pair, cords.parts, plant, medium_rows)
    return (
        (placed.names, *(placed.name[k] for k in nodes)),
        (front_texts, front[:n], front[n:]),
        (length_texts, length[:n], length[n:]),
        (texts, described[:n], described[n:]),
    )


def _first_pairs(
    pair_links: list[str], legs, order: list[str], placed: PlacedLegs, got: tuple
) -> np.ndarray:
    """Each link's first cord pair (the cord table's rows: pair k is cords 2k and 2k + 1),
    -1 for none. When the cord pairs follow the layout's legs, one per leg, and the ``k``-th
    link is the first of the ``k``-th placed leg (``got``: :func:`_first_legs`), the links are
    the legs' first links, each once, and a link's pair is its leg's place in the layout (a
    zoned XL hall's 393k: found by id they were ~0.3 s)."""
    n = len(order)
    leg, j = got
    if (
        placed.layout_legs is not None
        and len(pair_links) == len(legs) == len(placed) == n
        and np.array_equal(leg, np.arange(n))
        and not j.any()
        and pair_links == list(map(itemgetter(0), legs.links))
    ):
        return placed.layout_legs
    first_pair = dict(zip(reversed(pair_links), range(len(pair_links) - 1, -1, -1), strict=True))
    return np.fromiter(map(first_pair.get, order, repeat(-1)), dtype=np.int64, count=n)


def _front_ports(number: np.ndarray, slot: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Front port names as (texts, code per port), each made once per distinct (number,
    slot): ``C{number}-{slot}`` on a cassette (``slot`` from 1), ``F{number}`` on an MPO panel
    (``slot`` 0)."""
    if not len(number):
        return [], np.zeros(0, dtype=np.int64)
    width = int(slot.max()) + 1
    uniq, inverse = unique_inverse(number * width + slot)
    texts = []
    for key in uniq.tolist():
        k, s = divmod(key, width)
        texts.append(f"C{k}-{s}" if s else f"F{k}")
    return texts, inverse.reshape(-1)


def _cord_descriptions(
    slot: np.ndarray, pair: np.ndarray, parts: list[str], plant, medium_rows: np.ndarray
) -> tuple[list[str], np.ndarray]:
    """Cord descriptions at the links' A ends, then at their B ends, as (texts, code per
    cord): "patch cord", and at the B end of a cassette (``slot`` k from 1; 0: none) "patch
    cord, cassette port 7-k" (method B: the far cassette's physical port), with the fibre part
    of the link's first cord pair (``pair``; -1: none) and the medium id (``medium_rows``:
    rows of ``plant.media``, -1: none); each text made once per distinct (port, part, medium)."""
    n = len(slot)
    part_code = dict.fromkeys(parts)
    part_texts = [*part_code, ""]
    part_code.update(zip(part_code, range(len(part_code)), strict=True))
    of_pair = np.fromiter(map(part_code.__getitem__, parts), np.int64, len(parts))
    part = np.where(pair >= 0, of_pair[np.maximum(pair, 0)] if len(parts) else 0, len(part_code))
    media = ["", *(m.id for m in plant.media)]
    port = np.r_[np.zeros(n, dtype=np.int64), np.where(slot > 0, CASSETTE_PORTS + 1 - slot, 0)]
    width_part, width_medium = len(part_texts), len(media)
    key = (
        (port * width_part + np.r_[part, part]) * width_medium + np.r_[medium_rows, medium_rows] + 1
    )
    uniq, inverse = unique_inverse(key)
    texts = []
    for k in uniq.tolist():
        rest, m = divmod(k, width_medium)
        cassette_port, p = divmod(rest, width_part)
        what = f"patch cord, cassette port {cassette_port}" if cassette_port else "patch cord"
        texts.append(_description(what, part_texts[p], media[m]))
    return texts, inverse.reshape(-1)


def _cord_lengths(
    ordered: list[float], laid: list[float], pair: np.ndarray
) -> tuple[list, np.ndarray]:
    """Per cord (``pair``: its row in ``ordered`` and ``laid``, -1 for none), its length as
    (values, code per cord): the ordered length, else the laid one, rounded to cm once per
    distinct value; the values' last entry is None, for the cords without a pair."""
    if not len(pair):
        return [None], np.zeros(0, dtype=np.int64)
    safe = np.maximum(pair, 0)
    got = np.asarray(ordered, dtype=np.float64)[safe] if len(ordered) else np.zeros(len(pair))
    raw = np.asarray(laid, dtype=np.float64)[safe] if len(laid) else np.zeros(len(pair))
    value = np.where(got == got, got, raw)
    uniq, inverse = np.unique(value, return_inverse=True)
    rounded: list = [round(v, 2) for v in uniq.tolist()]
    return [*rounded, None], np.where(pair >= 0, inverse.reshape(-1), len(uniq))


def _cord_labels(
    link_labels: list[str], suffix: str, misfits: list[int] | None = None
) -> list[str]:
    """``[_fit_label(label + suffix) ...]``, the check made on the link's label: with a
    suffix ending in a letter, ``label + suffix`` fits as it is when the label has no leading
    space and leaves room for the suffix. ``misfits``: :func:`_misfits` for the suffix's
    length, when the caller has them."""
    texts = [label + suffix for label in link_labels]
    if misfits is None:
        misfits = _misfits(link_labels, 100 - len(suffix))
    for k in misfits:
        texts[k] = fit_name(texts[k], 100)
    return texts


def _misfits(link_labels: list[str], room: int) -> list[int]:
    """The labels that do not fit ``room`` characters as they are (or start with a space).

    Most halls have none: that is found by C-level passes (the lengths' bounds, the first
    characters joined and searched for a space: ``re``'s Unicode ``\\s`` is ``str.isspace``),
    and only a hall with some is looked at label by label."""
    if link_labels and 0 < min(map(len, link_labels)) and max(map(len, link_labels)) <= room:
        if not _SPACE.search("".join(map(itemgetter(0), link_labels))):
            return []
    return [
        k
        for k, label in enumerate(link_labels)
        if len(label) > room or not label or label[:1].isspace()
    ]


# A cable row (the cords' and the legs'): side A and side B (site, device, type, name), then type, status, label,
# length, length unit and description: netbox_cables.CABLE_HEADER's order (held equal, and to
# CABLE_WIDTH, by tests/model/test_export_codes.py, as this module cannot import it).
CABLE_ROW_TAIL = ("type", "status", "label", "length", "length_unit", "description")
