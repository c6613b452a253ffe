"""Bulk connect driven like a person: the two-rack pod built by hand in under 20 actions, and
the Connect All Free Ports dialog's port map (rails kept) applied as one undoable step."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from gui.canvas import connect_interaction
from gui.dialogs.bulk_connect import BulkConnectDialog
from tests.gui.conftest import click, close_quietly, double_click, make_window, snapshot
from tests.gui.test_canvas_editing import drop_type


class Actions:
    """Counts what the user does: one click, key, drop or menu pick each."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, what, *args, **kwargs):
        self.n += 1
        return what(*args, **kwargs)


def test_a_new_user_builds_a_two_rack_pod_by_hand_in_under_20_actions(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path)  # a fresh start: the empty hall
    act = Actions()
    picks = []

    def pick(options, screen_pos):  # the user reads the popup menu and picks an entry
        act.n += 1
        if not picks:
            value = next(v for t, v in options if "· nic (" in t)
        else:
            value = next(v for t, v in options if "all 8 free nic ports" in t)
        picks.append(value)
        return value

    monkeypatch.setattr(connect_interaction, "choose", pick)
    try:
        view, design = window.view, window.document.design
        tree = window.palette.tree
        rack_type = window.palette.item_for("rack:rack-48u-600x1200")
        act(
            qtbot.mouseClick,
            tree.viewport(),
            Qt.LeftButton,
            pos=tree.visualItemRect(rack_type).center(),
        )
        act(click, view, 3.0, 3.0)
        act(click, view, 6.0, 3.0)
        act(qtbot.keyClick, view, Qt.Key_Escape)
        servers_rack, leaf_rack = sorted(design.racks.values(), key=lambda r: r.x)
        act(drop_type, view, "device:dgx-h100", servers_rack.x, servers_rack.y)
        act(drop_type, view, "device:qm9700", leaf_rack.x, leaf_rack.y)
        act(qtbot.keyClick, view, Qt.Key_T)
        act(click, view, 2.4, 2.1)
        act(double_click, view, 6.6, 2.1)
        act(qtbot.keyClick, view, Qt.Key_C)
        act(click, view, servers_rack.x, servers_rack.y)  # + the port-group pick
        act(click, view, leaf_rack.x, leaf_rack.y)  # + the "all 8 free nic ports" pick
        assert act.n < 20, act.n
        (server,) = [d for d in design.devices.values() if d.type == "dgx-h100"]
        (leaf,) = [d for d in design.devices.values() if d.type == "qm9700"]
        assert len(design.trays) == 1
        assert design.free_ports(server.id, "compute") == []
        rails = sorted(design.links.values(), key=lambda lk: lk.a.port)
        assert [lk.a.port for lk in rails] == [f"nic{i}" for i in range(1, 9)]
        assert {lk.b.device for lk in rails} == {leaf.id}
        plant = window.document.plant
        plant.refresh()
        assert {plant.route(lk.id).method for lk in rails} == {"tray"}
        assert (
            window.document.stack.undoText() == f"Connect 8 ports of {server.name} to {leaf.name}"
        )
        before = snapshot(window)
        window.undo_action.trigger()
        assert len(design.links) == 0
        window.redo_action.trigger()
        assert snapshot(window) == before
    finally:
        close_quietly(window)


def test_connect_all_free_ports_dialog_previews_the_port_map_and_applies_it(window, qtbot):
    design = window.document.design
    before = snapshot(window)
    click(window.view, 1.5, 3.0)  # rack R1: a3 has eight free NICs
    click(window.view, 2.1, 3.0, modifiers=Qt.ShiftModifier)  # and N1: two leaves
    seen = {}

    def in_the_dialog():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, BulkConnectDialog)
        seen["rows"] = [
            tuple(dialog.preview.item(r, c).text() for c in (0, 1, 3))
            for r in range(dialog.preview.rowCount())
        ]
        seen["summary"] = dialog.summary.text()
        ok = dialog.buttons.button(QDialogButtonBox.Ok)
        qtbot.mouseClick(ok, Qt.LeftButton)

    QTimer.singleShot(0, in_the_dialog)
    qtbot.keyClick(window.view, Qt.Key_K, Qt.ControlModifier | Qt.ShiftModifier)
    assert seen["summary"].startswith("8 new links")
    # rails kept: nic1-4 on the first leaf, nic5-8 on the second
    assert [(s, p, leaf) for s, p, leaf in seen["rows"]] == [
        ("a3", f"nic{i}", "leaf1" if i <= 4 else "leaf2") for i in range(1, 9)
    ]
    new = [lk for lk in design.links.values() if lk.a.device == "a3"]
    assert len(new) == 8 and design.free_ports("a3", "compute") == []
    window.undo_action.trigger()
    assert snapshot(window) == before
