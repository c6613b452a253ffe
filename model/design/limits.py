"""Limits on what a design file (and so the edit API) may hold, so that any accepted design is
processed by every stage in bounded time and memory.

One place for every bound the loader enforces beyond the per-field ranges of model/design/entities.py:
the loader refuses a file past any of them with the JSON path and the limit. Each figure is far
above any real hall (the XL workload of DESIGN.md, 131,072 GPUs, has ~4,500 racks, ~18,000
devices, ~400,000 links and a few hundred two-point trays) and far below what would make a stage
slow: the figures are engineering bounds (``estimate``), not domain facts.
"""

from __future__ import annotations

# Nesting of JSON arrays/objects. The deepest legal path is
# $.custom_types.device_types[i].port_groups[j].breakouts[k] (7 levels).
MAX_JSON_DEPTH = 16

# Object counts per design.
MAX_TRAYS = 150  # the XL workload has ~40 (one per row and a few cross trays)
MAX_RACKS = 20_000
MAX_DEVICES = 200_000
MAX_LINKS = 2_000_000
MAX_OBSTACLES = 1_000
MAX_CUSTOM_TYPES = 1_000  # device, rack and media types, each

# Geometry. A tray is a polyline of a few corners; the tray graph and the renderer walk every
# segment against every other, so the totals are bounded too.
MAX_TRAY_POINTS = 100
MAX_TRAY_SEGMENTS_TOTAL = 600
MAX_POLYGON_POINTS = 1_000  # hall outline and each obstacle
MIN_TRAY_SEGMENT_M = 0.001  # consecutive tray points closer than 1 mm are a typing slip
MIN_TRAY_SIZE_M = 0.01  # tray width and depth: 10 mm (the smallest wire basket is ~50 mm)
MIN_POLYGON_AREA_M2 = 1e-4  # 1 cm2: a polygon with less is degenerate

# Devices (custom types in a file; the bundled catalog is within all of these).
MAX_U_HEIGHT = 100  # the tallest rack the entity ranges allow is 100 U
MAX_PORTS_PER_DEVICE = 4_096  # after breakout; the largest switch in the catalog has 128
MAX_PORTS_TOTAL = 2_000_000  # every port of every device (NetBox rows); XL has ~550,000
MAX_PORT_GROUPS = 64
MAX_GPUS_PER_DEVICE = 1_024
MAX_LIST_ITEMS = 64  # breakouts, speeds, lane rates, form factors, orderable lengths of one type

# Text. Ids are already at most 200 characters (model.catalog.components.Ident).
MAX_NAME_LENGTH = 200  # design, rack, device, tray and obstacle names, link labels
MAX_TEXT_LENGTH = 4_000  # notes, vendor and model of custom types

# Reporting.
MAX_REPORTED_PROBLEMS = 20
