"""The structured layout's channel grouping and cords, made as numpy columns
(:mod:`model.structured.channel_groups`, :func:`model.structured.cords.lay_cords`), are the ones
made link by link before (tests/model/structured_layout_oracle.py): the same groups, members in
the same order, the same trunk routes, and the same cords, channel rows and layout, on zoned and
cross-connected halls of several generators (MPO legs, LC cassettes of several pairs per link,
AMD's vendor-neutral cords) and on links routed via panels by hand or of a typed length."""

from __future__ import annotations

from collections import Counter

import msgspec
import numpy as np
import pytest

import model.structured.channel_legs as channel_legs_module
import model.structured.layout as layout_module
from model.analysis.tray_fill import trunk_load
from model.design.structured_edit import route_via
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.structured.channel_checks import _groups, _trunk_columns, table_checks
from model.structured.channel_groups import _route_links, group_channels
from model.structured.channel_table import ChannelTable
from model.structured.channels import FibreTable, plant_fibres
from model.structured.layout import _module_fibres, set_cabling, structured_layout
from model.structured.legs import LegLayer
from model.structured.paths import panel_face
from tests.builders import rack
from tests.model.structured_layout_oracle import (
    bundle_trunks_per_segment,
    group_channels_by_link,
    lay_cords_by_member,
    leg_tuples_per_leg,
    plant_fibres_by_link,
)
from tests.model.test_structured_legs_columns import _picture
from tests.model.test_structured_trays import l_hall

HALLS = {
    "fat-tree zoned, by hand": (("fat-tree", {"k": 8, "switch": "qm9700"}), "zones"),
    "fat-tree zoned, LC and SR8": (("fat-tree", {"k": 8, "switch": "qm9700"}), "zones"),
    "nvl72 zoned": (("nvl72", {"racks": 4}), "zones"),
    "rail-optimized cross-connect": (
        (
            "rail-optimized",
            {"nodes": 64, "node_type": "hgx-h100-8x400", "switch": "sn5600", "su_nodes": 32},
        ),
        "cross-connect",
    ),
    "leaf-spine end-of-row zoned": (
        (
            "leaf-spine",
            {"nodes": 32, "node_type": "dgx-h100", "switch": "qm9700", "placement": "end-of-row"},
        ),
        "zones",
    ),
    "helios zoned (vendor-neutral cords)": (("helios", {"racks": 2}), "zones"),
}


def _hall(name: str):
    (template, kwargs), style = HALLS[name]
    design = apply_cabling(generate(template, **kwargs), style)
    if name.endswith("by hand"):
        return _by_hand(design)
    if name.endswith("LC and SR8"):
        return _lc_and_sr8(design)
    return design


def _lc_and_sr8(design):
    """``design`` with half its switch-to-switch links pinned to 800G 2xFR4 (two LC duplex
    pairs per port: cassette legs of six channels, a channel row and a fibre per pair) and a
    quarter to 800G SR8 (two MPO legs per link)."""
    switches = {i for i, d in design.devices.items() if d.type == "qm9700"}
    between = [
        link
        for link in design.links.values()
        if link.a.device in switches and link.b.device in switches
    ]
    media = ("fr8-800g", "fr8-800g", "sr8-800g", None)
    design.update_links(
        [
            msgspec.structs.replace(link, medium=media[n % 4] or link.medium)
            for n, link in enumerate(between)
        ]
    )
    return design


