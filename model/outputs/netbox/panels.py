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

import functools
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from model.catalog.structured import structured_catalog
from model.outputs.netbox.names import DESCRIPTION_MAX, fit_name, interface_name
from model.structured.layout import CASSETTE_PORTS, LC_ENCLOSURE, MPO_PANEL
from model.structured.layout import structured_layout as layout_of

PANEL_ROLE = "patch-panel"
# A cable row's cells: side A and side B (site, device, type, name), then CABLE_ROW_TAIL.
_CABLE_WIDTH = range(14)
VIRTUAL_PREFIX = {MPO_PANEL: "PP", LC_ENCLOSURE: "FE"}


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


@dataclass
class PanelExport:
    """What the panels add to a NetBox export (rows are dicts by NetBox column name)."""

    links: set[str] = field(default_factory=set)  # links exported as cord-trunk-cord
    virtual: list[tuple[str, str, str]] = field(default_factory=list)  # (name, rack, part)
    # The cables' columns in CABLE_HEADER order, one value per cable: cords, then legs (a
    # zoned XL hall has ~1.2 M: a tuple per row, turned back into columns, was ~1 s).
    cable_columns: list[list] = field(default_factory=lambda: [[] for _ in _CABLE_WIDTH])


class _Ports:
    """Ports handed out per panel; a virtual holder (not a design device) is split into
    panels of the part's capacity, named after the rack."""

    def __init__(self, design, device_names, rack_names, taken: set[str]):
        self.design, self.names, self.rack_names, self.taken = (
            design,
            device_names,
            rack_names,
            taken,
        )
        self.next: dict[str, int] = defaultdict(int)
        self.virtual: dict[tuple[str, int], tuple[str, str, str]] = {}
        self._per: dict[str, int] = {}  # part id -> ports or slots (the catalog read once)

    def take(self, holder: str, rack_id: str, part_id: str) -> tuple[str, int]:
        """(NetBox device name, port or slot number) of the holder's next free port."""
        self.next[holder] += 1
        n = self.next[holder]
        if holder in self.design.devices:
            return self.names[holder], n
        per = self._per.get(part_id)
        if per is None:
            part = structured_catalog().panels[part_id]
            per = self._per[part_id] = part.slots or part.front_ports
        key = (holder, (n - 1) // per)
        if key not in self.virtual:
            base = f"{self.rack_names[rack_id]}-{VIRTUAL_PREFIX.get(part_id, 'PP')}"
            name = _free_name(f"{base}{key[1] + 1}", self.taken)
            self.virtual[key] = (name, rack_id, part_id)
        return self.virtual[key][0], (n - 1) % per + 1


def _free_name(name: str, taken: set[str]) -> str:
    candidate, n = fit_name(name, 64), 2
    while candidate.casefold() in taken:
        candidate = fit_name(f"{name}-{n}", 64)
        n += 1
    taken.add(candidate.casefold())
    return candidate


def panel_export(
    design, plant, site: str, device_names, rack_names, labels, flipped=frozenset(), layout=None
) -> PanelExport:
    """Cords and trunk legs of ``plant``'s design; an empty export for a direct design.

    ``device_names`` / ``rack_names``: the NetBox names already chosen (id -> name); ``labels``:
    link id -> the cabling schedule's label (cords are labelled after it); ``flipped``: links
    whose schedule A end is the link's B end (cord A is at the schedule's A end); ``layout``:
    the plant's structured layout when the caller has it (the physical plant's).
    """
    out = PanelExport()
    layout = layout if layout is not None else layout_of(plant)
    if not layout.legs:
        return out
    out.links = {lid for leg in layout.legs for lid in leg.links}
    trunks = {t.id: t for t in layout.trunks}
    ports = _Ports(design, device_names, rack_names, {n.casefold() for n in device_names.values()})
    facts = _LinkFacts(design, plant, labels)
    # The links in (label, id) order: by id, then (stable) by label; the legs and the cords
    # are both taken in it.
    order = sorted(out.links)
    order.sort(key=facts.label)
    placed = _place_legs(design, layout, trunks, ports, order)
    out.virtual = sorted(ports.virtual.values())
    _cord_cables(out, design, layout, placed, (site, device_names, flipped), facts, order)
    _trunk_leg_cables(out, site, trunks, placed, facts)
    return out


class _LinkFacts:
    """Labels once per link (a zoned XL hall asks ~1.3 M times); the plant, whose medium
    column gives the cables' types."""

    def __init__(self, design, plant, labels) -> None:
        self.design, self.plant, self.labels = design, plant, labels
        self._label: dict[str, str] = {}

    def label(self, link_id: str) -> str:
        """The schedule's label of the link, else its own, else its id."""
        got = self._label.get(link_id)
        if got is None:
            got = self._label[link_id] = (
                self.labels.get(link_id) or self.design.links[link_id].label or link_id
            )
        return got


def _place_legs(design, layout, trunks: dict, ports: _Ports, order: list[str]) -> list[tuple]:
    """(leg, [(device name, number) per node]): ports per leg and node, legs taken in the
    order of their channels' labels (``order``: the legs' links in (label, id) order); the
    ports by :func:`_leg_ports`."""

    def rack_of(holder: str, trunk_ids, i: int) -> str:
        if holder in design.devices:
            return design.devices[holder].rack
        t = trunks[trunk_ids[min(i, len(trunk_ids) - 1)]]
        return t.rack_a if i < len(trunk_ids) else t.rack_b

    # In the order of the legs' (label, link id) lists, compared as lists of the links' ranks
    # in that order (the same comparison: a rank orders as its pair, no two links share one).
    rank = dict(zip(order, range(len(order)), strict=True))
    if all(len(g.links) == 1 for g in layout.legs):  # one link per leg: sort its rank
        ranks = np.fromiter((rank[g.links[0]] for g in layout.legs), np.int64, len(layout.legs))
        legs = [layout.legs[k] for k in np.argsort(ranks, kind="stable").tolist()]
    else:
        legs = sorted(layout.legs, key=lambda g: list(map(rank.__getitem__, g.links)))
    return list(zip(legs, _leg_ports(design, legs, ports, rack_of), strict=True))


def _leg_ports(design, legs: list, ports: _Ports, rack_of) -> list[list[tuple[str, int]]]:
    """Per leg (in numbering order), (NetBox name, port number) per node. A placed panel's
    port is the rank of its use among its uses over the legs' nodes in order, after the ports
    it gave before (one stable sort of the nodes' codes, not a counter per node: ~1.2 M nodes
    at zoned XL); a virtual holder's is taken in that order (:meth:`_Ports.take`)."""
    count = np.fromiter((len(leg.holders) for leg in legs), np.int64, len(legs))
    holders = [h for leg in legs for h in leg.holders]
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
    name_of = [ports.names[h] if p else "" for h, p in zip(distinct, placed.tolist(), strict=True)]
    flat = list(zip([name_of[c] for c in code.tolist()], number.tolist(), strict=True))
    start = np.cumsum(count) - count
    virtual = np.flatnonzero(~placed[code]).tolist()
    if virtual:  # taken one by one, in the nodes' order
        leg_of = np.repeat(np.arange(len(legs)), count)
        for k in virtual:
            leg = legs[leg_of[k]]
            i, last = k - int(start[leg_of[k]]), len(leg.holders) - 1
            part = LC_ENCLOSURE if leg.cassettes and i in (0, last) else MPO_PANEL
            flat[k] = ports.take(holders[k], rack_of(holders[k], leg.trunks, i), part)
    bounds = start.tolist()
    ends = (start + count).tolist()
    return [flat[a:b] for a, b in zip(bounds, ends, strict=True)]


def _cord_cables(
    out: PanelExport,
    design,
    layout,
    placed: list[tuple],
    names: tuple,
    facts: _LinkFacts,
    order: list[str],
) -> None:
    """Cords: each link's two ends on its first leg's end ports, in label order (``order``).

    ``names``: (site, device id -> NetBox name, links whose schedule A end is their B end).
    Made column by column, a link's two cords at a time (its ends' NetBox names and ports, its
    rounded lengths, descriptions and cable type gathered per link or per distinct value, the
    rows zipped at the end): a zoned XL hall has 786k cords, and a row made call by call was
    ~8 s of its export's CPU."""
    site, device_names, flipped = names
    if not order:
        return
    first_legs = _first_legs(placed, order)
    # Per link, its end that the schedule lists first (X, cord A: device -> panel) and the
    # other (Y, cord B: panel -> device).
    # A cord's description ends in its link's medium id, as a point-to-point cable's does: the
    # cable type and fibre part alone do not tell an 800G SR8 channel (two MPO legs, one cord
    # exported per end) from a 400G SR4 one, and import-netbox reads the medium back from it.
    medium_ids = _medium_ids(facts.plant, order)
    x_ends, y_ends = _cord_ends(design, layout, order, medium_ids, first_legs, flipped)
    x_dev, x_port, x_panel, x_front, x_len, x_desc = x_ends
    y_dev, y_port, y_panel, y_front, y_len, y_desc = y_ends
    names_of = {p: interface_name(p) for p in {*x_port, *y_port}}
    n = len(order)

    def pairs(xs, ys) -> list:
        both = [None] * (2 * n)
        both[0::2], both[1::2] = xs, ys
        return both

    cable_type = _cable_types(facts.plant, order)
    kinds = ("dcim.interface", "dcim.frontport") * n
    link_labels = list(map(facts.label, order))
    labels = pairs(_cord_labels(link_labels, " cord A"), _cord_labels(link_labels, " cord B"))
    lengths = pairs(x_len, y_len)
    columns = (
        [site] * (2 * n),
        pairs(list(map(device_names.__getitem__, x_dev)), y_panel),
        list(kinds),
        pairs(list(map(names_of.__getitem__, x_port)), y_front),
        [site] * (2 * n),
        pairs(x_panel, list(map(device_names.__getitem__, y_dev))),
        list(kinds[1:] + kinds[:1]),
        pairs(x_front, list(map(names_of.__getitem__, y_port))),
        pairs(cable_type, cable_type),
        ["planned"] * (2 * n),
        labels,
        lengths,
        ["" if length is None else "m" for length in lengths],
        pairs(x_desc, y_desc),
    )
    for column, cells in zip(out.cable_columns, columns, strict=True):
        column += cells


def _first_legs(placed: list[tuple], order: list[str]) -> list[tuple]:
    """Per link of ``order``, (leg, its ports, the link's place in the leg) of the first
    placed leg that carries it. The legs are placed in their links' order: when each carries
    one link and each link has one leg (a zoned XL hall's 393k), they are the links' own."""
    if len(placed) == len(order) and all(len(leg.links) == 1 for leg, _ in placed):
        if [leg.links[0] for leg, _ in placed] == order:
            return [(leg, at, 0) for leg, at in placed]
    first_leg: dict[str, tuple] = {}
    for leg, at in placed:
        for j, link_id in enumerate(leg.links):
            first_leg.setdefault(link_id, (leg, at, j))
    return list(map(first_leg.__getitem__, order))


def _cord_ends(
    design, layout, order: list[str], medium_ids: list[str], got: list[tuple], flipped
) -> tuple:
    """Per link of ``order``, for its end listed first and then its other end: columns of the
    device id, its port, the panel's NetBox name, the panel's front port, the cord's length
    (ordered, else as laid; rounded to cm; None without a cord pair) and its description.

    Made column by column: each link's A and B end as lists, then taken in the schedule's
    order of its ends (``flipped``: B first); lengths rounded once per distinct value."""
    cords = layout.cords
    # Each link's first cord pair (the cord table's rows: pair k is cords 2k and 2k + 1).
    n_pairs = len(cords.link_ids)
    first_pair = dict(zip(reversed(cords.link_ids), range(n_pairs - 1, -1, -1), strict=True))
    links = list(map(design.links.__getitem__, order))
    pair = np.fromiter(map(first_pair.get, order, repeat(-1)), dtype=np.int64, count=len(order))
    cassettes = [leg.cassettes for leg, _, _ in got]
    ends = []
    for side in "ab":
        refs = [link.a for link in links] if side == "a" else [link.b for link in links]
        nodes = [at[0] for _, at, _ in got] if side == "a" else [at[-1] for _, at, _ in got]
        front = [
            f"C{number}-{j + 1}" if cassette else f"F{number}"
            for (_, number), (_, _, j), cassette in zip(nodes, got, cassettes, strict=True)
        ]
        if side == "a":
            what: list[str] | repeat[str] = repeat("patch cord")
        else:  # method B: the far cassette's physical port is 7-k
            what = [
                f"patch cord, cassette port {CASSETTE_PORTS - j}" if cassette else "patch cord"
                for (_, _, j), cassette in zip(got, cassettes, strict=True)
            ]
        ordered = cords.a_ordered if side == "a" else cords.b_ordered
        laid = cords.a_m if side == "a" else cords.b_m
        lengths = _cord_lengths(ordered, laid, pair)
        parts = [cords.parts[k] if k >= 0 else "" for k in pair.tolist()]
        ends.append(
            (
                [ref.device for ref in refs],
                [ref.port for ref in refs],
                [panel for panel, _ in nodes],
                front,
                lengths,
                list(map(_description, what, parts, medium_ids)),
            )
        )
    turned = [link_id in flipped for link_id in order]
    if not any(turned):
        return ends[0], ends[1]
    columns = list(zip(*ends, strict=True))
    first = tuple(_chosen(a, b, turned) for a, b in columns)
    other = tuple(_chosen(b, a, turned) for a, b in columns)
    return first, other


def _chosen(xs: list, ys: list, take_y: list[bool]) -> list:
    """``ys[k]`` where ``take_y[k]``, else ``xs[k]``."""
    return [y if t else x for x, y, t in zip(xs, ys, take_y, strict=True)]


def _cord_lengths(ordered: list[float], laid: list[float], pair: np.ndarray) -> list:
    """Per link, its cord's length (``pair``: its first cord pair, -1 for none): the ordered
    length, else the laid one, rounded to cm once per distinct value; None without a pair."""
    if not len(pair):
        return []
    safe = np.maximum(pair, 0)
    got = np.asarray(ordered, dtype=np.float64)[safe] if len(ordered) else np.zeros(len(pair))
    raw = np.asarray(laid, dtype=np.float64)[safe] if len(laid) else np.zeros(len(pair))
    value = np.where(got == got, got, raw)
    uniq, inverse = np.unique(value, return_inverse=True)
    rounded = np.empty(len(uniq) + 1, dtype=object)
    rounded[:-1] = [round(v, 2) for v in uniq.tolist()]
    rounded[-1] = None
    return rounded[np.where(pair >= 0, inverse.reshape(-1), len(uniq))].tolist()


def _cord_labels(link_labels: list[str], suffix: str) -> list[str]:
    """``[_fit_label(label + suffix) ...]``, the check made on the link's label: with a
    suffix ending in a letter, ``label + suffix`` fits as it is when the label has no leading
    space and leaves room for the suffix."""
    room = 100 - len(suffix)
    texts = [label + suffix for label in link_labels]
    for k, label in enumerate(link_labels):
        if len(label) > room or not label or label[:1].isspace():
            texts[k] = fit_name(texts[k], 100)
    return texts


def _fit_label(text: str) -> str:
    """``fit_name(text, 100)`` without the call when it fits already (most labels do)."""
    return text if len(text) <= 100 and text == text.strip() else fit_name(text, 100)


def _medium_ids(plant, link_ids: list[str]) -> list[str]:
    """Each link's medium id ("" where none was chosen), from the plant's medium column."""
    return _per_medium(plant, link_ids, [m.id for m in plant.media])


def _cable_types(plant, link_ids: list[str]) -> list[str]:
    """Each link's NetBox cable type (its medium's), from the plant's medium column."""
    return _per_medium(plant, link_ids, [m.netbox_type for m in plant.media])


def _per_medium(plant, link_ids: list[str], texts: list[str]) -> list[str]:
    """Each link's text of its medium (``texts``, one per medium; "" where none was chosen),
    gathered by numpy from the plant's medium column."""
    index = plant.index
    chosen = plant.medium_index[np.fromiter(map(index.__getitem__, link_ids), np.int64)]
    table = np.empty(len(texts) + 1, dtype=object)
    table[:-1], table[-1] = texts, ""
    return table[np.where(chosen >= 0, chosen, len(texts))].tolist()


def _trunk_leg_cables(
    out: PanelExport, site: str, trunks: dict, placed: list[tuple], facts: _LinkFacts
) -> None:
    """Trunk legs: one cable per leg and segment, named after the trunk's two panels.

    Made column by column over the segments (leg by leg, segment by segment: a zoned XL hall
    has ~790k), from integer codes: each segment's trunk, its panels' names and port numbers;
    a leg's number in its trunk is the rank of its segment among the trunk's, a trunk's label
    number the rank of its first segment among those of the same panel pair; the texts (port
    names, labels, descriptions, lengths) are made once per distinct value. Made row by row
    this was ~2 s of that hall's export."""
    if not placed:
        return
    cable_type = _cable_types(facts.plant, [leg.links[0] for leg, _ in placed])
    count = np.fromiter((len(leg.trunks) for leg, _ in placed), np.int64, len(placed))
    n_rows = int(count.sum())
    if not n_rows:
        return
    leg_of = np.repeat(np.arange(len(placed)), count)
    s = np.arange(n_rows) - np.repeat(np.cumsum(count) - count, count)
    trunk_ids = [t for leg, _ in placed for t in leg.trunks]
    near = [at[k] for (leg, at) in placed for k in range(len(leg.trunks))]
    far = [at[k + 1] for (leg, at) in placed for k in range(len(leg.trunks))]
    # Codes: trunks by first use, panel names in text order (the A side is the one sorting first)
    trunk_code = dict.fromkeys(trunk_ids)
    trunk_list = list(trunk_code)
    trunk_code.update(zip(trunk_list, range(len(trunk_list)), strict=True))
    code = np.fromiter(map(trunk_code.__getitem__, trunk_ids), np.int64, n_rows)
    names = sorted({name for name, _ in near} | {name for name, _ in far})
    name_code = dict(zip(names, range(len(names)), strict=True))
    na = np.fromiter((name_code[name] for name, _ in near), np.int64, n_rows)
    nb = np.fromiter((name_code[name] for name, _ in far), np.int64, n_rows)
    ka = np.fromiter((k for _, k in near), np.int64, n_rows)
    kb = np.fromiter((k for _, k in far), np.int64, n_rows)
    cassettes = np.fromiter((leg.cassettes for leg, _ in placed), bool, len(placed))[leg_of]
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
    last = np.fromiter((len(at) - 1 for _, at in placed), np.int64, len(placed))
    b_letter = np.where(cassettes & (s + 1 == last[leg_of]), 1, 2)
    rear_a, a_text = _port_texts(a_letter, ka)
    rear_b, b_text = _port_texts(b_letter, kb)
    a_kind = np.where(s > 0, "dcim.frontport", "dcim.rearport")
    # A side: the panel sorting first, whatever way (by name, then port name).
    swap = nb < na
    same = np.flatnonzero(nb == na)
    if len(same):
        swap[same] = [
            b_text[x] < a_text[y] for x, y in zip(rear_b[same], rear_a[same], strict=True)
        ]
    first = [trunks[t] for t in trunk_list]
    described: dict[tuple, str] = {}
    keys = zip(leg_no.tolist(), code.tolist(), strict=True)
    description = [_leg_description(described, n, first[c]) for n, c in keys]
    lengths = [_trunk_length(t) for t in first]
    one = leg_no == 1
    length_of = objects_of([*lengths, None])[np.where(one, code, len(lengths))]
    name_obj, a_obj, b_obj = objects_of(names), objects_of(a_text), objects_of(b_text)
    a_side = (name_obj[na], a_kind.astype(object), a_obj[rear_a])
    b_side = (name_obj[nb], np.full(n_rows, "dcim.rearport", dtype=object), b_obj[rear_b])
    first_side = [np.where(swap, b, a).tolist() for a, b in zip(a_side, b_side, strict=True)]
    other_side = [np.where(swap, a, b).tolist() for a, b in zip(a_side, b_side, strict=True)]
    columns = (
        [site] * n_rows,
        *first_side,
        [site] * n_rows,
        *other_side,
        objects_of(cable_type)[leg_of].tolist(),
        ["planned"] * n_rows,
        objects_of(labels)[code].tolist(),
        length_of.tolist(),
        np.where(one, "m", "").astype(object).tolist(),
        description,
    )
    for column, cells in zip(out.cable_columns, columns, strict=True):
        column += cells


def objects_of(values: list) -> np.ndarray:
    """``values`` as a 1-D object array."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _trunk_labels(
    trunk_list: list[str], first_row: np.ndarray, na: np.ndarray, nb: np.ndarray, names: list
) -> list[str]:
    """Per trunk (in first-use order), its label ``{panel}-{panel} trunk {k}``: its panels as
    at its first segment, in text order, ``k`` counted per pair of panels in first-use order."""
    per_pair: dict[tuple[int, int], int] = defaultdict(int)
    out = []
    for x, y in zip(na[first_row].tolist(), nb[first_row].tolist(), strict=True):
        pair = (x, y) if x <= y else (y, x)
        per_pair[pair] += 1
        out.append(_fit_label(f"{names[pair[0]]}-{names[pair[1]]} trunk {per_pair[pair]}"))
    assert len(out) == len(trunk_list)
    return out


def _port_texts(letter: np.ndarray, number: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Port names ``F{k}``/``C{k}``/``R{k}`` (``letter`` 0/1/2) as (code per row, texts)."""
    key = number * 3 + letter
    uniq, inverse = np.unique(key, return_inverse=True)
    texts = [f"{'FCR'[k % 3]}{k // 3}" for k in uniq.tolist()]
    return inverse.reshape(-1), texts


def _leg_description(described: dict, n: int, trunk) -> str:
    """A leg's description: its number of the trunk's legs, the trunk's part (made once per
    (leg number, legs, part))."""
    key = (n, trunk.legs, trunk.part)
    got = described.get(key)
    if got is None:
        what = f"leg {n} of {trunk.legs} of one {trunk.part or 'MPO'} trunk"
        if n != 1:
            what += ", length on leg 1"
        got = described[key] = _description(what, "")
    return got


def _trunk_length(trunk) -> float:
    """A trunk's length as leg 1 carries it: ordered, else as laid, rounded to cm. One physical
    trunk, one length: on leg 1 only, so that NetBox's sum of cable lengths is what is bought
    (the other legs say where their length is)."""
    got = trunk.ordered_m
    return round(got if got == got else trunk.length_m, 2)


# A cable row (the cords' and the legs'): side A and side B (site, device, type, name), then type, status, label,
# length, length unit and description: netbox_cables.CABLE_HEADER's order (asserted there, as
# this module cannot import it: netbox_cables imports this one through netbox_types).
CABLE_ROW_TAIL = ("type", "status", "label", "length", "length_unit", "description")
assert len(_CABLE_WIDTH) == 8 + len(CABLE_ROW_TAIL)


@functools.lru_cache(maxsize=4096)
def _description(what: str, fibre_part: str, medium_id: str = "") -> str:
    """A cable's description (a hall's ~1 M cords and legs have a few hundred)."""
    text = what + (f" ({fibre_part})" if fibre_part else "")
    return fit_name(text + (f" [{medium_id}]" if medium_id else ""), DESCRIPTION_MAX)
