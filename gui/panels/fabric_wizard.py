"""FabricWizard (Design → Generate fabric…): a template and its parameters, the resulting counts
previewed live from ``model.generate.preview`` (no building), and generation of the design in a
worker thread with a progress dialog. The caller opens the result as a new document."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gui.document import run_with_progress
from gui.plain_text import escape
from model.catalog import Catalog, builtin_catalog
from model.design import Design
from model.generate import TEMPLATES, GenerateError, generate, preview
from model.generators.plans import NVL72_PLATFORMS

TEMPLATE_LABELS = {
    "rail-optimized": "Rail-optimized (SuperPOD-like)",
    "leaf-spine": "Leaf-spine",
    "fat-tree": "Fat tree (k-ary)",
    "nvl72": "GB200 NVL72 racks",
}
TIERS = ("auto", "2", "3", "rail-only")


def _int(value: int, lo: int, hi: int, step: int = 1) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(lo, hi)
    spin.setSingleStep(step)
    spin.setValue(value)
    spin.setGroupSeparatorShown(True)
    return spin


def _combo(items: list[tuple[str, str]], current: str) -> QComboBox:
    """A combo of (value, label) items with ``current`` chosen."""
    combo = QComboBox()
    for value, label in items:
        combo.addItem(label, value)
    combo.setCurrentIndex(max(combo.findData(current), 0))
    return combo


class FabricWizard(QDialog):
    def __init__(self, catalog: Catalog | None = None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Generate fabric")
        self.catalog = catalog or builtin_catalog()
        types = self.catalog.device_types
        servers = [
            (t, f"{d.vendor} {d.model}")
            for t, d in types.items()
            if d.default_role == "gpu-server" and d.gpu_count
        ]
        switches = [
            (t, f"{d.vendor} {d.model}")
            for t, d in types.items()
            if d.default_role in ("leaf", "spine", "core")
        ]
        tiers = [(t, t) for t in TIERS]
        self.template = QComboBox()
        for key in TEMPLATES:
            self.template.addItem(TEMPLATE_LABELS.get(key, key), key)
        self.fields: dict[str, dict[str, QWidget]] = {
            "rail-optimized": {
                "nodes": _int(128, 1, 131_072, 32),
                "node_type": _combo(servers, "dgx-h100"),
                "switch": _combo(switches, "qm9700"),
                "su_nodes": _int(32, 1, 4096, 8),
                "tiers": _combo(tiers, "auto"),
                "oversubscription": _int(1, 1, 7),
            },
            "leaf-spine": {
                "nodes": _int(64, 1, 131_072, 8),
                "node_type": _combo(servers, "dgx-h100"),
                "switch": _combo(switches, "qm9700"),
                "oversubscription": _int(1, 1, 7),
            },
            "fat-tree": {"k": _int(8, 2, 128, 2)},
            "nvl72": {
                "platform": _combo([("gb200", "GB200 NVL72"), ("gb300", "GB300 NVL72")], "gb200"),
                "racks": _int(8, 1, 2048, 8),
                "switch": _combo(switches, "qm9700"),
                "su_racks": _int(8, 1, 256),
                "tiers": _combo(tiers, "auto"),
                "oversubscription": _int(1, 1, 7),
            },
        }
        labels = {
            "nodes": "GPU servers",
            "node_type": "Server type",
            "switch": "Switch type",
            "su_nodes": "Servers per scalable unit",
            "tiers": "Switch tiers",
            "oversubscription": "Oversubscription (R:1)",
            "k": "Switch radix k",
            "racks": "NVL72 racks",
            "su_racks": "Racks per scalable unit",
            "platform": "Rack platform",
        }
        nvl = self.fields["nvl72"]
        # A platform brings its matching scale-out switch (GB300's 800G NICs need Quantum-X800).
        nvl["platform"].currentIndexChanged.connect(
            lambda _i: nvl["switch"].setCurrentIndex(
                nvl["switch"].findData(NVL72_PLATFORMS[nvl["platform"].currentData()][1])
            )
        )
        self.template.setCurrentIndex(self.template.findData("rail-optimized"))
        self.pages = QStackedWidget()
        for key in TEMPLATES:
            page = QWidget()
            form = QFormLayout(page)
            for name, widget in self.fields[key].items():
                form.addRow(labels[name], widget)
                signal = (
                    widget.valueChanged
                    if isinstance(widget, QSpinBox)
                    else widget.currentIndexChanged
                )
                signal.connect(self.update_preview)
            self.pages.addWidget(page)
        self.pages.setCurrentIndex(self.template.currentIndex())
        self.template.currentIndexChanged.connect(self.pages.setCurrentIndex)
        self.template.currentIndexChanged.connect(self.update_preview)
        self.preview_label = QLabel()
        self.preview_label.setTextFormat(Qt.RichText)
        self.preview_label.setWordWrap(True)
        self.preview_label.setMinimumWidth(300)
        self.preview_label.setStyleSheet(
            "background: #f6f8fa; border: 1px solid #d7dbe0; padding: 8px;"
        )
        # The networks beside compute (domain-facts 8c), all built by default as in a SuperPOD.
        self.network_boxes: dict[str, QCheckBox] = {}
        networks = QHBoxLayout()
        networks.addWidget(QLabel("Networks: compute +"))
        for key, label, tip in (
            ("storage", "Storage", "Storage fabric with storage appliances (1:1) and its UFM"),
            ("inband", "In-band", "In-band management Ethernet: 2 ports per server, head nodes"),
            ("oob", "Out-of-band", "1 GbE to every BMC and switch management port"),
        ):
            box = self.network_boxes[key] = QCheckBox(label)
            box.setChecked(True)
            box.setToolTip(tip)
            networks.addWidget(box)
        networks.addStretch(1)
        self.new_document = QRadioButton("Open it as a new document")
        self.new_document.setChecked(True)
        self.replace_hall = QRadioButton("Replace the current hall's contents (undoable)")
        self.replace_hall.setToolTip(
            "Deletes everything in the open design and puts the generated "
            "hall, trays, racks, devices and links in its place, as one undo step"
        )
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Generate")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        left = QVBoxLayout()
        left.addWidget(QLabel("Template"))
        left.addWidget(self.template)
        left.addWidget(self.pages)
        left.addStretch(1)
        row = QHBoxLayout()
        row.addLayout(left)
        row.addWidget(self.preview_label, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(networks)
        layout.addWidget(self.new_document)
        layout.addWidget(self.replace_hall)
        layout.addWidget(self.buttons)
        self.counts: dict | None = None
        self.update_preview()

    # ------------------------------------------------------------------ parameters and preview

    def template_key(self) -> str:
        return self.template.currentData()

    def params(self) -> dict:
        out = {}
        for name, widget in self.fields[self.template_key()].items():
            if isinstance(widget, QSpinBox):
                out[name] = widget.value()
            else:
                value = widget.currentData()
                out[name] = int(value) if name == "tiers" and value.isdigit() else value
        return out

    def fabrics(self) -> str:
        """The ``fabrics`` option of the generator: compute plus the networks ticked."""
        return ",".join(
            ["compute", *(k for k, box in self.network_boxes.items() if box.isChecked())]
        )

    def update_preview(self, *_args) -> None:
        ok = self.buttons.button(QDialogButtonBox.Ok)
        try:
            counts = preview(self.template_key(), catalog=self.catalog, **self.params())
        except GenerateError as exc:
            self.counts = None
            self.preview_label.setText(
                f"<b style='color:#c92a2a'>Cannot generate</b><br>{escape(exc)}"
            )
            ok.setEnabled(False)
            return
        self.counts = counts
        ok.setEnabled(True)
        self.preview_label.setText(self._describe(counts))

    def _describe(self, c: dict) -> str:
        optics, watts = c["optics_at_most"], c["power_estimate_w"]  # the model's preview
        rows = [
            ("GPUs", f"{c['gpus']:,}"),
            ("Servers", f"{c['nodes']:,}"),
            ("Tiers", str(c["tiers"])),
        ]
        rows += [(f"{tier} switches", f"{n:,}") for tier, n in c["switches"].items()]
        rows += [(f"{tier} links", f"{n:,}") for tier, n in c["links"].items()]
        rows.append(("Links total", f"{sum(c['links'].values()):,}"))
        rows.append(("Optics (at most)", f"{optics:,}"))
        rows.append(("Power (estimate)", "—" if watts is None else f"{watts / 1000:,.0f} kW"))
        body = "".join(f"<tr><td>{k}</td><td align='right'><b>{v}</b></td></tr>" for k, v in rows)
        return f"<b>Preview</b><table cellspacing='4'>{body}</table>"

    # ------------------------------------------------------------------ building

    def build(self) -> Design:
        """Generate the design in a worker thread while a progress dialog keeps the window alive."""
        params = {**self.params(), "fabrics": self.fabrics()}
        return generate_with_progress(self.template_key(), params, self)


def generate_with_progress(template: str, params: dict, parent=None) -> Design:
    """Run ``generate`` off the GUI thread; show a busy dialog when it takes a while."""
    label = f"Generating {TEMPLATE_LABELS.get(template, template)}…"
    return run_with_progress(lambda: generate(template, **params), label, parent)
