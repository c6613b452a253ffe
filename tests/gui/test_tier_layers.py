"""View > Tiers: hide or show the links and switches of one tier (leaf, spine, core, scale-up)
beside the fabric layers; both kinds combine."""

from __future__ import annotations

import pytest

from model.analysis.tier_layers import tier_membership
from model.generators.generate import rail_optimized
from tests.gui.analysis_support import close_quietly, open_window


@pytest.fixture
def two_tier(qtbot, tmp_path):
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    window = open_window(qtbot, tmp_path, design)
    yield window
    window.tier_layers.show_all()
    window.fabric_layers.show_all()
    close_quietly(window)


def _menu_action(menu, text):
    return next(a for a in menu.actions() if a.text().replace("&", "") == text)


def _select(qtbot, scene, rack_id):
    scene.select_ids([rack_id])
    qtbot.waitUntil(lambda: not scene._links_timer.isActive())


def test_hiding_the_spine_tier_hides_its_cables_and_dims_the_spine_racks(two_tier, qtbot):
    window = two_tier
    design, scene = window.document.design, window.scene
    links, switches = tier_membership(design)
    leaf_rack = next(design.devices[d].rack for d, t in switches.items() if t == "leaf")
    spine_rack = next(design.devices[d].rack for d, t in switches.items() if t == "spine")
    server_rack = next(d.rack for d in design.devices.values() if d.role == "gpu-server")
    _select(qtbot, scene, leaf_rack)
    assert {links[lk] for lk in scene.link_items} == {"leaf", "spine"}
    view_menu = window.view_menu
    tiers = _menu_action(view_menu, "Tiers").menu()
    assert [a.text() for a in tiers.actions()][:4] == [
        "Leaf",
        "Spine",
        "Core",
        "Scale-up (NVLink, UALink)",
    ]
    _menu_action(tiers, "Spine").trigger()  # untick, as a person would
    assert not scene.layer_visible("tier", "spine")
    _select(qtbot, scene, leaf_rack)
    assert scene.link_items and {links[lk] for lk in scene.link_items} == {"leaf"}
    assert scene.racks[spine_rack].opacity() < 0.5
    assert scene.racks[leaf_rack].opacity() == 1.0 and scene.racks[server_rack].opacity() == 1.0
    scene.tray_load.run_to_end()
    leaf_links = sum(1 for t in links.values() if t == "leaf")
    assert 0 < max(sum(g.values()) for g in scene.tray_load.counts.values()) <= leaf_links
    # Show Only Spine: the leaf racks dim, the server-to-leaf cables go.
    _menu_action(_menu_action(tiers, "Show Only").menu(), "Spine").trigger()
    assert not window.tier_layers.actions["leaf"].isChecked()
    assert scene.racks[leaf_rack].opacity() < 0.5 and scene.racks[spine_rack].opacity() == 1.0
    _select(qtbot, scene, leaf_rack)
    assert {links[lk] for lk in scene.link_items} == {"spine"}
    _menu_action(tiers, "Show All Tiers").trigger()
    _select(qtbot, scene, leaf_rack)
    assert {links[lk] for lk in scene.link_items} == {"leaf", "spine"}
    assert all(item.opacity() == 1.0 for item in scene.racks.values())


def test_tier_and_fabric_layers_combine_and_follow_a_new_document(two_tier, qtbot):
    window = two_tier
    window.tier_layers.actions["leaf"].trigger()  # hide the leaf tier
    window.fabric_layers.actions["compute"].trigger()  # and the compute fabric
    scene = window.scene
    assert not scene.layer_visible("tier", "leaf") and not scene.fabric_visible("compute")
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    from gui.document.document import Document

    window.set_document(Document(design))
    assert window.scene is not scene
    assert not window.scene.layer_visible("tier", "leaf")  # the menu's state carries over
    assert not window.scene.fabric_visible("compute")
    leaf_rack = next(
        design.devices[d].rack for d, t in tier_membership(design)[1].items() if t == "leaf"
    )
    assert window.scene.racks[leaf_rack].opacity() < 0.5
