"""Every figure the editor shows is the model's: on a generated design, the canvas, the links
table, the inspector and the fabric wizard display exactly what model/ computes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import msgspec
import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication

from gui.panels.fabric_wizard import FabricWizard
from gui.panels.links_model import COL_TIER
from model.analysis.topology import link_tiers
from model.analysis.warnings import placement_findings
from model.engine.media import media_that_fit
from model.files.design_file import load_design
from model.generators.generate import preview
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, open_window, wait_fresh
from tests.gui.conftest import mouse

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def s_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    yield window
    close_quietly(window)


def assert_canvas_tray_fill_is_the_analysis_tray_fill(window, qtbot) -> None:
    scene = window.scene
    report = window.analysis_docks.runner.result.report
    if not window.tray_fill_action.isChecked():
        window.tray_fill_action.trigger()
    qtbot.waitUntil(lambda: not scene.tray_load.busy and bool(scene.tray_load.fill), timeout=10_000)
    QApplication.processEvents()
    assert any(f > 0 for f in report.tray_fill.values())
    for tray_id, item in scene.trays.items():
        assert item._fill_fraction == report.tray_fill[tray_id]
        assert item.toolTip() == f"Tray fill {report.tray_fill[tray_id]:.1%} at its fullest point"


def assert_links_table_tiers_are_the_analysis_tiers(window) -> None:
    design = window.document.design
    report = window.analysis_docks.runner.result.report
    model = window.analysis_docks.links.model
    tier_of = link_tiers(design)
    shown = Counter()
    for r in range(model.rowCount()):
        text = model.index(r, COL_TIER).data()
        assert text == tier_of[model.link_id(r)]
        shown[text] += 1
    assert {t: n for t, n in shown.items() if t in report.links_by_tier} == report.links_by_tier


def test_canvas_tray_fill_is_the_analysis_tray_fill(s_window, qtbot):
    assert_canvas_tray_fill_is_the_analysis_tray_fill(s_window, qtbot)


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.hall.json")))
def test_bundled_examples_show_the_analysis_tray_fill_and_tiers(qtbot, tmp_path, example):
    window = open_window(qtbot, tmp_path, load_design(EXAMPLES / example))
    try:
        assert_canvas_tray_fill_is_the_analysis_tray_fill(window, qtbot)
        assert_links_table_tiers_are_the_analysis_tiers(window)
    finally:
        close_quietly(window)


def test_links_table_tier_is_the_analysis_tier_even_when_typed_roles_mislead(s_window, qtbot):
    window = s_window
    design = window.document.design
    # Type every leaf as a spine: the roles now say "spine-spine", the graph still says leaf.
    design.update_devices(
        [
            msgspec.structs.replace(d, role="spine")
            for d in design.devices.values()
            if d.role == "leaf"
        ]
    )
    wait_fresh(qtbot, window)
    assert_links_table_tiers_are_the_analysis_tiers(window)
    report = window.analysis_docks.runner.result.report
    assert report.links_by_tier["server-leaf"] > 0


def test_inspector_and_links_table_offer_exactly_the_media_that_fit(s_window, qtbot):
    window = s_window
    design = window.document.design
    media = list(design.catalog.media_types.values())
    link = next(iter(design.links.values()))
    port_a, port_b = (
        design.ports(link.a.device)[link.a.port],
        design.ports(link.b.device)[link.b.port],
    )
    assert port_a.form_factor == port_b.form_factor == "OSFP"
    fit = {media[i].id for i in media_that_fit(media, port_a, port_b)}
    # The catalog has 400G media of the same speed that do not fit (8 x 50G lanes, QSFP-DD).
    assert {m.id for m in media if 400.0 in m.speeds_gbps} - fit
    window.scene.select_ids([link.id])
    QApplication.processEvents()
    qtbot.waitUntil(lambda: "medium" in window.inspector.fields, timeout=3000)
    combo = window.inspector.fields["medium"]
    offered = {combo.itemData(i) for i in range(combo.count())} - {"auto", None}
    assert offered == fit
    table = window.analysis_docks.links.model
    row = next(r for r in range(table.rowCount()) if table.link_id(r) == link.id)
    assert {m for m, _ in table.medium_choices(row)} - {"auto"} == fit
    assert window.document.plant.medium(link.id).id in fit  # and the engine chose one of them


@pytest.mark.parametrize(
    "delta",
    [(0.6, 0.0), (0.0, -1.8), (-2.4, 0.0), (0.6, 0.6)],
    ids=["onto-its-neighbour", "into-the-aisle", "out-of-the-hall", "partly-onto-its-neighbour"],
)
def test_canvas_collision_while_dragging_is_the_analysis_placement_rule(s_window, delta):
    window, view = s_window, s_window.view
    design = window.document.design
    rack = next(r for r in design.racks.values() if r.name == "A01")
    x, y = rack.x, rack.y
    mouse(view, QEvent.MouseButtonPress, x, y)
    for t in (0.25, 0.5, 0.75, 1.0):
        mouse(view, QEvent.MouseMove, x + delta[0] * t, y + delta[1] * t, buttons=Qt.LeftButton)
    shown_red = window.scene.racks[rack.id]._collision
    mouse(view, QEvent.MouseButtonRelease, x + delta[0], y + delta[1])
    assert (design.racks[rack.id].x, design.racks[rack.id].y) != (x, y)
    flagged = {r for f in placement_findings(design) for r in f.objects}
    assert shown_red == (rack.id in flagged)


def test_fabric_wizard_shows_the_model_preview_estimate(qtbot):
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    wizard.template.setCurrentIndex(wizard.template.findData("rail-optimized"))
    wizard.fields["rail-optimized"]["nodes"].setValue(128)
    counts = preview("rail-optimized", **wizard.params())
    assert counts["power_estimate_w"] > counts["device_power_w"] > 0
    text = wizard.preview_label.text()
    assert (
        f"<td>Power (estimate)</td><td align='right'><b>{counts['power_estimate_w'] / 1000:,.0f} kW"
        in text
    )
    assert f"<td>Optics (at most)</td><td align='right'><b>{counts['optics_at_most']:,}</b>" in text


@pytest.mark.parametrize("over", ["A01", None], ids=["over-a-rack", "on-free-floor"])
def test_placing_ghost_is_red_exactly_where_the_placed_rack_is_flagged(s_window, over):
    window, view = s_window, s_window.view
    design = window.document.design
    if over:
        x, y = design.racks[over].x, design.racks[over].y
    else:
        x, y = 1.2, 0.9  # top-left corner of the hall, clear of the rows
    window.start_placing("rack-48u-600x1200")
    mouse(view, QEvent.MouseMove, x, y, button=Qt.NoButton, buttons=Qt.NoButton)
    ghost_red = window.scene.interaction._ghost._collision
    before = set(design.racks)
    # A placement over a rack is refused unless Shift forces it (issue 38): force it, so the
    # flagged rack exists to compare the ghost's colour with.
    keys = Qt.ShiftModifier if over else Qt.NoModifier
    mouse(view, QEvent.MouseButtonPress, x, y, modifiers=keys)
    mouse(view, QEvent.MouseButtonRelease, x, y, modifiers=keys)
    (placed,) = set(design.racks) - before
    flagged = {r for f in placement_findings(design) for r in f.objects}
    assert ghost_red == (placed in flagged) == bool(over)
