"""FabricWizard (Design → Generate fabric…): a template and its parameters, the resulting counts
previewed live from ``model.generators.generate.preview`` (no building), and generation of the design in a
worker thread with a progress dialog. The caller opens the result as a new document.

Everything ``generate`` offers on the command line is offered here: per template its options
(planes, port modes, reserve ports, spine switch, rack type and servers per rack), and for every
template the networks beside compute, the placement of the network racks, the cabling style and
the design's name. Port modes are those :func:`usable_port_modes` finds for the chosen switch,
so a mode no NIC of the catalog can be cabled to is never offered. A choice left at its first
item ("catalog's choice", "auto", 0 servers per rack) is not passed, as on the CLI."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gui.document.document import Prepared, prepare, run_with_progress
from gui.plain_text import escape
from model.catalog.components import Catalog, builtin_catalog
from model.design.design import Design
from model.generators.generate import TEMPLATES, GenerateError, apply_cabling, generate, preview
from model.generators.plans import MULTI_PLANE_SWITCH, NVL72_PLATFORMS, usable_port_modes
from model.structured.layout import CABLING_STYLES

TEMPLATE_LABELS = {
    "rail-optimized": "Rail-optimized (SuperPOD-like)",
    "leaf-spine": "Leaf-spine",
    "fat-tree": "Fat tree (k-ary)",
    "nvl72": "GB200 NVL72 racks",
    "helios": "AMD Helios racks",
}
TIERS = ("auto", "2", "3", "rail-only")
CABLING_LABELS = {
    "direct": "Direct (one cable per link)",
    "cross-connect": "Cross-connect (rack panels, MPO trunks)",
    "zones": "Zones (TIA-942 zone panels per row)",
}
# Options whose "not given" is a first item with no data (None) or a spin box at 0.
OPTIONAL = (
    "spine_switch",
    "rack_type",
    "servers_per_rack",
    "switch_ft",
    "node_type_ft",
    "optics",
    "pod",
    "su_racks",  # Helios: 0 = the SU with the fewest switches (NVL72's starts at 1)
)


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


FIELD_LABELS = {
    "nodes": "GPU servers",
    "node_type": "Server type",
    "switch": "Switch type",
    "su_nodes": "Servers per scalable unit",
    "tiers": "Switch tiers",
    "oversubscription": "Oversubscription (R:1)",
    "k": "Switch radix k",
    "racks": "Racks (72 GPUs each)",
    "su_racks": "Racks per scalable unit",
    "platform": "Rack platform",
    "pod": "Vera Rubin POD",
    "reserve_ports": "Leaf ports kept free",
    "planes": "Planes",
    "port_mode": "Switch port mode",
    "rack_type": "Server rack type",
    "servers_per_rack": "Servers per rack",
    "spine_switch": "Spine switch type",
    "switch_ft": "Switch type",
    "node_type_ft": "Host type",
    "optics": "Optics (every switch tier)",
}


def _per_rack() -> QSpinBox:
    """Servers per rack, 0 shown as the catalog's choice."""
    spin = _int(0, 0, 64)
    spin.setSpecialValueText("Catalog's choice")
    return spin


