"""NetBox export of a hall's cooling (NetBox 4.7): CRAHs as cooling sources, one feed per rack
each serves; CDUs left out (NetBox models them as devices fed from plant the design lacks)."""

from __future__ import annotations

from model.generators.generate import nvl72
from model.outputs.netbox.cooling import COOLING_FEED_HEADER, COOLING_SOURCE_HEADER
from model.outputs.netbox.export import netbox_files, netbox_tables
from model.outputs.schedule import schedule_rows
from tests.builders import empty_hall, rack
from tests.model.bom_test_helpers import plant_of

# The columns of NetBox 4.7's import forms (dcim/forms/bulk_import.py: CoolingSourceImportForm,
# CoolingFeedImportForm), read from its source (v4.7.0-beta1 and the 4.7 feature branch).
NETBOX_COOLING_SOURCE = {
    *("site", "location", "name", "type", "status", "fluid_type", "cooling_capacity"),
    *("description", "owner", "comments", "tags"),
}
NETBOX_COOLING_FEED = {
    *("site", "cooling_source", "location", "rack", "name", "status", "cooling_capacity"),
    *("max_flow", "max_flow_unit", "tenant", "description", "owner", "comments", "tags"),
}
NETBOX_SOURCE_TYPES = {"chiller", "cooling-tower", "dry-cooler", "crac", "crah"}


def _tables(design):
    plant = plant_of(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def test_cooling_columns_are_netbox_import_fields():
    assert set(COOLING_SOURCE_HEADER) <= NETBOX_COOLING_SOURCE
    assert set(COOLING_FEED_HEADER) <= NETBOX_COOLING_FEED


def test_each_crah_is_a_source_and_each_rack_it_serves_a_feed_from_it():
    design = nvl72(racks=2)
    crahs = design.hall.cooling.crahs
    assert crahs and design.hall.cooling.cdus  # the generated row: 2 CRAHs and 2 CDUs
    export = _tables(design)
    sources = [
        dict(zip(COOLING_SOURCE_HEADER, r, strict=True)) for r in export.rows("14_cooling_sources")
    ]
    # The CRAHs only: NetBox has no CDU type of cooling source.
    assert [s["name"] for s in sources] == [c.name or c.id for c in crahs]
    assert {s["type"] for s in sources} <= NETBOX_SOURCE_TYPES and sources[0]["type"] == "crah"
    assert [float(s["cooling_capacity"]) for s in sources] == [c.capacity_kw for c in crahs]
    feeds = [
        dict(zip(COOLING_FEED_HEADER, r, strict=True)) for r in export.rows("15_cooling_feeds")
    ]
    crah_ids = {c.id for c in crahs}
    want = sum(sum(u in crah_ids for u in r.cooling) for r in design.racks.values())
    assert len(feeds) == want == 2 * len(design.racks)  # every rack on its row's two CRAHs
    racks = {r["rack"] for r in feeds}
    assert len(racks) == len(design.racks)
    names = {(f["cooling_source"], f["name"]) for f in feeds}
    assert len(names) == len(feeds)  # a feed's name is unique to its source, as NetBox asks
    files = netbox_files(export)
    assert "site/14_cooling_sources.csv" in files and "site/15_cooling_feeds.csv" in files
    assert b"The CDUs are not written" in files["README.txt"]


def test_a_hall_without_crahs_writes_no_cooling_files():
    design = empty_hall()
    rack(design, "r1", 1.0, 3.0)
    files = netbox_files(_tables(design))
    assert not any("cooling" in name for name in files)
    assert b"Cooling" not in files["README.txt"]
