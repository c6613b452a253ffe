"""Findings and the ``channels`` summary of a set of optical channels (loss, reach, polarity).

Codes (each names the link first, then the channel's elements, so the editor selects them):

* ``CHANNEL_LOSS_OVER_BUDGET`` (warning): insertion loss above the medium's channel limit.
* ``CHANNEL_TOO_MANY_PANELS`` (warning): more patch points than the medium's panel rule allows
  (NV-STRUCT: 100G-lane multimode with up to two patch panels).
* ``CHANNEL_REACH_EXCEEDED`` (warning): a channel with panels longer than the paneled reach
  (NV-STRUCT: 50 m on OM4).
* ``POLARITY_MISMATCH`` (warning): a transmit lane does not land on its receive lane; the
  message names the element to change.
* ``CHANNEL_LIMIT_UNKNOWN`` (info): the catalog has no channel limit for the medium.
* ``TWIN_PORT_SKEW`` (warning): the two fibres of one twin-MPO port differ in length beyond
  the skew rule (:func:`skew_findings`).
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

import numpy as np

from model.catalog.structured import SkewRule, StructuredCatalog, structured_catalog
from model.common.findings import Finding, sort_findings
from model.structured.channel_table import ChannelTable
from model.structured.channels import Channel, FibreTable, direct_channel, loss_budget
from model.structured.polarity import check_polarity


def _objects(channel: Channel) -> tuple[str, ...]:
    return (channel.link_id, *(e.object_id for e in channel.elements))


def channel_checks(
    channels: Iterable[Channel], catalog: StructuredCatalog | None = None
) -> tuple[dict, list[Finding]]:
    """(:func:`channel_summary`, :func:`channel_findings`) of the same channels, each channel's
    loss budget and polarity worked out once for both (a zoned XL hall's 393k channels: the
    two passes of each were ~3 s of its analysis)."""
    catalog = catalog or structured_catalog()
    channels = list(channels)
    budgets = [loss_budget(c, catalog) for c in channels]
    polarity = [check_polarity(c) for c in channels]
    return (
        _summary(channels, budgets, polarity),
        _findings(channels, budgets, polarity),
    )


def channel_findings(
    channels: Iterable[Channel], catalog: StructuredCatalog | None = None
) -> list[Finding]:
    """The findings of every channel (see the module docstring for the codes)."""
    return channel_checks(channels, catalog)[1]


def channel_summary(channels: Iterable[Channel], catalog: StructuredCatalog | None = None) -> dict:
    """The ``channels`` section of ``analyze --json``."""
    return channel_checks(channels, catalog)[0]


def _summary(channels: list[Channel], budgets: list, polarity: list) -> dict:
    # A channel whose length is unknown (a cord no length orders, CORD_NOT_ORDERABLE) has an
    # unknown (NaN) loss and margin: left out of the worst figures.
    margins = [
        b.margin_db for b in budgets if b.margin_db is not None and b.margin_db == b.margin_db
    ]
    return {
        "total": len(channels),
        "max_loss_db": round(
            max((b.loss_db for b in budgets if b.loss_db == b.loss_db), default=0.0), 3
        ),
        "min_margin_db": round(min(margins), 3) if margins else None,
        "over_budget": sum(1 for b in budgets if b.over_budget),
        "polarity_errors": sum(1 for p in polarity if not p.ok),
    }


def _findings(channels: list[Channel], budgets: list, polarities: list) -> list[Finding]:
    out: list[Finding] = []
    for channel, budget, polarity in zip(channels, budgets, polarities, strict=True):
        _channel_findings(channel, budget, polarity, out)
    return sort_findings(out)


def _channel_findings(channel: Channel, budget, polarity, out: list[Finding]) -> None:
    """Append the findings of one channel to ``out``."""
    # The objects tuple made only for a finding: most of 393k channels have none.
    if budget.limit_db is None:
        out.append(
            Finding(
                code="CHANNEL_LIMIT_UNKNOWN",
                severity="info",
                message=f"link {channel.link_id}: no channel loss limit for "
                f"{channel.medium} in the catalog; loss {budget.loss_db:.2f} dB unchecked",
                objects=_objects(channel),
            )
        )
    elif budget.over_budget:
        out.append(
            Finding(
                code="CHANNEL_LOSS_OVER_BUDGET",
                severity="warning",
                message=f"link {channel.link_id}: channel loss {budget.loss_db:.2f} dB "
                f"({len(budget.mated_pairs)} mated pairs {budget.connectors_db:.2f} dB + "
                f"{channel.length_m:g} m fibre {budget.fibre_db:.2f} dB) exceeds the "
                f"{channel.medium} limit {budget.limit_db:.2f} dB by "
                f"{-budget.margin_db:.2f} dB",
                objects=_objects(channel),
            )
        )
    if budget.max_panels is not None and channel.panels > budget.max_panels:
        out.append(
            Finding(
                code="CHANNEL_TOO_MANY_PANELS",
                severity="warning",
                message=f"link {channel.link_id}: {channel.panels} patch points; "
                f"{channel.medium} allows at most {budget.max_panels}",
                objects=_objects(channel),
            )
        )
    if budget.reach_m is not None and channel.length_m > budget.reach_m + 1e-9:
        out.append(
            Finding(
                code="CHANNEL_REACH_EXCEEDED",
                severity="warning",
                message=f"link {channel.link_id}: {channel.length_m:g} m through "
                f"{channel.panels} panel(s); {channel.medium} reaches {budget.reach_m:g} m "
                "with panels",
                objects=_objects(channel),
            )
        )
    if not polarity.ok:
        culprit = channel.elements[polarity.fix[0]].object_id if polarity.fix else None
        named = (channel.link_id, culprit) if culprit else _objects(channel)
        out.append(
            Finding(
                code="POLARITY_MISMATCH",
                severity="warning",
                message=polarity.message(channel),
                objects=named,
            )
        )


class ShapeGroups:
    """The last :func:`table_checks`' groups of channels through panels, kept for the next
    table of the same design (an editor's analysis): while every such channel has the same
    (shape, port, medium) key as then, in the same rows, the groups are the same rows (a
    rack move changes lengths only; the unique, sort and split of 393k keys were ~0.06 s of
    a zoned XL report). ``reused``: whether the last table's groups were the kept ones."""

    def __init__(self) -> None:
        self.reused = False
        self._key: np.ndarray | None = None  # per checked row, its group's key
        self._rows: np.ndarray | None = None  # the rows checked (no polarity record)
        self._groups: list[tuple[np.ndarray, list[int]]] = []  # members, as array and list

    def groups(self, rows: np.ndarray, key: np.ndarray) -> list[tuple[np.ndarray, list[int]]]:
        """:func:`_shape_groups` of ``rows`` by ``key``: the kept ones when both are equal."""
        last_key, last_rows = self._key, self._rows
        self.reused = (
            last_key is not None
            and last_rows is not None
            and np.array_equal(last_key, key)
            and np.array_equal(last_rows, rows)
        )
        if not self.reused:
            self._groups = []  # not held while the next are made
            self._key, self._rows, self._groups = key, rows, _shape_groups(rows, key)
        return self._groups


def table_checks(
    table: ChannelTable,
    catalog: StructuredCatalog | None = None,
    kept: ShapeGroups | None = None,
) -> tuple[dict, list]:
    """:func:`channel_checks` of every channel of a layout's table, worked out on its columns.

    A channel's checks depend on its medium, its shape (each element's kind, part, polarity,
    port and direction) and its length, and only the length differs between the channels of
    one shape: the legs of one path share a shape (:meth:`ChannelTable.add_legs`), and a
    cassette leg's channels differ in their port. So each (shape, port, medium) group is
    checked once on one of its channels, the loss and margin of all its channels are worked
    out as arrays in :func:`~model.structured.channels.loss_budget`'s float operations and order (the
    same figures to the bit), and a channel is made only when it has a finding. A channel
    with a polarity record is made and checked alone. At zoned XL: 393k channels in well under
    a second instead of ~3.5 s made and checked one by one. ``kept``: the groups of this
    design's last table, reused while its channels' keys stand (an editor's analysis)."""
    catalog = catalog or structured_catalog()
    singles = [table.row_channel(row) for row in table.rows_of(table.records)]
    budgets = [loss_budget(c, catalog) for c in singles]
    polarities = [check_polarity(c) for c in singles]
    flagged = [(c, b, p) for c, b, p in zip(singles, budgets, polarities, strict=True)]
    losses = [np.asarray([b.loss_db for b in budgets])]
    margins = [np.asarray([b.margin_db for b in budgets if b.margin_db is not None])]
    over = sum(1 for b in budgets if b.over_budget)
    polarity_errors = sum(1 for p in polarities if not p.ok)
    for make, lengths in _groups(table, kept):
        channel = make(0)
        budget = loss_budget(channel, catalog)
        polarity = check_polarity(channel)
        fibre = lengths / 1000.0 * catalog.attenuation_db_per_km[channel.mode]
        loss = budget.connectors_db + fibre
        losses.append(loss)
        bad = np.zeros(len(lengths), dtype=bool)
        if budget.limit_db is None:
            bad[:] = True
        else:
            margin = budget.limit_db - loss
            margins.append(margin)
            bad |= margin < -1e-9
            over += int(np.count_nonzero(margin < -1e-9))
        if budget.max_panels is not None and channel.panels > budget.max_panels:
            bad[:] = True
        if budget.reach_m is not None:
            bad |= lengths > budget.reach_m + 1e-9
        if not polarity.ok:
            bad[:] = True
            polarity_errors += len(lengths)
        for k in np.flatnonzero(bad).tolist():
            c = make(k)
            flagged.append((c, loss_budget(c, catalog), check_polarity(c)))
    loss_all = np.concatenate(losses)
    loss_all = loss_all[~np.isnan(loss_all)]  # unknown lengths left out, as by _summary
    margin_all = np.concatenate(margins)
    margin_all = margin_all[~np.isnan(margin_all)]
    summary = {
        "total": len(table),
        "max_loss_db": round(float(loss_all.max()) if len(loss_all) else 0.0, 3),
        "min_margin_db": round(float(margin_all.min()), 3) if len(margin_all) else None,
        "over_budget": over,
        "polarity_errors": polarity_errors,
    }
    # In the table's order, as channel_checks lists them (sort_findings keeps equal keys so).
    position = {link_id: k for k, link_id in enumerate(table)} if flagged else {}
    flagged.sort(key=lambda f: position[f[0].link_id])
    out: list[Finding] = []
    for channel, budget, polarity in flagged:
        _channel_findings(channel, budget, polarity, out)
    return summary, sort_findings(out)


def _groups(table: ChannelTable, kept: ShapeGroups | None = None):
    """(a function making the group's k-th channel, the group's channel lengths) per group of
    channels that share a medium and a shape, the channels with a polarity record left out
    (``kept``: the last table's groups through panels, see :class:`ShapeGroups`)."""
    fibres = table.fibres
    # A FibreTable's columns as they are, its index by link id made only if it is looked up
    # (393k links at zoned XL: ~0.1 s that the cords' rows mostly make needless).
    if isinstance(fibres, FibreTable):
        link_ids, medium_of, length_of = fibres.link_ids, fibres.medium, fibres.length_m
        row_of = None
    else:
        link_ids, medium_of, length_of, row_of = _fibre_columns(fibres)
    # Each channel's row of the fibres: as the cords were laid, else a look-up per channel.
    if table.fibre_rows is not None and len(table.fibre_rows) == len(table.link_ids):
        fibre_row = table.column("fibre_rows", np.int64)
    else:
        index = row_of if row_of is not None else fibres.row_of  # type: ignore[attr-defined]
        fibre_row = np.fromiter(
            map(index.__getitem__, table.link_ids), np.int64, len(table.link_ids)
        )
    # Direct channels: one cord at the fibre's length, a group per medium, the media in the
    # order their first link comes, each group's links in order.
    through = np.zeros(len(link_ids), dtype=bool)
    through[fibre_row] = True
    direct = np.flatnonzero(~through)
    media, first = np.unique(medium_of[direct], return_index=True)
    for m in media[np.argsort(first)].tolist():
        rows = direct[medium_of[direct] == m]
        if row_of is None:  # a FibreTable: the k-th channel made from its row
            row_list = rows.tolist()
            yield (
                (
                    lambda k, rows=row_list: direct_channel(
                        link_ids[rows[k]],
                        *fibres.fibre(rows[k]),  # type: ignore[attr-defined]
                    )
                ),
                length_of[rows] + 0,
            )
            continue
        links = [link_ids[r] for r in rows.tolist()]
        yield (lambda k, links=links: table[links[k]]), length_of[rows] + 0
    if not table.link_ids:
        return
    # Channels through panels: the length in Channel.length_m's order (cord, then each trunk
    # of the leg, then cord; a panel's 0.0 adds nothing), as arrays.
    # The columns' arrays as the table keeps them (shared with the last layout's where the
    # columns are the same: a rack move changes a few cords' and legs' lengths).
    legs = table.column("legs", np.int64)
    length = table.column("cord_a_m", np.float64) + 0
    columns = table.derived.get("trunk_columns")
    if columns is None:
        columns = table.derived["trunk_columns"] = _trunk_columns(table.leg_trunk_m)
    for column in columns:
        length = length + column[legs]
    length = length + table.column("cord_b_m", np.float64)
    medium = medium_of[fibre_row]
    shape = table.column("leg_shape", np.int64)[legs]
    cassettes = table.column("leg_cassettes", np.bool_)
    port = np.where(cassettes[legs], table.column("ports", np.int64), 0)
    keep = np.ones(len(legs), dtype=bool)
    keep[table.rows_of(table.records)] = False
    rows = np.flatnonzero(keep)
    # One integer per (shape, port, medium): a 1-D unique (an axis-0 unique of three columns
    # sorts rows as records, several times slower).
    n_ports, n_media = int(port.max(initial=0)) + 1, int(medium_of.max(initial=0)) + 2
    key = (shape[rows] * n_ports + port[rows]) * n_media + medium[rows]
    groups = kept.groups(rows, key) if kept is not None else _shape_groups(rows, key)
    for members, members_list in groups:
        yield (lambda k, m=members_list: table.row_channel(m[k])), length[members]


def _shape_groups(rows: np.ndarray, key: np.ndarray) -> list[tuple[np.ndarray, list[int]]]:
    """``rows`` grouped by ``key`` (the groups in key order, each group's rows in order), each
    group's rows as an array and as a list."""
    # One stable sort of the keys: equal keys adjacent in key order, each group's rows in
    # order (a unique's inverse sorted again was a second sort of 393k at zoned XL).
    by_key = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[by_key])) + 1
    return [(m, m.tolist()) for m in np.split(rows[by_key], bounds) if len(m)]


