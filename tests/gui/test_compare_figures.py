"""File > Compare With… shows the model's figures with units and thousands separators, as the
analysis panel does (issue 38: it showed raw 0.02941 and 0.00508 s): percent, ms, $ k, Tb/s,
signed differences. The GUI only formats what ``model.studies.compare`` computed."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QFileDialog

from gui.panels.units_text import seconds_text, share_text, signed, usd_text, watts_text
from model.files.design_file import design_to_bytes, read_design_bytes, save_design
from model.generators.generate import rail_optimized
from model.studies.compare import KPI_LABELS
from tests.gui.conftest import close_quietly, make_window


@pytest.fixture
def rail_window(qtbot, tmp_path):
    design = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=16)
    path = tmp_path / "rail.hall.json"
    save_design(design, path)
    win = make_window(qtbot, tmp_path, path)
    yield win
    close_quietly(win)


def _compare_with_a_moved_rack(window, monkeypatch, tmp_path):
    design = window.document.design
    other = read_design_bytes(design_to_bytes(design))
    rack_id = next(r for r in design.racks if design.devices_in_rack(r))
    rack = design.racks[rack_id]
    other.move_racks({rack_id: (rack.x, rack.y + 6.0)})
    path = tmp_path / "other.hall.json"
    save_design(other, path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.whatif.compare_action.trigger()  # File > Compare With…
    return window.whatif.compare_dialog


def _cells(dialog) -> dict[str, tuple[str, str, str]]:
    table = dialog.table
    names = list(dialog.result["kpis"])
    heads = [table.verticalHeaderItem(r).text() for r in range(table.rowCount())]
    assert all(KPI_LABELS[n].startswith(h) for n, h in zip(names, heads, strict=True))
    assert not any(h.endswith(("(USD)", "(Gb/s)", "(s)")) for h in heads)  # units in cells
    return {n: tuple(table.item(r, c).text() for c in range(3)) for r, n in enumerate(names)}


def test_compare_cells_carry_units_and_separators(rail_window, monkeypatch, tmp_path):
    dialog = _compare_with_a_moved_rack(rail_window, monkeypatch, tmp_path)
    kpis = dialog.result["kpis"]
    cells = _cells(dialog)
    share = kpis["optics_share_of_it_power"]
    assert cells["optics_share_of_it_power"][1] == share_text(share["b"])
    assert cells["optics_share_of_it_power"][1].endswith(" %")
    allreduce = kpis["allreduce_time_s"]
    assert allreduce["b"] < 1  # a 256-GPU pod: milliseconds, written as such
    assert cells["allreduce_time_s"][1] == seconds_text(allreduce["b"])
    assert cells["allreduce_time_s"][1].endswith(" ms")
    cost = kpis["cost_per_gpu_usd"]
    assert cost["b"] > 10_000 and cells["cost_per_gpu_usd"][1] == usd_text(cost["b"])
    assert cells["optics_w_per_gpu"][0] == watts_text(kpis["optics_w_per_gpu"]["a"])
    assert re.fullmatch(r"[\d,.]+ (Gb|Tb)/s", cells["bisection_gbps"][0])
    assert cells["gpus"] == ("256", "256", "0")
    for name, row in cells.items():
        for text in row:  # no raw fraction like 0.02941 anywhere
            assert not re.fullmatch(r"0\.\d{4,}", text), (name, text)
    dialog.close()


def test_compare_differences_are_signed_in_the_kpi_unit(rail_window, monkeypatch, tmp_path):
    dialog = _compare_with_a_moved_rack(rail_window, monkeypatch, tmp_path)
    kpis, cells = dialog.result["kpis"], _cells(dialog)
    cost = kpis["cost_per_gpu_usd"]
    assert cells["cost_per_gpu_usd"][2] == (
        signed(cost["delta"], usd_text) if cost["delta"] else "0"
    )
    method = kpis["bisection_method"]
    assert cells["bisection_method"][2] == method["delta"]  # a word: "same" or "changed"
    dialog.close()


def test_units_text_scales_and_signs():
    assert seconds_text(0.00508) == "5.08 ms"
    assert seconds_text(2.5) == "2.50 s"
    assert seconds_text(4.2e-5) == "42.0 µs"
    assert share_text(0.02941) == "2.9 %"
    assert usd_text(41_234.0) == "$41.2 k"
    assert usd_text(1_250_000.0) == "$1.25 M"
    assert usd_text(812.4) == "$812"
    assert watts_text(23.04) == "23.0 W"
    assert signed(-0.0012, seconds_text) == "−1.20 ms"
    assert signed(3_000.0, usd_text) == "+$3,000"


def _legend_colours(view) -> set[str]:
    rect = view.viewport().rect()
    image = view.viewport().grab().toImage()
    return {
        image.pixelColor(x, y).name()
        for x in range(rect.left() + 20, rect.left() + 46)
        for y in range(max(0, rect.bottom() - 300), rect.bottom())
    }


def test_the_compare_highlight_has_its_own_colour_and_a_line_in_the_legend(
    rail_window, monkeypatch, tmp_path
):
    from gui import style
    from gui.canvas.blast_radius_item import COLORS

    changed = COLORS["changed"]
    taken = {*style.MEDIUM_KIND_COLORS.values(), style.TRUNK_COLOR, style.SELECTION}
    assert changed not in taken  # violet was the AOC's
    view = rail_window.view
    assert QColor(changed).name() not in _legend_colours(view)
    dialog = _compare_with_a_moved_rack(rail_window, monkeypatch, tmp_path)
    assert ("Changed (compare)", changed, "frame") in rail_window.scene.overlay_key()
    QApplication.processEvents()
    assert QColor(changed).name() in _legend_colours(view)
    dialog.close()
