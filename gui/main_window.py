"""MainWindow: assembles the canvas, docks, menus, mode toolbar and status bar around one
Document. It wires actions to the objects that do the work and holds no domain logic."""

from __future__ import annotations

import gc
from functools import partial
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QUndoView,
)

from gui.actions.cabling_check import add_cabling_check_actions
from gui.actions.editor_extras import install_editor_extras
from gui.actions.export import add_export_menu
from gui.actions.fabric_layers import LayerMenus
from gui.actions.findings_dock import install_findings_dock
from gui.actions.side_docks import make_all_collapsible
from gui.actions.whatif_tools import WhatIfTools
from gui.canvas import interactions as modes
from gui.canvas.obstacle_interaction import DrawObstacleInteraction
from gui.canvas.scene import HallScene
from gui.canvas.view import HallView
from gui.dialogs.design_dialogs import HallDialog
from gui.document.document import Document, empty_design
from gui.document.files import DocumentFiles
from gui.document.plant_feed import close_feed
from gui.edit.commands import AddObjectsCommand, DeleteCommand
from gui.panels.docks import install_analysis_docks
from gui.panels.elevation import RackElevationPanel
from gui.panels.inspector import InspectorPanel
from gui.panels.palette import CatalogPalette
from gui.window_layout import ELEVATION_DOCK_PX, SIDE_DOCK_PX
from model.common.wording import count
from model.design import clipboard
from model.runtime.gc_policy import note_released
from model.runtime.heap_reuse import reuse_freed_heap
from model.runtime.version import version

MODES = (  # (key, label, shortcut, interaction class)
    ("select", "Select", "V", modes.SelectInteraction),
    ("rotate", "Rotate", "Shift+R", modes.RotateInteraction),
    ("tray", "Draw tray", "T", modes.DrawTrayInteraction),
    ("connect", "Connect", "C", modes.ConnectInteraction),
    ("measure", "Measure", "M", modes.MeasureInteraction),
    ("outline", "Draw outline", "O", modes.DrawOutlineInteraction),
    ("obstacle", "Draw obstacle", "B", DrawObstacleInteraction),
)
_STACK_ACTIONS = ("stack-undo", "stack-redo")  # object names of the open document's Undo/Redo