def _trunk_columns(leg_trunk_m: list[tuple[float, ...]]) -> list[np.ndarray]:
    """Per segment s, each leg's s-th trunk length (0.0 where the leg has fewer trunks), as
    float64 columns: read with itemgetter over the legs that have one, in C (a zoned XL
    hall's 393k legs of up to three trunks were a Python comprehension per segment)."""
    n = len(leg_trunk_m)
    n_trunks = np.fromiter(map(len, leg_trunk_m), np.int64, n)
    out = []
    for s in range(int(n_trunks.max(initial=0))):
        column = np.zeros(n, dtype=np.float64)
        has = np.flatnonzero(n_trunks > s)
        legs = leg_trunk_m if len(has) == n else [leg_trunk_m[k] for k in has.tolist()]
        column[has] = np.fromiter(map(itemgetter(s), legs), np.float64, len(has))
        out.append(column)
    return out


def _fibre_columns(fibres) -> tuple[list[str], np.ndarray, np.ndarray, dict[str, int]]:
    """A table's direct fibres as columns: link ids, a medium number and the length (m) per
    link, and each link's row: a :class:`~model.structured.channels.FibreTable`'s own, or
    read off any other mapping of link id -> Fibre."""
    if isinstance(fibres, FibreTable):
        return fibres.link_ids, fibres.medium, fibres.length_m, fibres.row_of
    link_ids = list(fibres)
    numbers: dict[str, int] = {}
    medium = [numbers.setdefault(fibres[lid].medium, len(numbers)) for lid in link_ids]
    lengths = [fibres[lid].length_m for lid in link_ids]
    return (
        link_ids,
        np.asarray(medium, dtype=np.int64),
        np.asarray(lengths, dtype=np.float64),
        {lid: r for r, lid in enumerate(link_ids)},
    )


