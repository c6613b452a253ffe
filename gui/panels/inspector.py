"""InspectorPanel: the properties of the selection, editable with validation.

Every edit becomes an undo command (through ``scene.push``); the form is rebuilt from the model
when the model changes, so undo, redo and edits elsewhere show up here. Multi-selection edits
apply the entered value to every selected object of that kind.
"""

from __future__ import annotations

import msgspec
from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from gui import style
from gui.edit.commands import MoveDevicesCommand, RotateRacksCommand, UpdateCommand
from gui.panels.inspector_hall import HallForms
from gui.panels.inspector_structured import StructuredForms
from gui.plain_text import plain_labels, tooltip
from model.catalog.components import DEVICE_ROLES
from model.common.wording import count
from model.design.structured_edit import panel_types
from model.engine.media import media_that_fit
from model.engine.route_words import explain_route
from model.facility.plan_view import rack_facility_rows
from model.plant.physical_plant import link_plugs, rack_power

MIXED = "(several values)"
MIN_FIELD_PX = 72
COMBO_CHROME_PX = 40  # a combo's frame and drop-down arrow beside its text


def _field_need_px(field: QWidget) -> int:
    """The width ``field`` needs to show its current text whole."""
    if isinstance(field, QComboBox):
        return field.fontMetrics().horizontalAdvance(field.currentText()) + COMBO_CHROME_PX
    if isinstance(field, QAbstractSpinBox):
        return field.sizeHint().width()  # counts the special text ("none (use routed length)")
    return MIN_FIELD_PX


