"""The underlay's actions: File > Import Underlay, View > Show Underlay and its opacity,
Design > Calibrate, Align, Rotate, Underlay Layers and Remove Underlay, and the status-bar line
that says when the
drawing a design records is missing or has changed. Installed on a MainWindow by one call."""

from __future__ import annotations

import msgspec
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDialog, QInputDialog, QLabel, QMenu

from gui.actions.plan_annotations import start_mode
from gui.canvas.calibrate_interaction import (
    AlignUnderlayInteraction,
    CalibrateUnderlayInteraction,
)
from gui.dialogs.underlay_dialog import ImportUnderlayDialog, UnderlayLayersDialog
from gui.document.document import run_with_progress
from gui.edit.commands import UnderlayCommand
from model.design.design import DesignError
from model.design.underlay import rotated
from model.files.underlay_file import UnderlayError, UnderlayState

OPACITIES = (0.25, 0.5, 0.75, 1.0)
DEFAULT_OPACITY = 0.5  # the design reads above the drawing, the drawing still legible


def add_underlay_actions(window) -> UnderlayActions:
    """Add the actions to ``window``'s File, View and Design menus (after they exist)."""
    actions = UnderlayActions(window)
    window.underlay_actions = actions
    return actions


def _menu(window, title: str) -> QMenu:
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


