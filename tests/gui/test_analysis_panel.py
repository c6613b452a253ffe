"""The live analysis panel: model edit (through the undo command the canvas uses) → runner →
tiles, delta, warnings and links table; recomputing state; stale results never shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gui.edit.commands import DeleteCommand, MoveRacksCommand
from gui.panels.links_model import COL_MEDIUM
from tests.benchmarks.workloads import build
from tests.builders import copper_pod
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


@pytest.fixture
def s_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    yield window
    close_quietly(window)


def _medium_column(window) -> list[str]:
    model = docks(window).links.model
    return [model.index(r, COL_MEDIUM).data() for r in range(model.rowCount())]


@pytest.fixture
def copper_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, copper_pod())
    yield window
    close_quietly(window)


def test_moving_a_server_rack_beyond_copper_reach_updates_counts_delta_and_table(
    copper_window, qtbot
):
    window = copper_window
    d = docks(window)
    design = window.document.design
    wait_fresh(qtbot, window)
    before = d.panel.report
    assert before.links_by_kind["acc"] == 16 and before.plant["cables"]["by_kind"] == {"acc": 8}
    assert "LACC 16" in d.panel.tiles["cables"].detail.text()
    assert "8 cables" in d.panel.tiles["cables"].value.text()
    lacc_rows_before = sum("LACC" in (m or "") for m in _medium_column(window))
    # the drag of the canvas ends in exactly this command (SelectInteraction.release)
    window.scene.push(MoveRacksCommand(design, {"r2": (9.0, 3.0)}))
    assert not d.runner.fresh
    assert "recomputing" in d.panel.status.text()
    wait_fresh(qtbot, window)
    after = d.panel.report
    flipped = before.links_by_kind["acc"] - after.links_by_kind["acc"]
    assert flipped == 8 and after.links_by_kind["mmf"] == 8
    delta = d.panel.delta.text()
    # The delta counts physical things: 8 modules (4 cages each end), 4 cables become 8 fibres.
    assert f"+{flipped:,} MMF" in delta and f"−{flipped:,} LACC" in delta
    assert "+8 modules" in delta and "+4 cables" in delta
    assert delta.startswith("Move rack R2:")
    assert "W" in delta and "+" in delta
    assert "mmf-fibre 8" in d.panel.tiles["cables"].detail.text()
    assert "up to date" in d.panel.status.text()
    lacc_rows_after = sum("LACC" in (m or "") for m in _medium_column(window))
    assert lacc_rows_after == lacc_rows_before - flipped

    window.document.stack.undo()
    wait_fresh(qtbot, window)
    assert d.panel.report.links_by_kind == before.links_by_kind
    assert "−8 modules" in d.panel.delta.text()
    assert d.panel.delta.text().startswith("Undo Move rack R2:")


def test_power_tile_shows_typical_and_max(s_window, qtbot):
    d = docks(s_window)
    report = d.panel.report
    from gui.panels.analysis_panel import _watts

    tile = d.panel.tiles["power"]
    assert "typical / max" in tile.caption.text()
    # exactly the model's two figures, typical first
    total, total_max = report.power_w["total"], report.power_w_max["total"]
    assert tile.value.text() == f"{_watts(total)} / {_watts(total_max)}"
    assert report.power_w_max["total"] > report.power_w["total"]


def test_results_of_an_older_revision_are_never_published(s_window, qtbot, monkeypatch):
    import threading

    from model.analysis.analyzer import Analyzer

    window = s_window
    d = docks(window)
    design = window.document.design
    published = []
    d.runner.finished.connect(lambda result: published.append((result.revision, design.revision)))
    # The incremental analysis of S takes milliseconds: hold the job so the edit lands mid-job.
    gate, advance = threading.Event(), Analyzer.advance
    monkeypatch.setattr(Analyzer, "advance", lambda self, *a: (gate.wait(10), advance(self, *a))[1])
    rack = next(r for r in design.racks.values() if r.name == "A05")
    window.scene.push(MoveRacksCommand(design, {rack.id: (14.8, rack.y)}))
    qtbot.waitUntil(lambda: d.runner._job is not None, timeout=5000)  # a job is reading the model
    window.scene.push(MoveRacksCommand(design, {rack.id: (0.8, rack.y)}))
    gate.set()
    wait_fresh(qtbot, window)
    assert published and all(rev == current for rev, current in published)
    assert published[-1][0] == design.revision


def test_clicking_a_warning_selects_and_centres_its_objects(s_window, qtbot):
    window = s_window
    d = docks(window)
    design = window.document.design
    rack = next(r for r in design.racks.values() if r.name == "C18")
    window.scene.push(MoveRacksCommand(design, {rack.id: (30.0, rack.y)}))  # outside the hall
    wait_fresh(qtbot, window)
    codes = {w.code for w in d.panel.report.warnings}
    assert "RACK_OUTSIDE_HALL" in codes
    d.tabs.setCurrentWidget(d.warnings)
    tree = d.warnings.tree
    group = next(
        tree.topLevelItem(i).child(j)
        for i in range(tree.topLevelItemCount())
        for j in range(tree.topLevelItem(i).childCount())
        if tree.topLevelItem(i).child(j).text(0).startswith("RACK_OUTSIDE_HALL")
    )
    assert group.text(0) == "RACK_OUTSIDE_HALL (1)"
    group.setExpanded(True)
    item = group.child(0)
    tree.scrollToItem(item)
    rect = tree.visualItemRect(item)
    window.scene.clearSelection()
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.scene.selected_ids() == [rack.id]
    visible = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert visible.contains(window.scene.racks[rack.id].sceneBoundingRect())
    # the rack carries a badge on the canvas
    assert d.marks.rack_severity.get(rack.id) in ("warning", "error")


def test_removing_the_trays_raises_no_tray_path_and_undo_clears_it(s_window, qtbot):
    window = s_window
    d = docks(window)
    design = window.document.design
    window.scene.push(DeleteCommand(design, list(design.trays)))
    wait_fresh(qtbot, window)
    assert any(w.code == "NO_TRAY_PATH" for w in d.panel.report.warnings)
    assert "warning" in d.panel.delta.text()
    assert d.marks.rack_severity
    window.document.stack.undo()
    wait_fresh(qtbot, window)
    assert not any(w.code == "NO_TRAY_PATH" for w in d.panel.report.warnings)
    assert d.warnings.tree.topLevelItemCount() == 0 or not d.panel.report.warnings


def test_tiles_explain_themselves(s_window):
    for tile in docks(s_window).panel.tiles.values():
        assert len(tile.toolTip()) > 40


def test_a_person_drags_the_network_rack_away_removes_trays_and_undoes_it_all(s_window, qtbot):
    """The "done when" of issue 7 on the SuperPOD-like S hall, driven with the mouse."""
    from tests.gui.analysis_support import drag_on_canvas

    window = s_window
    d = docks(window)
    design = window.document.design
    start = d.panel.report
    rack = next(r for r in design.racks.values() if r.name == "A05")
    drag_on_canvas(window.view, (rack.x, rack.y), (14.8, rack.y))
    assert design.racks[rack.id].x > 12.0
    wait_fresh(qtbot, window)
    moved = d.panel.report
    # Every link of the SuperPOD is on modules and fibres already: the move lengthens fibres.
    assert moved.cost_usd["cables"] > start.cost_usd["cables"]
    assert moved.plant["cages"]["invalid"] == 0
    assert "$" in d.panel.delta.text()

    window.scene.select_ids(design.trays)
    window.delete_selection()
    wait_fresh(qtbot, window)
    assert any(w.code == "NO_TRAY_PATH" for w in d.panel.report.warnings)
    assert d.warnings.tree.topLevelItemCount() >= 1

    window.undo_action.trigger()
    window.undo_action.trigger()
    wait_fresh(qtbot, window)
    assert d.panel.report.to_json() == start.to_json()
    assert d.warnings.tree.topLevelItemCount() == 0


def test_tiles_look_stale_while_recomputing_and_red_when_bad(qtbot):
    """A tile's value greys (its label disabled) when the panel goes stale, comes back with the
    next figures, and is drawn red only while its figure is bad."""
    from PySide6.QtGui import QPalette

    from gui.panels.analysis_panel import BAD_VALUE, FRESH_VALUE, Tile

    def colour(group) -> str:
        tile.value.ensurePolished()
        return tile.value.palette().color(group, tile.value.foregroundRole()).name()

    tile = Tile("Oversubscription", "tooltip")
    qtbot.addWidget(tile)
    assert not tile.value.isEnabled()  # no report yet
    tile.set("1.00:1", "target 1.00:1")
    assert tile.value.isEnabled() and tile.value.styleSheet() == FRESH_VALUE
    assert colour(QPalette.ColorGroup.Active) == "#111111"
    tile.set_stale()
    assert not tile.value.isEnabled() and tile.value.text() == "1.00:1"
    assert colour(QPalette.ColorGroup.Disabled) == "#9aa0a6"
    tile.set("3.00:1", "target 1.00:1", bad=True)
    assert tile.value.isEnabled() and tile.value.styleSheet() == BAD_VALUE
    assert colour(QPalette.ColorGroup.Active) == "#c92a2a"
    tile.set_stale()
    assert colour(QPalette.ColorGroup.Disabled) == "#9aa0a6"
    tile.set("1.00:1", "target 1.00:1")
    assert (
        tile.value.styleSheet() == FRESH_VALUE and colour(QPalette.ColorGroup.Active) == "#111111"
    )
