"""Editor benchmark: open a workload and show the first frame, repaint the whole hall, drag a rack.

Runs offscreen. The file is saved first (not timed here: that is the files benchmark); then a
main window opens it (load in a worker thread, scene built, first frame painted), renders the
whole hall at view size into an image, and drags one server rack with real mouse events,
timing each move event (the event-loop block a person would feel) and the release (one undo
command, incremental re-route of that rack's links).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QImage, QMouseEvent, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import gui  # noqa: E402,F401 - applies the PySide6 workaround before any Qt call
from model.fileio import save_design  # noqa: E402
from tests.benchmarks.run_benchmarks import Report, peak_rss_mb  # noqa: E402
from tests.benchmarks.workloads import build  # noqa: E402


def _mouse(view, kind, x, y, buttons):
    pos = QPointF(view.mapFromScene(QPointF(x, y)))
    button = Qt.NoButton if kind == QEvent.MouseMove else Qt.LeftButton
    QApplication.sendEvent(
        view.viewport(),
        QMouseEvent(
            kind,
            pos,
            QPointF(view.viewport().mapToGlobal(pos.toPoint())),
            button,
            buttons,
            Qt.NoModifier,
        ),
    )


def run(report: Report) -> None:
    from gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{size}.hall.json"
            save_design(design, path)
            del design
            window = MainWindow(
                QSettings(str(Path(tmp) / "s.ini"), QSettings.IniFormat), Path(tmp) / "rec"
            )
            window.resize(1600, 1000)
            window.show()
            app.processEvents()
            t0 = time.perf_counter()
            window.open_path(path)
            app.processEvents()
            window.view.viewport().repaint()
            first = time.perf_counter() - t0
            d = window.document.design
            report.add(
                size,
                "editor: open file + first frame",
                first,
                peak_rss_mb(),
                target="<= 5 s" if size == "XL" else "",
                note=f"{len(d.racks):,} racks, {len(d.links):,} links",
            )
            t0 = time.perf_counter()
            while window.scene.tray_load.busy:
                app.processEvents()
            report.add(
                size,
                "editor: cable bundles counted on idle time",
                time.perf_counter() - t0,
                peak_rss_mb(),
                note="window responsive meanwhile (12 ms slices)",
            )
            view = window.view
            view.fit()
            image = QImage(view.viewport().size(), QImage.Format_ARGB32_Premultiplied)
            times = []
            for _ in range(5):
                painter = QPainter(image)
                t0 = time.perf_counter()
                view.render(painter)
                painter.end()
                times.append(time.perf_counter() - t0)
            report.add(
                size,
                "editor: full repaint, whole hall at view size",
                statistics.median(times),
                peak_rss_mb(),
                target="<= 100 ms" if size == "XL" else "",
                note=f"{image.width()}x{image.height()} px, median of 5",
            )
            # zoom in on one server rack and drag it two rows' worth
            rack_id = next(r for r in d.racks if d.links_of_racks([r]))
            rack = d.racks[rack_id]
            view.resetTransform()
            view.scale(40, 40)
            view.centerOn(rack.x, rack.y)
            app.processEvents()
            _mouse(view, QEvent.MouseButtonPress, rack.x, rack.y, Qt.LeftButton)
            moves = []
            for i in range(1, 25):
                t0 = time.perf_counter()
                _mouse(view, QEvent.MouseMove, rack.x + 0.1 * i, rack.y + 0.05 * i, Qt.LeftButton)
                app.processEvents()
                moves.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            _mouse(view, QEvent.MouseButtonRelease, rack.x + 2.4, rack.y + 1.2, Qt.NoButton)
            app.processEvents()
            release = time.perf_counter() - t0
            report.add(
                size,
                "editor: drag a rack, longest move event",
                max(moves),
                peak_rss_mb(),
                target="<= 50 ms" if size == "XL" else "",
                note=f"median {statistics.median(moves) * 1000:.1f} ms over 24 moves",
            )
            report.add(
                size,
                "editor: drop the rack (command + re-route)",
                release,
                peak_rss_mb(),
                note=f"{len(d.links_of_racks([rack_id]))} links re-routed, "
                f"{len(window.scene.link_items)} drawn, moved "
                f"{d.racks[rack_id].x - rack.x:+.1f}/{d.racks[rack_id].y - rack.y:+.1f} m",
            )
            window.document.stack.setClean()
            window.close()
            window.deleteLater()
            app.processEvents()
