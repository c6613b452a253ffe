"""The legs of a path whose rack spills into a patch rack are laid in columns, and the layout
is the one laid leg by leg (model.structured.legs: panels, segments, trunks, cords, displaced
lengths)."""

from __future__ import annotations

import pytest

from model.design.structured_edit import place_panel, remove_panels
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.structured.layout import place_panels, structured_layout
from model.structured.layout_records import LC_ENCLOSURE, MPO_PANEL
from model.structured.leg_runs import stretches
from model.structured.legs import LegLayer
from model.structured.paths import PanelPool
from tests.builders import rack
from tests.model.test_patch_racks import PATCH, _full_leaf_rack


def _spilling_hall():
    """Leaf rack B01 has no U for its MPO panel: it stands in patch rack B-P1 beside it."""
    design = _full_leaf_rack()
    rack(design, "bp1", 11.1, 6.0, name="B-P1", type_id=PATCH)
    place_panels(design)
    return design


def _picture(layout) -> tuple:
    cords = layout.cords
    return (
        layout.trunks,
        layout.legs,
        (cords.link_ids, cords.parts, cords.a_m, cords.b_m, cords.a_ordered, cords.b_ordered),
        layout.panel_use,
        layout.cassettes,
        layout.virtual_panels,
        [(f.code, f.message) for f in layout.findings],
        {link_id: layout.channels[link_id] for link_id in layout.structured_links()},
    )


def test_a_path_spilling_into_a_patch_rack_is_laid_in_columns_as_leg_by_leg(monkeypatch):
    design = _spilling_hall()
    plant = RoutedLinks(design)
    laid: list[str] = []
    in_columns, one_by_one = LegLayer._lay_in_columns, LegLayer._lay_one_by_one

    def columns(self, *args):
        spilled = len(self.pool.home)
        in_columns(self, *args)
        laid.append("spilling, in columns" if len(self.pool.home) > spilled else "in columns")

    def by_leg(self, *args):
        laid.append("one by one")
        return one_by_one(self, *args)

    monkeypatch.setattr(LegLayer, "_lay_in_columns", columns)
    monkeypatch.setattr(LegLayer, "_lay_one_by_one", by_leg)
    fast = structured_layout(plant)
    assert "spilling, in columns" in laid and "one by one" not in laid
    laid.clear()
    monkeypatch.setattr(LegLayer, "_spills_apart", lambda self, points, n: False)
    slow = structured_layout(plant)
    assert "one by one" in laid
    assert _picture(fast) == _picture(slow)
    # The patch rack's panel carries the leaf's legs, whose cords run on to it.
    (panel,) = [p for p in fast.panel_use if design.devices[p].rack == "bp1"]
    assert fast.panel_use[panel][0] == 6
    assert fast.findings == [] and fast.virtual_panels == {}


def _lay_both_ways(monkeypatch, design) -> tuple:
    """The layout laid in columns, and laid leg by leg (every path one by one)."""
    plant = RoutedLinks(design)
    fast = structured_layout(plant)
    monkeypatch.setattr(LegLayer, "_spills_apart", lambda self, points, n: False)
    slow = structured_layout(plant)
    monkeypatch.undo()
    return fast, slow


@pytest.mark.parametrize(
    ("template", "kwargs"),
    [
        # MPO legs, zoned: runs of a leaf rack's panels change under a node's legs.
        ("fat-tree", {"k": 8, "switch": "qm9700"}),
        # LC cassette legs of six channels, zoned NVL72 racks.
        ("nvl72", {"racks": 4}),
    ],
)
def test_generated_zoned_halls_laid_in_columns_as_leg_by_leg(monkeypatch, template, kwargs):
    design = apply_cabling(generate(template, **kwargs), "zones")
    fast, slow = _lay_both_ways(monkeypatch, design)
    assert len(fast.legs) > 100
    assert _picture(fast) == _picture(slow)


def test_a_spilling_leaf_rack_of_many_legs_is_displaced_as_leg_by_leg(monkeypatch):
    """A zoned hall whose leaf rack has room for one MPO panel only: most of its legs take
    a patch rack's panels (their trunks and cords run on to it), the rest a virtual panel."""
    design = apply_cabling(generate("fat-tree", k=8, switch="qm9700"), "zones")
    fast, slow = _lay_both_ways(monkeypatch, _spilling(design))
    assert _picture(fast) == _picture(slow)
    in_patch = [p for p in fast.panel_use if design.devices[p].rack == "patch-end"]
    assert sum(fast.panel_use[p][0] for p in in_patch) > 50  # legs, cords and trunks run on


