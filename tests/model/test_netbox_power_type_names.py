"""The PDU and power-shelf types of a NetBox export yield to the design's own types: a custom
type named like the facility's generated type (``Generic`` ``Rack PDU``) shared its YAML path
(one file was lost) and its (manufacturer, model), so NetBox would have matched the custom
type's devices to the PDU type."""

from __future__ import annotations

import json
from collections import Counter

import msgspec
import pytest

from model.asbuilt.netbox_import import import_netbox
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes
from model.generators.generate import nvl72
from model.outputs.netbox.export import DEVICE_TYPES_DIR, netbox_file_stream, netbox_tables
from model.outputs.netbox.modules import ModuleType, distinct_module_slugs
from model.outputs.netbox.power import PDU_ROLE
from model.outputs.schedule import schedule_rows
from tests.model.netbox_lists import write_lists

CUSTOM_ID = "my-rack-pdu"
CUSTOM_DEVICE = "my-pdu-1"


def _with_custom_type(vendor: str, model: str):
    """A 2-rack NVL72 hall (its network racks have generic rack PDUs, its NVL72 racks power
    shelves) plus a 1U device of a custom type named ``vendor`` ``model``, with four QSFP28
    ports (a layout no catalog type has, so import-netbox reads it as the design's own)."""
    doc = json.loads(design_to_bytes(nvl72(racks=2)))
    base = nvl72(racks=1).catalog.device_types["mgmt-switch-48x1g"]
    custom = msgspec.structs.replace(
        base,
        id=CUSTOM_ID,
        vendor=vendor,
        model=model,
        port_groups=tuple(g for g in base.port_groups if g.name == "up"),
        power_typical_w=250.0,
        power_max_w=321.0,
    )
    doc["custom_types"].setdefault("device_types", []).append(msgspec.to_builtins(custom))
    rack = doc["racks"][-1]["id"]
    used = {d["u"] for d in doc["devices"] if d["rack"] == rack}
    u = next(k for k in range(2, 48) if not {k - 1, k, k + 1} & used)
    doc["devices"].append(
        {
            "id": CUSTOM_DEVICE,
            "name": CUSTOM_DEVICE,
            "type": CUSTOM_ID,
            "rack": rack,
            "u": u,
            "role": "management",
        }
    )
    return read_design_bytes(json.dumps(doc).encode("utf-8"))


def _export(design, types: str = "hallwright"):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant, types=types)


def _type_docs(export) -> list[dict]:
    return [v.document() for v in export.device_types] + [d for _, d in export.power_types]


def _devices(export) -> list[dict]:
    header = export.tables["07_devices"].header
    return [dict(zip(header, row, strict=True)) for row in export.rows("07_devices")]


CLASHES = {
    "the rack PDU type": ("Generic", "Rack PDU"),
    "the rack PDU type in other case": ("generic", "RACK pdu"),
    "the power shelf type": ("NVIDIA", "NVL72 power shelf"),
}


@pytest.mark.parametrize("case", sorted(CLASHES))
def test_every_device_type_has_its_own_file_slug_and_name(case):
    vendor, model = CLASHES[case]
    export = _export(_with_custom_type(vendor, model))
    paths = [p for p, _ in netbox_file_stream(export) if p.startswith(DEVICE_TYPES_DIR)]
    assert [p for p, n in Counter(paths).items() if n > 1] == []
    docs = _type_docs(export)
    assert len(paths) == len(docs)
    assert len({d["slug"] for d in docs}) == len(docs)
    names = {(str(d["manufacturer"]).casefold(), str(d["model"]).casefold()) for d in docs}
    assert len(names) == len(docs)
    # the design's type keeps its name and slug; the generated one yields
    (own,) = [d for d in docs if d["description"] == f"Hallwright {CUSTOM_ID}"]
    assert (own["manufacturer"], own["model"]) == (vendor, model)
    power = {(d["manufacturer"], d["model"]) for _, d in export.power_types}
    assert (vendor, model) not in power
    assert any(m.endswith(" (facility)") for _, m in power)


