"""Patch racks (#43 item 1): a network rack with no U for its panels puts them in a patch rack of
its row, and the generator places patch racks where its network racks are full."""

from __future__ import annotations

import numpy as np
import pytest

from model.analysis import analyze
from model.design.structured_edit import panels_in_rack, patch_racks, place_panel, remove_panels
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.bom import bom_lines
from model.structured.layout import place_panels, set_cabling, structured_layout
from model.structured.paths import overflow_racks, patch_way_m
from tests.builders import rack
from tests.model.test_structured_panels import zone_hall

PATCH = "rack-patch-48u-600x1200"


def fill_free_u_with_enclosures(design, rack_id: str) -> None:
    """Every free U of rack ``rack_id`` taken by an LC enclosure, its panels removed first: its
    MPO panels then have no room and overflow to a patch rack of its run (or stay virtual)."""
    for panel in list(panels_in_rack(design, rack_id)):
        remove_panels(design, [panel.id])
    taken = set()
    for d in design.devices_in_rack(rack_id):
        taken.update(range(d.u, d.u + design.device_type(d).u_height))
    for u in range(design.racks[rack_id].height_u, 0, -1):
        if u not in taken:
            place_panel(design, rack_id, "enclosure-1u-4", u=u)


def _full_leaf_rack():
    """zone_hall's cross-connected hall whose leaf rack B01 has every free U taken by LC
    enclosures: its MPO panel has no room (a virtual panel, PANELS_NOT_PLACED)."""
    design = zone_hall("sr4-400g")
    set_cabling(design, "cross-connect")
    fill_free_u_with_enclosures(design, "b1")
    place_panels(design)
    return design


def _cords_m(layout) -> dict[str, float]:
    return {c.link_id + c.end: c.length_m for c in layout.cords}


def test_a_full_rack_puts_its_panels_in_the_patch_rack_of_its_row():
    design = _full_leaf_rack()
    before = structured_layout(RoutedLinks(design))
    assert [f.code for f in before.findings] == ["PANELS_NOT_PLACED"]
    rack(design, "bp1", 11.1, 6.0, name="B-P1", type_id=PATCH)  # beside B01 in row B
    rack(design, "a9", 11.7, 3.0, name="A09", type_id=PATCH)  # another row's: not B01's
    assert patch_racks(design) == {"bp1", "a9"}
    assert overflow_racks(design)["b1"] == ("bp1",)
    assert place_panels(design) == 1
    (panel,) = panels_in_rack(design, "bp1")
    assert panels_in_rack(design, "a9") == []
    plant = RoutedLinks(design)
    after = structured_layout(plant)
    assert after.findings == [] and after.virtual_panels == {}
    assert after.panel_use[panel.id][0] == 6  # the six leaf ports' MPO legs
    # The leaf's cords run on to the patch rack: each exactly the way between the racks longer
    # (before, the virtual panel stood in B01 itself); the server ends are as they were.
    way_m = patch_way_m(design.racks["b1"], design.racks["bp1"])
    assert way_m == pytest.approx(0.6)
    old, new = _cords_m(before), _cords_m(after)
    grown = sorted(round(new[k] - old[k], 9) for k in old)
    assert grown == [0.0] * 6 + [round(way_m, 9)] * 6
    # Its trunks are ordered for the served rack's route plus that way (and the slack %).
    slack = 1 + design.settings.slack_pct / 100
    for t_old, t_new in zip(before.trunks, after.trunks, strict=True):
        assert t_new.length_m == pytest.approx(t_old.length_m + way_m * slack)
        assert panel.id in (t_new.panel_a, t_new.panel_b)
    assert not [w for w in analyze(design, plant).warnings if w.code == "PANELS_NOT_PLACED"]


def test_the_media_choice_counts_the_way_to_the_patch_rack():
    """The engine's channel pieces (what the media choice judges a channel's length by) add
    the way to the patch rack at the network rack's end, as the layout lays it."""
    design = _full_leaf_rack()
    before = RoutedLinks(design)
    before.refresh()
    rows = np.arange(len(before.link_ids))
    _, old = before._channels(rows)
    rack(design, "bp1", 11.1, 6.0, name="B-P1", type_id=PATCH)
    place_panels(design)
    after = RoutedLinks(design)
    after.refresh()
    assert list(after.link_ids) == list(before.link_ids)
    _, new = after._channels(rows)
    slack = 1 + design.settings.slack_pct / 100
    np.testing.assert_allclose(new.cord_a_m, old.cord_a_m)  # the servers' ends (row A)
    np.testing.assert_allclose(new.cord_b_m, old.cord_b_m + 0.6)  # the leaf's, in B01
    np.testing.assert_allclose(new.trunk_m, old.trunk_m + 0.6 * slack)


