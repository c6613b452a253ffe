"""The export folder is written while its files are made (by writer threads): never more than a
few files made and not yet written, a file that cannot be made leaves the old folder whole, and
the NetBox folder written this way is byte for byte the files ``netbox_files`` lists. The files
are synced all at once, after the last is written and before the folder is swapped in (syncfs
on Linux, else each file and folder)."""

from __future__ import annotations

import errno
import os
import threading
import time
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
    real_write = folder_writer._write_file

    def write(path, data):
        real_write(path, data)
        written.append(Path(path).name)

    def files():
        for k in range(300):
            waiting.append(len(made) - len(written))  # made, not yet written (or being written)
            made.append(k)
            yield f"part/{k:03d}.csv", b"x" * 1000

    monkeypatch.setattr(folder_writer, "_write_file", write)
    paths = folder_writer.replace_folder(tmp_path / "out", files(), "test export", {"part"})
    assert len(paths) == 300 == len(written)
    # Handed to writer threads as made: memory holds at most the few files waiting for theirs
    assert max(waiting) <= folder_writer._IN_FLIGHT
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


def _calls_before_swap(monkeypatch, events):
    real_swap = folder_writer._swap_in

    def swap(staging, directory):
        events.append(("swap", staging))
        real_swap(staging, directory)

    monkeypatch.setattr(folder_writer, "_swap_in", swap)


def test_one_syncfs_after_the_last_file_and_before_the_swap(tmp_path, monkeypatch):
    events = []
    real_write = folder_writer._write_file
    monkeypatch.setattr(
        folder_writer,
        "_write_file",
        lambda path, data: (events.append(("write", Path(path).name)), real_write(path, data)),
    )
    monkeypatch.setattr(
        folder_writer,
        "_SYNCFS",
        lambda fd: events.append(("syncfs", Path(f"/proc/self/fd/{fd}").resolve().name)) or 0,
    )
    monkeypatch.setattr(
        folder_writer, "_fsync", lambda path: events.append(("fsync", Path(path).name))
    )
    _calls_before_swap(monkeypatch, events)
    files = [(f"a/{k}.csv", b"x") for k in range(20)]
    folder_writer.replace_folder(tmp_path / "out", files, "test export", {"a"})
    kinds = [kind for kind, _ in events]
    assert kinds == ["write"] * 20 + ["syncfs", "swap"]
    assert events[20][1] == events[21][1].name  # the staging folder is the one synced
    assert listing(tmp_path / "out") == {f"a/{k}.csv": b"x" for k in range(20)}


def _no_syncfs_call(fd):
    raise OSError(errno.ENOSYS, os.strerror(errno.ENOSYS))


@pytest.mark.parametrize("syncfs", [None, _no_syncfs_call], ids=["no syncfs", "ENOSYS"])
def test_without_syncfs_every_file_and_folder_is_synced_before_the_swap(
    tmp_path, monkeypatch, syncfs
):
    events = []
    monkeypatch.setattr(folder_writer, "_SYNCFS", syncfs)
    real_fsync = folder_writer._fsync
    monkeypatch.setattr(
        folder_writer, "_fsync", lambda path: (events.append(("fsync", path)), real_fsync(path))
    )
    _calls_before_swap(monkeypatch, events)
    files = [("a/1.csv", b"1"), ("a/b/2.csv", b"2"), ("3.csv", b"3")]
    folder_writer.replace_folder(tmp_path / "out", files, "test export", {"a", "3.csv"})
    assert events[-1][0] == "swap"
    staging = events[-1][1]
    synced = {str(Path(path).relative_to(staging)) for _, path in events[:-1]}
    assert synced == {"a/1.csv", "a/b/2.csv", "3.csv", ".", "a", "a/b"}


def _failing(error):
    def fail(_target):
        raise OSError(error, os.strerror(error))

    return fail


@pytest.mark.parametrize(
    "syncfs, fsync",
    [(_failing(errno.EIO), None), (None, _failing(errno.EIO))],
    ids=["syncfs fails", "an fsync fails"],
)
def test_a_failed_sync_leaves_the_old_folder_whole(tmp_path, monkeypatch, syncfs, fsync):
    target = tmp_path / "out"
    folder_writer.replace_folder(target, [("a/old.csv", b"old")], "test export", {"a"})
    monkeypatch.setattr(folder_writer, "_SYNCFS", syncfs)
    if fsync is not None:
        monkeypatch.setattr(folder_writer, "_fsync", fsync)
    with pytest.raises(ExportError, match="Input/output error.*previous export is unchanged"):
        folder_writer.replace_folder(target, [("a/new.csv", b"new")], "test export", {"a"})
    assert listing(target) == {"a/old.csv": b"old"}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left


