"""NetBox export of a structured design: panels with front/rear ports, cords, trunks, traces.

The trace here follows the exported files the way NetBox traces a cable path: interface ->
cable -> front port -> (the device type's port mapping) rear port and position -> trunk -> rear
port, same position -> front port -> cable -> interface. The live run (tests/netbox_live) checks
the same in a real NetBox.
"""

from __future__ import annotations

import json
import math

import pytest

from model.cabling import CablePlant
from model.export.netbox import netbox_files, netbox_tables
from model.export.netbox_names import interface_name
from model.generate import generate
from model.schedule import schedule_rows
from model.structured_layout import set_cabling, structured_layout
from tests.model.test_structured_layout import two_rack_hall


def _export(design):
    plant = CablePlant(design)
    return netbox_tables(design, schedule_rows(design, plant), plant), plant


@pytest.fixture(scope="module")
def structured_pod():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    set_cabling(design, "cross-connect")
    export, plant = _export(design)
    return design, plant, export


def _types(export) -> dict[str, dict]:
    """Device-type model -> its document, as written to its YAML file."""
    files = netbox_files(export)
    docs = [p.document() for p in export.panel_types] + [v.document() for v in export.device_types]
    for doc in docs:
        text = files[f"shared/03_device_types/{doc['slug']}.yaml"].decode()
        assert f"model: {json.dumps(doc['model'])}" in text
    return {d["model"]: d for d in docs}


def _tracer(export):
    types = _types(export)
    type_of = {row[0]: row[3] for row in export.rows("07_devices")}
    far = {}
    for r in export.rows("08_cables") + export.rows("09_backplane_cables"):
        a, b = (r[1], r[2], r[3]), (r[5], r[6], r[7])
        assert a not in far and b not in far, f"a port with two cables: {a} {b}"
        far[a], far[b] = b, a

    def mapping(device):
        return types[type_of[device]].get("port-mappings", [])

    def trace(device: str, port: str) -> tuple[list, tuple]:
        hops, node = [], far[(device, "dcim.interface", port)]
        while node[1] != "dcim.interface":
            hops.append(node)
            dev, kind, name = node
            assert kind == "dcim.frontport", node
            (m,) = [m for m in mapping(dev) if m["front_port"] == name]
            hops.append((dev, "dcim.rearport", m["rear_port"]))
            rear = far[(dev, "dcim.rearport", m["rear_port"])]
            hops.append(rear)
            position = m["rear_port_position"]
            (back,) = [
                x
                for x in mapping(rear[0])
                if x["rear_port"] == rear[2] and x["rear_port_position"] == position
            ]
            hops.append((rear[0], "dcim.frontport", back["front_port"]))
            node = far[hops[-1]]
        return hops, node

    return trace


def test_every_structured_link_traces_through_two_panels_to_its_far_port(structured_pod):
    design, plant, export = structured_pod
    names = {row[12].removeprefix("Hallwright "): row[0] for row in export.rows("07_devices")}
    trace = _tracer(export)
    structured = structured_layout(plant).structured_links()
    assert structured == set(design.links)  # every link of the pod is inter-rack optical
    for link_id in sorted(structured):
        link = design.links[link_id]
        a = (names[link.a.device], interface_name(link.a.port))
        b = (names[link.b.device], "dcim.interface", interface_name(link.b.port))
        hops, end = trace(*a)
        assert end == b, link_id
        assert [h[1] for h in hops] == [
            "dcim.frontport",
            "dcim.rearport",
            "dcim.rearport",
            "dcim.frontport",
        ], link_id
        assert hops[0][0] == hops[1][0] != hops[2][0] == hops[3][0]  # the panels of two racks


def test_panels_are_the_layouts_panel_count_at_free_units_of_their_racks(structured_pod):
    design, plant, export = structured_pod
    layout = structured_layout(plant)
    panels = [r for r in export.rows("07_devices") if r[1] == "patch-panel"]
    assert len(panels) == layout.panel_counts()["panel-mpo-1u-72"] == 5
    assert len(export.rows("07_devices")) == len(design.devices) + len(panels)
    types = design.catalog.device_types
    for rack in design.racks.values():
        used = [
            u
            for d in design.devices.values()
            if d.rack == rack.id
            for u in range(d.u, d.u + math.ceil(types[d.type].u_height))
        ]
        mine = [r[8] for r in panels if r[7] == rack.name]
        assert not set(mine) & set(used) and len(set(mine)) == len(mine)
        free = [u for u in range(rack.height_u, 0, -1) if u not in used]
        assert mine == free[: len(mine)]  # rack-top: the highest free units, top first
    names = [r[0].casefold() for r in export.rows("07_devices")]
    assert len(set(names)) == len(names)
    assert ("patch-panel", "patch-panel", "795548") in export.rows("02_device_roles")
    assert ("Generic", "generic") in export.rows("01_manufacturers")


