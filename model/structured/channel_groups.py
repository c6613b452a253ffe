"""Step 1 of the structured layout: the channels grouped by path, mode and connector, as columns.

Every link on a module medium (:func:`model.structured.channels.plant_fibres`) is a *member*
row of :class:`ChannelColumns`; a group is the rows (a link repeated once per cassette port it
takes) whose channels pass the same racks' panels with the same mode and connector. A zoned XL
hall has 393k members on a few thousand paths: the racks, medium and order of ends of every
member are integer codes, the paths are worked out once per (racks, medium) *kind*, and the
groups are one stable sort of the members by their path's number, so the members of a group
stay in the plant's link order, as they were appended link by link before (the oracle in
tests/model/structured_layout_oracle.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter

import numpy as np

from model.common.findings import Finding
from model.design.bulk_load import loaded_link_codes
from model.design.structured_edit import panel_types
from model.engine.cages import CAGE_STRIDE
from model.structured.channels import CONNECTOR_FAMILY, FibreTable, fibre_rows
from model.structured.paths import style_path, zone_hubs

_PORT_A, _PORT_B = attrgetter("a.port"), attrgetter("b.port")


class ChannelColumns:
    """Per member row (a link on a module medium, in the plant's order): what the legs and
    cords read. ``horizontal`` stays a list of Python floats: a leg's segment length is one."""

    __slots__ = (
        "link_ids",
        "up_a",
        "horizontal",
        "up_b",
        "end_key",
        "fibres",
        "medium",
        "media",
        "_id_array",
    )

    def __init__(self, link_ids, up_a, horizontal, up_b, end_key, fibres, medium, media) -> None:
        self.link_ids: list[str] = link_ids
        self.up_a: np.ndarray = up_a  # float64: the link's vertical at its A end (m)
        self.horizontal: list[float] = horizontal  # its horizontal route between its racks (m)
        self.up_b: np.ndarray = up_b
        # int64: the order of the link's two ends (device, port), lowest first, as integers:
        # the legs of a group are laid in this order (equal keys: the same two ends).
        self.end_key: np.ndarray = end_key
        self.fibres: np.ndarray = fibres  # int64: fibres (pairs) per port of its medium
        self.medium: np.ndarray = medium  # int64: its medium's number in ``media``
        self.media: list[str] = media  # medium ids, by number
        self._id_array: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.link_ids)

    def link_ids_at(self, rows: np.ndarray) -> list[str]:
        """The link ids of member ``rows``: a gather from an object array of ``link_ids``,
        made once for the columns (the trunks' links and the cords each gather ~393k at zoned
        XL; the array, made for each, was a third of a gather)."""
        if self._id_array is None:
            self._id_array = np.asarray(self.link_ids, dtype=object)
        return self._id_array[rows].tolist()


class PortRanks:
    """The port ranks :func:`group_channels` worked out from the links last (not from the
    loader's codes), kept for the next layout of the same design (an editor's analysis):
    while its links are the same records in the same order, so are their ports' ranks."""

    def __init__(self) -> None:
        self.links: list = []
        self.ranks: tuple = ()


class KeptGroups:
    """The last :func:`group_channels` of a design (an editor's analysis lays it out after every
    edit), kept for the next: while what the groups are made of stands — the links (the same
    records: ends, ports, vias), the devices (their racks), the members' devices and media, the
    media's fibres, the style and the zone hubs — the groups, the members' end keys and racks
    are the last ones (a rack move changes only lengths and routes; regrouping 393k members
    and reading their ports was ~0.15 s of a zoned XL layout). The routes' lengths are read
    anew every time. ``reused``: whether the last call kept the groups."""

    def __init__(self) -> None:
        self.ranks = PortRanks()  # the port ranks, while the links stand (kept on their own)
        self.reused = False
        self._inputs: tuple | None = None  # what the kept groups were made of
        self._made: tuple | None = None  # (groups, end key, rack A, rack B, rack ids)
        self._routes: tuple = ()  # (the members' horizontal lengths, the route links of them)

    def made_of(self, inputs: tuple) -> tuple | None:
        """The kept (groups, end key, rack A, rack B, rack ids) when they were made of inputs
        equal to ``inputs`` (see :func:`_group_inputs`), else None (and nothing is kept)."""
        kept = self._inputs
        self.reused = kept is not None and _same_inputs(kept, inputs)
        if not self.reused:
            self._inputs = self._made = None  # not held while the next are made
        return self._made

    def keep(self, inputs: tuple, made: tuple, horizontal: np.ndarray, route_of: dict) -> None:
        """Keep the groups made of ``inputs`` and the route links of these lengths."""
        self._inputs, self._made = inputs, made
        self._routes = (horizontal, route_of)

    def route_links(self, link_ids, horizontal, rack_a, rack_b, rack_ids) -> dict:
        """:func:`_route_links` of the kept groups' members at lengths ``horizontal``: the
        last ones but for the rack pairs a member of which changed its length (bit for bit),
        chosen again among their members only (each pair's choice reads its own links)."""
        kept_h, kept_route_of = self._routes
        changed = np.flatnonzero(kept_h.view(np.int64) != horizontal.view(np.int64))
        self._routes = (horizontal, kept_route_of)
        if not len(changed):
            return kept_route_of
        n_racks = len(rack_ids)
        pair = rack_a * n_racks + rack_b
        again = np.isin(pair, pair[changed])
        # The other members as within one rack: no pair of theirs is chosen.
        route_of = dict(kept_route_of)
        route_of.update(
            _route_links(link_ids, horizontal, rack_a, np.where(again, rack_b, rack_a), rack_ids)
        )
        self._routes = (horizontal, route_of)
        return route_of


