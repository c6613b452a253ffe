"""FindDialog (Ctrl+F): find racks, devices and links by name, select one and centre the plan on
it; and View → Zoom to Selection. The matching itself is model.design.search.SearchIndex."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QRectF, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout

from gui.actions.side_docks import dock_beside_plan
from model.common.wording import count
from model.design.search import Hit, SearchIndex

# Searched on the next turn of the event loop after each key (keys typed in a burst coalesce):
# with the design's SearchIndex a keystroke costs tens of ms at 393k links, so no pause is
# waited for, and the previous query's results are cleared at once (never shown as current).
DEBOUNCE_MS = 0
# A found object is shown with this much of the plan around it (a dozen 600 mm racks of its
# row), not zoomed until one rack fills the view: the user sees where it stands.
FIND_CONTEXT_M = 8.0


class FindDialog(QDialog):
    """Type to search; Return or double-click shows the highlighted result on the plan."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.setWindowTitle("Find")
        self.text = QLineEdit()
        self.text.setPlaceholderText("Rack, device or link name, type, port…")
        self.text.setClearButtonEnabled(True)
        self.results = QListWidget()
        self.status = QLabel("")
        self.status.setStyleSheet("color: #555; font-size: 11px;")
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.status)
        self.resize(420, 360)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.search)
        self.text.textChanged.connect(self._typed)
        self.index: SearchIndex | None = None
        self.text.returnPressed.connect(self._return)
        self.results.itemActivated.connect(lambda item: self.show_hit(item.data(Qt.UserRole)))

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Down, Qt.Key_Up) and self.text.hasFocus():
            self.results.setFocus()
            self.results.keyPressEvent(event)
            return
        super().keyPressEvent(event)

    def _typed(self, _text: str) -> None:
        self.results.clear()  # the last query's results are not this one's
        self.status.setText("…")
        self._timer.start()

    def prepare(self) -> None:
        """Index the open design now (when it opens: ~1 s at XL), not on the first key."""
        design = self.window.document.design
        if self.index is None or not self.index.current(design):
            self.index = SearchIndex(design)

    def search(self) -> None:
        self._timer.stop()
        self.results.clear()
        self.prepare()
        hits = self.index.find(self.text.text())
        for hit in hits:
            item = QListWidgetItem(hit.label)
            item.setData(Qt.UserRole, hit)
            self.results.addItem(item)
        if hits:
            self.results.setCurrentRow(0)
        self.status.setText(count(len(hits), "match") if self.text.text().strip() else "")

    def _return(self) -> None:
        if self._timer.isActive():
            self.search()
        item = self.results.currentItem()
        if item is not None:
            self.show_hit(item.data(Qt.UserRole))

    def show_hit(self, hit: Hit) -> None:
        """Select the object and centre the plan on it (a device: its rack, its links drawn)."""
        scene, view = self.window.scene, self.window.view
        design = self.window.document.design
        if hit.kind == "device":
            scene.select_devices([hit.object_id])
            rect = scene.racks[design.devices[hit.object_id].rack].sceneBoundingRect()
        else:
            scene.select_ids([hit.object_id])
            item = scene.item_for(hit.object_id)
            rect = item.sceneBoundingRect() if item is not None else QRectF()
        view.zoom_to(_with_context(rect))
        self._uncover(view, rect)
        self.window.statusBar().showMessage(hit.label, 6000)

    def _uncover(self, view, rect: QRectF) -> None:
        """Move the dialog off the found object (it sat over the plan's centre, where the
        object is centred): to a corner of the plan, else beside the object."""
        if not self.isVisible() or not self.isWindow():  # docked beside the plan: covers nothing
            return
        shown = view.mapFromScene(rect).boundingRect()
        target = QRect(view.viewport().mapToGlobal(shown.topLeft()), shown.size())
        frame = self.frameGeometry()
        if not frame.intersects(target):
            return
        plan = QRect(view.viewport().mapToGlobal(QPoint(0, 0)), view.viewport().size())
        pad = 8
        w, h = frame.width(), frame.height()
        places = [
            QPoint(plan.right() - w - pad, plan.top() + pad),
            QPoint(plan.left() + pad, plan.top() + pad),
            QPoint(plan.right() - w - pad, plan.bottom() - h - pad),
            QPoint(plan.left() + pad, plan.bottom() - h - pad),
            QPoint(target.right() + 2 * pad, plan.top() + pad),
            QPoint(target.left() - w - 2 * pad, plan.top() + pad),
        ]
        for place in places:
            if not QRect(place, frame.size()).intersects(target):
                self.move(place + self.pos() - frame.topLeft())
                return


def _with_context(rect: QRectF) -> QRectF:
    """``rect`` grown about its centre to at least FIND_CONTEXT_M across each way."""
    if rect.isNull():
        return rect
    width = max(rect.width(), FIND_CONTEXT_M)
    height = max(rect.height(), FIND_CONTEXT_M)
    grown = QRectF(0, 0, width, height)
    grown.moveCenter(rect.center())
    return grown


def zoom_to_selection(window) -> None:
    scene = window.scene
    rect = QRectF()
    for item in scene.selectedItems():
        rect = rect.united(item.sceneBoundingRect())
    design = window.document.design
    for device_id in scene.device_selection:
        if device_id in design.devices:
            rect = rect.united(scene.racks[design.devices[device_id].rack].sceneBoundingRect())
    if rect.isNull():
        window.statusBar().showMessage("Select something to zoom to", 4000)
        return
    window.view.zoom_to(rect)


def add_find_actions(window, edit_menu, view_menu) -> None:
    """Edit → Find… (Ctrl+F) and View → Zoom to Selection (Z) on ``window``."""

    def open_find() -> None:
        dialog = getattr(window, "find_dialog", None)
        if dialog is None:
            dialog = window.find_dialog = FindDialog(window)
        dialog.prepare()
        dock_beside_plan(window, "Find", dialog)  # beside the plan, never over it
        dialog.activateWindow()
        dialog.text.setFocus()
        dialog.text.selectAll()

    def forget_index() -> None:  # the last design's index would keep that design alive
        dialog = getattr(window, "find_dialog", None)
        if dialog is not None:
            dialog.index = None

    window.document_set.connect(forget_index)
    window.find_action = window._action(
        "&Find…", open_find, QKeySequence.StandardKey.Find, "Find racks, devices and links by name"
    )
    window.zoom_selection_action = window._action(
        "Zoom to &Selection", lambda: zoom_to_selection(window), "Z", "Show the selection whole"
    )

    def keep_in_edit_menu() -> None:  # the window rebuilds its Edit menu per document
        if window.find_action not in edit_menu.actions():
            edit_menu.addSeparator()
            edit_menu.addAction(window.find_action)

    edit_menu.aboutToShow.connect(keep_in_edit_menu)
    view_menu.insertAction(window.fit_action, window.zoom_selection_action)
