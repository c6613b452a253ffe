"""The cabling session lays a hall out once per state: reused after a tray is only widened, laid
out afresh (and equal to a fresh layout) after a rack or a tray's line moves."""

from __future__ import annotations

import msgspec

from model.engine.routed_links import RoutedLinks
from model.generators.cabling_session import CablingSession
from model.generators.generate import fat_tree
from model.structured.layout import set_cabling, structured_layout
from model.structured.paths import RackDistances


def _zoned():
    design = fat_tree(k=8, switch="qm9700")
    set_cabling(design, "zones")
    return design


def _trunks(layout):
    return [(t.rack_a, t.rack_b, t.part, t.length_m, t.links) for t in layout.trunks]


def test_widened_tray_keeps_the_layout_and_a_moved_rack_lays_it_out_again():
    design = _zoned()
    with CablingSession(design) as session:
        first = session.layout()
        assert session.layout(panels_only=True) is first  # a full layout answers for panels
        tray = next(iter(design.trays.values()))
        design.update_trays([msgspec.structs.replace(tray, width_m=tray.width_m * 2, name="X")])
        assert session.layout() is first
        assert session.layouts_made == 1
        rack = next(r for r in design.racks.values())
        design.move_racks({rack.id: (rack.x, rack.y + 0.6)})
        moved = session.layout()
        assert moved is not first and session.layouts_made == 2
        fresh = structured_layout(RoutedLinks(design))
        assert _trunks(moved) == _trunks(fresh)
        assert moved.virtual_panels == fresh.virtual_panels


def test_shared_distances_match_a_fresh_search_after_a_tray_moves():
    design = _zoned()
    with CablingSession(design) as session:
        session.layout()
        tray = next(t for t in design.trays.values() if t.id.startswith("t-cross-"))
        (x0, y0), (x1, y1) = tray.points
        design.update_trays(
            [msgspec.structs.replace(tray, points=[(x0 + 1.2, y0), (x1 + 1.2, y1)])]
        )
        session.layout()
        fresh = RackDistances(RoutedLinks(design))
        racks = sorted(design.racks)
        pairs = [(a, b) for a in racks for b in racks if a < b]
        assert pairs
        assert [session.distances(a, b) for a, b in pairs] == [fresh(a, b) for a, b in pairs]


def test_plant_is_refreshed_for_trays_and_built_afresh_after_other_edits():
    """The plant's refresh chooses no media again for links that a placed panel sends elsewhere:
    after any edit but the trays' the session routes the hall afresh, as each step did."""
    design = _zoned()
    with CablingSession(design) as session:
        plant = session.refreshed()
        tray = next(iter(design.trays.values()))
        design.update_trays([msgspec.structs.replace(tray, width_m=tray.width_m * 2)])
        assert session.refreshed() is plant
        rack = next(r for r in design.racks.values())
        design.move_racks({rack.id: (rack.x, rack.y + 0.6)})
        rebuilt = session.refreshed()
        assert rebuilt is not plant and session.distances.plant is rebuilt
