"""NetBox export of a structured design: panel ports, cords, trunk legs, traces, round trip.

The trace here follows the exported files the way NetBox 4.7's legacy (profile-less) trace
does (``CablePath.from_origin``): interface -> cable -> front port -> (the device type's port
mapping) rear port, pushing its position when the rear port has several -> cable -> rear port
-> front port (popping the position) -> cable ... -> interface. The live run
(tests/netbox_live) checks the same in a real NetBox.
"""

from __future__ import annotations

import json

import pytest

from model.asbuilt.netbox_media import NETBOX_CABLE_TYPE_LABELS
from model.design.structured_edit import is_panel
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.netbox.export import netbox_files, netbox_tables
from model.outputs.netbox.names import interface_name
from model.outputs.schedule import schedule_rows
from model.structured.layout import (
    LC_ENCLOSURE,
    MPO_PANEL,
    place_panels,
    set_cabling,
    structured_layout,
)
from tests.model.test_structured_layout import two_rack_hall
from tests.model.test_structured_panels import zone_hall


def _export(design):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant), plant


@pytest.fixture(scope="module")
def structured_pod():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    set_cabling(design, "cross-connect")
    place_panels(design)
    export, plant = _export(design)
    return design, plant, export


def _types(export) -> dict[str, dict]:
    """Device-type model -> its document, as written to its YAML file."""
    files = netbox_files(export)
    docs = [v.document() for v in export.device_types]
    for doc in docs:
        text = files[f"shared/03_device_types/{doc['slug']}.yaml"].decode()
        assert f"model: {json.dumps(doc['model'])}" in text
    return {d["model"]: d for d in docs}


def _doc_of(export, type_id: str) -> dict:
    (variant,) = [v for v in export.device_types if v.dtype.id == type_id]
    return _types(export)[variant.model]


def _tracer(export):
    types = _types(export)
    type_of = {row[0]: row[3] for row in export.rows("07_devices")}
    far = {}
    for r in export.rows("08_cables") + export.rows("09_backplane_cables"):
        a, b = (r[1], r[2], r[3]), (r[5], r[6], r[7])
        assert a not in far and b not in far, f"a port with two cables: {a} {b}"
        far[a], far[b] = b, a

    def doc(device):
        return types[type_of[device]]

    def positions(device, rear):
        return {p["name"]: p["positions"] for p in doc(device)["rear-ports"]}[rear]

    def trace(device: str, port: str) -> tuple[list, tuple]:
        hops, stack = [], []
        node = far[(device, "dcim.interface", port)]
        while node[1] != "dcim.interface":
            hops.append(node)
            dev, kind, name = node
            maps = doc(dev)["port-mappings"]
            if kind == "dcim.frontport":
                (m,) = [m for m in maps if m["front_port"] == name]
                if positions(dev, m["rear_port"]) > 1:
                    stack.append(m["rear_port_position"])
                out = (dev, "dcim.rearport", m["rear_port"])
            else:
                assert kind == "dcim.rearport", node
                if positions(dev, name) > 1:
                    at = stack.pop()
                    (m,) = [
                        m for m in maps if m["rear_port"] == name and m["rear_port_position"] == at
                    ]
                else:
                    (m,) = [m for m in maps if m["rear_port"] == name]
                out = (dev, "dcim.frontport", m["front_port"])
            hops.append(out)
            node = far[out]
        return hops, node

    return trace


def _panels_passed(hops) -> list[str]:
    return list(dict.fromkeys(h[0] for h in hops))


def test_every_structured_link_traces_through_its_two_panels_to_its_far_port(structured_pod):
    design, plant, export = structured_pod
    names = {row[12].removeprefix("Hallwright "): row[0] for row in export.rows("07_devices")}
    trace = _tracer(export)
    layout = structured_layout(plant)
    assert layout.structured_links() == set(design.links)  # every link is inter-rack optical
    assert any(t.legs > 1 for t in layout.trunks)  # bundled trunks carry several legs
    for link_id in sorted(design.links):
        link = design.links[link_id]
        a = (names[link.a.device], interface_name(link.a.port))
        b = (names[link.b.device], "dcim.interface", interface_name(link.b.port))
        hops, end = trace(*a)
        assert end == b, link_id
        kinds = [h[1].removeprefix("dcim.") for h in hops]
        assert kinds == ["frontport", "rearport", "rearport", "frontport"], link_id
        panels = [
            names[e.object_id] for e in layout.channels[link_id].elements if e.kind == "panel"
        ]
        assert _panels_passed(hops) == panels, link_id


