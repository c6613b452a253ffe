"""A tray's band is painted in the colour of its fill (the analysis's severity rule) and its
edge in the selection colour when selected: the pens and colours TrayItem builds once."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene

from gui import style
from gui.canvas.tray_item import TrayItem
from model.analysis.warnings import TRAY_FILL_LIMIT, TRAY_FILL_WARNING

WIDTH_PX = 200


def _picture_of(scene: QGraphicsScene) -> QImage:
    """The scene's 10 x 2 m at the origin at 20 px per metre, on white."""
    image = QImage(WIDTH_PX, 40, QImage.Format_ARGB32)
    image.fill(Qt.white)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, WIDTH_PX, 40), QRectF(0, 0, 10, 2))
    painter.end()
    return image


def _picture(item: TrayItem) -> QImage:
    scene = QGraphicsScene()
    scene.addItem(item)
    image = _picture_of(scene)
    scene.removeItem(item)
    return image


def _over_white(name: str, alpha: int = 200) -> tuple[int, int, int]:
    c = QColor(name)
    return tuple(
        round((v * alpha + 255 * (255 - alpha)) / 255) for v in (c.red(), c.green(), c.blue())
    )


def _rgb(image: QImage, x: int, y: int) -> tuple[int, int, int]:
    c = image.pixelColor(x, y)
    return c.red(), c.green(), c.blue()


def test_band_follows_fill_and_edge_follows_selection(qtbot):
    tray = TrayItem("t1")
    tray.set_path([(1.0, 1.0), (9.0, 1.0)], 1.0)  # band from y 0.5 to 1.5 m: rows 10-30 px
    inside = (100, 15)  # in the band, away from the dashed centre line (row 20)
    cases = [
        (None, style.TRAY_FILL),
        (TRAY_FILL_WARNING / 2, "#b2f2bb"),
        ((TRAY_FILL_WARNING + TRAY_FILL_LIMIT) / 2, "#ffe066"),
        (TRAY_FILL_LIMIT * 1.5, "#ff8787"),
    ]
    for fraction, colour in cases:
        tray.set_fill(fraction)
        got = _rgb(_picture(tray), *inside)
        assert all(abs(a - b) <= 1 for a, b in zip(got, _over_white(colour), strict=True)), (
            fraction,
            got,
        )
    tray.set_fill(None)
    scene = QGraphicsScene()
    scene.addItem(tray)
    plain_edge = _rgb(_picture_of(scene), 100, 10)  # the band's top edge, y 0.5 m
    tray.setSelected(True)
    selected_edge = _rgb(_picture_of(scene), 100, 10)
    assert _distance(selected_edge, style.SELECTION) < _distance(selected_edge, style.TRAY_EDGE)
    assert _distance(plain_edge, style.TRAY_EDGE) < _distance(plain_edge, style.SELECTION)


def _distance(rgb: tuple[int, int, int], name: str) -> int:
    c = QColor(name)
    return sum(abs(a - b) for a, b in zip(rgb, (c.red(), c.green(), c.blue()), strict=True))
