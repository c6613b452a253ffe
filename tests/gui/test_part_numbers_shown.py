"""The editor shows each part by the number the BOM and the cabling schedule list it by: the
links table's part filter (which also still finds the catalog's own numbers), a link's plugs and
cable in the inspector and its channel view read "quote" where the catalog's number is an EST-
estimate, never the estimate itself."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from gui.canvas.tooltips import trunk_tooltip
from model.generators.generate import apply_cabling, generate
from model.outputs.bom import bom_lines
from model.outputs.bom_parts import QUOTE
from model.outputs.schedule import schedule_rows
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh
from tests.gui.test_plant_views import form_rows


@pytest.fixture
def helios_window(qtbot, tmp_path):
    """One AMD Helios rack on four planes of Tomahawk 6 as 512 x 200G, zoned: vendor-neutral
    modules, fibres, cords and trunks whose catalog numbers are EST- estimates."""
    design = generate("helios", racks=1, planes=4, port_mode="512x200G")
    apply_cabling(design, "zones")
    window = open_window(qtbot, tmp_path, design)
    yield window
    close_quietly(window)


def _settle(qtbot, window) -> None:
    QApplication.processEvents()
    window.scene.feed.ensure_fresh()
    wait_fresh(qtbot, window)
    QApplication.processEvents()


def test_the_links_table_filters_by_the_boms_numbers(helios_window, qtbot):
    window = helios_window
    panel = docks(window).links
    docks(window).tabs.setCurrentWidget(panel)
    model = panel.model
    total = model.rowCount()
    rows = schedule_rows(window.document.design, window.document.plant)
    quoted = {r.link_id for r in rows if QUOTE in (r.a_module, r.b_module, r.part)}
    assert 0 < len(quoted)
    qtbot.keyClicks(panel.part, QUOTE)
    shown = {model.link_id(r) for r in range(model.rowCount())}
    assert shown == quoted
    panel.part.clear()
    # The catalog's own numbers still filter: "EST-" finds the same estimated parts, and a
    # word of one of them a subset
    qtbot.keyClicks(panel.part, "EST-")
    assert {model.link_id(r) for r in range(model.rowCount())} == quoted
    panel.part.clear()
    assert model.rowCount() == total
    qtbot.keyClicks(panel.part, "EST-XYZ-NO-SUCH")
    assert model.rowCount() == 0
    panel.part.clear()
    assert model.rowCount() == total


def test_a_links_plugs_and_channel_show_the_schedules_numbers(helios_window, qtbot):
    window = helios_window
    design, plant = window.document.design, window.document.plant
    rows = schedule_rows(design, plant)
    link_id = next(r.link_id for r in rows if r.medium_kind == "trunk")
    own = [r for r in rows if r.link_id == link_id]  # cord, trunk, cord: A end to B end
    window.scene.select_ids([link_id])
    _settle(qtbot, window)
    form = form_rows(window.inspector)
    # The plugs and the cable by number (the "why" lines name the module the engine chose)
    # (the schedule may list the link's ends the other way round)
    ends = {f"{own[0].a_cage}: {own[0].a_module}", f"{own[-1].b_cage}: {own[-1].b_module}"}
    assert {form["A cage"], form["B cage"]} == ends
    assert QUOTE in (own[0].a_module, own[-1].b_module)
    assert "EST-" not in form["Cable"] and QUOTE in form["Cable"]
    tree = window.inspector.fields["channel"]
    segments = tree.segment_texts()
    assert not any("EST-" in t for texts in segments for t in texts)
    # The channel's cords and trunks, in light's order, carry the schedule rows' numbers.
    pieces = [
        next(t for t in texts if t.startswith("Part ")).split(":")[0].removeprefix("Part ")
        for texts in segments
        if texts[0].split(" ")[1] in ("Patch", "Trunk")
    ]
    assert pieces == [r.part for r in own]
    assert QUOTE in pieces
    listed = {line.part_number for line in bom_lines(design, plant)}
    assert set(pieces) <= listed


def test_the_why_lines_and_the_trunk_form_show_the_boms_numbers(helios_window, qtbot):
    window = helios_window
    design, plant = window.document.design, window.document.plant
    rows = schedule_rows(design, plant)
    link_id = next(r.link_id for r in rows if r.a_module == QUOTE)
    window.scene.select_ids([link_id])
    _settle(qtbot, window)
    form = form_rows(window.inspector)
    # The engine's words name the module it chose as the cage lines do: "quote", not EST-
    for key in ("Why", "A cage why", "B cage why"):
        assert "EST-" not in form[key]
    for end in ("A", "B"):
        plug = form[f"{end} cage"].rsplit(": ", 1)[1]
        assert plug == QUOTE and f"module {plug} (" in form[f"{end} cage why"]
    # A trunk: the BOM's trunk line by number and description, not the catalog's trunk id
    layout = window.scene.trunk_layer.layout()
    trunk = layout.trunks[0]
    window.scene.select_ids([trunk.id])
    _settle(qtbot, window)
    part = form_rows(window.inspector)["Part"]
    assert trunk_tooltip(trunk).startswith(
        f"{trunk.id}: {part}, "
    )  # the plan's hover says the same
    assert "EST-" not in part and trunk.part not in part
    number, _, description = part.partition(": ")
    lines = [
        ln
        for ln in bom_lines(design, plant)
        if ln.category == "Trunks" and ln.length_m == trunk.ordered_m
    ]
    assert any(ln.part_number == number and ln.description.startswith(description) for ln in lines)
