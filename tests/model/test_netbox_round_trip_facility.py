"""export-netbox -> NetBox's list exports -> import-netbox for what is not a cabled device: a
B300 hall's rack PDUs (NetBox devices without a U position) and its power and cooling records,
and a generated fat-tree's generic hosts and switches (types the catalog does not hold)."""

from __future__ import annotations

import csv

import pytest

from model.asbuilt.netbox_import import import_netbox
from model.engine.routed_links import RoutedLinks
from model.facility.parts import facility_items
from model.generators.generate import generate
from model.outputs.netbox.export import netbox_tables
from model.outputs.schedule import schedule_rows
from tests.model.netbox_lists import write_lists


def _export(design):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def _power_lines(design) -> list[tuple]:
    """The BOM's "Power and cooling" lines: part, quantity and unit price."""
    return [
        (p.part_id, p.part_number, p.quantity, p.unit_price_usd) for p in facility_items(design)
    ]


def _ends(design) -> set[frozenset]:
    name = {d.id: d.name for d in design.devices.values()}
    return {
        frozenset([(name[k.a.device], k.a.port), (name[k.b.device], k.b.port)])
        for k in design.links.values()
    }


@pytest.fixture(scope="module")
def b300():
    return generate(
        "rail-optimized", nodes=8, node_type="dgx-b300", switch="q3400", su_nodes=8, facility="yes"
    )


def test_a_b300_hall_keeps_its_power_and_cooling_lines(tmp_path, b300):
    lines = _power_lines(b300)
    assert any(p[0] == "rack-pdu-3ph-415v" for p in lines)  # the hall has rack PDUs to lose
    result = import_netbox(write_lists(_export(b300), tmp_path / "lists"))
    back = result.design
    assert _power_lines(back) == lines
    assert {r.id: (r.pdus, r.cooling) for r in back.racks.values()} == {
        r.id: (r.pdus, r.cooling) for r in b300.racks.values()
    }
    assert back.hall.power == b300.hall.power and back.hall.cooling == b300.hall.cooling
    assert result.left_out == []  # the PDU devices are not listed as left out


def test_a_pdu_deleted_in_netbox_drops_its_entry_and_says_so(tmp_path, b300):
    folder = write_lists(_export(b300), tmp_path / "lists")
    path = folder / "netbox_devices.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    gone = next(r for r in rows[1:] if r[3] == "pdu")  # role column
    rows.remove(gone)
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    result = import_netbox(folder)
    entries = sum(len(r.pdus) for r in result.design.racks.values())
    assert entries == sum(len(r.pdus) for r in b300.racks.values()) - 1
    (listed,) = result.left_out
    assert gone[7].split()[1] in listed and "no device" in listed  # its rack id, and why


def test_a_generated_fat_tree_s_hosts_and_links_come_back(tmp_path):
    """The fat-tree's generic types are the design's own, not the catalog's: NetBox's interface
    list (which import-netbox --url writes from the REST API) gives their ports back."""
    design = generate("fat-tree", k=4)
    export = _export(design)
    without = import_netbox(write_lists(export, tmp_path / "bare"))
    assert not without.design.devices and len(without.left_out) > len(design.devices)  # listed
    result = import_netbox(write_lists(export, tmp_path / "lists", interfaces=True))
    back = result.design
    assert sorted(d.name for d in back.devices.values()) == sorted(
        d.name for d in design.devices.values()
    )
    assert _ends(back) == _ends(design)
    assert result.left_out == []
    hosts = [d for d in back.devices.values() if d.role == "gpu-server"]
    assert len(hosts) == sum(1 for d in design.devices.values() if d.role == "gpu-server") > 0
