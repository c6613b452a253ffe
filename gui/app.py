"""Start the Qt application and open the editor window on a design file."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPen, QPolygonF
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView, QMainWindow, QMessageBox

from model.fileio import DesignFileError, load_design


def build_window(path: Path) -> QMainWindow:
    """A window showing the hall outline, trays and racks of the design at ``path``."""
    design = load_design(path)
    scene = QGraphicsScene()
    outline = QPolygonF()
    from PySide6.QtCore import QPointF

    for x, y in design.hall.outline:
        outline.append(QPointF(x, y))
    scene.addPolygon(outline, QPen(QColor("#444"), 0.05), QBrush(QColor("#f4f4f0")))
    for tray in design.trays.values():
        for (x1, y1), (x2, y2) in zip(tray.points, tray.points[1:], strict=False):
            scene.addLine(x1, y1, x2, y2, QPen(QColor("#9aa0a6"), tray.width_m / 2))
    for rack in design.racks.values():
        w, d = (rack.width_m, rack.depth_m) if rack.rotation in (0, 180) else (rack.depth_m, rack.width_m)
        scene.addRect(QRectF(rack.x - w / 2, rack.y - d / 2, w, d), QPen(QColor("#222"), 0.02),
                      QBrush(QColor("#8ab4f8")))
    view = QGraphicsView(scene)
    view.setRenderHint(view.renderHints().Antialiasing)
    window = QMainWindow()
    window.setCentralWidget(view)
    window.setWindowTitle(f"{path.name} — Hallwright")
    window.resize(1200, 800)
    view.fitInView(scene.itemsBoundingRect(), Qt.KeepAspectRatio)
    return window


def run_editor(path: Path) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    try:
        window = build_window(path)
    except DesignFileError as exc:
        QMessageBox.critical(None, "Cannot open design", str(exc))
        return 2
    window.show()
    return app.exec()
