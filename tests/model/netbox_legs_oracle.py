"""The trunk legs' NetBox cables made row by row, as model/outputs/netbox/panels.py made them
before they were made column-wise: only the oracle of tests/model/test_netbox_leg_columns.py,
never used by the model."""

from __future__ import annotations

from collections import defaultdict
from operator import itemgetter

from model.outputs.netbox.panels import PanelExport, _cable_types, _description, _fit_label


def trunk_leg_cables(out: PanelExport, site: str, trunks: dict, placed: list[tuple], facts) -> None:
    """Trunk legs: one cable per leg and segment, named after the trunk's two panels. The legs'
    cable types come from the plant's medium column at once, and a row is made in place (a
    zoned XL hall has ~400k legs and segments)."""
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
        column += map(itemgetter(k), cables)
