"""Writers on a full disk, through symlinks and onto read-only files: the old output stays
byte-identical, nothing half-written is left behind, and the caller gets a sentence.

A full disk is simulated by making ``os.fsync`` (and an export folder's ``syncfs``) fail with
ENOSPC, as a real full disk does for data the kernel could not place (every writer syncs before
it renames); the same writers were
also checked on a small full tmpfs by hand (see the issue #15 report).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from model.engine.routed_links import RoutedLinks
from model.files.design_file import DesignFileError, ReadOnlyFileError, load_design, save_design
from model.outputs.bom import bom_lines
from model.outputs.bom_files import write_bom_csv, write_schedule_csv
from model.outputs.netbox.export import netbox_tables, write_netbox_dir
from model.outputs.schedule import schedule_rows
from model.outputs.writers import ExportError, folder_writer
from model.outputs.writers.xlsx_writer import Sheet, write_xlsx
from tests.builders import small_pod


@pytest.fixture
def full_disk(monkeypatch):
    def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)
    # An export folder is synced by one syncfs where there is one (folder_writer._sync_all)
    if folder_writer._SYNCFS is not None:
        monkeypatch.setattr(folder_writer, "_SYNCFS", no_space)


def listing(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` by relative path."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def tables(design):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def test_saving_a_design_on_a_full_disk_keeps_the_old_file(tmp_path, request):
    target = tmp_path / "pod.hall.json"
    save_design(small_pod(), target)
    before = target.read_bytes()
    design = small_pod()
    design.set_name("changed")
    request.getfixturevalue("full_disk")
    with pytest.raises(DesignFileError, match="previous file is unchanged"):
        save_design(design, target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["pod.hall.json"]


@pytest.mark.parametrize("kind", ["bom.csv", "schedule.csv", "bom.xlsx"])
def test_exports_on_a_full_disk_keep_the_old_file(tmp_path, kind, request):
    design = small_pod()
    plant = RoutedLinks(design)
    target = tmp_path / kind

    def write() -> None:
        if kind == "bom.csv":
            write_bom_csv(target, bom_lines(design, plant))
        elif kind == "schedule.csv":
            write_schedule_csv(target, schedule_rows(design, plant))
        else:
            write_xlsx(target, [Sheet("BOM", ("a",), [("x",)])])

    write()
    before = target.read_bytes()
    request.getfixturevalue("full_disk")
    with pytest.raises(ExportError, match="No space left|unchanged"):
        write()
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [kind]


def test_netbox_folder_on_a_full_disk_keeps_the_old_export_whole(tmp_path, request):
    folder = tmp_path / "netbox"
    old_design = small_pod()
    write_netbox_dir(folder, tables(old_design))
    before = listing(folder)
    new_design = small_pod()
    new_design.remove_racks(["r2"])
    new_tables = tables(new_design)
    request.getfixturevalue("full_disk")
    with pytest.raises(ExportError, match="previous export is unchanged"):
        write_netbox_dir(folder, new_tables)
    assert listing(folder) == before  # not a mix of two designs
    assert [p.name for p in tmp_path.iterdir()] == ["netbox"]  # no staging folder left


def test_netbox_folder_is_replaced_as_a_whole(tmp_path):
    folder = tmp_path / "netbox"
    design = small_pod()
    write_netbox_dir(folder, tables(design))
    (folder / "site" / "99_stale.csv").write_text("from an older export\n")
    paths = write_netbox_dir(folder, tables(design))
    assert sorted(listing(folder)) == sorted(str(p.relative_to(folder)) for p in paths)
    assert [p.name for p in tmp_path.iterdir()] == ["netbox"]


def test_netbox_refuses_a_folder_holding_other_files(tmp_path):
    (tmp_path / "thesis.docx").write_text("years of work")
    design = small_pod()
    with pytest.raises(ExportError, match="not a NetBox export"):
        write_netbox_dir(tmp_path, tables(design))
    assert (tmp_path / "thesis.docx").read_text() == "years of work"


def test_saving_through_a_symlink_writes_its_target(tmp_path):
    real = tmp_path / "real.hall.json"
    save_design(small_pod(), real)
    link = tmp_path / "link.hall.json"
    link.symlink_to(real)
    design = small_pod()
    design.set_name("through the link")
    save_design(design, link)
    assert link.is_symlink()
    assert load_design(real).name == "through the link"


def test_a_read_only_design_is_refused_unless_confirmed(tmp_path):
    target = tmp_path / "locked.hall.json"
    save_design(small_pod(), target)
    target.chmod(0o444)
    before = target.read_bytes()
    design = small_pod()
    design.set_name("changed")
    with pytest.raises(ReadOnlyFileError, match="read-only"):
        save_design(design, target)
    assert target.read_bytes() == before
    save_design(design, target, overwrite_read_only=True)
    assert load_design(target).name == "changed"
    assert target.stat().st_mode & 0o777 == 0o444  # still read-only, as the user left it


def test_a_file_written_piece_by_piece_that_fails_half_way_keeps_the_old_file(tmp_path):
    """The big CSV files are written as their pieces are made: the disk filling after the
    first piece, or a piece that cannot be made, leaves the old file and no temporary one."""
    from model.files.design_file import write_atomic

    target = tmp_path / "schedule.csv"
    target.write_bytes(b"old\r\n")

    def filling_up():
        yield b"a,b\r\n" * 1000
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(DesignFileError, match="No space left on device"):
        write_atomic(target, filling_up())

    def broken():
        yield b"a,b\r\n"
        raise ValueError("a row of the wrong width")

    with pytest.raises(ValueError, match="wrong width"):
        write_atomic(target, broken())
    assert listing(tmp_path) == {"schedule.csv": b"old\r\n"}
    write_atomic(target, iter([b"new", b"\r\n"]))
    assert target.read_bytes() == b"new\r\n"
