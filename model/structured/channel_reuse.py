"""Step 4's legs again after a rack move: the last layout's channel-table legs, re-made only
where a trunk changed.

A channel-table leg (:func:`model.structured.channel_legs.channel_legs`) holds the panels and
trunk elements between its channels' cords and its trunks' lengths; a trunk leg, its links,
holders and trunk ids. When the legs are the last layout's re-measured and its trunk bundling
kept (:class:`~model.structured.trunk_reuse.TrunkMemo`), only the legs of a trunk made again
read anything new: :class:`ChannelLegMemo` keeps the last columns and makes again the paths
holding such a leg (as the full step does, so their tuples are shared alike), and works out
every leg's cord distances anew (a rack moved changes them; one call per path). A zoned XL
hall's one-rack move: a handful of its ~7k paths, where making all 393k legs' tuples was
the largest part of a re-measured layout's step 4.
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from model.structured.channel_legs import channel_legs, cord_distances, leg_tuples
from model.structured.channel_table import ChannelTable
from model.structured.layout_records import StructuredLayout
from model.structured.legs import LegLayer

_LENGTH_M = attrgetter("length_m")


class _KeptLegs:
    """The last full step 4's leg columns (see :class:`ChannelLegMemo`)."""

    def __init__(self, table: ChannelTable, layout: StructuredLayout, per_leg: tuple, laid) -> None:
        self.middles, self.leg_trunk_m = table.middles, table.leg_trunk_m
        self.leg_cassettes, self.leg_shape = table.leg_cassettes, table.leg_shape
        self.path_shape, self.shapes = table._path_shape, table._shapes
        legs = layout.legs
        self.links, self.holders, self.trunks = legs.links, legs.holders, legs.trunks
        self.cassettes = legs.cassettes
        self.leg_no, _, _, self.trunk_sum, self.members = per_leg
        # The table's leg arrays, once the checks have made them (the same dict: filled later).
        self.derived = table.derived
        spans = [end - start for start, end, *_ in laid.paths]
        self.leg_path = np.repeat(np.arange(len(spans), dtype=np.int64), spans)


class ChannelLegMemo:
    """The last full layout's step 4 legs, kept from one layout to the next (held by a
    :class:`~model.structured.leg_reuse.LegMemo`)."""

    def __init__(self) -> None:
        self._kept: _KeptLegs | None = None
        self._legs: LegLayer | None = None  # the legs the kept columns were made on
        self.remade_paths = -1  # paths whose legs the last layout made again (-1: all)

    def channel_legs(
        self,
        layout: StructuredLayout,
        table: ChannelTable,
        laid: LegLayer,
        distance,
        remeasured: tuple | None,
        changed_legs: np.ndarray | None,
    ) -> tuple:
        """:func:`~model.structured.channel_legs.channel_legs` of a full layout.
        ``remeasured``: (the legs ``laid`` re-measures, ...), None when step 2 laid them anew;
        ``changed_legs``: the numbers of the legs whose trunk elements step 3 made again
        (None: it bundled every trunk anew)."""
        kept = self._kept
        if (
            kept is None
            or remeasured is None
            or changed_legs is None
            or remeasured[0] is not self._legs
        ):
            self._kept = self._legs = None  # not held while the next is made
            self.remade_paths = -1
            per_leg = channel_legs(layout, table, laid, distance)
            # Kept only where the table's legs are the laid legs, in order (always, as the
            # paths' spans cover the legs in order; checked, as the reuse reads it so).
            leg_no = per_leg[0]
            if len(leg_no) == len(laid.link_ids) and np.array_equal(leg_no, np.arange(len(leg_no))):
                self._kept, self._legs = _KeptLegs(table, layout, per_leg, laid), laid
            return per_leg
        per_leg = self._remade(kept, layout, table, laid, distance, changed_legs)
        self._legs = laid
        return per_leg

    def _remade(
        self,
        kept: _KeptLegs,
        layout: StructuredLayout,
        table: ChannelTable,
        laid: LegLayer,
        distance,
        changed_legs: np.ndarray,
    ) -> tuple:
        """The kept columns, the legs of the paths holding a leg of ``changed_legs`` made
        again, and every leg's cord distances worked out anew."""
        dist_a, dist_b = cord_distances(laid, distance)
        paths = np.unique(kept.leg_path[changed_legs]).tolist()
        middles, leg_trunk_m, trunk_sum = kept.middles, kept.leg_trunk_m, kept.trunk_sum
        if paths:
            middles, leg_trunk_m, trunk_sum = list(middles), list(leg_trunk_m), list(trunk_sum)
        for p in paths:
            start, end, _, racks, _, _ = laid.paths[p]
            single = len(racks) == 2
            trunks = laid.trunks[start:end, 0 if single else slice(len(racks) - 1)].tolist()
            _, trunk_m, middle = leg_tuples(laid.nodes[start:end], trunks, single)
            middles[start:end] = middle
            leg_trunk_m[start:end] = trunk_m
            trunk_sum[start:end] = map(_LENGTH_M, trunks) if single else map(sum, trunk_m)
        # The columns of a made layout are only read (by the checks, the outputs, the views):
        # the new layout shares the unchanged ones with the last, which a re-made path copies.
        table.middles, table.leg_trunk_m = middles, leg_trunk_m
        table.leg_cassettes, table.leg_shape = kept.leg_cassettes, kept.leg_shape
        table.derived.update(_leg_arrays(kept.derived, laid.paths, paths, leg_trunk_m))
        kept.derived = table.derived
        table._path_shape, table._shapes = kept.path_shape, kept.shapes
        legs = layout.legs
        legs.links, legs.holders = kept.links, kept.holders
        legs.trunks, legs.cassettes = kept.trunks, kept.cassettes
        self.remade_paths = len(paths)
        kept.middles, kept.leg_trunk_m, kept.trunk_sum = middles, leg_trunk_m, trunk_sum
        return kept.leg_no, dist_a, dist_b, trunk_sum, kept.members


def _leg_arrays(last: dict, laid_paths: list, paths: list[int], leg_trunk_m: list) -> dict:
    """The last table's leg arrays (see ``ChannelTable.derived``) for a table whose leg columns
    are the last's but for the legs of ``paths``: the shapes and cassettes as they were, the
    trunk columns with those legs' trunk lengths written in (none when a leg now has more
    trunks than there are columns: the checks make them again)."""
    out = {name: last[name] for name in ("leg_shape", "leg_cassettes") if name in last}
    columns = last.get("trunk_columns")
    if columns is None:
        return out
    if paths:
        columns = [column.copy() for column in columns]
        for p in paths:
            start, end = laid_paths[p][0], laid_paths[p][1]
            for s, column in enumerate(columns):
                column[start:end] = [t[s] if len(t) > s else 0.0 for t in leg_trunk_m[start:end]]
            if any(len(t) > len(columns) for t in leg_trunk_m[start:end]):
                return out
    out["trunk_columns"] = columns
    return out
