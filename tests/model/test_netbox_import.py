"""import-netbox: a site NetBox exported ("All data" CSVs) comes back as the design it was.

The files in tests/data/netbox_export are NetBox 4.7.3's own list exports of the site "Pod A
(DGX H100)" after the live import (tests/netbox_live) of the generated pod below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import run_cli
from model.asbuilt.netbox_import import import_netbox
from model.asbuilt.report_csv import ReportError
from model.bom import schedule_rows
from model.cabling import CablePlant
from model.export.netbox import netbox_tables
from model.generate import generate

DATA = Path(__file__).resolve().parents[1] / "data" / "netbox_export"


def _tables(design):
    plant = CablePlant(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def test_export_import_export_round_trip_is_equal_but_for_positions():
    original = generate(
        "rail-optimized",
        nodes=16,
        node_type="dgx-h100",
        switch="qm9700",
        su_nodes=16,
        name="Pod A (DGX H100)",
    )
    result = import_netbox(DATA)
    back = result.design
    assert len(back.devices) == len(original.devices)
    assert len(back.links) == len(original.links)
    first, second = _tables(original), _tables(back)
    for stem in ("01_manufacturers", "02_device_roles", "04_sites", "06_racks", "07_devices"):
        assert second.rows(stem) == first.rows(stem), stem
    assert {v.model for v in second.device_types} == {v.model for v in first.device_types}

    def cable_set(export):  # NetBox may list a cable's ends the other way round
        return {
            (frozenset([(r[1], r[3]), (r[5], r[7])]), r[8], r[10], r[11])
            for r in export.rows("08_cables")
        }

    assert cable_set(second) == cable_set(first)
    assert any("no floor position" in note for note in result.notes)
    assert all(link.as_built_m for link in back.links.values())


def test_import_netbox_command_writes_a_design_and_refuses_a_wrong_folder(tmp_path, capsys):
    out = tmp_path / "back.hall.json"
    assert run_cli(["import-netbox", str(DATA), "-o", str(out)]) == 0
    assert "28 devices, 384 links" in capsys.readouterr().out
    assert run_cli(["validate", str(out)]) == 0
    assert run_cli(["import-netbox", str(tmp_path), "-o", str(out)]) == 2
    assert "no netbox_sites.csv" in capsys.readouterr().err
    with pytest.raises(ReportError, match="no site 'Elsewhere'"):
        import_netbox(DATA, "Elsewhere")
