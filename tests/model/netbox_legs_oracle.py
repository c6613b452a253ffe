"""The trunk legs' NetBox ports and cables made row by row, as model/outputs/netbox/panels.py made
them before they were made column-wise: only the oracle of tests/model/test_netbox_leg_columns.py,
never used by the model."""

from __future__ import annotations

from collections import defaultdict
from operator import itemgetter

import numpy as np

from model.outputs.netbox.panel_legs import _cable_types, _description, _fit_label
from model.outputs.netbox.panel_records import PanelExport, PlacedLegs
from model.structured.layout import LC_ENCLOSURE, MPO_PANEL
from model.structured.layout_records import TrunkLeg


def trunk_leg_cables(out: PanelExport, site: str, trunks: dict, legs: PlacedLegs, facts) -> None:
    """Trunk legs: one cable per leg and segment, named after the trunk's two panels. The legs'
    cable types come from the plant's medium column at once, and a row is made in place (a
    zoned XL hall has ~400k legs and segments)."""
    placed = leg_rows(legs)
    numbered: dict[str, str] = {}
    per_pair: dict[tuple[str, str], int] = defaultdict(int)
    leg_no: dict[str, int] = defaultdict(int)
    # (leg number, legs, part) -> description: a few hundred distinct over ~400k rows, each
    # made once.
    described: dict[tuple, str] = {}
    cable_type = _cable_types(facts.plant, [leg.links[0] for leg, _ in placed])
    cables: list[tuple] = []
    append = cables.append
    for (leg, at), netbox_type in zip(placed, cable_type, strict=True):
        last = len(at) - 1
        cassettes = leg.cassettes
        for s, trunk_id in enumerate(leg.trunks):
            trunk = trunks[trunk_id]
            (na, ka), (nb, kb) = at[s], at[s + 1]
            if trunk_id not in numbered:
                pair = (na, nb) if na <= nb else (nb, na)
                per_pair[pair] += 1
                numbered[trunk_id] = _fit_label(f"{pair[0]}-{pair[1]} trunk {per_pair[pair]}")
            n = leg_no[trunk_id] = leg_no[trunk_id] + 1
            if 0 < s:  # leaving a zone panel: from the adapter's front
                a_kind, rear_a = "dcim.frontport", f"F{ka}"
            else:
                a_kind, rear_a = "dcim.rearport", f"C{ka}" if cassettes else f"R{ka}"
            rear_b = f"C{kb}" if cassettes and s + 1 == last else f"R{kb}"
            key = (n, trunk.legs, trunk.part)
            description = described.get(key)
            if description is None:
                what = f"leg {n} of {trunk.legs} of one {trunk.part or 'MPO'} trunk"
                if n != 1:
                    what += ", length on leg 1"
                description = described[key] = _description(what, "")
            # One physical trunk, one length: on leg 1 only, so that NetBox's sum of cable
            # lengths is what is bought (the other legs say where their length is).
            length = None
            if n == 1:
                got = trunk.ordered_m
                length = round(got if got == got else trunk.length_m, 2)
            tail = (netbox_type, "planned", numbered[trunk_id], length, "" if n != 1 else "m")
            if (nb, rear_b) < (na, rear_a):  # A side: the panel sorting first, whatever way
                append(
                    (
                        site,
                        nb,
                        "dcim.rearport",
                        rear_b,
                        site,
                        na,
                        a_kind,
                        rear_a,
                        *tail,
                        description,
                    )
                )
            else:
                append(
                    (
                        site,
                        na,
                        a_kind,
                        rear_a,
                        site,
                        nb,
                        "dcim.rearport",
                        rear_b,
                        *tail,
                        description,
                    )
                )
    for k, column in enumerate(out.cable_columns):
        column.append(list(map(itemgetter(k), cables)))


def place_legs(design, layout, trunks: dict, ports, order: list[str], ranks=None) -> PlacedLegs:
    """:func:`place_legs_rows` as the columns the model's readers take (``ranks``, the legs'
    ranks in ``order`` the model may pass, is found again from ``order``)."""
    return leg_columns(place_legs_rows(design, layout, trunks, ports, order))


def leg_rows(legs: PlacedLegs) -> list[tuple]:
    """The placed legs' columns as they were made before: (leg, [(name, number) per node])."""
    out = []
    for g, (links, trunk_ids) in enumerate(zip(legs.links, legs.trunks, strict=True)):
        nodes = range(int(legs.start[g]), int(legs.start[g + 1]))
        leg = TrunkLeg(links, (), trunk_ids, bool(legs.cassettes[g]))
        out.append((leg, [(legs.names[legs.name[k]], int(legs.number[k])) for k in nodes]))
    return out


def leg_columns(placed: list[tuple]) -> PlacedLegs:
    """(leg, [(name, number) per node]) per leg as the columns the model's readers take."""
    names = sorted({name for _, at in placed for name, _ in at})
    code = {name: k for k, name in enumerate(names)}
    count = [len(at) for _, at in placed]
    return PlacedLegs(
        [leg.links for leg, _ in placed],
        [leg.trunks for leg, _ in placed],
        np.array([leg.cassettes for leg, _ in placed], dtype=bool),
        np.cumsum([0, *count], dtype=np.int64),
        names,
        np.array([code[name] for _, at in placed for name, _ in at], dtype=np.int64),
        np.array([k for _, at in placed for _, k in at], dtype=np.int64),
    )


def place_legs_rows(design, layout, trunks: dict, ports, order: list[str]) -> list[tuple]:
    """(leg, [(device name, number) per node]): ports per leg and node, legs taken in the
    order of their channels' labels (``order``: the legs' links in (label, id) order). A placed
    panel's next port is counted in place, without looking up its rack and type, which only a
    virtual panel needs (a zoned XL hall takes ~470k ports)."""

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
    placed: list[tuple] = []
    devices, names, next_port = design.devices, ports.names, ports.next
    for leg in legs:
        at = []
        last = len(leg.holders) - 1
        for i, holder in enumerate(leg.holders):
            if holder in devices:  # a placed panel: its own name, ports counted from 1
                n = next_port[holder] = next_port[holder] + 1
                at.append((names[holder], n))
                continue
            part = LC_ENCLOSURE if leg.cassettes and i in (0, last) else MPO_PANEL
            at.append(ports.take(holder, rack_of(holder, leg.trunks, i), part))
        placed.append((leg, at))
    return placed
