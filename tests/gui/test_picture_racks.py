"""A picture's racks (gui/canvas/picture_racks.py) are what the editor's RackItems give.

A picture scene computes its racks' rectangles with numpy and shares their colours by role,
where the editor's scene makes a RackItem per rack: these tests hold the computed rectangles to
Qt's own ``mapRect`` of the items, bit for bit, and a picture scene's paint to the editor
scene's, pixel for pixel, far and near (rack names shown) and at every rotation.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QUndoStack

from gui.canvas.picture_racks import scene_rects
from gui.canvas.rack_item import RackItem
from gui.canvas.scene import HallScene
from gui.document.document import make_plant
from gui.document.plant_feed import close_feed
from tests import builders


def _rect(r: QRectF) -> tuple[float, float, float, float]:
    return (r.x(), r.y(), r.width(), r.height())


def test_scene_rects_are_qt_map_rect_of_the_rack_items_bit_for_bit(qapp):
    rng = random.Random(13)
    racks = [(0.0, 0.0, 0.6, 1.2, 0), (0.0, 0.0, 0.6, 1.2, 180), (-0.3, 0.6, 0.6, 1.2, 180)]
    for _ in range(3000):
        racks.append(
            (
                round(rng.uniform(-300, 300), rng.randrange(7)),
                round(rng.uniform(-300, 300), rng.randrange(7)),
                rng.choice((0.6, 0.8, 0.75, 1 / 3, 0.61)),
                rng.choice((1.2, 1.07, 0.9, 2.0)),
                rng.choice((0, 180)),
            )
        )
    x, y, w, d, rot = (np.array(column, dtype=np.float64) for column in zip(*racks, strict=True))
    rects = scene_rects(x, y, w, d, rot)
    for k, (px, py, width, depth, rotation) in enumerate(racks):
        item = RackItem("r")
        item.set_geometry(px, py, width, depth, rotation)
        transform = item.sceneTransform()
        assert tuple(rects["footprint"][k].tolist()) == _rect(transform.mapRect(item.footprint()))
        assert tuple(rects["front"][k].tolist()) == _rect(transform.mapRect(item.front()))
        assert tuple(rects["bounds"][k].tolist()) == _rect(item.sceneBoundingRect())


def _turned_pod():
    """The small pod with racks at every rotation and an empty rack (another fill)."""
    design = builders.small_pod()
    builders.rack(design, "e1", 4.0, 5.0, rotation=180)
    builders.rack(design, "e2", 5.2, 5.0, rotation=90)
    builders.rack(design, "e3", 7.0, 5.0, rotation=270)
    design.rotate_racks({"r2": 180})
    return design


def _paint(scene: HallScene, source: QRectF, width_px: int) -> QImage:
    height_px = int(width_px * source.height() / source.width())
    image = QImage(width_px, height_px, QImage.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, width_px, height_px), source, Qt.KeepAspectRatio)
    painter.end()
    return image


@pytest.mark.parametrize("width_px", [50, 300, 2400])  # far racks, near, with names
def test_a_picture_scene_paints_its_racks_as_the_editor_scene(qapp, width_px):
    design = _turned_pod()
    plant = make_plant(design)
    scenes = [HallScene(design, QUndoStack(), plant, picture=p) for p in (False, True)]
    try:
        editor, picture = scenes
        assert not picture.racks and len(editor.racks) == len(design.racks)
        # The same racks in the same stacking order, with the same bounds and drawing.
        ours = list(picture.rack_field._racks.items())
        theirs = [
            (editor.racks[r], editor.rack_field._racks[editor.racks[r]]) for r in design.racks
        ]
        assert [key.rack_id for key, _ in ours] == list(design.racks)
        for (_key, (bounds, placed)), (item, (their_bounds, _)) in zip(ours, theirs, strict=True):
            assert _rect(bounds) == _rect(their_bounds)
            expected = editor.rack_field.place(item)
            assert (placed[0] is None) == (expected[0] is None)
            if placed[0] is not None:
                assert [_rect(r) for r in placed[0]] == [_rect(r) for r in expected[0]]
            assert placed[1:5] == expected[1:5]
            assert [c.rgba() for c in (placed[5], placed[7], placed[8])] == [
                c.rgba() for c in (expected[5], expected[7], expected[8])
            ]
            assert (placed[6].color().rgba(), placed[6].widthF()) == (
                expected[6].color().rgba(),
                expected[6].widthF(),
            )
        assert np.array_equal(
            picture.rack_field._boxes,
            np.array([(b.left(), b.top(), b.right(), b.bottom()) for _, (b, _) in theirs]),
        )
        source = editor.hall_rect()
        mine, reference = (_paint(s, source, width_px) for s in (picture, editor))
        assert bytes(mine.constBits()) == bytes(reference.constBits())
    finally:
        for scene in scenes:
            scene.detach()
            scene.clear()
        close_feed(plant)
        plant.close()