class MainWindow(QMainWindow):
    """The editor window. ``settings`` holds recent files; ``recovery_dir`` autosaves."""

    document_set = Signal()  # a new document (and scene) is in place: re-apply view options

    def __init__(self, settings: QSettings, recovery_dir: Path, parent=None) -> None:
        super().__init__(parent)
        reuse_freed_heap()  # an editor process: an edit's arrays reuse the last edit's pages
        self.settings = settings
        self.files = DocumentFiles(self, settings, recovery_dir)
        self.recent, self.autosaver = self.files.recent, self.files.autosaver
        self.document: Document | None = None
        self.scene: HallScene | None = None
        self._paste_count = 0
        self.view = HallView()
        self.setCentralWidget(self.view)
        self.setAcceptDrops(True)
        # Why: the window's Python wrapper and its children's wrappers (held by Qt's parent)
        # form a cycle the garbage collector cannot see, so a closed window would live until
        # interpreter exit and be torn down after QApplication (a crash). Delete it on close.
        self.setAttribute(Qt.WA_DeleteOnClose)
        self.resize(1400, 900)
        self._build_docks()
        self._build_actions()
        self._build_menus()
        self._build_status()
        self.view.cursor_moved.connect(
            lambda x, y: self.position_label.setText(f"x {x:7.2f} m   y {y:7.2f} m")
        )
        self.view.files_dropped.connect(lambda paths: self.open_path(Path(paths[0])))
        self.palette.rack_type_chosen.connect(self.start_placing)
        self.analysis_docks = install_analysis_docks(self)  # analysis, warnings, links, charts
        self.findings = install_findings_dock(self)  # every warning and cabling-check finding
        self.whatif = WhatIfTools(self)  # what-if cases, compare, sweep plots
        self.whatif.add_to_file_menu(self.file_menu, before=self.close_action)
        install_editor_extras(self)  # bulk connect, find, context menus, help, saved layout
        make_all_collapsible(self)  # every dock's title bar can fold it away
        self.set_document(Document(empty_design()))

    # ------------------------------------------------------------------ assembly

    def _build_docks(self) -> None:
        self.palette = CatalogPalette()
        self.palette_dock = self._dock("Catalog", self.palette, Qt.LeftDockWidgetArea)
        self.inspector = InspectorPanel()
        self.inspector_dock = self._dock("Inspector", self.inspector, Qt.RightDockWidgetArea)
        self.undo_view = QUndoView()
        self.undo_view.setEmptyLabel("<opened>")
        # The elevation sits beside the inspector when shown (double-click, Return, View menu);
        # hidden at first launch so the plan keeps the room, then as the user left it. Split
        # off before the history is, so it spans the column's whole height: a 48 U rack fits.
        self.elevation = RackElevationPanel()
        self.elevation_dock = self._dock("Rack elevation", self.elevation, Qt.RightDockWidgetArea)
        self.splitDockWidget(self.inspector_dock, self.elevation_dock, Qt.Horizontal)
        self.history_dock = self._dock("History", self.undo_view, Qt.RightDockWidgetArea)
        self.splitDockWidget(self.inspector_dock, self.history_dock, Qt.Vertical)
        self.resizeDocks([self.inspector_dock, self.history_dock], [600, 200], Qt.Vertical)
        self.resizeDocks([self.palette_dock, self.inspector_dock], [270, 320], Qt.Horizontal)
        self.elevation_dock.hide()
        self.elevation_dock.visibilityChanged.connect(self._elevation_shown)

    def _dock(self, title: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower())
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def add_panel(self, title: str, widget, area=Qt.BottomDockWidgetArea) -> QDockWidget:
        """Dock another panel (the analysis panel) and list it in the View menu."""
        dock = self._dock(title, widget, area)
        self.view_menu.addAction(dock.toggleViewAction())
        return dock

    def _action(
        self, text: str, slot, shortcut=None, tip: str = "", checkable: bool = False
    ) -> QAction:
        action = QAction(text, self)
        if isinstance(shortcut, QKeySequence.StandardKey):
            action.setShortcuts(shortcut)  # every platform binding, e.g. Ctrl+Y and Ctrl+Shift+Z
        elif shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        S = QKeySequence.StandardKey
        self.new_action = self._action(
            "&New…", self.files.new_document, S.New, "Start a new empty hall"
        )
        self.open_action = self._action(
            "&Open…", self.files.open_dialog, S.Open, "Open a design file"
        )
        self.save_action = self._action("&Save", self.files.save, S.Save, "Save the design")
        self.save_as_action = self._action(
            "Save &As…", self.files.save_as, S.SaveAs, "Save under a new name"
        )
        self.revert_action = self._action(
            "&Revert", self.files.revert, None, "Reload the saved file, dropping changes"
        )
        self.close_action = self._action("&Quit", self.close, S.Quit, "Quit Hallwright")
        self.cut_action = self._action("Cu&t", self.cut, S.Cut, "Cut the selected racks")
        self.copy_action = self._action(
            "&Copy", self.copy, S.Copy, "Copy the selected racks with devices and internal links"
        )
        self.paste_action = self._action(
            "&Paste", self.paste, S.Paste, "Paste racks beside the originals"
        )
        self.duplicate_action = self._action(
            "&Duplicate", self.duplicate, "Ctrl+D", "Duplicate the selected racks"
        )
        self.delete_action = self._action(
            "&Delete", self.delete_selection, S.Delete, "Delete the selection"
        )
        # X11's Delete bindings include Ctrl+D, which Duplicate owns: keep the platform's other
        # bindings, else Qt calls Ctrl+D an ambiguous overload and neither action runs.
        duplicate_keys = self.duplicate_action.shortcuts()
        self.delete_action.setShortcuts(
            [
                *(k for k in QKeySequence.keyBindings(S.Delete) if k not in duplicate_keys),
                QKeySequence(Qt.Key_Backspace),
            ]
        )
        self.select_all_action = self._action("Select &All", self.select_all, S.SelectAll)
        self.rotate_action = self._action(
            "R&otate 90°", self.rotate_selection, "R", "Turn the selected racks clockwise"
        )
        self.elevation_action = self._action(
            "Rack &Elevation…",
            self.open_selected_elevation,
            "Return",
            "Show the selected rack's elevation (front and rear) in its dock",
        )
        # Return opens the elevation only while the plan has focus (it confirms fields elsewhere).
        self.removeAction(self.elevation_action)
        self.view.addAction(self.elevation_action)
        self.elevation_action.setShortcutContext(Qt.WidgetWithChildrenShortcut)
        self.zoom_in_action = self._action("Zoom &In", lambda: self.view.zoom(1.25), S.ZoomIn)
        self.zoom_out_action = self._action("Zoom &Out", lambda: self.view.zoom(0.8), S.ZoomOut)
        self.fit_action = self._action("&Fit Hall", self.view.fit, "Ctrl+0", "Show the whole hall")
        self.power_colors_action = self._action(
            "Colour Racks by &Power",
            self._color_mode,
            None,
            "Fill racks by power used against budget instead of role",
            checkable=True,
        )
        self.bundles_action = self._action(
            "Cable &Bundles Along Trays",
            self._view_options,
            None,
            "Draw the cables in each tray as one band: width by count, colour by main medium",
            checkable=True,
        )
        self.bundles_action.setChecked(True)
        self.tray_fill_action = self._action(
            "Tray &Fill",
            self._view_options,
            None,
            "Tint trays by fill: green < 40 %, amber < 60 %, red above",
            checkable=True,
        )
        self.legend_action = self._action("Show &Legend", self._toggle_legend, None, checkable=True)
        self.legend_action.setChecked(True)
        self.hall_action = self._action(
            "&Hall Properties…", self.edit_hall, None, "Size, tiles and tray height of the hall"
        )
        self.about_action = self._action("&About Hallwright", self.about)
        self.mode_group = QActionGroup(self)
        self.mode_actions: dict[str, QAction] = {}
        for key, label, shortcut, _cls in MODES:
            action = self._action(
                label,
                lambda _=False, k=key: self.set_mode(k),
                shortcut,
                f"{label} mode ({shortcut})",
                checkable=True,
            )
            self.mode_group.addAction(action)
            self.mode_actions[key] = action
        self.mode_actions["select"].setChecked(True)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(lambda: self.files.fill_recent(self.recent_menu))
        file_menu.addSeparator()
        file_menu.addActions([self.save_action, self.save_as_action, self.revert_action])
        file_menu.addSeparator()
        add_export_menu(self, file_menu)
        add_cabling_check_actions(self, file_menu)
        file_menu.addSeparator()
        self.file_menu = file_menu
        file_menu.addAction(self.close_action)
        self.edit_menu = bar.addMenu("&Edit")
        self.view_menu = bar.addMenu("&View")
        self.view_menu.addActions([self.zoom_in_action, self.zoom_out_action, self.fit_action])
        self.view_menu.addSeparator()
        self.view_menu.addActions(
            [
                self.power_colors_action,
                self.bundles_action,
                self.tray_fill_action,
                self.legend_action,
            ]
        )
        self.layer_menus = LayerMenus(self, self.view_menu)  # Fabrics, Tiers, any registered
        self.fabric_layers, self.tier_layers = self.layer_menus["fabric"], self.layer_menus["tier"]
        self.view_menu.addSeparator()
        docks = (self.palette_dock, self.inspector_dock, self.elevation_dock, self.history_dock)
        for dock in docks:
            self.view_menu.addAction(dock.toggleViewAction())
        design_menu = self.design_menu = bar.addMenu("&Design")
        design_menu.addActions(list(self.mode_actions.values()))
        design_menu.addSeparator()
        design_menu.addActions([self.rotate_action, self.elevation_action, self.hall_action])
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.about_action)
        toolbar = self.addToolBar("Modes")
        toolbar.setObjectName("modes")
        toolbar.addActions(list(self.mode_actions.values()))
        toolbar.addSeparator()
        toolbar.addActions([self.rotate_action, self.fit_action])

    def _build_edit_menu(self) -> None:
        stack = self.document.stack
        menu = self.edit_menu
        menu.clear()
        # The last document's actions found by name: the Python wrappers kept of them read as
        # deleted once their stack is gone, though the actions stay on the window (two more
        # disabled Undo/Redo per file opened).
        for name in _STACK_ACTIONS:
            for old in self.findChildren(QAction, name):
                self.removeAction(old)
                old.deleteLater()
        undo = stack.createUndoAction(self, "&Undo")
        undo.setShortcuts(QKeySequence.StandardKey.Undo)
        redo = stack.createRedoAction(self, "&Redo")
        redo.setShortcuts(QKeySequence.StandardKey.Redo)
        for action, name in zip((undo, redo), _STACK_ACTIONS, strict=True):
            action.setObjectName(name)
        self.undo_action, self.redo_action = undo, redo
        self.addActions([undo, redo])
        menu.addActions([undo, redo])
        menu.addSeparator()
        menu.addActions(
            [
                self.cut_action,
                self.copy_action,
                self.paste_action,
                self.duplicate_action,
                self.delete_action,
            ]
        )
        menu.addSeparator()
        menu.addAction(self.select_all_action)

    def _build_status(self) -> None:
        status = self.statusBar()
        self.mode_label = QLabel()
        self.position_label = QLabel("x       – m   y       – m")
        self.position_label.setMinimumWidth(180)
        status.addPermanentWidget(self.mode_label)
        status.addPermanentWidget(self.position_label)

    # ------------------------------------------------------------------ document

    def set_document(self, document: Document) -> None:
        if self.scene is not None:
            self.scene.set_interaction(None)
            self.scene.detach()
        old = self.document
        self.document = document
        scene = HallScene(document.design, document.stack, document.plant, self)
        scene.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        scene.rack_activated.connect(self.open_elevation)
        self.elevation.set_scene(scene)
        scene.selection_ids_changed.connect(self._selection_to_elevation)
        self.view.setScene(scene)
        old_scene, self.scene = self.scene, scene  # the old one deleted below
        self._view_options()
        self.layer_menus.apply()
        if self.power_colors_action.isChecked():
            self._color_mode()
        self.inspector.set_scene(scene)
        self.analysis_docks.set_document(document, scene)
        self.whatif.set_document(document, scene)
        self.palette.set_catalog(document.design.catalog)
        self.undo_view.setStack(document.stack)
        self._build_edit_menu()
        document.stack.cleanChanged.connect(self._update_title)
        document.stack.indexChanged.connect(self._update_title)
        self.autosaver.set_document(document)
        self.set_mode("select")
        self._update_title()
        self.view.fit()
        if old is not None and old_scene is not None:  # set together: both or neither
            old_scene.deleteLater()
            _release(old, old_scene)
        # The scene just built (an item per rack, tray and bundle, their wrappers and maps)
        # lives as long as the document: moved out of the collector's generations as the design
        # was (model.runtime.gc_policy), the next young collection no longer walks it all (~50 ms of
        # this thread after opening the XL hall). Frozen objects are freed by reference counting
        # as usual; a cycle among them is collected when the next design is settled.
        gc.freeze()
        self.document_set.emit()

    def _update_title(self, *_args) -> None:
        doc = self.document
        self.setWindowModified(doc.modified)
        self.setWindowTitle(f"{doc.display_name}[*] — Hallwright")
        self.revert_action.setEnabled(doc.path is not None and doc.modified)

    # File-menu work lives in gui/document/files.py; these names stay for the app and tests.

    def maybe_save(self) -> bool:
        return self.files.maybe_save()

    def open_path(self, path: Path) -> bool:
        return self.files.open_path(path)

    def offer_recovery(self) -> bool:
        return self.files.offer_recovery()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not getattr(self, "_fitted", False):
            self._fitted = True
            QTimer.singleShot(0, self._initial_layout)

    def _initial_layout(self) -> None:
        """The last run's layout, or working dock sizes; then the hall fitted."""
        if not self.window_layout.restore():
            self.window_layout.apply_default()
        QTimer.singleShot(0, self.view.fit)

    def closeEvent(self, event) -> None:
        if self.maybe_save():
            self.autosaver.close()  # waits for an autosave still writing
            self.elevation.release()
            if self.scene is not None:
                self.scene.detach()  # its timers stop with it
            self.analysis_docks.close()
            if self.document is not None:  # its refresh timer stops with the window
                _release(self.document, self)  # deleted on close (WA_DeleteOnClose)
            event.accept()
        else:
            event.ignore()

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.open_path(Path(paths[0]))

    # ------------------------------------------------------------------ modes

    def set_mode(self, key: str) -> None:
        cls = next(c for k, _l, _s, c in MODES if k == key)
        self._activate(cls(self.scene, on_done=lambda: self.set_mode("select")), key)

    def start_placing(self, type_id: str) -> None:
        self.mode_group.setExclusive(False)
        for action in self.mode_actions.values():
            action.setChecked(False)
        self.mode_group.setExclusive(True)
        self._activate(
            modes.PlaceRackInteraction(
                self.scene, type_id, on_done=lambda: self.set_mode("select")
            ),
            None,
        )
        self.view.setFocus()

    def _activate(self, interaction, key: str | None) -> None:
        self.scene.set_interaction(interaction)
        if key is not None:
            self.mode_actions[key].setChecked(True)
        self.view.setDragMode(HallView.RubberBandDrag if key == "select" else HallView.NoDrag)
        self.mode_label.setText(f"  {interaction.name} mode  ")
        self.statusBar().showMessage(interaction.hint)

    # ------------------------------------------------------------------ edit actions

    def selected(self, kind: str | None = None) -> list[str]:
        ids = self.scene.selected_ids()
        if kind is None:
            return ids
        table = getattr(self.document.design, kind)
        return [i for i in ids if i in table]

    def delete_selection(self) -> None:
        ids = self.selected()
        if ids:
            self.scene.push(DeleteCommand(self.document.design, ids))

    def select_all(self) -> None:
        self.scene.select_ids(self.document.design.racks)

    def rotate_selection(self) -> None:
        modes.rotate_racks(self.scene, self.selected("racks"), 90)

    def copy(self) -> bool:
        racks = self.selected("racks")
        if not racks:
            self.statusBar().showMessage("Select racks to copy", 4000)
            return False
        data = clipboard.copy_racks(self.document.design, racks)
        mime = QMimeData()
        mime.setData(clipboard.MIME_RACKS, data)
        mime.setText(clipboard.summary(data))
        QApplication.clipboard().setMimeData(mime)
        self._paste_count = 0
        return True

    def cut(self) -> None:
        if self.copy():
            self.scene.push(
                DeleteCommand(self.document.design, self.selected("racks"), "Cut racks")
            )

    def paste(self) -> None:
        mime = QApplication.clipboard().mimeData()
        if mime is None or not mime.hasFormat(clipboard.MIME_RACKS):
            self.statusBar().showMessage("Nothing to paste: copy racks first", 4000)
            return
        self._paste_count += 1
        clip = clipboard.paste_records(
            self.document.design, bytes(mime.data(clipboard.MIME_RACKS)), self._paste_count
        )
        command = AddObjectsCommand(
            self.document.design,
            f"Paste {count(len(clip.racks), 'rack')}",
            racks=clip.racks,
            devices=clip.devices,
            links=clip.links,
        )
        if self.scene.push(command):
            self.scene.select_ids(r.id for r in clip.racks)

    def duplicate(self) -> None:
        racks = self.selected("racks")
        if not racks:
            return
        design = self.document.design
        clip = clipboard.paste_records(design, clipboard.copy_racks(design, racks), 1)
        command = AddObjectsCommand(
            design,
            f"Duplicate {count(len(clip.racks), 'rack')}",
            racks=clip.racks,
            devices=clip.devices,
            links=clip.links,
        )
        if self.scene.push(command):
            self.scene.select_ids(r.id for r in clip.racks)

    # ------------------------------------------------------------------ views and dialogs

    def _color_mode(self) -> None:
        self.scene.set_color_mode("power" if self.power_colors_action.isChecked() else "role")

    def _view_options(self) -> None:
        self.scene.set_view_options(
            bundles=self.bundles_action.isChecked(), tray_fill=self.tray_fill_action.isChecked()
        )

    def _toggle_legend(self) -> None:
        self.view.show_legend = self.legend_action.isChecked()
        self.view.viewport().update()

    def open_selected_elevation(self) -> None:
        racks = self.selected("racks")
        if racks:
            self.open_elevation(racks[0])

    def _elevation_shown(self, visible: bool) -> None:
        """Shown beside the inspector, the elevation takes its room from the plan, not from
        the inspector's fields."""
        if visible and not self.elevation_dock.isFloating():
            QTimer.singleShot(0, self._make_room_for_elevation)

    def _make_room_for_elevation(self) -> None:
        inspector_px = SIDE_DOCK_PX[1]
        if self.inspector_dock.isVisible() and self.inspector_dock.width() < inspector_px - 10:
            self.resizeDocks(
                [self.inspector_dock, self.elevation_dock],
                [inspector_px, max(ELEVATION_DOCK_PX, self.elevation_dock.width())],
                Qt.Horizontal,
            )

    def _selection_to_elevation(self) -> None:
        if self.scene is not None:
            self.elevation.follow_selection(self.scene.selected_ids())

    def open_elevation(self, rack_id: str) -> RackElevationPanel:
        """Show ``rack_id`` in the elevation dock (shown and raised if it was not)."""
        self.elevation.set_rack(rack_id)
        self.elevation_dock.show()
        self.elevation_dock.raise_()
        return self.elevation

    def edit_hall(self) -> None:
        dialog = HallDialog(self.document.design, self)
        if dialog.exec() == HallDialog.Accepted:
            command = dialog.command()
            if command is not None:
                self.scene.push(command)

    def about(self) -> None:
        QMessageBox.about(
            self,
            "About Hallwright",
            f"Hallwright {version()} — design the interconnect of an AI data hall.\n\n"
            "Racks, trays, servers, switches and links on a to-scale floor plan; "
            "cables routed along the trays, copper or fibre chosen by length.",
        )


def _release(document: Document, holder: QObject) -> None:
    """The window lets go of ``document``: its plant stops following the design, its undo
    history is dropped. The collector's next tick collects its frozen cycles (note_released) once
    ``holder`` is destroyed (the old scene on File > Open, the window on close): each holds the
    document until its deferred delete, so a settle before it freed nothing (5 retries)."""
    holder.destroyed.connect(partial(note_released, document))
    close_feed(document.plant)
    document.plant.close()
    document.drop_history()
