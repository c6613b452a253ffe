"""Step 1 of the per-segment schedule, column-wise: each channel's patch points and trunks as
integer codes, its panel ports numbered, and each trunk end's rear ports as ``R1-R3,R7``.

A zoned XL hall has 393k channels, one per trunk leg, each of five elements between its cords.
Numbered channel by channel in Python (a counter per panel, a tuple per patch point) this was
~3.5 s of its schedule; here each leg's elements are read once, position by position over the
legs of one shape, into codes (a patch point's panel, its rack, the trunks beside it), and the
ports are the rank of each use of a panel in the channels' order (one stable sort), which is
the counter's value. A channel whose middle is its own (LC cassette ports, a polarity record)
is read from its own elements, the same way.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter, itemgetter

import numpy as np

from model.common.arrays import FirstSeen, unique_inverse, unique_sorted
from model.structured.channel_view import point_rack

_KIND = attrgetter("kind")
_ID = attrgetter("object_id")
_POINT_KINDS = ("panel", "cassette")


class Middles:
    """The middles (elements between a channel's cords) as padded integer columns, one row per
    middle: the legs' own (row = leg number), then the channels' own (cassettes, records).

    Per patch point ``p`` (in element order): ``point`` its (rack, element) code (index into
    ``point_names``: rack name, U, name), ``panel`` its panel code for numbering (-1: a
    cassette, which numbers no port), ``cassette_port`` / ``cassette_reverse`` a cassette's
    port and direction, ``prev_trunk`` / ``next_trunk`` the trunk element beside an adapter
    panel (code into ``trunk_ids``, -1 none). Per trunk element ``t``: ``trunk`` its code,
    ``n_trunks`` how many; ``n_points`` how many patch points."""

    def __init__(self, design, trunks: dict, middles: list[tuple], shapes: np.ndarray) -> None:
        """``shapes``: per middle, its leg's shape number (the legs of a shape have the same
        element kinds: :meth:`~model.structured.channel_table.ChannelTable.add_legs`), -1
        for a channel's own; grouped by it, checked position by position."""
        self.design, self.trunks = design, trunks
        n = len(middles)
        width_p = width_t = 1
        groups = _groups(middles, shapes)
        for kinds in groups:
            width_p = max(width_p, sum(k in _POINT_KINDS for k in kinds))
            width_t = max(width_t, kinds.count("trunk"))
        self.point = np.full((n, width_p), -1, dtype=np.int64)
        self.panel = np.full((n, width_p), -1, dtype=np.int64)
        self.cassette_port = np.zeros((n, width_p), dtype=np.int64)
        self.cassette_reverse = np.zeros((n, width_p), dtype=bool)
        self.prev_trunk = np.full((n, width_p), -1, dtype=np.int64)
        self.next_trunk = np.full((n, width_p), -1, dtype=np.int64)
        self.trunk = np.full((n, width_t), -1, dtype=np.int64)
        self.n_points = np.zeros(n, dtype=np.int64)
        self.n_trunks = np.zeros(n, dtype=np.int64)
        self.point_codes: dict[tuple[str | None, str], int] = {}
        self.point_names: list[tuple[str, int, str]] = []
        self.panel_codes = FirstSeen()
        self.trunk_codes = FirstSeen()
        for kinds, (rows, of_kinds) in groups.items():
            self._group(kinds, rows, of_kinds)
        self.trunk_ids: list[str] = list(self.trunk_codes)  # a dict keeps its keys in code order

    def _group(self, kinds: tuple[str, ...], rows: np.ndarray, middles: list[tuple]) -> None:
        """The columns of the middles ``rows`` (all of element kinds ``kinds``)."""
        p = t = 0
        trunk_at: dict[int, np.ndarray] = {}
        for j, kind in enumerate(kinds):
            if kind == "trunk":
                ids = list(map(_ID, map(itemgetter(j), middles)))
                codes = self._codes(ids, self.trunk_codes)
                trunk_at[j] = codes
                self.trunk[rows, t] = codes
                t += 1
        for j, kind in enumerate(kinds):
            if kind not in _POINT_KINDS:
                continue
            elements = list(map(itemgetter(j), middles))
            ids = list(map(_ID, elements))
            self.point[rows, p], id_code, distinct = self._points(middles, j, ids)
            if kind == "cassette":
                self.cassette_port[rows, p] = [e.port for e in elements]
                self.cassette_reverse[rows, p] = [e.reverse for e in elements]
            else:
                # each distinct panel looked up once, gathered by the position's id codes
                self.panel[rows, p] = self._codes(distinct, self.panel_codes)[id_code]
                if j - 1 in trunk_at:
                    self.prev_trunk[rows, p] = trunk_at[j - 1]
                if j + 1 in trunk_at:
                    self.next_trunk[rows, p] = trunk_at[j + 1]
            p += 1
        self.n_points[rows] = p
        self.n_trunks[rows] = t

    def numbered(self) -> None:
        """Drop what only the numbering of the ports reads (a cassette's port and direction,
        the trunks beside an adapter): ~30 MB at zoned XL, held to the segments table's peak."""
        del self.cassette_port, self.cassette_reverse, self.prev_trunk, self.next_trunk

    @staticmethod
    def _codes(ids: list[str], codes: FirstSeen) -> np.ndarray:
        """The code of each of ``ids``, a new id numbered on first use (one lookup per id: a
        set of the ids first was a second pass over ~0.4 M trunk ids at zoned XL)."""
        return np.fromiter(map(codes.__getitem__, ids), dtype=np.int64, count=len(ids))

    def _points(
        self, middles: list[tuple], j: int, ids: list[str]
    ) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """The (rack, element) code of position ``j`` of each middle, with the code of each
        of ``ids`` among the distinct ids and those in order of first use; the names once per
        code (:func:`~model.structured.channel_view.point_rack`: a placed panel's own rack,
        else the rack of the trunk beside it). A placed panel's code is found once per panel
        and gathered by numpy; only the others are looked up middle by middle (a tuple per
        middle made and hashed twice was ~0.1 s at zoned XL)."""
        devices = self.design.devices
        seen = FirstSeen()
        id_code = np.fromiter(map(seen.__getitem__, ids), np.int64, len(ids))
        per_id = np.full(len(seen), -1, dtype=np.int64)
        for k, object_id in enumerate(seen):
            device = devices.get(object_id)
            if device is not None and device.rack is not None:
                per_id[k] = self._point_code(device.rack, object_id)
        codes = per_id[id_code]
        for k in np.flatnonzero(codes < 0).tolist():
            rack = point_rack(self.design, self.trunks, middles[k], j)
            codes[k] = self._point_code(rack, ids[k])
        return codes, id_code, list(seen)

    def _point_code(self, rack_id: str | None, object_id: str) -> int:
        """The code of the patch point ``object_id`` in rack ``rack_id`` (named when new)."""
        key = (rack_id, object_id)
        code = self.point_codes.get(key)
        if code is None:
            code = self.point_codes[key] = len(self.point_names)
            device = self.design.devices.get(object_id)
            name = (device.name or device.id) if device is not None else object_id
            u = device.u if device is not None else 0
            self.point_names.append((self.design.racks[rack_id].name, u, name))
        return code