def _spilling(design):
    """``design`` with the network rack of the most MPO panels full of LC enclosures instead,
    and a patch rack at the end of its row that takes its panels."""
    racks = design.racks
    by_rack: dict[str, list] = {}
    for panel in design.devices.values():
        if panel.type != MPO_PANEL:
            continue
        by_rack.setdefault(panel.rack, []).append(panel)
    full_id = max(by_rack, key=lambda r: (len(by_rack[r]), r))
    remove_panels(design, [panel.id for panel in by_rack[full_id]])
    taken = set()
    for d in design.devices_in_rack(full_id):
        taken.update(range(d.u, d.u + design.device_type(d).u_height))
    for u in range(racks[full_id].height_u, 0, -1):
        if u not in taken:
            place_panel(design, full_id, LC_ENCLOSURE, u=u)
    full = racks[full_id]
    row = [r for r in racks.values() if abs(r.y - full.y) < 1e-6]
    end = max(row, key=lambda r: r.x)
    rack(
        design,
        "patch-end",
        end.x + 0.6,
        end.y,
        name=f"{full.name.rstrip('0123456789')}99",
        rotation=end.rotation,
        type_id=PATCH,
    )
    place_panels(design)
    return design


def test_take_runs_are_the_takes_one_by_one():
    """PanelPool.take_runs gives, run by run, the panels ``count`` takes give: the rack's own
    panels, then a patch rack's, then its virtual panel; and leaves the pool as they do."""
    design = _spilling_hall()
    key = ("b1", MPO_PANEL)
    capacity = {MPO_PANEL: 72, LC_ENCLOSURE: 4}
    runs_pool, takes_pool = PanelPool(design, capacity), PanelPool(design, capacity)
    n = 200  # beyond the patch rack's panel: virtual ports too
    runs = runs_pool.take_runs(key, n)
    takes = [takes_pool.take(key) for _ in range(n)]
    assert [holder for holder, count in runs for _ in range(count)] == takes
    assert all(
        a[0] != b[0] for a, b in zip(runs, runs[1:], strict=False)
    )  # equal neighbours merged
    assert len(set(takes)) > 1 and runs_pool.virtual == takes_pool.virtual
    assert (runs_pool.used, runs_pool.home) == (takes_pool.used, takes_pool.home)


def test_stretches_split_legs_wherever_a_nodes_run_changes():
    """Three nodes' runs of (way, legs) over 7 legs: a stretch per change of any node's run,
    each with every node's way there."""
    way_runs = [[(0.0, 3), (1.5, 4)], [(0.0, 7)], [(2.0, 1), (0.0, 2), (3.0, 4)]]
    assert stretches(way_runs) == [
        (0, 1, (0.0, 0.0, 2.0)),
        (1, 3, (0.0, 0.0, 0.0)),
        (3, 7, (1.5, 0.0, 3.0)),
    ]


def test_legs_in_columns_share_their_panels_tuples_where_no_nodes_run_changes(monkeypatch):
    """Legs laid in columns between the same panels share one tuple of holders (and of
    elements, the channels' middles): equal to each leg's own tuple laid leg by leg, and far
    fewer of them; LC cassette legs keep a tuple each (their cassettes are their own)."""
    design = apply_cabling(generate("fat-tree", k=8, switch="qm9700"), "zones")
    fast, slow = _lay_both_ways(monkeypatch, design)
    assert [leg.holders for leg in fast.legs] == [leg.holders for leg in slow.legs]
    assert len({id(leg.holders) for leg in fast.legs}) * 4 < len(fast.legs)
    assert len({id(leg.holders) for leg in slow.legs}) == len(slow.legs)
    assert fast.channels.middles == slow.channels.middles
    lc = apply_cabling(generate("nvl72", racks=4), "zones")
    fast, slow = _lay_both_ways(monkeypatch, lc)
    assert [leg.holders for leg in fast.legs] == [leg.holders for leg in slow.legs]