@pytest.mark.parametrize(
    ("release", "reports"),
    [
        ("6.1.0-18-amd64", True),
        ("5.8.0", True),
        ("5.15.0-91-generic", True),
        ("5.4.0-150-generic", False),  # Ubuntu 20.04: syncfs would lose an EIO
        ("4.18.0-513.el8.x86_64", False),
        ("4.19.0-26-amd64", False),
        ("garbage", False),
    ],
)
def test_syncfs_only_where_the_kernel_reports_writeback_errors(release, reports):
    """Before Linux 5.8 syncfs failed only for a bad descriptor: a write-back error was lost
    and a damaged folder would replace the good one, so there each file is fsynced."""
    assert folder_writer._reports_writeback_errors(release) is reports


# Writer-thread failures, ordering and interrupts (review17's cases).


@pytest.fixture
def old(tmp_path):
    target = tmp_path / "out"
    folder_writer.replace_folder(target, [("a/old.csv", b"old")], "test export", {"a"})
    return target


def _fail_on(monkeypatch, name, error=errno.ENOSPC):
    real = folder_writer._write_file

    def write(path, data):
        if Path(path).name == name:
            raise OSError(error, os.strerror(error), path)
        real(path, data)

    monkeypatch.setattr(folder_writer, "_write_file", write)


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EACCES, errno.EISDIR])
def test_a_writer_thread_failure_leaves_the_old_folder_and_nothing_beside(old, monkeypatch, error):
    _fail_on(monkeypatch, "5.csv", error)
    files = ((f"a/{k}.csv", b"new") for k in range(50))
    with pytest.raises(ExportError, match=os.strerror(error)):
        folder_writer.replace_folder(old, files, "test export", {"a"})
    assert listing(old) == {"a/old.csv": b"old"}
    assert [p.name for p in old.parent.iterdir()] == ["out"]
    assert threading.active_count() == 1


def test_the_first_error_is_the_one_reported(old, monkeypatch):
    """File 0 cannot be written (disk full); making file 3 fails later: the disk-full error is
    the one reported, as the one-at-a-time writer did (review17: the writer threads went on
    making files and reported the later error)."""
    _fail_on(monkeypatch, "0.csv")

    def files():
        for k in range(10):
            if k == 3:
                raise ExportError("table 3 could not be made")
            yield f"a/{k}.csv", b"new"

    with pytest.raises(ExportError) as refused:
        folder_writer.replace_folder(old, files(), "test export", {"a"})
    assert "No space left on device" in str(refused.value), str(refused.value)
    assert listing(old) == {"a/old.csv": b"old"}


def test_keyboard_interrupt_while_files_are_in_flight(old, monkeypatch):
    real = folder_writer._write_file

    def slow(path, data):
        time.sleep(0.02)
        real(path, data)

    monkeypatch.setattr(folder_writer, "_write_file", slow)

    def files():
        for k in range(40):
            yield f"a/{k}.csv", b"new"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        folder_writer.replace_folder(old, files(), "test export", {"a"})
    assert listing(old) == {"a/old.csv": b"old"}
    assert [p.name for p in old.parent.iterdir()] == ["out"]
    assert threading.active_count() == 1


def test_a_path_given_twice_ends_with_its_last_bytes(tmp_path, monkeypatch):
    """netbox_file_stream can give one path twice (a custom device type slugged like the
    facility's PDU type: rv17/make_pdu_clash.py); netbox_files (a dict) and the one-at-a-time
    writer keep the last. Here the first write of the path is slowed down, as a loaded
    machine may schedule a writer thread late (review17: either bytes could win)."""
    real = folder_writer._write_file

    def write(path, data):
        if data == b"first":
            time.sleep(0.2)
        real(path, data)

    monkeypatch.setattr(folder_writer, "_write_file", write)
    files = [("a/x.yaml", b"first"), ("a/y.yaml", b"y"), ("a/x.yaml", b"second")]
    folder_writer.replace_folder(tmp_path / "out", files, "test export", {"a"})
    assert listing(tmp_path / "out") == dict(files)