def _template_fields(catalog: Catalog) -> dict[str, dict[str, QWidget]]:
    """Per template, its parameters' widgets at their defaults, choices from the catalog."""
    types = catalog.device_types
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
    racks = [(None, "Catalog's choice")] + [
        (r, f"{r} ({t.height_u}U, {t.power_budget_kw:g} kW)") for r, t in catalog.rack_types.items()
    ]
    planes = [(1, "1 (single plane)"), (2, "2 (multi-plane Spectrum-X)")]

    def optics() -> QComboBox:  # generate --optics (model.generators.optics)
        return _combo(
            [
                (None, "Pluggable (DSP modules)"),
                ("linear", "Linear (LPO modules where sold)"),
                ("co-packaged", "Co-packaged (CPO switches)"),
            ],
            None,
        )

    return {
        "rail-optimized": {
            "nodes": _int(128, 1, 131_072, 32),
            "node_type": _combo(servers, "dgx-h100"),
            "switch": _combo(switches, "qm9700"),
            "su_nodes": _int(32, 1, 4096, 8),
            "tiers": _combo(tiers, "auto"),
            "oversubscription": _int(1, 1, 7),
            "reserve_ports": _int(0, 0, 64),
            "planes": _combo(planes, 1),
            "port_mode": _combo([("auto", "auto")], "auto"),
            "rack_type": _combo(racks, None),
            "servers_per_rack": _per_rack(),
            "optics": optics(),
        },
        "leaf-spine": {
            "nodes": _int(64, 1, 131_072, 8),
            "node_type": _combo(servers, "dgx-h100"),
            "switch": _combo(switches, "qm9700"),
            "spine_switch": _combo([(None, "Same as the leaves"), *switches], None),
            "oversubscription": _int(1, 1, 7),
            "reserve_ports": _int(0, 0, 64),
            "rack_type": _combo(racks, None),
            "servers_per_rack": _per_rack(),
            "optics": optics(),
        },
        "fat-tree": {
            "k": _int(8, 2, 128, 2),
            "switch_ft": _combo([(None, "Generic k-port switch"), *switches], None),
            "node_type_ft": _combo([(None, "Generic single-NIC host"), *servers], None),
            "rack_type": _combo(racks, None),
            "servers_per_rack": _per_rack(),
            "optics": optics(),
        },
        "nvl72": {
            "platform": _combo(
                [
                    ("gb200", "GB200 NVL72"),
                    ("gb300", "GB300 NVL72"),
                    ("vera-rubin", "Vera Rubin NVL72"),
                    ("rubin-ultra", "Rubin Ultra NVL576 (Kyber)"),
                ],
                "gb200",
            ),
            "racks": _int(8, 1, 2048, 8),
            "switch": _combo(switches, "qm9700"),
            "su_racks": _int(8, 1, 256),
            "tiers": _combo(tiers, "auto"),
            "oversubscription": _int(1, 1, 7),
            "reserve_ports": _int(0, 0, 64),
            "planes": _combo(planes, 1),
            "port_mode": _combo([("auto", "auto")], "auto"),
            "optics": optics(),
            # The generator refuses a POD of another platform or size with a sentence.
            "pod": _combo(
                [("", "No"), ("yes", "Yes: 16 Vera Rubin racks with CPU, STX and SPX racks")], ""
            ),
        },
        "helios": {
            "racks": _int(4, 1, 2048, 4),
            "switch": _combo(switches, "tomahawk6-64x1600"),
            "su_racks": _fewest_switches(),
            "tiers": _combo(tiers, "auto"),
            "oversubscription": _int(1, 1, 7),
            "reserve_ports": _int(0, 0, 64),
            "planes": _combo([(1, "1 (800G a NIC)"), (4, "4 (each NIC as 4 x 200G)")], 1),
            "port_mode": _combo([("auto", "auto")], "auto"),
            "optics": optics(),
        },
    }


def _fewest_switches() -> QSpinBox:
    """Helios racks per SU, 0 shown as the generator's choice (the SU with the fewest switches)."""
    spin = _int(0, 0, 256)
    spin.setSpecialValueText("Fewest switches")
    return spin


