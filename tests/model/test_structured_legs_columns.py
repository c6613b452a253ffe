"""The legs of a path whose rack spills into a patch rack are laid in columns, and the layout
is the one laid leg by leg (model.structured.legs: panels, segments, trunks, cords, displaced
lengths)."""

from __future__ import annotations

from model.engine.routed_links import RoutedLinks
from model.structured.layout import place_panels, structured_layout
from model.structured.legs import LegLayer
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
