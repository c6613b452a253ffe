"""Tray fill, weight and bend from routed cables and trunks, hand-computed on a small hall."""

from __future__ import annotations

import math

import msgspec
import pytest

from model.analysis import analyze
from model.analysis.tray_fill import TrayFill, TrunkLoad, trunk_load
from model.catalog.structured import structured_catalog
from model.design.entities import Tray
from model.engine.routed_links import RoutedLinks
from model.structured.layout import set_cabling, structured_layout
from tests.builders import device, empty_hall, link, rack

W_M, D_M = 0.3, 0.1  # the tray's cross-section


def l_hall(nics: int = 8, medium: str = "sr4-400g"):
    """DGX rack r1 on an L-shaped tray's first leg, leaf rack n1 on its second: every cable
    between them runs round the corner at (30, 3)."""
    design = empty_hall(width_m=40.0, depth_m=20.0)
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", 31.5, 12.0, rotation=90)
    tray = Tray(id="t-l", points=[(0.6, 3.0), (30.0, 3.0), (30.0, 18.0)], width_m=W_M, depth_m=D_M)
    design.add_trays([tray])
    device(design, "a1", "r1", 2, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    for nic in range(1, nics + 1):
        link(design, f"l-{nic}", ("a1", f"nic{nic}"), ("leaf1", f"p{nic}"), medium=medium)
    return design


def test_direct_fibres_fill_weigh_and_bend_as_hand_computed():
    design = l_hall()
    plant = RoutedLinks(design)
    assert all(plant.link_tray_spans(f"l-{n}") for n in range(1, 9))  # all on the tray
    trays = TrayFill()
    fill = trays.update(design, plant, None)
    area = 8 * math.pi * 0.003**2 / 4  # 8 fibres of 3.0 mm (NV-SP-DCD-NET)
    assert fill["t-l"] == pytest.approx(area / (W_M * D_M))
    load = trays.loads["t-l"]
    assert load.load_kg_per_m == pytest.approx(8 * 0.009)
    assert load.load_limit_kg_per_m == 74.0  # NEMA VE 1 12A
    assert load.bend_radius_mm == pytest.approx(15 * 3.0)  # fibre: 15 x OD static
    assert not load.overloaded and not load.bend_too_tight


def test_trunks_replace_the_fibres_and_bundling_keeps_to_trunks_that_turn_the_corner():
    design = l_hall()
    set_cabling(design, "cross-connect")
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    # 8 MPO-12 legs would fit one 144-fibre trunk, but its 9.5 mm needs 15 x 9.5 = 142.5 mm
    # of bend radius against the trays' 100 mm corner: two 48-fibre trunks (5.5 mm, 82.5 mm).
    assert sorted((t.part, t.legs) for t in layout.trunks) == [("trunk-mpo48-mm", 4)] * 2
    trays = TrayFill()
    fill = trays.update(design, plant, None, trunk_load(plant, layout))
    assert fill["t-l"] == pytest.approx(2 * math.pi * 0.0055**2 / 4 / (W_M * D_M))
    load = trays.loads["t-l"]
    weight = structured_catalog().trunks["trunk-mpo48-mm"].weight_kg_per_m
    assert load.load_kg_per_m == pytest.approx(2 * weight)
    assert load.bend_radius_mm == pytest.approx(15 * 5.5) and not load.bend_too_tight
    report = analyze(design, plant)
    assert report.tray_fill["t-l"] == pytest.approx(fill["t-l"])  # one definition
    assert not [w for w in report.warnings if w.code == "TRAY_BEND_RADIUS"]


def test_a_trunk_too_stiff_for_the_corner_is_flagged_on_its_tray(monkeypatch):
    # A tray class with a 40 mm corner: no trunk of the catalog turns it (MPO-12: 45 mm), so
    # bundling falls back to the largest and the analysis names the tray.
    design = l_hall()
    set_cabling(design, "cross-connect")
    sc = structured_catalog()
    monkeypatch.setattr(
        sc, "tray_class", msgspec.structs.replace(sc.tray_class, corner_radius_mm=40.0)
    )
    plant = RoutedLinks(design)
    (trunk,) = structured_layout(plant).trunks
    assert (trunk.part, trunk.legs) == ("trunk-mpo144-mm", 8)
    report = analyze(design, plant)
    (bend,) = [w for w in report.warnings if w.code == "TRAY_BEND_RADIUS"]
    assert bend.objects == ("t-l",) and "142.5 mm" in bend.message and "40 mm" in bend.message


def test_a_straight_run_does_not_bend():
    design = l_hall()
    design.update_trays(
        [Tray(id="t-l", points=[(0.6, 3.0), (35.0, 3.0)], width_m=W_M, depth_m=D_M)]
    )
    design.move_racks({"n1": (31.5, 3.0)})
    design.rotate_racks({"n1": 0})
    set_cabling(design, "cross-connect")
    plant = RoutedLinks(design)
    trays = TrayFill()
    trays.update(design, plant, None, trunk_load(plant, structured_layout(plant)))
    assert trays.loads["t-l"].bend_radius_mm == 0.0


def test_fill_thresholds_and_the_load_class_name_the_tray():
    design = l_hall()
    plant = RoutedLinks(design)
    route = int(plant.route_keys()[plant.index["l-1"]])
    heavy = TrunkLoad({}, ((route, W_M * D_M * 0.45, 80.0, 0.0),))  # 45 % more fill, 80 kg/m
    analyzer_fill = TrayFill()
    fill = analyzer_fill.update(design, plant, None, heavy)
    assert 0.4 < fill["t-l"] < 0.5
    load = analyzer_fill.loads["t-l"]
    assert load.overloaded and load.load_kg_per_m == pytest.approx(80.0 + 8 * 0.009)
    assert load.load_at is not None


def test_analysis_warns_at_40_and_errs_at_50_percent():
    design = l_hall()
    area = 8 * math.pi * 0.003**2 / 4
    points = design.trays["t-l"].points
    plant = RoutedLinks(design)
    for ratio, severity in ((0.45, "warning"), (0.55, "error")):
        depth = round(area / (ratio * 0.01), 6)  # a 10 mm wide tray this deep is `ratio` full
        design.update_trays([Tray(id="t-l", points=points, width_m=0.01, depth_m=depth)])
        plant.refresh()
        (w,) = [f for f in analyze(design, plant).warnings if f.code == "TRAY_OVERFILLED"]
        assert (w.severity, w.objects) == (severity, ("t-l",))
        assert f"{ratio:.0%}" in w.message


def test_a_zone_trunk_to_the_hda_rack_runs_along_the_trays_and_counts_in_fill_weight_and_bend():
    design = l_hall()
    rack(design, "r2", 2.1, 3.0)  # row R has no network gear: r2, its end nearest n1, is its HDA
    set_cabling(design, "zones")
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    assert [e.kind for e in layout.channels["l-1"].elements] == [
        *("cord", "panel", "trunk", "panel", "trunk", "panel", "cord")
    ]
    hda = {(t.rack_a, t.rack_b): t for t in layout.trunks}
    assert set(hda) == {("r1", "r2"), ("r2", "n1")}
    assert all(not t.route_link for t in hda.values())  # no link joins these racks
    trunks = trunk_load(plant, layout)
    assert len(trunks.own) == 4 and trunks.plus == ()  # two trunks per hop
    trays = TrayFill()
    fill = trays.update(design, plant, None, trunks)
    # The 8 fibres became trunks (two 48-fibre per hop: a 144 would not turn the 100 mm
    # corner); along the tray the r1-r2 and r2-n1 trunks meet at r2's drop and do not overlap,
    # so the peak is two 48-fibre trunks of 5.5 mm ...
    assert fill["t-l"] == pytest.approx(2 * math.pi * 0.0055**2 / 4 / (W_M * D_M))
    load = trays.loads["t-l"]
    weight = structured_catalog().trunks["trunk-mpo48-mm"].weight_kg_per_m
    assert load.load_kg_per_m == pytest.approx(2 * weight)
    # ... and the r2-n1 trunks run round the corner at (30, 3): 15 x 5.5 mm.
    assert load.bend_radius_mm == pytest.approx(15 * 5.5)
    assert TrayFill().update(design, plant, None, TrunkLoad(trunks.minus))["t-l"] == 0.0


def test_a_bank_of_parallel_trays_carries_each_trays_load_class():
    # A 1.8 m tray record is a bank of two 0.9 m tray products (model.plant.tray_products), each of
    # the 74 kg/m class: 100 kg/m overloads one tray but not the bank of two.
    design = l_hall()
    plant = RoutedLinks(design)
    route = int(plant.route_keys()[plant.index["l-1"]])
    heavy = TrunkLoad({}, ((route, 0.0, 100.0, 0.0),))
    points = design.trays["t-l"].points
    loads = {}
    for width_m in (0.9, 1.8):
        design.update_trays([Tray(id="t-l", points=points, width_m=width_m, depth_m=D_M)])
        plant.refresh()
        trays = TrayFill()
        trays.update(design, plant, None, heavy)
        loads[width_m] = trays.loads["t-l"]
    assert loads[0.9].load_limit_kg_per_m == 74.0 and loads[0.9].overloaded
    assert loads[1.8].load_limit_kg_per_m == 2 * 74.0 and not loads[1.8].overloaded


def test_counts_without_the_fill_sweep_equal_those_with_it():
    """``peaks=False`` (a picture showing no tray fill) skips only the fill figures: the
    bundles and used stretches read the same counts, after a full and an incremental update."""
    design = l_hall()
    plant = RoutedLinks(design)
    with_fill, without = TrayFill(), TrayFill()
    assert with_fill.update(design, plant, None)["t-l"] > 0
    assert without.update(design, plant, None, peaks=False) == {}
    assert without.loads == {} and without.peak_at == {}
    for trays in (with_fill, without):
        assert trays.update(design, plant, set(), peaks=trays is with_fill) is not None
    group = lambda m: m.kind  # noqa: E731 - the medium's kind as the bundle group
    assert without.cables_by_tray(plant, group) == with_fill.cables_by_tray(plant, group)
    assert without.cables_by_tray(plant, group) == {"t-l": {"mmf": 8}}  # sr4-400g
    assert without.used_stretches(plant) == with_fill.used_stretches(plant)
