"""export-netbox --types library: the devicetype-library's names, its schema, --types-from."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from model.catalog.components import builtin_catalog
from model.generators.generate import generate
from model.outputs.netbox.columns import Table
from model.outputs.netbox.device_types import TypeVariant
from model.outputs.netbox.export import netbox_files, netbox_tables
from model.outputs.netbox.library_export import read_held_types
from model.outputs.netbox.library_types import (
    SCHEMA_LACKS,
    LibraryVariant,
    library_port_name,
    library_table,
)
from model.outputs.schedule import schedule_rows
from model.outputs.writers import ExportError
from model.structured.layout import place_panels, set_cabling
from tests.builders import device, link, rack, small_pod
from tests.model.bom_test_helpers import plant_of

DATA = Path(__file__).resolve().parents[1] / "data"
SCHEMA_DIR = DATA / "devicetype_library_schema"
LIBRARY_QM9700 = DATA / "devicetype_library_nvidia" / "QM9700.yaml"
# Ids the library's schema files refer to one another by ($ref "urn:devicetype-library:...");
# reusable.json carries no $id of its own.
SCHEMA_IDS = {
    "devicetype.json": "urn:devicetype-library:device-type",
    "components.json": "urn:devicetype-library:components",
    "generated_schema.json": "urn:devicetype-library:generated-schema",
    "reusable.json": "urn:devicetype-library:reusable",
    "moduletype.json": "urn:devicetype-library:module-type",
}


def _validator(root: str = "devicetype.json") -> Draft202012Validator:
    docs = {name: json.loads((SCHEMA_DIR / name).read_text()) for name in SCHEMA_IDS}
    registry = Registry().with_resources(
        (urn, Resource.from_contents(docs[name], default_specification=_draft()))
        for name, urn in SCHEMA_IDS.items()
    )
    return Draft202012Validator(docs[root], registry=registry)


def _draft():
    from referencing.jsonschema import DRAFT202012

    return DRAFT202012


def _export(design, **kwargs):
    plant = plant_of(design)
    return netbox_tables(design, schedule_rows(design, plant), plant, **kwargs)


def _device_type_docs(export) -> dict[str, dict]:
    files = netbox_files(export)
    return {
        path: yaml.safe_load(data)
        for path, data in files.items()
        if path.startswith("shared/03_device_types/")
    }


def _errors(validator, doc: dict) -> list[str]:
    """Schema errors of a device-type document; a patch panel's port-mappings (which NetBox
    4.5 needs and this schema has no key for) are checked against NetBox's own fields."""
    doc = dict(doc)
    mappings = doc.pop("port-mappings", [])
    errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(doc)]
    fronts = {p["name"] for p in doc.get("front-ports", [])}
    rears = {p["name"] for p in doc.get("rear-ports", [])}
    keys = {"front_port", "front_port_position", "rear_port", "rear_port_position"}
    for m in mappings:
        if set(m) != keys or m["front_port"] not in fronts or m["rear_port"] not in rears:
            errors.append(f"port-mapping {m}")
    # The schema cannot say it, NetBox does: front ports map only through port-mappings
    errors.extend(
        f"front port {p['name']} names its rear port"
        for p in doc.get("front-ports", [])
        if "rear_port" in p
    )
    return errors


@pytest.fixture(scope="module")
def validator():
    return _validator()


@pytest.fixture(scope="module")
def designs():
    pod = small_pod()
    rack(pod, "r3", 3.3, 3.0)
    device(pod, "sw", "r3", 2, "sn5600", role="leaf", breakout={"p": 2})
    link(pod, "l-x", ("a1", "stor1"), ("sw", "p1/1"))
    structured = generate(
        "rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8
    )
    set_cabling(structured, "cross-connect")
    place_panels(structured)
    return {"pod": pod, "nvl72": generate("nvl72", racks=1), "structured": structured}


def test_vendored_schema_rejects_what_the_library_rejects(validator):
    """The checker can fail: NetBox 4.7's own QM9700 YAML (infiniband-ndr-4x, a power port
    without a type) is refused; the library's own QM9700 file passes."""
    library_doc = yaml.safe_load(LIBRARY_QM9700.read_text())
    assert _errors(validator, library_doc) == []
    ours = TypeVariant(builtin_catalog().device_types["qm9700"], {}, ["p"]).document()
    messages = " ".join(_errors(validator, ours))
    assert "infiniband-ndr-4x" in messages and "'type' is a required property" in messages


