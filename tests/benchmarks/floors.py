"""Floors the benchmarks print beside their figures, measured in the same run on the same data.

* ``bare_decode_s``: ``msgspec.json.decode`` of a file into plain dicts and lists, with the
  garbage collector off, in a fresh Python process (so neither this process's heap nor its
  collector's history weighs on it): what no loader of that file can beat.
* ``bare_paint_s``: one QPainter filling and outlining the same rectangles into an image of the
  same size, with no scene, items or Python per rectangle: what no canvas painting them can beat.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

_DECODE = """
import gc, sys, time
import msgspec
data = open(sys.argv[1], "rb").read()
gc.disable()
t0 = time.perf_counter()
msgspec.json.decode(data)
print(time.perf_counter() - t0)
"""


def bare_decode_s(path: Path, repeats: int = 3) -> list[float]:
    """Seconds of a bare untyped decode of ``path``, each in a fresh process, GC off."""
    out = []
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, "-c", _DECODE, str(path)], capture_output=True, text=True, check=True
        )
        out.append(float(done.stdout.strip()))
    return out


def bare_paint_s(size, transform, rects, repeats: int = 5) -> float:
    """Median seconds to fill and outline ``rects`` (scene QRectFs) under ``transform``."""
    from PySide6.QtGui import QColor, QImage, QPainter, QPen

    image = QImage(size, QImage.Format_ARGB32_Premultiplied)
    times = []
    for _ in range(repeats):
        image.fill(0xFFFFFFFF)
        painter = QPainter(image)
        t0 = time.perf_counter()
        painter.setTransform(transform)
        pen = QPen(QColor("#555"), 1.0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(QColor("#cfd8e3"))
        painter.drawRects(rects)
        painter.end()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)
