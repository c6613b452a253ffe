"""Design settings: edited in the dialog, applied as one undoable command, re-analysed live."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialogButtonBox

from gui.edit.commands import MoveRacksCommand
from gui.panels.settings_dialog import DesignSettingsDialog
from tests.benchmarks.workloads import build
from tests.builders import copper_pod
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


def test_settings_change_is_undoable_and_reanalysed(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, copper_pod())
    d = docks(window)
    design = window.document.design
    wait_fresh(qtbot, window)
    before = d.panel.report
    assert before.links_by_kind["acc"] > 0

    def drive():
        dialog = window.findChild(DesignSettingsDialog)
        dialog.policy.setCurrentIndex(dialog.policy.findData("fibre-only"))
        dialog.target.setValue(2.0)
        dialog.message.setValue(256)
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()

    QTimer.singleShot(200, drive)
    d.settings_action.trigger()
    assert design.settings.media_policy == "fibre-only"
    assert design.settings.oversubscription_target == 2.0
    assert window.document.stack.undoText() == "Edit design settings"
    wait_fresh(qtbot, window)
    report = d.panel.report
    assert report.links_by_kind["acc"] == 0
    assert "target 2.00:1" in d.panel.tiles["oversub"].detail.text()
    # The copper pod is switches only (no job to time): the message size is the design's.
    assert design.settings.allreduce_message_mb == 256 and report.allreduce is None
    assert f"−{before.links_by_kind['acc']:,} LACC" in d.panel.delta.text()
    window.document.stack.undo()
    assert design.settings.media_policy == "lowest-cost"
    wait_fresh(qtbot, window)
    assert d.panel.report.links_by_kind == before.links_by_kind
    close_quietly(window)


def test_unchanged_dialog_makes_no_command(qtbot):
    design = build("S")
    dialog = DesignSettingsDialog(design)
    qtbot.addWidget(dialog)
    assert dialog.command() is None
    dialog.slack_per_end.setValue(design.settings.slack_per_end_m + 1)
    assert dialog.command() is not None


def test_bom_spares_per_category_are_a_design_setting(qtbot, tmp_path):
    from model.outputs.bom import bom_lines

    window = open_window(qtbot, tmp_path, copper_pod())
    d = docks(window)
    design = window.document.design

    def drive():
        dialog = window.findChild(DesignSettingsDialog)
        dialog.spares["Transceivers"].setValue(10.0)
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()

    QTimer.singleShot(200, drive)
    d.settings_action.trigger()
    assert design.settings.spares_pct == {"Transceivers": 10.0}
    window.scene.push(MoveRacksCommand(design, {"r2": (9.0, 3.0)}))  # modules appear
    plant = window.document.plant
    plant.refresh()
    modules = [ln for ln in bom_lines(design, plant) if ln.category == "Modules"]
    assert modules and all(ln.spares == -(-ln.quantity // 10) for ln in modules)
    window.document.stack.undo()
    window.document.stack.undo()
    assert design.settings.spares_pct == {}
    close_quietly(window)


def test_reliability_rates_and_job_from_the_dialog_reach_the_panel(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    before = d.panel.report.reliability
    assert f"{before['failures_per_day']:.2f} / day" == d.panel.tiles["reliability"].value.text()
    # The tile says what the figure counts, in the model's words.
    assert d.panel.tiles["reliability"].detail.text().startswith(f"{before['label']} · ")
    assert before["label"] == "all causes"
    assert "ms" in d.panel.tiles["allreduce"].value.text()

    def drive():
        dialog = window.findChild(DesignSettingsDialog)
        dialog.fit["switches"].setValue(90_000)  # ten times the catalog's rate
        dialog.job_gpus.setValue(512)
        dialog.algorithm.setCurrentText("ring")
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()

    QTimer.singleShot(200, drive)
    d.settings_action.trigger()
    settings = window.document.design.settings
    assert settings.reliability_fit == {"switches": 90_000}  # only the changed rate is kept
    assert settings.reliability_job_gpus == 512
    wait_fresh(qtbot, window)
    rel = d.panel.report.reliability
    assert rel["categories"]["switches"]["fit"] == 90_000
    assert rel["failures_per_day"] > before["failures_per_day"]
    assert rel["job_gpus"] == 512
    assert d.panel.report.allreduce.algorithm == "ring"
    assert f"{rel['failures_per_day']:.2f} / day" == d.panel.tiles["reliability"].value.text()
    close_quietly(window)


def test_pxn_is_in_the_dialog(qtbot):
    """The dialog shows the design's PXN setting and turning it off makes one command."""
    design = build("S")
    dialog = DesignSettingsDialog(design)
    qtbot.addWidget(dialog)
    assert dialog.pxn.currentData() == "on"
    dialog.pxn.setCurrentIndex(dialog.pxn.findData("off"))
    command = dialog.command()
    assert command is not None and dialog.settings().pxn == "off"
    command.redo()
    assert design.settings.pxn == "off"
    assert DesignSettingsDialog(design).pxn.currentData() == "off"


def test_routing_is_in_the_dialog(qtbot):
    """The dialog shows the design's routing ("auto": follow the fabric) and choosing static
    ECMP hashing makes one command that sets it."""
    design = build("S")
    dialog = DesignSettingsDialog(design)
    qtbot.addWidget(dialog)
    assert dialog.routing.currentData() == "auto"
    dialog.routing.setCurrentIndex(dialog.routing.findData("ecmp-hash"))
    command = dialog.command()
    assert command is not None and dialog.settings().routing == "ecmp-hash"
    command.redo()
    assert design.settings.routing == "ecmp-hash"
    assert DesignSettingsDialog(design).routing.currentData() == "ecmp-hash"
