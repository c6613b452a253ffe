"""OverviewView: the whole hall in miniature (the same scene, fitted) with the main view's
visible area outlined; click or drag in it to move the main view there.

The miniature is a picture of the scene, rendered again only once the scene has been still
for ``REFRESH_MS``; the view paints that picture and the outline. Painting the live scene
(every rack, tray and bundle of the hall: 40–100 ms at 4,544 racks) on each scene change made
every move event of a rack drag, every edit and every scroll step of the main view repaint the
whole hall a second time on the GUI thread. So the miniature lags an edit by ``REFRESH_MS``
plus the few event-loop turns its ``STRIPS`` take, and shows a drag in progress once the
pointer rests; the outline follows the main view at once. While an edit is being analysed the
miniature waits for the analysis's bundles (they change the plan again when they come): one
picture per edit, not one of the plan without its new bundles and another with them (at XL
the first was drawn during the analysis, ~30-50 ms of the GUI thread's CPU among the ~340 ms
from a tray-corner drop to the panel fresh).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsView

from gui import style

REFRESH_MS = 300  # the scene still this long before the miniature is drawn again
# The picture is drawn in this many strips, one per turn of the event loop, so no turn holds
# the GUI thread for the whole hall (a strip is an eighth of it).
STRIPS = 8


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
        self._picture: QPixmap | None = None
        self._picture_rect = QRectF()  # the scene rectangle the picture shows
        self._stale = QTimer(self)
        self._stale.setSingleShot(True)
        self._stale.setInterval(REFRESH_MS)
        self._stale.timeout.connect(self._redraw)
        self._next = None  # (picture, scene rect, next strip) of a picture being drawn
        self._strip = QTimer(self)
        self._strip.setSingleShot(True)
        self._strip.setInterval(0)
        self._strip.timeout.connect(self._draw_strip)

    def _repaint(self, _value: int = 0) -> None:
        self.viewport().update()

    def sizeHint(self) -> QSize:
        return QSize(300, 190)

    def set_scene(self, scene) -> None:
        old = self.scene()
        if old is not None:
            try:
                old.drawing_changed.disconnect(self._scene_changed)
            except (RuntimeError, TypeError):
                pass
        self.setScene(scene)
        self._picture, self._next = None, None
        scene.drawing_changed.connect(self._scene_changed)
        self.fit()

    def _scene_changed(self) -> None:
        self._stale.start()  # restarted by each change: a drag redraws once it rests

    def _redraw(self) -> None:
        """Start drawing a new picture, one strip of the hall per turn of the event loop; the
        old picture shows until the new one is whole."""
        scene = self.scene()
        if scene is None:
            return
        load = getattr(scene, "tray_load", None)
        if load is not None and load.awaiting_analysis:
            # Their arrival changes the drawing (a fresh wait starts then); until then, look
            # again after another rest (a job that fails sends none: drawn once it is over).
            self._stale.start()
            return
        port = self.viewport()
        self._next = (self._new_picture(), self.mapToScene(port.rect()).boundingRect(), 0)
        self._strip.start()

    def _draw_strip(self) -> None:
        if self._next is None or self.scene() is None:
            return
        if self._stale.isActive():  # the scene changed again meanwhile: start over later
            self._next = None
            return
        picture, source, i = self._next
        port = self.viewport().rect()
        if source != self.mapToScene(port).boundingRect():  # resized or refitted meanwhile
            self._next = None
            self._redraw()
            return
        top = port.height() * i // STRIPS
        bottom = port.height() * (i + 1) // STRIPS
        target = QRectF(0, top, port.width(), bottom - top)
        part = QRectF(
            source.left(),
            source.top() + source.height() * top / port.height(),
            source.width(),
            source.height() * (bottom - top) / port.height(),
        )
        self._render_into(picture, target, part)
        if i + 1 < STRIPS:
            self._next = (picture, source, i + 1)
            self._strip.start()
            return
        self._next = None
        self._picture, self._picture_rect = picture, source
        self.viewport().update()

    def _new_picture(self) -> QPixmap:
        port = self.viewport()
        ratio = port.devicePixelRatioF()
        picture = QPixmap(port.size() * ratio)
        picture.setDevicePixelRatio(ratio)
        picture.fill(self.palette().base().color())
        return picture

    def _render_into(self, picture: QPixmap, target: QRectF, source: QRectF) -> None:
        scene = self.scene()
        painter = QPainter(picture)
        painter.setRenderHints(self.renderHints())
        painter.setClipRect(target)
        scene.rendering_thumbnail = True  # the row labels stay out of a thumbnail
        try:
            scene.render(painter, target, source, Qt.IgnoreAspectRatio)
        finally:
            scene.rendering_thumbnail = False
            painter.end()

    def _render_picture(self) -> None:
        """Render the whole picture at once (the first paint, or after a resize)."""
        port = self.viewport()
        picture = self._new_picture()
        source = self.mapToScene(port.rect()).boundingRect()
        self._render_into(picture, QRectF(port.rect()), source)
        self._picture, self._picture_rect, self._next = picture, source, None

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        scene, port = self.scene(), self.viewport()
        if scene is None:
            super().paintEvent(event)
            return
        shown = self.mapToScene(port.rect()).boundingRect()
        if self._picture is None or shown != self._picture_rect:
            self._render_picture()
        painter = QPainter(port)
        painter.drawPixmap(port.rect(), self._picture)
        painter.setRenderHints(self.renderHints())
        painter.setTransform(self.viewportTransform())
        self.drawForeground(painter, shown)
        painter.end()

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
