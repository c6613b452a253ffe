"""A rack move or removal that changes other racks' zone hubs chooses those racks' links' media
again (#43): the live plant after the edit equals a fresh plant of the edited design, link by
link and in the report. A zone hub follows the rows and the network racks' centroid, so an edit
of one rack can change the patch points of links that do not touch it."""

from __future__ import annotations

import numpy as np

from cli import run_cli
from model.analysis.analyzer import analyze
from model.design.design import DesignError
from model.engine.move_undo import checkpoint, restore
from model.engine.patch_points import zone_hubs
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from tests.model.test_structured_relay import EditorWorker


def _generated(tmp_path, *args):
    path = tmp_path / "zoned.hall.json"
    assert run_cli(["generate", *args, "--cabling", "zones", "-o", str(path)]) == 0
    return load_design(path)


def _assert_plant_is_fresh(design, live: RoutedLinks) -> None:
    fresh = RoutedLinks(design)
    order = np.array([fresh.index[link_id] for link_id in live.link_ids], dtype=np.int64)
    assert sorted(live.link_ids) == sorted(fresh.link_ids)
    for name in ("medium_index", "ordered_m", "length_m", "status"):
        np.testing.assert_array_equal(getattr(live, name), getattr(fresh, name)[order], name)
    assert analyze(design, live).to_json() == analyze(design, fresh).to_json()


def test_rack_moves_that_change_zone_hubs_choose_those_links_again(tmp_path):
    design = _generated(tmp_path, "fat-tree", "--k", "8", "--switch", "qm9700")
    live = RoutedLinks(design)
    hubs_changed = 0
    # A05 moved about its row: some of these steps change the hubs of its neighbours A04/A06.
    for dx, dy in [(1.2, 0), (-2.4, 0), (3.6, 1.2), (0, -1.2), (-6.0, 0)]:
        before = dict(zone_hubs(design))
        rack = design.racks["A05"]
        try:
            design.move_racks({"A05": (rack.x + dx, rack.y + dy)})
        except DesignError:
            continue
        live.refresh()
        hubs_changed += any(before.get(r) != h for r, h in zone_hubs(design).items() if r != "A05")
        _assert_plant_is_fresh(design, live)
    assert hubs_changed  # the steps exercised what the test is about


def test_removing_a_network_rack_chooses_the_media_of_racks_whose_hub_changed(tmp_path):
    design = _generated(tmp_path, "nvl72", "--racks", "2", "--fabrics", "all")
    live = RoutedLinks(design)
    before = dict(zone_hubs(design))
    design.remove_racks(["D01"])
    live.refresh()
    after = zone_hubs(design)
    assert any(before[r] != after[r] for r in after)
    _assert_plant_is_fresh(design, live)


def test_undoing_a_move_that_changed_hubs_puts_every_link_back(tmp_path):
    """The optimiser's checkpoint holds the moved rack's rows only: after a move that changed
    other racks' hubs it is refused, and the move back chooses those racks' links again."""
    design = _generated(tmp_path, "fat-tree", "--k", "8", "--switch", "qm9700")
    live = RoutedLinks(design)
    rack = design.racks["A05"]
    place = (rack.x, rack.y)
    before = dict(zone_hubs(design))
    saved = checkpoint(live, ["A05"])
    design.move_racks({"A05": (rack.x + 3.6, rack.y + 1.2)})
    live.refresh()
    assert any(before[r] != h for r, h in zone_hubs(design).items() if r != "A05")
    design.move_racks({"A05": place})
    assert saved is not None and not restore(live, saved)
    live.refresh()
    _assert_plant_is_fresh(design, live)


def test_a_deferred_move_that_changed_hubs_chooses_those_links_when_finished(tmp_path):
    """The optimiser's moves leave their media to finish_media: it compares the hubs then."""
    design = _generated(tmp_path, "fat-tree", "--k", "8", "--switch", "qm9700")
    live = RoutedLinks(design)
    rack = design.racks["A03"]
    place = (rack.x, rack.y)
    before = dict(zone_hubs(design))
    design.move_racks({"A03": (rack.x - 1.2, rack.y)})
    live.refresh(defer_media=True)
    assert any(before[r] != h for r, h in zone_hubs(design).items() if r != "A03")
    live.finish_media()
    _assert_plant_is_fresh(design, live)
    # Moved back and undone by its checkpoint before its media are chosen: nothing else changed.
    saved = checkpoint(live, ["A03"])
    design.move_racks({"A03": place})
    live.refresh(defer_media=True)
    design.move_racks({"A03": (rack.x - 1.2, rack.y)})
    assert saved is not None and restore(live, saved)
    _assert_plant_is_fresh(design, live)


def test_the_editors_report_after_a_hub_changing_edit_equals_a_fresh_one(tmp_path):
    """The editor's analysis worker (snapshot per edit, Analyzer.advance) reports the media the
    plant chose again: the channels' margins, optics and cost of a fresh analysis."""
    design = _generated(tmp_path, "nvl72", "--racks", "2", "--fabrics", "all")
    worker = EditorWorker(design)
    try:
        design.remove_racks(["D01"])
        report = worker.advance()
        assert report.to_json() == analyze(design, RoutedLinks(design)).to_json()
    finally:
        worker.close()
