"""The editor's what-if tools: right-click → What if this fails?, the blast radius on the plan,
the worst failure per tier, File → Compare With… and the sweep Pareto view."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu

from gui.panels.whatif_panel import ROWS, WORST_COLUMNS
from model.analysis.whatif import links_on_tray, what_if
from model.files.design_file import design_to_bytes, read_design_bytes, save_design
from model.generators.generate import rail_optimized
from model.studies.compare import KPI_LABELS
from model.studies.sweep import pareto_front
from tests.gui.conftest import close_quietly, make_window, view_point


@pytest.fixture
def rail_window(qtbot, tmp_path):
    design = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=16)
    path = tmp_path / "rail.hall.json"
    save_design(design, path)
    win = make_window(qtbot, tmp_path, path)
    yield win
    close_quietly(win)


def _rack_centre(window, rack_id):
    rack = window.document.design.racks[rack_id]
    item = window.scene.racks[rack_id]
    centre = item.mapToScene(item.footprint().center())
    assert rack.id == rack_id
    return centre.x(), centre.y()


def _right_click_and_choose(window, x, y, choose):
    """Right-click the plan at (x, y) m and trigger the menu entry ``choose(menu)`` returns."""
    view = window.view
    pos = view_point(view, x, y).toPoint()
    chosen = []

    def pick():
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        action = choose(menu)
        chosen.append(action.text())
        menu.close()
        action.trigger()

    QTimer.singleShot(50, pick)
    event = QContextMenuEvent(QContextMenuEvent.Mouse, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    QApplication.processEvents()
    assert chosen, "the context menu did not open"
    return chosen[0]


def _action(menu, prefix):
    for action in menu.actions():
        if action.text().startswith(prefix):
            return action
        if action.menu() is not None:
            for sub in action.menu().actions():
                if sub.text().startswith(prefix):
                    return sub
    raise AssertionError(f"no menu entry {prefix!r} in {[a.text() for a in menu.actions()]}")


def test_right_click_a_spine_reads_what_its_loss_costs(rail_window):
    window = rail_window
    design = window.document.design
    spine = design.devices["spine01"]
    x, y = _rack_centre(window, spine.rack)
    text = _right_click_and_choose(window, x, y, lambda m: _action(m, "spine01"))
    assert text.startswith("spine01")
    tools = window.whatif
    result = tools.panel.result
    assert result["failed"] == ["spine01"]
    expected = what_if(design, None, ["spine01"])
    assert result["after"]["bisection_gbps"] == expected["after"]["bisection_gbps"]
    assert result["after"]["bisection_gbps"] <= result["before"]["bisection_gbps"]
    # The panel shows the model's figures; the plan marks the spine's rack as failed.
    tb_s = expected["after"]["bisection_gbps"] / 1000
    row = [name for name, _ in ROWS].index("Bisection")
    assert tools.panel.table.item(row, 1).text() == f"{tb_s:,.2f} Tb/s"
    assert tools.dock.isVisible()
    assert tools.overlay.rack_state[spine.rack] == "failed"


def test_a_failed_leaf_rack_marks_the_servers_it_cuts_off_and_an_edit_clears_it(rail_window):
    window = rail_window
    design = window.document.design
    leaf = design.devices["su1-leaf-rail1"]
    x, y = _rack_centre(window, leaf.rack)
    _right_click_and_choose(window, x, y, lambda m: _action(m, "What if rack"))
    tools = window.whatif
    result = tools.panel.result
    assert result["failed"] == [leaf.rack]
    assert result["gpus_disconnected"] > 0
    cut_racks = {design.devices[s].rack for s in result["blast_radius"]["servers_cut_off"]}
    assert cut_racks and all(
        tools.overlay.rack_state[r] in ("cut_off", "failed") for r in cut_racks
    )
    window.scene.select_ids([leaf.rack])
    window.rotate_action.trigger()
    QApplication.processEvents()
    assert tools.overlay.is_empty()
    assert "changed" in tools.panel.summary.text()


def test_worst_single_failure_per_tier_and_showing_one(rail_window, qtbot):
    tools = rail_window.whatif
    tools.dock.show()
    qtbot.mouseClick(tools.panel.n1_button, Qt.LeftButton)
    tiers = [tools.panel.worst.item(r, 0).text() for r in range(tools.panel.worst.rowCount())]
    assert "leaf" in tiers and "spine" in tiers
    row = tiers.index("leaf")
    tools.panel.worst.cellDoubleClicked.emit(row, 1)
    assert tools.panel.result["gpus_disconnected"] == 16  # one rail of one 16-node SU


def test_compare_with_highlights_the_moved_rack(rail_window, monkeypatch, tmp_path):
    window = rail_window
    design = window.document.design
    other = read_design_bytes(design_to_bytes(design))
    rack_id = next(r for r in design.racks if design.devices_in_rack(r))
    rack = design.racks[rack_id]
    other.move_racks({rack_id: (rack.x, rack.y + 3.0)})
    path = tmp_path / "other.hall.json"
    save_design(other, path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.whatif.compare_action.trigger()
    dialog = window.whatif.compare_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.result["diff"]["racks_moved"] == [rack_id]
    assert dialog.table.rowCount() == len(KPI_LABELS)  # one row per KPI of model.studies.compare
    assert window.whatif.overlay.rack_state == {rack_id: "changed"}
    dialog.close()


def test_sweep_results_plot_two_columns_with_the_pareto_front(rail_window, monkeypatch, tmp_path):
    path = tmp_path / "sweep.csv"
    rows = [
        {"nodes": "16", "cost_per_gpu_usd": "10", "allreduce_time_s": "0.5", "error": ""},
        {"nodes": "32", "cost_per_gpu_usd": "20", "allreduce_time_s": "0.2", "error": ""},
        {"nodes": "64", "cost_per_gpu_usd": "30", "allreduce_time_s": "0.4", "error": ""},
    ]
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    rail_window.whatif.sweep_action.trigger()
    dialog = rail_window.whatif.sweep_dialog
    assert dialog.x_box.currentText() == "cost_per_gpu_usd"
    assert dialog.y_box.currentText() == "allreduce_time_s"
    assert (
        sorted(dialog.front_rows)
        == [0, 1]
        == sorted(pareto_front(rows, "cost_per_gpu_usd", "allreduce_time_s"))
    )
    dialog.y_box.setCurrentText("nodes")  # fewer nodes cost less: row 0 alone is best
    assert dialog.front_rows == [0]
    dialog.close()


def test_right_click_a_tray_fails_the_segment_under_the_cursor(rail_window):
    window = rail_window
    design = window.document.design
    tray = max(design.trays.values(), key=lambda t: len(t.points))
    (x0, y0), (x1, y1) = tray.points[0], tray.points[1]
    x, y = (x0 + x1) / 2, (y0 + y1) / 2
    text = _right_click_and_choose(window, x, y, lambda m: _action(m, "What if tray"))
    assert "segment 1" in text
    result = window.whatif.panel.result
    assert result["failed"] == [f"{tray.id}#1"]
    window.document.plant.refresh()
    on_segment = set(links_on_tray(design, window.document.plant, f"{tray.id}#1"))
    assert on_segment and set(result["blast_radius"]["links"]) == on_segment


def test_a_rack_of_every_spine_shows_islands_and_marks_the_servers_off_the_largest(rail_window):
    """2 SUs of 16 DGX: the spines share one rack; failing it leaves two islands of 16 x 8 =
    128 GPUs (each SU's servers join its rail leaves), none cut off. The panel shows the
    model's islands; the plan marks the other SU's server racks blue."""
    window = rail_window
    design = window.document.design
    spines = [d for d in design.devices.values() if d.role == "spine"]
    (rack_id,) = {d.rack for d in spines}
    tools = window.whatif
    result = tools.run_case([rack_id])
    assert result["islands"]["gpus"] == [128, 128]
    rows = [name for name, _ in ROWS]
    assert tools.panel.table.item(rows.index("Islands"), 1).text() == "2"
    assert tools.panel.table.item(rows.index("Largest job, GPUs"), 1).text() == "128"
    assert "2 islands (128, 128 GPUs)" in tools.panel.summary.text()
    off = result["blast_radius"]["servers_off_largest_island"]
    assert off and {tools.overlay.rack_state[design.devices[s].rack] for s in off} == {"island"}


def test_right_click_a_rack_offers_its_pdu_under_the_a_b_assumption(rail_window):
    window = rail_window
    design = window.document.design
    rack_id = design.devices["su1-node01"].rack
    x, y = _rack_centre(window, rack_id)
    text = _right_click_and_choose(window, x, y, lambda m: _action(m, "What if PDU A"))
    assert "PDU A" in text
    result = window.whatif.panel.result
    assert result["failed_devices"] == [] and result["failed_pdus"] == [f"{rack_id}:pdu-a"]
    assert "A/B-fed" in window.whatif.panel.summary.text()


def test_the_worst_failure_table_has_the_ranking_columns(rail_window, qtbot):
    tools = rail_window.whatif
    tools.run_n_minus_one()
    header = [tools.panel.worst.horizontalHeaderItem(c).text() for c in range(len(WORST_COLUMNS))]
    assert header[:4] == ["tier", "worst element", "job lost", "islands"]


def test_show_the_bisection_cut_draws_the_reports_cut_links(rail_window, qtbot):
    """The What-if dock draws the analysis's minimum balanced cut: 2 SUs of 16 DGX at 1:1, one
    SU per half, the cut is 16 x 8 NIC-side links' worth (128 links, 51,200 Gb/s)."""
    window = rail_window
    runner = window.analysis_docks.runner
    qtbot.waitUntil(lambda: runner.fresh, timeout=20_000)
    tools = window.whatif
    bisection = tools.show_bisection_cut()
    assert bisection == runner.result.report.bisection
    assert bisection["gbps"] == 16 * 8 * 400 and len(bisection["cut"]["links"]) == 128
    assert set(tools.overlay.rack_state.values()) == {"cut"}
    assert len(tools.overlay.link_paths) == 128
    assert "128 links cross it" in tools.panel.summary.text()


def test_the_dock_shows_the_default_jobs_collective_before_and_after(rail_window, qtbot):
    """A spine's loss: the dock's collective rows are the model's figures (job, time,
    busiest links), the slowdown is the model's, the busiest links can be selected, and the
    n-1 table's collective column shows each worst case's time after."""
    from gui.panels.whatif_panel import COLLECTIVE_ROWS

    tools = rail_window.whatif
    tools.dock.show()
    result = tools.run_case(["spine01"])
    change = what_if(rail_window.document.design, None, ["spine01"])["collective"]
    assert result["collective"]["after"]["time_s"] == change["after"]["time_s"]
    panel = tools.panel
    names = [name for name, _ in ROWS + COLLECTIVE_ROWS]
    time_row = names.index("Collective time")
    for col, key in enumerate(("before", "after")):
        e = change[key]
        ms = f"{e['time_s'] * 1e3:,.2f} ms ({e['algorithm']}, {e['protocol']})"
        assert panel.table.item(time_row, col).text() == ms
        assert panel.table.item(names.index("Collective job"), col).text().startswith(e["job"])
    assert f"slowdown {change['slowdown']:.2f}x" in panel.collective.text()
    busiest = change["after"]["bottleneck_links"]
    assert busiest and panel.links_button.isEnabled()
    qtbot.mouseClick(panel.links_button, Qt.LeftButton)
    assert set(rail_window.scene.selected_ids()) == set(busiest)
    tools.run_n_minus_one()
    header = [panel.worst.horizontalHeaderItem(c).text() for c in range(len(WORST_COLUMNS))]
    col = header.index("collective after")
    worst = panel.ranking["tiers"][0]["worst"]
    assert panel.worst.item(0, col).text().startswith(f"{worst['collective_time_s'] * 1e3:,.2f} ms")
    panel.clear()
    assert panel.collective.text() == "" and not panel.links_button.isEnabled()
