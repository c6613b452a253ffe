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


def _trace(api, interface_id: int) -> tuple[str, str, list[str]]:
    """From an interface, follow cables and the panels' port mappings (NetBox's trace, over
    the fake's tables): the far (device, interface) and the panels passed."""
    db = api.db
    by_end = {}
    for cable in db["cables"].values():
        a, b = cable["a_terminations"][0], cable["b_terminations"][0]
        by_end[(a["object_type"], a["object_id"])] = b
        by_end[(b["object_type"], b["object_id"])] = a
    templates = {
        kind: {(t["device_type"], t["name"]): t for t in db[f"{kind}-templates"].values()}
        for kind in ("front-port", "rear-port")
    }
    rear_template_name = {t["id"]: t["name"] for t in db["rear-port-templates"].values()}

    def port(kind, device, name):
        return next(i for i, p in db[kind].items() if p["device"] == device and p["name"] == name)

    here, position, panels = ("dcim.interface", interface_id), 1, []
    for _ in range(12):
        far = by_end[here]
        kind, obj = far["object_type"], far["object_id"]
        if kind == "dcim.interface":
            p = db["interfaces"][obj]
            return db["devices"][p["device"]]["name"], p["name"], panels
        table = "front-ports" if kind == "dcim.frontport" else "rear-ports"
        p = db[table][obj]
        device = db["devices"][p["device"]]
        panels.append(device["name"])
        dtype = device["device_type"]
        if kind == "dcim.frontport":  # through to its rear port, at the mapped position
            (m,) = templates["front-port"][(dtype, p["name"])]["rear_ports"]
            position = m["rear_port_position"]
            here = (
                "dcim.rearport",
                port("rear-ports", p["device"], rear_template_name[m["rear_port"]]),
            )
        else:  # a rear port: out of the front port mapped to this position
            front = next(
                t
                for t in templates["front-port"].values()
                if t["device_type"] == dtype
                and any(
                    rear_template_name[m["rear_port"]] == p["name"]
                    and m["rear_port_position"] == position
                    for m in t["rear_ports"]
                )
            )
            here = ("dcim.frontport", port("front-ports", p["device"], front["name"]))
    raise AssertionError("no far interface within 12 hops")


def test_a_design_cabled_through_panels_is_pushed_and_traces_through_them():
    """Patch panels as NetBox models them: devices whose types have rear and front port
    templates (front mapped to rear and position, NetBox 4.5's rear_ports); cords end on front
    ports, trunk legs on rear ports; every link traces from its A interface to its B."""
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    set_cabling(design, "cross-connect")
    place_panels(design)
    desired = _desired(design)
    api = FakeNetBox()
    result = push(api, desired)
    assert not result.refused, result.refused[:3]
    assert api.count("cables") == len(desired["cables"]) > 2 * len(design.links)
    assert api.count("front-port-templates") == len(desired["front-port-templates"]) > 0
    assert all(t["rear_ports"] for t in api.db["front-port-templates"].values())
    name = {d.id: d.name for d in design.devices.values()}
    device_id = {d["name"]: i for i, d in api.db["devices"].items()}
    panels = {d.name for d in design.devices.values() if d.role == "patch-panel"}
    for link in design.links.values():
        a = next(
            i
            for i, p in api.db["interfaces"].items()
            if p["device"] == device_id[name[link.a.device]] and p["name"] == link.a.port
        )
        device, port, passed = _trace(api, a)
        assert (device, port) == (name[link.b.device], link.b.port), link.id
        assert len(passed) >= 2 and set(passed) <= panels
    api.writes.clear()
    again = push(api, desired)
    assert all(c == (0, 0, 0) for c in _counts(again.plan).values()), _counts(again.plan)
    assert api.writes == []


