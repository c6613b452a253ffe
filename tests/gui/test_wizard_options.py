"""The fabric wizard offers every option of ``generate`` (planes, port modes, racking, networks,
placement, cabling, name), driven with keys and clicks, and builds what it previews."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox

from cli.generate_command import _OPTIONS
from gui.panels.fabric_wizard import FabricWizard
from model.generators.generate import TEMPLATES
from tests.gui.analysis_support import close_quietly, docks, open_window


def _choose(qtbot, combo, data) -> None:
    """Pick the item holding ``data`` with the keyboard, as a user tabbing to the combo would."""
    target = combo.findData(data)
    assert target >= 0, (data, [combo.itemData(i) for i in range(combo.count())])
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key_Home)
    for _ in range(target):
        qtbot.keyClick(combo, Qt.Key_Down)
    assert combo.currentIndex() == target


def _type(qtbot, spin, value: int) -> None:
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), str(value))
    qtbot.keyClick(spin, Qt.Key_Return)
    assert spin.value() == value


def _items(combo) -> list:
    return [combo.itemData(i) for i in range(combo.count())]


def _wizard(qtbot, template: str) -> FabricWizard:
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    wizard.show()  # shown, so clicks land where a user's would
    qtbot.waitExposed(wizard)
    _choose(qtbot, wizard.template, template)
    return wizard


def test_every_option_of_the_cli_generate_is_offered_for_its_templates():
    # Derived from the CLI's own option table: a new CLI option the wizard lacks fails here.
    wizard = FabricWizard()
    build_options = {"placement", "name", "fabrics", "facility"}
    for template in TEMPLATES:
        offered = {n.removesuffix("_ft") for n in wizard.fields[template]} | build_options
        cli = {dest for dest, templates in _OPTIONS.items() if template in templates}
        assert cli <= offered, (template, cli - offered)
    assert _items(wizard.cabling) == ["direct", "cross-connect", "zones"]  # --cabling
    assert _items(wizard.facility) == ["auto", "yes", "no"]  # --facility
    wizard.deleteLater()


def test_only_port_modes_a_nic_can_use_are_offered(qtbot):
    wizard = _wizard(qtbot, "nvl72")
    fields = wizard.fields["nvl72"]
    _choose(qtbot, fields["platform"], "gb300")
    assert fields["switch"].currentData() == "q3400"
    # The Q3400's 288x400G (400G on 2 x 200G lanes) has no NIC in the catalog: not offered.
    assert _items(fields["port_mode"]) == ["auto", "144x800G"]
    _choose(qtbot, fields["port_mode"], "144x800G")
    assert wizard.build_params()["port_mode"] == "144x800G"
    assert wizard.counts is not None
    # Another switch: its own usable modes, the mode chosen falls back to auto.
    _choose(qtbot, fields["switch"], "qm9700")
    assert _items(fields["port_mode"]) == ["auto", "64x400G"]
    assert fields["port_mode"].currentData() == "auto"


def test_two_planes_bring_spectrum_x_and_build_a_cross_connected_hall(qtbot):
    wizard = _wizard(qtbot, "nvl72")
    fields = wizard.fields["nvl72"]
    _choose(qtbot, fields["platform"], "gb300")
    _type(qtbot, fields["racks"], 1)
    _choose(qtbot, fields["planes"], 2)
    assert fields["switch"].currentData() == "sn5610"  # multi-plane is Spectrum-X
    assert wizard.counts["planes"] == 2
    assert "Planes" in wizard.preview_label.text()
    for key in ("storage", "inband", "oob"):  # compute alone
        qtbot.mouseClick(wizard.network_boxes[key], Qt.LeftButton)
    assert wizard.fabrics() == "compute"
    _choose(qtbot, wizard.cabling, "cross-connect")
    wizard.name.setFocus()
    qtbot.keyClicks(wizard.name, "Two planes")
    counts = wizard.counts
    design = wizard.build()
    assert design.name == "Two planes"
    assert design.settings.cabling == "cross-connect"
    assert any(d.role == "patch-panel" for d in design.devices.values())
    roles = Counter(d.role for d in design.devices.values())
    assert roles["leaf"] == counts["switches"]["leaf"]
    assert {d.fabric for d in design.devices.values() if d.role == "leaf"} == {"compute"}
    assert design.revision == 0  # a generator's output, not an edit


def test_rack_type_and_servers_per_rack_override_the_catalogs_choice(qtbot):
    wizard = _wizard(qtbot, "rail-optimized")
    fields = wizard.fields["rail-optimized"]
    _choose(qtbot, fields["node_type"], "dgx-b300")
    _choose(qtbot, fields["switch"], "q3400")
    _type(qtbot, fields["nodes"], 8)
    _type(qtbot, fields["su_nodes"], 8)
    assert "rack_type" not in wizard.params()  # the catalog's choice until one is picked
    _choose(qtbot, fields["rack_type"], "rack-48u-600x1200")
    _type(qtbot, fields["servers_per_rack"], 20)  # 20 x 10U: refused before building
    ok = wizard.buttons.button(QDialogButtonBox.Ok)
    assert not ok.isEnabled()
    assert "do not fit" in wizard.preview_label.text()
    _type(qtbot, fields["servers_per_rack"], 2)
    assert ok.isEnabled()
    _choose(qtbot, wizard.placement, "end-of-row")
    design = wizard.build()
    per_rack = Counter(d.rack for d in design.devices.values() if d.role == "gpu-server")
    assert set(per_rack.values()) == {2}
    assert {design.racks[r].type for r in per_rack} == {"rack-48u-600x1200"}


def test_leaf_spine_reserve_ports_and_a_spine_switch_reach_the_generator(qtbot):
    wizard = _wizard(qtbot, "leaf-spine")
    fields = wizard.fields["leaf-spine"]
    _type(qtbot, fields["nodes"], 16)
    before = wizard.counts["switches"]["leaf"]
    _type(qtbot, fields["reserve_ports"], 24)  # 32 downlinks - 24: 8 NICs a leaf
    assert wizard.counts["switches"]["leaf"] > before
    _choose(qtbot, fields["spine_switch"], "q3400")  # 800G spines for 400G leaves: refused
    assert wizard.counts is None and "Cannot generate" in wizard.preview_label.text()
    _choose(qtbot, fields["spine_switch"], "qm9700")
    assert wizard.build_params()["spine_switch"] == "qm9700"
    design = wizard.build()
    leaves = [d for d in design.devices.values() if d.role == "leaf" and d.fabric == "compute"]
    assert len(leaves) == wizard.counts["switches"]["leaf"]


def test_fat_tree_takes_a_catalog_switch_and_host(qtbot):
    wizard = _wizard(qtbot, "fat-tree")
    fields = wizard.fields["fat-tree"]
    assert "switch" not in wizard.params()  # generic k-port switch by default
    _choose(qtbot, fields["switch_ft"], "qm9700")
    _choose(qtbot, fields["node_type_ft"], "dgx-h100")
    params = wizard.params()
    assert params["switch"] == "qm9700" and params["node_type"] == "dgx-h100"
    _type(qtbot, fields["k"], 4)
    design = wizard.build()
    compute = [d for d in design.devices.values() if d.fabric == "compute"]
    switch_types = {d.type for d in compute if d.role in ("leaf", "spine", "core")}
    host_types = {d.type for d in design.devices.values() if d.role == "gpu-server"}
    assert switch_types == {"qm9700"} and host_types == {"dgx-h100"}
    assert sum(d.role == "gpu-server" for d in design.devices.values()) == 4**3 // 4


def test_a_cross_connected_fabric_replaces_the_hall_as_one_undo_step(qtbot, tmp_path):
    from tests.builders import small_pod

    window = open_window(qtbot, tmp_path, small_pod())
    d = docks(window)
    design = window.document.design
    before = design.settings.cabling

    def drive():
        wizard = window.findChild(FabricWizard)
        _choose(qtbot, wizard.template, "leaf-spine")
        _type(qtbot, wizard.fields["leaf-spine"]["nodes"], 16)
        _choose(qtbot, wizard.cabling, "cross-connect")
        wizard.replace_hall.setFocus()
        qtbot.keyClick(wizard.replace_hall, Qt.Key_Space)
        assert wizard.replace_hall.isChecked()
        qtbot.mouseClick(wizard.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)

    QTimer.singleShot(200, drive)
    d.wizard_action.trigger()
    assert window.document.design is design
    assert design.settings.cabling == "cross-connect" != before
    assert any(dev.role == "patch-panel" for dev in design.devices.values())
    assert window.document.stack.count() == 1
    window.document.stack.undo()
    assert design.settings.cabling == before
    assert not any(dev.role == "patch-panel" for dev in design.devices.values())
    close_quietly(window)


def test_optics_strategy_is_offered_and_passed_to_the_generator(qtbot):
    wizard = _wizard(qtbot, "leaf-spine")
    fields = wizard.fields["leaf-spine"]
    assert _items(fields["optics"]) == [None, "linear", "co-packaged"]
    assert "optics" not in wizard.build_params()  # pluggable: the generator's default
    _choose(qtbot, fields["optics"], "co-packaged")
    assert wizard.build_params()["optics"] == "co-packaged"
    nvl = wizard.fields["nvl72"]
    assert "vera-rubin" in _items(nvl["platform"])
    assert "rubin-ultra" in _items(nvl["platform"])  # Kyber NVL576 (issue 39)


def test_the_vera_rubin_pod_is_offered_and_passed_to_the_generator(qtbot):
    wizard = _wizard(qtbot, "nvl72")
    fields = wizard.fields["nvl72"]
    assert "pod" not in wizard.build_params()  # no POD: the generator's default
    _choose(qtbot, fields["pod"], "yes")
    assert wizard.build_params()["pod"] is True
