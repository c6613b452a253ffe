"""WhatIfTools: "What if this fails?" on the plan, File → Compare With… and the sweep Pareto view.

The right-click menu of the canvas offers the rack, each device in it, a drawn link and the tray
segment under the cursor (and the current selection). Every case runs the model's
:class:`~model.analysis.whatif.WhatIf` on a *copy* of the design in a worker thread (the live
design and plant stay the GUI thread's), shows the before / after table in the What-if dock and
draws the blast radius with :class:`BlastRadiusItem`. An edit makes the case stale: the overlay
goes and the panel says so. Compare loads the other file, analyses both copies and highlights
on the plan what differs (this design = B, the other file = A).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox

from gui.actions.side_docks import dock_beside_plan
from gui.canvas.blast_radius_item import MAX_LINKS, BlastRadiusItem
from gui.canvas.link_item import LinkItem
from gui.canvas.tray_item import TrayItem
from gui.dialogs.folders import design_folder
from gui.document.document import run_with_progress
from gui.panels.compare_dialog import CompareDialog, SweepPlotDialog
from gui.panels.whatif_panel import WhatIfPanel
from model.design.changes import ChangeKind
from model.files.design_file import (
    EXTENSION,
    DesignFileError,
    design_to_bytes,
    load_design,
    read_design_bytes,
)


def _copy(design):
    return read_design_bytes(design_to_bytes(design), "<snapshot>")


def _plant(design):
    from gui.document.document import make_plant

    return make_plant(design)


class WhatIfTools(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.document = None
        self._subscription = None
        self.scene = None
        self.overlay: BlastRadiusItem | None = None
        self.panel = WhatIfPanel()
        self.dock = window.add_panel("What if", self.panel, Qt.RightDockWidgetArea)
        self.dock.hide()
        self.panel.case_chosen.connect(self.run_case)
        self.panel.n_minus_one_requested.connect(self.run_n_minus_one)
        self.panel.cut_requested.connect(self.show_bisection_cut)
        self.panel.cleared.connect(self._clear_overlay)
        self.panel.links_chosen.connect(self._select_links)
        self.compare_dialog: CompareDialog | None = None
        self.sweep_dialog: SweepPlotDialog | None = None
        view = window.view
        view.setContextMenuPolicy(Qt.CustomContextMenu)
        view.customContextMenuRequested.connect(self._context_menu)
        self.compare_action = QAction("Compare &With…", window)
        self.compare_action.setStatusTip("KPIs side by side with another design and what differs")
        self.compare_action.triggered.connect(self.compare_with_dialog)
        self.sweep_action = QAction("Open S&weep Results…", window)
        self.sweep_action.setStatusTip("Plot two columns of a sweep's CSV with its Pareto front")
        self.sweep_action.triggered.connect(self.open_sweep_dialog)

    def add_to_file_menu(self, menu: QMenu, before: QAction) -> None:
        menu.insertActions(before, [self.compare_action, self.sweep_action])
        menu.insertSeparator(before)

    def set_document(self, document, scene) -> None:
        if self._subscription is not None:
            self._subscription.close()
        self.document, self.scene = document, scene
        self.overlay = BlastRadiusItem(scene)
        scene.addItem(self.overlay)
        self._subscription = document.design.subscribe(self._on_change)
        self.panel.clear()

    def _on_change(self, change) -> None:
        if (
            change.kinds != {ChangeKind.NAME_CHANGED}
            and self.overlay is not None
            and not self.overlay.is_empty()
        ):
            self.overlay.clear()
            self.panel.set_stale()

    def _select_links(self, ids: list[str]) -> None:
        """Select the collective's busiest links on the plan (the model named them)."""
        if self.scene is not None:
            self.scene.select_ids(ids)

    def _clear_overlay(self) -> None:
        if self.overlay is not None:
            self.overlay.clear()

    # ------------------------------------------------------------------ the menu

    def _tray_at(self, scene_pos) -> str | None:
        """The tray under a point (a rack or a link drawn over it clicked), asking only the tray
        items, not the scene's every item there (the drawn links of a core rack)."""
        for item in self.scene.trays.values():
            if item.sceneBoundingRect().contains(scene_pos) and item.contains(
                item.mapFromScene(scene_pos)
            ):
                return item.object_id
        return None

    def menu_at(self, scene_pos, target=None) -> QMenu:
        """The right-click menu for a plan point (scene coordinates, metres). ``target`` (the
        plan menu's ContextTarget) names what was clicked; without it the scene is searched.

        Why the target: at XL the scene holds a core rack's 2,000 drawn links under the click,
        and asking the scene for the items at a point tested every one of them (~110 ms)."""
        from model.analysis.whatif import nearest_segment

        design = self.document.design
        menu = QMenu(self.window.view)
        cases: list[tuple[str, list[str]]] = []
        if target is not None:
            selected = list(target.ids)
            kind, first = target.kind, (target.ids[0] if target.ids else None)
            link_id = first if kind == "link" else None
            rack_id = first if kind == "rack" else None
            tray_id = first if kind == "tray" else self._tray_at(scene_pos)
        else:
            selected = self.scene.selected_ids()
            items = self.scene.items(scene_pos)
            link_id = next((i.object_id for i in items if isinstance(i, LinkItem)), None)
            rack_id = self.scene.rack_at(scene_pos)
            tray_id = next((i.object_id for i in items if isinstance(i, TrayItem)), None)
        if len(selected) > 1:
            cases.append((f"What if the {len(selected)} selected fail together?", selected))
        if link_id in design.links:
            cases.append((f"What if link {link_id} fails?", [link_id]))
        if rack_id is not None:
            name = design.racks[rack_id].name or rack_id
            cases.append((f"What if rack {name} fails?", [rack_id]))
            # Without a recorded power path the rack is assumed A/B-fed, and the result says so.
            cases.append((f"What if PDU A of rack {name} fails?", [f"{rack_id}:pdu-a"]))
            cases += _facility_cases(design, rack_id)
        if tray_id in design.trays:
            tray = design.trays[tray_id]
            n = nearest_segment(design, tray.id, scene_pos.x(), scene_pos.y())
            label = tray.name or tray.id
            cases.append((f"What if tray {label}, segment {n}, fails?", [f"{tray.id}#{n}"]))
            cases.append((f"What if all of tray {label} fails?", [tray.id]))
        for text, ids in cases:
            action = menu.addAction(text)
            action.triggered.connect(lambda _=False, ids=ids: self.run_case(ids))
        if rack_id is not None:
            devices = design.devices_in_rack(rack_id)
            if devices:
                sub = menu.addMenu("What if this device fails?")
                for device in sorted(devices, key=lambda d: -d.u):
                    action = sub.addAction(
                        f"{device.name or device.id} (U{device.u}, {device.role})"
                    )
                    action.triggered.connect(lambda _=False, d=device.id: self.run_case([d]))
        if menu.isEmpty():
            menu.addAction(
                "Right-click a rack, link or tray to ask what its failure costs"
            ).setEnabled(False)
        return menu

    def _context_menu(self, pos: QPoint) -> None:
        if self.document is None:
            return
        menu = self.menu_at(self.window.view.mapToScene(pos))
        menu.exec(self.window.view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    # ------------------------------------------------------------------ cases

    def run_case(self, ids: list[str]) -> dict | None:
        from model.analysis.whatif import WhatIf, WhatIfError

        design = self.document.design
        needs_plant = any(i in design.trays or "#" in i for i in ids)

        def work():
            copy = _copy(design)
            plant = _plant(copy) if needs_plant else None
            try:
                return WhatIf(copy, plant).run(ids)
            finally:
                if plant is not None:
                    plant.close()

        try:
            result = run_with_progress(work, "Failing " + ", ".join(ids) + "…", self.window)
        except WhatIfError as exc:
            self.window.statusBar().showMessage(str(exc), 8000)
            return None
        self.panel.show_result(result)
        self._draw(result)
        self.dock.show()
        self.dock.raise_()
        return result

    def _draw(self, result: dict) -> None:
        design = self.document.design
        blast = result["blast_radius"]
        racks: dict[str, str] = {}
        for state, ids in (
            ("island", blast["servers_off_largest_island"]),
            ("degraded", blast["servers_degraded"]),
            ("cut_off", blast["servers_cut_off"]),
            ("failed", blast["devices"]),
        ):
            for device_id in ids:
                device = design.devices.get(device_id)
                if device is not None:
                    racks[device.rack] = state
        for rack_id in result["failed"]:
            if rack_id in design.racks:
                racks[rack_id] = "failed"
        self.overlay.set_state(racks, {lid: "failed" for lid in blast["links"]})

    def show_bisection_cut(self) -> dict | None:
        """Draw the latest analysis's minimum balanced cut: its links, and the racks they end
        in (the report's own figures; nothing is computed here)."""
        docks = getattr(self.window, "analysis_docks", None)
        runner = docks.runner if docks is not None else None
        result = runner.result if runner is not None else None
        if result is None or not result.report.bisection:
            self.window.statusBar().showMessage("The analysis has not finished yet.", 5000)
            return None
        design = self.document.design
        bisection = result.report.bisection
        links = {lid: "cut" for lid in bisection["cut"]["links"] if lid in design.links}
        racks: dict[str, str] = {}
        for lid in list(links)[:MAX_LINKS]:
            link = design.links[lid]
            for end in (link.a, link.b):
                device = design.devices.get(end.device)
                if device is not None:
                    racks[device.rack] = "cut"
        self.overlay.set_state(racks, links)
        self.panel.show_cut(bisection, min(len(links), MAX_LINKS))
        self.dock.show()
        self.dock.raise_()
        return bisection

    def run_n_minus_one(self) -> dict:
        from model.analysis.n_minus_one import n_minus_one
        from model.analysis.whatif import WhatIf

        design = self.document.design
        ranking = run_with_progress(
            lambda: n_minus_one(WhatIf(_copy(design))),
            "Ranking the worst single failure of every tier…",
            self.window,
        )
        self.panel.show_ranking(ranking)
        self.dock.show()
        return ranking

    # ------------------------------------------------------------------ compare and sweeps

    def compare_with_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            "Compare With",
            design_folder(self.window),
            f"Hallwright designs (*{EXTENSION});;All files (*)",
        )
        if path:
            self.compare_with(Path(path))

    def compare_with(self, path: Path) -> dict | None:
        from model.studies.compare import compare_designs

        design = self.document.design

        def work():
            other = load_design(path)
            this = _copy(design)
            plants = [_plant(other), _plant(this)]
            try:
                result, diff = compare_designs(other, plants[0], this, plants[1])
                return result, diff.highlight_ids()
            finally:
                for plant in plants:
                    if plant is not None:
                        plant.close()

        try:
            result, highlight = run_with_progress(work, f"Comparing with {path.name}…", self.window)
        except DesignFileError as exc:
            QMessageBox.warning(self.window, "Compare With", str(exc))
            return None
        racks = {i: "changed" for i in highlight if i in design.racks}
        for i in highlight:
            if i in design.devices:
                racks[design.devices[i].rack] = "changed"
        self.overlay.set_state(racks, {i: "changed" for i in highlight if i in design.links})
        self.compare_dialog = CompareDialog(
            result, path.name, self.document.display_name, self.window
        )
        dock_beside_plan(self.window, "Compare", self.compare_dialog)  # never over the plan
        return result

    def open_sweep_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            "Open Sweep Results",
            design_folder(self.window),
            "CSV files (*.csv);;All files (*)",
        )
        if path:
            self.open_sweep(Path(path))

    def open_sweep(self, path: Path) -> SweepPlotDialog | None:
        try:
            dialog = SweepPlotDialog.from_csv(path, self.window)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self.window, "Open Sweep Results", f"{path.name}: {exc}")
            return None
        self.sweep_dialog = dialog
        dock_beside_plan(self.window, "Sweep", dialog)  # never over the plan
        QApplication.processEvents()
        return dialog


def _facility_cases(design, rack_id: str) -> list[tuple[str, list[str]]]:
    """The rack's busways or panels and its cooling units, each failed alone, and all of its
    CDUs together (a design with a facility; none otherwise)."""
    rack = design.racks[rack_id]
    hall = design.hall
    panels = {p.id: p for p in hall.power.panels}
    feeds = {f.id: f for f in hall.power.feeds}
    units = {c.id: ("CDU", c) for c in hall.cooling.cdus}
    units |= {c.id: ("CRAH", c) for c in hall.cooling.crahs}
    cases = []
    for pid in dict.fromkeys(rack.pdus):
        panel = panels.get(pid)
        if panel is not None:
            side = feeds[panel.feed].side if panel.feed in feeds else "?"
            cases.append((f"What if {panel.name or pid} (side {side}) fails?", [pid]))
    for uid in rack.cooling:
        if uid in units:
            kind, unit = units[uid]
            cases.append((f"What if {kind} {unit.name or uid} fails?", [uid]))
    cdus = [u for u in rack.cooling if units.get(u, ("",))[0] == "CDU"]
    if len(cdus) > 1:
        cases.append((f"What if every CDU of rack {rack.name} fails?", cdus))
    return cases