def group_channels(
    plant,
    direct: Mapping,
    fpp_of: dict,
    findings: list[Finding],
    kept: KeptGroups | None = None,
) -> tuple[dict[tuple, np.ndarray], ChannelColumns, dict[tuple[str, str], str]]:
    """The channels of ``direct``'s links grouped by path (racks and named panels), mode and
    connector: (per group key, its member rows; the members' columns; per rack pair, the link
    whose tray route a trunk between those racks follows). ``kept``: the last layout's groups
    and port ranks of this design, reused while what they are made of stands (and refilled)."""
    design = plant.design
    # A FibreTable's own list (read only here): the cords then know each member's fibre row.
    link_ids = direct.link_ids if isinstance(direct, FibreTable) else list(direct)
    n = len(link_ids)
    rows = fibre_rows(plant)  # the rows of direct's links, as plant_fibres chose them
    ids = plant.link_ids
    if len(rows) != n or (n and (ids[rows[0]], ids[rows[-1]]) != (link_ids[0], link_ids[-1])):
        # Another choice of links than plant_fibres': found by id.
        rows = np.fromiter(map(plant.index.__getitem__, link_ids), np.int64, n)
    up_a, horizontal, up_b = plant.pieces_arrays(rows)
    medium = np.asarray(plant.medium_index, dtype=np.int64)[rows]
    media = [m.id for m in plant.media]
    fpp = np.asarray([fpp_of.get(m, 1) for m in media], dtype=np.int64)
    # Each end's device and rack from the plant's cage keys (device number * CAGE_STRIDE +
    # cage): the devices numbered in the order of their ids, so ends compare as (device, port).
    dev_a = np.asarray(plant.cage_a, dtype=np.int64)[rows] // CAGE_STRIDE
    dev_b = np.asarray(plant.cage_b, dtype=np.int64)[rows] // CAGE_STRIDE
    # Per medium of a member: its fibre's mode and connector (a medium's fibre part sets them).
    used, first = _first_of_each(medium)
    # (A FibreTable's fibre by its row: by id, it would make its 393k-link index at XL.)
    fibre_at = direct.fibre if isinstance(direct, FibreTable) else lambda r: direct[link_ids[r]]
    fibre_of = {m: fibre_at(r) for m, r in zip(used.tolist(), first.tolist(), strict=True)}
    inputs = None
    if kept is not None and not design.links_via_panels():  # a via's findings are made anew
        inputs = _group_inputs(plant, link_ids, (medium, media, fpp), dev_a, dev_b, fibre_of)
        made = kept.made_of(inputs)
        if made is not None:
            pieces = (up_a, horizontal, up_b)
            return _as_kept(kept, made, link_ids, pieces, (fpp[medium], medium, media))
    device_ids = plant.cage_device_ids
    dev_rank = np.empty(len(device_ids), dtype=np.int64)
    dev_rank[sorted(range(len(device_ids)), key=device_ids.__getitem__)] = np.arange(
        len(device_ids)
    )
    devices = design.devices
    rack_ids = sorted({devices[d].rack for d in device_ids if d in devices})
    rack_no = {r: i for i, r in enumerate(rack_ids)}
    dev_rack = np.asarray(
        [rack_no[devices[d].rack] if d in devices else -1 for d in device_ids], dtype=np.int64
    )
    rack_a, rack_b = dev_rack[dev_a], dev_rack[dev_b]
    # The plant routes a link within its rack exactly where its two devices' racks are one
    # (model.engine.geometry.compose_lengths' "same-rack"): such a channel has no panel.
    same_rack = rack_a == rack_b
    ranks = _port_ranks(plant, rows, link_ids, kept.ranks if kept is not None else None)
    end_key = _end_key(dev_rank[dev_a], dev_rank[dev_b], *ranks)
    route_of = _route_links(link_ids, horizontal, rack_a, rack_b, rack_ids)
    cols = ChannelColumns(
        link_ids,
        up_a,
        horizontal.tolist(),
        up_b,
        end_key,
        fpp[medium],
        medium,
        media,
    )
    lc = {m: CONNECTOR_FAMILY.get(f.connector) == "LC" for m, f in fibre_of.items()}
    ports = np.asarray([fpp[m] if lc.get(m) else 1 for m in range(len(media))], dtype=np.int64)
    groups: dict[tuple, np.ndarray] = {}
    styled = ~same_rack
    via = design.links_via_panels()
    if via:
        ptypes = panel_types(design)
        by_hand: dict[tuple, list[int]] = {}
        for r in [r for r, link_id in enumerate(link_ids) if link_id in via]:
            link_id = link_ids[r]
            nodes = _via_nodes(design, link_id, design.links[link_id].via, ptypes, findings)
            if not nodes:
                continue  # no (valid) panels named: the style's own path
            styled[r] = False
            fibre = direct[link_id]
            racks = (rack_ids[rack_a[r]], rack_ids[rack_b[r]])
            key = (tuple(nodes), *racks, fibre.mode, fibre.connector)
            by_hand.setdefault(key, []).extend([r] * int(ports[medium[r]]))
        groups.update((key, np.asarray(rows, dtype=np.int64)) for key, rows in by_hand.items())
    members = np.flatnonzero(styled)
    _style_groups(design, groups, members, (rack_a, rack_b), medium, ports, rack_ids, fibre_of)
    if inputs is not None and kept is not None:
        kept.keep(inputs, (dict(groups), end_key, rack_a, rack_b, rack_ids), horizontal, route_of)
    return groups, cols, route_of


