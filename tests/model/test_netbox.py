"""NetBox import CSVs: the headers NetBox's bulk import expects; every cable end exists."""

from __future__ import annotations

import csv

import msgspec
import pytest

from model.bom import schedule_rows
from model.design import DesignError
from model.export.netbox import (
    CABLE_HEADER,
    DEVICE_HEADER,
    FILES,
    INTERFACE_HEADER,
    interface_type,
    netbox_tables,
    slugify,
    write_netbox_dir,
)
from tests.builders import device, rack, small_pod
from tests.model.bom_test_helpers import plant_of

EXPECTED_HEADERS = {
    "01_sites.csv": ["name", "slug", "status", "description"],
    "02_locations.csv": ["site", "name", "slug", "status"],
    "03_manufacturers.csv": ["name", "slug"],
    "04_device_roles.csv": ["name", "slug", "color"],
    "05_device_types.csv": [
        "manufacturer",
        "model",
        "slug",
        "u_height",
        "is_full_depth",
        "description",
    ],
    "06_racks.csv": ["site", "location", "name", "status", "width", "u_height", "description"],
    "07_devices.csv": [
        "name",
        "role",
        "manufacturer",
        "device_type",
        "status",
        "site",
        "location",
        "rack",
        "position",
        "face",
    ],
    "08_interfaces.csv": ["device", "name", "type", "speed", "mgmt_only", "enabled"],
    "09_cables.csv": [
        "side_a_device",
        "side_a_type",
        "side_a_name",
        "side_b_device",
        "side_b_type",
        "side_b_name",
        "type",
        "status",
        "label",
        "length",
        "length_unit",
    ],
}


def _export(design, tmp_path):
    out = tmp_path / "netbox"
    write_netbox_dir(out, netbox_tables(design, schedule_rows(design, plant_of(design))))
    tables = {}
    for name in FILES:
        with open(out / name, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
            tables[name] = rows
        with open(out / name, encoding="utf-8") as handle:
            assert handle.readline().rstrip("\r\n").split(",") == EXPECTED_HEADERS[name]
    return out, tables


def test_files_and_headers_are_the_netbox_import_columns(tmp_path, pod):
    out, tables = _export(pod, tmp_path)
    assert sorted(p.name for p in out.iterdir()) == ["00_README.txt", *FILES]
    assert tables["01_sites.csv"] == [
        {
            "name": "Test hall",
            "slug": "test-hall",
            "status": "planned",
            "description": "exported from Hallwright",
        }
    ]
    assert len(tables["06_racks.csv"]) == 3
    assert len(tables["07_devices.csv"]) == 6
    assert len(tables["09_cables.csv"]) == len(pod.links)


def test_every_cable_end_exists_among_the_exported_devices_and_interfaces(tmp_path, pod):
    _, t = _export(pod, tmp_path)
    devices = {d["name"] for d in t["07_devices.csv"]}
    interfaces = {(i["device"], i["name"]) for i in t["08_interfaces.csv"]}
    racks = {r["name"] for r in t["06_racks.csv"]}
    types = {(d["manufacturer"], d["model"]) for d in t["05_device_types.csv"]}
    roles = {r["name"] for r in t["04_device_roles.csv"]}
    makers = {m["name"] for m in t["03_manufacturers.csv"]}
    for d in t["07_devices.csv"]:
        assert d["rack"] in racks and d["role"] in roles
        assert (d["manufacturer"], d["device_type"]) in types and d["manufacturer"] in makers
        assert int(d["position"]) >= 1 and d["face"] == "front"
    ends = set()
    for c in t["09_cables.csv"]:
        for side in ("a", "b"):
            assert c[f"side_{side}_type"] == "dcim.interface"
            end = (c[f"side_{side}_device"], c[f"side_{side}_name"])
            assert c[f"side_{side}_device"] in devices
            assert end in interfaces
            assert end not in ends  # an interface takes one cable
            ends.add(end)
        assert c["type"] in {"dac-passive", "dac-active", "aoc", "mmf-om4", "smf-os2", "cat6a"}
        assert c["length_unit"] == "m" and float(c["length"]) > 0
        assert c["status"] == "planned" and c["label"]


def test_interface_types_are_netbox_choices(tmp_path, pod):
    _, t = _export(pod, tmp_path)
    by_name = {(i["device"], i["name"]): i for i in t["08_interfaces.csv"]}
    assert by_name[("a1", "nic1")]["type"] == "400gbase-x-osfp"
    assert by_name[("a1", "nic1")]["speed"] == "400000000"  # kb/s
    assert by_name[("a1", "bmc1")]["type"] == "1000base-t"
    assert by_name[("a1", "bmc1")]["mgmt_only"] == "true"
    assert by_name[("a1", "fe1")]["type"] == "100gbase-x-qsfp28"
    assert interface_type(800, "OSFP") == "800gbase-x-osfp"
    assert interface_type(3200, "nvlink-backplane") == "other"


def test_repeated_device_names_are_made_unique_and_rack_names_cannot_repeat(tmp_path):
    design = small_pod()
    with pytest.raises(DesignError, match="already called R1"):
        rack(design, "r3", 3.3, 3.0, name="r1")  # the edit API keeps rack names unique
    rack(design, "r3", 3.3, 3.0, name="R3")
    device(design, "x", "r3", 2, "qm9700")
    design.update_devices([msgspec.structs.replace(design.devices["x"], name="leaf1")])
    _, t = _export(design, tmp_path)
    rack_names = [r["name"] for r in t["06_racks.csv"]]
    device_names = [d["name"] for d in t["07_devices.csv"]]
    assert len(set(rack_names)) == len(rack_names) == 4
    assert len(set(device_names)) == len(device_names)
    devices = set(device_names)
    for c in t["09_cables.csv"]:
        assert c["side_a_device"] in devices and c["side_b_device"] in devices


def test_slugs_are_netbox_slugs():
    assert slugify("SuperPOD Hall #1 (B200)") == "superpod-hall-1-b200"
    assert slugify("NVIDIA") == "nvidia"
    assert slugify("!!!") == "x"
    assert len(slugify("a" * 300)) == 100


def test_cable_header_and_device_header_match_netbox_forms():
    assert CABLE_HEADER[:6] == (
        "side_a_device",
        "side_a_type",
        "side_a_name",
        "side_b_device",
        "side_b_type",
        "side_b_name",
    )
    assert {"role", "device_type", "manufacturer", "rack", "position", "face"} <= set(DEVICE_HEADER)
    assert INTERFACE_HEADER[:3] == ("device", "name", "type")
