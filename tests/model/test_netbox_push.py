"""push-netbox's plan and writing against an in-memory NetBox: idempotent, only what changed."""

from __future__ import annotations

import pytest

from model.generators.generate import generate
from model.outputs.netbox.export import netbox_tables
from model.outputs.netbox.rest_objects import KINDS, PushRefused, desired_objects
from model.outputs.netbox.rest_push import push
from model.outputs.schedule import schedule_rows
from model.structured.layout import place_panels, set_cabling
from tests.builders import small_pod
from tests.model.bom_test_helpers import plant_of
from tests.model.netbox_fake_api import FakeNetBox


def _desired(design):
    plant = plant_of(design)
    return desired_objects(netbox_tables(design, schedule_rows(design, plant), plant))


def _counts(plan) -> dict[str, tuple[int, int, int]]:
    return {k: (len(p.create), len(p.change), len(p.delete)) for k, p in plan.items()}


def test_first_push_creates_everything_and_the_second_changes_nothing():
    design = small_pod()
    desired = _desired(design)
    api = FakeNetBox()
    first = push(api, desired)
    assert not first.refused
    for kind, _ in KINDS:
        assert len(first.plan[kind].create) == len(desired[kind]), kind
    assert api.count("devices") == len(design.devices) == 6
    assert api.count("cables") == len(design.links)
    assert api.count("modules") == len(desired["modules"]) > 0
    # every cable ends on the interfaces the design names
    ends = {
        tuple(
            sorted(
                (
                    api.db["interfaces"][c["a_terminations"][0]["object_id"]]["name"],
                    api.db["interfaces"][c["b_terminations"][0]["object_id"]]["name"],
                )
            )
        )
        for c in api.db["cables"].values()
    }
    assert len(ends) > 1
    api.writes.clear()
    second = push(api, desired)
    assert not second.refused
    assert all(c == (0, 0, 0) for c in _counts(second.plan).values()), _counts(second.plan)
    assert api.writes == []  # nothing sent: no duplicate, no needless PATCH


def test_dry_run_plans_and_writes_nothing():
    api = FakeNetBox()
    result = push(api, _desired(small_pod()), dry_run=True)
    assert result.plan["devices"].create and not result.written
    assert api.writes == [] and api.count("devices") == 0


def test_a_moved_rack_changes_only_the_cables_of_that_rack():
    design = small_pod()
    api = FakeNetBox()
    push(api, _desired(design))
    moved = design.racks["r1"]
    design.move_racks({"r1": (moved.x + 6.0, moved.y + 3.0)})
    result = push(api, _desired(design))
    counts = _counts(result.plan)
    changed = result.plan["cables"].change
    assert changed and all(f == ["length"] for f in changed.values())
    # The rack itself changes too: its floor position is in its comments (floor_record)
    assert {k: v for k, v in counts.items() if k != "cables"} == {
        k: (0, 1, 0) if k == "racks" else (0, 0, 0) for k in counts if k != "cables"
    }
    assert {k[-1]: f for k, f in result.plan["racks"].change.items()} == {"R1": ["comments"]}
    r1_devices = {d.name for d in design.devices.values() if d.rack == "r1"}
    for _site, a, b in changed:
        assert a[0] in r1_devices or b[0] in r1_devices
    touching = [k for k in result.plan["cables"].change]
    lengths = {c["label"]: c["length"] for c in api.db["cables"].values()}
    wanted = _desired(design)["cables"]
    for key in touching:
        assert lengths[wanted[key].fields["label"]] == wanted[key].fields["length"]


def test_a_removed_device_is_deleted_with_its_cables():
    design = small_pod()
    api = FakeNetBox()
    push(api, _desired(design))
    gone = next(d for d in design.devices.values() if d.rack == "r2")
    cables_before = api.count("cables")
    design.remove_devices([gone.id])
    result = push(api, _desired(design))
    assert [k[1] for k in result.plan["devices"].delete] == [gone.name]
    assert result.plan["cables"].delete
    assert api.count("devices") == len(design.devices)
    assert api.count("cables") == cables_before - len(result.plan["cables"].delete)


def test_every_refused_object_is_reported_and_the_rest_is_written():
    design = small_pod()
    victim = sorted(d.name for d in design.devices.values())[0]

    def refuse(kind, body):
        if kind == "devices" and body.get("name") == victim:
            return "Device name is reserved."
        return None

    api = FakeNetBox(refuse)
    result = push(api, _desired(design))
    refused = {(r.kind, r.key[1] if r.kind == "devices" else None): r.error for r in result.refused}
    assert refused[("devices", victim)] == "__all__: Device name is reserved."
    assert api.count("devices") == len(design.devices) - 1
    # its cables and modules are refused as depending on it, never sent half-formed
    dependants = [r for r in result.refused if r.kind in ("cables", "modules")]
    assert dependants and all("not in NetBox" in r.error for r in dependants)
    assert api.count("cables") == len(design.links) - sum(
        r.kind == "cables" for r in result.refused
    )


def test_objects_another_team_created_are_matched_not_duplicated():
    design = small_pod()
    api = FakeNetBox()
    # the devicetype-library's spelling, and a role another team coloured its own way
    api.create("manufacturers", [{"name": "Nvidia", "slug": "nvidia"}])
    api.create("device-roles", [{"name": "Leaf", "slug": "leaf", "color": "ff0000"}])
    result = push(api, _desired(design))
    assert result.plan["manufacturers"].create == [] and not result.plan["manufacturers"].change
    assert not result.plan["device-roles"].change
    assert api.count("manufacturers") == 1
    (maker,) = api.db["manufacturers"].values()
    assert maker["name"] == "Nvidia"  # used as it is, not renamed under the other team
    (leaf,) = [r for r in api.db["device-roles"].values() if r["slug"] == "leaf"]
    assert leaf["color"] == "ff0000"
    assert all(t["manufacturer"] == maker["id"] for t in api.db["device-types"].values())


def test_a_design_cabled_through_panels_is_refused_with_a_sentence():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    set_cabling(design, "cross-connect")
    place_panels(design)
    with pytest.raises(PushRefused, match="patch panels"):
        _desired(design)
