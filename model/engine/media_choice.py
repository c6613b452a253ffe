"""The media half of :class:`~model.engine.routed_links.RoutedLinks`: candidate media, the per-cage choice, reasons.

A mixin over the plant's per-link arrays (port classes ``class_a``/``class_b``, cage keys and
specs, pins, the cage-graph components): :meth:`PlantMedia._choose_media` picks each row's
medium and ordered length for its component; ``medium`` and ``reason`` read the result.
Candidate lists are cached per pair of port classes (and so per speed, lane rate and form
factor) under the plant's policy.
"""

from __future__ import annotations

import numpy as np

from model.catalog.components import MediaType
from model.common.arrays import unique_inverse, unique_sorted
from model.common.text_columns import join_rows
from model.engine.cage_choice import CageRows, choose_per_cage
from model.engine.cages import CageView, component_graph
from model.engine.length_breaks import LengthBreaks
from model.engine.link_status import NO_TRAY_PATH, PINNED_MISMATCH
from model.engine.link_table import EngineState, own_output_columns
from model.engine.media import choose, media_that_fit
from model.engine.media_words import explain
from model.engine.patch_points import (
    ChannelPieces,
    channel_pieces,
    links_via_devices,
    rack_patch_points,
    via_patch_points,
)

# Component lookups since the last relabelling after which the rows are indexed by label.
COMPONENT_INDEX_AFTER = 4


