"""NetBox export of a design with a facility: power panels, feeds, PDUs and the cables between."""

from __future__ import annotations

import csv

from model.generators.generate import nvl72
from model.outputs.netbox.export import DEVICE_HEADER, netbox_tables, write_netbox_dir
from model.outputs.netbox.power import (
    POWER_CABLE_HEADER,
    POWER_FEED_HEADER,
    POWER_PANEL_HEADER,
)
from model.outputs.schedule import schedule_rows
from tests.model.bom_test_helpers import plant_of

# The columns of NetBox 4.7's import forms (dcim/forms/bulk_import.py: PowerPanelImportForm,
# PowerFeedImportForm, CableImportForm), read from its source.
NETBOX_POWER_PANEL = {"site", "location", "name", "description", "owner", "comments", "tags"}
NETBOX_POWER_FEED = {
    *("site", "power_panel", "location", "rack", "name", "status", "type", "mark_connected"),
    *("supply", "phase", "voltage", "amperage", "max_utilization", "tenant", "description"),
    *("owner", "comments", "tags"),
}
NETBOX_CABLE = {
    *("side_a_site", "side_a_device", "side_a_power_panel", "side_a_type", "side_a_name"),
    *("side_b_site", "side_b_device", "side_b_power_panel", "side_b_type", "side_b_name"),
    *("type", "status", "profile", "tenant", "bundle", "label", "color", "length"),
    *("length_unit", "description", "owner", "comments", "tags"),
}


def _tables(design):
    plant = plant_of(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def test_power_columns_are_netbox_import_fields():
    assert set(POWER_PANEL_HEADER) <= NETBOX_POWER_PANEL
    assert set(POWER_FEED_HEADER) <= NETBOX_POWER_FEED
    assert set(POWER_CABLE_HEADER) <= NETBOX_CABLE


def test_every_rack_pdu_is_a_feed_on_its_busway_cabled_to_a_pdu_in_that_rack():
    design = nvl72(racks=2)
    export = _tables(design)
    panels = {row[2] for row in export.rows("11_power_panels")}
    assert len(panels) == len(design.hall.power.panels)
    feeds = export.rows("12_power_feeds")
    assert len(feeds) == sum(len(r.pdus) for r in design.racks.values())
    devices = {
        row[0]: dict(zip(DEVICE_HEADER, row, strict=True)) for row in export.rows("07_devices")
    }
    rack_of_feed = {row[4]: row[3] for row in feeds}
    cables = export.rows("13_power_cables")
    assert len(cables) == len(feeds)
    for cable in cables:
        row = dict(zip(POWER_CABLE_HEADER, cable, strict=True))
        assert row["side_a_type"] == "dcim.powerfeed" and row["side_a_power_panel"] in panels
        pdu = devices[row["side_b_device"]]
        assert row["side_b_type"] == "dcim.powerport" and pdu["role"] == "pdu"
        assert pdu["rack"] == rack_of_feed[row["side_a_name"]]  # traced to its own rack
    nvl = next(r for r in design.racks.values() if r.type == "rack-nvl72")
    types = [row[6] for row in feeds if row[3] == nvl.name]
    assert types.count("primary") == types.count("redundant") == 4  # 8 shelves, 2N


def test_a_design_without_a_facility_writes_no_power_files(tmp_path):
    plain = _tables(nvl72(racks=2, facility="no"))
    paths = write_netbox_dir(tmp_path / "nb", plain)
    assert not [p for p in paths if "power" in p.name]
    assert "power_feeds" not in (tmp_path / "nb" / "README.txt").read_text()
    fed = write_netbox_dir(tmp_path / "fed", _tables(nvl72(racks=2)))
    names = {p.name for p in fed}
    assert {"11_power_panels.csv", "12_power_feeds.csv", "13_power_cables.csv"} <= names
    assert "generic-rack-pdu.yaml" in names and "nvidia-nvl72-power-shelf.yaml" in names
    with open(tmp_path / "fed" / "site" / "12_power_feeds.csv", encoding="utf-8") as handle:
        assert tuple(next(csv.reader(handle))) == POWER_FEED_HEADER
    assert "13_power_cables.csv" in (tmp_path / "fed" / "README.txt").read_text()
