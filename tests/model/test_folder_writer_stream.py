"""The export folder is written while its files are made: never more than a few files made and
not yet written, a file that cannot be made leaves the old folder whole, and the NetBox folder
written this way is byte for byte the files ``netbox_files`` lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.engine.routed_links import RoutedLinks
from model.outputs.netbox.export import netbox_files, netbox_tables, write_netbox_dir
from model.outputs.schedule import schedule_rows
from model.outputs.writers import ExportError, folder_writer
from tests.builders import small_pod


def listing(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_files_are_written_while_the_next_are_made(tmp_path, monkeypatch):
    made, written, waiting = [], [], []
    real_write = folder_writer._write_synced

    def write(path, data):
        real_write(path, data)
        written.append(path.name)

    def files():
        for k in range(300):
            waiting.append(len(made) - len(written))  # made, not yet written (or being written)
            made.append(k)
            yield f"part/{k:03d}.csv", b"x" * 1000

    monkeypatch.setattr(folder_writer, "_write_synced", write)
    paths = folder_writer.replace_folder(tmp_path / "out", files(), "test export", {"part"})
    assert len(paths) == 300 == len(written)
    assert max(waiting) <= folder_writer._IN_FLIGHT + 1  # memory holds a few files at most
    assert sorted(p.name for p in (tmp_path / "out" / "part").iterdir()) == sorted(written)


def test_a_file_that_cannot_be_made_leaves_the_old_folder_whole(tmp_path):
    target = tmp_path / "out"
    folder_writer.replace_folder(target, [("a/old.csv", b"old")], "test export", {"a"})

    def files():
        for k in range(100):
            yield f"a/{k}.csv", b"new"
        raise ExportError("a table could not be made")

    with pytest.raises(ExportError, match="could not be made"):
        folder_writer.replace_folder(target, files(), "test export", {"a"})
    assert listing(target) == {"a/old.csv": b"old"}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left


def test_the_streamed_netbox_folder_holds_exactly_netbox_files(tmp_path):
    design = small_pod()
    plant = RoutedLinks(design)
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    paths = write_netbox_dir(tmp_path / "netbox", export)
    expected = netbox_files(export)
    assert listing(tmp_path / "netbox") == expected
    assert [str(p.relative_to(tmp_path / "netbox")) for p in paths] == list(expected)
