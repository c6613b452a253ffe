"""RoutedLinks: the routed length and chosen medium of every link of a design, kept current.

It composes the pure pieces — rack drop points (:mod:`model.engine.geometry`), the tray network
(:mod:`model.engine.tray_graph`) and media choice (:mod:`model.engine.media`) — over numpy arrays with one row
per link, and follows the design's change events: ``refresh()`` applies what changed since the
last call and recomputes only the affected rows (moving a rack re-attaches that rack and
recomputes its links; shortest-path rows of the tray graph are cached until the trays change).
Changes to trays, the hall, the settings or the catalog recompute everything.

The class holds the per-link arrays and keeps them current (this module); routing
(:mod:`model.engine.routing`) and media choice (:mod:`model.engine.media_choice`) are its two mixins; a third keeps the port tables
(:mod:`model.engine.port_tables`).

Effective length used for the medium: the as-built measurement if set, else the user's override,
else the routed estimate (which includes slack).
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Set as AbstractSet
from operator import attrgetter
from typing import Protocol, overload

import numpy as np

from model.catalog.components import MediaType
from model.common.arrays import same_rows, unique_sorted
from model.common.findings import Finding
from model.design.bulk_load import LoadedLinkCodes, loaded_link_codes
from model.design.changes import DEVICE_KINDS, TRAY_KINDS, Change, ChangeKind
from model.design.design import Design
from model.engine.cages import CAGE_STRIDE, PartTables
from model.engine.geometry import FACE_FRONT, FACE_REAR, drop_points
from model.engine.link_findings import plant_findings
from model.engine.link_status import (  # re-exported: callers read the flags from here too
    NO_MEDIUM,
    NO_TRAY_PATH,
    PINNED_MISMATCH,
    PINNED_OUT_OF_REACH,
    SAME_RACK,
    UNREACHED_RACK,
)
from model.engine.link_table import INPUT_COLUMNS, OUTPUT_COLUMNS, own_output_columns
from model.engine.media import PortClass
from model.engine.media_choice import PlantMedia
from model.engine.patch_points import media_inputs_by_rack
from model.engine.port_tables import PlantPortTables
from model.engine.rack_rows import rows_of_racks
from model.engine.routing import PlantRouting
from model.engine.tray_graph import Attachments, TrayGraph

_FULL_KINDS = TRAY_KINDS | {ChangeKind.HALL_CHANGED, ChangeKind.SETTINGS_CHANGED}
_NOT_MOVES = frozenset(ChangeKind) - {ChangeKind.RACKS_MOVED}
_DEVICE_A, _DEVICE_B, _PORT_A, _PORT_B = (
    attrgetter(n) for n in ("a.device", "b.device", "a.port", "b.port")
)
_MEDIUM, _OVERRIDE, _AS_BUILT = (
    attrgetter(n) for n in ("medium", "length_override_m", "as_built_m")
)
_COMPARED = ("routed_m", "length_m", "ordered_m", "medium_index")


def _put(values: np.ndarray, at: np.ndarray, put: np.ndarray) -> np.ndarray:
    """``values`` (a copy) with ``put`` written at ``at``."""
    values[at] = put
    return values


class _Closable(Protocol):
    """The plant's subscription to its design (a snapshot's follows nothing)."""

    def close(self) -> None: ...


class RoutedLinks(PlantRouting, PlantMedia, PlantPortTables):
    """Routed length and chosen medium of every link of a design, kept current incrementally.

    Arrays (``routed_m``, ``length_m``, ``ordered_m``, ``medium_index``, ``speed_gbps``,
    ``status``) have one row per link in the order of ``link_ids``; ``index`` maps a link id to
    its row. Rows of added links are appended; a removed link's row is filled by the last row.

    ``status`` holds bit flags: SAME_RACK, NO_TRAY_PATH (routed on the floor), UNREACHED_RACK
    (with NO_TRAY_PATH: a rack is beyond ``tray_reach_m`` of every tray), NO_MEDIUM (nothing in
    the catalog reaches), PINNED_OUT_OF_REACH (kept, ``ordered_m`` NaN) and PINNED_MISMATCH.
    ``medium_index`` indexes ``media`` (the design catalog's media in catalog order), -1 for none.
    ``route_keys()`` names the distinct tray routes (links between the same two drop points
    share one) and ``tray_spans(route_id)`` gives the trays and intervals each follows, for
    per-route work such as tray fill; ``route(link_id)`` builds one link's plan path for drawing
    and explaining. ``route_generation`` changes when a full rebuild renumbers the routes.
    Not thread-safe: call ``refresh()`` from the thread that edits the design.
    """

    def __init__(self, design: Design, policy: str | None = None) -> None:
        self.design = design
        self._policy = policy
        self._pending: list[Change] = []
        self.applied_edits = 0  # refreshes that applied edits (a move's checkpoint is of one)
        self.inputs_filled = 0  # _fill_inputs calls: a snapshot shares input columns unfilled since
        self.last_moves: frozenset[str] | None = None  # racks the last refresh only moved
        self.deferred_media = None
        self._media_inputs_seen: dict[str, tuple] = {}  # hubs, patch reach the media last read
        self._full()
        self._subscription: _Closable = design.subscribe(self._pending.append)
        # Caches keyed by plant (tray fill) key on this: a snapshot carries the live plant's.
        self.plant_identity = id(self)

    def __getattr__(self, name: str):
        # ``index`` (link id -> row) is built on first use and then kept as a plain attribute:
        # a 393k-entry dict costs ~0.1 s at XL, and analyze, render and the exports read the
        # rows in order without it. Only called for attributes not found the usual way.
        if name == "index":
            ids = self.__dict__.get("link_ids")
            if ids is not None:
                index = self.__dict__["index"] = dict(zip(ids, range(len(ids)), strict=True))
                return index
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def policy(self) -> str:
        """The media policy of this plant: the override given at construction, else the design's."""
        return self._policy or self.design.settings.media_policy

    def close(self) -> None:
        """Stop following the design."""
        self._subscription.close()

    # ----------------------------------------------------------------------------- public API

    @property
    def has_unapplied_edits(self) -> bool:
        """Whether the design announced edits that ``refresh()`` has not applied yet."""
        return bool(self._pending)

    @overload
    def refresh(self, *, defer_media: bool = False) -> set[str]: ...

    @overload
    def refresh(self, lazy_ids: bool, defer_media: bool = False) -> AbstractSet[str]: ...

    def refresh(self, lazy_ids: bool = False, defer_media: bool = False) -> AbstractSet[str]:
        """Apply pending edits; ids of links whose length, ordered length or medium changed.

        ``lazy_ids``: after an edit of the trays alone, those ids as a
        :class:`~model.engine.changed_rows.ChangedRows` (rows, named when read): only for a
        plant whose id list no later edit changes, a snapshot's copy (``retray_copy.retray``).
        ``defer_media``: rack moves' links are routed, their media left to :meth:`finish_media`
        (which gives the ids) or :func:`model.engine.move_undo.restore` (the optimiser's)."""
        changed = self.finish_media()  # a refresh never starts from rows left unchosen
        pending, self._pending[:] = list(self._pending), []
        if not pending:
            return changed
        trays = all(c.kinds <= TRAY_KINDS for c in pending)
        own_output_columns(self.__dict__, trays)  # an adopted re-route's, shared with its analysis
        self.applied_edits += 1
        moves_only = not any(c.touches(_NOT_MOVES) for c in pending)  # move_undo reads it
        self.last_moves = (
            frozenset(i for c in pending for i in c.ids(ChangeKind.RACKS_MOVED))
            if moves_only
            else None
        )
        self._memo_reasons.clear()  # media choices may change: their words are redone
        if not moves_only:
            self._rack_rows.clear()  # links, devices or rows may have changed: found again
        if trays:
            rerouted = self._retray(lazy_ids)  # trays alone: rows, inputs and cage components stay
            return changed | set(rerouted) if changed else rerouted
        if any(c.touches(_FULL_KINDS) for c in pending):
            return changed | self._full_with_diff()
        design = self.design
        touched_racks: set[str] = set()
        moved_racks: set[str] = set()
        retable: set[str] = set()
        added: list[str] = []
        removed: set[str] = set()
        devices: set[str] = set()  # devices added, moved, changed or removed (panels of vias)
        for change in pending:
            devices.update(change.ids(*DEVICE_KINDS))
            touched_racks.update(change.ids(ChangeKind.RACKS_CHANGED, ChangeKind.RACKS_ADDED))
            moved_racks.update(change.ids(ChangeKind.RACKS_MOVED))
            for device_id in change.ids(
                ChangeKind.DEVICES_MOVED, ChangeKind.DEVICES_CHANGED, ChangeKind.DEVICES_REMOVED
            ):
                retable |= design.links_of_device(device_id)
            retable.update(change.ids(ChangeKind.LINKS_CHANGED))
            added.extend(change.ids(ChangeKind.LINKS_ADDED))
            removed.update(change.ids(ChangeKind.LINKS_REMOVED))
        gone = [lid for lid in removed if lid in self.index and lid not in design.links]
        if gone:
            # The links left in a removed link's cages may now take another plug (a split cage
            # that became a pair can take a cable): choose their components again.
            rows_gone = np.array([self.index[lid] for lid in gone], dtype=np.int64)
            cages = np.concatenate([self.cage_a[rows_gone], self.cage_b[rows_gone]])
            near = np.isin(self.cage_a, cages) | np.isin(self.cage_b, cages)
            near[rows_gone] = False
            retable.update(self.link_ids[r] for r in np.flatnonzero(near).tolist())
            self._drop_rows(gone)
        racks = [r for r in touched_racks | moved_racks if r in design.racks]
        # Before new rows: their devices may sit in new racks. Tray and hall edits rebuilt all
        # above, so only the plan paths from or to the drops placed again are stale (a zoned
        # XL hall's editor asked ~7k paths again after every rack move, ~1.8 s).
        self._forget_paths(self._place_racks(racks))
        new = [lid for lid in dict.fromkeys(added) if lid in design.links and lid not in self.index]
        if new:
            self._append_rows(new, compute=False)  # routed and chosen with the rows below
            retable.update(new)
            # Links already in the new links' cages join their components: report them too.
            rows_new = np.array([self.index[lid] for lid in new], dtype=np.int64)
            cages = np.concatenate([self.cage_a[rows_new], self.cage_b[rows_new]])
            near = np.isin(self.cage_a, cages) | np.isin(self.cage_b, cages)
            near[rows_new] = False
            retable.update(self.link_ids[r] for r in np.flatnonzero(near).tolist())
        retable |= design.links_of_racks([r for r in touched_racks if r in design.racks])
        retable |= set(added) - set(new)  # removed and put back (undo) in one batch
        # A rack that only moved or turned changes none of its links' inputs (rack row, face,
        # port height and depth stay; its drops were placed above): they are routed again, not
        # read again (reading a leaf rack's links was ~40 % of a rack move at L).
        only_moved = [r for r in moved_racks - touched_racks if r in design.racks]
        index = self.index
        rows = [index[lid] for lid in retable if lid in index]
        if rows:
            refill = np.array(sorted(rows), dtype=np.int64)
            self._fill_inputs(refill, [self.link_ids[r] for r in refill])
        more = self._rows_of_racks(only_moved)  # read from the drops, so after the refill
        defer = defer_media and self.last_moves is not None and not rows and not new
        # A deferred move's hubs are compared when its media are chosen (finish_media): the
        # optimiser undoes most moves before (move_undo), and hubs cost ~14 ms at zoned XL.
        rehubbed = np.zeros(0, dtype=np.int64) if defer else self._rows_of_new_media_inputs()
        if devices:  # a via's panel retyped, added, moved or removed: its links' channels change
            rehubbed = unique_sorted(np.concatenate([rehubbed, self._rows_via_devices(devices)]))
        if len(rehubbed):
            self.last_moves = None  # a move's checkpoint (move_undo) holds its racks' rows only
        if not rows and not len(more) and not len(rehubbed):
            # Links only went: their components may have split. Relabel here (the editing
            # thread) so that readers such as the analysis worker never write the plant.
            self.label_components()
            return changed | set(new)
        # Sorted, not hashed: numpy 2's np.unique of ints hashes (~2 ms of each XL rack move
        # under cProfile for its ~5k rows; the same rows in the same order).
        rows_arr = unique_sorted(np.concatenate([np.array(rows, dtype=np.int64), more]))
        return changed | self._compute(rows_arr, defer=defer, rechoose=rehubbed) | set(new)

    def _rows_of_new_media_inputs(self) -> np.ndarray:
        """Rows of the links of racks whose zone hub or patch reach (:func:`media_inputs_by_rack`)
        changed since the last refresh. A hub follows the rows and the network racks' centroid,
        a reach the patch racks of a run, so moving or removing one rack can change other racks'
        channels, hence media, though nothing of those links moved (#43)."""
        seen = self._media_inputs_seen
        now = self._media_inputs_seen = media_inputs_by_rack(self.design)
        if now is seen or now == seen:
            return np.zeros(0, dtype=np.int64)
        racks = self.design.racks  # a removed rack's links went with it
        changed = [r for r in now.keys() | seen.keys() if r in racks and seen.get(r) != now.get(r)]
        return self._rows_of_racks(sorted(changed))

    def _rows_of_racks(self, rack_ids: list[str]) -> np.ndarray:
        """Rows of the links of these racks (:func:`model.engine.rack_rows.rows_of_racks`)."""
        return rows_of_racks(self, rack_ids)

    def index_rack_rows(self) -> None:
        """Find every rack's rows at once from now on, whenever they must be found again (the
        optimiser asks for hundreds of racks; see :mod:`model.engine.rack_rows`)."""
        self._rack_rows_whole = True

    def findings(self) -> list[Finding]:
        """NO_TRAY_PATH (per unreached rack or rack pair), NO_MEDIUM_REACHES, PINNED_MEDIUM_OUT_OF_REACH."""
        return plant_findings(self)

    # ----------------------------------------------------------------------------- full build

    def _full(self) -> None:
        # Per distinct route (drop pair) and per distinct choice: `routes` on 400k links asks
        # for each link's path and reason, and most links share both with many others.
        self._memo_paths = {}
        self._memo_reasons: dict[tuple, str] = {}
        self._rack_rows: dict[str, np.ndarray] = {}  # rack id -> rows of its links
        self._rack_rows_whole = getattr(self, "_rack_rows_whole", False)  # index_rack_rows
        design = self.design
        self.media: list[MediaType] = list(design.catalog.media_types.values())
        self._media_row = {m.id: i for i, m in enumerate(self.media)}
        self._graph = TrayGraph(
            list(design.trays.values()), design.hall, design.settings.tray_join_tolerance_m
        )
        self.port_classes: list[PortClass] = []
        self._class_of: dict[tuple[float, int, str], int] = {}
        self._groups: dict[tuple[int, int], tuple[list[int], float]] = {}
        self._port_no: dict[str, int] = {}  # port name -> column of _class_matrix
        self._table_of: dict[str | tuple, int] = {}  # type id (or type, breakout) -> port table
        self._table_rows: list[dict[int, int]] = []
        self._table_face = np.zeros(0, dtype=np.int64)
        self._table_u = np.zeros(0)
        self._class_matrix = np.zeros((0, 0), dtype=np.int64)
        self._cage_matrix = np.zeros((0, 0), dtype=np.int64)
        self._spec_matrix = np.zeros((0, 0), dtype=np.int64)
        self._cage_label_rows: list[dict[int, str]] = []
        self.parts = PartTables.build(design.catalog, self.media)
        self._dev_no: dict[str, int] = {}
        self.cage_device_ids: list[str] = []
        self._accept: dict[tuple[int, int], np.ndarray] = {}
        self._components_stale = True
        # (component label, A node, B node, node count) of every row: the cage graph of the
        # last labelling (label_components), None before the first.
        self.cage_graph = None
        self._rack_row: dict[str, int] = {}
        self._route_of: dict[tuple, int] = {}  # (drop point, drop point) by position -> route id
        self._route_spans: list[tuple[tuple[str, float, float], ...]] = []
        self._route_firsts = None  # (refreshes applied, each route's first row): routing.py
        self._renaming = None  # a tray edit's names before it, to restore (routing.py)
        self._span_memo = getattr(self, "_span_memo", None)  # routes' spans by key: route_spans.py
        self._cage_rows: list[dict[int, tuple[int, int]]] = []
        self.route_generation = getattr(self, "route_generation", -1) + 1
        self._rack_geom = np.zeros((0, 4))  # x, y, rotation, depth
        self._drop_x = self._drop_y = np.zeros(0)
        self._att = self._graph.attach(np.zeros(0), np.zeros(0), 0.0)
        self._place_racks(list(design.racks))
        # Every row at once: the columns are allocated at their size (not grown), and a design
        # not edited since its load gives its link ends as the loader's integer codes.
        self.link_ids = list(design.links)
        n = len(self.link_ids)
        self.__dict__.pop("index", None)  # built from link_ids when first asked (__getattr__)
        for name, dtype in {**INPUT_COLUMNS, **OUTPUT_COLUMNS}.items():
            setattr(self, name, np.zeros(n, dtype=dtype))
        self.ordered_m[:] = np.nan
        # All rows as a slice: each column is written by one copy, not a scatter by index.
        # The records as the table's view, not a list: no 393k-long list for the collector
        # to walk; the loop below reads them only through C-level maps.
        records = design.links.values()
        self._fill_inputs(slice(0, n), self.link_ids, records, loaded_link_codes(design))
        # What _rows_of_new_media_inputs compares with.
        self._media_inputs_seen = media_inputs_by_rack(design)
        self._compute(np.arange(n), diff=False)

    def _full_with_diff(self) -> set[str]:
        old_index = self.index
        old = [getattr(self, name) for name in _COMPARED]
        self._full()
        where = np.array([old_index.get(lid, -1) for lid in self.link_ids], dtype=np.int64)
        known = where >= 0
        same = known.copy()
        for before, name in zip(old, _COMPARED, strict=True):
            now = getattr(self, name)[known]
            then = before[where[known]]
            equal = (
                (now == then) | (np.isnan(now) & np.isnan(then))
                if now.dtype.kind == "f"
                else now == then
            )
            same[known] &= equal
        return {self.link_ids[r] for r in np.flatnonzero(~same)}

    # ----------------------------------------------------------------------------- racks

    def _forget_paths(self, drops: np.ndarray) -> None:
        """Drop the memoised plan paths (and tray ids) from or to any of ``drops``."""
        gone = set(drops.tolist())
        if not gone:
            return
        memo = self._memo_paths
        for key in [k for k in memo if k[-2] in gone or k[-1] in gone]:
            del memo[key]

    def _place_racks(self, rack_ids: list[str]) -> np.ndarray:
        """(Re)compute drop points and tray attachments of these racks (2 drops: front, rear);
        returns the drops placed."""
        if not rack_ids:
            return np.zeros(0, dtype=np.int64)
        racks = self.design.racks
        rows = []
        for rack_id in rack_ids:
            row = self._rack_row.get(rack_id)
            if row is None:
                row = self._rack_row[rack_id] = len(self._rack_row)
            rows.append(row)
        size = len(self._rack_row)
        if size > len(self._rack_geom):
            grow = size - len(self._rack_geom)
            self._rack_geom = np.vstack([self._rack_geom, np.zeros((grow, 4))])
            self._drop_x = np.concatenate([self._drop_x, np.zeros(2 * grow)])
            self._drop_y = np.concatenate([self._drop_y, np.zeros(2 * grow)])
            # Room for the new racks' drops, every field written below (no attach of dummies).
            self._att = Attachments(
                *(
                    np.concatenate([old, np.zeros(2 * grow, dtype=old.dtype)])
                    for old in map(self._att.__getattribute__, Attachments.__dataclass_fields__)
                )
            )
        rows_arr = np.array(rows, dtype=np.int64)
        self._rack_geom[rows_arr] = [
            (racks[r].x, racks[r].y, racks[r].rotation, racks[r].depth_m) for r in rack_ids
        ]
        geom = self._rack_geom[rows_arr]
        drops = np.concatenate([2 * rows_arr + FACE_FRONT, 2 * rows_arr + FACE_REAR])
        faces = np.repeat([FACE_FRONT, FACE_REAR], len(rows_arr))
        x, y = drop_points(
            np.tile(geom[:, 0], 2),
            np.tile(geom[:, 1], 2),
            np.tile(geom[:, 2], 2),
            np.tile(geom[:, 3], 2),
            faces,
        )
        self._drop_x[drops], self._drop_y[drops] = x, y
        fresh = self._graph.attach(x, y, self.design.settings.tray_reach_m)
        for name in Attachments.__dataclass_fields__:
            getattr(self._att, name)[drops] = getattr(fresh, name)
        return drops

    # ----------------------------------------------------------------------------- link rows

    def _append_rows(
        self, ids: list[str], compute: bool = True, records: list | None = None
    ) -> None:
        start = len(self.link_ids)
        self._components_stale = True
        self.link_ids.extend(ids)
        self.index.update(zip(ids, range(start, start + len(ids)), strict=True))
        for name, dtype in {**INPUT_COLUMNS, **OUTPUT_COLUMNS}.items():
            setattr(self, name, np.concatenate([getattr(self, name), np.zeros(len(ids), dtype)]))
        self.ordered_m[start:] = np.nan
        rows = np.arange(start, len(self.link_ids))
        self._fill_inputs(rows, ids, records)
        if compute:
            self._compute(rows, diff=False)

    def _drop_rows(self, ids: list[str]) -> None:
        """Remove rows by moving the last rows into the holes: O(removed), not O(links)."""
        self._components_stale = True  # rows move: the cached cage graph is by row
        removed = sorted({self.index.pop(i) for i in ids})
        n, new_n = len(self.link_ids), len(self.link_ids) - len(removed)
        gone = set(removed)
        holes = [r for r in removed if r < new_n]
        movers = [r for r in range(new_n, n) if r not in gone]
        for name in {**INPUT_COLUMNS, **OUTPUT_COLUMNS}:
            column = getattr(self, name)
            column[holes] = column[movers]
            setattr(self, name, column[:new_n].copy())
        for hole, mover in zip(holes, movers, strict=True):
            link_id = self.link_ids[mover]
            self.link_ids[hole] = link_id
            self.index[link_id] = hole
        del self.link_ids[new_n:]

    def _fill_inputs(
        self,
        rows: np.ndarray | slice,
        ids: list[str],
        records: Collection | None = None,
        codes: LoadedLinkCodes | None = None,
    ) -> None:
        """Read the design's records of these links into the input columns.

        This is the one per-link pass over Python objects of a full build, so it is written as
        ``map`` over C-level getters into integer arrays (device position, port name number);
        everything else is a numpy gather from per-device and per-port-table arrays. ``codes``
        (all rows of a design unedited since its load) gives the device and port of every end
        as the loader's integer codes: then only the per-device and per-port-name tables are
        looked up in Python, and the ends are numpy gathers through them.
        """
        # The one place input columns are written in place (others replace them): a snapshot
        # shares an input column with its previous one while this count and the array stay.
        self.inputs_filled += 1
        n = len(ids)
        if not n:
            return
        design = self.design
        recs = records if records is not None else list(map(design.links.__getitem__, ids))
        if n > len(design.devices) // 4:
            device_ids = list(design.devices)
        else:
            codes = None  # few links: the slow path below numbers only their devices
            device_ids = list(set(map(_DEVICE_A, recs)) | set(map(_DEVICE_B, recs)))
        rack, face, height, table = self._device_table(device_ids)
        position = dict(zip(device_ids, range(len(device_ids)), strict=True))
        port_no = self._port_no
        dev_no = self._last_dev_no
        if codes is not None and codes.port_names and set(codes.port_names) <= port_no.keys():
            dev_of_code = np.fromiter(
                map(position.__getitem__, codes.device_ids), np.int64, len(codes.device_ids)
            )
            port_of_code = np.fromiter(
                map(port_no.__getitem__, codes.port_names), np.int64, len(codes.port_names)
            )
            ends_dev, ends_port = dev_of_code[codes.device], port_of_code[codes.port]
            ia, ib = ends_dev[:n], ends_dev[n:]
            pa, pb = ends_port[:n], ends_port[n:]
        else:
            codes = None
            ia = np.fromiter(map(position.__getitem__, map(_DEVICE_A, recs)), np.int64, n)
            ib = np.fromiter(map(position.__getitem__, map(_DEVICE_B, recs)), np.int64, n)
            pa = np.fromiter(map(port_no.__getitem__, map(_PORT_A, recs)), np.int64, n)
            pb = np.fromiter(map(port_no.__getitem__, map(_PORT_B, recs)), np.int64, n)
        # Each end's cell of the port-table matrices, found once for the three read from them.
        width = self._class_matrix.shape[1]
        cell_a, cell_b = table[ia] * width + pa, table[ib] * width + pb
        classes, cages, specs = (
            m.reshape(-1) for m in (self._class_matrix, self._cage_matrix, self._spec_matrix)
        )
        ca, cb = classes[cell_a], classes[cell_b]
        cage_a = dev_no[ia] * CAGE_STRIDE + cages[cell_a]
        cage_b = dev_no[ib] * CAGE_STRIDE + cages[cell_b]
        if not (
            np.array_equal(self.cage_a[rows], cage_a) and np.array_equal(self.cage_b[rows], cage_b)
        ):
            self._components_stale = True
        self.cage_a[rows], self.cage_b[rows] = cage_a, cage_b
        self.spec_a[rows], self.spec_b[rows] = specs[cell_a], specs[cell_b]
        if (ca < 0).any() or (cb < 0).any():
            bad = ids[int(np.flatnonzero((ca < 0) | (cb < 0))[0])]
            raise KeyError(f"link {bad}: a port its device type does not have")
        ra, rb, fa, fb = rack[ia], rack[ib], face[ia], face[ib]
        self.drop_a[rows], self.drop_b[rows] = 2 * ra + fa, 2 * rb + fb
        self._height_a[rows], self._height_b[rows] = height[ia], height[ib]
        self._same_rack[rows] = ra == rb
        self._faces_differ[rows] = fa != fb
        self._rack_depth[rows] = self._rack_geom[ra, 3]
        self.class_a[rows], self.class_b[rows] = ca, cb
        pinned = np.full(n, -1, dtype=np.int32)
        media = [] if codes is not None and codes.all_auto else list(map(_MEDIUM, recs))
        if media and media.count("auto") != n:
            for k in [k for k, m in enumerate(media) if m != "auto"]:
                pinned[k] = self._media_row.get(media[k], -1)
        self.pinned[rows] = pinned
        for column, getter in ((self._override, _OVERRIDE), (self._as_built, _AS_BUILT)):
            # Mostly none set: a set of the values stays tiny, where a list would be 393k long
            # (and walked by the cyclic collector while young).
            if set(map(getter, recs)) == {None}:
                column[rows] = np.nan
            else:
                column[rows] = np.array(list(map(getter, recs)), dtype=float)
        speeds = np.array([c[0] for c in self.port_classes])
        self.speed_gbps[rows] = np.minimum(speeds[ca], speeds[cb])

    # ----------------------------------------------------------------------------- computing

    def _compute(
        self,
        rows: np.ndarray,
        diff: bool = True,
        defer: bool = False,
        rechoose: np.ndarray | None = None,
    ) -> set[str]:
        """Route ``rows``, choose media per cage for their components and those of
        ``rechoose`` (rows whose route stands); ids whose results changed (``defer``: media
        left to :meth:`finish_media`, which gives the ids)."""
        routed = rows
        if rechoose is not None and len(rechoose):
            rows = unique_sorted(np.concatenate([rows, rechoose]))
        if not len(rows):
            return set()
        # Whole components; the index of rows by component (component_of) stays: labels change
        # only when _component_rows relabels, which drops it (a rack move relabels nothing, and
        # re-sorting 393k labels after every edit was ~7 ms of each per-link reason).
        rows = self._component_rows(rows)
        if diff:
            before = tuple(getattr(self, name)[rows].copy() for name in _COMPARED)
        if len(routed):
            self._route(routed)
        if not diff:
            self._choose(rows)
            return set()
        self.deferred_media = (rows, before)
        return set() if defer else self.finish_media()

    def finish_media(self) -> set[str]:
        """Choose the media a ``refresh(defer_media=True)`` left unchosen: ids of the links
        whose length, ordered length or medium changed in that refresh (none when none left)."""
        deferred, self.deferred_media = self.deferred_media, None
        if deferred is None:
            return set()
        rows, before = deferred
        rehubbed = self._rows_of_new_media_inputs()
        if len(rehubbed):
            self.last_moves = None  # as in refresh: the move's checkpoint no longer covers it
            grown = unique_sorted(np.concatenate([rows, self._component_rows(rehubbed)]))
            at = np.searchsorted(grown, rows)
            # The rows added hold their values of before the move: nothing of theirs was routed.
            before = tuple(
                _put(getattr(self, n)[grown], at, v) for n, v in zip(_COMPARED, before, strict=True)
            )
            rows = grown
        self._choose(rows)
        after = tuple(getattr(self, name)[rows] for name in _COMPARED)
        return self._ids(rows[~same_rows(before, after)])

    def _ids(self, rows: np.ndarray) -> set[str]:
        """Link ids of ``rows``."""
        # Rows as Python ints through a C-level map: numpy scalars as list indices cost twice
        # as much (a tray edit at XL reports ~260k links).
        return set(map(self.link_ids.__getitem__, rows.tolist()))

    def _choose(self, rows: np.ndarray) -> None:
        """Media, ordered length and the media's status bits of ``rows`` (whole components)."""
        length = self.length_m[rows]
        status = (self.status[rows] & (SAME_RACK | NO_TRAY_PATH | UNREACHED_RACK)).astype(np.int64)
        medium, ordered, mismatch = self._choose_media(rows, length)
        pinned = self.pinned[rows]
        status |= np.where((medium < 0), NO_MEDIUM, 0)
        status |= np.where((pinned >= 0) & np.isnan(ordered), PINNED_OUT_OF_REACH, 0)
        status |= np.where(mismatch, PINNED_MISMATCH, 0)
        self.medium_index[rows], self.ordered_m[rows] = medium, ordered
        self.status[rows] = status.astype(np.uint8)
