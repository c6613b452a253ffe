"""The inspector's tray form after an edit of the shown tray: a corner moved sets its length
line anew and keeps the form (model -> view); any other edit of the tray makes it again."""

from __future__ import annotations

import msgspec
from PySide6.QtWidgets import QApplication, QLabel

from model.plant.tray_products import polyline_length_m


def _length_line(inspector) -> str:
    (label,) = [w for w in inspector.form_host.findChildren(QLabel) if w.text().endswith("corners")]
    return label.text()


def _rebuilt(inspector) -> None:
    inspector.rebuild()  # what its timer runs after an edit
    QApplication.processEvents()


def _tray_shown(window):
    """The first tray selected and its form built: (design, inspector, tray, its width field)."""
    design, inspector = window.document.design, window.inspector
    tray = next(iter(design.trays.values()))
    window.scene.select_ids([tray.id])
    _rebuilt(inspector)
    return design, inspector, tray, inspector.fields["width"]


def test_moving_a_corner_updates_the_length_and_keeps_the_form(window):
    design, inspector, tray, width = _tray_shown(window)
    (x, y), *rest = tray.points
    moved = [(x - 1.5, y), *rest]
    design.set_tray_points(tray.id, moved)
    _rebuilt(inspector)
    assert inspector.fields["width"] is width  # the same form: only its length line set
    assert _length_line(inspector) == f"{polyline_length_m(moved):.2f} m, {len(moved)} corners"
    assert inspector.title.text() == f"Tray {tray.name or tray.id}"


def test_another_edit_of_the_tray_makes_the_form_again(window):
    design, inspector, tray, width = _tray_shown(window)
    design.update_trays([msgspec.structs.replace(tray, name="Spine run", width_m=0.3)])
    _rebuilt(inspector)
    assert inspector.fields["width"] is not width
    assert inspector.fields["width"].value() == 0.3
    assert inspector.title.text() == "Tray Spine run"
    other = next(t for t in design.trays.values() if t.id != tray.id)
    window.scene.select_ids([other.id])  # another tray, shown whole
    _rebuilt(inspector)
    assert inspector.title.text() == f"Tray {other.name or other.id}"
    assert _length_line(inspector).startswith(f"{polyline_length_m(other.points):.2f} m")