def skew_findings(layout, catalog: StructuredCatalog | None = None) -> list[Finding]:
    """TWIN_PORT_SKEW (warning): the fibres of one port with two MPO (800G SR8 / 2 x SR4: the
    module's twin fibres) differ in length beyond the skew rule.

    Each fibre's length is its own path (cords + the trunks its leg is in,
    ``layout.leg_lengths_m``); legs of one link can land in different trunks of a bundle. The
    catalog's ``skew`` rule turns the skew limit into metres (domain-facts §8a TIA-FOTC SR8
    cabling skew <= 79 ns, §7b NV-MMS4X50 twin fibres about the same length at 4.5 ns/m).
    A direct link orders its fibres at one length, so only structured layouts can differ.
    """
    catalog = catalog or structured_catalog()
    rule = catalog.skew
    if rule is None:
        return []
    limit_m = rule.max_difference_m
    out = []
    for link_id, legs in sorted(layout.leg_lengths_m.items()):
        if len(legs) > 1 and max(legs) - min(legs) > limit_m + 1e-9:
            channel = layout.channels.get(link_id)
            objects = _objects(channel) if channel else (link_id,)
            out.append(_skew(f"link {link_id}", objects, min(legs), max(legs), rule))
    return sort_findings(out)


def _skew(what: str, objects, lo_m: float, hi_m: float, rule: SkewRule) -> Finding:
    skew_ns = (hi_m - lo_m) * rule.delay_ns_per_m
    return Finding(
        code="TWIN_PORT_SKEW",
        severity="warning",
        message=f"{what}: its fibres are {lo_m:g} m and {hi_m:g} m; the {hi_m - lo_m:.1f} m "
        f"difference is {skew_ns:.0f} ns of skew, above {rule.max_skew_ns:g} ns "
        f"({rule.max_difference_m:.1f} m)",
        objects=tuple(objects),
    )
