"""The fabric wizard: live preview of counts, refusals shown in place, and a preview that matches
the analysis of the design it generates."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialogButtonBox

from gui.panels.fabric_wizard import FabricWizard
from model.analysis import analyze
from model.design.fabrics import device_fabric
from model.engine.routed_links import RoutedLinks
from tests.gui.analysis_support import close_quietly, docks, open_window


def _ok(wizard):
    return wizard.buttons.button(QDialogButtonBox.Ok)


def test_preview_follows_the_parameters_as_they_are_typed(qtbot):
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    wizard.template.setCurrentIndex(wizard.template.findData("rail-optimized"))
    fields = wizard.fields["rail-optimized"]
    fields["nodes"].setValue(64)
    assert wizard.counts["gpus"] == 512
    assert "512" in wizard.preview_label.text()
    fields["nodes"].setValue(256)
    assert wizard.counts["gpus"] == 2048
    assert "2,048" in wizard.preview_label.text()


def test_an_impossible_request_is_explained_and_cannot_be_generated(qtbot):
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    wizard.template.setCurrentIndex(wizard.template.findData("fat-tree"))
    wizard.fields["fat-tree"]["k"].setValue(7)  # odd k: refused by the planner
    assert wizard.counts is None
    assert "Cannot generate" in wizard.preview_label.text()
    assert not _ok(wizard).isEnabled()
    wizard.fields["fat-tree"]["k"].setValue(8)
    assert _ok(wizard).isEnabled()


def test_preview_matches_the_generated_designs_analysis(qtbot):
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    for template, values in (
        ("rail-optimized", {"nodes": 64, "su_nodes": 32}),
        ("leaf-spine", {"nodes": 32}),
        ("fat-tree", {"k": 8}),
    ):
        wizard.template.setCurrentIndex(wizard.template.findData(template))
        for name, value in values.items():
            wizard.fields[template][name].setValue(value)
        counts = wizard.counts
        design = wizard.build()
        report = analyze(design, RoutedLinks(design))
        # The preview is of the compute fabric; the other networks (built by default) are
        # reported per fabric beside it.
        assert wizard.fabrics() == "compute,storage,inband,oob"
        assert report.gpus == counts["gpus"], template
        tiers = {k: v for k, v in report.links_by_tier.items() if k != "other"}
        assert sum(tiers.values()) == sum(counts["links"].values()), template
        assert report.fabrics["compute"].links == sum(counts["links"].values()), template
        assert report.switches_by_tier == counts["switches"], template
        assert report.fabrics["compute"].transceivers <= counts["optics_at_most"], template
        if counts["device_power_w"] is not None:
            # The preview's devices: the GPU servers and the compute (and NVLink) switches.
            compute_switches_w = sum(
                design.device_type(d).power_typical_w
                for d in design.devices.values()
                if device_fabric(design, d) in ("compute", "scale-up")
            )
            devices_w = report.power_w["servers"] + compute_switches_w
            assert devices_w == pytest.approx(counts["device_power_w"]), template


def test_generate_fabric_menu_opens_the_result_as_a_new_document(qtbot, tmp_path):
    from tests.builders import small_pod

    window = open_window(qtbot, tmp_path, small_pod())
    d = docks(window)

    def drive():
        wizard = window.findChild(FabricWizard)
        wizard.template.setCurrentIndex(wizard.template.findData("leaf-spine"))
        wizard.fields["leaf-spine"]["nodes"].setValue(16)
        _ok(wizard).click()

    QTimer.singleShot(200, drive)
    d.wizard_action.trigger()
    design = window.document.design
    assert design.name.startswith("Leaf-spine, 16")
    qtbot.waitUntil(
        lambda: d.runner.fresh and d.panel.report is not None and d.panel.report.gpus == 128,
        timeout=20_000,
    )
    close_quietly(window)


def test_generate_into_the_current_hall_is_one_undo_step(qtbot, tmp_path):
    from tests.builders import small_pod

    window = open_window(qtbot, tmp_path, small_pod())
    d = docks(window)
    design = window.document.design
    racks_before = set(design.racks)

    def drive():
        wizard = window.findChild(FabricWizard)
        wizard.template.setCurrentIndex(wizard.template.findData("leaf-spine"))
        wizard.fields["leaf-spine"]["nodes"].setValue(16)
        wizard.fields["leaf-spine"]["oversubscription"].setValue(3)
        wizard.replace_hall.setChecked(True)
        _ok(wizard).click()

    QTimer.singleShot(200, drive)
    d.wizard_action.trigger()
    assert window.document.design is design  # same document, new contents
    assert design.gpu_count() == 128 and not racks_before & set(design.racks)
    assert design.settings.oversubscription_target == 3.0  # the ratio asked for is the target
    qtbot.waitUntil(lambda: d.runner.fresh and d.panel.report.gpus == 128, timeout=20_000)
    assert not [w for w in d.panel.report.warnings if w.code == "OVERSUBSCRIBED"]
    assert window.document.stack.count() == 1
    window.document.stack.undo()
    assert set(design.racks) == racks_before and design.gpu_count() == 32
    assert design.settings.oversubscription_target == 1.0
    qtbot.waitUntil(lambda: d.runner.fresh and d.panel.report.gpus == 32, timeout=20_000)
    close_quietly(window)


def test_gb300_platform_brings_its_800g_switch_and_builds(qtbot):
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    wizard.template.setCurrentIndex(wizard.template.findData("nvl72"))
    fields = wizard.fields["nvl72"]
    fields["platform"].setCurrentIndex(fields["platform"].findData("gb300"))
    assert fields["switch"].currentData() == "q3400"
    fields["racks"].setValue(1)
    design = wizard.build()
    assert {d.type for d in design.devices.values() if d.role == "gpu-server"} == {
        "gb300-compute-tray"
    }
    assert design.gpu_count() == 72