def test_a_patch_rack_across_a_cross_aisle_serves_no_rack_of_the_other_run():
    design = _full_leaf_rack()
    rack(design, "bp1", 12.9, 6.0, name="B-P1", type_id=PATCH)  # 2 m on: an aisle between
    assert overflow_racks(design) == {}
    assert place_panels(design) == 0
    rack(design, "bp2", 11.1, 6.0, name="B-P2", type_id=PATCH)  # beside B01: its run
    assert overflow_racks(design)["b1"] == ("bp2",)


def test_without_a_patch_rack_in_its_row_the_panel_stays_virtual():
    design = _full_leaf_rack()
    rack(design, "a9", 11.7, 3.0, name="A09", type_id=PATCH)  # row A only
    assert place_panels(design) == 0
    layout = structured_layout(RoutedLinks(design))
    assert [f.objects for f in layout.findings if f.code == "PANELS_NOT_PLACED"] == [("b1",)]


def test_a_generated_spine_rack_gets_a_patch_rack_beside_it_and_no_finding():
    """256 HGX H100 on SN5600, cross-connected: the spine rack C01 (16 SN5600, 16 U free) needs
    29 panels. A patch rack C-P1 stands next to it, holds the other 13, and the hall has no
    finding of any severity; nothing else moved."""
    params = dict(nodes=256, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64)
    direct = generate("rail-optimized", **params)
    design = apply_cabling(generate("rail-optimized", **params), "cross-connect")
    assert patch_racks(design) == {"C-P1"}
    assert design.generation_notes[-1].startswith("1 patch rack beside the 1 network rack whose")
    patch, spine = design.racks["C-P1"], design.racks["C01"]
    assert (patch.x, patch.y, patch.rotation) == (spine.x + 0.6, spine.y, spine.rotation)
    assert {r: (v.x, v.y) for r, v in design.racks.items() if r != "C-P1"} == {
        r: (v.x, v.y) for r, v in direct.racks.items()
    }
    assert len(panels_in_rack(design, "C-P1")) == 13 and len(panels_in_rack(design, "C01")) == 16
    plant = RoutedLinks(design)
    plant.refresh()
    report = analyze(design, plant)
    assert report.warnings == [], [f"{w.code}: {w.message}" for w in report.warnings[:3]]
    # Ordered as the 48U 600 x 1200 mm frame it is, on that frame's one line
    racks = [ln for ln in bom_lines(design, plant) if ln.category == "Racks"]
    assert sum(ln.quantity for ln in racks) == len(design.racks)
    assert not any("patch rack" in ln.description for ln in racks)


def test_a_second_round_of_patch_racks_in_a_row_takes_new_names_and_places():
    """generate --cabling may add patch racks to a row twice (its media, and so its panels,
    change as routes move): the second round names them on and sets them beside the first."""
    from model.generators.patch_racks import add_patch_racks

    design = _full_leaf_rack()
    assert add_patch_racks(design, {"b1": 60}) == ["B-P1", "B-P2"]  # 60 U: two of 47
    assert add_patch_racks(design, {"b1": 60}) == ["B-P3", "B-P4"]
    row = sorted((r for r in design.racks.values() if r.y == 6.0), key=lambda r: r.x)
    assert [r.name for r in row] == ["B01", "B-P3", "B-P4", "B-P1", "B-P2"]
    assert all(round(b.x - a.x, 6) == 0.6 for a, b in zip(row, row[1:], strict=False))


def test_a_cord_to_a_patch_rack_panel_says_the_racks_it_runs_between():
    """The schedule's route of a cord whose panel stands in a patch rack names the two racks,
    from the row's A end (it read "(in rack)"); a cord in its own rack still reads so."""
    from model.outputs.schedule import schedule_rows

    design = _full_leaf_rack()
    rack(design, "bp1", 11.1, 6.0, name="B-P1", type_id=PATCH)
    place_panels(design)
    plant = RoutedLinks(design)
    cords = [r for r in schedule_rows(design, plant) if r.medium_kind == "patch-cord"]
    across = [r for r in cords if r.a_rack != r.b_rack]
    assert len(across) == 6  # the leaf's six cords (before: virtual panel in B01 itself)
    assert {r.route for r in across} == {f"{r.a_rack} > {r.b_rack}" for r in across}
    assert {r.a_rack for r in across} | {r.b_rack for r in across} == {"B01", "B-P1"}
    assert {r.route for r in cords if r.a_rack == r.b_rack} == {"(in rack)"}
