"""AnalysisDocks: the analysis panel, warnings, charts and links table docked in the main window,
their Design menu entries, and the wiring between them, the canvas and the analysis runner.

``install_analysis_docks(window)`` builds everything once; ``set_document`` rebinds it to each
document the window opens (a fresh AnalysisRunner per document).
"""

from __future__ import annotations

import msgspec
from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QScrollArea, QTabWidget

from gui.document.analysis_runner import AnalysisResult, AnalysisRunner
from gui.document.document import Document
from gui.edit.commands import (
    AddObjectsCommand,
    DeleteCommand,
    SetHallCommand,
    SetSettingsCommand,
    push,
)
from gui.panels.analysis_panel import AnalysisPanel
from gui.panels.charts import ChartsPanel
from gui.panels.fabric_wizard import FabricWizard
from gui.panels.links_model import MAX_CANVAS_SELECTION
from gui.panels.links_table import LinksTablePanel
from gui.panels.settings_dialog import DesignSettingsDialog
from gui.panels.warning_marks import WarningMarksItem
from gui.panels.warnings_panel import WarningsPanel
from model.generators.generate import GenerateError
from model.structured.layout import uses_structured


class AnalysisDocks(QObject):
    report_shown = Signal(object)  # the AnalysisResult just shown (the findings dock lists it)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.document: Document | None = None
        self.scene = None
        self.runner: AnalysisRunner | None = None
        self.marks: WarningMarksItem | None = None
        self._from_table = False
        self.panel = AnalysisPanel()
        self.warnings = WarningsPanel()
        self.charts = ChartsPanel()
        self.links = LinksTablePanel()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.warnings, "Warnings")
        self.tabs.addTab(self.links, "Links")
        # In a scroll area: the four plots' minimum height would otherwise hold the bottom
        # docks at ~430 px and squeeze the plan on every window short of full HD.
        charts_scroll = self.charts_page = QScrollArea()  # the tab's page, holding the charts
        charts_scroll.setWidgetResizable(True)
        charts_scroll.setFrameShape(QScrollArea.NoFrame)
        charts_scroll.setWidget(self.charts)
        self.tabs.addTab(charts_scroll, "Charts")
        self.panel_dock = window.add_panel("Analysis", self.panel, Qt.BottomDockWidgetArea)
        self.details_dock = window.add_panel(
            "Warnings, links and charts", self.tabs, Qt.BottomDockWidgetArea
        )
        window.splitDockWidget(self.panel_dock, self.details_dock, Qt.Horizontal)
        self.panel.setMinimumWidth(240)  # the tiles reflow into fewer columns when narrow
        self._sized = False
        self.warnings.objects_chosen.connect(self.select_objects)
        self.panel.links_chosen.connect(self.select_objects)
        self.links.links_selected.connect(self._table_selected)
        self.links.link_activated.connect(lambda link_id: self.select_objects([link_id]))
        self.settings_action = self._action(
            "Design &Settings…",
            self.edit_settings,
            None,
            "Slack, tray reach, media policy, oversubscription target, all-reduce",
        )
        self.wizard_action = self._action(
            "&Generate Fabric…",
            self.open_wizard,
            "Ctrl+G",
            "Generate a leaf-spine, fat-tree, rail-optimized or NVL72 fabric",
        )
        menu = window.design_menu
        menu.addSeparator()
        menu.addActions([self.settings_action, self.wizard_action])

    def _action(self, text: str, slot, shortcut, tip: str) -> QAction:
        action = QAction(text, self.window)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(slot)
        self.window.addAction(action)
        return action

    # ------------------------------------------------------------------ documents

    def close(self) -> None:
        """Stop the analysis (waits for a job in flight) and release the charts; the window is
        closing."""
        if self.runner is not None:
            self.runner.close()
        self.charts.release()

    def set_document(self, document: Document, scene) -> None:
        if self.runner is not None:
            self.runner.close()
            self.runner.deleteLater()
        if self.scene is not None:
            try:
                self.scene.selection_ids_changed.disconnect(self._canvas_selected)
            except (RuntimeError, TypeError):
                pass
        self.document, self.scene = document, scene
        self.marks = WarningMarksItem(scene)
        scene.addItem(self.marks)
        self.runner = AnalysisRunner(
            document.design, document.plant, parent=self, snapshots=document.take_snapshots()
        )
        self.panel.set_runner(self.runner)
        self.runner.stale.connect(self.warnings.set_stale)
        self.runner.stale.connect(self.charts.set_stale)
        self.runner.finished.connect(self._result)
        self.runner.completed.connect(self._charts)  # the length histogram follows the report
        self.runner.failed.connect(self.charts.show_failure)
        scene.tray_load.follow(self.runner)  # bundles and fill come with each analysis
        scene.trunk_layer.follow(self.runner)  # and so does the structured layout
        self.links.set_source(document.design, document.plant, document.stack)
        self.runner.plant_refreshed.connect(self.links.plant_changed)
        self.runner.finished.connect(self.links.analysis_finished)
        scene.selection_ids_changed.connect(self._canvas_selected)
        self._stack_index = document.stack.index()
        self._edits: list[str] = []
        document.stack.indexChanged.connect(self._stack_moved)
        if not self._sized:
            self._sized = True
            self.window.resizeDocks(
                [self.panel_dock, self.details_dock], [600, 1000], Qt.Horizontal
            )
            self.window.resizeDocks([self.panel_dock], [350], Qt.Vertical)

    def _stack_moved(self, index: int) -> None:
        """Remember which commands ran or were undone, to name them beside the delta."""
        stack = self.document.stack
        if index > self._stack_index:
            self._edits += [
                stack.command(i).text()
                for i in range(self._stack_index, index)
                if stack.command(i) is not None
            ]
        else:
            self._edits += [
                f"Undo {stack.command(i).text()}"
                for i in range(self._stack_index - 1, index - 1, -1)
                if stack.command(i) is not None
            ]
        self._stack_index = index
        edits = self._edits
        self.panel.edit_label = (
            edits[-1]
            if len(edits) == 1
            else f"{edits[-1]} and {len(edits) - 1} more"
            if edits
            else ""
        )

    def _result(self, result: AnalysisResult) -> None:
        self._edits = []
        self.warnings.set_findings(result.report.warnings, self.object_name)
        if self.marks is not None:
            self.marks.set_findings(result.report.warnings)
            self.scene.drawing_changed.emit()  # the overview's miniature shows the marks too
        self.report_shown.emit(result)

    def _charts(self, result: AnalysisResult) -> None:
        """The charts take a whole result (the report and its length histogram), never one
        without the other: they show one revision's figures throughout. A result of a revision
        edited since its report went out is not shown as current: the charts stay "recomputing"
        until the edit's own (the plan still takes its bundles)."""
        if result.revision != self.runner.design.revision:
            return
        self.charts.update_charts(result.report, result.lengths, result.revision)

    def object_name(self, object_id: str) -> str:
        design = self.document.design
        for table in (design.racks, design.devices, design.trays):
            record = table.get(object_id)
            if record is not None:
                return record.name or object_id
        link = design.links.get(object_id)
        return (link.label or object_id) if link is not None else object_id

    # ------------------------------------------------------------------ selection both ways

    def select_objects(self, ids) -> None:
        """Select a finding's objects on the canvas (devices by their racks) and centre them."""
        design, scene = self.document.design, self.scene
        chosen = []
        # Channel findings name the channel's elements: trunks are selected on the trunk layer,
        # cords by their link; panels are marked in the inspector's channel view.
        places = scene.trunk_layer.plan_objects() if uses_structured(design) else {}
        focus = {i for i in ids if i in places}
        for object_id in ids:
            place = places.get(object_id)
            if place is not None:
                if place.kind == "trunk":
                    chosen.append(object_id)
            elif object_id in design.devices:
                chosen.append(design.devices[object_id].rack)
            elif (
                object_id in design.racks or object_id in design.links or object_id in design.trays
            ):
                chosen.append(object_id)
        scene.select_ids(chosen[:MAX_CANVAS_SELECTION])
        scene.channel_focus = focus  # after the selection, which clears it
        rect = QRectF()
        for object_id in chosen[:MAX_CANVAS_SELECTION]:
            item = scene.item_for(object_id)
            if item is not None:
                rect = rect.united(item.sceneBoundingRect())
        view = self.window.view
        if not rect.isNull():
            visible = view.mapToScene(view.viewport().rect()).boundingRect()
            if rect.width() > visible.width() * 0.9 or rect.height() > visible.height() * 0.9:
                view.fitInView(rect.adjusted(-2, -2, 2, 2), Qt.KeepAspectRatio)
            else:
                view.centerOn(rect.center())

    def _table_selected(self, link_ids: list) -> None:
        if self.scene is not None:
            self._from_table = True
            try:
                self.scene.select_ids(link_ids)
            finally:
                self._from_table = False

    def _canvas_selected(self) -> None:
        if self.scene is None or self._from_table:
            return
        links = [i for i in self.scene.selected_ids() if i in self.document.design.links]
        if links or self.links.selected_link_ids():
            self.links.select_links(links)

    # ------------------------------------------------------------------ dialogs

    def edit_settings(self) -> None:
        dialog = DesignSettingsDialog(self.document.design, self.window)
        if dialog.exec() == DesignSettingsDialog.Accepted:
            command = dialog.command()
            if command is not None:
                self.scene.push(command)

    def open_wizard(self) -> None:
        wizard = FabricWizard(parent=self.window)
        if wizard.exec() != FabricWizard.Accepted:
            return
        if wizard.new_document.isChecked() and not self.window.maybe_save():
            return
        replace = wizard.replace_hall.isChecked()
        try:
            # A new document's plant and first snapshot are made on the generating worker.
            prepared = None if replace else wizard.build_prepared()
            design = wizard.build() if replace else prepared.design
        except GenerateError as exc:
            self.window.statusBar().showMessage(f"Not generated: {exc}", 10000)
            return
        if replace:
            error = self.replace_contents(design)
            if error:
                self.window.statusBar().showMessage(f"Not generated: {error}", 10000)
                return
        else:
            self.window.set_document(Document.prepared(prepared, unsaved=True))
        notes = "".join(f"; note: {n}" for n in design.generation_notes)
        self.window.statusBar().showMessage(
            f"Generated {design.name}: {len(design.racks):,} racks, {len(design.links):,} links"
            + notes,
            10000,
        )

    def replace_contents(self, generated) -> str | None:
        """Put a generated design's hall and objects in place of the open design's, as one undo
        step; the sentence of a refusal (everything is put back), else None."""
        current = self.document.design
        if generated.custom_types.device_types or generated.custom_types.rack_types:
            return "this fabric uses generic device types; open it as a new document instead"
        stack = self.document.stack
        ids = [*current.links, *current.racks, *current.trays]
        stack.beginMacro(f"Generate {generated.name}")
        commands = []
        if ids:
            commands.append(DeleteCommand(current, ids, "Delete the hall's contents"))
        commands.append(SetHallCommand(current, generated.hall))
        # The requested oversubscription is the generated design's target, and its cabling
        # style (the wizard's) the design's: carry them over.
        target = generated.settings.oversubscription_target
        cabling = generated.settings.cabling
        if (current.settings.oversubscription_target, current.settings.cabling) != (
            target,
            cabling,
        ):
            settings = msgspec.structs.replace(
                current.settings, oversubscription_target=target, cabling=cabling
            )
            commands.append(SetSettingsCommand(current, settings, "Set the target and cabling"))
        commands.append(
            AddObjectsCommand(
                current,
                f"Add {generated.name}",
                trays=generated.trays.values(),
                racks=generated.racks.values(),
                devices=generated.devices.values(),
                links=generated.links.values(),
            )
        )
        error = None
        with current.batch():  # one user edit: the views hear one change
            for command in commands:
                error = push(stack, command)
                if error:
                    break
            stack.endMacro()
            if error:
                stack.undo()
        return error


def install_analysis_docks(window) -> AnalysisDocks:
    """Dock the analysis panels in ``window`` and add their Design menu entries."""
    return AnalysisDocks(window)
