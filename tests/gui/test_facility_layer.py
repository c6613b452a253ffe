"""The plan's power and cooling layer: View > Power and Cooling shows the model's busways, CDUs
and CRAHs coloured by their load at maximum draw, and the floor load per tile; an edit that
overloads a CDU turns it red (model -> view), and the colours are the model's bands."""

from __future__ import annotations

import msgspec
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from gui.canvas.facility_layer import BAND_COLORS
from gui.edit.commands import MoveRacksCommand
from model.facility.plan_view import facility_view
from model.files.design_file import save_design
from model.generators.generate import nvl72
from model.plant.power import rack_power
from tests.gui.analysis_support import close_quietly
from tests.gui.conftest import make_window, wait_until_idle


@pytest.fixture
def window(qtbot, tmp_path):
    """The editor on a generated GB200 NVL72 x 2 hall (its facility laid out per row)."""
    path = tmp_path / "nvl.hall.json"
    save_design(nvl72(racks=2), path)
    win = make_window(qtbot, tmp_path, path)
    yield win
    close_quietly(win)


def _model_view(window):
    design = window.document.design
    max_w = {r: v[1] for r, v in rack_power(design, window.scene.plant).items()}
    return facility_view(design, max_w)


def test_the_toggle_shows_the_models_units_and_tiles(qtbot, window):
    layer = window.scene.facility_layer
    assert not layer.visible  # hidden at first, computing nothing
    window.facility_actions.action.trigger()
    assert layer.visible
    shown = layer.item.view()
    model = _model_view(window)
    assert [(u.id, u.band, u.utilisation_pct) for u in shown.units] == [
        (u.id, u.band, u.utilisation_pct) for u in model.units
    ]
    assert shown.tiles_kg_m2 == model.tiles_kg_m2 and shown.tiles_kg_m2
    assert {u.kind for u in shown.units} == {"busway", "cdu", "crah"}
    window.facility_actions.action.trigger()
    assert not layer.visible


def test_a_cdu_cut_to_a_tenth_turns_red_after_the_edit(qtbot, window):
    window.facility_actions.action.trigger()
    layer = window.scene.facility_layer
    design = window.document.design
    cdu = design.hall.cooling.cdus[0]
    assert next(u for u in layer.item.view().units if u.id == cdu.id).band != "over"
    small = msgspec.structs.replace(cdu, capacity_kw=cdu.capacity_kw / 10)
    cooling = msgspec.structs.replace(
        design.hall.cooling, cdus=(small, *design.hall.cooling.cdus[1:])
    )
    design.set_cooling(cooling)  # the model's edit: the layer follows its change event
    qtbot.waitUntil(
        lambda: next(u for u in layer.item.view().units if u.id == cdu.id).band == "over",
        timeout=10_000,
    )


def test_a_rack_moved_moves_its_serve_lines(qtbot, window):
    window.facility_actions.action.trigger()
    scene = window.scene
    design = window.document.design
    rack = next(r for r in design.racks.values() if r.cooling)
    scene.push(MoveRacksCommand(design, {rack.id: (rack.x, rack.y + 1.2)}))
    wait_until_idle(qtbot)
    assert scene.facility_layer.item._centres[rack.id] == (rack.x, rack.y + 1.2)


def test_the_layer_paints_its_band_colours(qtbot, window, tmp_path):
    """Rendered to a picture: the busway and CDU colours are in it (and the PNG is kept for a
    person to look at: tests/gui leaves it in the test's folder)."""
    window.facility_actions.action.trigger()
    scene = window.scene
    rect = scene.hall_rect()
    image = QImage(1200, int(1200 * rect.height() / rect.width()), QImage.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), rect, Qt.KeepAspectRatio)
    painter.end()
    image.save(str(tmp_path / "facility.png"))
    colours = {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    }
    assert BAND_COLORS["ok"] in colours  # the busways and CDUs of a generated hall: < 80 %


def test_the_inspector_shows_a_racks_feeds_coolant_and_floor_load(qtbot, window):
    from PySide6.QtWidgets import QFormLayout, QLabel

    from model.facility.plan_view import rack_facility_rows

    design = window.document.design
    rack = next(r for r in design.racks.values() if r.type == "rack-nvl72")
    window.scene.select_ids([rack.id])
    form: QFormLayout = window.inspector.form
    max_w = rack_power(design, window.scene.plant, [rack.id])[rack.id][1]
    want = dict(rack_facility_rows(design, rack.id, max_w))

    def shown() -> dict[str, str]:
        out = {}
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.LabelRole)
            field = form.itemAt(row, QFormLayout.FieldRole)
            if label and field and isinstance(field.widget(), QLabel):
                out[label.widget().text()] = field.widget().text()
        return out

    qtbot.waitUntil(lambda: "Coolant" in shown(), timeout=5000)
    got = shown()
    assert {k: got[k] for k in ("Feeds", "Coolant", "Floor")} == want
    assert "side A" in want["Feeds"] and "side B" in want["Feeds"]
    assert "1,360 kg" in want["Floor"]


def test_right_click_a_rack_offers_its_cdus_failing_and_takes_its_gpus_down(qtbot, window):
    from tests.gui.test_whatif import _action, _rack_centre, _right_click_and_choose

    design = window.document.design
    rack = next(r for r in design.racks.values() if r.type == "rack-nvl72")
    x, y = _rack_centre(window, rack.id)
    text = _right_click_and_choose(window, x, y, lambda m: _action(m, "What if every CDU"))
    assert rack.name in text
    result = window.whatif.panel.result
    assert rack.id in result["uncooled_racks"] and result["uncooled_gpus"] >= 72
    busway = _right_click_and_choose(
        window, x, y, lambda m: next(a for a in m.actions() if "(side B)" in a.text())
    )
    assert "side B" in busway
    assert window.whatif.panel.result["unpowered_racks"] == []  # 2N: side A carries the rack