def _groups(
    middles: list[tuple], shapes: np.ndarray
) -> dict[tuple[str, ...], tuple[np.ndarray, list[tuple]]]:
    """The middles' rows by their element kinds, with those middles in the rows' order (read
    once, for the check and the columns): a shape's middles together when each of its
    positions holds one kind (read off the first), else (and shape -1) middle by middle."""
    rows_of: dict[tuple[str, ...], list[tuple[np.ndarray, list[tuple]]]] = {}
    if not middles:
        return {}
    order = np.argsort(shapes, kind="stable")
    bounds = np.flatnonzero(np.r_[True, np.diff(shapes[order]) != 0, True]).tolist()
    loose: list[int] = []
    for s, e in zip(bounds[:-1], bounds[1:], strict=True):
        rows = order[s:e]
        group = list(map(middles.__getitem__, rows.tolist()))
        kinds = tuple(map(_KIND, group[0]))
        if (
            shapes[rows[0]] >= 0
            and set(map(len, group)) == {len(kinds)}
            and all(set(map(_KIND, map(itemgetter(j), group))) == {k} for j, k in enumerate(kinds))
        ):
            rows_of.setdefault(kinds, []).append((rows, group))
        else:
            loose += rows.tolist()
    seen: dict[tuple[str, ...], list[int]] = {}
    for i in loose:
        seen.setdefault(tuple(map(_KIND, middles[i])), []).append(i)
    for kinds, own in seen.items():
        of_kinds = list(map(middles.__getitem__, own))
        rows_of.setdefault(kinds, []).append((np.asarray(own, dtype=np.int64), of_kinds))
    return {
        kinds: (
            np.concatenate([rows for rows, _ in parts]),
            list(chain.from_iterable(g for _, g in parts)),
        )
        for kinds, parts in rows_of.items()
    }


