"""Step 3 of the structured layout again after a rack move: the last bundling, re-measured.

Which legs share which trunk, and each trunk's part, panels, racks and links, follow from the
legs' structure alone (:func:`model.structured.trunk_bundles.bundle_trunks`); when the legs
are the last layout's re-measured (:class:`~model.structured.leg_reuse.LegMemo`), so is the
bundling: :class:`TrunkMemo` keeps it and works out again only the lengths of the trunks that
carry a re-measured leg (a zoned XL hall's one-rack move: a few of its ~100k trunks, where
cutting and making them all was the largest part of a re-measured layout's step 3).

A trunk whose length (or route link) changed is a new record and a new element everywhere it
is used, so a trunk shared by touched and untouched paths has its new length in all its legs'
channels (step 4 compares trunk elements by identity); the others are the very objects of the
last layout (frozen records, shared as the layouts' panels are). A full bundling instead when
the legs were laid anew, a piece's recorded length is in play (a trunk takes its links'
record), or the slack, the catalog or the legs' slots' shape changed.
"""

from __future__ import annotations

import math

import msgspec
import numpy as np

from model.structured.channels import Element
from model.structured.layout_records import StructuredLayout
from model.structured.trunk_bundles import (
    TrunkBundling,
    _lengths,
    _ordered,
    _trunk_not_orderable,
    bundle_trunks,
)


class TrunkMemo:
    """The last full layout's trunk bundling, kept from one layout to the next (held by a
    :class:`~model.structured.leg_reuse.LegMemo`)."""

    def __init__(self) -> None:
        self._kept: TrunkBundling | None = None
        self._inputs: tuple = ()
        self._route_of: dict = {}
        self._slots: np.ndarray | None = None
        self._legs = None  # the legs the kept bundling was made for
        self.changed_trunks = -1  # trunks made again by the last layout (-1: all bundled)
        # The legs whose trunk elements the last layout made again (None: all bundled).
        self.changed_legs: np.ndarray | None = None

    def bundle(
        self,
        layout: StructuredLayout,
        catalog,
        laid,
        route_of: dict,
        slack_pct: float,
        recorded: dict,
        remeasured: tuple | None,
    ) -> None:
        """Step 3 of a full layout (as :func:`bundle_trunks`) on the legs ``laid``.
        ``remeasured``: (the legs ``laid`` re-measures, the numbers of the legs whose lengths
        were worked out again), None when step 2 laid them anew. The last bundling with those
        legs' lengths when it was made for those legs; else bundled anew."""
        kept = self._kept
        inputs = (id(catalog), slack_pct)
        if (
            kept is None
            or remeasured is None
            or remeasured[0] is not self._legs
            or recorded
            or inputs != self._inputs
            or self._slots is None
        ):
            self._kept = self._slots = self._legs = None  # not held while the next is made
            self.changed_trunks, self.changed_legs = -1, None
            bundled = bundle_trunks(layout, catalog, laid, route_of, slack_pct, recorded)
            if bundled is not None and not recorded:
                self._kept, self._slots, self._legs = bundled, laid.trunks, laid
                self._inputs, self._route_of = inputs, route_of
            return
        self._rebundle(layout, kept, laid, route_of, slack_pct, remeasured[1])
        self._legs = laid

    def _rebundle(
        self,
        layout: StructuredLayout,
        kept: TrunkBundling,
        laid,
        route_of: dict,
        slack_pct: float,
        touched_legs: np.ndarray,
    ) -> None:
        """The kept bundling with the lengths of the segments of ``touched_legs`` read anew
        from ``laid`` and the route links of ``route_of``."""
        assert self._slots is not None
        seg_m = kept.seg_m
        at = np.flatnonzero(np.isin(kept.seg_legs, touched_legs))
        if len(at):
            seg_m = seg_m.copy()
            seg_m[at] = [
                laid.seg_m[leg][s]
                for leg, s in zip(
                    kept.seg_legs[at].tolist(), kept.seg_nos[at].tolist(), strict=True
                )
            ]
        # Every trunk's length as bundle_trunks works it out (numpy over all segments: the
        # same floats); a trunk is made again only where its length changed, bit for bit.
        lengths_m = _lengths(seg_m, kept.starts, slack_pct)
        was = np.asarray(kept.lengths_m, dtype=np.float64).view(np.int64)
        now = np.asarray(lengths_m, dtype=np.float64).view(np.int64)
        changed = np.flatnonzero(was != now).tolist()
        trunks = list(kept.trunks)
        routes_changed = route_of != self._route_of
        if routes_changed:  # a pair's longest link changed: its trunks follow another route
            changed = sorted(
                set(changed).union(
                    k for k, t in enumerate(trunks) if _route(route_of, t) != t.route_link
                )
            )
        ordered = list(kept.ordered)
        elements = kept.elements
        slots = self._slots
        changed_legs = np.zeros(0, dtype=np.int64)
        if changed:
            parts = [kept.parts[k] for k in changed]
            got_m = _ordered(parts, [lengths_m[k] for k in changed])
            elements = elements.copy()
            slots = slots.copy()
            n = len(trunks)
            for k, o in zip(changed, got_m, strict=True):
                ordered[k] = o
                trunk = trunks[k] = msgspec.structs.replace(
                    trunks[k],
                    length_m=lengths_m[k],
                    ordered_m=o,
                    route_link=_route(route_of, trunks[k]),
                )
                got = o if not math.isnan(o) else lengths_m[k]
                elements[k] = Element("trunk", trunk.id, trunk.part, got, "B")
                elements[n + k] = Element("trunk", trunk.id, trunk.part, got, "A")
            # Every segment of a changed trunk is told its new element.
            rows = np.flatnonzero(np.isin(kept.trunk_of, changed))
            trunk_of, seg_nos = kept.trunk_of[rows], kept.seg_nos[rows]
            slots[kept.seg_legs[rows], seg_nos] = elements[trunk_of + n * (seg_nos > 0)]
            changed_legs = np.unique(kept.seg_legs[rows])
        layout.trunks += trunks
        for k in np.flatnonzero(np.isnan(np.asarray(ordered, dtype=np.float64))).tolist():
            trunk = trunks[k]
            layout.findings.append(_trunk_not_orderable(trunk, kept.modes[k], kept.widths[k]))
        laid.trunks = slots
        self.changed_trunks, self.changed_legs = len(changed), changed_legs
        kept.seg_m, kept.lengths_m, kept.ordered = seg_m, lengths_m, ordered
        kept.trunks, kept.elements = trunks, elements
        self._slots, self._route_of = slots, route_of


def _route(route_of: dict, trunk) -> str:
    """The link whose tray route ``trunk`` follows (as bundle_trunks names it)."""
    return route_of.get(
        (trunk.rack_a, trunk.rack_b), route_of.get((trunk.rack_b, trunk.rack_a), "")
    )
