"""The rack menu is built lazily: "Ports of" lists every device of the rack (not the first 8),
filled only when it opens; the menu appears before the clicked rack's selection work runs."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from gui.canvas.context_menu import LazyMenu
from tests.gui.conftest import view_point
from tests.gui.test_editor_tools import right_click_and_choose


def _fill_rack(window, rack_id, count):
    from gui.edit.commands import AddObjectsCommand
    from model.design import placement

    design = window.document.design
    devices = []
    for _ in range(count):
        u = placement.free_u(design, rack_id, 1)
        device = placement.new_device(design, "qm9700", rack_id, u)
        window.scene.push(AddObjectsCommand(design, "Add", devices=[device]))
        devices.append(device)
    return devices


def test_ports_of_lists_every_device_of_a_rack_with_more_than_eight(window, qtbot):
    added = _fill_rack(window, "n1", 10)
    design = window.document.design
    assert len(design.devices_in_rack("n1")) == 12  # leaf1, leaf2 and the ten
    last = added[-1]
    seen = right_click_and_choose(
        qtbot, window.view, 2.1, 3.0, f"Ports of › {last.name} (U{last.u})…"
    )
    assert "Ports of" in seen
    names = {f"{d.name} (U{d.u})…" for d in design.devices_in_rack("n1")}
    assert names <= set(seen)  # all twelve, the submenu filled as it opened
    assert window.port_table.windowTitle() == f"Ports of {last.name}"


def test_the_ports_submenu_is_empty_until_it_opens(window):
    from gui.canvas.context_menu import ContextTarget

    menu = window.context_menu.build(ContextTarget("rack", ["n1"]))
    sub = next(a.menu() for a in menu.actions() if a.text() == "Ports of")
    assert sub.actions() == []
    sub.aboutToShow.emit()
    assert len(sub.actions()) == len(window.document.design.devices_in_rack("n1"))
    menu.deleteLater()
    assert LazyMenu("x", list).entries() == []


class _Order(QObject):
    """Notes when a menu first paints and when the scene's selection changes."""

    def __init__(self, scene):
        super().__init__()
        self.events: list[str] = []
        scene.selection_ids_changed.connect(lambda: self.events.append("selected"))

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Paint and isinstance(obj, QMenu):
            if "painted" not in self.events:
                self.events.append("painted")
                QTimer.singleShot(20, lambda: obj.close())
        return False


def test_the_menu_paints_before_the_right_clicked_rack_is_selected(window, qtbot):
    window.scene.select_ids([])
    order = _Order(window.scene)
    QApplication.instance().installEventFilter(order)
    try:
        pos = view_point(window.view, 2.1, 3.0).toPoint()
        event = QContextMenuEvent(
            QContextMenuEvent.Mouse,
            pos,
            window.view.viewport().mapToGlobal(pos),
            Qt.NoModifier,
        )
        QApplication.sendEvent(window.view.viewport(), event)
        QApplication.processEvents()
    finally:
        QApplication.instance().removeEventFilter(order)
    assert order.events[:2] == ["painted", "selected"]
    assert window.scene.selected_ids() == ["n1"]
