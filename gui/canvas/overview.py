"""OverviewView: the whole hall in miniature (the same scene, fitted) with the main view's
visible area outlined; click or drag in it to move the main view there."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsView

from gui import style


class OverviewView(QGraphicsView):
    shows_row_labels = False  # screen-size labels would cover the miniature hall

    def __init__(self, main_view, parent=None) -> None:
        super().__init__(parent)
        self.main_view = main_view
        self.setRenderHints(QPainter.Antialiasing)
        self.setInteractive(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setViewportUpdateMode(QGraphicsView.FullViewportUpdate)
        self.setFocusPolicy(Qt.NoFocus)
        self.setToolTip("Overview: click or drag to move the plan there")
        for bar in (main_view.horizontalScrollBar(), main_view.verticalScrollBar()):
            bar.valueChanged.connect(self._repaint)  # a slot: disconnected when this one goes

    def _repaint(self, _value: int = 0) -> None:
        self.viewport().update()

    def sizeHint(self) -> QSize:
        return QSize(300, 190)

    def set_scene(self, scene) -> None:
        self.setScene(scene)
        self.fit()

    def fit(self) -> None:
        scene = self.scene()
        if scene is not None:
            self.fitInView(scene.hall_rect().adjusted(-1, -1, 1, 1), Qt.KeepAspectRatio)

    def visible_rect(self) -> QRectF:
        """The part of the hall the main view shows (scene metres)."""
        view = self.main_view
        return view.mapToScene(view.viewport().rect()).boundingRect()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit()

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        pen = QPen(QColor(style.SELECTION), 2)
        pen.setCosmetic(True)
        painter.setPen(pen)
        fill = QColor(style.SELECTION)
        fill.setAlpha(30)
        painter.setBrush(fill)
        painter.drawRect(self.visible_rect())

    def _go(self, event) -> None:
        self.main_view.centerOn(self.mapToScene(event.position().toPoint()))
        self.main_view.fitted = False
        self.viewport().update()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            self._go(event)

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.LeftButton:
            self._go(event)

    def wheelEvent(self, event) -> None:
        self.main_view.wheelEvent(event)  # zoom the plan, not the overview
