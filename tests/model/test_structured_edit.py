"""Panels as design records: place, remove (with undo data), route a link via panels, save."""

from __future__ import annotations

import msgspec
import pytest

from model.design.design import DesignError
from model.design.structured_edit import (
    panels_in_rack,
    place_panel,
    remove_panels,
    restore_panels,
    route_via,
    top_free_u,
)
from model.files.design_file import SCHEMA_VERSION, design_to_bytes, read_design_bytes
from tests.builders import device, empty_hall, link, rack


@pytest.fixture
def hall():
    design = empty_hall(20.0, 8.4)
    rack(design, "r1", 1.0, 3.0)
    rack(design, "n1", 6.0, 3.0)
    device(design, "a1", "r1", 1, "dgx-h100")
    device(design, "leaf1", "n1", 1, "qm9700")
    link(design, "l-1", ("a1", "nic1"), ("leaf1", "p1"))
    return design


def test_a_panel_takes_the_top_free_u_and_collides_like_a_device(hall):
    top = hall.racks["r1"].height_u
    first = place_panel(hall, "r1", "panel-mpo-1u-72")
    second = place_panel(hall, "r1", "enclosure-1u-4")
    assert (first.u, second.u) == (top, top - 1)
    assert [p.id for p in panels_in_rack(hall, "r1")] == [first.id, second.id]
    assert first.role == "patch-panel"
    with pytest.raises(DesignError, match="collides"):
        place_panel(hall, "r1", "panel-mpo-1u-72", u=top)
    with pytest.raises(DesignError, match="not a patch panel type"):
        place_panel(hall, "r1", "qm9700")
    assert top_free_u(hall, "r1") == top - 2


def test_route_via_validates_and_returns_the_old_link_for_undo(hall):
    p1 = place_panel(hall, "r1", "panel-mpo-1u-72")
    p2 = place_panel(hall, "n1", "panel-mpo-1u-72")
    old = route_via(hall, "l-1", [p1.id, p2.id])
    assert old.via == () and hall.links["l-1"].via == (p1.id, p2.id)
    with pytest.raises(DesignError, match="not a patch panel"):
        route_via(hall, "l-1", ["leaf1"])
    with pytest.raises(DesignError, match="twice"):
        route_via(hall, "l-1", [p1.id, p1.id])
    assert hall.links["l-1"].via == (p1.id, p2.id)  # a refusal changes nothing
    hall.update_links([old])
    assert hall.links["l-1"].via == ()


def test_removing_a_panel_unroutes_its_links_and_restores_exactly(hall):
    p1 = place_panel(hall, "r1", "panel-mpo-1u-72")
    p2 = place_panel(hall, "n1", "panel-mpo-1u-72")
    route_via(hall, "l-1", [p1.id, p2.id])
    before = design_to_bytes(hall)
    removal = remove_panels(hall, [p1.id])
    assert p1.id not in hall.devices and hall.links["l-1"].via == (p2.id,)
    restore_panels(hall, removal)
    assert design_to_bytes(hall) == before
    with pytest.raises(DesignError, match="not a patch panel"):
        remove_panels(hall, ["a1"])


def test_panels_and_via_round_trip_through_the_file(hall):
    p1 = place_panel(hall, "r1", "panel-mpo-1u-72")
    route_via(hall, "l-1", [p1.id])
    data = design_to_bytes(hall)
    assert f'"schema_version": {SCHEMA_VERSION}'.encode() in data
    again = read_design_bytes(data)
    assert again.links["l-1"].via == (p1.id,)
    assert again.devices[p1.id].u == hall.racks["r1"].height_u


def test_device_names_in_a_row_are_the_ones_device_name_gives_one_by_one(hall):
    """Names taken one after another (the generator's panels) are what ``device_name`` gives
    when each named device is added before the next: the lowest free number, gaps filled."""
    from model.design.placement import DeviceNames, device_name

    for rack_id, u, name in (("r1", 30, "pp1"), ("r1", 32, "pp3"), ("n1", 30, "pp6")):
        added = place_panel(hall, rack_id, "panel-mpo-1u-72", u=u)
        hall.update_devices([msgspec.structs.replace(added, name=name)])
    one_by_one = read_design_bytes(design_to_bytes(hall))
    names = DeviceNames(hall)
    taken = [names.take(t) for t in ("panel-mpo-1u-72",) * 5 + ("qm9700", "dgx-h100")]
    expected = []
    for type_id in ("panel-mpo-1u-72",) * 5 + ("qm9700", "dgx-h100"):
        name = device_name(one_by_one, type_id)
        expected.append(name)
        added = place_panel(one_by_one, "n1", "panel-mpo-1u-72", u=40 - len(expected))
        one_by_one.update_devices([msgspec.structs.replace(added, name=name)])
    assert taken == expected
    assert taken[:5] == ["pp2", "pp4", "pp5", "pp7", "pp8"]


def test_the_generator_names_its_panels_without_rereading_every_device(monkeypatch):
    """An XL zoned hall places ~11k panels: naming each from the names of all ~20k devices
    took a minute. ``place_panels`` takes the names from one DeviceNames (which reads the
    names in use once), not one per panel."""
    from model.design.placement import DeviceNames
    from model.generators.generate import apply_cabling, generate

    design = generate("rail-optimized", nodes=16, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    reference = read_design_bytes(design_to_bytes(design))
    apply_cabling(reference, "zones")

    made = []
    original_init = DeviceNames.__init__

    def counted(self, *args):
        made.append(1)
        original_init(self, *args)

    monkeypatch.setattr(DeviceNames, "__init__", counted)
    apply_cabling(design, "zones")
    panels = sorted(d.name for d in design.devices.values() if d.role == "patch-panel")
    assert len(panels) == 10 and len(made) <= 2, len(made)  # one per placing pass, not per panel
    assert panels == sorted(d.name for d in reference.devices.values() if d.role == "patch-panel")
    assert design_to_bytes(design) == design_to_bytes(reference)
