"""The links table: sorting, filtering, selection both ways, and undoable edits of the pinned
medium and the length override."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from gui.panels.links_model import COL_MEDIUM, COL_ORDERED, COL_ROUTED, COL_TIER, LinksTableModel
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


@pytest.fixture
def s_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    docks(window).tabs.setCurrentWidget(docks(window).links)
    yield window
    close_quietly(window)


def _routed(model) -> list[float]:
    return [model.plant.routed_m[int(r)] for r in model.order]


def test_clicking_the_header_sorts_by_routed_length(s_window, qtbot):
    panel = docks(s_window).links
    header = panel.view.horizontalHeader()
    x = header.sectionViewportPosition(COL_ROUTED) + 10
    qtbot.mouseClick(header.viewport(), Qt.LeftButton, pos=header.rect().center().__class__(x, 5))
    values = _routed(panel.model)
    assert values == sorted(values)
    qtbot.mouseClick(header.viewport(), Qt.LeftButton, pos=header.rect().center().__class__(x, 5))
    values = _routed(panel.model)
    assert values == sorted(values, reverse=True)
    top = panel.model.index(0, COL_ROUTED).data()
    assert float(top.replace(",", "")) == pytest.approx(max(values), abs=0.01)


def test_filters_by_medium_tier_warning_and_rack(s_window, qtbot):
    panel = docks(s_window).links
    model = panel.model
    total = model.rowCount()
    panel.kind.setCurrentIndex(panel.kind.findData("copper"))
    assert model.rowCount() == 0  # the SuperPOD's split rail cages take modules + fibres
    assert panel.count.text() == f"0 of {total:,} links"
    panel.kind.setCurrentIndex(panel.kind.findData("mmf"))
    assert model.rowCount() == total
    panel.kind.setCurrentIndex(0)
    panel.tier.setCurrentIndex(panel.tier.findData("leaf-spine"))
    assert {model.index(r, COL_TIER).data() for r in range(model.rowCount())} == {"leaf-spine"}
    assert model.rowCount() == 1024
    panel.tier.setCurrentIndex(0)
    panel.warning.setCurrentIndex(1)
    assert model.rowCount() == 0  # the generated fabric routes every link
    panel.warning.setCurrentIndex(0)
    qtbot.keyClicks(panel.rack, "A01")
    design = s_window.document.design
    rack = next(r.id for r in design.racks.values() if r.name == "A01")
    assert model.rowCount() == len(design.links_of_racks([rack])) > 0
    panel.rack.clear()
    assert model.rowCount() == total


def test_filter_by_part_number(s_window, qtbot):
    panel = docks(s_window).links
    model = panel.model
    total = model.rowCount()
    # The DGX cages take the flat twin-port module: exactly the server-leaf links.
    qtbot.keyClicks(panel.part, "980-9I51A")
    assert model.rowCount() == 1024 < total
    assert {model.index(r, COL_TIER).data() for r in range(model.rowCount())} == {"server-leaf"}
    panel.part.clear()
    fibre = next(iter(s_window.document.plant and model.link_parts().values()))[5]
    qtbot.keyClicks(panel.part, fibre)
    parts = model.link_parts()
    assert model.rowCount() == sum(1 for v in parts.values() if v[5] == fibre) > 0
    panel.part.clear()
    assert model.rowCount() == total


def test_selection_follows_table_to_canvas_and_back(s_window, qtbot):
    window = s_window
    panel = docks(window).links
    model = panel.model
    panel.view.selectRow(3)
    link_id = model.link_id(3)
    assert window.scene.selected_ids() == [link_id]
    other = model.link_id(10)
    window.scene.select_ids([other])
    assert panel.selected_link_ids() == [other]


def test_pinning_a_medium_and_overriding_a_length_are_undoable(s_window, qtbot):
    window = s_window
    design = window.document.design
    model = docks(window).links.model
    from model.files.design_file import design_to_bytes

    original = design_to_bytes(design)
    link_id = model.link_id(0)
    choices = model.medium_choices(0)
    assert choices[0][0] == "auto" and len(choices) > 2
    pinned = next(m for m, _ in choices[1:] if m != "auto")
    assert model.setData(model.index(0, COL_MEDIUM), pinned)
    assert design.links[link_id].medium == pinned
    wait_fresh(qtbot, window)
    row = model.view_rows_of([link_id])[0]
    assert model.index(int(row), COL_MEDIUM).data().endswith("(pinned)")
    assert model.setData(model.index(int(row), COL_ORDERED), "42")
    assert design.links[link_id].length_override_m == 42.0
    wait_fresh(qtbot, window)
    row = int(model.view_rows_of([link_id])[0])
    assert "typed 42" in model.index(row, COL_ORDERED).data()
    assert not model.setData(model.index(row, COL_ORDERED), "forty")
    stack = window.document.stack
    edited = design_to_bytes(design)
    stack.undo()
    stack.undo()
    assert design.links[link_id].medium == "auto"
    assert design.links[link_id].length_override_m is None
    assert design_to_bytes(design) == original
    stack.redo()
    assert design.links[link_id].medium == pinned
    stack.redo()
    assert design_to_bytes(design) == edited


def test_medium_editor_offers_matching_media(s_window, qtbot):
    panel = docks(s_window).links
    view = panel.view
    index = panel.model.index(0, COL_MEDIUM)
    view.scrollTo(index)
    view.edit(index)
    from PySide6.QtWidgets import QComboBox

    combo = view.findChild(QComboBox)
    assert combo is not None and combo.itemData(0) == "auto" and combo.count() >= 2


def _python_calls(fn) -> tuple[int, float]:
    """How many functions ``fn`` calls from Python (Python ones and builtins), and its seconds.

    The work, not the time: a sort or filter done per row in Python at 400k rows makes hundreds
    of thousands of calls, numpy's argsort and masks a few hundred, on any machine and under any
    load (a time limit failed on a loaded machine and passed a slow implementation on a fast one).
    """
    calls = 0

    def count(frame, event, arg) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    started = time.perf_counter()
    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls, time.perf_counter() - started


@pytest.mark.slow
def test_sorting_and_filtering_400k_rows_is_fast():
    design = build("XL")
    plant = RoutedLinks(design)
    model = LinksTableModel(design, plant, stack=None)
    assert model.rowCount() == len(design.links) > 390_000
    sort_calls, sort_s = _python_calls(lambda: model.sort(COL_ROUTED, Qt.DescendingOrder))
    filter_calls, filter_s = _python_calls(lambda: model.set_filter(kind="mmf"))
    values = plant.routed_m[model.order]
    assert np.all(np.diff(values) <= 0)
    print(
        f"\nXL links table: sort {sort_s * 1000:.0f} ms ({sort_calls} calls), filter+sort "
        f"{filter_s * 1000:.0f} ms ({filter_calls} calls), {model.rowCount():,} multimode rows"
    )
    assert sort_calls < 10_000 and filter_calls < 10_000  # nothing per row: 390k+ rows
    assert model.index(0, COL_ROUTED).data()


def test_deleting_racks_shrinks_the_table_and_undo_restores_it(s_window, qtbot):
    window = s_window
    design = window.document.design
    model = docks(window).links.model
    total = model.rowCount()
    racks = [r.id for r in design.racks.values() if r.name in ("A01", "A02")]
    gone = len(design.links_of_racks(racks))
    docks(window).links.view.selectRow(total - 1)  # a row the deletion moves
    from gui.edit.commands import DeleteCommand

    window.scene.push(DeleteCommand(design, racks))
    qtbot.waitUntil(lambda: model.rowCount() == total - gone, timeout=5000)
    for row in (0, model.rowCount() - 1):
        assert model.index(row, 0).data()
    window.document.stack.undo()
    qtbot.waitUntil(lambda: model.rowCount() == total, timeout=5000)
    wait_fresh(qtbot, window)
    assert docks(window).panel.report.links_total == total


def test_double_clicking_a_row_centres_its_link_on_the_canvas(s_window, qtbot):
    window = s_window
    wait_fresh(qtbot, window)  # the user double-clicks a row of the loaded design
    panel = docks(window).links
    window.view.scale(8, 8)  # zoomed in: most of the hall is off screen
    model = panel.model
    row = model.rowCount() - 1
    link_id = model.link_id(row)
    index = model.index(row, 0)
    panel.view.scrollTo(index)
    activated = []
    panel.link_activated.connect(activated.append)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # no earlier click pairs with it
    # The table refreshes its rows with each analysis result; a refresh between the two
    # presses loses the double-click (Qt compares the pressed index), so the user's
    # double-click comes once the loaded design's analysis is in.
    wait_fresh(qtbot, window)
    where = panel.view.visualRect(index).center()
    qtbot.mouseClick(panel.view.viewport(), Qt.LeftButton, pos=where)  # the row, then again
    qtbot.wait(QApplication.doubleClickInterval() + 50)
    qtbot.mouseDClick(panel.view.viewport(), Qt.LeftButton, pos=where)
    assert activated == [link_id]
    assert window.scene.selected_ids() == [link_id]
    item = window.scene.link_items[link_id]

    def shown() -> bool:
        visible = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
        return visible.intersects(item.sceneBoundingRect())

    # In view once the events the double-click queued (selection, docks) have run, and it
    # stays there.
    qtbot.waitUntil(shown, timeout=2000)
    qtbot.wait(50)
    assert shown()


def test_a_rack_move_repaints_the_moved_links_rows_only(s_window, qtbot):
    from gui.edit.commands import MoveRacksCommand

    model = docks(s_window).links.model
    design = s_window.document.design
    wait_fresh(qtbot, s_window)
    covered: list[int] = []
    model.dataChanged.connect(
        lambda top, bottom, *_: covered.extend(range(top.row(), bottom.row() + 1))
    )
    heard: list[set[str]] = []
    docks(s_window).runner.plant_refreshed.connect(heard.append)
    # Racks whose links are far apart in the table: the span between them is not repainted.
    index = model.plant.index

    def apart(link_ids) -> bool:
        rows = [index[i] for i in link_ids]
        return len(rows) > 1 and max(rows) - min(rows) + 1 > len(rows)

    rack = next(r for r in design.racks.values() if apart(design.links_of_racks([r.id])))
    s_window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 3.0, rack.y)}))
    wait_fresh(qtbot, s_window)
    changed = set().union(*heard)
    assert changed
    rows = {index[i] for i in changed}
    assert apart(changed)  # rows apart: a span would cover others
    assert set(covered) == rows  # each changed row, no other


def test_a_change_of_many_links_repaints_in_one_span(s_window, qtbot, monkeypatch):
    """Past MANY_CHANGED links (a tray edit at XL: 259k), one signal spans the table and the
    changed ids are not looked up one by one on the GUI thread."""
    import gui.panels.links_model as links_model

    model = docks(s_window).links.model
    wait_fresh(qtbot, s_window)
    signals: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom, *_: signals.append((top.row(), bottom.row())))
    monkeypatch.setattr(links_model, "MANY_CHANGED", 10)
    ids = model.plant.link_ids
    assert model.plant_changed(set(ids[:5])) is False
    assert len(signals) == 1 and signals[0][1] < model.rowCount() - 1  # few: their rows only
    signals.clear()
    assert model.plant_changed(set(ids[3:20])) is False
    assert signals == [(0, model.rowCount() - 1)]
