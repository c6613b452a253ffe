"""A structured layout after rack moves, on the last layout's legs re-measured
(:class:`model.structured.leg_reuse.LegMemo`), is the layout laid out afresh, record for record;
and the editor's analysis after the moves (its analyzer keeps such a memo) is a fresh one."""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest

from model.analysis import Analyzer, analyze
from model.catalog.structured import structured_catalog
from model.design.design import DesignError
from model.design.placement import free_u
from model.design.structured_edit import route_via
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import snapshot
from model.generators.generate import apply_cabling, generate
from model.structured.channel_checks import ShapeGroups, table_checks
from model.structured.channel_groups import KeptGroups, _route_links, group_channels
from model.structured.channel_table import ChannelTable, RowIndex
from model.structured.channels import plant_fibres
from model.structured.layout import MPO_PANEL as MPO
from model.structured.layout import place_panels, structured_layout
from model.structured.leg_reuse import LegMemo
from tests.model.test_structured_legs_columns import _picture, _spilling_hall

HALLS = {
    "fat-tree zoned": (("fat-tree", {"k": 8, "switch": "qm9700"}), "zones"),
    "rail-optimized cross-connect": (
        (
            "rail-optimized",
            {"nodes": 64, "node_type": "hgx-h100-8x400", "switch": "sn5600", "su_nodes": 32},
        ),
        "cross-connect",
    ),
}


def _hall(name: str):
    if name == "leaf spilling into a patch rack":
        return _spilling_hall()
    (template, kwargs), style = HALLS[name]
    return apply_cabling(generate(template, **kwargs), style)


def _every_record(layout) -> tuple:
    """Every record and column of ``layout``: ``_picture``'s, the channel table's rows and
    the trunk legs' columns, and the leg lengths."""
    table = layout.channels
    return (
        _picture(layout),
        layout.style,
        sorted(table.structured),
        {link_id: table.row_of.get(link_id) for link_id in table.link_ids},
        list(layout.legs),
        layout.leg_lengths_m,
        layout.panel_counts(structured_catalog()),
        [
            msgspec.structs.asdict(f) if isinstance(f, msgspec.Struct) else f
            for f in layout.findings
        ],
    )


def _move_some_racks(design, rng: random.Random, moves: int) -> int:
    """Up to ``moves`` racks moved by a few tiles (patch racks too: their panels' ways
    change); returns how many moved (a move onto another rack or out of the hall is refused
    and skipped)."""
    racks = sorted(design.racks)
    moved = 0
    for _ in range(moves):
        rack = design.racks[rng.choice(racks)]
        dx, dy = rng.choice([-1.2, -0.6, 0.6, 1.2, 2.4]), rng.choice([-1.2, 0.0, 1.2])
        try:
            design.move_racks({rack.id: (rack.x + dx, rack.y + dy)})
        except DesignError:
            continue
        moved += 1
    return moved


@pytest.mark.parametrize("name", [*HALLS, "leaf spilling into a patch rack"])
def test_layouts_after_random_rack_moves_equal_a_full_layout(name):
    design = _hall(name)
    plant = RoutedLinks(design)
    memo = LegMemo()
    last = structured_layout(plant, memo=memo)
    assert _every_record(last) == _every_record(structured_layout(plant))
    assert memo.relaid_paths == -1  # the first layout lays every leg
    rng = random.Random(43)
    reused = rebundled = remade = shared = grouped = corded = 0
    for _ in range(6):
        if not _move_some_racks(design, rng, rng.choice([1, 1, 2])):
            continue
        plant.refresh()
        again = structured_layout(plant, memo=memo)
        reused += memo.relaid_paths >= 0
        grouped += memo.groups.reused
        corded += memo.cords.reused
        rebundled += memo.trunks.changed_trunks > 0
        remade += memo.channel_legs.remade_paths > 0
        shared += again.channels.row_of is last.channels.row_of
        assert _every_record(again) == _every_record(structured_layout(plant))
        last = again
    # Some layout re-measured the kept legs, made some of the kept trunks again with their
    # new lengths and the channel-table legs of those trunks' paths (else this compared two
    # full layouts, or kept every trunk and table leg).
    assert reused
    assert rebundled
    assert remade
    assert shared  # the channel table's link -> row index, as its rows stood
    assert grouped  # step 1's groups, as their links, devices and hubs stood
    assert corded  # step 4's cords, only the changed ones ordered again