@pytest.mark.parametrize("name", ["pod", "nvl72", "structured"])
def test_every_exported_device_type_passes_the_library_schema(validator, designs, name):
    docs = _device_type_docs(_export(designs[name], types="library"))
    assert docs
    failures = {path: _errors(validator, doc) for path, doc in docs.items()}
    assert {p: e for p, e in failures.items() if e} == {}
    for doc in docs.values():
        assert not {i["type"] for i in doc.get("interfaces", [])} & set(SCHEMA_LACKS)


def test_every_exported_module_type_passes_the_library_schema(designs):
    validator = _validator("moduletype.json")
    files = netbox_files(_export(designs["nvl72"], types="library"))
    docs = [yaml.safe_load(d) for p, d in files.items() if p.startswith("shared/03_module_types/")]
    assert docs and all(d["manufacturer"] == "Nvidia" for d in docs)
    assert [list(validator.iter_errors(d)) for d in docs] == [[] for _ in docs]
    assert list(validator.iter_errors({"manufacturer": "Nvidia", "model": "X", "slug": "x"}))


def test_library_types_take_the_librarys_manufacturer_model_slug_and_port_names(designs):
    export = _export(designs["pod"], types="library")
    docs = {d["model"]: d for d in _device_type_docs(export).values()}
    qm = docs["QM9700"]
    assert (qm["manufacturer"], qm["slug"]) == ("Nvidia", "nvidia-qm9700")
    names = [i["name"] for i in qm["interfaces"]]
    assert names[:3] == ["P0.0", "P0.1", "P1.0"] and names[63] == "P31.1"
    assert {i["type"] for i in qm["interfaces"][:64]} == {"400gbase-x-osfp"}
    split = docs["SN5600 (p 2x400G)"]  # a breakout is our own type named after the library's
    assert split["manufacturer"] == "Nvidia" and split["slug"] == "nvidia-sn5600-p-2x400g"
    assert [i["name"] for i in split["interfaces"][:2]] == ["swp1s0", "swp1s1"]
    assert docs["DGX H100 (nic InfiniBand)"]["manufacturer"] == "Nvidia"
    manufacturers = export.rows("01_manufacturers")
    assert manufacturers == [("Nvidia", "nvidia")]


def test_port_names_follow_each_library_file():
    table = library_table()
    cases = {
        ("qm9700", "p", "p1", 2): "P0.0",
        ("qm9700", "p", "p46", 2): "P22.1",
        ("qm9700", "p", "p64", 2): "P31.1",
        ("q3400", "p", "p1", 2): "sw1p1",
        ("q3400", "p", "p144", 2): "sw72p2",
        ("q3400", "mgmt", "mgmt1", 1): "eth0",
        ("sn5600", "p", "p64", 1): "swp64",
        ("sn5600", "p", "p3/4", 1): "swp3s3",
        ("sn2201", "up", "up1", 1): "swp49",
        ("sn2201", "p", "p48", 1): "swp48",
        ("gb200-nvlink-switch-tray", "mgmt", "mgmt1", 1): "bmc",
    }
    for (catalog, group, port, per_cage), name in cases.items():
        entry = table.entry(catalog)
        assert entry is not None
        assert library_port_name(entry, group, port, per_cage) == name, (catalog, port)
    nvl = table.entry("gb200-nvlink-switch-tray")
    assert nvl is not None and library_port_name(nvl, "nvl", "nvl1", 1) is None
    catalog = builtin_catalog().device_types
    assert all(e.catalog in catalog for e in table.device_types)
    for entry in table.device_types:  # every rule names a group the catalog device has
        groups = {g.name for g in catalog[entry.catalog].port_groups}
        assert set(entry.ports) <= groups, entry.catalog


def test_every_cable_end_is_an_interface_of_its_devices_written_type(designs):
    for name in ("pod", "nvl72"):
        export = _export(designs[name], types="library")
        ports = {v.model: {i["name"] for i in v.interfaces()} for v in export.device_types}
        type_of = {r[0]: r[3] for r in export.rows("07_devices")}
        for stem in ("08_cables", "09_backplane_cables"):
            if stem not in export.tables:
                continue
            for row in export.rows(stem):
                for device_name, port in ((row[1], row[3]), (row[5], row[7])):
                    if type_of[device_name] in ports:
                        assert port in ports[type_of[device_name]], (device_name, port)