def test_a_cable_end_of_another_kind_is_refused_with_a_sentence():
    design = small_pod()
    plant = plant_of(design)
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    rows = export.rows("08_cables")
    rows[0] = (*rows[0][:2], "dcim.consoleport", *rows[0][3:])
    export.set_rows("08_cables", export.tables["08_cables"].header, rows)
    with pytest.raises(PushRefused, match="dcim.consoleport"):
        desired_objects(export)


def test_modules_of_hallwright_s_types_are_created_without_replicating_components():
    """A transceiver module type Hallwright writes has no component templates: its modules ask
    NetBox not to look for any (replicate_components false); a module of a type NetBox already
    held (the team's own, maybe with templates) keeps NetBox's default."""
    design = small_pod()
    desired = _desired(design)
    api = FakeNetBox()
    push(api, desired)
    modules = list(api.db["modules"].values())
    assert modules and all(m["replicate_components"] is False for m in modules)
    held_key = next(iter(desired["module-types"]))
    held = dict(desired["module-types"][held_key].fields, manufacturer=None)
    api = FakeNetBox()
    api.create("module-types", [dict(held, manufacturer=_maker(api, held_key[0]))])
    push(api, desired, keep_held_types=True)
    by_type = {}
    for m in api.db["modules"].values():
        by_type.setdefault(api.db["module-types"][m["module_type"]]["model"], set()).add(
            m.get("replicate_components", True)
        )
    assert by_type.pop(held["model"]) == {True}
    assert by_type and all(v == {False} for v in by_type.values())


def _maker(api, slug: str) -> int:
    (made,) = api.create("manufacturers", [{"name": slug, "slug": slug}])
    return made["id"]


def test_requests_are_sized_by_the_time_netbox_takes_per_object():
    """A kind's first request is small; the next ones take about REQUEST_S at the rate seen,
    at most doubling: 18 devices in 96 s (NetBox 4.7 on a loaded machine) -> 3 a request, not
    a chunk of 200 that would run ~18 min, past any web timeout."""
    from model.outputs.netbox.rest_push import CHUNK, FIRST_CHUNK, REQUEST_S, next_chunk

    assert next_chunk(18, 96.0) == int(REQUEST_S / (96.0 / 18)) == 3
    assert next_chunk(10, 0.5) == 20  # fast: doubles
    assert next_chunk(160, 1.0) == CHUNK
    assert next_chunk(1, 300.0) == 1
    design = small_pod()
    desired = _desired(design)
    api = FakeNetBox()
    push(api, desired, connections=1)  # one at a time: side by side in test_netbox_push_parallel
    sizes = [n for method, kind, n in api.writes if method == "POST" and kind == "cables"]
    assert sum(sizes) == len(desired["cables"]) > FIRST_CHUNK
    assert sizes[0] == FIRST_CHUNK and sizes[1] == min(2 * FIRST_CHUNK, sum(sizes) - sizes[0])


def test_a_push_reads_each_site_kind_again_only_when_it_may_have_changed():
    """The site's cables are read once by a push that deletes nothing (the plan's read; none
    for a new site): not again before writing them, nor after (no kind refers to a cable); a
    push that deletes a device reads them again (NetBox's cascade)."""
    design = small_pod()
    api = FakeNetBox()
    reads: list[str] = []
    read_all = api.read_all

    def counting(endpoint, params):
        reads.append(endpoint)
        return read_all(endpoint, params)

    api.read_all = counting  # type: ignore[method-assign]
    push(api, _desired(design))
    assert reads.count("cables") == 0 and reads.count("modules") == 0  # a new site's
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 3.0, rack.y)})
    reads.clear()
    moved = push(api, _desired(design))
    assert moved.plan["racks"].change and reads.count("cables") == 1
    design.remove_devices([next(d.id for d in design.devices.values() if d.role == "leaf")])
    reads.clear()
    gone = push(api, _desired(design))
    assert gone.plan["devices"].delete and reads.count("cables") == 2
    assert api.count("cables") == len(design.links)
