"""Figures the analyzer keeps while the devices stand (facility cost, co-packaged switches) are
redone after every edit that changes what they read, and equal a from-scratch analysis."""

from __future__ import annotations

import msgspec
import numpy as np

from model.analysis import Analyzer, analyze
from model.design.entities import Cdu, Cooling
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate, nvl72


def _fresh(design) -> dict:
    plant = RoutedLinks(design)
    plant.refresh()
    return analyze(design, plant).to_json()


def _same(analyzer, design, *keys) -> None:
    kept, fresh = analyzer.report().to_json(), _fresh(design)
    for key in keys:
        assert kept[key] == fresh[key], key


def _nudge_a_tray(design) -> None:
    tray = next(iter(design.trays.values()))
    (x, y), *rest = tray.points
    design.set_tray_points(tray.id, [(x + 0.3, y), *rest])


def test_facility_cost_follows_pdus_cooling_and_devices_not_trays():
    design = nvl72(racks=2)
    analyzer = Analyzer(design, RoutedLinks(design))
    first = analyzer.report().to_json()["cost_usd"]["facility"]
    _nudge_a_tray(design)
    _same(analyzer, design, "cost_usd")
    rack = next(r for r in design.racks.values() if r.pdus)
    design.set_rack_pdus({rack.id: [*rack.pdus, rack.pdus[0]]})  # one more cord: a tap-off more
    _same(analyzer, design, "cost_usd")
    assert analyzer.report().to_json()["cost_usd"]["facility"] > first
    cooling = design.hall.cooling
    bigger = tuple(
        msgspec.structs.replace(c, capacity_kw=c.capacity_kw * 2) for c in cooling.cdus
    ) or (Cdu(id="C9", point=(1.0, 1.0), capacity_kw=900.0),)
    design.set_cooling(msgspec.structs.replace(cooling, cdus=bigger))
    _same(analyzer, design, "cost_usd")
    pdu = next((d for d in design.devices.values() if "pdu" in d.type), None)
    if pdu is not None:  # a placed PDU is not ordered again: removing it orders one more
        design.remove_devices([pdu.id])
        _same(analyzer, design, "cost_usd")
    design.set_cooling(Cooling())
    _same(analyzer, design, "cost_usd")


def test_co_packaged_optics_follow_the_switches_and_their_links():
    design = generate(
        "leaf-spine", nodes=4, node_type="dgx-b300", switch="q3400", optics="co-packaged"
    )
    analyzer = Analyzer(design, RoutedLinks(design))
    before = analyzer.report().to_json()["optics"]
    assert before["by_tier"]["leaf"]["laser_sources"] > 0
    assert before["strategy"]["leaf"] == "co-packaged"
    _nudge_a_tray(design)
    _same(analyzer, design, "optics", "cost_usd", "power_w")
    leaf = next(d for d in design.devices.values() if d.role == "leaf")
    design.remove_links([i for i in design.links_of_device(leaf.id)][:8])  # fewer ports lit
    _same(analyzer, design, "optics", "cost_usd", "power_w")
    design.remove_devices([leaf.id])  # the only leaf: no co-packaged leaf tier left
    _same(analyzer, design, "optics", "cost_usd", "power_w")
    after = analyzer.report().to_json()["optics"]
    assert "leaf" not in after["by_tier"] or not after["by_tier"]["leaf"]["laser_sources"]


def test_link_media_read_in_row_order_equals_the_gathered_count():
    """The analyzer's plant rows in order (every row, an arange): the columns read as they
    are give the very figures of the gathered read."""
    from model.analysis.link_media import link_media
    from model.analysis.topology import infer_topology

    design = nvl72(racks=2)
    plant = RoutedLinks(design)
    plant.refresh()
    topo = infer_topology(design)
    assert list(plant.link_ids) == topo.link_ids
    rows = np.arange(len(topo.link_ids), dtype=np.int64)
    fast, gathered = link_media(topo, plant, rows, in_order=True), link_media(topo, plant)
    assert fast.length_total_m > 0
    for name in ("by_kind", "by_medium", "no_medium", "length_total_m", "length_max_m"):
        assert getattr(fast, name) == getattr(gathered, name), name
    assert fast.ordered_total_m == gathered.ordered_total_m
    assert np.array_equal(fast.kind_of_link, gathered.kind_of_link)