class FabricWizard(QDialog):
    def __init__(self, catalog: Catalog | None = None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Generate fabric")
        self.catalog = catalog or builtin_catalog()
        self.template = QComboBox()
        for key in TEMPLATES:
            self.template.addItem(TEMPLATE_LABELS.get(key, key), key)
        self.fields = _template_fields(self.catalog)
        self._follow_switch_choices()
        self.template.setCurrentIndex(self.template.findData("rail-optimized"))
        self.pages = self._template_pages()
        self.preview_label = self._preview_label()
        networks = self._network_boxes()
        build = self._build_options()
        self._destination_and_buttons()
        self._lay_out(networks, build)
        self.counts: dict | None = None
        self.update_preview()

    # ------------------------------------------------------------------ the dialog's parts

    def _follow_switch_choices(self) -> None:
        """Keeps each page's switch and port modes in step with the choices they depend on."""
        nvl = self.fields["nvl72"]

        # A platform (and multi-plane, an Ethernet capability) brings its matching scale-out
        # switch: GB300's 800G NICs need Quantum-X800, planes the Spectrum-X SN5610.
        def platform_switch(_i=None) -> None:
            platform_default = NVL72_PLATFORMS[nvl["platform"].currentData()][1]
            default = MULTI_PLANE_SWITCH if nvl["planes"].currentData() > 1 else platform_default
            nvl["switch"].setCurrentIndex(nvl["switch"].findData(default))

        nvl["platform"].currentIndexChanged.connect(platform_switch)
        nvl["planes"].currentIndexChanged.connect(platform_switch)
        for key in ("rail-optimized", "nvl72", "helios"):
            page = self.fields[key]
            page["switch"].currentIndexChanged.connect(
                lambda _i, page=page: self._offer_port_modes(page)
            )
            self._offer_port_modes(page)

    def _template_pages(self) -> QStackedWidget:
        """One form per template, shown for the template chosen; any change updates the preview."""
        pages = QStackedWidget()
        for key in TEMPLATES:
            page = QWidget()
            form = QFormLayout(page)
            for name, widget in self.fields[key].items():
                form.addRow(FIELD_LABELS[name], widget)
                signal = (
                    widget.valueChanged
                    if isinstance(widget, QSpinBox)
                    else widget.currentIndexChanged
                )
                signal.connect(self.update_preview)
            pages.addWidget(page)
        pages.setCurrentIndex(self.template.currentIndex())
        self.template.currentIndexChanged.connect(pages.setCurrentIndex)
        self.template.currentIndexChanged.connect(self.update_preview)
        return pages

    def _preview_label(self) -> QLabel:
        """The box the preview's counts are shown in."""
        label = QLabel()
        label.setTextFormat(Qt.RichText)
        label.setWordWrap(True)
        label.setMinimumWidth(300)
        label.setStyleSheet("background: #f6f8fa; border: 1px solid #d7dbe0; padding: 8px;")
        return label

    def _network_boxes(self) -> QHBoxLayout:
        """A box per network beside compute (domain-facts 8c), all ticked as in a SuperPOD."""
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
        return networks

    def _build_options(self) -> QFormLayout:
        """Build options of every template (as ``generate --placement/--cabling/--facility/--name``)."""
        self.placement = _combo(
            [("middle-of-row", "Middle of row"), ("end-of-row", "End of row")], "middle-of-row"
        )
        self.cabling = _combo([(c, CABLING_LABELS.get(c, c)) for c in CABLING_STYLES], "direct")
        # generate --facility: busways, CDUs, CRAHs and a floor rating per row
        self.facility = _combo(
            [
                ("auto", "Where the reference design racks the servers (NVL72, DGX B300)"),
                ("yes", "Yes: busways, CDUs and CRAHs per row"),
                ("no", "No"),
            ],
            "auto",
        )
        self.name = QLineEdit()
        self.name.setPlaceholderText("(from the template and its parameters)")
        build = QFormLayout()
        build.addRow("Network racks", self.placement)
        build.addRow("Cabling", self.cabling)
        build.addRow("Power and cooling", self.facility)
        build.addRow("Design name", self.name)
        for box in self.network_boxes.values():
            box.toggled.connect(self.update_preview)
        return build

    def _destination_and_buttons(self) -> None:
        """Where the result goes (a new document or the current hall) and Generate / Cancel."""
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

    def _lay_out(self, networks: QHBoxLayout, build: QFormLayout) -> None:
        """Template and its page beside the preview; below them networks, options, buttons."""
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
        layout.addLayout(build)
        layout.addWidget(self.new_document)
        layout.addWidget(self.replace_hall)
        layout.addWidget(self.buttons)

    # ------------------------------------------------------------------ parameters and preview

    def template_key(self) -> str:
        return self.template.currentData()

    def params(self) -> dict:
        """The generator's keyword parameters, as the CLI would pass them (options left at
        their default are not passed)."""
        out = {}
        for name, widget in self.fields[self.template_key()].items():
            if isinstance(widget, QSpinBox):
                value = widget.value()
            else:
                value = widget.currentData()
                if name == "tiers" and value.isdigit():
                    value = int(value)
            if name in OPTIONAL and not value:
                continue
            if name == "pod":
                value = True
            out[name.removesuffix("_ft")] = value
        return out

    def build_params(self) -> dict:
        """``params`` plus the build options: networks, placement, facility and name."""
        out = {
            **self.params(),
            "fabrics": self.fabrics(),
            "placement": self.placement.currentData(),
            "facility": self.facility.currentData(),
        }
        if self.name.text().strip():
            out["name"] = self.name.text().strip()
        return out

    def _offer_port_modes(self, page: dict[str, QWidget]) -> None:
        """Port modes of the page's switch that some NIC of the catalog can use, keeping the
        mode chosen when the new switch has it."""
        combo = page["port_mode"]
        current = combo.currentData()
        dtype = self.catalog.device_types.get(page["switch"].currentData())
        modes = usable_port_modes(self.catalog, dtype) if dtype else {}
        combo.blockSignals(True)
        combo.clear()
        combo.addItem("auto (the NICs' speed)", "auto")
        for mode in modes:
            combo.addItem(mode, mode)
        combo.setCurrentIndex(max(combo.findData(current), 0))
        combo.blockSignals(False)

    def fabrics(self) -> str:
        """The ``fabrics`` option of the generator: compute plus the networks ticked."""
        return ",".join(
            ["compute", *(k for k, box in self.network_boxes.items() if box.isChecked())]
        )

    def update_preview(self, *_args) -> None:
        ok = self.buttons.button(QDialogButtonBox.Ok)
        try:
            counts = preview(self.template_key(), catalog=self.catalog, **self.build_params())
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
        if c.get("planes", 1) > 1:
            rows.append(("Planes", f"{c['planes']} (counts are of all planes)"))
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
        return run_with_progress(self.builder(), self._progress_label(), self)

    def build_prepared(self) -> Prepared:
        """:meth:`build`, with the new document's plant and first snapshot made on the same
        worker (:func:`gui.document.document.prepare`)."""
        build = self.builder()
        return run_with_progress(lambda: prepare(build()), self._progress_label(), self)

    def builder(self) -> Callable[[], Design]:
        """What generates the design, with the wizard's values read now (on the GUI thread)."""
        template, params, cabling = (
            self.template_key(),
            self.build_params(),
            self.cabling.currentData(),
        )
        return lambda: apply_cabling(generate(template, **params), cabling)

    def _progress_label(self) -> str:
        return f"Generating {TEMPLATE_LABELS.get(self.template_key(), self.template_key())}…"