def test_cables_are_two_cords_per_link_and_a_trunk_with_their_ordered_lengths(structured_pod):
    design, plant, export = structured_pod
    layout = structured_layout(plant)
    cables = export.rows("08_cables")
    cords = [r for r in cables if "dcim.interface" in (r[2], r[6])]
    trunks = [r for r in cables if r[2] == r[6] == "dcim.rearport"]
    assert len(cords) == 2 * len(design.links) and len(trunks) == len(layout.trunks)
    assert len(cables) == len(cords) + len(trunks)
    ordered = sorted(c.ordered_m for c in layout.cords)
    assert sorted(r[11] for r in cords) == pytest.approx(ordered)
    assert sorted(r[11] for r in trunks) == pytest.approx(
        sorted(t.ordered_m for t in layout.trunks)
    )
    labels = [r[10] for r in cables]
    assert len(set(labels)) == len(labels)  # lengths are matched by label in NetBox
    assert all(r[8] == "mmf-om4" for r in cables)


def test_panel_device_type_yaml_has_rear_front_ports_and_mappings(structured_pod):
    _, _, export = structured_pod
    doc = _types(export)["EST-PNL-MPO-1U-72"]
    assert doc["manufacturer"] == "Generic" and doc["u_height"] == 1
    assert doc["is_full_depth"] is False and doc["airflow"] == "passive"
    assert len(doc["rear-ports"]) == len(doc["front-ports"]) == len(doc["port-mappings"]) == 72
    assert doc["rear-ports"][0] == {"name": "R1", "type": "mpo", "positions": 1}
    assert doc["front-ports"][4] == {"name": "F5", "type": "mpo", "rear_port": "R5"}
    assert doc["port-mappings"][4] == {
        "front_port": "F5",
        "front_port_position": 1,
        "rear_port": "R5",
        "rear_port_position": 1,
    }
    # NetBox imports related objects in its own order, but rear ports must exist first for the
    # classic rear_port key: the document lists them first too.
    keys = list(doc)
    assert keys.index("rear-ports") < keys.index("front-ports") < keys.index("port-mappings")


def test_lc_cassettes_mirror_at_the_far_end_so_the_trace_lands_on_the_plugged_port():
    design = two_rack_hall(12.0, "fr4-400g", nics=8)
    export, plant = _export(design)
    layout = structured_layout(plant)
    enclosures = [r for r in export.rows("07_devices") if r[1] == "patch-panel"]
    assert len(enclosures) == layout.panel_counts()["enclosure-1u-4"] == 2
    trace = _tracer(export)
    cables = export.rows("08_cables")
    for link_id in sorted(design.links):
        link = design.links[link_id]
        hops, end = trace(link.a.device, link.a.port)
        assert end == (link.b.device, "dcim.interface", link.b.port), link_id
        _, near, _, far, _ = layout.channels[link_id].elements
        assert hops[0][2].endswith(f"-{near.port}") and hops[3][2].endswith(f"-{far.port}")
    assert (hops[0][2], hops[3][2]) == ("C2-2", "C2-5")  # l-8: second trunk, mirrored ports
    far_rack = design.racks["n1"].name
    doc = _types(export)[[r[3] for r in enclosures if r[7] == far_rack][0]]
    rear = {p["name"]: p["positions"] for p in doc["rear-ports"]}
    assert rear == {"C1": 6, "C2": 6}
    far_map = {m["front_port"]: m["rear_port_position"] for m in doc["port-mappings"]}
    assert far_map["C1-6"] == 1 and far_map["C1-1"] == 6
    trunk_rows = [r for r in cables if r[2] == "dcim.rearport"]
    assert len(trunk_rows) == len(layout.trunks) == 2


def test_a_direct_design_exports_no_panel_and_one_cable_per_link():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    export, _ = _export(design)
    assert not export.panel_types
    assert all(r[1] != "patch-panel" for r in export.rows("07_devices"))
    assert len(export.rows("08_cables")) == len(design.links)
    assert {r[2] for r in export.rows("08_cables")} == {"dcim.interface"}


