"""The BOM's "Power and cooling" lines: PDUs, power shelves, busway taps, CDUs, CRAHs, manifolds."""

from __future__ import annotations

import pytest

from model.analysis.analyzer import analyze
from model.design.entities import Cdu, Cooling, Power, PowerFeed, PowerPanel
from model.engine.routed_links import RoutedLinks
from model.facility.parts import facility_cost, facility_items
from model.generators.generate import nvl72
from model.outputs.bom import bom_lines, bom_totals
from tests.builders import device, empty_hall, rack


def _by_kind(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item.kind] = out.get(item.kind, 0) + item.quantity
    return out


def test_an_nvl72_su_orders_8_shelves_and_8_taps_a_rack_and_2_pdus_a_network_rack():
    design = nvl72(racks=8)
    nvl = [r for r in design.racks.values() if r.type == "rack-nvl72"]
    other = [r for r in design.racks.values() if r.type != "rack-nvl72"]
    counts = _by_kind(facility_items(design))
    assert counts["power-shelf"] == 8 * len(nvl) == 64
    assert counts["rack-pdu"] == 2 * len(other)
    assert counts["busway-tap"] == 64 + 2 * len(other)
    assert counts["cdu"] == len(design.hall.cooling.cdus)
    assert counts["crah"] == len(design.hall.cooling.crahs)
    assert counts["rack-manifold"] == len(nvl)  # every liquid-cooled rack, in the rack's price
    shelves = [i for i in facility_items(design) if i.kind in ("power-shelf", "rack-manifold")]
    assert all(i.unit_price_usd == 0 for i in shelves)


def test_bom_lines_carry_the_facility_and_still_total_the_analysis_cost():
    design = nvl72(racks=2)
    plant = RoutedLinks(design)
    lines = bom_lines(design, plant)
    # The facility's parts: power and cooling plant, and rack PDUs (ordered with the PDUs)
    facility = [ln for ln in lines if ln.part in design.catalog.facility_parts]
    assert {ln.category for ln in facility} == {"Power and cooling", "PDUs"}
    # Catalog ids on the line; no vendor order code is published for these, so each is a quote.
    assert {ln.part for ln in facility} >= {"busway-tap-off", "nvl72-power-shelf"}
    assert {ln.part_number for ln in facility} == {"quote"}
    report = analyze(design, plant).to_json()
    assert report["cost_usd"]["facility"] == pytest.approx(
        sum(ln.total_price_usd for ln in facility)
    )
    assert bom_totals(lines).price_usd == pytest.approx(report["cost_usd"]["total"])
    assert "facility" not in analyze(nvl72(racks=2, facility="no")).to_json()["cost_usd"]


def test_cdu_price_grows_with_capacity_and_placed_pdus_are_not_counted_twice():
    design = empty_hall(10.0, 8.0)
    rack(design, "r1", 1.0, 3.0)
    device(design, "pdu1", "r1", 1, "pdu-1u-metered")  # one PDU already a device of the rack
    design.set_power(
        Power(
            feeds=(PowerFeed(id="F"),),
            panels=(PowerPanel(id="P", feed="F", points=[(0.5, 0.5)]),),
        )
    )
    design.set_rack_pdus({"r1": ["P", "P"]})
    design.set_cooling(
        Cooling(
            cdus=(
                Cdu(id="C1", point=(5.0, 5.0), capacity_kw=600.0),
                Cdu(id="C2", point=(6.0, 5.0), capacity_kw=1350.0),
            )
        )
    )
    items = {(i.kind, i.part_number): i for i in facility_items(design)}
    assert items["rack-pdu", "EST-PDU-3PH-415V-32A"].quantity == 1  # 2 cords, 1 placed PDU
    assert items["busway-tap", "EST-BUSWAY-TAP-63A"].quantity == 2
    small = items["cdu", "EST-CDU-INROW-600KW"].unit_price_usd
    large = items["cdu", "EST-CDU-INROW-1350KW"].unit_price_usd
    part = design.catalog.facility_parts["cdu-in-row"]
    assert small == part.price_usd + 600 * part.price_per_kw_usd
    assert large - small == 750 * part.price_per_kw_usd
    assert "rack-manifold" not in {k for k, _ in items}  # no liquid heat in this rack
    assert facility_cost(design)["facility"] == pytest.approx(
        sum(i.quantity * i.unit_price_usd for i in items.values())
    )
