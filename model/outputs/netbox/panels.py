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
from itertools import chain, repeat
from operator import attrgetter, itemgetter

import numpy as np

from model.catalog.structured import structured_catalog
from model.design.entities import END_DEVICE, END_PORT
from model.outputs.netbox.names import fit_name, interface_name
from model.outputs.netbox.panel_legs import (
    _cable_types,
    _description,
    _medium_ids,
    _medium_rows,
    _place_legs,
    _trunk_leg_cables,
)
from model.outputs.netbox.panel_records import (
    LinkFacts,
    PanelExport,
    PanelPorts,
    PlacedLegs,
)
from model.outputs.schedule_columns import objects
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
    out.links = set(chain.from_iterable(layout.legs.links))
    trunks = {t.id: t for t in layout.trunks}
    ports = PanelPorts(
        design, device_names, rack_names, {n.casefold() for n in device_names.values()}
    )
    facts = LinkFacts(design, plant, labels)
    # The links in (label, id) order: by id, then (stable) by label; the legs and the cords
    # are both taken in it. (Sorted by id first, the labels come nearly in order: one sort by
    # label alone of a zoned XL hall's links, unordered, was 0.6 s slower than the two.)
    order = sorted(out.links)
    order = [order[k] for k in sorted(range(len(order)), key=facts.labels_of(order).__getitem__)]
    placed = _place_legs(design, layout, trunks, ports, order)
    out.virtual = sorted(ports.virtual.values())
    _cord_cables(out, design, layout, placed, (site, device_names, flipped), facts, order)
    _trunk_leg_cables(out, site, trunks, placed, facts)
    return out


