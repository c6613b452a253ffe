"""The rack field draws plain racks grouped by look, yet a rack that overlaps another (a clash)
still shows in stacking order: the one later in that order is on top, as one-by-one drawing
showed it."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor

from gui.edit.commands import MoveRacksCommand
from tests.gui.conftest import close_quietly
from tests.gui.test_rack_field_culling import _settle, _viewport_picture, _window


def _pair_drawn_out_of_order(field):
    """(earlier, later) racks in stacking order, both drawn grouped, whose looks the grouped
    drawing would draw the other way round (the earlier one's group after the later one's),
    with different fills."""
    table, items = field._table, field._items
    order = sorted(range(len(items)), key=lambda row: table.code[row])
    for row in range(len(items)):
        for other in order:
            if other <= row or table.code[other] >= table.code[row]:
                continue
            a, b = items[row], items[other]
            if a.look()[1].rgb() != b.look()[1].rgb() and a.rotation() == b.rotation() == 0:
                return a, b
    return None


def test_a_rack_moved_onto_another_shows_the_later_in_stacking_order_on_top(qtbot, tmp_path):
    window = _window(qtbot, tmp_path)
    try:
        view, field = window.view, window.scene.rack_field
        # Near enough for edged racks, too far for their labels: the grouped drawing.
        view.zoom(12 / view.scale_factor())
        _settle(window, qtbot)
        pair = _pair_drawn_out_of_order(field)
        assert pair is not None, "the example has no two racks whose looks interleave"
        earlier, later = pair
        ids = {item: rid for rid, item in window.scene.racks.items()}
        design = window.document.design
        under = design.racks[ids[earlier]]
        window.scene.push(MoveRacksCommand(design, {ids[later]: (under.x, under.y)}))
        view.centerOn(under.x, under.y)
        _settle(window, qtbot)
        assert view.scale_factor() == 12
        # A point inside both footprints, clear of the front strip, edges and cable drops.
        rect = earlier.mapRectToScene(earlier.footprint())
        at = QPointF(rect.left() + 0.25 * rect.width(), rect.top() + 0.7 * rect.height())
        picture = _viewport_picture(window)
        pixel = view.mapFromScene(at)
        shown = QColor(picture.pixel(pixel.x(), pixel.y())).rgb()
        assert shown == later.look()[1].rgb() != earlier.look()[1].rgb()
    finally:
        close_quietly(window)
