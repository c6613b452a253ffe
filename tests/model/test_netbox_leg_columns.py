"""The trunk legs' NetBox ports and cables made column-wise are the rows made one by one before (the
oracle, tests/model/netbox_legs_oracle.py): zoned halls (a leg over two trunks, the HDA panel's
front ports), LC cassettes, two connectors per port and a generated cross-connected pod."""

from __future__ import annotations

import pytest

from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.netbox import panels
from model.outputs.netbox.export import netbox_tables
from model.outputs.schedule import schedule_rows
from model.structured.layout import place_panels, set_cabling
from tests.model import netbox_legs_oracle
from tests.model.test_structured_layout import two_rack_hall
from tests.model.test_structured_panels import zone_hall


def _cables(design) -> list[tuple]:
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant).rows("08_cables")


def _pod():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    set_cabling(design, "cross-connect")
    place_panels(design)
    return design


@pytest.mark.parametrize(
    "make",
    [
        lambda: zone_hall("sr4-400g"),
        lambda: zone_hall("fr4-400g"),
        lambda: two_rack_hall(12.0, "fr4-400g", nics=8),  # LC cassettes
        lambda: two_rack_hall(12.0, "sr8-800g", nics=4),  # two MPO legs per port
        _pod,
    ],
    ids=["zones-sr4", "zones-fr4", "cassettes", "sr8", "cross-connect-pod"],
)
@pytest.mark.parametrize(
    ("name", "oracle"),
    [
        ("_trunk_leg_cables", netbox_legs_oracle.trunk_leg_cables),
        ("_place_legs", netbox_legs_oracle.place_legs),
    ],
)
def test_leg_ports_and_cables_are_the_oracles_rows(make, name, oracle, monkeypatch):
    design = make()
    got = _cables(design)
    legs = [r for r in got if r[2] != "dcim.interface" and r[6] != "dcim.interface"]
    assert legs  # the design has trunk legs
    monkeypatch.setattr(panels, name, oracle)
    assert got == _cables(make())
