"""DesignSettingsDialog: slack, tray reach, media policy, oversubscription target, collective
parameters (PXN among them), BOM spares per category and the NetBox site, location and tenant
names; OK yields one undoable SetSettingsCommand (None when
nothing changed)."""

from __future__ import annotations

import msgspec
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
)

from gui.edit.commands import SetSettingsCommand
from gui.widgets import spin_box
from model.analysis.collectives import ALGORITHMS, PLACEMENTS
from model.analysis.reliability import CATEGORIES, fit_rates
from model.design.design import Design
from model.design.limits import MAX_NAME_LENGTH
from model.engine.media import POLICIES

# BOM categories that usually carry spares (modules, cables, fibres fail or get damaged).
SPARE_CATEGORIES = ("Transceivers", "Cables", "Fibres")

POLICY_LABELS = {
    "lowest-cost": "Lowest cost (ties: lower power)",
    "lowest-power": "Lowest power",
    "copper-first": "Copper first",
    "fibre-only": "Fibre only",
}


class DesignSettingsDialog(QDialog):
    def __init__(self, design: Design, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Design settings")
        self.design = design
        s = design.settings
        self.slack_per_end = spin_box(
            s.slack_per_end_m, 0, 20, " m", 0.1, tip="Allowance added at each end of every cable"
        )
        self.slack_pct = spin_box(
            s.slack_pct, 0, 100, " %", 1, 1, "Percentage added to the routed length"
        )
        self.tray_reach = spin_box(
            s.tray_reach_m,
            0,
            100,
            " m",
            0.5,
            tip="How far a rack may be from a tray and still drop into it",
        )
        self.policy = QComboBox()
        for key in POLICIES:
            self.policy.addItem(POLICY_LABELS.get(key, key), key)
        self.policy.setCurrentIndex(POLICIES.index(s.media_policy))
        self.target = spin_box(
            s.oversubscription_target,
            1,
            100,
            " : 1",
            0.5,
            tip="Tiers above this downlink:uplink ratio are warned about",
        )
        self.message = spin_box(
            s.allreduce_message_mb,
            0.001,
            1e6,
            " MB",
            64,
            3,
            "Message size of the all-reduce estimate (MB = 10^6 bytes)",
        )
        self.algorithm = QComboBox()
        self.algorithm.addItems(list(ALGORITHMS))
        self.algorithm.setCurrentText(s.allreduce_algorithm)
        self.spares = {
            category: spin_box(
                s.spares_pct.get(category, 0.0),
                0,
                100,
                " %",
                1,
                1,
                f"Spare {category.lower()} to order on top of the plant's quantity "
                "(BOM spares column, rounded up per line)",
            )
            for category in SPARE_CATEGORIES
        }
        self.placement = QComboBox()
        self.placement.addItems(list(PLACEMENTS))
        self.placement.setCurrentText(s.job_placement)
        self.placement.setToolTip(
            "Which servers a job takes as it grows: the design's order, whole SUs, or rack by rack"
        )
        self.pxn = QComboBox()
        self.pxn.addItem("On (NCCL_P2P_PXN_LEVEL=2, NCCL's default)", "on")
        self.pxn.addItem("Off (level 0: each GPU sends from its own NIC)", "off")
        self.pxn.setCurrentIndex(self.pxn.findData(s.pxn))
        self.pxn.setToolTip(
            "All-to-all through the GPU on the destination's rail over NVLink (PXN), or from "
            "each GPU's own NIC"
        )
        self.routing = QComboBox()
        self.routing.addItem("Follow the fabric (InfiniBand, Spectrum-X: adaptive)", "auto")
        self.routing.addItem("Adaptive (an even split over equal-cost uplinks)", "adaptive")
        self.routing.addItem("Static ECMP hashing (each flow on one uplink)", "ecmp-hash")
        self.routing.addItem("Ideal (fluid split)", "ideal")
        self.routing.setCurrentIndex(self.routing.findData(s.routing))
        self.routing.setToolTip(
            "How the collectives' bytes spread over equal-cost uplinks; static hashing costs the "
            "expected busiest uplink of each switch (and its 95th percentile)"
        )
        rates = fit_rates()
        self.fit = {}
        for name in CATEGORIES:
            self.fit[name] = spin_box(
                s.reliability_fit.get(name, rates[name].fit),
                0,
                1e6,
                " FIT",
                10,
                0,
                f"Failures per 10^9 hours of one {rates[name].unit}; catalog: "
                f"{rates[name].note or format(rates[name].fit, 'g')} ({rates[name].source})",
            )
        self.job_gpus = spin_box(
            s.reliability_job_gpus,
            0,
            10_000_000,
            " GPUs",
            1024,
            0,
            "Size of the job a failure interrupts (0 = every GPU of the hall)",
        )
        self.restart_h = spin_box(
            s.reliability_restart_h,
            0,
            1000,
            " h",
            0.25,
            2,
            "Time to detect, restart and recompute since the last checkpoint",
        )
        # NetBox names (export-netbox and File > Export > NetBox use them); blank = default.
        self.netbox_site = _name_field(s.netbox_site, f"the design's name ({design.name})")
        self.netbox_location = _name_field(s.netbox_location, "Data hall")
        self.netbox_tenant = _name_field(s.netbox_tenant, "no tenant")
        form = QFormLayout(self)
        form.addRow(QLabel("<b>Cable lengths</b>"))
        form.addRow("Slack per end", self.slack_per_end)
        form.addRow("Slack percentage", self.slack_pct)
        form.addRow("Tray reach", self.tray_reach)
        form.addRow(QLabel("<b>Media and fabric</b>"))
        form.addRow("Media policy", self.policy)
        form.addRow("Oversubscription target", self.target)
        form.addRow(QLabel("<b>All-reduce estimate</b>"))
        form.addRow("Message size", self.message)
        form.addRow("Algorithm", self.algorithm)
        form.addRow("PXN (all-to-all)", self.pxn)
        form.addRow("Routing", self.routing)
        form.addRow(QLabel("<b>Bill of materials: spares</b>"))
        for category, spin in self.spares.items():
            form.addRow(f"{category} spares", spin)
        form.addRow("Job placement", self.placement)
        form.addRow(QLabel("<b>NetBox export</b>"))
        form.addRow("Site", self.netbox_site)
        form.addRow("Location", self.netbox_location)
        form.addRow("Tenant", self.netbox_tenant)
        form.addRow(QLabel("<b>Reliability forecast</b>"))
        for name, box in self.fit.items():
            label = fit_rates()[name].label
            form.addRow(label[:1].upper() + label[1:], box)
        form.addRow("Job size", self.job_gpus)
        form.addRow("Restart time", self.restart_h)
        box = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        form.addRow(box)

    def settings(self):
        return msgspec.structs.replace(
            self.design.settings,
            slack_per_end_m=self.slack_per_end.value(),
            slack_pct=self.slack_pct.value(),
            tray_reach_m=self.tray_reach.value(),
            media_policy=self.policy.currentData(),
            oversubscription_target=self.target.value(),
            allreduce_message_mb=self.message.value(),
            allreduce_algorithm=self.algorithm.currentText(),
            spares_pct={
                **{
                    k: v
                    for k, v in self.design.settings.spares_pct.items()
                    if k not in SPARE_CATEGORIES
                },
                **{k: spin.value() for k, spin in self.spares.items() if spin.value() > 0},
            },
            job_placement=self.placement.currentText(),
            pxn=self.pxn.currentData(),
            routing=self.routing.currentData(),
            reliability_fit=self._fit_overrides(),
            reliability_job_gpus=int(self.job_gpus.value()),
            reliability_restart_h=self.restart_h.value(),
            netbox_site=self.netbox_site.text().strip(),
            netbox_location=self.netbox_location.text().strip(),
            netbox_tenant=self.netbox_tenant.text().strip(),
        )

    def _fit_overrides(self) -> dict[str, float]:
        """Only the rates that differ from the catalog's become design settings."""
        rates = fit_rates()
        return {
            name: box.value()
            for name, box in self.fit.items()
            if abs(box.value() - rates[name].fit) > 1e-9
        }

    def command(self) -> SetSettingsCommand | None:
        new = self.settings()
        if new == self.design.settings:
            return None
        return SetSettingsCommand(self.design, new)


def _name_field(text: str, default_words: str) -> QLineEdit:
    field = QLineEdit(text)
    field.setMaxLength(MAX_NAME_LENGTH)
    field.setPlaceholderText(f"blank: {default_words}")
    return field
