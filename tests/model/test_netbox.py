"""NetBox export for a shared NetBox: folders, headers, site columns, types, limits, chunks."""

from __future__ import annotations

import csv
import json

import msgspec

from model.catalog.ports import PortInfo
from model.outputs.netbox import export as nb
from model.outputs.netbox.device_types import interface_type
from model.outputs.netbox.export import (
    CABLE_HEADER,
    DEVICE_HEADER,
    RACK_HEADER,
    chunk_names,
    netbox_files,
    netbox_tables,
    write_netbox_dir,
)
from model.outputs.schedule import schedule_rows, schedule_table
from model.plant.physical_plant import build_plant
from tests.builders import device, empty_hall, link, rack, small_pod
from tests.model.bom_test_helpers import plant_of


def _tables(design):
    plant = plant_of(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def _read(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_folder_holds_shared_files_apart_and_site_files_in_import_order(tmp_path, pod):
    out = tmp_path / "netbox"
    paths = write_netbox_dir(out, _tables(pod))
    names = sorted(str(p.relative_to(out)) for p in paths)
    assert names == [
        "README.txt",
        "shared/01_manufacturers.csv",
        "shared/02_device_roles.csv",
        "shared/03_device_types/nvidia-dgx-h100-nic-infiniband.yaml",
        "shared/03_device_types/nvidia-quantum-2-qm9700.yaml",
        "shared/03_module_types/nvidia-980-9i510-00ns00.yaml",
        "shared/03_module_types/nvidia-980-9i51a-00ns00.yaml",
        "site/04_sites.csv",
        "site/05_locations.csv",
        "site/06_racks.csv",
        "site/07_devices.csv",
        "site/08_cables.csv",
        "site/10_modules.csv",
    ]
    with open(out / "site/08_cables.csv", encoding="utf-8") as handle:
        assert tuple(handle.readline().strip().split(",")) == CABLE_HEADER
    assert "Background job" in (out / "README.txt").read_text()


def test_cables_name_the_site_of_both_ends_and_every_end_is_a_template_port(tmp_path, pod):
    out = tmp_path / "nb"
    export = _tables(pod)
    write_netbox_dir(out, export)
    devices = {d["name"]: d for d in _read(out / "site/07_devices.csv")}
    type_ports = {v.model: {i["name"] for i in v.interfaces()} for v in export.device_types}
    cables = _read(out / "site/08_cables.csv")
    assert len(cables) == len(pod.links)
    ends = set()
    for c in cables:
        for side in ("a", "b"):
            assert c[f"side_{side}_site"] == "Test hall"
            device_row = devices[c[f"side_{side}_device"]]
            assert device_row["site"] == "Test hall"
            assert c[f"side_{side}_name"] in type_ports[device_row["device_type"]]
            end = (c[f"side_{side}_device"], c[f"side_{side}_name"])
            assert end not in ends
            ends.add(end)
        assert c["status"] == "planned" and c["length_unit"] == "m" and float(c["length"]) > 0


def test_infiniband_ports_are_typed_by_lane_rate_and_ethernet_by_form_factor(pod):
    export = _tables(pod)
    by_model = {v.model: {i["name"]: i for i in v.interfaces()} for v in export.device_types}
    dgx = by_model["DGX H100 (nic InfiniBand)"]
    # 400G over 4 x 100G lanes: NetBox's "NDR 4X (400 Gbps)" (its infiniband-ndr is 100 Gbps)
    assert dgx["nic1"]["type"] == "infiniband-ndr-4x"
    assert dgx["stor1"]["type"] == "400gbase-x-qsfp112"  # not cabled to an IB switch
    assert dgx["bmc1"]["type"] == "1000base-t" and dgx["bmc1"]["mgmt_only"] is True
    qm = by_model["Quantum-2 QM9700"]
    assert qm["p1"]["type"] == "infiniband-ndr-4x" and qm["mgmt1"]["type"] == "1000base-t"

    def port(speed, lanes, ff):
        return PortInfo("p", 0, "compute", speed, lanes, ff, 1)

    assert interface_type(port(800, 4, "OSFP"), "infiniband") == "infiniband-xdr-4x"
    assert interface_type(port(200, 4, "QSFP56"), "infiniband") == "infiniband-hdr-4x"
    assert interface_type(port(100, 1, "OSFP"), "infiniband") == "infiniband-ndr"  # a 1X split
    assert interface_type(port(200, 2, "OSFP"), "infiniband") == "other"  # NetBox has no 2X
    assert interface_type(port(800, 8, "OSFP"), "ethernet") == "800gbase-x-osfp"
    assert interface_type(port(3200, 8, "nvlink-backplane"), "ethernet") == "other"


def test_device_types_carry_cages_power_depth_and_airflow_from_the_catalog(pod):
    export = _tables(pod)
    docs = {v.dtype.id: v.document() for v in export.device_types}
    dgx, qm = docs["dgx-h100"], docs["qm9700"]
    # DGX H100: 8 nic ports in twin-port OSFP cages = 4 cages, 4 stor + 2 fe single cages.
    bays = [b["name"] for b in dgx["module-bays"]]
    assert bays[:4] == ["nic cage 1", "nic cage 2", "nic cage 3", "nic cage 4"]
    assert len(bays) == 4 + 4 + 2
    assert dgx["module-bays"][0]["label"] == "nic1 + nic2"
    assert len(qm["module-bays"]) == 32  # 64 ports, twin-port OSFP
    assert dgx["power-ports"] == [
        {
            "name": "PSU",
            "maximum_draw": 10200,
            "allocated_draw": 8000,
            "description": "All supplies together (the catalog lists no PSU count)",
        }
    ]
    assert dgx["is_full_depth"] is True and dgx["airflow"] == "front-to-rear"
    panel = nb.TypeVariant(pod.catalog.device_types["patch-panel-48lc"], {}, ())
    assert panel.is_full_depth is False and panel.airflow == "passive"
    assert panel.power_ports() == []


def _read_block_yaml(text):
    """The subset of YAML the export writes (JSON scalars, lists of flat mappings)."""
    doc, current = {}, None
    for line in text.splitlines()[1:]:
        if line.startswith("  - ") or line.startswith("    "):
            key, value = line[4:].split(": ", 1)
            if line.startswith("  - "):
                current.append({})
            current[-1][key] = json.loads(value)
        else:
            key, value = line.split(":", 1)
            if value.strip():
                doc[key] = json.loads(value)
            else:
                current = doc[key] = []
    return doc


def test_device_type_yaml_is_the_devicetype_library_format(pod):
    files = netbox_files(_tables(pod))
    text = files["shared/03_device_types/nvidia-quantum-2-qm9700.yaml"].decode()
    assert text.startswith("---\nmanufacturer: ")
    doc = _read_block_yaml(text)
    assert doc["manufacturer"] == "NVIDIA" and doc["model"] == "Quantum-2 QM9700"
    assert doc["u_height"] == 1 and doc["slug"] == "nvidia-quantum-2-qm9700"
    assert len(doc["interfaces"]) == 65 and doc["interfaces"][0] == {
        "name": "p1",
        "type": "infiniband-ndr-4x",
        "mgmt_only": False,
    }
    assert doc["power-ports"][0]["maximum_draw"] == 747
    assert len(doc["module-bays"]) == 32


def test_racks_carry_outer_dimensions_and_rail_width(pod):
    rows = _tables(pod).rows("06_racks")
    record = dict(zip(RACK_HEADER, rows[0], strict=True))
    assert record["width"] == 19 and record["u_height"] == 48
    assert (record["outer_width"], record["outer_depth"], record["outer_unit"]) == (600, 1200, "mm")
    assert record["airflow"] == "front-to-rear"


def test_aec_and_lacc_share_the_netbox_type_but_not_the_description(pod):
    media = pod.catalog.media_types
    from model.outputs.netbox.device_types import cable_description

    assert media["aec-400g"].netbox_type == media["lacc-400g"].netbox_type == "dac-active"
    assert cable_description(media["aec-400g"]).startswith("AEC")
    assert cable_description(media["lacc-400g"]).startswith("LACC")


def test_names_beyond_netbox_limits_and_case_twins_are_fitted_and_unique(pod):
    design = pod
    design.name = "H" * 111
    rack(design, "r3", 3.3, 3.0, name="R" * 120)
    device(design, "x", "r3", 2, "qm9700")
    device(design, "y", "r3", 4, "qm9700")
    long_name = "spine-" + "x" * 66  # 72 characters
    design.update_devices(
        [
            msgspec.structs.replace(design.devices["x"], name="LEAF1"),  # leaf1 exists
            msgspec.structs.replace(design.devices["y"], name=long_name),
        ]
    )
    export = _tables(design)
    assert len(export.site) == 100
    racks = [r[2] for r in export.rows("06_racks")]
    assert all(len(r) <= 100 for r in racks)
    names = [d[0] for d in export.rows("07_devices")]
    assert all(len(n) <= 64 for n in names)
    assert len({n.casefold() for n in names}) == len(names)
    assert export.rows("07_devices")[0][DEVICE_HEADER.index("site")] == export.site
    assert _tables(design).rows("07_devices") == export.rows("07_devices")  # deterministic


def test_breakout_makes_a_device_type_of_its_own():
    design = small_pod()
    rack(design, "r3", 3.3, 3.0)
    device(design, "sw", "r3", 2, "sn5600", role="leaf", breakout={"p": 2})
    link(design, "l-x", ("a1", "stor1"), ("sw", "p1/1"))
    export = _tables(design)
    models = {v.model for v in export.device_types}
    assert "Spectrum-4 SN5600 (p 2x400G)" in models
    sn = next(v for v in export.device_types if v.dtype.id == "sn5600")
    names = [i["name"] for i in sn.interfaces()]
    assert names[:2] == ["p1/1", "p1/2"] and len(names) == 129
    assert sn.interfaces()[0]["type"] == "400gbase-x-osfp"


def test_tables_are_cut_below_1000_rows(monkeypatch, pod):
    assert nb.CHUNK_ROWS < 1000
    assert chunk_names("08_cables", 0) == ["08_cables.csv"]
    assert chunk_names("08_cables", nb.CHUNK_ROWS) == ["08_cables.csv"]
    assert chunk_names("08_cables", nb.CHUNK_ROWS + 1) == ["08_cables_01.csv", "08_cables_02.csv"]
    monkeypatch.setattr(nb, "CHUNK_ROWS", 7)
    files = netbox_files(_tables(pod))
    parts = sorted(p for p in files if p.startswith("site/08_cables"))
    assert len(parts) == -(-len(pod.links) // 7)
    rows = 0
    for p in parts:
        lines = files[p].decode().strip().split("\r\n")
        assert lines[0] == ",".join(CABLE_HEADER) and 1 <= len(lines) - 1 <= 7
        rows += len(lines) - 1
    assert rows == len(pod.links)


def test_nvl72_backplane_links_are_exported_so_no_nvlink_port_is_free():
    from model.generators.generate import generate

    design = generate("nvl72", racks=1)
    export = _tables(design)
    backplane = export.rows("09_backplane_cables")
    nvl_ports = sum(
        1 for d in design.devices.values() for p in design.ports(d) if p.startswith("nvl")
    )
    assert 2 * len(backplane) == nvl_ports
    assert all(r[CABLE_HEADER.index("length")] is None for r in backplane)


def test_twin_port_cable_rows_carry_the_type_and_description_of_their_link():
    """A straight twin-port DAC (two links, one assembly "l-1+"): each NetBox cable row is
    typed by its link's medium, from the column table and from schedule rows alike."""
    design = empty_hall()
    rack(design, "r1", 2.0, 3.0)
    device(design, "s1", "r1", 10, "qm9700")
    device(design, "s2", "r1", 12, "qm9700")
    link(design, "l-1", ("s1", "p1"), ("s2", "p1"))
    link(design, "l-2", ("s1", "p2"), ("s2", "p2"))
    plant = plant_of(design)
    phys = build_plant(plant, with_links=True)
    table = schedule_table(design, plant, phys)
    assert table.columns["cable_id"] == ["l-1+", "l-1+"]  # one assembly, no link of that id
    medium = plant.medium("l-1")
    for schedule in (table, table.rows()):
        cables = netbox_tables(design, schedule, plant, phys).tables["08_cables"]
        header, rows = cables.header, cables.rows()
        kind, words = header.index("type"), header.index("description")
        assert [r[kind] for r in rows] == [medium.netbox_type] * 2
        assert all(r[words] and medium.id in r[words] for r in rows)


def test_names_a_cable_row_refers_to_carry_no_comma(tmp_path, pod):
    """NetBox's cable import splits side_*_device and side_*_name at commas (multi-termination
    lists, dcim/forms/bulk_import.py), so a comma in a device or rack name would abort its
    cables (#40: 12 of 512 imported)."""
    node = pod.devices["a1"]
    pod.update_devices([msgspec.structs.replace(node, name="node 1, rack A")])
    rack_id = node.rack
    pod.update_racks([msgspec.structs.replace(pod.racks[rack_id], name="Row 1, A")])
    write_netbox_dir(tmp_path / "nb", _tables(pod))
    cables = _read(tmp_path / "nb" / "site" / "08_cables.csv")
    devices = {r["name"] for r in _read(tmp_path / "nb" / "site" / "07_devices.csv")}
    racks = {r["name"] for r in _read(tmp_path / "nb" / "site" / "06_racks.csv")}
    assert "Row 1; A" in racks
    assert "node 1; rack A" in devices and not any("," in name for name in devices)
    ends = [(c[f"side_{s}_device"], c[f"side_{s}_name"]) for c in cables for s in "ab"]
    assert ("node 1; rack A", "nic1") in ends
    assert not any("," in d or "," in n for d, n in ends)
    assert len(cables) == len(pod.links)