def number_ports(
    mids: Middles, middle: np.ndarray, copies: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The port of every patch point of every copy of every channel: ``middle[c]`` is channel
    ``c``'s middle row and ``copies[c]`` its fibres (pairs), the channels in numbering order.
    Returns ((units, points) ports, each unit's middle row), a unit per (channel, copy) in that
    order: an adapter
    panel's port is the count of its uses so far (each leg takes the next port of every panel
    it passes), a cassette's the channel's own port, shifted by the copy (mirrored when the
    cassette is reversed)."""
    unit_middle = np.repeat(middle, copies)
    copy = np.arange(len(unit_middle)) - np.repeat(np.cumsum(copies) - copies, copies)
    panel = mids.panel[unit_middle]
    ports = np.where(
        mids.cassette_reverse[unit_middle],
        mids.cassette_port[unit_middle] - copy[:, None],
        mids.cassette_port[unit_middle] + copy[:, None],
    )
    used = panel.ravel()
    at = np.flatnonzero(used >= 0)  # row-major: channel by channel, copy by copy, point by point
    codes = used[at]
    # Stable: a panel's uses keep their order. A radix sort when the codes fit 16 bits (a
    # zoned XL hall has a few thousand panels and ~1.6 M uses), numpy's default for them.
    small = len(codes) and int(codes.max()) <= np.iinfo(np.uint16).max
    order = np.argsort(codes.astype(np.uint16) if small else codes, kind="stable")
    ranked = codes[order]
    first = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    run = np.repeat(first, np.diff(np.r_[first, len(ranked)]))
    flat = ports.ravel()
    numbered = np.empty(len(codes), dtype=np.int64)
    numbered[order] = np.arange(len(ranked)) - run + 1
    flat[at] = numbered
    return flat.reshape(ports.shape), unit_middle


def trunk_end_ports(mids: Middles, unit_middle: np.ndarray, ports: np.ndarray) -> tuple:
    """Per trunk code, its A and B ends' rear ports as ``R1-R3,R7`` (None: no adapter port):
    the ports of the adapter panels before and after it, over every copy of every channel."""
    out = []
    for beside in (mids.next_trunk, mids.prev_trunk):  # A end: the trunk after the panel
        trunk = beside[unit_middle].ravel()
        at = np.flatnonzero(trunk >= 0)
        out.append(_ranges_per_code(trunk[at], ports.ravel()[at], len(mids.trunk_ids)))
    return tuple(out)


def _ranges_per_code(codes: np.ndarray, ports: np.ndarray, n: int) -> list[str | None]:
    """Per code, its distinct ports as runs: [1, 2, 3, 7] -> "R1-R3,R7" (None: no port)."""
    out: list[str | None] = [None] * n
    if not len(codes):
        return out
    # Each (code, port) pair once, by code then port: the distinct keys of both, ascending
    # (a lexsort's two stable passes and a mask were ~0.1 s per end at zoned XL)
    low = int(ports.min())
    span = int(ports.max()) - low + 1
    pairs = unique_sorted(codes.astype(np.int64) * span + (ports - low))
    codes, ports = pairs // span, pairs % span + low
    new_code = np.r_[True, codes[1:] != codes[:-1]]
    starts = np.flatnonzero(new_code | np.r_[True, ports[1:] != ports[:-1] + 1])
    ends = np.r_[starts[1:], len(ports)] - 1
    # Each run's text from its ends' texts (a port number formatted once), and each code's
    # runs joined by one join of them all, a line break closing a code's (~0.3 M runs at
    # zoned XL, a third of the trunks several: a text per run and a join per code were
    # ~0.1 s per end)
    number, at = unique_inverse(np.r_[ports[starts], ports[ends]])
    text = np.array([f"R{p}" for p in number.tolist()], dtype=object)
    lo, hi = at[: len(starts)], at[len(starts) :]
    runs = text[lo]
    wide = np.flatnonzero(lo != hi)
    runs[wide] = runs[wide] + ("-" + text[hi[wide]])
    run_code = codes[starts]
    last = np.r_[run_code[1:] != run_code[:-1], True]
    pieces = np.empty(2 * len(runs), dtype=object)
    pieces[0::2] = runs
    pieces[1::2] = np.array([",", "\n"], dtype=object)[last.view(np.int8)]
    joined = np.empty(int(last.sum()), dtype=object)
    joined[:] = "".join(pieces.tolist()).split("\n")[:-1]
    cells = np.full(n, None, dtype=object)
    cells[run_code[last]] = joined
    return cells.tolist()