def _as_kept(kept: KeptGroups, made: tuple, link_ids: list[str], pieces: tuple, media: tuple):
    """:func:`group_channels`' answer from the ``kept`` groups (``made``) at the members'
    lengths now (``pieces``: vertical A, horizontal, vertical B; ``media``: fibres per port,
    medium number and medium ids)."""
    groups, end_key, rack_a, rack_b, rack_ids = made
    up_a, horizontal, up_b = pieces
    route_of = kept.route_links(link_ids, horizontal, rack_a, rack_b, rack_ids)
    columns = ChannelColumns(link_ids, up_a, horizontal.tolist(), up_b, end_key, *media)
    return dict(groups), columns, route_of  # the caller's own dict: the layout clears it


def _first_of_each(medium: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(medium, return_index=True)``: the media used, ascending, and the first row
    of each; counted and searched per medium (a few) rather than a sort of 393k rows."""
    if not len(medium) or medium.min() < 0:
        return np.unique(medium, return_index=True)
    used = np.flatnonzero(np.bincount(medium))
    first = np.asarray([int(np.argmax(medium == m)) for m in used.tolist()], dtype=np.int64)
    return used, first


def _group_inputs(plant, link_ids, media_columns, dev_a, dev_b, fibre_of) -> tuple:
    """What :func:`group_channels` makes the groups, end keys and racks of (with no link routed
    via panels), compared by :func:`_same_inputs` with the last: the link and device records
    as lists (after a rack move the same records: one pointer each to compare)."""
    design = plant.design
    style = design.settings.cabling
    medium, media, fpp = media_columns
    return (
        style,
        zone_hubs(design) if style == "zones" else {},
        list(design.links.values()),
        list(design.devices.values()),
        list(plant.cage_device_ids),
        list(link_ids),  # a copy: the caller's list is no record of what was grouped
        list(media),
        fpp,
        medium,
        dev_a,
        dev_b,
        {m: (fibre.mode, fibre.connector) for m, fibre in fibre_of.items()},  # not its length
    )


def _same_inputs(kept: tuple, now: tuple) -> bool:
    """Whether two :func:`_group_inputs` are equal (the arrays element by element)."""
    return all(
        np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
        for a, b in zip(kept, now, strict=True)
    )


def _style_groups(design, groups, members, racks, medium, ports, rack_ids, fibre_of) -> None:
    """The groups of ``members`` (rows on no panels named by hand, not within one rack) on the
    style's own path, added to ``groups``: each (racks, medium) kind's path found once."""
    style = design.settings.cabling
    hubs = zone_hubs(design) if style == "zones" else {}
    rack_a, rack_b = racks[0][members], racks[1][members]
    n_racks, n_media = len(rack_ids), len(ports)
    kind = (rack_a * n_racks + rack_b) * n_media + medium[members]
    kinds, kind_of = _unique_inverse(kind)
    group_of_kind = np.full(len(kinds), -1, dtype=np.int64)
    keys: dict[tuple, int] = {}
    for k, code in enumerate(kinds.tolist()):
        pair, m = divmod(code, n_media)
        a, b = (rack_ids[i] for i in divmod(pair, n_racks))
        path = style_path(style, a, b, hubs)
        if path:
            fibre = fibre_of[m]
            key = (tuple((r, "") for r in path), a, b, fibre.mode, fibre.connector)
            group_of_kind[k] = keys.setdefault(key, len(keys))
    group = group_of_kind[kind_of.reshape(-1)]
    on_path = group >= 0
    members, group = members[on_path], group[on_path]
    members = members[np.argsort(group, kind="stable")]  # each group's members in link order
    bounds = np.cumsum(np.bincount(group, minlength=len(keys)))
    # A member on several cassette ports is repeated once per port; whether a group has any
    # is read off a running count, not worked out group by group (~7k groups at zoned XL).
    times = ports[medium[members]]
    running = np.concatenate([[0], np.cumsum(times != 1)])[bounds]
    repeated = np.diff(running, prepend=0).tolist()
    start = 0
    for key, end, several in zip(keys, bounds.tolist(), repeated, strict=True):
        rows = members[start:end]
        groups[key] = np.repeat(rows, times[start:end]) if several else rows
        start = end


def _unique_inverse(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` by a stable argsort: the members come in
    the plant's order, which is mostly their kinds' (a generated hall's links run rack by
    rack), and a stable sort of nearly sorted int64 is ~10x quicker than the quicksort
    ``np.unique`` does (~2 vs ~24 ms for a zoned XL hall's 393k members)."""
    if not len(values):
        return np.unique(values, return_inverse=True)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.empty(len(values), dtype=bool)
    starts[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    inverse = np.empty(len(values), dtype=np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return ordered[starts], inverse


def _end_key(
    rank_a: np.ndarray, rank_b: np.ndarray, port_a: np.ndarray, port_b: np.ndarray, n_ports: int
) -> np.ndarray:
    """Per link, its two ends (device, port) lowest first as one integer of the same order:
    ``rank_a``/``rank_b``, its devices' places in the order of device ids; ``port_a``/
    ``port_b``, its ports' places (below ``n_ports``) in the order of port names."""
    end_a = rank_a * n_ports + port_a
    end_b = rank_b * n_ports + port_b
    # The key only orders the members (and equal keys are the same two ends), so the ends'
    # own numbers serve when the pair's key (low * ends + high) stays far within int64: a
    # dense renumbering (np.unique of 786k ends, ~0.08 s of a zoned XL layout) is needed only
    # for a design whose devices times ports pass 2**31 (the same order either way).
    n_ends = int(max(end_a.max(initial=0), end_b.max(initial=0))) + 1
    if n_ends < 2**31:
        return np.minimum(end_a, end_b) * n_ends + np.maximum(end_a, end_b)
    ends, number = np.unique(np.concatenate([end_a, end_b]), return_inverse=True)
    number = number.reshape(-1)
    a, b = number[: len(rank_a)], number[len(rank_a) :]
    return np.minimum(a, b) * len(ends) + np.maximum(a, b)


def _port_ranks(
    plant, rows: np.ndarray, link_ids: list[str], kept: PortRanks | None = None
) -> tuple:
    """Per link of ``link_ids`` (plant ``rows``): its A and B port's place in the order of port
    names, and how many places there are. From the loader's port codes while the design is
    unedited and the plant's rows are its links in order (a gather; reading the ports of 393k
    links and numbering them was ~0.25 s of a zoned XL layout), else from the links: those
    ``kept`` when the links are equal to the ones it kept them for (the same records after a
    rack move: compared by identity first, one pointer each), else numbered now."""
    design = plant.design
    codes = loaded_link_codes(design)
    if codes is not None and len(plant.link_ids) == codes.link_count:
        if plant.link_ids == list(design.links):
            names = codes.port_names
            rank = np.empty(len(names), dtype=np.int64)
            rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
            port = codes.port
            return rank[port[rows]], rank[port[codes.link_count + rows]], len(names)
    links = list(map(design.links.__getitem__, link_ids))
    if kept is not None and kept.links == links:
        return kept.ranks
    port_a, port_b = list(map(_PORT_A, links)), list(map(_PORT_B, links))
    port_no = {p: i for i, p in enumerate(sorted({*port_a, *port_b}))}
    ranks = (
        np.fromiter(map(port_no.__getitem__, port_a), np.int64, len(links)),
        np.fromiter(map(port_no.__getitem__, port_b), np.int64, len(links)),
        len(port_no),
    )
    if kept is not None:
        kept.links, kept.ranks = links, ranks
    return ranks


def _route_links(link_ids, horizontal, rack_a, rack_b, rack_ids) -> dict[tuple[str, str], str]:
    """Per rack pair (A, B) of the links between two racks: the link whose tray route a trunk
    between those racks follows, the longest (horizontal, then the greatest id), so the trunk's
    tray fill follows the farthest-reaching route."""
    inter = np.flatnonzero(rack_a != rack_b)
    if not len(inter):
        return {}
    h = horizontal[inter]
    if np.isnan(h).any():  # NaN compares false both ways: the first met wins, as link by link
        best: dict[tuple[str, str], tuple[float, str]] = {}
        for r in inter.tolist():
            pair = (rack_ids[rack_a[r]], rack_ids[rack_b[r]])
            candidate = (float(horizontal[r]), link_ids[r])
            if pair not in best or candidate > best[pair]:
                best[pair] = candidate
        return {pair: got[1] for pair, got in best.items()}
    # By pair, then horizontal: each pair's last is its longest. Only links tied with it
    # there need their ids compared (Python's str order, the greatest wins): not a rank of
    # every id (a numpy string array of 393k ids at zoned XL was half of this function).
    pair = rack_a[inter] * len(rack_ids) + rack_b[inter]
    order = _by_pair_then_length(pair, h)
    pair, h, rows = pair[order], h[order], inter[order]
    n = len(rows)
    last = np.flatnonzero(np.append(pair[1:] != pair[:-1], True))
    tie_start = np.append(True, (pair[1:] != pair[:-1]) | (h[1:] != h[:-1]))
    first = np.maximum.accumulate(np.where(tie_start, np.arange(n), 0))[last]
    chosen = list(map(link_ids.__getitem__, rows[last].tolist()))
    tied = np.flatnonzero(first != last)
    # Ties (a pair's links are mostly one route, one length): the greatest id of the tied
    # rows, by ``max`` over a slice of the ids where the rows are consecutive ones (the
    # sort keeps the plant's order within a tie), not a key call per row (~0.03 s at zoned XL).
    lo, hi = rows[first[tied]], rows[last[tied]]
    in_a_row = (hi - lo == last[tied] - first[tied]).tolist()
    for k, row_lo, row_hi, consecutive in zip(
        tied.tolist(), lo.tolist(), hi.tolist(), in_a_row, strict=True
    ):
        if consecutive:
            chosen[k] = max(link_ids[row_lo : row_hi + 1])
        else:
            chosen[k] = max(map(link_ids.__getitem__, rows[first[k] : last[k] + 1].tolist()))
    names = rack_ids
    ends = rows[last]
    return {
        (names[a], names[b]): link_id
        for a, b, link_id in zip(rack_a[ends].tolist(), rack_b[ends].tolist(), chosen, strict=True)
    }


def _by_pair_then_length(pair: np.ndarray, h: np.ndarray) -> np.ndarray:
    """``np.lexsort((h, pair))`` (no NaN in ``h``): a stable sort by pair alone is that order
    when each pair's lengths already rise in it (a pair's links mostly share one route: all
    of a zoned XL hall's do), and the links come nearly in pair order, which a stable sort
    takes in ~2 ms where the two-key sort took ~11."""
    order = np.argsort(pair, kind="stable")
    by_pair, length = pair[order], h[order]
    same = by_pair[1:] == by_pair[:-1]
    if np.all(length[1:][same] >= length[:-1][same]):
        return order
    return np.lexsort((h, pair))


def _via_nodes(
    design, link_id: str, via: tuple[str, ...], ptypes, findings: list[Finding]
) -> list[tuple[str, str]]:
    """(rack, panel) of each panel a link is routed via; a VIA_PANEL_MISSING per one that is not."""
    nodes = []
    for panel_id in via:
        panel = design.devices.get(panel_id)
        if panel is None or panel.type not in ptypes:
            findings.append(
                Finding(
                    code="VIA_PANEL_MISSING",
                    severity="warning",
                    message=f"link {link_id}: routed via {panel_id}, which is not a "
                    "patch panel of the design; the channel skips it",
                    objects=(link_id,),
                )
            )
            continue
        nodes.append((panel.rack, panel_id))
    return nodes