def test_a_panel_placed_or_a_link_unmade_lays_every_leg_again():
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    memo = LegMemo()
    structured_layout(plant, memo=memo)
    link = next(iter(design.links))
    design.remove_links([link])
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert memo.relaid_paths == -1
    assert _every_record(again) == _every_record(structured_layout(plant))
    # Every rack's panels unplaced: the pool's placed panels differ, every leg is laid again.
    panels = [d for d, dev in design.devices.items() if dev.type.startswith("panel-")]
    design.remove_devices(panels)
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert memo.relaid_paths == -1
    assert _every_record(again) == _every_record(structured_layout(plant))
    assert place_panels(design)
    plant.refresh()
    structured_layout(plant, memo=memo)
    assert memo.relaid_paths == -1


class EditorWorker:
    """The editor's analysis worker's way of following a design, without Qt: the design's change
    events, a snapshot per edit, ``Analyzer.advance`` (as tests/model/test_snapshot_pipeline)."""

    def __init__(self, design) -> None:
        self.design, self.plant = design, RoutedLinks(design)
        # Its link index built at opening, as the editor's plant is (editing_plant): else the
        # first move builds it (~0.11 s at XL) and its snapshot copies it (~0.04 s), a first-move
        # cost the editor does not have.
        self.plant.index  # noqa: B018
        self.changes: list = []
        self.subscription = design.subscribe(self.changes.append)
        frozen, frozen_plant = snapshot(design, self.plant)
        self.analyzer = Analyzer(frozen, frozen_plant, subscribe=False, refresh_plant=False)
        self.analyzer.advance(frozen, frozen_plant, [], set())

    def advance(self):
        """The report after the edits made since the last call."""
        changed_links = set(self.plant.refresh())
        frozen, frozen_plant = snapshot(self.design, self.plant)
        report = self.analyzer.advance(frozen, frozen_plant, self.changes, changed_links)
        self.changes.clear()
        return report

    def close(self) -> None:
        self.subscription.close()


def test_an_editor_analysis_after_rack_moves_equals_a_fresh_one():
    design = _hall("fat-tree zoned")
    worker = EditorWorker(design)
    plant, analyzer = worker.plant, worker.analyzer
    rng = random.Random(7)
    reused = 0
    for _ in range(4):
        _move_some_racks(design, rng, 1)
        report = worker.advance()
        reused += analyzer._legs.relaid_paths >= 0
        fresh = analyze(design, plant)
        assert report.to_json() == fresh.to_json()
        assert _every_record(analyzer.structured) == _every_record(structured_layout(plant))
    worker.close()
    assert reused


def test_a_patch_rack_moved_re_measures_the_legs_with_a_panel_there():
    """Leaf rack B01's legs take the panel of patch rack B-P1: B-P1 moved along the row, they
    are ordered for the new way to it (and only its panel's paths are measured again)."""
    design = _hall("leaf spilling into a patch rack")
    plant = RoutedLinks(design)
    memo = LegMemo()
    structured_layout(plant, memo=memo)
    patch = design.racks["bp1"]
    design.move_racks({"bp1": (patch.x, patch.y + 0.3)})
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert memo.relaid_paths > 0
    assert _every_record(again) == _every_record(structured_layout(plant))


def test_a_tray_edit_lays_every_leg_again():
    """Every rack distance follows the tray graph: a tray moved is no length-only edit, even
    where it changes no group."""
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    memo = LegMemo()
    structured_layout(plant, memo=memo)
    tray = max(design.trays.values(), key=lambda t: len(t.points))
    moved = [(x, y + 0.6) for x, y in tray.points]
    design.update_trays([msgspec.structs.replace(tray, points=moved)])
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert memo.relaid_paths == -1
    assert _every_record(again) == _every_record(structured_layout(plant))


def test_a_panel_over_its_ports_renamed_is_named_anew_in_the_finding():
    """Laying the legs found a panel named by hand over its ports: its finding names the
    panel, so the legs are laid again after an edit (a rename keeps every compared input)."""
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    fibre = plant_fibres(plant)
    inter = [
        lid
        for lid, link in design.links.items()
        if lid in fibre and design.devices[link.a.device].rack != design.devices[link.b.device].rack
    ]
    first = design.links[inter[0]]
    panels = [
        next(d.id for d in design.devices_in_rack(design.devices[end.device].rack) if d.type == MPO)
        for end in (first.a, first.b)
    ]
    for lid in inter[:80]:  # more legs than the 72-port panels have
        route_via(design, lid, panels)
    plant.refresh()
    memo = LegMemo()
    assert any(
        f.code == "PANEL_PORTS_EXCEEDED" for f in structured_layout(plant, memo=memo).findings
    )
    panel = design.devices[panels[0]]
    design.update_devices([msgspec.structs.replace(panel, name="renamed-panel")])
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert any("renamed-panel" in f.message for f in again.findings)
    assert _every_record(again) == _every_record(structured_layout(plant))