def test_panel_ports_are_the_cabling_schedules_panel_ports(structured_pod):
    design, plant, export = structured_pod
    names = {row[12].removeprefix("Hallwright "): row[0] for row in export.rows("07_devices")}
    schedule = {}
    panel_names = {d.name for d in design.devices.values() if d.role == "patch-panel"}
    for row in schedule_rows(design, plant):  # per segment: cords name the panel port
        if row.medium_kind == "patch-cord":
            ends = [(row.a_device, row.a_port), (row.b_device, row.b_port)]
            device_end, panel_end = ends if ends[1][0] in panel_names else ends[::-1]
            schedule[device_end] = (panel_end[0], f"F{panel_end[1]}")
    cords = [r for r in export.rows("08_cables") if "dcim.interface" in (r[2], r[6])]
    assert len(cords) == len(schedule) == 2 * len(design.links)
    by_name = {d.name: d for d in design.devices.values()}
    for r in cords:
        device_end, panel_end = ((r[1], r[3]), (r[5], r[7]))
        if r[2] != "dcim.interface":
            device_end, panel_end = panel_end, device_end
        device = by_name[device_end[0]]
        assert schedule[(device.name, device_end[1])] == panel_end, r
    assert set(names.values()) >= {p for p, _ in schedule.values()}


def test_panels_are_the_designs_panel_devices_at_their_units(structured_pod):
    design, _, export = structured_pod
    rows = [r for r in export.rows("07_devices") if r[1] == "patch-panel"]
    mine = [d for d in design.devices.values() if is_panel(design, d.id)]
    assert len(rows) == len(mine) == 5
    assert len(export.rows("07_devices")) == len(design.devices)  # no second, invented copy
    by_id = {r[12].removeprefix("Hallwright "): r for r in rows}
    for panel in mine:
        row = by_id[panel.id]
        assert (row[7], row[8]) == (design.racks[panel.rack].name, panel.u)
    assert ("patch-panel", "patch-panel", "795548") in export.rows("02_device_roles")


def test_cables_are_two_cords_per_link_and_one_per_trunk_leg_with_the_trunks_label(structured_pod):
    design, plant, export = structured_pod
    layout = structured_layout(plant)
    cables = export.rows("08_cables")
    cords = [r for r in cables if "dcim.interface" in (r[2], r[6])]
    legs = [r for r in cables if r[2] == r[6] == "dcim.rearport"]
    assert len(cords) == 2 * len(design.links)
    assert len(legs) == sum(len(leg.trunks) for leg in layout.legs) == len(cables) - len(cords)
    assert sorted(r[11] for r in cords) == pytest.approx(sorted(c.ordered_m for c in layout.cords))
    by_label: dict[str, list] = {}
    for r in legs:
        by_label.setdefault(r[10], []).append(r)
    assert len(by_label) == len(layout.trunks)  # one label per physical trunk
    assert sorted((len(v), v[0][11]) for v in by_label.values()) == sorted(
        (t.legs, t.ordered_m) for t in layout.trunks
    )
    # One physical trunk, one length: on leg 1, so NetBox's sum is the metres bought (#40).
    assert sum(r[11] or 0 for r in legs) == pytest.approx(sum(t.ordered_m for t in layout.trunks))
    for rows in by_label.values():
        assert [r[11] for r in rows[1:]] == [None] * (len(rows) - 1)
        assert all(r[12] == "" and "length on leg 1" in r[13] for r in rows[1:])
        assert {(r[1], r[5]) for r in rows} == {(rows[0][1], rows[0][5])}  # two panels
        assert rows[0][13].startswith("leg 1 of ") and f"of {len(rows)} of one trunk" in rows[0][13]
    assert len({r[10] for r in cords}) == len(cords)
    assert all(r[8] == "mmf-om4" for r in cables)


def test_panel_device_type_yaml_has_rear_front_ports_and_mappings(structured_pod):
    _, _, export = structured_pod
    doc = _doc_of(export, MPO_PANEL)
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
    # Rear ports must exist first for the classic rear_port key: the document lists them first.
    keys = list(doc)
    assert keys.index("rear-ports") < keys.index("front-ports") < keys.index("port-mappings")


