"""File > Export > P2P: the point-to-point file of NVIDIA's Cable Validation Tool (CVT), as
``main.py export-p2p`` writes it; the file type chosen in the dialog also chooses the port
names (the design's own, or InfiniBand cage/port numbers)."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

P2P_FILTERS = {
    "CSV, design port names (*.csv)": "hallwright",
    "CSV, InfiniBand cage/port numbers (*.csv)": "ib",
    "Excel workbook, design port names (*.xlsx)": "hallwright",
    "Excel workbook, InfiniBand cage/port numbers (*.xlsx)": "ib",
}


def add_p2p_export(window, menu: QMenu, exporter) -> QAction:
    """Add the P2P entry to the Export menu; ``exporter`` asks for the path and runs the
    writer in its worker like the other exports."""
    action = QAction("&P2P for the Cable Validation Tool (CSV/XLSX)…", window)
    action.setStatusTip("One row per cable, both ends' node, rack and port, for NVIDIA's CVT")
    action.triggered.connect(lambda: export_p2p(exporter))
    menu.addAction(action)
    return action


def export_p2p(exporter) -> None:
    from PySide6.QtWidgets import QFileDialog

    from gui.actions.export import _with_suffix

    start = exporter._start_dir("-p2p.csv")
    path, selected = QFileDialog.getSaveFileName(
        exporter.window, "Export P2P file (Cable Validation Tool)", start, ";;".join(P2P_FILTERS)
    )
    if not path:
        return
    out = _with_suffix(path, selected, (".csv", ".xlsx"))
    ports = P2P_FILTERS.get(selected, "hallwright")

    def work(design, plant) -> str:
        from model.outputs.p2p import END_COLUMNS, P2P_COLUMNS, p2p_columns
        from model.outputs.schedule import schedule_table
        from model.outputs.writers.csv_writer import write_csv_columns

        table = schedule_table(design, plant, segments=False, only=END_COLUMNS)
        columns = p2p_columns(design, table, ports)
        if out.suffix.lower() == ".xlsx":
            from model.outputs.writers.xlsx_writer import Sheet, write_xlsx

            write_xlsx(out, [Sheet("P2P", P2P_COLUMNS, (), plain=True, columns=columns)])
        else:
            write_csv_columns(out, P2P_COLUMNS, columns)
        return f"{len(table)} cables, {'InfiniBand' if ports == 'ib' else 'design'} port names"

    exporter._run(out, f"Writing {out.name}…", work)