def test_library_types_report_the_interfaces_the_librarys_file_lacks(designs):
    report = _export(designs["nvl72"], types="library").library
    assert report is not None
    lacking = report.missing_interfaces
    assert len(lacking["NVLink 5 Switch"]) == 18  # NVLink ports: backplane, not in the library
    assert all(n in ("P22.1", "P23.0") for n in lacking.get("QM9700", ()))
    assert any("lacks" in line for line in report.lines())


def test_types_from_a_library_checkout_leaves_held_types_out_and_lists_what_they_lack(
    tmp_path, designs
):
    checkout = tmp_path / "devicetype-library" / "device-types" / "Nvidia"
    checkout.mkdir(parents=True)
    shutil.copy(LIBRARY_QM9700, checkout / "QM9700.yaml")
    held = read_held_types(tmp_path / "devicetype-library")
    # 32 nodes: the leaves use every port, P22.1 and P23.0 (not in the library's file) too
    pod = generate("rail-optimized", nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    full = _export(pod, types="library")
    export = _export(pod, types="library", held=held, held_from="the checkout")
    models = {v.model for v in export.device_types}
    assert "QM9700" not in models and "QM9700" in {v.model for v in full.device_types}
    report = export.library
    assert report is not None and report.types_held == 1
    qm = {r[0] for r in export.rows("07_devices") if r[3] == "QM9700"}
    used = {r[3] for r in export.rows("08_cables") if r[1] in qm}
    used |= {r[7] for r in export.rows("08_cables") if r[5] in qm}
    expected = used & {"P22.1", "P23.0"}
    assert expected and report.missing_interfaces.get("QM9700", set()) == expected
    # ... and site/07_interfaces.csv adds them to each leaf whose cable lands on one
    leaf_tag = {r[0]: r[11] for r in export.rows("07_devices")}
    wanted = sorted(
        (leaf_tag[device], port, "400gbase-x-osfp")
        for row in export.rows("08_cables")
        for device, port in ((row[1], row[3]), (row[5], row[7]))
        if port in ("P22.1", "P23.0") and device in qm
    )
    added = export.rows("07_interfaces")
    assert sorted(r[:3] for r in added) == wanted and report.interfaces_added == len(added)
    assert "07_interfaces.csv" in " ".join(report.lines())
    assert not len(full.tables["07_interfaces"])  # nothing held: the written type has them
    # The library's QM9700 has no bay per cage: the leaves' transceiver rows are left out, and
    # counted; the servers' stay.
    leaf_tags = {r[11] for r in export.rows("07_devices") if r[3] == "QM9700"}
    kept = export.rows("10_modules")
    assert not any(r[0] in leaf_tags for r in kept)
    assert report.modules_dropped == len(full.rows("10_modules")) - len(kept) > 0
    assert isinstance(export.tables["10_modules"], Table)


def test_types_from_reads_netboxs_multi_document_export_and_refuses_bad_folders(tmp_path):
    export = tmp_path / "netbox-export"
    export.mkdir()
    (export / "device_types.yaml").write_text(
        LIBRARY_QM9700.read_text()
        + "---\nmanufacturer: Nvidia\nmodel: SN5600\nslug: nvidia-sn5600\nu_height: 2\n"
        + "---\nmanufacturer: Nvidia\nmodel: 980-9I51A-00NS00\n"  # a module type: no slug
    )
    held = read_held_types(export)
    assert held.find("NVIDIA", "qm9700", "x") is not None  # by model, ignoring case
    assert held.find("Acme", "X", "nvidia-sn5600") is not None  # by slug
    assert ("nvidia", "980-9i51a-00ns00") in held.modules
    with pytest.raises(ExportError, match="no such folder"):
        read_held_types(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ExportError, match="no .yaml"):
        read_held_types(empty)
    (empty / "bad.yaml").write_text("a: [1,\n")
    with pytest.raises(ExportError, match="not readable YAML"):
        read_held_types(empty)


def test_hallwright_naming_is_unchanged_by_default(designs):
    plain = _export(designs["pod"])
    assert plain.library is None
    assert {v.dtype.vendor for v in plain.device_types} == {"NVIDIA"}
    assert not isinstance(plain.device_types[0], LibraryVariant)
