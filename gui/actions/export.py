"""File → Export: bill of materials, cabling schedule, NetBox files, floor-plan picture and rack
elevations, each written from the window's current document.

The tabular exports and the elevation sheets run in a worker thread (``run_with_progress``) on a
snapshot of the design with its own cable plant, so the window stays responsive on XL halls and
an edit made meanwhile cannot change the files half-way. The picture draws the editor's scene,
which lives on the GUI thread, so it is drawn there."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow, QMenu, QMessageBox

from gui.actions.export_p2p import add_p2p_export
from gui.dialogs.folders import choose_folder, design_folder
from gui.document.document import make_plant, run_with_progress
from gui.plain_text import message
from model.design.design import Design
from model.files.design_file import design_to_bytes, read_design_bytes

BOM_FILTER = "Excel workbook (*.xlsx);;CSV (*.csv)"
PICTURE_FILTER = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"


def add_export_menu(window: QMainWindow, file_menu: QMenu) -> QMenu:
    """Add the Export submenu to ``file_menu``; the actions export ``window.document``."""
    menu = file_menu.addMenu("&Export")
    exporter = _Exporter(window)
    for text, slot in (
        ("&Bill of materials (CSV/XLSX)…", exporter.bill_of_materials),
        ("Cabling &schedule (CSV)…", exporter.cabling_schedule),
        ("&NetBox import files (folder)…", exporter.netbox),
        ("&Floor plan picture (PNG/SVG/PDF)…", exporter.picture),
        ("&Rack elevations (PDF)…", exporter.elevations),
    ):
        action = QAction(text, window)
        action.triggered.connect(slot)
        menu.addAction(action)
    add_p2p_export(window, menu, exporter)
    window.export_menu = menu
    return menu


def _with_suffix(path: str, selected_filter: str, allowed: tuple[str, ...]) -> Path:
    """The chosen path, given the selected filter's extension when it has none of ``allowed``."""
    out = Path(path)
    if out.suffix.lower() in allowed:
        return out
    for suffix in allowed:
        if f"*{suffix})" in selected_filter:
            return out.with_name(out.name + suffix)
    return out.with_name(out.name + allowed[0])


class _Exporter(QObject):
    """The slots of the Export menu; each asks for a destination, writes, and reports. A child
    of the window, so it lives as long as the actions (a connection does not keep it alive)."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window

    # ------------------------------------------------------------------ destinations

    def _start_dir(self, name: str) -> str:
        document = self.window.document
        folder = document.path.parent if document.path else Path.home()
        stem = document.path.name.split(".")[0] if document.path else "design"
        return str(folder / f"{stem}{name}")

    def _save_path(
        self, title: str, default: str, file_filter: str, allowed: tuple[str, ...]
    ) -> Path | None:
        path, selected = QFileDialog.getSaveFileName(
            self.window, title, self._start_dir(default), file_filter
        )
        out = _with_suffix(path, selected, allowed) if path else None
        design = self.window.document.path
        if out is not None and design is not None and _same_file(out, design):
            # a link named like an export that points at the design: writing it would replace
            # the design with the export
            self._failed(
                out, ValueError(f"it is the open design {design.name}; nothing was written")
            )
            return None
        return out

    # ------------------------------------------------------------------ running

    def _snapshot(self):
        """A function building a private copy of the design and its plant (in the worker)."""
        data = design_to_bytes(self.window.document.design)

        def copy() -> tuple[Design, object]:
            design = read_design_bytes(data, "<export>")
            return design, make_plant(design)

        return copy

    def _run(self, target: Path, label: str, work) -> None:
        """Run ``work(design, plant) -> summary`` in the worker; report in the status bar or a box."""
        copy = self._snapshot()
        try:
            summary = run_with_progress(lambda: work(*copy()), label, self.window)
        except Exception as exc:  # any failure is the user's to read, never a crash
            self._failed(target, exc)
            return
        self.window.statusBar().showMessage(f"Exported {target.name}: {summary}", 10000)

    def _failed(self, target: Path, exc: Exception) -> None:
        QMessageBox.critical(
            self.window,
            "Export failed",
            message("The export could not be written.", f"{target}: {exc}"),
        )

    # ------------------------------------------------------------------ actions

    def bill_of_materials(self) -> None:
        out = self._save_path(
            "Export bill of materials", "-bom.xlsx", BOM_FILTER, (".xlsx", ".csv")
        )
        if out is None:
            return

        def work(design, plant) -> str:
            from model.outputs.bom_files import export_bom

            return f"{len(export_bom(out, design, plant))} BOM lines"

        self._run(out, f"Writing {out.name}…", work)

    def cabling_schedule(self) -> None:
        out = self._save_path("Export cabling schedule", "-schedule.csv", "CSV (*.csv)", (".csv",))
        if out is None:
            return

        def work(design, plant) -> str:
            from model.outputs.bom_files import write_schedule_csv
            from model.outputs.schedule import schedule_table

            rows = schedule_table(design, plant)
            write_schedule_csv(out, rows)
            return f"{len(rows)} cables"

        self._run(out, f"Writing {out.name}…", work)

    def netbox(self) -> None:
        out = choose_folder(
            self.window,
            "Export NetBox import files to folder (choose one or type a new name)",
            design_folder(self.window),
        )
        if out is None:
            return

        def work(design, plant) -> str:
            from model.outputs.netbox.export import netbox_tables, write_netbox_dir
            from model.outputs.schedule import schedule_table

            paths = write_netbox_dir(
                out, netbox_tables(design, schedule_table(design, plant, segments=False), plant)
            )
            return f"{len(paths)} NetBox files"

        self._run(out, f"Writing NetBox files to {out.name}…", work)

    def picture(self) -> None:
        out = self._save_path(
            "Export floor plan picture", "-floor.png", PICTURE_FILTER, (".png", ".svg", ".pdf")
        )
        if out is None:
            return
        from gui.pictures.render import render_design

        document = self.window.document
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            shown = self.window.scene.underlay.item.isVisible()  # as the user sees the plan
            folder = document.path.parent if document.path and shown else None
            if self.window.scene.feed is not None:
                self.window.scene.feed.ensure_fresh()  # a tray re-route under way: drawn done
            render_design(document.design, out, plant=document.plant, underlay_folder=folder)
        except Exception as exc:  # noqa: BLE001 - shown to the user with the file name
            QApplication.restoreOverrideCursor()
            self._failed(out, exc)
            return
        QApplication.restoreOverrideCursor()
        self.window.statusBar().showMessage(f"Exported {out.name}: floor plan picture", 10000)

    def elevations(self) -> None:
        out = self._save_path(
            "Export rack elevations", "-elevations.pdf", "PDF document (*.pdf)", (".pdf",)
        )
        if out is None:
            return

        def work(design, _plant) -> str:
            from gui.pictures.elevation_sheet import write_elevations_pdf

            return f"{write_elevations_pdf(design, out, _plant)} pages"

        self._run(out, f"Writing {out.name}…", work)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # the export does not exist yet
        return False