class PlantMedia(EngineState):
    """Media-choice methods of :class:`~model.engine.routed_links.RoutedLinks` (which holds the arrays)."""

    # Set by label_components (None until then: RoutedLinks starts it so).
    cage_graph: tuple[np.ndarray, np.ndarray, np.ndarray, int] | None
    # (rows, their compared columns before) a ``refresh(defer_media=True)`` routed and left
    # unchosen (RoutedLinks starts it None; finish_media chooses them)
    deferred_media: tuple[np.ndarray, tuple[np.ndarray, ...]] | None

    def medium(self, link_id: str) -> MediaType | None:
        k = int(self.medium_index[self.index[link_id]])
        return self.media[k] if k >= 0 else None

    def reason(self, link_id: str) -> str:
        """Why this medium (or none), in words."""
        row = self.index[link_id]
        status = int(self.status[row])
        cands, lane_rate = self.candidate_media(int(self.class_a[row]), int(self.class_b[row]))
        # Only media with a part for these two cages explain the choice (no NDR AEC for a
        # twin-port OSFP cage, say).
        sa, sb = int(self.spec_a[row]), int(self.spec_b[row])
        cands = [c for c in cands if self.parts.orderable(c, sa, sb)] or cands
        pinned = int(self.pinned[row])
        length = float(self.length_m[row])
        key = (
            tuple(cands),
            length,
            int(self.medium_index[row]),
            self.policy,
            lane_rate,
            pinned >= 0,
        )
        text = self._memo_reasons.get(key)
        if text is None:
            text = self._memo_reasons[key] = explain(self.media, *key)
        if status & PINNED_MISMATCH:
            text += " (does not match the link's speed, lane rate or form factor)"
        chosen = int(self.medium_index[row])
        if self.by_cage[row] and chosen >= 0 and self.media[chosen].kind != "backplane":
            a, b = self.cage_reason(link_id)
            text += f"; per cage: {a}; {b}"
        if status & NO_TRAY_PATH:
            text += "; no tray path: routed on the floor"
        return text

    def reasons(self, rows: np.ndarray) -> list[str]:
        """:meth:`reason` of many rows at once (:func:`model.engine.reason_words.reason_word_columns`):
        the choice worded once per group of rows with the same candidates, medium and pin and
        per distinct length, the per-cage words from one pass over the cage graph."""
        from model.engine.reason_words import reason_word_columns

        return join_rows(len(rows), reason_word_columns(self, rows))

    def cage_reason(self, link_id: str) -> tuple[str, str]:
        """Why each end's cage holds its plug (A end, B end): :func:`model.engine.cage_labels.cage_reasons`."""
        from model.engine.cage_labels import cage_reasons

        return cage_reasons(self, link_id)

    def candidate_media(self, class_a: int, class_b: int) -> tuple[list[int], float]:
        """Candidate media and lane rate for links between ports of these two classes."""
        key = (min(class_a, class_b), max(class_a, class_b))
        group = self._groups.get(key)
        if group is None:
            a, b = self.port_classes[key[0]], self.port_classes[key[1]]
            cands = media_that_fit(self.media, a, b, self.policy)
            lane_rate = max(a.speed_gbps / a.lanes, b.speed_gbps / b.lanes)
            group = self._groups[key] = (cands, lane_rate)
        return group

    def component_of(self, link_id: str) -> np.ndarray:
        """Rows of the cage-graph component of one link (indexed once per edit: cheap per call)."""
        self.label_components()
        cache = getattr(self, "_comp_index", None)
        if cache is None or len(cache[0]) != len(self.link_ids):
            order = np.argsort(self.component, kind="stable")
            cache = self._comp_index = (order, self.component[order])
        order, labels = cache
        label = self.component[self.index[link_id]]
        lo, hi = np.searchsorted(labels, [label, label + 1])
        return order[lo:hi]

    def label_components(self) -> None:
        """Bring the cage-graph component labels (``component``, ``cage_graph``) up to date:
        done on the editing thread, so that readers of a snapshot never write the plant."""
        self._component_rows(np.zeros(0, dtype=np.int64))

    def cage_arrays(self) -> CageView:
        """The plant's cage keys, specs and components, labelled (see :func:`cage_view`)."""
        self.label_components()
        graph = self.cage_graph
        return CageView(
            self.cage_a,
            self.cage_b,
            self.spec_a,
            self.spec_b,
            self.component,
            self.cage_device_ids,
            self.parts,
            graph[1:] if graph else None,
        )

    def _component_rows(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` grown to whole cage-graph components (a cage's plug is chosen for all its links)."""
        if self._components_stale:
            own_output_columns(self.__dict__)  # component: a re-routed copy's, shared
            labels, node_a, node_b, n_nodes = component_graph(self.cage_a, self.cage_b)
            self.component[:] = labels
            self.cage_graph = (labels, node_a, node_b, n_nodes)  # localize() of all rows
            self._comp_index = None
            self._comp_asks = 0
            self._components_stale = False
        if len(rows) == len(self.link_ids):
            return np.arange(len(self.link_ids))
        if not len(rows):  # label_components(): a pass of every row for nothing
            return np.zeros(0, dtype=np.int64)
        comps = unique_sorted(self.component[rows])
        index = getattr(self, "_comp_index", None)
        if index is None or len(index[0]) != len(self.link_ids):
            # The rows by label (an argsort of every row, ~30 isin passes) pay only once the
            # labels have served a few edits: the optimiser's moves relabel nothing, and two
            # isin passes of 393k labels were ~2 ms of each XL move; an edit that relabels
            # each time keeps the one pass.
            self._comp_asks = getattr(self, "_comp_asks", 0) + 1
            if self._comp_asks < COMPONENT_INDEX_AFTER:
                return np.flatnonzero(np.isin(self.component, comps))
            order = np.argsort(self.component, kind="stable")
            index = self._comp_index = (order, self.component[order])
        # The same components asked twice in a row under the same labels (the optimiser's
        # checkpoint of a move, then the move's refresh): the rows found once.
        memo = self.__dict__.get("_comp_rows_memo")
        if memo is not None and memo[0] is index and np.array_equal(memo[1], comps):
            return memo[2].copy()
        order, labels = index
        first = np.searchsorted(labels, comps, "left")
        sizes = np.searchsorted(labels, comps, "right") - first
        at = np.repeat(first - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        found = np.sort(order[at])
        self._comp_rows_memo = (index, comps, found.copy())
        return found

    def _choose_media(
        self, rows: np.ndarray, length: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Medium index, ordered length and "pinned but does not fit" per row."""
        ca, cb = self.class_a[rows], self.class_b[rows]
        key = np.minimum(ca, cb) * (len(self.port_classes) + 1) + np.maximum(ca, cb)
        pinned = self.pinned[rows]
        policy = self.policy
        # Pairs of port classes: a small range, ranked by counting (np.unique sorted every
        # row: ~40-80 ms at XL)
        keys, pattern_of = unique_inverse(key)
        patterns = np.zeros((len(keys), len(self.media)), dtype=bool)
        for p, k in enumerate(keys.tolist()):
            sel = np.flatnonzero(key == k)[:1]
            patterns[p] = self._accepted(int(ca[sel[0]]), int(cb[sel[0]]))
        cage_rows = CageRows(
            self.component[rows],
            self.cage_a[rows],
            self.cage_b[rows],
            self.spec_a[rows],
            self.spec_b[rows],
            patterns,
            pattern_of.reshape(-1),
            length,
            pinned,
            self.cage_graph if len(rows) == len(self.link_ids) else None,
            *self._channels(rows),
        )
        choice = choose_per_cage(self.parts, policy, cage_rows)
        medium, ordered = choice.medium, choice.ordered_m
        self.by_cage[rows] = choice.chosen_by_cage
        # Links no per-cage option covers keep the best medium of their own (the plant's
        # findings name the cages this leaves without a valid plug).
        for k in unique_sorted(key[(medium < 0) & (pinned < 0)]):
            sel = np.flatnonzero((key == k) & (medium < 0) & (pinned < 0))
            cands, _ = self.candidate_media(int(ca[sel[0]]), int(cb[sel[0]]))
            medium[sel], ordered[sel] = choose(self.media, cands, length[sel], policy)
        mismatch = np.zeros(len(rows), dtype=bool)
        for m in unique_sorted(pinned[pinned >= 0]):
            sel = np.flatnonzero(pinned == m)
            for k in unique_sorted(key[sel]):
                same = sel[key[sel] == k]
                mismatch[same] = not self._fits(int(ca[same[0]]), int(cb[same[0]]), int(m))
        return medium, ordered, mismatch

    def bound_media(self, thinnest: np.ndarray | None = None) -> None:
        """Give the rows a ``refresh(defer_media=True)`` left unchosen the thinnest medium
        their choice could give them (:meth:`thinnest_media`): a lower bound of their tray fill.
        ``thinnest``: :meth:`thinnest_media` of every row, kept by a caller that knows the
        rows' port classes and pins stand (the optimiser, while only racks move)."""
        if self.deferred_media is not None:
            rows = self.deferred_media[0]
            self.medium_index[rows] = (
                self.thinnest_media(rows) if thinnest is None else thinnest[rows]
            )

    def thinnest_media(self, rows: np.ndarray) -> np.ndarray:
        """Per row, the medium of the thinnest cable its media choice could give it (-1: none
        could): the per-cage choice picks among its accepted media and its pin, and a link no
        per-cage option covers among its own candidates, so no chosen cable is thinner. What a
        move's tray fill is bounded with before its media are chosen (``defer_media``)."""
        ca, cb, pinned = self.class_a[rows], self.class_b[rows], self.pinned[rows]
        # The diameter orders the cables as their cross-sections do (the fill counts those).
        width = np.array([m.cable_diameter_mm for m in self.media] + [np.inf])
        key = np.minimum(ca, cb) * (len(self.port_classes) + 1) + np.maximum(ca, cb)
        out = np.full(len(rows), -1, dtype=np.int64)
        for k in unique_sorted(key).tolist():
            sel = np.flatnonzero(key == k)
            a, b = int(ca[sel[0]]), int(cb[sel[0]])
            allowed = self._accepted(a, b).copy()
            allowed[self.candidate_media(a, b)[0]] = True
            if allowed.any():
                out[sel] = int(np.argmin(np.where(allowed, width[:-1], np.inf)))
        pin = np.flatnonzero(pinned >= 0)
        # A pin may be thinner than every accepted medium: the row takes whichever is thinner.
        thinner = width[pinned[pin]] < width[out[pin]]
        out[pin[thinner]] = pinned[pin[thinner]]
        return out

    def _accepted(self, class_a: int, class_b: int) -> np.ndarray:
        """The media (bool per medium) the per-cage choice may give a link between ports of
        these classes, cached per pair: by the pair itself, not by the code
        :meth:`_choose_media` gives it, whose stride grows with the port classes (a device
        type with a new port class made a cached code another pair's)."""
        key = (min(class_a, class_b), max(class_a, class_b))
        row = self._accept.get(key)
        if row is None:
            cands = media_that_fit(
                self.media,
                self.port_classes[class_a],
                self.port_classes[class_b],
                self.policy,
                include_splitters=True,
            )
            row = self._accept[key] = np.isin(np.arange(len(self.media)), cands)
        return row

    def _length_crossed(self, rows: np.ndarray, old_m: np.ndarray, new_m: np.ndarray) -> np.ndarray:
        """Per row of ``rows``, whose effective length went from ``old_m`` to ``new_m`` and
        nothing else of whose changed (a tray edit): whether its component's media choice can
        differ (:class:`model.engine.length_breaks.LengthBreaks`); every row of a design with
        patch panels, whose channels read the length continuously."""
        design = self.design
        if design.settings.cabling != "direct" or design.links_via_panels():
            return np.ones(len(rows), dtype=bool)
        held = getattr(self, "_breaks", None)
        if held is None or held[0] is not self.parts:
            held = self._breaks = (self.parts, LengthBreaks(self.media, self.parts))
        breaks = held[1]
        exact = np.zeros(len(rows), dtype=bool)
        moved = np.flatnonzero(old_m != new_m)
        if breaks.continuous.any() and len(moved):
            # a medium ordered at the very length (the backplane) among a link's candidates or
            # as its pin: its choice reads the length itself
            ca, cb = self.class_a[rows[moved]], self.class_b[rows[moved]]
            stride = len(self.port_classes) + 1
            keys, inverse = unique_inverse(np.minimum(ca, cb) * stride + np.maximum(ca, cb))
            reads_length = np.array(
                [
                    (self._accepted(k // stride, k % stride) & breaks.continuous).any()
                    for k in keys.tolist()
                ],
                dtype=bool,
            )
            pinned = self.pinned[rows[moved]]
            exact[moved] = reads_length[inverse] | (
                (pinned >= 0) & breaks.continuous[np.maximum(pinned, 0)]
            )
        return breaks.crossed(old_m, new_m, exact)

    def _channels(self, rows: np.ndarray) -> tuple[np.ndarray | None, ChannelPieces | None]:
        """Patch points of each row's channel and the pieces the layout will lay for it (None
        both: all direct)."""
        points = self._patch_points(rows)
        if points is None:
            return None, None
        horizontal = self._hop_a[rows] + self._tray[rows] + self._hop_b[rows] + self._floor[rows]
        typed = ~np.isnan(self._override[rows]) | ~np.isnan(self._as_built[rows])
        pieces = channel_pieces(
            self.design,
            points,
            (self.drop_a[rows] // 2, self.drop_b[rows] // 2),
            (self._vertical_a[rows], self._vertical_b[rows]),
            horizontal,
            typed,
            self._rack_row,
        )
        return points, pieces

    def _patch_points(self, rows: np.ndarray) -> np.ndarray | None:
        """Patch points of each row's channel under the design's cabling (None: all direct)."""
        design = self.design
        via = design.links_via_panels()
        if design.settings.cabling == "direct" and not via:
            return None
        rack_a, rack_b = self.drop_a[rows] // 2, self.drop_b[rows] // 2
        out = rack_patch_points(design, self._rack_row, rack_a, rack_b)
        if len(rows) < len(via):
            # An edit's few rows: only their own hand-routed links counted (at L-zoned with
            # 5k such links, counting all of them was ~0.02 s of a panel edit's ~0.025 s).
            via = via.intersection(map(self.link_ids.__getitem__, rows.tolist()))
        # Rows are sorted (whole components in row order): a hand-routed link found by bisection.
        for link_id, count in via_patch_points(design, via).items():
            r = self.index.get(link_id)
            k = int(np.searchsorted(rows, r)) if r is not None else len(rows)
            if k < len(rows) and rows[k] == r:
                out[k] = count
        return out

    def _rows_via_devices(self, device_ids: set[str]) -> np.ndarray:
        """Rows of the links routed by hand via any of ``device_ids``
        (:func:`~model.engine.patch_points.links_via_devices`): a panel edit changes their
        patch points without touching them, so their media are chosen again (sorted rows)."""
        index = self.index
        rows = [index[i] for i in links_via_devices(self.design, device_ids) if i in index]
        return np.array(sorted(rows), dtype=np.int64)

    def _fits(self, class_a: int, class_b: int, medium: int) -> bool:
        """Whether ``medium`` carries links between these port classes (whatever the policy)."""
        a, b = self.port_classes[class_a], self.port_classes[class_b]
        return bool(media_that_fit([self.media[medium]], a, b))
