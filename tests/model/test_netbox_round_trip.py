"""export-netbox -> NetBox's list exports -> import-netbox: what survives, and a NetBox that
Hallwright did not write (devicetype-library types, unknown types) read back without silent loss."""

from __future__ import annotations

import csv

import pytest

from cli import run_cli
from model.asbuilt.netbox_import import import_netbox
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.netbox.export import netbox_tables
from model.outputs.schedule import schedule_rows
from model.structured.layout import place_panels, set_cabling
from tests.model.netbox_lists import write_lists


def _export(design, **kwargs):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant, **kwargs)


def _ends(design) -> set[frozenset]:
    name = {d.id: d.name for d in design.devices.values()}
    return {
        frozenset([(name[k.a.device], k.a.port), (name[k.b.device], k.b.port)])
        for k in design.links.values()
    }


def _floor(design):
    racks = {
        r.name: (r.id, round(r.x, 3), round(r.y, 3), r.rotation) for r in design.racks.values()
    }
    return racks, design.trays, list(design.hall.outline)


@pytest.fixture(scope="module")
def pod():
    return generate("rail-optimized", nodes=16, node_type="dgx-h100", switch="qm9700", su_nodes=16)


@pytest.fixture(scope="module")
def structured():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    set_cabling(design, "cross-connect")
    place_panels(design)
    return design


def test_a_generated_pod_comes_back_where_it_stood(tmp_path, pod):
    assert {r.rotation for r in pod.racks.values()} != {0}  # rotations are tested too
    result = import_netbox(write_lists(_export(pod), tmp_path / "lists"))
    back = result.design
    assert _floor(back) == _floor(pod)
    assert {d.name: d.id for d in back.devices.values()} == {
        d.name: d.id for d in pod.devices.values()
    }
    assert _ends(back) == _ends(pod)
    assert result.left_out == []
    assert any("read from the site's and racks' comments" in n for n in result.notes)


def test_a_structured_pod_comes_back_with_its_floor_panels_and_recorded_lengths(
    tmp_path, structured
):
    export = _export(structured)
    result = import_netbox(write_lists(export, tmp_path / "lists"))
    back = result.design
    assert _floor(back) == _floor(structured)
    assert _ends(back) == _ends(structured)
    assert all(len(k.via) == 2 for k in back.links.values())
    assert result.left_out == []
    # Every link has an as-built length: what NetBox recorded, cord A + trunk + cord B
    assert all(k.as_built_m and k.as_built_m > 0 for k in back.links.values())


def test_a_netbox_of_library_types_brings_its_devices_and_links_back(tmp_path, pod):
    """A NetBox Hallwright did not write: devicetype-library names (Nvidia QM9700, P0.0...),
    no Hallwright ids, no floor plan. Every device and link comes back."""
    lists = write_lists(_export(pod, types="library"), tmp_path / "lists", foreign=True)
    with (lists / "netbox_cables.csv").open(encoding="utf-8") as handle:
        assert any(r["Termination A"].startswith("P") for r in csv.DictReader(handle))
    result = import_netbox(lists)
    back = result.design
    assert {d.name for d in back.devices.values()} == {d.name for d in pod.devices.values()}
    assert {(d.name, d.type) for d in back.devices.values()} == {
        (d.name, d.type) for d in pod.devices.values()
    }
    assert _ends(back) == _ends(pod)
    assert result.left_out == []
    assert any("devicetype-library types" in n for n in result.notes)
    assert any("no floor position" in n for n in result.notes)


def test_unknown_types_and_their_cables_are_listed_and_the_exit_code_says_so(tmp_path, pod, capsys):
    lists = write_lists(_export(pod, types="library"), tmp_path / "lists", foreign=True)
    path = lists / "netbox_devices.csv"
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    leaf = next(r for r in rows if r["Type"] == "QM9700")
    leaf["Manufacturer"], leaf["Type"] = "Acme", "X1"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    result = import_netbox(lists)
    cabled = sum(1 for e in _ends(pod) for name, _ in e if name == leaf["Name"])
    devices = [x for x in result.left_out if x.startswith("device ")]
    cables = [x for x in result.left_out if x.startswith("cable ")]
    assert devices == [
        f"device {leaf['Name']} (netbox_devices.csv line {rows.index(leaf) + 2}): "
        "type Acme 'X1' matches no catalog type"
    ]
    assert len(cables) == cabled and all(leaf["Name"] in x for x in cables)
    assert len(result.design.links) == len(pod.links) - cabled
    out = tmp_path / "back.hall.json"
    assert run_cli(["import-netbox", str(lists), "-o", str(out)]) == 1
    printed = capsys.readouterr().out
    assert f"left out: device {leaf['Name']}" in printed
    assert f"{1 + cabled:,} objects of the site not brought back" in printed
    assert out.exists()