@pytest.mark.parametrize("medium", ["sr8-800g", "fr8-800g"])
def test_links_with_two_connectors_per_port_trace_and_export_every_trunk(medium):
    design = two_rack_hall(12.0, medium, nics=4)
    export, plant = _export(design)
    layout = structured_layout(plant)
    trace = _tracer(export)
    for link in design.links.values():
        _, end = trace(link.a.device, link.a.port)
        assert end == (link.b.device, "dcim.interface", link.b.port)
    trunks = [r for r in export.rows("08_cables") if r[2] == "dcim.rearport"]
    assert len(trunks) == sum(t.quantity for t in layout.trunks)
    cords = [r for r in export.rows("08_cables") if "dcim.interface" in (r[2], r[6])]
    assert len(cords) == 2 * len(design.links)


def _netbox_lists(export, folder):
    """The export as NetBox's list exports would give it back (their column titles)."""
    import csv

    site = export.site
    tables = {
        "netbox_sites.csv": (["Name"], [[site]]),
        "netbox_racks.csv": (
            ["Name", "Site", "Height", "Outer Width", "Outer Depth", "Description"],
            [
                [r[2], site, f"{r[6]}U", f"{r[7]} mm", f"{r[8]} mm", r[11]]
                for r in export.rows("06_racks")
            ],
        ),
        "netbox_devices.csv": (
            ["Name", "Site", "Rack", "Role", "Manufacturer", "Type", "Position", "Description"],
            [[r[0], site, r[7], r[1], r[2], r[3], r[8], r[12]] for r in export.rows("07_devices")],
        ),
        "netbox_cables.csv": (
            ["Device A", "Termination A", "Device B", "Termination B", "Site A", "Site B"]
            + ["Label", "Length"],
            [
                [r[1], r[3], r[5], r[7], r[0], r[4], r[10], f"{r[11]} m" if r[11] else ""]
                for r in export.rows("08_cables")
            ],
        ),
    }
    for name, (header, rows) in tables.items():
        with open(folder / name, "w", newline="") as handle:
            csv.writer(handle).writerows([header, *rows])


@pytest.mark.parametrize("medium", ["sr4-400g", "fr4-400g"])
def test_import_netbox_joins_cord_trunk_cord_into_the_link_and_exports_it_again(tmp_path, medium):
    from model.asbuilt.netbox_import import import_netbox

    design = two_rack_hall(12.0, medium, nics=8)
    first, plant = _export(design)
    _netbox_lists(first, tmp_path)
    result = import_netbox(tmp_path)
    back = result.design
    assert back.settings.cabling == "cross-connect"
    assert len(back.devices) == len(design.devices) and len(back.links) == len(design.links)
    assert any("2 patch panels read as pass-through" in n for n in result.notes), result.notes
    layout = structured_layout(plant)

    def ends(d):  # the cabling schedule's A end may be either end of a link
        return {
            frozenset(
                [(d.devices[k.a.device].name, k.a.port), (d.devices[k.b.device].name, k.b.port)]
            )
            for k in d.links.values()
        }

    assert ends(back) == ends(design)
    for link in back.links.values():  # as-built = cord A + trunk + cord B as recorded
        cord_a, _, trunk, _, cord_b = layout.channels[_by_label(design, plant, link.label)].elements
        assert link.as_built_m == pytest.approx(cord_a.length_m + trunk.length_m + cord_b.length_m)
    if medium != "sr4-400g":
        return  # the import does not read a cable's medium back: the default (SR4) is chosen
    second, _ = _export(back)
    for stem in ("07_devices", "08_cables"):
        assert len(second.rows(stem)) == len(first.rows(stem)), stem

    def cables(export):  # ends and label (lengths follow the new rack positions)
        return {(r[1], r[3], r[5], r[7], r[10]) for r in export.rows("08_cables")}

    assert cables(second) == cables(first)
    panels = sorted(r[3] for r in second.rows("07_devices") if r[1] == "patch-panel")
    assert panels == sorted(r[3] for r in first.rows("07_devices") if r[1] == "patch-panel")


def _by_label(design, plant, label):
    (link_id,) = [r.link_id for r in schedule_rows(design, plant) if r.label == label]
    return link_id
