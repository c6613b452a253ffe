"""Patch panels are named by their rack and U (``C01-U42``, TIA-606's rack and position): when
placed by hand or by the generator, unique hall-wide, following the panel when its rack is
renamed or it is moved (one change per edit, undone byte for byte); a name typed by hand and the
``pp27`` of files saved before stay as they are."""

from __future__ import annotations

import re

import msgspec
import pytest

from model.design.changes import ChangeKind
from model.design.placement import new_device
from model.design.rows import renumber_by_row
from model.design.structured_edit import place_panel
from model.files.design_file import design_to_bytes, read_design_bytes
from tests.builders import device, empty_hall, rack


@pytest.fixture
def hall():
    design = empty_hall(20.0, 8.4)
    rack(design, "r1", 1.0, 3.0, name="C01")
    rack(design, "n1", 6.0, 3.0, name="C02")
    device(design, "leaf1", "n1", 1, "qm9700")
    return design


def changes_of(design, edit):
    seen = []
    subscription = design.subscribe(seen.append)
    try:
        edit()
    finally:
        subscription.close()
    return seen


def test_a_panel_is_named_by_its_rack_and_u(hall):
    top = hall.racks["r1"].height_u
    first = place_panel(hall, "r1", "panel-mpo-1u-72")
    second = place_panel(hall, "r1", "enclosure-1u-4", u=30)
    assert (first.name, second.name) == (f"C01-U{top}", "C01-U30")
    # A panel type dropped into a rack like any device is named the same way; other devices
    # keep their role's stem.
    assert new_device(hall, "panel-mpo-1u-72", "n1", 40).name == "C02-U40"
    assert new_device(hall, "qm9700", "n1", 20).name.startswith("leaf")


def test_a_name_held_by_another_device_gets_a_suffix(hall):
    hall.update_devices([msgspec.structs.replace(hall.devices["leaf1"], name="C01-U40")])
    assert place_panel(hall, "r1", "panel-mpo-1u-72", u=40).name == "C01-U40-2"


def test_a_rack_name_at_the_length_limit_still_names_its_panels(hall):
    from model.design.limits import MAX_NAME_LENGTH

    long_name = "R" * MAX_NAME_LENGTH
    hall.update_racks([msgspec.structs.replace(hall.racks["r1"], name=long_name)])
    panel = place_panel(hall, "r1", "panel-mpo-1u-72", u=42)
    assert panel.name == "R" * (MAX_NAME_LENGTH - 4) + "-U42"
    taken = "R" * (MAX_NAME_LENGTH - 4) + "-U41"
    hall.update_devices([msgspec.structs.replace(hall.devices["leaf1"], name=taken)])
    again = place_panel(hall, "r1", "panel-mpo-1u-72", u=41)
    assert again.name == "R" * (MAX_NAME_LENGTH - 6) + "-U41-2"
    hall.update_racks([msgspec.structs.replace(hall.racks["r1"], name="C09")])
    assert hall.devices[panel.id].name == "C09-U42"  # the cut name still follows its rack


def test_renaming_a_rack_renames_its_panels_in_the_same_change(hall):
    auto = place_panel(hall, "r1", "panel-mpo-1u-72", u=42)
    typed = place_panel(hall, "r1", "panel-mpo-1u-72", u=41)
    hall.update_devices([msgspec.structs.replace(typed, name="MDA-PP-A")])
    before = design_to_bytes(hall)
    old_rack = hall.racks["r1"]
    changes = changes_of(
        hall, lambda: hall.update_racks([msgspec.structs.replace(old_rack, name="B07")])
    )
    assert hall.devices[auto.id].name == "B07-U42"
    assert hall.devices[typed.id].name == "MDA-PP-A"  # the user's own name stays
    (change,) = changes
    assert change.ids(ChangeKind.RACKS_CHANGED) == ("r1",)
    assert change.ids(ChangeKind.DEVICES_CHANGED) == (auto.id,)
    hall.update_racks([old_rack])  # what the undo command does
    assert design_to_bytes(hall) == before


def test_renumber_by_row_carries_the_panels_along(hall):
    panel = place_panel(hall, "n1", "panel-mpo-1u-72", u=45)
    hall.update_racks(renumber_by_row(hall))
    rack_name = hall.racks["n1"].name
    assert rack_name != "C02"
    assert hall.devices[panel.id].name == f"{rack_name}-U45"


def test_moving_a_panel_renames_it_and_moving_back_restores_it(hall):
    panel = place_panel(hall, "r1", "panel-mpo-1u-72", u=42)
    before = design_to_bytes(hall)
    changes = changes_of(hall, lambda: hall.move_devices({panel.id: ("n1", 38)}))
    assert hall.devices[panel.id].name == "C02-U38"
    (change,) = changes
    assert change.ids(ChangeKind.DEVICES_MOVED) == (panel.id,)
    assert change.ids(ChangeKind.DEVICES_CHANGED) == (panel.id,)
    hall.move_devices({panel.id: ("r1", 42)})
    assert design_to_bytes(hall) == before
    hall.move_devices({"leaf1": ("n1", 10)})  # a switch's name is not a place
    assert hall.devices["leaf1"].name == "leaf1"


def test_a_file_with_the_old_panel_names_reads_and_writes_unchanged(hall):
    panel = place_panel(hall, "r1", "panel-mpo-1u-72", u=42)
    hall.update_devices([msgspec.structs.replace(panel, name="pp27")])
    data = design_to_bytes(hall)
    again = read_design_bytes(data)
    assert again.devices[panel.id].name == "pp27"
    assert design_to_bytes(again) == data
    again.update_racks([msgspec.structs.replace(again.racks["r1"], name="B07")])
    assert again.devices[panel.id].name == "pp27"  # not a place name: left as it was


def test_the_generators_panels_are_named_by_place_and_unique():
    from model.generators.generate import apply_cabling, generate

    design = generate("rail-optimized", nodes=16, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    apply_cabling(design, "zones")
    panels = [d for d in design.devices.values() if d.role == "patch-panel"]
    assert len(panels) > 4
    names = [p.name for p in panels]
    assert len(set(names)) == len(names)
    for p in panels:
        assert p.name == f"{design.racks[p.rack].name}-U{p.u}"
        assert re.fullmatch(r"[A-Z]+\d+-U\d+", p.name)


def test_old_names_are_replaced_only_when_asked_and_only_the_old_ones(hall):
    from model.design.panel_names import old_names_replaced

    olds = []
    for u, name in ((42, "pp1"), (41, "pp27"), (40, "MDA-PP-A")):
        panel = place_panel(hall, "r1", "panel-mpo-1u-72", u=u)
        hall.update_devices([msgspec.structs.replace(panel, name=name)])
        olds.append(panel.id)
    # A device already holds the name the U41 panel would get: it gets a suffix.
    hall.update_devices([msgspec.structs.replace(hall.devices["leaf1"], name="C01-U41")])
    racks = {r.id: r.name for r in hall.racks.values()}
    renamed = {d.id: d.name for d in old_names_replaced(hall.devices.values(), racks)}
    assert renamed == {olds[0]: "C01-U42", olds[1]: "C01-U41-2"}  # the typed name stays
    hall.update_devices(
        old_names_replaced(hall.devices.values(), racks)
    )  # through the edit API, as the menu's undo command does
    assert old_names_replaced(hall.devices.values(), racks) == []
