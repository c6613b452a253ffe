"""gui/pictures/png_file.py writes PNG files that decode to the picture's pixels, as Qt's writer did.

The render's PNG is encoded by numpy and zlib (rows filtered "Up") instead of Qt's libpng
writer: these tests decode its files with Qt and, independently, with zlib and the PNG filter
rule, and compare every pixel with the image encoded; the chunks are those Qt writes.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen

from gui.pictures.png_file import png_bytes


def _picture(width: int, height: int) -> QImage:
    """An opaque picture with flat colour, antialiased lines and text, and noise."""
    image = QImage(width, height, QImage.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
    painter.fillRect(QRectF(3.5, 2.25, width / 2, height / 3), QColor("#4dabf7"))
    painter.setPen(QPen(QColor(200, 30, 90, 170), 3.3))
    painter.drawLine(QPointF(0, height), QPointF(width, 0))
    painter.drawText(QRectF(0, 0, width, height), Qt.AlignCenter, "Row AA")
    painter.end()
    rng = np.random.default_rng(5)
    for _ in range(200):
        image.setPixel(
            int(rng.integers(width)), int(rng.integers(height)), int(rng.integers(2**24))
        )
    return image


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body)
        out.append((kind, body))
        at += 12 + length
    return out


def _pixels(image: QImage) -> np.ndarray:
    """(height, width, 3) red, green, blue of an RGB32 image, read pixel by pixel."""
    return np.array(
        [
            [QColor(image.pixel(x, y)).getRgb()[:3] for x in range(image.width())]
            for y in range(image.height())
        ],
        dtype=np.uint8,
    )


def test_png_bytes_decode_to_the_image_with_qt_and_by_the_png_rules(qapp):
    for width, height in ((1, 1), (7, 3), (161, 97), (1200, 150)):  # the last: 3 bands
        image = _picture(width, height)
        data = png_bytes(image)
        decoded = QImage.fromData(data, "PNG")
        assert decoded.size() == image.size()
        assert decoded.convertToFormat(QImage.Format_RGB32) == image
        chunks = _chunks(data)
        kinds = [kind for kind, _ in chunks]
        assert kinds == [b"IHDR", b"pHYs", b"IDAT", b"IEND"]
        assert chunks[0][1] == struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
        dots = struct.unpack(">IIB", chunks[1][1])
        assert dots == (image.dotsPerMeterX(), image.dotsPerMeterY(), 1)
        raw = np.frombuffer(zlib.decompress(chunks[2][1]), dtype=np.uint8)
        rows = raw.reshape(height, 1 + 3 * width)
        assert rows[0, 0] == 0 and (rows[1:, 0] == 2).all()  # None, then Up
        unfiltered = np.cumsum(rows[:, 1:], axis=0, dtype=np.uint64) % 256  # Up: add the row above
        assert np.array_equal(unfiltered.reshape(height, width, 3), _pixels(image))


def test_png_bytes_are_the_pixels_qt_writes(qapp):
    image = _picture(300, 200)
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    assert image.save(buffer, "PNG", 60)
    by_qt = QImage.fromData(QByteArray(buffer.data()), "PNG")
    ours = QImage.fromData(png_bytes(image), "PNG")
    assert ours.format() == by_qt.format()
    assert bytes(ours.constBits()) == bytes(by_qt.constBits())
    assert ours.dotsPerMeterX() == by_qt.dotsPerMeterX()