class UnderlayActions(QObject):
    """The slots; a child of the window, so it lives as long as its actions."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: ImportUnderlayDialog | None = None
        self.layers_dialog: UnderlayLayersDialog | None = None
        self.opacity = DEFAULT_OPACITY
        self.import_action = QAction("Import &Underlay (DXF, PDF, PNG, SVG)…", window)
        self.import_action.setStatusTip("Put the building's drawing under the plan, locked")
        self.import_action.triggered.connect(self.import_underlay)
        file_menu = _menu(window, "&File")
        export = next(a for a in file_menu.actions() if a.text() == "&Export")
        file_menu.insertAction(export, self.import_action)
        self.show_action = QAction("Show &Underlay", window, checkable=True)
        self.show_action.setChecked(True)
        self.show_action.toggled.connect(self._apply_view)
        view_menu = _menu(window, "&View")
        view_menu.addSeparator()
        view_menu.addAction(self.show_action)
        opacity_menu = view_menu.addMenu("Underlay &Opacity")
        group = QActionGroup(self)
        self.opacity_actions: dict[float, QAction] = {}
        for value in OPACITIES:
            action = QAction(f"{value:.0%}", window, checkable=True)
            action.setChecked(value == DEFAULT_OPACITY)
            action.triggered.connect(lambda _=False, v=value: self.set_opacity(v))
            group.addAction(action)
            opacity_menu.addAction(action)
            self.opacity_actions[value] = action
        self.calibrate_action = QAction("&Calibrate Underlay…", window)
        self.calibrate_action.setStatusTip(
            "Scale the drawing: click two points of known distance and type it"
        )
        self.calibrate_action.triggered.connect(self.calibrate)
        self.align_action = QAction("&Align Underlay…", window)
        self.align_action.setStatusTip(
            "Move the drawing: click a point of it, then where it belongs on the plan"
        )
        self.align_action.triggered.connect(self.align)
        self.rotate_action = QAction("Ro&tate Underlay…", window)
        self.rotate_action.setStatusTip("Turn the drawing to a typed angle about its centre")
        self.rotate_action.triggered.connect(lambda: self.rotate())  # not its "checked"
        self.layers_action = QAction("Underlay &Layers…", window)
        self.layers_action.setStatusTip("Choose which of the DXF's layers are shown")
        self.layers_action.triggered.connect(self.choose_layers)
        self.remove_action = QAction("Remove Underla&y", window)
        self.remove_action.triggered.connect(self.remove)
        design_menu = _menu(window, "&Design")
        design_menu.addSeparator()
        design_menu.addActions(
            [
                self.calibrate_action,
                self.align_action,
                self.rotate_action,
                self.layers_action,
                self.remove_action,
            ]
        )
        self.status_label = QLabel()
        window.statusBar().addPermanentWidget(self.status_label)
        window.document_set.connect(self.follow_document)
        if window.document is not None:
            self.follow_document()

    # ------------------------------------------------------------------ following

    def follow_document(self) -> None:
        """A document was opened: place its underlay from beside its file, say how it is."""
        document = self.window.document
        layer = self.window.scene.underlay
        layer.reader = lambda work, label: run_with_progress(work, label, self.window)
        layer.follow_folder(lambda: document.path.parent if document.path else None)
        self._apply_view()
        self.show_state()
        subscription = document.design.subscribe(lambda _change: self.show_state())
        self._subscription = subscription  # replaced (and so ended) by the next document

    def show_state(self) -> None:
        layer = self.window.scene.underlay
        has = self.window.document.design.hall.underlay is not None
        for action in (self.calibrate_action, self.align_action, self.remove_action):
            action.setEnabled(has)
        self.layers_action.setEnabled(bool(layer.drawing_layers))
        if layer.state in (UnderlayState.MISSING, UnderlayState.CHANGED):
            self.status_label.setText(f"<span style='color:#c92a2a'>⚠ {layer.sentence}</span>")
            self.status_label.setToolTip(layer.sentence)
        else:
            self.status_label.setText("")
            self.status_label.setToolTip("")

    def _apply_view(self) -> None:
        layer = self.window.scene.underlay
        layer.set_visible(self.show_action.isChecked())
        layer.set_opacity(self.opacity)

    def set_opacity(self, value: float) -> None:
        self.opacity = value
        self.opacity_actions[value].setChecked(True)
        self._apply_view()

    # ------------------------------------------------------------------ actions

    def import_underlay(self) -> None:
        document = self.window.document
        outline = document.design.hall.outline
        corner = (min(x for x, _ in outline), min(y for _, y in outline))
        folder = document.path.parent if document.path else None
        self.dialog = ImportUnderlayDialog(folder, corner, self.window)
        self.dialog.finished.connect(self._imported)
        self.dialog.open()

    def _imported(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is None:
            return
        dialog.deleteLater()
        if result != QDialog.Accepted:
            return
        try:
            underlay = dialog.underlay()
        except UnderlayError as exc:  # the file went away between reading and OK
            self.window.statusBar().showMessage(f"Not imported: {exc}", 10000)
            return
        scene = self.window.scene
        self.window.view.setFocus()  # the keys (modes, Esc) go back to the plan to trace
        scene.underlay.adopt(underlay, dialog.drawing, dialog.page)  # read once, by the dialog
        if scene.push(UnderlayCommand(scene.design, underlay, "Import underlay")):
            self.show_action.setChecked(True)
            count = scene.underlay.item.line_count
            what = {"dxf": f"{count:,} lines", "pdf": f"page {underlay.page}"}.get(
                underlay.kind, "a page"
            )
            scene.message.emit(
                f"Underlay {underlay.path}: {what} under the plan; "
                "Design > Calibrate Underlay to set its scale"
            )

    def calibrate(self) -> None:
        window = self.window
        interaction = CalibrateUnderlayInteraction(
            window.scene, on_done=lambda: window.set_mode("select")
        )
        start_mode(window, interaction)

    def align(self) -> None:
        window = self.window
        start_mode(
            window,
            AlignUnderlayInteraction(window.scene, on_done=lambda: window.set_mode("select")),
        )

    def rotate(self, angle_deg: float | None = None) -> None:
        """Turn the drawing to ``angle_deg`` (asked when None) about the centre of what is
        drawn of it: one undo step."""
        window = self.window
        scene = window.scene
        underlay = scene.design.hall.underlay
        if underlay is None:
            scene.message.emit("Import an underlay first (File > Import Underlay)")
            return
        if angle_deg is None:
            angle_deg, ok = QInputDialog.getDouble(
                window,
                "Rotate underlay",
                "Rotation, clockwise on the plan (°):",
                underlay.rotation_deg,
                -180.0,
                180.0,
                2,
            )
            if not ok:
                return
        centre = scene.underlay.item.sceneBoundingRect().center()
        try:
            new = rotated(underlay, angle_deg, (centre.x(), centre.y()))
        except DesignError as exc:
            scene.message.emit(str(exc))
            return
        if new != underlay and scene.push(UnderlayCommand(scene.design, new, "Rotate underlay")):
            scene.message.emit(f"Underlay turned to {new.rotation_deg:g}° about its centre")

    def choose_layers(self) -> None:
        scene = self.window.scene
        underlay = scene.design.hall.underlay
        if underlay is None or not scene.underlay.drawing_layers:
            return
        self.layers_dialog = UnderlayLayersDialog(
            scene.underlay.drawing_layers, underlay.layers, self.window
        )
        self.layers_dialog.finished.connect(self._layers_chosen)
        self.layers_dialog.open()

    def _layers_chosen(self, result: int) -> None:
        dialog, self.layers_dialog = self.layers_dialog, None
        if dialog is None:
            return
        dialog.deleteLater()
        scene = self.window.scene
        underlay = scene.design.hall.underlay
        if result != QDialog.Accepted or underlay is None:
            return
        layers = dialog.chosen()
        if layers != underlay.layers:
            new = msgspec.structs.replace(underlay, layers=layers)
            scene.push(UnderlayCommand(scene.design, new, "Choose underlay layers"))

    def remove(self) -> None:
        scene = self.window.scene
        if scene.design.hall.underlay is not None:
            scene.push(UnderlayCommand(scene.design, None, "Remove underlay"))