def _cord_cables(
    out: PanelExport,
    design,
    layout,
    placed: PlacedLegs,
    names: tuple,
    facts: LinkFacts,
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
    # The plant rows of the links' media, looked up once for the cords' two columns and the
    # legs (each a dict lookup per link: ~0.4 s of CPU per pass at zoned XL).
    rows = facts.media_rows = (order, _medium_rows(facts.plant, order))
    medium_ids = _medium_ids(facts.plant, order, rows[1])
    x_ends, y_ends = _cord_ends(design, layout, order, medium_ids, placed, first_legs, flipped)
    x_dev, x_port, x_panel, x_front, x_len, x_desc = x_ends
    y_dev, y_port, y_panel, y_front, y_len, y_desc = y_ends
    names_of = {p: interface_name(p) for p in {*x_port, *y_port}}
    n = len(order)

    def pairs(xs, ys) -> list:
        both = [None] * (2 * n)
        both[0::2], both[1::2] = xs, ys
        return both

    cable_type = _cable_types(facts.plant, order, rows[1])
    kinds = ("dcim.interface", "dcim.frontport") * n
    link_labels = facts.labels_of(order)
    misfits = _misfits(link_labels, 100 - len(" cord A"))  # the same for " cord B"
    labels = pairs(
        _cord_labels(link_labels, " cord A", misfits), _cord_labels(link_labels, " cord B", misfits)
    )
    lengths = pairs(x_len, y_len)
    # Each column made as it is added (and dropped): 14 columns of ~0.8 M cells made first
    # and then added were ~90 MB more at the time of a zoned XL export's cords.
    columns = (
        lambda: repeat(site, 2 * n),
        lambda: pairs(list(map(device_names.__getitem__, x_dev)), y_panel),
        lambda: kinds,
        lambda: pairs(list(map(names_of.__getitem__, x_port)), y_front),
        lambda: repeat(site, 2 * n),
        lambda: pairs(x_panel, list(map(device_names.__getitem__, y_dev))),
        lambda: kinds[1:] + kinds[:1],
        lambda: pairs(x_front, list(map(names_of.__getitem__, y_port))),
        lambda: pairs(cable_type, cable_type),
        lambda: repeat("planned", 2 * n),
        lambda: labels,
        lambda: lengths,
        lambda: map({None: ""}.get, lengths, repeat("m")),  # "m" but where no length
        lambda: pairs(x_desc, y_desc),
    )
    for column, cells in zip(out.cable_columns, columns, strict=True):
        column += cells()


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
    design,
    layout,
    order: list[str],
    medium_ids: list[str],
    placed: PlacedLegs,
    got: tuple[np.ndarray, np.ndarray],
    flipped,
) -> tuple:
    """Per link of ``order``, for its end listed first and then its other end: columns of the
    device id, its port, the panel's NetBox name, the panel's front port, the cord's length
    (ordered, else as laid; rounded to cm; None without a cord pair) and its description.
    ``got``: :func:`_first_legs` of the links (the cords are on their first legs' end nodes).

    Made column by column: each link's A and B end as lists, the texts made once per distinct
    value (front port, description) and gathered by code, then taken in the schedule's order of
    its ends (``flipped``: B first) by one numpy ``where`` per column."""
    cords = layout.cords
    n = len(order)
    # Each link's first cord pair (the cord table's rows: pair k is cords 2k and 2k + 1).
    n_pairs = len(cords.link_ids)
    first_pair = dict(zip(reversed(cords.link_ids), range(n_pairs - 1, -1, -1), strict=True))
    links = list(map(design.links.__getitem__, order))
    pair = np.fromiter(map(first_pair.get, order, repeat(-1)), dtype=np.int64, count=n)
    leg, j = got
    cassette = placed.cassettes[leg]
    # A channel's cassette port, 1-based (0: an MPO panel's port, which has no positions)
    slot = np.where(cassette, j + 1, 0)
    parts = objects([*cords.parts, ""], n_pairs + 1)[np.where(pair >= 0, pair, n_pairs)]
    panel_names = objects(placed.names, len(placed.names))
    ends = []
    for side in "ab":
        refs = list(map(attrgetter(side), links))
        node = placed.start[leg] if side == "a" else placed.start[leg + 1] - 1
        ordered = cords.a_ordered if side == "a" else cords.b_ordered
        laid = cords.a_m if side == "a" else cords.b_m
        ends.append(
            (
                list(map(END_DEVICE, refs)),
                list(map(END_PORT, refs)),
                panel_names[placed.name[node]].tolist(),
                _front_ports(placed.number[node], slot),
                _cord_lengths(ordered, laid, pair),
                _cord_descriptions(side == "b", slot, parts, medium_ids),
            )
        )
    turned = np.fromiter(map(flipped.__contains__, order), bool, n)
    if not turned.any():
        return ends[0], ends[1]
    first, other = [], []
    for a, b in zip(*ends, strict=True):
        xa, xb = objects(a, n), objects(b, n)
        first.append(np.where(turned, xb, xa).tolist())
        other.append(np.where(turned, xa, xb).tolist())
    return tuple(first), tuple(other)


def _front_ports(number: np.ndarray, slot: np.ndarray) -> list[str]:
    """Front port names, made once per distinct (number, slot): ``C{number}-{slot}`` on a
    cassette (``slot`` from 1), ``F{number}`` on an MPO panel (``slot`` 0)."""
    if not len(number):
        return []
    width = int(slot.max()) + 1
    uniq, inverse = np.unique(number * width + slot, return_inverse=True)
    texts = []
    for key in uniq.tolist():
        k, s = divmod(key, width)
        texts.append(f"C{k}-{s}" if s else f"F{k}")
    return objects(texts, len(texts))[inverse.reshape(-1)].tolist()


def _cord_descriptions(
    far: bool, slot: np.ndarray, parts: np.ndarray, medium_ids: list[str]
) -> list[str]:
    """Cord descriptions with the fibre part and medium id: "patch cord", and at the ``far``
    end of a cassette (``slot`` k from 1; 0: none) "patch cord, cassette port 7-k" (method B:
    the far cassette's physical port), each text made once per distinct port."""
    what = np.full(len(slot), "patch cord", dtype=object)
    at = np.flatnonzero(slot > 0) if far else np.zeros(0, dtype=np.int64)
    if len(at):
        ports, inverse = np.unique(CASSETTE_PORTS + 1 - slot[at], return_inverse=True)
        texts = [f"patch cord, cassette port {k}" for k in ports.tolist()]
        what[at] = objects(texts, len(texts))[inverse.reshape(-1)]
    return list(map(_description, what.tolist(), parts.tolist(), medium_ids))


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