def test_a_complete_round_trip_exits_0(tmp_path, pod):
    lists = write_lists(_export(pod), tmp_path / "lists")
    assert run_cli(["import-netbox", str(lists), "-o", str(tmp_path / "back.hall.json")]) == 0


def _rewrite(path, change):
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    header = list(rows[0])
    for row in rows:
        change(row)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, header)
        writer.writeheader()
        writer.writerows(rows)
    return rows


def _leaf_lists(tmp_path, pod, model, port_name):
    """The pod's lists as a foreign NetBox: its QM9700 leaves of type Acme ``model`` whose
    ports are named by ``port_name(catalog port)``, with an interface list."""
    lists = write_lists(_export(pod), tmp_path / "lists", foreign=True)
    leaves = {d.name for d in pod.devices.values() if d.type == "qm9700"}

    def device(row):
        if row["Name"] in leaves:
            row["Manufacturer"], row["Type"] = "Acme", model

    def cable(row):
        for side in ("A", "B"):
            if row[f"Device {side}"] in leaves:
                row[f"Termination {side}"] = port_name(row[f"Termination {side}"])

    _rewrite(lists / "netbox_devices.csv", device)
    _rewrite(lists / "netbox_cables.csv", cable)
    return lists, leaves


def test_an_unknown_type_with_the_catalogs_ports_is_matched_by_its_layout(tmp_path, pod):
    lists, leaves = _leaf_lists(tmp_path, pod, "X1", lambda port: port)
    with (lists / "netbox_interfaces.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Device", "Name", "Type"])
        for leaf in sorted(leaves):  # the QM9700's own ports: p1..p64 and mgmt1
            writer.writerows([leaf, f"p{n}", "OSFP (400GE)"] for n in range(1, 65))
            writer.writerow([leaf, "mgmt1", "1000BASE-T (1GE)"])
    result = import_netbox(lists)
    assert result.left_out == []
    assert {d.type for d in result.design.devices.values() if d.name in leaves} == {"qm9700"}
    assert _ends(result.design) == _ends(pod)
    assert any("read as that type" in n for n in result.notes)


def test_an_unknown_type_comes_in_as_a_custom_type_with_its_interfaces(tmp_path, pod):
    lists, leaves = _leaf_lists(tmp_path, pod, "Y64", lambda port: port.replace("p", "swp"))
    with (lists / "netbox_interfaces.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Device", "Name", "Type"])
        for leaf in sorted(leaves):
            writer.writerows([leaf, f"swp{n}", "400gbase-x-osfp"] for n in range(1, 65))
            writer.writerow([leaf, "eth0", "1000base-t"])
    result = import_netbox(lists)
    back = result.design
    (custom,) = back.custom_types.device_types
    assert (custom.vendor, custom.model, custom.power_max_w) == ("Acme", "Y64", 0.0)
    (group,) = custom.port_groups
    assert (group.name, group.count, group.speed_gbps, group.form_factor) == (
        "swp",
        64,
        400.0,
        "OSFP",
    )
    assert {d.type for d in back.devices.values() if d.name in leaves} == {custom.id}
    renamed = {
        frozenset((n, p.replace("p", "swp") if n in leaves else p) for n, p in ends)
        for ends in _ends(pod)
    }
    assert _ends(back) == renamed
    (line,) = result.left_out  # the one interface that fits no group, listed once per type
    assert line.startswith("interface eth0 of type Acme 'Y64' (as ")
    assert line.split("(as ")[1].split(" has it")[0] in leaves


@pytest.mark.parametrize(
    "comment, message",
    [
        ('Hallwright hall: {"outline":[[0,0],[1', "not valid"),
        ('Hallwright hall: {"outline":[[0,0],[10,10],[10,0],[0,10]]}', "not a simple polygon"),
        ('Hallwright hall: {"outline":[[0,0],[1e9,0],[1,1]]}', "$.outline[1][0]"),
        (
            'Hallwright hall: {"outline":[[0,0],[50,0],[50,50],[0,50]],'
            '"trays":[{"id":"t","points":[]}]}',
            "needs at least 2 points",
        ),
    ],
)
def test_a_site_comment_edited_into_a_bad_hall_is_refused_with_a_sentence(
    tmp_path, pod, comment, message
):
    from model.asbuilt.report_csv import ReportError

    lists = write_lists(_export(pod), tmp_path / "lists")

    def site(row):
        row["Comments"] = comment

    _rewrite(lists / "netbox_sites.csv", site)
    with pytest.raises(ReportError, match="netbox_sites.csv: site") as refused:
        import_netbox(lists)
    assert message in str(refused.value)
