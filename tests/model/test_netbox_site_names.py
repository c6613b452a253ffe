"""The design's NetBox names (Design Settings, schema 4): site, location and tenant reach every
table that names them; unset, the export keeps the design's name and "Data hall"."""

from __future__ import annotations

import csv

import msgspec

from model.outputs.netbox.export import LOCATION_NAME, netbox_tables, write_netbox_dir
from model.outputs.schedule import schedule_rows
from tests.builders import small_pod
from tests.model.bom_test_helpers import plant_of


def _export(design, folder):
    plant = plant_of(design)
    write_netbox_dir(folder, netbox_tables(design, schedule_rows(design, plant), plant))
    tables = {}
    for name in ("04_sites", "05_locations", "06_racks", "07_devices", "08_cables"):
        with open(folder / "site" / f"{name}.csv", newline="", encoding="utf-8") as handle:
            tables[name] = list(csv.DictReader(handle))
    return tables


def test_site_location_and_tenant_come_from_the_design_settings(tmp_path):
    design = small_pod()
    design.set_settings(
        msgspec.structs.replace(
            design.settings,
            netbox_site="AMS-DH1",
            netbox_location="Hall 1 West",
            netbox_tenant="Research",
        )
    )
    t = _export(design, tmp_path / "named")
    assert [(s["name"], s["tenant"]) for s in t["04_sites"]] == [("AMS-DH1", "Research")]
    assert [(loc["site"], loc["name"], loc["slug"]) for loc in t["05_locations"]] == [
        ("AMS-DH1", "Hall 1 West", "hall-1-west")
    ]
    assert {(r["site"], r["location"], r["tenant"]) for r in t["06_racks"]} == {
        ("AMS-DH1", "Hall 1 West", "Research")
    }
    assert {(d["site"], d["location"], d["tenant"]) for d in t["07_devices"]} == {
        ("AMS-DH1", "Hall 1 West", "Research")
    }
    assert {c["side_a_site"] for c in t["08_cables"]} == {"AMS-DH1"}


def test_unset_names_keep_the_design_name_data_hall_and_no_tenant_column(tmp_path):
    design = small_pod()
    t = _export(design, tmp_path / "plain")
    assert [s["name"] for s in t["04_sites"]] == [design.name]
    assert "tenant" not in t["04_sites"][0] and "tenant" not in t["07_devices"][0]
    assert {r["location"] for r in t["06_racks"]} == {LOCATION_NAME}
