"""The editor shows the model's physical plant: rack power (typical and max) on the canvas, in the
inspector and the elevation dialog; a link's cages, plugs and per-cage reason in the inspector."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLabel

from gui import style
from gui.panels.elevation import RackElevationPanel
from model.plant.physical_plant import link_plugs, rack_power


def settle():
    for _ in range(3):
        QApplication.processEvents()


def form_rows(inspector) -> dict[str, str]:
    """Label -> text of every read-only row of the inspector's form."""
    out = {}
    form = inspector.form
    for row in range(form.rowCount()):
        label = form.itemAt(row, form.ItemRole.LabelRole)
        field = form.itemAt(row, form.ItemRole.FieldRole)
        if label and field and isinstance(field.widget(), QLabel):
            out[label.widget().text()] = field.widget().text()
    return out


def test_inspector_shows_the_models_rack_power_typical_and_max(window):
    design, plant = window.document.design, window.document.plant
    plant.refresh()
    window.scene.select_ids(["r1"])
    settle()
    typical, maximum, budget = rack_power(design, plant, ["r1"])["r1"]
    shown = form_rows(window.inspector)["Power"]
    assert shown == style.rack_power_text(typical, maximum, budget)
    assert "typical" in shown and "max" in shown
    # The same figure the analysis reports for the rack.
    from model.analysis import analyze

    assert analyze(design, plant).rack_power_w["r1"] == (typical, maximum, budget)
    assert maximum > typical  # 2 x DGX H100 at 10.2 kW max vs 8.0 kW typical, plus modules


def test_elevation_dialog_shows_the_models_rack_power(window, qtbot):
    design, plant = window.document.design, window.document.plant
    plant.refresh()
    dialog = window.open_elevation("r1")
    assert isinstance(dialog, RackElevationPanel)
    typical, maximum, budget = rack_power(design, plant, ["r1"])["r1"]
    assert dialog.power.format() == "Power " + style.rack_power_text(typical, maximum, budget)
    assert dialog.power.value() == int(maximum / 100)


def test_power_colours_follow_the_models_max_draw(window):
    design, plant = window.document.design, window.document.plant
    plant.refresh()
    window.power_colors_action.trigger()
    settle()
    for rack_id, item in window.scene.racks.items():
        _typical, maximum, budget = rack_power(design, plant, [rack_id])[rack_id]
        assert item._fill == style.power_color(maximum / budget)


def test_inspector_shows_a_links_cages_plugs_and_per_cage_reason(window):
    plant = window.document.plant
    plant.refresh()
    window.scene.select_ids(["l-1"])
    settle()
    rows = form_rows(window.inspector)
    plugs = link_plugs(plant, "l-1")
    assert rows["A cage"].startswith(plugs["a_cage"]) and plugs["a_cage"]
    assert rows["B cage"].startswith(plugs["b_cage"])
    a_why, b_why = plant.cage_reason("l-1")
    assert rows["A cage why"] == a_why and rows["B cage why"] == b_why
    medium = plant.medium("l-1")
    if medium.kind in ("mmf", "smf"):
        assert plugs["a_plug"] in rows["A cage"] and "module" in a_why
    assert rows["Cable"].startswith(plugs["part"])
