"""Writes tests/data/underlay-hall.dxf, the small building drawing the underlay tests import.

A 20 m x 12 m hall drawn in millimetres ($INSUNITS 4), y up as CAD draws: walls (a closed
polyline), four 600 mm columns (one block inserted four times), two tray runs, a door swing
(an arc) and a text. Run: .venv/bin/python tests/data/make_underlay_dxf.py
"""

from __future__ import annotations

from pathlib import Path

import ezdxf

OUT = Path(__file__).with_name("underlay-hall.dxf")


def write(path: Path = OUT) -> Path:
    doc = ezdxf.new("R2010", setup=False)
    doc.header["$INSUNITS"] = 4  # millimetres
    for name in ("WALLS", "COLUMNS", "TRAYS", "DOORS", "TEXT"):
        doc.layers.add(name)
    column = doc.blocks.new("COLUMN")
    column.add_lwpolyline([(0, 0), (600, 0), (600, 600), (0, 600)], close=True)
    msp = doc.modelspace()
    msp.add_lwpolyline(
        [(0, 0), (20000, 0), (20000, 12000), (0, 12000)], close=True, dxfattribs={"layer": "WALLS"}
    )
    for x, y in ((4700, 2700), (14700, 2700), (4700, 8700), (14700, 8700)):
        msp.add_blockref("COLUMN", (x, y), dxfattribs={"layer": "COLUMNS"})
    msp.add_line((1000, 6000), (19000, 6000), dxfattribs={"layer": "TRAYS"})
    msp.add_line((10000, 1000), (10000, 11000), dxfattribs={"layer": "TRAYS"})
    msp.add_arc((0, 5000), 900, 0, 90, dxfattribs={"layer": "DOORS"})
    msp.add_text("DATA HALL 1", dxfattribs={"layer": "TEXT", "height": 500}).set_placement(
        (8000, 10500)
    )
    doc.saveas(path)
    return path


if __name__ == "__main__":
    print(write())