@pytest.mark.parametrize("medium", ["sr4-400g", "fr4-400g"])
def test_zones_trace_through_the_hda_panels_adapter_rear_to_front(medium):
    design = zone_hall(medium)
    export, plant = _export(design)
    layout = structured_layout(plant)
    names = {row[12].removeprefix("Hallwright "): row[0] for row in export.rows("07_devices")}
    trace = _tracer(export)
    for link_id, link in sorted(design.links.items()):
        hops, end = trace(names[link.a.device], link.a.port)
        assert end == (names[link.b.device], "dcim.interface", link.b.port), link_id
        assert len(_panels_passed(hops)) == layout.channels[link_id].panels, link_id
    hops, _ = trace(names[design.links["l-11"].a.device], "nic1")
    kinds = [h[1].removeprefix("dcim.") for h in hops]
    assert kinds == ["frontport", "rearport", "rearport", "frontport", "rearport", "frontport"]
    assert hops[2][0] == hops[3][0] and hops[3][2] == "F" + hops[2][2][1:]  # Rk -> Fk


def test_lc_cassettes_carry_the_position_and_the_far_cord_names_the_plugged_port():
    design = two_rack_hall(12.0, "fr4-400g", nics=8)
    export, plant = _export(design)
    layout = structured_layout(plant)
    enclosures = [r for r in export.rows("07_devices") if r[1] == "patch-panel"]
    assert len(enclosures) == 2 and all(r[8] in ("", None) for r in enclosures)  # virtual
    assert all("not placed" in r[12] for r in enclosures)
    trace = _tracer(export)
    cables = export.rows("08_cables")
    for link_id in sorted(design.links):
        link = design.links[link_id]
        hops, end = trace(link.a.device, link.a.port)
        assert end == (link.b.device, "dcim.interface", link.b.port), link_id
        _, near, _, far, _ = layout.channels[link_id].elements
        assert hops[0][2].endswith(f"-{near.port}")
        b_end = (link.b.device, link.b.port)
        (far_cord,) = [r for r in cables if b_end in ((r[1], r[3]), (r[5], r[7]))]
        assert far_cord[13].startswith(f"patch cord, cassette port {far.port}")
    doc = _doc_of(export, LC_ENCLOSURE)
    assert {p["name"]: p["positions"] for p in doc["rear-ports"]} == {
        f"C{s}": 6 for s in (1, 2, 3, 4)
    }
    trunk_rows = [r for r in cables if r[2] == "dcim.rearport"]
    assert len(trunk_rows) == layout.trunks[0].legs == 2 and len(layout.trunks) == 1


def test_a_direct_design_exports_no_panel_and_one_cable_per_link():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    export, _ = _export(design)
    assert all(r[1] != "patch-panel" for r in export.rows("07_devices"))
    assert all("rear-ports" not in v.document() for v in export.device_types)
    assert len(export.rows("08_cables")) == len(design.links)
    assert {r[2] for r in export.rows("08_cables")} == {"dcim.interface"}


@pytest.mark.parametrize("medium", ["sr8-800g", "fr8-800g"])
def test_links_with_two_connectors_per_port_trace_and_export_every_trunk_leg(medium):
    design = two_rack_hall(12.0, medium, nics=4)
    export, plant = _export(design)
    layout = structured_layout(plant)
    trace = _tracer(export)
    for link in design.links.values():
        _, end = trace(link.a.device, link.a.port)
        assert end == (link.b.device, "dcim.interface", link.b.port)
    trunks = [r for r in export.rows("08_cables") if r[2] == "dcim.rearport"]
    assert len(trunks) == sum(len(leg.trunks) for leg in layout.legs)
    cords = [r for r in export.rows("08_cables") if "dcim.interface" in (r[2], r[6])]
    assert len(cords) == 2 * len(design.links)


def _netbox_lists(export, folder):
    """The export as NetBox's list exports would give it back (their column titles)."""
    import csv

    site = export.site
    type_label = {slug: label for label, slug in NETBOX_CABLE_TYPE_LABELS.items()}
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
            + ["Label", "Length", "Type", "Description"],
            [
                [r[1], r[3], r[5], r[7], r[0], r[4], r[10], f"{r[11]} m" if r[11] else ""]
                + [type_label.get(r[8], r[8]), r[13]]  # NetBox lists a type by its label
                for r in export.rows("08_cables")
            ],
        ),
    }
    for name, (header, rows) in tables.items():
        with open(folder / name, "w", newline="") as handle:
            csv.writer(handle).writerows([header, *rows])


