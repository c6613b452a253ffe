"""The fabric wizard's AMD Helios page: its racks, SU and planes reach the generator, the preview
shows the counts of the Clos minimum, and four planes of 200G offer Tomahawk 6's 512 x 200G."""

from __future__ import annotations

from gui.panels.fabric_wizard import FabricWizard
from model.generators.generate import preview


def test_helios_page_previews_the_racks_asked_for(qtbot):
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    wizard.template.setCurrentIndex(wizard.template.findData("helios"))
    page = wizard.fields["helios"]
    page["racks"].setValue(2)
    assert wizard.counts["gpus"] == 144  # 2 racks x 72 GPUs
    assert wizard.counts["switches"] == preview("helios", racks=2)["switches"]
    assert "su_racks" not in wizard.params()  # "Fewest switches": the generator's choice
    page["su_racks"].setValue(1)
    assert wizard.params()["su_racks"] == 1
    assert wizard.counts["switches"]["leaf"] == 8  # 2 SUs of one rack: 4 leaves of 6 rails each


def test_helios_four_planes_offer_the_512x200g_mode(qtbot):
    wizard = FabricWizard()
    qtbot.addWidget(wizard)
    wizard.template.setCurrentIndex(wizard.template.findData("helios"))
    page = wizard.fields["helios"]
    modes = [page["port_mode"].itemData(i) for i in range(page["port_mode"].count())]
    assert "512x200G" in modes and "128x800G" in modes
    page["planes"].setCurrentIndex(page["planes"].findData(4))
    page["port_mode"].setCurrentIndex(page["port_mode"].findData("512x200G"))
    assert wizard.counts["planes"] == 4 and wizard.counts["tiers"] == 2
    assert "Planes" in wizard.preview_label.text()


def test_new_design_dialog_offers_helios_racks(qtbot):
    from gui.dialogs.design_dialogs import NewHallDialog

    dialog = NewHallDialog()
    qtbot.addWidget(dialog)
    dialog.template.setCurrentIndex(dialog.template.findData("helios"))
    dialog.racks.setValue(3)
    assert dialog.params() == {"racks": 3}
    assert preview("helios", **dialog.params())["gpus"] == 216
    assert dialog.racks.isVisibleTo(dialog) and not dialog.nodes.isVisibleTo(dialog)
