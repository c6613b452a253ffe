"""A hall whose channels pass placed and automatic (virtual) panels together exports the trunk
legs the row-by-row oracle makes (tests/model/netbox_legs_oracle.py), and the cable columns
joined from their pieces (columns.joined, columns.kept_rows) are the pieces' rows in order."""

from __future__ import annotations

import numpy as np
import pytest

from model.engine.routed_links import RoutedLinks
from model.outputs.netbox import panels
from model.outputs.netbox.columns import Lookup, Repeat, joined, kept_rows
from model.outputs.netbox.export import netbox_tables
from model.outputs.schedule import schedule_rows
from model.structured.layout import place_panels
from tests.model import netbox_legs_oracle
from tests.model.test_structured_layout import two_rack_hall


def _mixed():
    """Eight LC-cassette channels between two racks: the DGX rack's panels placed, the leaf
    rack's taken out again (automatic, exported as virtual panels)."""
    design = two_rack_hall(12.0, "fr4-400g", nics=8)
    assert place_panels(design) >= 2
    leaf_panels = [
        d.id for d in design.devices.values() if d.rack == "n1" and d.role == "patch-panel"
    ]
    assert leaf_panels
    design.remove_devices(leaf_panels)
    return design


def _export(design):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def test_the_hall_has_placed_and_virtual_panels():
    out = _export(_mixed())
    devices = out.rows("07_devices")
    placed = [r for r in devices if r[1] == "patch-panel" and r[8] != ""]
    virtual = [r for r in devices if r[1] == "patch-panel" and r[8] == ""]
    assert placed and virtual


@pytest.mark.parametrize(
    ("name", "oracle"),
    [
        ("_trunk_leg_cables", netbox_legs_oracle.trunk_leg_cables),
        ("_place_legs", netbox_legs_oracle.place_legs),
    ],
)
def test_legs_over_placed_and_virtual_panels_are_the_oracles_rows(name, oracle, monkeypatch):
    got = _export(_mixed()).rows("08_cables")
    assert [r for r in got if r[2] != "dcim.interface" and r[6] != "dcim.interface"]
    monkeypatch.setattr(panels, name, oracle)
    assert got == _export(_mixed()).rows("08_cables")


def _rows(column) -> list:
    return column if isinstance(column, list) else column.tolist()


@pytest.mark.parametrize(
    "pieces",
    [
        [],
        [Repeat("s", 0)],
        [Repeat("s", 2), Repeat("s", 3)],  # one value throughout: still a Repeat
        [Repeat("s", 2), Repeat("t", 1)],
        [
            Lookup(["a", "b"], np.array([1, 0, 1])),
            Repeat("c", 2),
            Lookup([1.5, None], np.array([1])),
        ],
        [Lookup(["a"], np.zeros(0, dtype=np.int64)), Lookup(["x", "y"], np.array([1, 1]))],
        [["p", "q"], Lookup(["a", "b"], np.array([1]))],  # a list: the rows as a list
        [Lookup({"k": "v"}, ["k", "k"]), Repeat("c", 1)],  # keyed by dict: a list
    ],
)
def test_joined_pieces_are_their_rows_one_after_the_other(pieces):
    column = joined(pieces)
    assert _rows(column) == [cell for piece in pieces for cell in _rows(piece)]
    if (
        pieces
        and all(isinstance(p, Repeat) for p in pieces)
        and len({p.value for p in pieces}) == 1
    ):
        assert isinstance(column, Repeat)


@pytest.mark.parametrize(
    "column",
    [
        Repeat("s", 4),
        Lookup(["a", "b", "c"], np.array([2, 0, 1, 2])),
        Lookup({"k": "v", "j": "w"}, ["k", "j", "j", "k"]),
        ["w", "x", "y", "z"],
    ],
)
def test_kept_rows_are_the_rows_kept(column):
    keep = np.array([True, False, True, True])
    got = kept_rows(column, keep, 3)
    assert _rows(got) == [cell for cell, k in zip(_rows(column), keep.tolist(), strict=True) if k]
    assert type(got) is type(column) or isinstance(got, list)