def test_links_made_anew_on_swapped_ports_are_ranked_anew():
    """The port ranks are kept while the links are the same records: two links of one device
    unmade and made again on each other's A ports (same ids, same count) are ranked anew."""
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    memo = LegMemo()
    structured_layout(plant, memo=memo)
    fibre = plant_fibres(plant)
    by_device: dict[str, list] = {}
    for lid, link in design.links.items():
        if lid in fibre:
            by_device.setdefault(link.a.device, []).append(link)
    first, second = next(links for links in by_device.values() if len(links) > 1)[:2]
    swapped = [
        msgspec.structs.replace(first, a=second.a),
        msgspec.structs.replace(second, a=first.a),
    ]
    design.remove_links([first.id, second.id])
    design.add_links(swapped)
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert _every_record(again) == _every_record(structured_layout(plant))
    # The members' end keys (which order a group's legs) are those of ranks worked out anew.
    fpp_of = {p.medium: p.fibres_per_port for p in design.catalog.module_parts.values()}
    kept = group_channels(plant, plant_fibres(plant), fpp_of, [], memo.groups)[1]
    fresh = group_channels(plant, plant_fibres(plant), fpp_of, [])[1]
    assert np.array_equal(kept.end_key, fresh.end_key)


def test_a_channel_table_shares_the_last_row_index_only_for_the_same_links_in_order():
    kept = RowIndex()
    first = ChannelTable({})
    first.add_rows(["l1", "l2"], [0, 1], [0, 0], [1.0, 1.0], [1.0, 1.0], None, kept)
    same = ChannelTable({})
    same.add_rows(["l1", "l2"], [0, 1], [0, 0], [2.0, 2.0], [2.0, 2.0], None, kept)
    assert same.row_of is first.row_of
    swapped = ChannelTable({})
    swapped.add_rows(["l2", "l1"], [0, 1], [0, 0], [1.0, 1.0], [1.0, 1.0], None, kept)
    assert swapped.row_of == {"l2": 0, "l1": 1}
    more = ChannelTable({})
    more.add_rows(["l2", "l1"], [0, 1], [0, 0], [1.0, 1.0], [1.0, 1.0], None, kept)
    more.add_rows(["l3"], [2], [0], [1.0], [1.0], None, kept)
    assert more.row_of == {"l2": 0, "l1": 1, "l3": 2}
    assert swapped.row_of == {"l2": 0, "l1": 1}  # rows added later never reach a shared index


def test_a_typed_length_set_after_a_layout_is_read_anew():
    """The links' entries (polarity records, recorded pieces, typed lengths) are kept while
    the links are the same records: a length typed on one link is read by the next layout."""
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    memo = LegMemo()
    first = structured_layout(plant, memo=memo)
    link = design.links[next(iter(first.channels.structured))]
    design.update_links([msgspec.structs.replace(link, length_override_m=61.0)])
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert _every_record(again) == _every_record(structured_layout(plant))
    assert _every_record(again) != _every_record(first)  # the typed length is in its cords


def test_a_server_moved_to_another_rack_is_grouped_anew():
    """Step 1's groups are kept while the links and devices stand: a server moved into another
    server rack (its links the same records, in the same order, on the same media; the zones
    as they were) takes its channels onto other paths. (The zoned fat-tree's servers change
    media wherever they go: not a case of this.)"""
    design = _hall("rail-optimized cross-connect")
    plant = RoutedLinks(design)
    memo = LegMemo()
    structured_layout(plant, memo=memo)
    fibre = plant_fibres(plant)
    ends = [e.device for lid in fibre.link_ids for e in (design.links[lid].a, design.links[lid].b)]
    servers = [d for d in dict.fromkeys(ends) if design.devices[d].role == "gpu-server"]
    device = design.devices[servers[0]]
    height = design.device_type(device.id).u_height
    media = list(plant.medium_index)
    # A rack where its links keep their media (else the members' media alone tell).
    for rack_id in sorted({design.devices[d].rack for d in servers} - {device.rack}):
        u = free_u(design, rack_id, height)
        if u is not None:
            design.move_devices({device.id: (rack_id, u)})
            plant.refresh()
            if list(plant.medium_index) == media:
                break
    assert design.devices[device.id].rack != device.rack
    assert list(plant.medium_index) == media
    again = structured_layout(plant, memo=memo)
    assert not memo.groups.reused
    assert _every_record(again) == _every_record(structured_layout(plant))


