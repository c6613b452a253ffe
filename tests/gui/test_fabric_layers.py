"""Fabric layers: View > Fabrics shows and hides each network on the plan; the analysis panel
shows one fabric's figures or a table of all (model figures, only formatted by the view)."""

from __future__ import annotations

import pytest

from model.design.fabrics import device_fabric, link_fabric
from model.generators.generate import rail_optimized
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


@pytest.fixture
def all_networks(qtbot, tmp_path):
    design = rail_optimized(
        nodes=31,
        node_type="dgx-h100",
        switch="qm9700",
        su_nodes=31,
        reserve_ports=1,
        fabrics="all",
    )
    window = open_window(qtbot, tmp_path, design)
    yield window
    window.fabric_layers.show_all()
    close_quietly(window)


def _menu_action(menu, text):
    return next(a for a in menu.actions() if a.text().replace("&", "") == text)


def _rack_of(design, predicate):
    return next(d.rack for d in design.devices.values() if predicate(d))


def _select(qtbot, scene, rack_id):
    """Click-select a rack (as the select interaction does) and let its links be drawn."""
    scene.select_ids([rack_id])
    qtbot.waitUntil(lambda: not scene._links_timer.isActive())


def test_show_only_storage_hides_the_other_fabrics_links_and_dims_their_racks(all_networks, qtbot):
    window = all_networks
    design = window.document.design
    scene = window.scene
    server_rack = _rack_of(design, lambda d: d.role == "gpu-server")
    _select(qtbot, scene, server_rack)
    shown = {link_fabric(design, lid) for lid in scene.link_items}
    assert {"compute", "storage", "oob"} <= shown  # every network of a server rack
    layers = window.fabric_layers
    only = _menu_action(layers.menu, "Show Only").menu()
    _menu_action(only, "Storage").trigger()
    assert not layers.actions["compute"].isChecked() and layers.actions["storage"].isChecked()
    _select(qtbot, scene, server_rack)
    assert scene.link_items and {link_fabric(design, lid) for lid in scene.link_items} == {
        "storage"
    }
    compute_rack = _rack_of(
        design, lambda d: d.role == "leaf" and device_fabric(design, d) == "compute"
    )
    storage_rack = _rack_of(design, lambda d: d.role == "storage")
    assert scene.racks[compute_rack].opacity() < 0.5
    assert scene.racks[storage_rack].opacity() == 1.0
    assert scene.racks[server_rack].opacity() == 1.0
    # The bundles count only the storage cables now.
    scene.tray_load.run_to_end()
    storage_links = sum(1 for lid in design.links if link_fabric(design, lid) == "storage")
    assert 0 < max(sum(g.values()) for g in scene.tray_load.counts.values()) <= storage_links
    layers.actions["compute"].trigger()  # tick compute back on, as a person would
    assert scene.racks[compute_rack].opacity() == 1.0
    _select(qtbot, scene, server_rack)
    assert {link_fabric(design, lid) for lid in scene.link_items} == {"compute", "storage"}


def test_analysis_panel_shows_one_fabric_or_all(all_networks, qtbot):
    window = all_networks
    wait_fresh(qtbot, window)
    panel = docks(window).panel
    report = panel.report
    assert set(report.fabrics) == {"compute", "storage", "inband", "oob", "scale-up"} - {"scale-up"}
    box = panel.fabric_box
    assert [box.itemData(i) for i in range(box.count())][1:] == list(report.fabrics)
    table = panel.fabric_view.text()
    for fabric in report.fabrics.values():
        assert f"<td>{fabric.links:,}</td>" in table
    panel.show_fabric("storage")
    storage = report.fabrics["storage"]
    text = panel.fabric_view.text()

    assert f"{storage.switches:,} (" in text and f"{storage.transceivers:,}" in text
    assert "typical" in text and "max" in text


@pytest.mark.parametrize(
    "fabric", ["compute", "storage", "inband", "oob"], ids=lambda f: f"only-{f}"
)
def test_each_fabric_can_be_shown_alone(all_networks, qtbot, fabric):
    from model.design.fabrics import FABRIC_LABELS

    window = all_networks
    design = window.document.design
    scene = window.scene
    server_rack = _rack_of(design, lambda d: d.role == "gpu-server")
    only = _menu_action(window.fabric_layers.menu, "Show Only").menu()
    _menu_action(only, FABRIC_LABELS[fabric]).trigger()
    checked = {f for f, a in window.fabric_layers.actions.items() if a.isChecked()}
    assert checked == {fabric}
    _select(qtbot, scene, server_rack)
    assert scene.link_items
    assert {link_fabric(design, lid) for lid in scene.link_items} == {fabric}