def _by_hand(design):
    """``design`` with a link of a typed length and one routed via two panels by hand (its
    two racks' top panels), so both appear beside the style's own paths."""
    plant = RoutedLinks(design)
    inter = [
        lid
        for lid, link in design.links.items()
        if lid in plant_fibres(plant)
        and design.devices[link.a.device].rack != design.devices[link.b.device].rack
    ]
    typed, routed = inter[0], inter[len(inter) // 2]
    design.update_links([msgspec.structs.replace(design.links[typed], length_override_m=40.0)])
    link = design.links[routed]
    panels = [
        next(
            d.id
            for d in design.devices_in_rack(design.devices[end.device].rack)
            if d.type == "panel-mpo-1u-72"
        )
        for end in (link.a, link.b)
    ]
    route_via(design, routed, panels)
    return design


def _as_oracle(groups, columns) -> dict:
    """The columnar groups as the oracle's: per key, its members' link ids in order."""
    return {key: [columns.link_ids[r] for r in rows.tolist()] for key, rows in groups.items()}


@pytest.mark.parametrize("name", sorted(HALLS))
def test_groups_are_those_made_link_by_link(name):
    design = _hall(name)
    plant = RoutedLinks(design)
    direct = plant_fibres(plant)
    _, fpp_of = _module_fibres(design.catalog)
    old_findings: list = []
    new_findings: list = []
    old, ends_of, route_best = group_channels_by_link(plant, direct, fpp_of, old_findings)
    groups, columns, route_of = group_channels(plant, direct, fpp_of, new_findings)
    assert len(groups) > 2
    assert _as_oracle(groups, columns) == {k: [m[0] for m in v] for k, v in old.items()}
    for key, members in old.items():
        rows = groups[key].tolist()
        # Each member's figures, and the order the legs sort them in (by their ends).
        assert [m[1:] for m in members] == [
            (float(columns.up_a[r]), columns.horizontal[r], float(columns.up_b[r])) for r in rows
        ]
        by_ends = sorted(range(len(members)), key=lambda k: ends_of[members[k][0]])
        by_key = sorted(range(len(rows)), key=lambda k: int(columns.end_key[rows[k]]))
        assert by_ends == by_key
    assert route_of == {pair: best[1] for pair, best in route_best.items()}
    assert old_findings == new_findings


def _oracle_cords(layout, table, per_leg, *args, kept=None):
    """lay_cords as it was, on the members as tuples (link, up A, horizontal, up B); the whole
    layout's (its last arguments: ``lean`` False, the oracle has no findings-only form; no
    kept row index or cords, a layout without a memo)."""
    *args, lean, row_index = args
    assert lean is False and row_index is None and kept is None
    *columns_of_legs, (member, sizes), columns = per_leg
    chunks = np.split(member, np.cumsum(sizes)[:-1]) if len(sizes) else []
    tuples = [
        [
            (columns.link_ids[r], float(columns.up_a[r]), columns.horizontal[r])
            + (float(columns.up_b[r]),)
            for r in chunk.tolist()
        ]
        for chunk in chunks
    ]
    lay_cords_by_member(layout, table, (*columns_of_legs, tuples), *args)


def _whole_picture(layout) -> tuple:
    table = layout.channels
    return (
        _picture(layout),
        layout.leg_lengths_m,
        (table.link_ids, table.legs, table.ports, table.cord_a_m, table.cord_b_m),
        # The very NaN objects: a count by (part, ordered length) keys every unorderable
        # cord of a part as one.
        [id(x) for x in layout.cords.a_ordered if x != x],
    )


@pytest.mark.parametrize("name", sorted(HALLS))
def test_cords_are_those_laid_member_by_member(monkeypatch, name):
    design = _hall(name)
    plant = RoutedLinks(design)
    fast = structured_layout(plant)
    monkeypatch.setattr(layout_module, "lay_cords", _oracle_cords)
    slow = structured_layout(plant)
    assert len(fast.cords) > 100
    assert _whole_picture(fast) == _whole_picture(slow)
    if name.endswith("LC and SR8"):  # links of several fibres (pairs): a fibre each
        assert fast.leg_lengths_m and fast.cassettes
    if name.startswith("helios"):  # AMD modules: vendor-neutral cords
        assert len(set(fast.cords.parts)) > 1 or fast.cords.parts[0] != ""


def test_a_choice_of_links_other_than_the_plants_fibres_is_grouped_as_link_by_link():
    """Every other link of ``plant_fibres`` (as many rows, other links; then fewer): the
    members are found by id, and grouped as the oracle groups them."""
    design = _hall("fat-tree zoned, by hand")
    plant = RoutedLinks(design)
    fibres = plant_fibres(plant)
    _, fpp_of = _module_fibres(design.catalog)
    shifted = dict(list(fibres.items())[1:] + list(fibres.items())[:1])  # same size, reordered
    for direct in ({k: v for n, (k, v) in enumerate(fibres.items()) if n % 2}, shifted):
        old, _, route_best = group_channels_by_link(plant, direct, fpp_of, [])
        groups, columns, route_of = group_channels(plant, direct, fpp_of, [])
        assert _as_oracle(groups, columns) == {k: [m[0] for m in v] for k, v in old.items()}
        assert route_of == {pair: best[1] for pair, best in route_best.items()}


@pytest.mark.parametrize(
    "name", ["fat-tree zoned, LC and SR8", "helios zoned (vendor-neutral cords)"]
)
def test_the_fibre_columns_read_as_the_fibres_made_link_by_link(name):
    """plant_fibres' columns (a FibreTable) read as the dict of Fibres made link by link: the
    same links in order, each its Fibre (type and every field), none other; and the checks of
    a layout's channels are the same over the columns as over that dict."""
    design = _hall(name)
    plant = RoutedLinks(design)
    table = plant_fibres(plant)
    old = plant_fibres_by_link(plant)
    assert len(table) == len(old) > 100
    assert list(table) == list(old) and list(table.items()) == list(old.items())
    assert all(type(table[lid]) is type(f) and tuple(table[lid]) == f for lid, f in old.items())
    assert table == old and "no such link" not in table
    assert [type(f.length_m) for f in table.values()] == [float] * len(old)
    layout = structured_layout(plant)
    columns = layout.channels
    assert len(columns.structured) > 10
    assert name.startswith("helios") or len(columns.structured) < len(columns)  # some direct
    as_dict = ChannelTable(old, columns.records)
    for slot in ChannelTable.__slots__:
        if slot not in ("fibres", "records"):
            setattr(as_dict, slot, getattr(columns, slot))
    # The cords' fibre rows are each channel's link's row; without them the checks look the
    # links up (the dict's table).
    assert columns.fibre_rows == [table.row_of[lid] for lid in columns.link_ids]
    as_dict.fibre_rows = None
    assert table_checks(as_dict) == table_checks(columns)
    # The groups the checks work on: each channel made and its length, group by group.
    assert Counter(_checked(as_dict)) == Counter(_checked(columns))


def _checked(table) -> list:
    """Per group of the checks: its channels, made, and their lengths, which are the
    channels' own."""
    out = []
    for make, lengths in _groups(table):
        made = tuple(make(k) for k in range(len(lengths)))
        np.testing.assert_array_equal([c.length_m for c in made], lengths)
        out.append((made, tuple(lengths.tolist())))
    return out


def test_the_trunk_route_of_each_rack_pair_is_its_longest_link_then_greatest_id():
    """_route_links on random columns with many ties (equal lengths and ids of several
    digits, so id order is not number order) and links within a rack: the (length, id)
    maximum per rack pair, as link by link."""
    rng = np.random.default_rng(43)
    n = 3000
    link_ids = [f"l-{k}" for k in rng.permutation(n).tolist()]
    horizontal = rng.choice([3.0, 7.5, 7.5, 12.25, -0.0, 0.0], size=n)
    rack_a, rack_b = rng.integers(0, 9, size=n), rng.integers(0, 9, size=n)
    rack_ids = [f"r{k}" for k in range(9)]
    best: dict[tuple[str, str], tuple[float, str]] = {}
    for r in range(n):
        if rack_a[r] != rack_b[r]:
            pair = (rack_ids[rack_a[r]], rack_ids[rack_b[r]])
            candidate = (float(horizontal[r]), link_ids[r])
            if pair not in best or candidate > best[pair]:
                best[pair] = candidate
    got = _route_links(link_ids, horizontal, rack_a, rack_b, rack_ids)
    assert list(got.items()) == sorted((pair, b[1]) for pair, b in best.items())


@pytest.mark.parametrize("name", sorted(HALLS))
def test_legs_sharing_tuples_are_the_legs_with_tuples_of_their_own(monkeypatch, name):
    """Consecutive legs through the same panels and trunks share their tuples (trunk ids,
    lengths, the elements between the cords); the layout is the one where every leg has its
    own, LC cassettes (each leg's own) included; and fewer tuples are made."""
    plant = RoutedLinks(_hall(name))
    shared = structured_layout(plant)
    monkeypatch.setattr(channel_legs_module, "leg_tuples", leg_tuples_per_leg)
    own = structured_layout(plant)
    assert _whole_picture(shared) == _whole_picture(own)
    assert shared.channels.middles == own.channels.middles
    assert len({id(m) for m in shared.channels.middles}) < len(shared.channels.middles)


@pytest.mark.parametrize("name", sorted(HALLS))
def test_trunks_bundled_from_columns_are_the_trunks_bundled_segment_by_segment(monkeypatch, name):
    """A panel pair's legs bundled into trunks from columns (slices of its segments' lengths,
    links and trunk lists) are the trunks, findings and channel elements bundled from (leg,
    segment) pairs trunk by trunk; recorded lengths included (half the links record theirs)."""
    design = _hall(name)
    links = sorted(design.links.values(), key=lambda link: link.id)
    design.update_links(
        [
            # One, two or three trunks: a record counts where it has its leg's shape.
            msgspec.structs.replace(
                link, as_built_pieces_m=(None, *[31.0 + n % 7] * (1 + n % 3), None)
            )
            for n, link in enumerate(links[::2])
        ]
    )
    plant = RoutedLinks(design)
    lay = LegLayer.lay

    def uneven(self, *args):
        """The legs laid, then their segments made of unequal lengths (a generated hall's
        legs of one trunk are mostly equal): the trunk takes the longest of its own legs."""
        lay(self, *args)
        self.seg_m[:] = [
            tuple([m + (k * 7 % 11) * 0.5 for m in seg_m]) for k, seg_m in enumerate(self.seg_m)
        ]

    monkeypatch.setattr(LegLayer, "lay", uneven)
    columns = structured_layout(plant)
    monkeypatch.setattr(layout_module, "_bundle_trunks", bundle_trunks_per_segment)
    by_segment = structured_layout(plant)
    assert columns.trunks and any(t.recorded for t in columns.trunks)
    assert _whole_picture(columns) == _whole_picture(by_segment)
    assert columns.channels.middles == by_segment.channels.middles


@pytest.mark.parametrize("name", sorted(HALLS))
def test_trunk_length_columns_are_the_legs_trunks_segment_by_segment(name):
    """The checks' per-segment trunk lengths, read as columns, are each leg's s-th trunk
    (0.0 where it has fewer), as read leg by leg before; a hand-made table of one, three and
    no trunks per leg too."""
    table = structured_layout(RoutedLinks(_hall(name))).channels
    for leg_trunk_m in (table.leg_trunk_m, [(3.0,), (5.0, 7.5, 9.25), (), (float("nan"), 2.0)]):
        got = _trunk_columns(leg_trunk_m)
        assert len(got) == max(map(len, leg_trunk_m))
        for s, column in enumerate(got):
            want = [t[s] if s < len(t) else 0.0 for t in leg_trunk_m]
            np.testing.assert_array_equal(column, np.asarray(want, dtype=np.float64))


@pytest.mark.parametrize("name", sorted(HALLS))
def test_layout_and_checks_read_fibres_by_row_without_an_index_of_every_link(name):
    """The layout, its channels and the checks read the direct fibres by row (the cords
    know each channel's): the fibre table's index of every link by id is never made, and a
    channel made from its row is the one made from its link's fibre looked up by id."""
    layout = structured_layout(RoutedLinks(_hall(name)))
    table = layout.channels
    fibres = table.fibres
    assert isinstance(fibres, FibreTable) and table.fibre_rows is not None
    summary, findings = table_checks(table)
    made = [table.row_channel(row) for row in range(len(table.link_ids))]
    if not name.endswith("by hand"):  # a link routed via panels is grouped by its id
        assert fibres._row_of is None  # noqa: SLF001 - the lazy index is what is tested
    by_id = ChannelTable(dict(fibres.items()), table.records)
    for name_ in ChannelTable.__slots__[2:]:
        if name_ not in ("fibres", "records"):
            setattr(by_id, name_, getattr(table, name_))
    by_id.fibre_rows = None
    assert made == [by_id.row_channel(row) for row in range(len(table.link_ids))]
    assert (summary, findings) == table_checks(by_id)


@pytest.mark.parametrize("name", sorted(HALLS))
def test_trunk_load_counts_the_links_through_panels_per_route_and_medium_as_link_by_link(name):
    """trunk_load's links per (route, medium), counted as one integer key per link, are the
    count link by link over the plant's rows (a link without a route or medium left out),
    in the same (route, medium) order."""
    plant = RoutedLinks(_hall(name))
    layout = structured_layout(plant)
    routes, media = plant.route_keys(), plant.medium_index
    want = Counter(
        (int(routes[row]), int(media[row]))
        for row in map(plant.index.__getitem__, layout.channels.structured)
        if routes[row] >= 0 and media[row] >= 0
    )
    got = trunk_load(plant, layout).minus
    assert got and list(got.items()) == sorted(want.items())
    assert all(type(r) is int and type(m) is int for r, m in got)


def test_trunk_load_spans_of_trunks_no_link_joins_are_each_trunks_own_search():
    """trunk_load's trunks between racks no link joins (a zone's trunks to its HDA rack, two
    per hop on the L-shaped tray's hall) take the tray spans searched once per pair of drop
    points: the spans searched trunk by trunk, with the same figures, in trunk order."""
    design = l_hall()
    rack(design, "r2", 2.1, 3.0)  # row R has no network gear: r2 is its HDA
    set_cabling(design, "zones")
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    got = trunk_load(plant, layout).own
    want = [
        spans
        for trunk in layout.trunks
        if not trunk.route_link
        and (
            spans := plant.rack_tray_spans(
                trunk.rack_a,
                panel_face(plant.design, trunk.panel_a),
                trunk.rack_b,
                panel_face(plant.design, trunk.panel_b),
            )
        )
    ]
    assert len(want) > len({spans for spans in want}) and [s for s, *_ in got] == want
