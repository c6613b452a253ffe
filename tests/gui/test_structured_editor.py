"""Structured cabling in the editor: cabling style (undo/redo), channel view, trunk layer,
channel warnings selecting their elements, placing panels and routing a link via them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLabel

from gui.edit.commands import MoveRacksCommand
from model.catalog.parts import part_number_for, row_number
from model.catalog.structured import structured_catalog
from model.design.entities import Tray
from model.files.design_file import save_design
from model.structured.channels import loss_budget
from model.structured.layout import set_cabling, structured_layout
from tests.builders import device, empty_hall, link, rack
from tests.gui.analysis_support import close_quietly, wait_fresh
from tests.gui.conftest import make_window


def two_rack_hall(x_far: float, nics: int = 2, cabling: str = "direct"):
    """A DGX rack at x = 1.5 and a leaf rack at ``x_far`` on one 70 m tray, SR4 links pinned."""
    design = empty_hall(width_m=72.0)
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", x_far, 3.0)
    design.add_trays([Tray(id="t-row", points=[(0.6, 3.0), (71.4, 3.0)])])
    device(design, "a1", "r1", 2, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    for nic in range(1, nics + 1):
        link(design, f"l-{nic}", ("a1", f"nic{nic}"), ("leaf1", f"p{nic}"), medium="sr4-400g")
    set_cabling(design, cabling)
    return design


def two_dgx_racks_cross_connected():
    """Two DGX racks (r1 at x = 1.5, r2 at x = 20) each with one SR4 link to the leaf rack
    n1 at x = 12, cross-connected: one trunk per DGX rack."""
    design = two_rack_hall(12.0, nics=1, cabling="cross-connect")
    rack(design, "r2", 20.0, 3.0)
    device(design, "a2", "r2", 2, "dgx-h100")
    link(design, "l-2", ("a2", "nic1"), ("leaf1", "p3"), medium="sr4-400g")
    return design


@pytest.fixture
def open_window(qtbot, tmp_path):
    windows = []

    def open_design(design):
        path = tmp_path / f"d{len(windows)}.hall.json"
        save_design(design, path)
        win = make_window(qtbot, tmp_path, path)
        windows.append(win)
        return win

    yield open_design
    for win in windows:
        close_quietly(win)


def settle(qtbot, window) -> None:
    """Until the analysis of the current revision is shown: the trunk layer and the channel
    views show its structured layout."""
    QApplication.processEvents()
    window.scene.feed.ensure_fresh()
    wait_fresh(qtbot, window)
    QApplication.processEvents()


def test_cabling_style_from_the_inspector_with_undo_and_redo(open_window, qtbot):
    window = open_window(two_rack_hall(12.0))
    design = window.document.design
    window.scene.clearSelection()
    settle(qtbot, window)
    combo = window.inspector.fields["cabling"]
    assert combo.currentData() == "direct"
    assert window.scene.trunk_layer.trunks() == {}
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key_Down)  # the next style: cross-connect
    settle(qtbot, window)
    assert design.settings.cabling == "cross-connect"
    assert window.undo_action.text() == "&Undo Cabling style: cross-connect"
    trunks = structured_layout(window.document.plant).trunks
    assert sorted(window.scene.trunk_layer.trunks()) == sorted(t.id for t in trunks)
    assert [(t.part, t.legs) for t in trunks] == [("trunk-mpo24-mm", 2)]  # both SR4 channels
    window.undo_action.trigger()
    settle(qtbot, window)
    assert design.settings.cabling == "direct"
    assert window.scene.trunk_layer.trunks() == {}
    assert window.inspector.fields["cabling"].currentData() == "direct"
    window.redo_action.trigger()
    settle(qtbot, window)
    assert design.settings.cabling == "cross-connect"
    assert len(window.scene.trunk_layer.trunks()) == 1
    # View > Trunks hides the layer and shows it again.
    window.structured_actions.trunks_action.trigger()
    assert window.scene.trunk_layer.trunks() == {}
    window.structured_actions.trunks_action.trigger()
    assert len(window.scene.trunk_layer.trunks()) == 1
    # The Design menu offers the same choice, as the same undo step.
    window.structured_actions.style_actions["direct"].trigger()
    settle(qtbot, window)
    assert design.settings.cabling == "direct"
    window.undo_action.trigger()
    assert design.settings.cabling == "cross-connect"


def test_channel_view_shows_each_segment_its_loss_and_the_budget(open_window, qtbot):
    window = open_window(two_rack_hall(12.0, cabling="cross-connect"))
    settle(qtbot, window)
    # Click the trunk on the plan: the trunk's form names its channel.
    item = window.scene.trunk_layer.item("trunk-1")
    window.scene.clearSelection()
    item.setSelected(True)
    settle(qtbot, window)
    assert window.inspector.title.text() == "Trunk trunk-1"
    window.scene.select_ids(["l-1"])
    settle(qtbot, window)
    tree = window.inspector.fields["channel"]
    texts = tree.segment_texts()
    assert [t[0].split(" ")[1] for t in texts] == ["Patch", "Panel", "Trunk", "Panel", "Patch"]
    channel = structured_layout(window.document.plant).channels["l-1"]
    budget = loss_budget(channel)
    losses = [float(item.text(2).split()[0]) for item in tree.segment_items]
    assert sum(losses) == pytest.approx(budget.loss_db, abs=1e-3 * len(losses))
    assert texts[1][-1] == "Loss MPO mated pair 0.35 dB"
    trunk = channel.elements[2]
    assert texts[2][-1] == f"Loss {trunk.length_m:g} m × 3 dB/km"
    texts = [label.text() for label in window.inspector.findChildren(QLabel)]
    assert f"{budget.margin_db:+.3f} dB, within budget" in texts
    assert "polarity correct" in texts
    # The "Cable" line names the channel's parts, not the direct fibre it no longer orders.
    (cable,) = [t for t in texts if t.startswith("channel of 2 patch points: ")]
    kinds = [part.split(" ")[0] for part in cable.split(": ", 1)[1].split(" + ")]
    assert kinds == ["patch", "panel", "trunk", "panel", "patch"]
    pattern = structured_catalog().trunks[trunk.part].part_number
    number = row_number(part_number_for(pattern, trunk.length_m))  # the BOM's: "quote" for EST-
    assert f"trunk {number} ({trunk.length_m:g} m)" in cable
    assert not any("(assembly " in t for t in texts)  # the direct fibre's line is gone
    # Double-clicking the trunk's row selects the trunk on the plan.
    window.inspector.scroll.ensureWidgetVisible(tree)
    QApplication.processEvents()
    rect = tree.visualItemRect(tree.segment_items[2])
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=rect.center())  # as a hand does:
    qtbot.mouseDClick(tree.viewport(), Qt.LeftButton, pos=rect.center())  # press, then double
    settle(qtbot, window)
    assert window.scene.selected_ids() == [trunk.object_id]


def test_moving_the_leaf_rack_away_a_channel_warning_selects_its_link_and_trunk(open_window, qtbot):
    window = open_window(two_rack_hall(12.0, nics=1, cabling="cross-connect"))
    wait_fresh(qtbot, window)
    # The user moves the network rack 30 m down the row in the inspector.
    window.scene.select_ids(["n1"])
    settle(qtbot, window)
    x = window.inspector.fields["x"]
    x.setValue(42.0)
    wait_fresh(qtbot, window)
    d = window.analysis_docks
    codes = {w.code: w for w in d.panel.report.warnings}
    finding = codes["CHANNEL_REACH_EXCEEDED"]
    assert finding.objects[0] == "l-1"
    tree = d.warnings.tree
    item = next(
        tree.topLevelItem(i).child(j).child(0)
        for i in range(tree.topLevelItemCount())
        for j in range(tree.topLevelItem(i).childCount())
        if tree.topLevelItem(i).child(j).text(0).startswith("CHANNEL_REACH_EXCEEDED")
    )
    d.tabs.setCurrentWidget(d.warnings)
    item.parent().setExpanded(True)
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualItemRect(item).center())
    settle(qtbot, window)
    assert sorted(window.scene.selected_ids()) == ["l-1", "trunk-1"]
    view = window.inspector.fields["channel"]
    marked = [
        it.data(0, Qt.UserRole + 1)
        for it in view.segment_items
        if it.background(0).color().name() == "#fff3bf"
    ]
    assert marked == [e for e in finding.objects[1:]]  # every element the warning names
    texts = [label.text() for label in window.inspector.findChildren(QLabel)]
    assert any("exceeds the 50 m paneled reach" in t for t in texts)


def test_place_panels_and_route_a_link_via_them_with_undo(open_window, qtbot):
    window = open_window(two_rack_hall(12.0, nics=1))
    design = window.document.design
    window.scene.select_ids(["r1", "n1"])
    settle(qtbot, window)
    menu_action = window.place_panel_actions["panel-mpo-1u-72"]
    menu_action.trigger()
    panels = sorted(
        (d for d in design.devices.values() if d.role == "patch-panel"), key=lambda d: d.rack
    )
    assert [(p.rack, p.u) for p in panels] == [("n1", 48), ("r1", 48)]
    window.scene.select_ids(["l-1"])
    settle(qtbot, window)
    window.route_via_action.trigger()
    by_rack = {p.rack: p.id for p in panels}
    assert design.links["l-1"].via == (by_rack["r1"], by_rack["n1"])
    settle(qtbot, window)
    via = window.inspector.fields["via"]
    names = {p.id: p.name for p in panels}
    assert via.text() == f"{names[by_rack['r1']]}, {names[by_rack['n1']]}"
    # The channel now passes the placed panels, and the plan draws its trunk between them.
    tree = window.inspector.fields["channel"]
    rows = [item.data(0, Qt.UserRole + 1) for item in tree.segment_items]
    assert rows[1] == by_rack["r1"] and rows[3] == by_rack["n1"]
    assert list(window.scene.trunk_layer.trunks()) == [rows[2]]
    # Typing a panel route: one panel only, then a name that is no panel (refused, kept).
    via.setFocus()
    via.selectAll()
    qtbot.keyClicks(via, names[by_rack["r1"]])
    qtbot.keyClick(via, Qt.Key_Return)
    settle(qtbot, window)
    assert design.links["l-1"].via == (by_rack["r1"],)
    via = window.inspector.fields["via"]
    via.setFocus()
    via.selectAll()
    qtbot.keyClicks(via, "nowhere")
    qtbot.keyClick(via, Qt.Key_Return)
    settle(qtbot, window)
    assert design.links["l-1"].via == (by_rack["r1"],)
    assert window.inspector.error.text() == "no patch panel named 'nowhere'"
    window.undo_action.trigger()
    assert design.links["l-1"].via == (by_rack["r1"], by_rack["n1"])
    window.undo_action.trigger()
    assert design.links["l-1"].via == ()
    window.undo_action.trigger()
    assert not any(d.role == "patch-panel" for d in design.devices.values())
    window.redo_action.trigger()
    assert sorted(d.id for d in design.devices.values() if d.role == "patch-panel") == sorted(
        by_rack.values()
    )


def test_route_via_panels_refuses_a_rack_without_a_panel(open_window, qtbot):
    window = open_window(two_rack_hall(12.0, nics=1))
    window.scene.select_ids(["r1"])
    window.place_panel_actions["panel-mpo-1u-72"].trigger()
    window.scene.select_ids(["l-1"])
    settle(qtbot, window)
    window.route_via_action.trigger()
    assert window.document.design.links["l-1"].via == ()
    assert window.document.stack.count() == 1  # only the panel placed: nothing half done
    assert "rack N1 has no MPO adapter panel" in window.statusBar().currentMessage()


def warning_item(tree, code: str):
    """The first finding row of ``code`` in the warnings tree (severity > code > finding)."""
    return next(
        tree.topLevelItem(i).child(j).child(0)
        for i in range(tree.topLevelItemCount())
        for j in range(tree.topLevelItem(i).childCount())
        if tree.topLevelItem(i).child(j).text(0).startswith(code)
    )


def click_warning(qtbot, window, code: str) -> None:
    d = window.analysis_docks
    tree = d.warnings.tree
    item = warning_item(tree, code)
    d.tabs.setCurrentWidget(d.warnings)
    item.parent().setExpanded(True)
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualItemRect(item).center())
    settle(qtbot, window)


def test_fix_polarity_from_the_warning_in_one_undo_step(open_window, qtbot):
    window = open_window(two_rack_hall(12.0, nics=1, cabling="cross-connect"))
    wait_fresh(qtbot, window)
    # The installer reports a Type A trunk: the user records it on the link.
    window.scene.select_ids(["l-1"])
    settle(qtbot, window)
    field = window.inspector.fields["polarity"]
    window.inspector.scroll.ensureWidgetVisible(field)
    qtbot.mouseClick(field, Qt.LeftButton)
    qtbot.keyClicks(field, "trunk-1 Q")
    qtbot.keyClick(field, Qt.Key_Return)
    settle(qtbot, window)
    assert "'Q' is no polarity" in window.inspector.error.text()  # refused, nothing changed
    assert window.document.design.links["l-1"].polarity == {}
    # The form shows the model's values again and the keys went back to the plan: the user
    # clicks into the field to type the right value.
    field = window.inspector.fields["polarity"]
    qtbot.mouseClick(field, Qt.LeftButton)
    field.clear()
    qtbot.keyClicks(field, "trunk-1 a")
    qtbot.keyClick(field, Qt.Key_Return)
    wait_fresh(qtbot, window)
    assert window.document.design.links["l-1"].polarity == {"trunk-1": "A"}
    codes = {w.code: w for w in window.analysis_docks.panel.report.warnings}
    assert codes["POLARITY_MISMATCH"].objects == ("l-1", "l-1:cord-a")
    click_warning(qtbot, window, "POLARITY_MISMATCH")
    assert "l-1" in window.scene.selected_ids()
    button = window.inspector.fields["fix_polarity"]
    assert "Type B to A" in button.toolTip()
    window.inspector.scroll.ensureWidgetVisible(button)
    qtbot.mouseClick(button, Qt.LeftButton)
    wait_fresh(qtbot, window)
    doc = window.document.design
    assert doc.links["l-1"].polarity == {"trunk-1": "A", "cord-1": "A"}
    codes = {w.code for w in window.analysis_docks.panel.report.warnings}
    assert "POLARITY_MISMATCH" not in codes
    assert window.undo_action.text().replace("&", "") == "Undo Fix polarity of l-1"
    window.undo_action.trigger()  # one step: the mismatch is back
    wait_fresh(qtbot, window)
    assert doc.links["l-1"].polarity == {"trunk-1": "A"}
    codes = {w.code for w in window.analysis_docks.panel.report.warnings}
    assert "POLARITY_MISMATCH" in codes
    window.undo_action.trigger()  # and the record itself
    wait_fresh(qtbot, window)
    assert doc.links["l-1"].polarity == {}


def test_moving_the_spine_rack_away_a_loss_warning_selects_that_channel(open_window, qtbot):
    from tests.model.test_structured_loss_budget import pod_with_an_mda

    design, link_id, spine = pod_with_an_mda()
    window = open_window(design)
    wait_fresh(qtbot, window)
    report = window.analysis_docks.panel.report
    assert not [w for w in report.warnings if w.code == "CHANNEL_LOSS_OVER_BUDGET"]
    # The user moves the spine rack 35 m down its row in the inspector.
    window.scene.select_ids([spine])
    settle(qtbot, window)
    x = window.inspector.fields["x"]
    x.setValue(x.value() + 35.0)
    wait_fresh(qtbot, window)
    report = window.analysis_docks.panel.report
    (finding,) = [w for w in report.warnings if w.code == "CHANNEL_LOSS_OVER_BUDGET"]
    assert finding.objects[0] == link_id
    click_warning(qtbot, window, "CHANNEL_LOSS_OVER_BUDGET")
    trunks = [o for o in finding.objects if o.startswith("trunk-")]
    assert len(trunks) == 4
    assert sorted(window.scene.selected_ids()) == sorted([link_id, *trunks])
    view = window.inspector.fields["channel"]
    marked = [
        it.data(0, Qt.UserRole + 1)
        for it in view.segment_items
        if it.background(0).color().name() == "#fff3bf"
    ]
    assert marked == list(finding.objects[1:])  # the whole channel, segment by segment
    texts = [label.text() for label in window.inspector.findChildren(QLabel)]
    assert any("over budget" in t for t in texts)


def test_a_rack_move_redraws_only_the_trunks_whose_route_changed(open_window, qtbot, monkeypatch):
    """Two DGX racks cross-connected to one leaf rack: moving one DGX rack re-routes its trunk and leaves the other trunk's route alone: its path is not asked of the
    plant again and its place on the plan is not repainted (at XL, re-indexing 100k unchanged
    trunks in the scene froze the editor for over a minute; asking 7k paths, ~60 ms)."""
    from gui.canvas.trunk_items import TrunkField

    design = two_dgx_racks_cross_connected()
    window = open_window(design)
    settle(qtbot, window)
    scene, layer = window.scene, window.scene.trunk_layer
    moved, still = (
        next(t for t in layer.layout().trunks if t.route_link == link) for link in ("l-1", "l-2")
    )
    old_route, still_route = layer.item(moved.id).route, layer.item(still.id).route
    assert sorted(layer.field.routes(), key=id) == sorted([old_route, still_route], key=id)
    asked, repainted = [], []
    real_points = scene.link_points
    monkeypatch.setattr(scene, "link_points", lambda i: asked.append(i) or real_points(i))
    # The layer asks the plant for all its fresh links at once (on the class: a snapshot
    # refuses a plant with attributes of its own)
    plant_type = type(scene.plant)
    real_batch = plant_type.plan_points_of
    monkeypatch.setattr(
        plant_type, "plan_points_of", lambda p, ids: asked.extend(ids) or real_batch(p, ids)
    )
    real_update = TrunkField.update
    monkeypatch.setattr(
        TrunkField, "update", lambda f, *r: repainted.append(QRectF(*r)) or real_update(f, *r)
    )
    scene.clearSelection()  # no drawn link asks its path: the trunk layer's asks are counted
    rack = window.document.design.racks["r1"]
    scene.push(MoveRacksCommand(window.document.design, {"r1": (4.5, rack.y)}))
    settle(qtbot, window)
    assert asked == ["l-1"]  # the moved rack's link's path only
    new_route = next(r for r in layer.field.routes() if r is not still_route)
    assert new_route.points[0] == tuple(scene.link_points("l-1")[0]) != old_route.points[0]
    assert repainted == [old_route.bounds, new_route.bounds]


def test_the_editor_shows_the_analysis_layout_and_lays_out_nothing_itself(
    open_window, qtbot, monkeypatch
):
    """The trunk layer and the channel view show the layout the analysis worker made from its
    snapshot: the GUI thread never lays the hall out (a zoned XL hall took ~10 s a refresh)."""
    import gui.canvas.trunk_layer as trunk_layer

    design = two_dgx_racks_cross_connected()
    window = open_window(design)
    settle(qtbot, window)
    design = window.document.design
    runner, layer = window.analysis_docks.runner, window.scene.trunk_layer

    def refused(*_args, **_kw):
        raise AssertionError("the GUI thread laid the hall out")

    monkeypatch.setattr(trunk_layer, "structured_layout", refused)
    assert layer.layout() is runner.result.structured
    assert sorted(layer.trunks()) == sorted(t.id for t in runner.result.structured.trunks)
    # A rack move: the next analysis's layout is adopted, with the trunk's new length.
    before = {t.route_link: t.length_m for t in layer.layout().trunks}
    window.scene.select_ids(["r1"])
    settle(qtbot, window)
    window.inspector.fields["x"].setValue(4.5)
    settle(qtbot, window)
    assert layer.layout() is runner.result.structured
    assert runner.result.revision == design.revision
    after = {t.route_link: t.length_m for t in layer.layout().trunks}
    assert after["l-1"] < before["l-1"] and after["l-2"] == before["l-2"]
    # The channel view of a selected link shows the same layout's channel.
    window.scene.select_ids(["l-1"])
    settle(qtbot, window)
    assert "channel" in window.inspector.fields
    # A layout a revision behind names a rack and a link deleted since: drawn without them.
    stale = runner.result
    far = next(t.id for t in stale.structured.trunks if t.route_link == "l-2")
    design.delete(["r2"])  # as the model's edit, so no analysis has run since
    layer._adopt(stale)
    assert far not in layer.trunks() and len(layer.trunks()) == len(stale.structured.trunks) - 1


def test_trunks_on_one_route_are_drawn_once_and_a_click_selects_one(open_window, qtbot):
    """Sixteen SR4 channels between two racks take several trunks along the same route: the
    field draws that route once, a hit along it finds a trunk there, and a selected trunk's
    halo is drawn under the dashes."""
    from gui import style

    design = two_rack_hall(12.0, nics=8, cabling="cross-connect")
    device(design, "a2", "r1", 12, "dgx-h100")
    for nic in range(1, 9):
        link(design, f"m-{nic}", ("a2", f"nic{nic}"), ("leaf1", f"p{8 + nic}"), medium="sr4-400g")
    window = open_window(design)
    settle(qtbot, window)
    layer = window.scene.trunk_layer
    trunks = list(layer.trunks())
    assert len(trunks) >= 2
    (route,) = layer.field.routes()  # drawn once for them all
    # The middle of the route's longest stretch, on the tray between the racks.
    points = route.points
    (x0, y0), (x1, y1) = max(
        zip(points, points[1:], strict=False),
        key=lambda s: abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1]),
    )
    middle = ((x0 + x1) / 2, (y0 + y1) / 2)
    view = window.view
    view.centerOn(*middle)
    QApplication.processEvents()
    at = view.mapFromScene(*middle)

    def colour_near(name: str) -> bool:
        """Somewhere a dash period (18 px) either side of the middle: zoomed out, the dashes
        start at each stretch's end (gui/canvas/trunk_items.py), so the middle may be a gap."""
        image = view.viewport().grab().toImage()
        want = QColor(name)
        return any(
            image.pixelColor(at.x() + dx, at.y() + dy) == want
            for dx in range(-18, 19)
            for dy in range(-3, 4)
        )

    assert colour_near(style.TRUNK_COLOR) and not colour_near(style.SELECTION)
    # Hit along its route: the first trunk there, or the one selected; an item only for those.
    assert layer.item_at(QPointF(*middle)).object_id == trunks[0]
    assert layer.item_at(QPointF(middle[0], middle[1] + 0.5)) is None  # off the route
    chosen = trunks[-1]
    window.scene.select_ids([chosen])
    settle(qtbot, window)
    assert window.inspector.title.text() == f"Trunk {chosen}"
    assert colour_near(style.SELECTION)
    assert layer.item_at(QPointF(*middle)).object_id == chosen
    window.scene.clearSelection()
    settle(qtbot, window)
    assert not colour_near(style.SELECTION)
