"""The rack field paints only the racks in the repainted parts, and the picture stays whole.

``RackField.entries`` culls the racks by a numpy box test against the exposed rectangle and the
view's repainted region (or a picture strip's clip); these tests hold it to a ``QRectF``
test per rack, and hold the main view's picture after a rack move and its undo (painted piece by
piece: the rack, its row label, the bundle segments that changed) to a full repaint of the view.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from gui.canvas.rack_field import _box
from gui.edit.commands import MoveRacksCommand
from tests.gui.conftest import close_quietly, make_window, wait_until_idle

EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "superpod-4su.hall.json"


def _settle(window, qtbot) -> None:
    runner = window.analysis_docks.runner
    qtbot.waitUntil(lambda: runner.fresh and not window.scene.tray_load.busy, timeout=20000)
    wait_until_idle(qtbot)  # the row labels' and the overview's timers, the paints


def _window(qtbot, tmp_path):
    path = tmp_path / EXAMPLE.name
    shutil.copy(EXAMPLE, path)
    window = make_window(qtbot, tmp_path, path)
    _settle(window, qtbot)
    return window


def test_entries_are_the_racks_a_rect_test_selects_in_stacking_order(qtbot, tmp_path):
    window = _window(qtbot, tmp_path)
    try:
        field = window.scene.rack_field
        racks = list(field._racks.items())
        assert len(racks) > 30
        bounds = [b for _, (b, _) in racks]
        rng = random.Random(7)
        edges = sorted({v for b in bounds for v in _box(b)})
        for _ in range(300):
            # Corners on rack edges too: touching is not intersecting, as for QRectF.
            x0, x1 = sorted(rng.choice(edges) + rng.choice((0, 0.3)) for _ in range(2))
            y0, y1 = sorted(rng.choice(edges) + rng.choice((0, -0.2)) for _ in range(2))
            exposed = QRectF(x0, y0, x1 - x0, y1 - y0)
            clips = [
                QRectF(rng.choice(edges), rng.choice(edges), rng.uniform(0, 9), rng.uniform(0, 9))
                for _ in range(rng.randrange(0, 4))
            ]
            expected = [
                item
                for item, (b, _) in racks
                if b.intersects(exposed) and (not clips or any(b.intersects(c) for c in clips))
            ]
            boxes = np.array([_box(c) for c in clips], dtype=np.float64).reshape(-1, 4)
            got = [item for item, _ in field.entries(exposed, boxes if clips else None)]
            assert got == expected
    finally:
        close_quietly(window)


def _viewport_picture(window):
    """What the main view's viewport shows now (the window's backing store, as painted)."""
    QApplication.processEvents()
    port = window.view.viewport()
    image = window.screen().grabWindow(window.winId()).toImage()
    origin = port.mapTo(window, port.rect().topLeft())
    ratio = image.devicePixelRatio()
    return image.copy(
        int(origin.x() * ratio),
        int(origin.y() * ratio),
        int(port.width() * ratio),
        int(port.height() * ratio),
    )


def test_a_rack_move_painted_in_pieces_equals_a_full_repaint(qtbot, tmp_path, monkeypatch):
    window = _window(qtbot, tmp_path)
    field = window.scene.rack_field
    culled = field.set_view_region
    try:
        design = window.document.design
        rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
        window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 1.2, rack.y + 0.6)}))
        for step in range(2):
            if step:
                window.document.stack.undo()
            _settle(window, qtbot)
            pieces = _viewport_picture(window)
            # Every pixel of the view painted again, every rack under the exposed rectangle
            # painted (no culling by the repainted region).
            monkeypatch.setattr(field, "set_view_region", lambda *_: None)
            window.view.viewport().repaint()
            whole = _viewport_picture(window)
            monkeypatch.setattr(field, "set_view_region", culled)
            assert not pieces.isNull()
            assert pieces == whole
    finally:
        close_quietly(window)
