"""The per-link table of the routing engine, declared: every column with its dtype, and the
class :class:`LinkTable` that names what a reader of the table may read.

:class:`~model.engine.routed_links.RoutedLinks` is a LinkTable (it allocates, fills and keeps
these columns current); the engine's helpers that read the table (findings, reason and cage
words, cage labels) type against LinkTable instead of the class that imports them, so no import
circle forms (PyPSA's abstract base at the bottom of its network mixins does the same).
Columns whose names start with ``_`` are the engine's own: read inside ``model/engine`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from model.catalog.components import MediaType
    from model.design.design import Design
    from model.engine.cages import PartTables

# Per-link input columns (from the design) and output columns (derived), by dtype.
INPUT_COLUMNS = {
    "_drop_a": np.int64,
    "_drop_b": np.int64,
    "_height_a": float,
    "_height_b": float,
    "_same_rack": bool,
    "_faces_differ": bool,
    "_rack_depth": float,
    "_class_a": np.int64,
    "_class_b": np.int64,
    "_pinned": np.int32,
    "_override": float,
    "_as_built": float,
    "speed_gbps": float,
    "_cage_a": np.int64,  # cage key of each end (device number * CAGE_STRIDE + cage number)
    "_cage_b": np.int64,
    "_spec_a": np.int64,  # cage spec row (form factor, logical ports, heat sink) of each end
    "_spec_b": np.int64,
}
OUTPUT_COLUMNS = {
    "routed_m": float,
    "length_m": float,
    "ordered_m": float,
    "medium_index": np.int32,
    "status": np.uint8,
    "_method": np.uint8,
    "_vertical_a": float,
    "_hop_a": float,
    "_tray": float,
    "_hop_b": float,
    "_vertical_b": float,
    "_floor": float,
    "_slack": float,
    "_route_key": np.int64,
    "_component": np.int64,  # cage-graph component (links whose cages must agree on a medium)
    "_by_cage": bool,  # medium set by the per-cage choice (False: a pin kept, or no medium)
}


class LinkTable:
    """What a RoutedLinks holds, one row per link in the order of ``link_ids``. Declarations
    only: the values are set by :class:`~model.engine.routed_links.RoutedLinks`."""

    design: Design
    link_ids: list[str]
    index: dict[str, int]  # link id -> row
    media: list[MediaType]  # the design catalog's media; ``medium_index`` indexes it
    parts: PartTables
    # Public columns (one value per link).
    speed_gbps: np.ndarray
    routed_m: np.ndarray
    length_m: np.ndarray
    ordered_m: np.ndarray
    medium_index: np.ndarray
    status: np.ndarray
