"""Plain text by construction: the editor opened on a design whose every name, label, note,
vendor and model holds markup, each rack and device selected in turn, and every widget, tooltip,
combo item, item-view cell and scene item walked: none may hand that markup to Qt's rich-text
engine (an ``<img src="/dev/zero">`` there makes Qt read the device and hang the editor)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # mightBeRichText lives in QtGui's Qt namespace
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGraphicsTextItem,
    QGraphicsView,
    QLabel,
    QTextEdit,
)

from tests.gui.conftest import close_quietly, make_window

CATALOG = Path(__file__).resolve().parents[2] / "resources" / "catalog"
RAW = '<img src="hostile'  # what must never reach rich text unescaped
MARK = '<img src="hostile.png"><b>'
TEXT_FIELDS = ("name", "label", "notes", "vendor", "model", "description")


def hostile_design(pod_file: Path, tmp_path: Path) -> Path:
    """``pod_file`` with markup before every text field, and a custom rack and device type
    whose vendor and model are markup too (used by the first rack and the first device)."""
    document = json.loads(pod_file.read_text())

    def marked(record: dict) -> None:
        for key in TEXT_FIELDS:
            if isinstance(record.get(key), str):
                record[key] = MARK + record[key]

    document["name"] = MARK + document["name"]
    for key in ("racks", "devices", "trays", "links", "obstacles"):
        for record in document.get(key, []):
            marked(record)
    rack_type = dict(json.loads((CATALOG / "racks.json").read_text())["rack_types"][0])
    device_type = next(
        dict(t)
        for t in json.loads((CATALOG / "devices.json").read_text())["device_types"]
        if t["id"] == document["devices"][0]["type"]
    )
    rack_type["id"], device_type["id"] = "hostile-rack", "hostile-device"
    for custom in (rack_type, device_type):
        custom["model"] = MARK + custom["model"]
        custom["vendor"] = MARK + (custom.get("vendor") or "x")
    custom_types = document.setdefault("custom_types", {})
    custom_types.setdefault("rack_types", []).append(rack_type)
    custom_types.setdefault("device_types", []).append(device_type)
    document["racks"][0]["type"] = "hostile-rack"
    document["devices"][0]["type"] = "hostile-device"
    path = tmp_path / "hostile.hall.json"
    path.write_text(json.dumps(document))
    return path


def rich(text: object) -> bool:
    """Whether Qt would render ``text`` as rich text with the hostile markup live in it."""
    return isinstance(text, str) and RAW in text and GuiQt.mightBeRichText(text)


def offenders(window) -> list[str]:
    found = []
    for widget in QApplication.allWidgets():
        where = f"{type(widget).__name__} {widget.objectName()!r}"
        if rich(widget.toolTip()):
            found.append(f"{where} tooltip {widget.toolTip()[:60]!r}")
        if isinstance(widget, QLabel) and widget.textFormat() != Qt.PlainText:
            if rich(widget.text()):
                found.append(f"{where} label {widget.text()[:60]!r}")
        if isinstance(widget, QTextEdit) and RAW in widget.toHtml():
            found.append(f"{where} rich text")
        if isinstance(widget, QComboBox):
            for i in range(widget.count()):
                if rich(widget.itemData(i, Qt.ToolTipRole)):
                    found.append(f"{where} item {i} tooltip")
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            found += [f"{where} cell {c}" for c in _rich_cells(widget.model())]
        if isinstance(widget, QGraphicsView) and widget.scene() is not None:
            for item in widget.scene().items():
                if rich(item.toolTip()):
                    found.append(f"{where} scene item {type(item).__name__} tooltip")
                if isinstance(item, QGraphicsTextItem):
                    document: QTextDocument = item.document()
                    if RAW in document.toHtml():
                        found.append(f"{where} scene text {type(item).__name__}")
    return sorted(set(found))


def _rich_cells(model, parent=None, limit: int = 3000) -> list[str]:
    from PySide6.QtCore import QModelIndex

    parent = parent or QModelIndex()
    found = []
    for row in range(min(model.rowCount(parent), limit)):
        for column in range(model.columnCount(parent)):
            index = model.index(row, column, parent)
            if rich(model.data(index, Qt.ToolTipRole)):
                found.append(f"{row},{column}")
            if column == 0 and model.rowCount(index) > 0:
                found += _rich_cells(model, index, limit)
    return found


def test_no_user_string_is_rendered_as_rich_text(qtbot, tmp_path, pod_file):
    window = make_window(qtbot, tmp_path, hostile_design(pod_file, tmp_path))
    try:
        design = window.document.design
        assert design.name.startswith(MARK)
        window.elevation_dock.toggleViewAction().trigger()
        QApplication.processEvents()
        found = set(offenders(window))
        for rack_id in list(design.racks):
            window.scene.select_ids([rack_id])
            window.open_elevation(rack_id)
            QApplication.processEvents()
            found |= set(offenders(window))
        for device_id in list(design.devices)[:6]:
            window.scene.select_ids([device_id])
            QApplication.processEvents()
            found |= set(offenders(window))
        for link_id in list(design.links)[:3]:
            window.scene.select_ids([link_id])
            QApplication.processEvents()
            found |= set(offenders(window))
        assert not sorted(found)
    finally:
        close_quietly(window)