@pytest.mark.parametrize("case", sorted(CLASHES))
def test_pdu_rows_name_the_generated_type_and_the_custom_device_its_own(case):
    vendor, model = CLASHES[case]
    export = _export(_with_custom_type(vendor, model))
    power = {(d["manufacturer"], d["model"]) for _, d in export.power_types}
    rows = _devices(export)
    pdus = [(r["manufacturer"], r["device_type"]) for r in rows if r["role"] == PDU_ROLE]
    assert pdus and set(pdus) == power  # every generated type is used, and only those
    (mine,) = [r for r in rows if r["name"] == CUSTOM_DEVICE]
    assert (mine["manufacturer"], mine["device_type"]) == (vendor, model)
    assert (vendor.casefold(), model.casefold()) not in {
        (m.casefold(), n.casefold()) for m, n in pdus
    }


def test_without_a_clash_the_generated_types_keep_their_names():
    export = _export(nvl72(racks=2))
    assert sorted((d["manufacturer"], d["model"], s) for s, d in export.power_types) == [
        ("Generic", "Rack PDU", "generic-rack-pdu"),
        ("NVIDIA", "NVL72 power shelf", "nvidia-nvl72-power-shelf"),
    ]


@pytest.mark.parametrize("vendor", ["Generic", "Acme"])
def test_library_names_keep_the_pdu_rows_on_the_generated_type(vendor):
    """--types library renames device rows by their type: by (manufacturer, model), so the
    PDUs are not renamed to the custom type's library name (an ``Acme`` ``Rack PDU`` needs no
    yielding, but the rows were looked up by model alone), nor the other way round."""
    export = _export(_with_custom_type(vendor, "Rack PDU"), types="library")
    rows = _devices(export)
    power = {(d["manufacturer"], d["model"]) for _, d in export.power_types}
    assert {(r["manufacturer"], r["device_type"]) for r in rows if r["role"] == PDU_ROLE} == power
    (mine,) = [r for r in rows if r["name"] == CUSTOM_DEVICE]
    assert mine["device_type"] == "Rack PDU"
    assert (mine["manufacturer"], mine["device_type"]) not in power


def test_the_custom_type_and_the_pdus_come_back_from_netbox_s_lists(tmp_path):
    design = _with_custom_type("Generic", "Rack PDU")
    back = import_netbox(write_lists(_export(design), tmp_path / "lists", interfaces=True))
    (mine,) = [d for d in back.design.devices.values() if d.name == CUSTOM_DEVICE]
    dtype = back.design.catalog.device_types[mine.type]
    assert (dtype.vendor, dtype.model, dtype.power_max_w) == ("Generic", "Rack PDU", 321.0)
    assert {r.id: r.pdus for r in back.design.racks.values()} == {
        r.id: r.pdus for r in design.racks.values()
    }


def test_module_types_whose_part_numbers_slug_alike_get_their_own_files():
    """Part numbers differing in case or punctuation only (a design's own module part beside
    the catalog's) gave one YAML path; the first by part number keeps its slug, and every
    model (the part number NetBox's module import finds a type by) stays as it was."""
    part = next(iter(nvl72(racks=1).catalog.module_parts.values()))
    numbers = [part.part_number, part.part_number.lower(), part.part_number.replace("-", " ")]
    assert len(set(numbers)) == 3
    types = [ModuleType([msgspec.structs.replace(part, part_number=n)]) for n in reversed(numbers)]
    plain = types[0].slug
    assert {t.slug for t in types} == {plain}  # the clash
    distinct_module_slugs(types)
    assert len({t.slug for t in types}) == 3
    assert min(types, key=lambda t: t.first.part_number).slug == plain
    assert [t.model for t in types] == list(reversed(numbers))
    distinct_module_slugs(types[:1])  # alone again: no suffix
    assert types[0].slug == plain
