"""The per-link table of the routing engine, declared: every column with its dtype, and the
class :class:`LinkTable` that names what a reader of the table may read.

:class:`~model.engine.routed_links.RoutedLinks` is a LinkTable (it allocates, fills and keeps
these columns current); the engine's helpers that read the table (findings, reason and cage
words, cage labels) type against LinkTable instead of the class that imports them, so no import
circle forms (PyPSA's abstract base at the bottom of its network mixins does the same).
Columns whose names start with ``_`` are the routing and media mixins' own (``self`` only);
every column another module reads is public and declared on :class:`LinkTable`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from model.catalog.components import MediaType
    from model.design.design import Design
    from model.engine.cages import CageView, PartTables
    from model.engine.length_breaks import LengthBreaks
    from model.engine.media import PortClass
    from model.engine.route_spans import SpanMemo
    from model.engine.tray_graph import Attachments, TrayGraph

# Per-link input columns (from the design) and output columns (derived), by dtype.
INPUT_COLUMNS = {
    "drop_a": np.int64,
    "drop_b": np.int64,
    "_height_a": float,
    "_height_b": float,
    "_same_rack": bool,
    "_faces_differ": bool,
    "_rack_depth": float,
    "class_a": np.int64,
    "class_b": np.int64,
    "pinned": np.int32,
    "_override": float,
    "_as_built": float,
    "speed_gbps": float,
    "cage_a": np.int64,  # cage key of each end (device number * CAGE_STRIDE + cage number)
    "cage_b": np.int64,
    "spec_a": np.int64,  # cage spec row (form factor, logical ports, heat sink) of each end
    "spec_b": np.int64,
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
    "component": np.int64,  # cage-graph component (links whose cages must agree on a medium)
    "by_cage": bool,  # medium set by the per-cage choice (False: a pin kept, or no medium)
}

# Output columns a tray edit's re-route writes only where it routes rows whole (drops whose
# reach or elevation changed: model.engine.retray_lengths) or labels the cage components (a
# tray edit leaves them): a tray-pending snapshot shares them with its worker read-only, not
# copied for it (XL corner drag: none written, ~1.7 ms of copies a drop), and those writers
# copy them first (own_output_columns).
ROUTED_WHOLE_COLUMNS = frozenset({"_method", "_vertical_a", "_vertical_b", "_floor", "component"})


def own_output_columns(columns: dict[str, Any], tray_edit: bool = False) -> None:
    """Give a plant (its ``__dict__``) a writable array of its own for every output column it
    holds read-only, before it writes them: after a tray drop the live plant holds the
    re-routed copy's columns, which the analysis of that copy reads too
    (:func:`model.engine.retray_copy.adopt`: taken, not copied back, ~5 ms of the GUI thread
    per XL drop), and the re-routed copy the snapshot's :data:`ROUTED_WHOLE_COLUMNS`. Copied
    on the first write, not at every drop. ``tray_edit``: only the columns a tray edit writes
    in every row it routes again (its writers of the others copy them first)."""
    for name in OUTPUT_COLUMNS:
        if tray_edit and name in ROUTED_WHOLE_COLUMNS:
            continue
        array = columns.get(name)
        if type(array) is np.ndarray and not array.flags.writeable:
            columns[name] = array.copy()


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
    drop_a: np.ndarray  # int64: drop point of each end (rack number * 2 + face)
    drop_b: np.ndarray
    class_a: np.ndarray  # int64: port class of each end (a row of ``port_classes``)
    class_b: np.ndarray
    pinned: np.ndarray  # int32: the pinned medium's row, -1 where the medium is "auto"
    cage_a: np.ndarray  # int64: cage key of each end (device number * CAGE_STRIDE + cage)
    cage_b: np.ndarray
    spec_a: np.ndarray  # int64: cage spec row of each end (``parts.specs``)
    spec_b: np.ndarray
    component: np.ndarray  # int64: cage-graph component (links whose cages share a medium)
    by_cage: np.ndarray  # bool: medium set by the per-cage choice
    # What the columns' numbers stand for.
    port_classes: list[PortClass]  # class_a / class_b -> (speed, lanes, form factor, ...)
    cage_device_ids: list[str]  # device number of a cage key -> device id
    # (component label, A node, B node, node count) of every row; None before labelling.
    cage_graph: tuple[np.ndarray, np.ndarray, np.ndarray, int] | None

    if TYPE_CHECKING:

        @property
        def policy(self) -> str: ...

        def reasons(self, rows: np.ndarray) -> list[str]: ...

        def off_trays(self, drops: np.ndarray | int) -> np.ndarray | bool: ...

        def candidate_media(self, class_a: int, class_b: int) -> tuple[list[int], float]: ...

        def label_components(self) -> None: ...

        def cage_arrays(self) -> CageView: ...


class EngineState(LinkTable):
    """The routing and media mixins' own state (``self`` only), declared for their type checks:
    :class:`~model.engine.routing.PlantRouting` and :class:`~model.engine.media_choice.PlantMedia`
    read what :class:`~model.engine.routed_links.RoutedLinks` sets. Annotations only."""

    # Engine-only columns (INPUT_COLUMNS / OUTPUT_COLUMNS whose names start with "_").
    _height_a: np.ndarray
    _height_b: np.ndarray
    _same_rack: np.ndarray
    _faces_differ: np.ndarray
    _rack_depth: np.ndarray
    _override: np.ndarray
    _as_built: np.ndarray
    _method: np.ndarray
    _vertical_a: np.ndarray
    _hop_a: np.ndarray
    _tray: np.ndarray
    _hop_b: np.ndarray
    _vertical_b: np.ndarray
    _floor: np.ndarray
    _slack: np.ndarray
    _route_key: np.ndarray
    # Routing: the tray graph, where each drop point attaches to it, named routes.
    _graph: TrayGraph
    _att: Attachments
    _drop_x: np.ndarray
    _drop_y: np.ndarray
    _rack_row: dict[str, int]
    # Rows of each rack's links while only racks move; all found at once when asked (rack_rows)
    _rack_rows: dict[str, np.ndarray]
    _rack_rows_whole: bool
    _route_of: dict[tuple, int]
    _route_spans: list[tuple[tuple[str, float, float], ...]]
    _span_memo: SpanMemo | None  # the last whole naming's spans by key (route_spans.py)
    applied_edits: int  # refreshes that applied edits (routed_links.py)
    inputs_filled: int  # calls that wrote input columns in place (routed_links._fill_inputs)
    # After a naming of every row at once: (refreshes applied then, each route's first row).
    _route_firsts: tuple[int, np.ndarray] | None
    # A tray edit's names before it, for route_keys() to restore: (refreshes applied, route
    # id per row, position pair -> id, each route's first row; None: named piecemeal).
    _renaming: tuple[int, np.ndarray, dict[tuple, int], np.ndarray | None] | None
    route_generation: int
    # Two memos in one dict: (drop, drop) -> (plan path, trays), ("ids", drop, drop) -> tray ids.
    _memo_paths: dict[tuple, Any]
    # Media: candidate lists per pair of port classes, accepted media per class-pair key.
    _groups: dict[tuple[int, int], tuple[list[int], float]]
    _accept: dict[tuple[int, int], np.ndarray]
    _breaks: tuple[PartTables, LengthBreaks]  # set on first use, for these parts (media_choice)
    _memo_reasons: dict[tuple, str]
    _components_stale: bool
    _comp_index: tuple[np.ndarray, np.ndarray] | None
    _comp_asks: int  # component lookups since the labels last changed (media_choice)

    if TYPE_CHECKING:

        def refresh(self) -> set[str]: ...

        def _component_rows(self, rows: np.ndarray) -> np.ndarray: ...

        def _compute(self, rows: np.ndarray, diff: bool = True) -> set[str]: ...

        def _name_routes(self, rows: np.ndarray) -> None: ...

        def _choose(self, rows: np.ndarray) -> None: ...

        def _ids(self, rows: np.ndarray) -> set[str]: ...

        def _length_crossed(
            self, rows: np.ndarray, old_m: np.ndarray, new_m: np.ndarray
        ) -> np.ndarray: ...
