"""The docked elevation shows a whole 48 U rack, readable (issue 38: the ~240 px dock never fit
one): at 1920 x 1080 all 48 U numbers are in view, a U slot is at least 11 px on screen, and
the U numbers and device names keep their pixel size however the rack is scaled to fit."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtWidgets import QApplication, QGraphicsSimpleTextItem

from gui.panels.elevation import MIN_U_SCREEN_PX, U_LABEL_PX, U_PX
from tests.gui.conftest import click, double_click


def _shown(panel) -> QRectF:
    view = panel.view
    return view.mapToScene(view.viewport().rect()).boundingRect()


def test_a_48u_rack_fits_the_docked_elevation_and_stays_legible(window, qtbot):
    window.resize(1920, 1080)
    QApplication.processEvents()
    rack = window.document.design.racks["r1"]
    assert rack.height_u == 48
    double_click(window.view, 1.5, 3.0)  # R1's elevation, as a person opens it
    panel = window.elevation
    qtbot.waitUntil(lambda: panel.view.isVisible() and panel.rack_id == "r1")
    qtbot.wait(50)  # the dock takes its room, the view its scale
    shown = _shown(panel)
    numbers = [i for i in panel.graphics.items() if isinstance(i, QGraphicsSimpleTextItem)]
    assert sorted(int(i.text()) for i in numbers) == list(range(1, 49))
    assert all(shown.contains(i.pos()) for i in numbers)  # U1 to U48, none scrolled away
    scale = panel.view.transform().m22()
    assert U_PX * scale >= MIN_U_SCREEN_PX
    assert all(i.font().pixelSize() == U_LABEL_PX for i in numbers)
    # A U number is drawn at its pixel size on screen, not shrunk with the rack
    mapped = panel.view.mapFromScene(numbers[0].pos())
    top_left = panel.view.mapFromScene(numbers[0].mapToScene(0, 0))
    assert mapped == top_left
    view_h = numbers[0].deviceTransform(panel.view.viewportTransform()).m22()
    assert abs(view_h - 1.0) < 1e-6
    for block in panel.blocks.values():  # every device of the rack in view
        assert shown.contains(block.sceneBoundingRect())
    qtbot.mouseClick(panel.rear_button, Qt.LeftButton)  # the mirrored rear fits the same way
    qtbot.wait(20)
    assert all(_shown(panel).contains(b.sceneBoundingRect()) for b in panel.blocks.values())


def test_pointing_at_a_port_mark_names_the_port_and_where_its_cable_goes(window, qtbot):
    from PySide6.QtCore import QPointF
    from PySide6.QtTest import QTest

    design = window.document.design
    click(window.view, 2.1, 3.0)  # N1: the leaves
    window.elevation_dock.toggleViewAction().trigger()  # View > Rack elevation
    panel = window.elevation
    qtbot.waitUntil(lambda: panel.view.isVisible() and panel.rack_id == "n1")
    face = design.device_type(design.devices["leaf1"]).ports_face
    qtbot.mouseClick(getattr(panel, f"{face}_button"), Qt.LeftButton)  # the face with ports
    qtbot.wait(20)
    block = panel.blocks["leaf1"]
    rect = block.rect()
    n = len(block.ports_used)
    pitch = (rect.width() - 8) / n
    first = block.mapToScene(QPointF(rect.left() + 4 + pitch / 2, rect.bottom() - 3))
    panel.view.ensureVisible(block)
    qtbot.wait(20)
    at = panel.view.mapFromScene(first)
    QTest.mouseMove(panel.view.viewport(), at)
    QTest.mouseMove(panel.view.viewport(), at + QPoint(1, 0))
    qtbot.waitUntil(lambda: "→" in block.toolTip() or "free" in block.toolTip(), timeout=2000)
    ends = [(lk.a, lk.b) for lk in design.links.values()] + [
        (lk.b, lk.a) for lk in design.links.values()
    ]
    far = next(b for a, b in ends if (a.device, a.port) == ("leaf1", "p1"))
    assert block.toolTip() == f"p1 → {design.devices[far.device].name}:{far.port} in " + (
        design.racks[design.devices[far.device].rack].name
    )
