"""import-netbox on hostile list exports: a height of 5,000 digits, a width of "1.2.3mm", a
textual rack position, a length of "1.2.3", 20,001 racks: each refused with the file, the line
and a sentence before a design is written, never a traceback or a design validate refuses."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from cli import run_cli
from model.asbuilt.netbox_import import import_netbox
from model.asbuilt.report_csv import ReportError

DATA = Path(__file__).resolve().parents[1] / "data" / "netbox_export"


def _folder(tmp_path: Path, name: str, column: str, value: str, row: int = 0) -> Path:
    """The recorded export with one cell of ``name`` changed."""
    folder = tmp_path / "nb"
    shutil.copytree(DATA, folder)
    path = folder / name
    with path.open(newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle))
    rows[row + 1][rows[0].index(column)] = value
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return folder


@pytest.mark.parametrize(
    "name, column, value, message",
    [
        ("netbox_racks.csv", "Height", "4" * 5000, "netbox_racks.csv line 2: height"),
        ("netbox_racks.csv", "Height", "tall", "is not a number of U"),
        ("netbox_racks.csv", "Outer Width", "1.2.3mm", "outer width: '1.2.3mm' is not a length"),
        ("netbox_devices.csv", "Position", "top", "netbox_devices.csv line 2: position 'top'"),
        ("netbox_cables.csv", "Length", "1.2.3", "cable length '1.2.3' is not a length"),
        ("netbox_cables.csv", "Length", "9" * 5000 + " m", "is not a length"),
    ],
)
def test_a_bad_cell_is_refused_with_its_file_and_line(tmp_path, name, column, value, message):
    folder = _folder(tmp_path, name, column, value)
    with pytest.raises(ReportError, match=message):
        import_netbox(folder)


def test_more_racks_than_a_design_holds_are_refused_before_any_work(tmp_path, capsys):
    folder = tmp_path / "nb"
    shutil.copytree(DATA, folder)
    path = folder / "netbox_racks.csv"
    with path.open(newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle))
    name = rows[0].index("Name")
    extra = [
        [f"Z{n:05d}" if i == name else c for i, c in enumerate(rows[1])] for n in range(20_001)
    ]
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows + extra)
    out = tmp_path / "back.hall.json"
    assert run_cli(["import-netbox", str(folder), "-o", str(out)]) == 2
    assert "racks; a design holds at most 20,000" in capsys.readouterr().err
    assert not out.exists()


def test_empty_sizes_take_the_rack_type_and_the_recorded_export_still_imports(tmp_path):
    folder = _folder(tmp_path, "netbox_racks.csv", "Outer Width", "")
    design = import_netbox(folder).design
    assert len(design.devices) == 28


def test_two_rack_names_that_make_the_same_id_are_both_kept(tmp_path):
    folder = tmp_path / "nb"
    shutil.copytree(DATA, folder)
    renamed = {"A01": "A-01", "A02": "A 01"}  # both once made the id r-A-01

    def rename(name: str, column: str) -> None:
        path = folder / name
        with path.open(newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.reader(handle))
        k = rows[0].index(column)
        for row in rows[1:]:
            row[k] = renamed.get(row[k], row[k])
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(rows)

    rename("netbox_racks.csv", "Name")
    rename("netbox_devices.csv", "Rack")
    design = import_netbox(folder).design
    names = {r.name for r in design.racks.values()}
    assert {"A-01", "A 01"} <= names and len(design.racks) == 6
    assert len(design.devices) == 28


def _repeat_rows(folder: Path, name: str) -> None:
    path = folder / name
    with path.open(newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle))
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([rows[0], *rows[1:], *rows[1:]])


def test_a_cable_on_a_port_an_earlier_cable_uses_is_left_out_with_a_note(tmp_path):
    # Found by the NetBox-folder fuzzing: every cable row twice made the second link's
    # DesignError ("port nic1 of su1-node01 is already used") escape as a traceback.
    folder = tmp_path / "nb"
    shutil.copytree(DATA, folder)
    once = import_netbox(DATA).design
    _repeat_rows(folder, "netbox_cables.csv")
    result = import_netbox(folder)
    assert len(result.design.links) == len(once.links)
    assert any(
        "384 cables left out: a port an earlier cable already uses" in n for n in result.notes
    ), result.notes


def test_a_rack_listed_twice_is_kept_once_with_a_note(tmp_path):
    folder = tmp_path / "nb"
    shutil.copytree(DATA, folder)
    _repeat_rows(folder, "netbox_racks.csv")
    result = import_netbox(folder)
    assert len(result.design.racks) == 6 and len(result.design.devices) == 28
    assert any("6 racks left out: a rack of the same name" in n for n in result.notes)


def test_a_device_listed_twice_is_kept_once_and_named_in_a_note(tmp_path):
    # Found by the NetBox-folder fuzzing: the second spine01 at U47 of B01 collided with the first.
    folder = tmp_path / "nb"
    shutil.copytree(DATA, folder)
    _repeat_rows(folder, "netbox_devices.csv")
    result = import_netbox(folder)
    assert len(result.design.devices) == 28
    note = next(n for n in result.notes if "devices left out, refused by the design" in n)
    assert note.startswith("28 devices") and "netbox_devices.csv line 30" in note


def test_an_over_long_cable_label_costs_that_cable_only(tmp_path):
    folder = _folder(tmp_path, "netbox_cables.csv", "Label", "9" * 5000, row=147)
    result = import_netbox(folder)
    assert len(result.design.links) == len(import_netbox(DATA).design.links) - 1
    assert any("1 cables left out" in n and "at most 200 characters" in n for n in result.notes)
