"""Rack elevation sheets: a PDF with one page per row of racks, each rack a U column with its
devices (name, type, U) and the power it draws against its budget."""

from __future__ import annotations

import datetime
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)

from gui import style
from model.design.design import Design
from model.design.entities import Rack
from model.design.panel_names import panel_name
from model.design.rack_rows import rack_rows
from model.plant.physical_plant import rack_power

PAGE_W = 4000.0  # logical units across the page; the height follows the A3 landscape ratio
HEADER = 230.0
FOOTER = 260.0
MAX_COLUMN = 520.0
U_LABEL = 70.0
LABEL_SPAN = 1.1  # a power label may use this much of its rack's width (the column's gap)
MIN_LABEL_PX = 10.0


def _font(size: float, bold: bool = False) -> QFont:
    font = QFont("Sans Serif")
    font.setPixelSize(max(1, int(size)))
    font.setBold(bold)
    return font


def write_elevations_pdf(design: Design, out: Path, plant=None) -> int:
    """Write the elevation sheets of ``design`` to ``out``; returns the number of pages (rows).
    Rack power is the model's (:func:`model.plant.physical_plant.rack_power`, typical and max) with ``plant``
    or, when none is given, a cable plant built for the purpose.
    Needs a QGuiApplication. Raises OSError when the file cannot be written."""
    out = Path(out)
    own = plant is None
    if own:
        from model.engine.routed_links import RoutedLinks

        plant = RoutedLinks(design)
    try:
        power = rack_power(design, plant)
    finally:
        if own:
            plant.close()
    rows = rack_rows(design)
    buffer = QBuffer()  # drawn in memory, then replaces ``out`` atomically
    buffer.open(QIODevice.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(f"{design.name} — rack elevations")
    writer.setPageSize(QPageSize(QPageSize.A3))
    writer.setPageOrientation(QPageLayout.Landscape)
    writer.setPageMargins(QMarginsF(8, 8, 8, 8))
    painter = QPainter(writer)
    if not painter.isActive():
        raise OSError(f"could not write {out}")
    page = painter.viewport()
    page_h = PAGE_W * page.height() / page.width()
    painter.setWindow(0, 0, int(PAGE_W), int(page_h))
    painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
    today = datetime.date.today().isoformat()
    if not rows:
        painter.setFont(_font(60, bold=True))
        painter.drawText(QRectF(0, 0, PAGE_W, page_h), Qt.AlignCenter, f"{design.name}: no racks")
    for number, (label, racks) in enumerate(rows, start=1):
        if number > 1:
            writer.newPage()
        _draw_row(painter, design, label, racks, page_h, power)
        painter.setFont(_font(34))
        painter.setPen(QColor("#555"))
        painter.drawText(
            QRectF(0, page_h - 50, PAGE_W, 50),
            Qt.AlignRight | Qt.AlignVCenter,
            f"{today} · page {number} of {len(rows)}",
        )
    painter.end()
    del writer  # finishes the PDF into the buffer
    buffer.close()
    from gui.pictures.render import replace_file

    replace_file(out, bytes(buffer.data()))
    return max(1, len(rows))


def _draw_row(
    painter: QPainter,
    design: Design,
    label: str,
    racks: list[Rack],
    page_h: float,
    power: dict[str, tuple[float, float, float]],
) -> None:
    painter.setPen(QColor("#222"))
    painter.setFont(_font(70, bold=True))
    painter.drawText(QRectF(0, 0, PAGE_W, 100), Qt.AlignLeft | Qt.AlignVCenter, f"Row {label}")
    painter.setFont(_font(44))
    painter.drawText(
        QRectF(0, 0, PAGE_W, 100),
        Qt.AlignRight | Qt.AlignVCenter,
        f"{design.name} — rack elevations (front)",
    )
    column = min(MAX_COLUMN, (PAGE_W - U_LABEL) / len(racks))
    max_u = max(rack.height_u for rack in racks)
    u_px = (page_h - HEADER - FOOTER) / max_u
    for i, rack in enumerate(racks):
        x = U_LABEL + i * column
        _draw_rack(
            painter,
            design,
            rack,
            QRectF(x + column * 0.06, HEADER, column * 0.88, rack.height_u * u_px),
            u_px,
            i == 0,
            power[rack.id],
        )


def _draw_rack(
    painter: QPainter,
    design: Design,
    rack: Rack,
    frame: QRectF,
    u_px: float,
    numbers: bool,
    power: tuple[float, float, float],
) -> None:
    types = design.catalog.device_types
    painter.setPen(QColor("#222"))
    painter.setFont(_font(min(48, frame.width() / 4), bold=True))
    painter.drawText(
        QRectF(frame.left(), frame.top() - 90, frame.width(), 80), Qt.AlignCenter, rack.name
    )
    painter.setPen(QPen(QColor(style.RACK_EDGE), 4))
    painter.setBrush(QColor("#f4f5f7"))
    painter.drawRect(frame)
    painter.setFont(_font(min(u_px * 0.7, 26)))
    for u in range(1, rack.height_u + 1):
        y = frame.bottom() - u * u_px
        painter.setPen(QPen(QColor("#dde0e5"), 1))
        painter.drawLine(frame.left(), y, frame.right(), y)
        if numbers and (u == 1 or u % 5 == 0):
            painter.setPen(QColor("#6c737f"))
            painter.drawText(
                QRectF(frame.left() - U_LABEL, y, U_LABEL - 10, u_px),
                Qt.AlignRight | Qt.AlignVCenter,
                str(u),
            )
    for device in design.devices_in_rack(rack.id):
        dtype = types[device.type]
        block = QRectF(
            frame.left() + 4,
            frame.bottom() - (device.u + dtype.u_height - 1) * u_px,
            frame.width() - 8,
            dtype.u_height * u_px,
        )
        painter.setPen(QPen(QColor(style.RACK_EDGE), 2))
        painter.setBrush(style.role_color(device.role))
        painter.drawRect(block.adjusted(0, 1, 0, -1))
        painter.setPen(QColor("#111"))
        # A panel named by its place (C01-U42) says its U already: not twice.
        says_u = device.name == panel_name(rack.name, device.u)
        lines = [device.name, dtype.model]
        if not says_u:
            lines.append(
                f"U{device.u}" + (f"–{device.u + dtype.u_height - 1}" if dtype.u_height > 1 else "")
            )
        text_px = min(26.0, frame.width() / 9)
        fit = max(1, int(block.height() / (text_px * 1.25)))
        if fit < 3:
            one = f"{device.name} · {dtype.model}" + ("" if says_u else f" · U{device.u}")
            lines = [one] if fit == 1 else lines[:1] + lines[2:]
        painter.setFont(_font(min(text_px, block.height() * 0.8)))
        metrics = painter.fontMetrics()
        room = int(block.width() - 10)
        if fit == 1:  # one line: drop the type before cutting the name or the U
            short = lines[0].split(" · ")
            brief = short[0] if says_u else f"{short[0]} · {short[-1]}"
            fits = metrics.horizontalAdvance(lines[0]) <= room
            lines = [lines[0] if fits else brief]
            if not fits and metrics.horizontalAdvance(brief) > room:  # shrink, within reason
                size = painter.font().pixelSize() * max(
                    0.65, room / metrics.horizontalAdvance(brief)
                )
                painter.setFont(_font(size))
                metrics = painter.fontMetrics()
        text = "\n".join(metrics.elidedText(line, Qt.ElideRight, room) for line in lines)
        painter.drawText(block.adjusted(5, 0, -5, 0), Qt.AlignCenter, text)
    typical_w, max_w, budget_w = power  # the model's figures; the bar shows the max
    over = max_w > budget_w
    bar = QRectF(frame.left(), frame.bottom() + 30, frame.width(), 44)
    painter.setPen(QPen(QColor("#9aa0a6"), 2))
    painter.setBrush(QColor("#ffffff"))
    painter.drawRect(bar)
    fraction = min(1.0, max_w / budget_w)
    painter.setBrush(QColor(style.COLLISION) if over else style.power_color(fraction))
    painter.setPen(Qt.NoPen)
    painter.drawRect(QRectF(bar.left(), bar.top(), bar.width() * fraction, bar.height()))
    painter.setPen(QColor(style.COLLISION) if over else QColor("#222"))
    # One figure a line, in a font that fits the rack's column: the one-line label ran ~300
    # units wide into its neighbours' at 24 racks a row (columns of ~160).
    lines = power_lines(typical_w, max_w, budget_w)
    width = frame.width() * LABEL_SPAN
    painter.setFont(label_font(lines, width, min(30.0, frame.width() / 7), bold=over))
    painter.drawText(
        QRectF(frame.center().x() - width / 2, bar.bottom() + 6, width, FOOTER - 80),
        Qt.AlignHCenter | Qt.AlignTop,
        "\n".join(lines),
    )


def power_lines(typical_w: float, max_w: float, budget_w: float) -> list[str]:
    """A rack's power label under its bar: the model's typical and max draw and the budget."""
    lines = [
        f"typ {typical_w / 1000:.1f} kW",
        f"max {max_w / 1000:.1f} kW",
        f"of {budget_w / 1000:g} kW",
    ]
    return lines + (["OVER"] if max_w > budget_w else [])


def label_font(lines: list[str], width: float, start_px: float, bold: bool = False) -> QFont:
    """The largest font up to ``start_px`` (not under MIN_LABEL_PX) in which every line fits
    ``width``."""
    px = max(start_px, MIN_LABEL_PX)
    font = _font(px, bold)
    while px > MIN_LABEL_PX:
        metrics = QFontMetricsF(font)
        if max(metrics.horizontalAdvance(line) for line in lines) <= width:
            break
        px -= 1
        font = _font(px, bold)
    return font