class InspectorPanel(HallForms, StructuredForms, QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.scene = None
        self.title = QLabel()
        plain_labels(self.title)
        self.title.setStyleSheet("font-weight: 600; font-size: 13px; padding: 4px 2px;")
        self.error = QLabel()
        plain_labels(self.error)
        self.error.setStyleSheet("color: #c92a2a;")
        self.error.setWordWrap(True)
        self.error.hide()
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.form.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.WrapLongRows)
        scroll = QScrollArea()
        # The form follows the dock's width (fields shrink, texts wrap): a sideways scrollbar
        # would hide the right half of every field.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        scroll.setWidgetResizable(True)
        self.scroll = scroll
        scroll.setWidget(self.form_host)
        scroll.setFrameShape(QScrollArea.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.error)
        layout.addWidget(scroll)
        self.fields: dict[str, QWidget] = {}
        # The tray form on show: (its trays but their corners, the hall, the catalog, the
        # length line); None while another form is (HallForms._tray_corners_only).
        self._tray_shown: tuple | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._rebuild_unless_dragging)

    def sizeHint(self) -> QSize:
        return QSize(320, 600)

    def set_scene(self, scene) -> None:
        if self.scene is not None:
            try:
                self.scene.selection_ids_changed.disconnect(self._schedule)
                self.scene.trunk_layer.changed.disconnect(self._layout_changed)
            except (RuntimeError, TypeError):
                pass
        self.scene = scene
        scene.selection_ids_changed.connect(self._schedule)
        # A channel or trunk shown is the analysis's layout: shown again with each new one.
        scene.trunk_layer.changed.connect(self._layout_changed)
        self.rebuild()

    def _schedule(self) -> None:
        self._timer.start()

    def _layout_changed(self) -> None:
        """A new structured layout (with the analysis): a channel or trunk shown is shown again
        from it, unless the user is typing in one of the form's fields."""
        scene = self.scene
        ids = scene.selected_ids()
        if not any(i in scene.design.links or i in scene.trunk_layer.items for i in ids):
            return
        focus = QApplication.focusWidget()
        if focus is not None and self.form_host.isAncestorOf(focus):
            return
        self._schedule()

    def _rebuild_unless_dragging(self) -> None:
        """Rebuild, but not while the press that selected a rack may become a drag: the rack
        form (its power from the plant) held the first move events of a drag at XL ~0.1 s.
        It is built once the button is up (polled every 50 ms meanwhile)."""
        if getattr(self.scene.interaction, "dragging", False) if self.scene else False:
            self._timer.start(50)
            return
        self._timer.setInterval(0)
        self.rebuild()

    # ------------------------------------------------------------------ building the form

    def _clear(self) -> None:
        focus = self.focusWidget()
        if focus is not None and self.isAncestorOf(focus):
            # Not to the next widget in the tab chain: the field is gone, so the keys go back
            # to the plan (gui.plan_focus), where Return and Esc mean something.
            focus.clearFocus()
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        self._tray_shown = None

    def rebuild(self) -> None:
        if self.scene is None:
            self._clear()
            return
        design = self.scene.design
        ids = self.scene.selected_ids()
        racks = [design.racks[i] for i in ids if i in design.racks]
        devices = [design.devices[i] for i in ids if i in design.devices]
        links = [design.links[i] for i in ids if i in design.links]
        trays = [design.trays[i] for i in ids if i in design.trays]
        if trays and not (racks or devices or links) and self._tray_corners_only(trays):
            return  # a corner dragged: its length line set anew, the form kept
        self._clear()
        trunks = [i for i in ids if i in self.scene.trunk_layer.items]  # a selected trunk has one
        obstacles = [i for i in ids if i in self.scene.obstacles]
        if racks:
            self._rack_form(racks)
        elif devices:
            self._device_form(devices)
        elif links:
            self._link_form(links)
        elif trays:
            self._tray_form(trays)
        elif trunks:
            self._trunk_form(trunks)
        elif obstacles:
            self._obstacle_form(obstacles)
        else:
            self._design_form()
        self._fit_rows()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_rows()

    def _fit_rows(self) -> None:
        """Labels beside their fields when both fit, above them when the dock is narrow.

        Why: at the default dock width (~310 px) a label column of "Length override" leaves
        a field too narrow for "none (use routed length)" or a medium's name, which were cut.
        Measured from the dock's width less a vertical scrollbar (always, so that the
        scrollbar coming and going cannot flip the layout back and forth).
        """
        rows = range(self.form.rowCount())
        labels = [self.form.itemAt(r, QFormLayout.LabelRole) for r in rows]
        label_px = max(
            (i.widget().sizeHint().width() for i in labels if i and i.widget()), default=0
        )
        need_px = max((_field_need_px(f) for f in self.fields.values()), default=0)
        scrollbar_px = self.style().pixelMetric(QStyle.PM_ScrollBarExtent)
        margins = self.form.contentsMargins()
        room_px = (
            self.scroll.width()
            - scrollbar_px
            - margins.left()
            - margins.right()
            - self.form.horizontalSpacing()
            - label_px
        )
        wrap = QFormLayout.WrapAllRows if need_px > room_px else QFormLayout.WrapLongRows
        if self.form.rowWrapPolicy() != wrap:
            self.form.setRowWrapPolicy(wrap)

    def _row(self, key: str, label: str, widget: QWidget) -> QWidget:
        widget.setObjectName(key)
        # A field takes the width the dock gives, not that of its longest entry (a medium's
        # name, a spin box's "none (use routed length)"); combos elide, texts wrap.
        policy = widget.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Ignored)
        widget.setSizePolicy(policy)
        widget.setMinimumWidth(MIN_FIELD_PX)
        if isinstance(widget, QComboBox):
            widget.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
            widget.setMinimumContentsLength(8)
            # a type's or rack's name: shown as the text it is, never as markup
            widget.setToolTip(tooltip(widget.currentText()))
            widget.currentTextChanged.connect(lambda text, w=widget: w.setToolTip(tooltip(text)))
            widget.currentTextChanged.connect(lambda _text: self._fit_rows())
        self.fields[key] = widget
        self.form.addRow(label, widget)
        return widget

    def _info(self, label: str, text: str) -> QLabel:
        value = QLabel(text)
        plain_labels(value)
        value.setWordWrap(True)
        value.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.form.addRow(label, value)
        return value

    def _text(self, key: str, label: str, values: list[str], apply) -> QLineEdit:
        edit = QLineEdit()
        same = len(set(values)) == 1
        edit.setText(values[0] if same else "")
        edit.setPlaceholderText("" if same else MIXED)
        edit.editingFinished.connect(
            lambda: apply(edit.text().strip()) if edit.isModified() else None
        )
        return self._row(key, label, edit)

    def _number(
        self,
        key: str,
        label: str,
        values: list[float],
        apply,
        *,
        lo: float,
        hi: float,
        suffix: str,
        decimals: int = 2,
        step: float = 0.1,
    ) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setRange(lo, hi)
        spin.setDecimals(decimals)
        spin.setSingleStep(step)
        spin.setSuffix(suffix)
        spin.setKeyboardTracking(False)
        same = len(set(values)) == 1
        spin.setValue(values[0])
        if not same:
            spin.setSpecialValueText(MIXED)
            spin.setValue(lo)
        spin.valueChanged.connect(lambda v: apply(round(v, decimals)))
        return self._row(key, label, spin)

    def _combo(
        self, key: str, label: str, options: list[tuple[str, object]], values: list, apply
    ) -> QComboBox:
        combo = QComboBox()
        for text, value in options:
            combo.addItem(text, value)
        same = len(set(values)) == 1
        if same:
            index = combo.findData(values[0])
            combo.setCurrentIndex(max(index, 0))
        else:
            combo.insertItem(0, MIXED, None)
            combo.setCurrentIndex(0)
        combo.activated.connect(
            lambda i: apply(combo.itemData(i)) if combo.itemData(i) is not None else None
        )
        return self._row(key, label, combo)

    # ------------------------------------------------------------------ per kind

    def _push(self, command) -> None:
        if self.scene.push(command):
            self.error.hide()
        else:
            self._refuse(command.error or "")  # and show the model's values again

    def _refuse(self, sentence: str) -> None:
        self.error.setText(sentence)
        self.error.show()
        self._schedule()

    def _replace(self, kind: str, records: list, **changes) -> None:
        new = [msgspec.structs.replace(r, **changes) for r in records]
        if any(n != o for n, o in zip(new, records, strict=False)):
            self._push(UpdateCommand(self.scene.design, kind, new))

    def _rack_form(self, racks) -> None:
        design = self.scene.design
        self.title.setText(f"Rack {racks[0].name}" if len(racks) == 1 else f"{len(racks)} racks")

        def rename(name: str) -> None:
            if len(racks) > 1:
                return self._refuse("Give each rack its own name: select one rack to rename it.")
            self._replace("racks", racks, name=name)  # the model refuses blank or taken names

        self._text("name", "Name", [r.name for r in racks], rename)
        self._number(
            "x",
            "X (centre)",
            [r.x for r in racks],
            lambda v: self._replace("racks", racks, x=v),
            lo=-1e4,
            hi=1e4,
            suffix=" m",
            step=design.hall.tile_m,
        )
        self._number(
            "y",
            "Y (centre)",
            [r.y for r in racks],
            lambda v: self._replace("racks", racks, y=v),
            lo=-1e4,
            hi=1e4,
            suffix=" m",
            step=design.hall.tile_m,
        )
        self._combo(
            "rotation",
            "Rotation",
            [(f"{a}°", a) for a in (0, 90, 180, 270)],
            [r.rotation for r in racks],
            lambda a: self._push(RotateRacksCommand(design, {r.id: a for r in racks})),
        )

        def retype(type_id: str) -> None:
            rtype = design.catalog.rack_type(type_id)
            self._replace(
                "racks",
                racks,
                type=type_id,
                width_m=rtype.width_m,
                depth_m=rtype.depth_m,
                height_u=rtype.height_u,
                power_budget_kw=rtype.power_budget_kw,
            )

        self._combo(
            "type",
            "Rack type",
            [(t.model, t.id) for t in design.catalog.rack_types.values()],
            [r.type for r in racks],
            retype,
        )
        self._number(
            "budget",
            "Power budget",
            [r.power_budget_kw for r in racks],
            lambda v: self._replace("racks", racks, power_budget_kw=v),
            lo=0.1,
            hi=10000,
            suffix=" kW",
            decimals=1,
            step=1,
        )
        types = design.catalog.device_types
        for rack in racks[:1] if len(racks) == 1 else []:
            devices = design.devices_in_rack(rack.id)
            used_u = sum(types[d.type].u_height for d in devices)
            typical_w, max_w, budget_w = rack_power(design, self.scene.plant, [rack.id])[rack.id]
            gpus = sum(types[d.type].gpu_count for d in devices)
            self._info(
                "Size",
                f"{rack.width_m * 1000:.0f} × {rack.depth_m * 1000:.0f} mm, {rack.height_u} U",
            )
            self._info("Used", f"{used_u} of {rack.height_u} U")
            self._info("Power", style.rack_power_text(typical_w, max_w, budget_w))
            self._info(
                "Contents",
                f"{count(len(devices), 'device')}, {count(gpus, 'GPU')}, "
                f"{count(len(design.links_of_racks([rack.id])), 'link')}",
            )
            for label, text in rack_facility_rows(design, rack.id, max_w):  # model.facility
                self._info(label, text)

    def _device_form(self, devices) -> None:
        design = self.scene.design
        self.title.setText(
            f"Device {devices[0].name}" if len(devices) == 1 else f"{len(devices)} devices"
        )
        self._text(
            "name",
            "Name",
            [d.name for d in devices],
            lambda n: (
                self._replace("devices", devices, name=n)
                if n
                else self._refuse("A device needs a name.")
            ),
        )
        self._combo(
            "type",
            "Device type",
            [(f"{t.vendor} {t.model}", t.id) for t in design.catalog.device_types.values()],
            [d.type for d in devices],
            lambda t: self._replace("devices", devices, type=t),
        )
        self._combo(
            "role",
            "Role",
            [(r, r) for r in DEVICE_ROLES],
            [d.role for d in devices],
            lambda r: self._replace("devices", devices, role=r),
        )
        if len(devices) == 1:
            device = devices[0]
            spin = QSpinBox()
            spin.setRange(1, design.racks[device.rack].height_u)
            spin.setValue(device.u)
            spin.setPrefix("U")
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(
                lambda u: self._push(MoveDevicesCommand(design, {device.id: (device.rack, u)}))
            )
            self._row("u", "Position", spin)
            dtype = design.device_type(device)
            self._info("Rack", design.racks[device.rack].name)
            self._info(
                "Model",
                f"{dtype.vendor} {dtype.model}, {dtype.u_height} U, {dtype.power_typical_w:.0f} W"
                f", ports on the {dtype.ports_face}",
            )
            ports = design.ports(device.id)
            free = len(design.free_ports(device.id))
            self._info(
                "Ports",
                f"{count(len(ports), 'port')}, {free} free, "
                f"{count(len(design.links_of_device(device.id)), 'link')}",
            )

    def _link_form(self, links) -> None:
        design = self.scene.design
        plant = self.scene.plant
        self.title.setText(
            f"Link {links[0].label or links[0].id}" if len(links) == 1 else f"{len(links)} links"
        )
        catalog_media = list(design.catalog.media_types.values())
        fit = set(range(len(catalog_media)))
        for lk in links:  # offered: the media that fit every selected link (the model's rule)
            fit &= set(
                media_that_fit(
                    catalog_media,
                    design.ports(lk.a.device)[lk.a.port],
                    design.ports(lk.b.device)[lk.b.port],
                )
            )
        media = [
            (f"{m.name} ({m.kind}, ≤{m.reach_m:g} m)", m.id)
            for i, m in enumerate(catalog_media)
            if i in fit
        ]
        offered = {m for _, m in media}
        media += [
            (f"{m} (pinned, does not fit)", m)
            for m in sorted({lk.medium for lk in links} - offered - {"auto"})
        ]
        self._combo(
            "medium",
            "Medium",
            [("Automatic (engine chooses)", "auto"), *media],
            [lk.medium for lk in links],
            lambda m: self._replace("links", links, medium=m),
        )
        overrides = [
            lk.length_override_m if lk.length_override_m is not None else 0.0 for lk in links
        ]
        spin = self._number(
            "length_override",
            "Length override",
            overrides,
            lambda v: self._replace("links", links, length_override_m=(v or None)),
            lo=0.0,
            hi=10000,
            suffix=" m",
            step=0.5,
        )
        spin.setSpecialValueText("none (use routed length)") if len(set(overrides)) == 1 else None
        built = [lk.as_built_m if lk.as_built_m is not None else 0.0 for lk in links]
        spin = self._number(
            "as_built",
            "As-built length",
            built,
            lambda v: self._replace("links", links, as_built_m=(v or None)),
            lo=0.0,
            hi=10000,
            suffix=" m",
            step=0.5,
        )
        spin.setSpecialValueText("not measured") if len(set(built)) == 1 else None
        self._text(
            "label",
            "Label",
            [lk.label for lk in links],
            lambda t: self._replace("links", links, label=t),
        )
        panel_ids = panel_types(design)
        has_panels = any(d.type in panel_ids for d in design.devices.values())
        if len(links) == 1 and (links[0].via or has_panels):
            self._via_row(links[0])
        if len(links) == 1:
            link = links[0]
            a, b = design.devices[link.a.device], design.devices[link.b.device]
            info = design.ports(a.id)[link.a.port]
            self._info("A end", f"{a.name}:{link.a.port} in {design.racks[a.rack].name}")
            self._info("B end", f"{b.name}:{link.b.port} in {design.racks[b.rack].name}")
            self._info("Speed", f"{info.speed_gbps:g} Gb/s, {info.form_factor}")
            if plant is not None:
                try:
                    route = plant.route(link.id)
                    medium = plant.medium(link.id)
                    self._info("Routed length", f"{route.total_m:.2f} m ({route.method})")
                    self._info("Pieces", "\n".join(explain_route(design, link.id, route)))
                    self._info(
                        "Chosen medium",
                        f"{medium.name} ({medium.kind})" if medium else "none reaches",
                    )
                    self._info("Why", plant.reason(link.id))
                    self._plug_rows(plant, link.id)
                    self._channel_rows(link.id)
                except Exception as exc:  # noqa: BLE001 - the engine's refusal is shown, not raised
                    self._info("Routing", str(exc))

    def _plug_rows(self, plant, link_id: str) -> None:
        """The link's cages and plugs and why each cage holds its plug (the model's words)."""
        plugs = link_plugs(plant, link_id)
        if not plugs["a_cage"]:
            return
        self._info("A cage", f"{plugs['a_cage']}: {plugs['a_plug'] or 'no plug'}")
        self._info("B cage", f"{plugs['b_cage']}: {plugs['b_plug'] or 'no plug'}")
        if plugs["part"] and not self._channel_cable_row(link_id):
            self._info("Cable", f"{plugs['part']} (assembly {plugs['cable_id']})")
        for end, text in zip(("A", "B"), plant.cage_reason(link_id), strict=True):
            self._info(f"{end} cage why", text)
        if plugs["problems"]:
            self._info("Plug rules", plugs["problems"])