@pytest.mark.parametrize("seed", range(6))
def test_kept_route_links_equal_ones_chosen_afresh(seed):
    """The route link of each rack pair (its longest member, then the greatest id) after some
    members' lengths changed: chosen again for those members' pairs only, as among all."""
    rng = np.random.default_rng(seed)
    n, n_racks = 400, 6
    link_ids = [f"l{k:03d}" for k in rng.permutation(n)]
    rack_a, rack_b = rng.integers(0, n_racks, n), rng.integers(0, n_racks, n)
    rack_ids = [f"r{k}" for k in range(n_racks)]
    horizontal = rng.choice([4.0, 5.0, 6.5, 9.0], n)  # ties: the greatest id decides
    kept = KeptGroups()
    kept.keep((), (), horizontal, _route_links(link_ids, horizontal, rack_a, rack_b, rack_ids))
    for _ in range(5):
        horizontal = horizontal.copy()
        changed = rng.choice(n, int(rng.integers(1, 6)), replace=False)
        horizontal[changed] = rng.choice([3.0, 5.0, 9.0, 12.0, np.nan], len(changed))
        got = kept.route_links(link_ids, horizontal, rack_a, rack_b, rack_ids)
        assert got == _route_links(link_ids, horizontal, rack_a, rack_b, rack_ids)


def test_channel_checks_on_kept_shape_groups_equal_fresh_ones():
    """The checks of each table after rack moves and a medium pinned, on the channels' groups
    by shape kept from the last table (ShapeGroups), equal fresh ones; a rack move keeps the
    groups, the pin (another medium on one channel) does not."""
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    memo = LegMemo()
    kept = ShapeGroups()
    table_checks(structured_layout(plant, memo=memo).channels, kept=kept)
    rng = random.Random(11)
    moves = 0
    for step in range(5):
        if step == 3:
            table = structured_layout(plant).channels
            link = design.links[next(iter(table.structured))]
            medium = "dr4-400g" if link.medium != "dr4-400g" else "sr4-400g"
            design.update_links([msgspec.structs.replace(link, medium=medium)])
        elif not _move_some_racks(design, rng, 1):
            continue
        plant.refresh()
        table = structured_layout(plant, memo=memo).channels
        assert table_checks(table, kept=kept) == table_checks(table)
        assert kept.reused == (step != 3)
        moves += step != 3
    assert moves


def test_shape_groups_are_kept_only_for_the_same_rows_and_keys():
    kept = ShapeGroups()
    key = np.asarray([7, 3, 7, 3, 5])
    rows = np.arange(5)
    first = kept.groups(rows, key)
    assert [g[1] for g in first] == [[1, 3], [4], [0, 2]]
    assert kept.groups(rows.copy(), key.copy()) is first and kept.reused
    # A polarity record moved from row 1 to row 0: the same keys in other rows.
    other = np.asarray([1, 2, 3, 4, 5])
    assert [g[1] for g in kept.groups(other, key)] == [[2, 4], [5], [1, 3]]
    assert not kept.reused
    assert [g[1] for g in kept.groups(other, np.asarray([3, 3, 7, 7, 5]))] == [[1, 2], [5], [3, 4]]


@pytest.mark.parametrize("turned", [False, True])
def test_cords_to_a_moved_patch_rack_are_ordered_again_at_either_end(turned):
    """Leaf rack B01's cords run to the panel of patch rack B-P1: B-P1 moved, they are ordered
    again at their new lengths on the kept cords (the leaf is its links' B end; ``turned``:
    its links made again with the leaf first, so its cords are the A ends)."""
    design = _hall("leaf spilling into a patch rack")
    if turned:
        leaf = {d.id for d in design.devices_in_rack("b1")}
        links = [link for link in design.links.values() if link.b.device in leaf]
        design.remove_links([link.id for link in links])
        design.add_links([msgspec.structs.replace(link, a=link.b, b=link.a) for link in links])
    plant = RoutedLinks(design)
    memo = LegMemo()
    first = structured_layout(plant, memo=memo)
    patch = design.racks["bp1"]
    design.move_racks({"bp1": (patch.x, patch.y + 0.6)})
    plant.refresh()
    again = structured_layout(plant, memo=memo)
    assert memo.cords.reused
    assert _every_record(again) == _every_record(structured_layout(plant))
    leaf_end = 2 if turned else 3  # the cords' lengths at the leaf's end (a_m, b_m) changed
    assert _picture(first)[2][leaf_end] != _picture(again)[2][leaf_end]