def _round_trip(design, folder):
    from model.asbuilt.netbox_import import import_netbox

    first, plant = _export(design)
    _netbox_lists(first, folder)
    result = import_netbox(folder)
    second, back_plant = _export(result.design)
    return first, plant, result, second, back_plant


def _cables(export):  # ends and label (lengths follow the new rack positions)
    return sorted((r[1], r[2], r[3], r[5], r[6], r[7], r[10]) for r in export.rows("08_cables"))


@pytest.mark.parametrize("medium", ["sr4-400g", "fr4-400g"])
def test_import_netbox_brings_panels_and_via_back_and_exports_the_same(tmp_path, medium):
    design = two_rack_hall(12.0, medium, nics=8)
    place_panels(design)
    first, plant, result, second, back_plant = _round_trip(design, tmp_path)
    back = result.design
    assert back.settings.cabling == "cross-connect"
    assert len(back.devices) == len(design.devices) and len(back.links) == len(design.links)
    assert sum(is_panel(back, d) for d in back.devices) == 2
    assert any("8 links joined" in n for n in result.notes), result.notes
    assert all(len(k.via) == 2 for k in back.links.values())
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
    # The cords' cable type brings the medium back: FR4 over LC cassettes stays single-mode
    # (the lowest-cost policy alone would choose SR4 at these lengths) and is pinned; SR4, the
    # policy's own choice, is left to the policy.
    assert {back_plant.medium(k).id for k in back.links} == {medium}
    pinned = {k.medium for k in back.links.values()}
    assert pinned == ({"auto"} if medium == "sr4-400g" else {medium})
    assert first.rows("07_devices") == second.rows("07_devices")
    assert _cables(second) == _cables(first)


def test_a_zoned_site_comes_back_routed_via_its_three_panels(tmp_path):
    design = zone_hall("sr4-400g")
    first, plant, result, second, back_plant = _round_trip(design, tmp_path)
    back = result.design
    assert len(back.links) == len(design.links) and back.settings.cabling == "zones"
    assert sorted(len(k.via) for k in back.links.values()) == sorted(
        structured_layout(plant).channels[k].panels for k in design.links
    )
    assert first.rows("07_devices") == second.rows("07_devices")
    assert _cables(second) == _cables(first)


def _by_label(design, plant, label):
    rows = schedule_rows(design, plant, segments=False)
    (link_id,) = [r.link_id for r in rows if r.label == label]
    return link_id


def test_the_export_lays_the_design_out_once_with_the_physical_plant(structured_pod, monkeypatch):
    """Given the physical plant, the panel export takes its layout (an XL zones layout is ~15 s)
    instead of laying the design out again, and exports the same tables."""
    import model.outputs.netbox.panels as netbox_panels
    from model.plant.physical_plant import build_plant

    design, plant, export = structured_pod
    phys = build_plant(plant, with_links=True)
    assert phys.structured is not None

    def no_second_layout(_plant):
        raise AssertionError("laid out again")

    monkeypatch.setattr(netbox_panels, "layout_of", no_second_layout)
    again = netbox_tables(design, schedule_rows(design, plant), plant, phys)
    assert netbox_files(again) == netbox_files(export)


def test_the_analysis_lays_a_structured_design_out_once(structured_pod, monkeypatch):
    """The analysis takes the channels from the layout its physical plant was counted from
    (a zoned XL hall's layout is ~15 s), and reports what a second layout reported."""
    import model.analysis.analyzer as analyzer
    import model.plant.structured as structured_plant
    from model.analysis import analyze
    from model.structured.layout import structured_layout

    design, plant, _ = structured_pod
    before = analyze(design, plant).to_json()
    calls = []

    def counted(*args, **kwargs):
        calls.append(1)
        return structured_layout(*args, **kwargs)

    monkeypatch.setattr(analyzer, "structured_layout", counted)
    monkeypatch.setattr(structured_plant, "structured_layout", counted)
    after = analyze(design, plant).to_json()
    assert len(calls) == 1
    assert after == before and after["channels"]["total"] > 0
