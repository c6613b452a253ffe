"""Outputs write only regular files they own: a device or FIFO is written through and stays what
it was, a folder or socket is refused, and a killed write leaves litter only until the next
write of the same target, which removes it."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from model.files.design_file import DesignFileError, write_atomic
from model.files.output_file import TEMP_MARK, lock
from model.outputs.writers import ExportError, folder_writer, write_file
from model.outputs.writers.folder_writer import replace_folder

ROOT = Path(__file__).resolve().parents[2]


def null_device(folder: Path) -> Path:
    """A character device 1,3 (what /dev/null is) made in ``folder``: never the real one."""
    path = folder / "null.csv"
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("making a device file needs root")
    return path


def test_a_character_device_is_written_through_and_stays_a_device(tmp_path):
    device = null_device(tmp_path)
    write_atomic(device, b"bytes for nobody")
    write_file(device, iter([b"piece ", b"by piece"]))
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert os.listdir(tmp_path) == ["null.csv"]  # no temporary file, no plain file beside it


def test_a_fifo_streams(tmp_path):
    fifo = tmp_path / "stream.csv"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_file(fifo, iter([b"a,b\r\n", b"1,2\r\n"]))
    reader.join(10)
    assert received == [b"a,b\r\n1,2\r\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["stream.csv"]


def test_a_folder_a_socket_and_links_to_them_are_refused(tmp_path):
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    (tmp_path / "link.csv").symlink_to(folder)
    with pytest.raises(DesignFileError, match="is a folder, not a file name"):
        write_atomic(folder, b"x")
    with pytest.raises(DesignFileError, match="is a folder"):
        write_atomic(tmp_path / "link.csv", b"x")
    with pytest.raises(ExportError, match="is a folder"):
        write_file(folder, b"x")
    sock_path = tmp_path / "s.csv"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(sock_path))
        with pytest.raises(ExportError, match="is a socket"):
            write_file(sock_path, b"x")
        assert stat.S_ISSOCK(os.lstat(sock_path).st_mode)
    assert folder.is_dir() and not list(folder.iterdir())


def test_a_link_to_a_regular_file_writes_its_target(tmp_path):
    target = tmp_path / "real.csv"
    target.write_bytes(b"old")
    (tmp_path / "link.csv").symlink_to(target)
    write_file(tmp_path / "link.csv", b"new")
    assert (tmp_path / "link.csv").is_symlink() and target.read_bytes() == b"new"


def _kill_during_write(target: Path) -> None:
    """A process that starts writing ``target`` and is killed (SIGKILL) half-way."""
    program = (
        "import os, signal, sys; sys.path.insert(0, sys.argv[2])\n"
        "from pathlib import Path\n"
        "from model.files.design_file import write_atomic\n"
        "def pieces():\n"
        "    yield b'half of it'\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "write_atomic(Path(sys.argv[1]), pieces())\n"
    )
    done = subprocess.run([sys.executable, "-c", program, str(target), str(ROOT)], timeout=60)
    assert done.returncode == -9


def test_no_leftover_after_a_killed_save_once_the_next_save_ran(tmp_path):
    target = tmp_path / "d.hall.json"
    target.write_bytes(b"old")
    _kill_during_write(target)
    litter = [n for n in os.listdir(tmp_path) if TEMP_MARK in n]
    assert len(litter) == 1 and target.read_bytes() == b"old"  # the kill left the old file
    write_atomic(target, b"new")
    assert os.listdir(tmp_path) == ["d.hall.json"] and target.read_bytes() == b"new"


def test_a_write_in_progress_is_not_taken_for_litter(tmp_path):
    target = tmp_path / "d.csv"
    live = tmp_path / f".d.csv{TEMP_MARK}abcdefgh.tmp"
    live.write_bytes(b"another writer")
    fd = os.open(live, os.O_RDONLY)
    try:
        lock(fd)  # as the writing process holds it
        write_file(target, b"mine")
        assert live.exists()
    finally:
        os.close(fd)
    write_file(target, b"again")
    assert not live.exists() and target.read_bytes() == b"again"


# Folders ------------------------------------------------------------------------------------

OURS = {"a.csv", "sub"}


def export(folder: Path, version: str) -> list[Path]:
    files = [("a.csv", f"a {version}".encode()), ("sub/b.csv", f"b {version}".encode())]
    return replace_folder(folder, iter(files), "test export", OURS)


def contents(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


NEW = {"a.csv": b"a new", "sub/b.csv": b"b new"}
OLD = {"a.csv": b"a old", "sub/b.csv": b"b old"}


class Killed(BaseException):
    """Stands for SIGKILL at one point of the swap: no ``except OSError`` catches it."""


def test_a_kill_between_the_two_renames_is_repaired_by_the_next_export(tmp_path, monkeypatch):
    folder = tmp_path / "nb"
    export(folder, "old")
    monkeypatch.setattr(folder_writer, "exchange", lambda a, b: False)  # no RENAME_EXCHANGE

    def killed(staging, directory):
        raise Killed

    monkeypatch.setattr(folder_writer, "second_rename", killed)
    with pytest.raises(Killed):
        export(folder, "new")
    aside = [p for p in tmp_path.iterdir() if p.name.endswith(".old")]
    assert not folder.exists() and len(aside) == 1 and contents(aside[0]) == OLD
    monkeypatch.undo()
    export(folder, "new")
    assert contents(folder) == NEW
    assert [p.name for p in tmp_path.iterdir()] == ["nb"]  # the old one put back, then replaced


def test_with_exchange_the_target_is_complete_at_every_step(tmp_path, monkeypatch):
    if folder_writer._EXCHANGE is None:
        pytest.skip("no renameat2 on this system")
    folder = tmp_path / "nb"
    export(folder, "old")
    real_exchange = folder_writer.exchange
    seen = []

    def exchange_then_kill(first, second):
        seen.append(contents(second))  # before: the old export, complete
        assert real_exchange(first, second)
        seen.append(contents(second))  # after: the new one, complete
        raise Killed

    monkeypatch.setattr(folder_writer, "exchange", exchange_then_kill)
    with pytest.raises(Killed):
        export(folder, "new")
    assert seen == [OLD, NEW] and contents(folder) == NEW
    monkeypatch.undo()
    export(folder, "newer")
    assert [p.name for p in tmp_path.iterdir()] == ["nb"]


def test_a_killed_export_leaves_no_litter_after_the_next(tmp_path):
    folder = tmp_path / "nb"
    program = (
        "import os, signal, sys; sys.path.insert(0, sys.argv[2])\n"
        "from pathlib import Path\n"
        "from model.outputs.writers.folder_writer import replace_folder\n"
        "def files():\n"
        "    yield 'a.csv', b'a'\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "replace_folder(Path(sys.argv[1]), files(), 'test export', {'a.csv'})\n"
    )
    done = subprocess.run([sys.executable, "-c", program, str(folder), str(ROOT)], timeout=60)
    assert done.returncode == -9
    assert [p.name.endswith(".new") for p in tmp_path.iterdir()] == [True]
    export(folder, "new")
    assert [p.name for p in tmp_path.iterdir()] == ["nb"] and contents(folder) == NEW


def test_an_export_into_a_folder_link_replaces_the_linked_folder_only(tmp_path):
    real = tmp_path / "real"
    export(real, "old")
    keep = tmp_path / "elsewhere"
    keep.mkdir()
    (keep / "a.csv").write_bytes(b"not ours")
    link = tmp_path / "link"
    link.symlink_to(real)
    export(link, "new")
    assert link.is_symlink() and contents(link) == NEW and contents(real) == NEW
    assert (keep / "a.csv").read_bytes() == b"not ours"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "link", "real"]


def test_an_export_folder_that_is_a_file_is_refused(tmp_path):
    path = tmp_path / "nb"
    path.write_bytes(b"a file")
    with pytest.raises(ExportError, match="not a folder"):
        export(path, "new")
    assert path.read_bytes() == b"a file"


def test_a_name_near_the_file_system_limit_stays_writable(tmp_path):
    target = tmp_path / ("n" * 250 + ".csv")  # 254 characters: the temporary name is cut
    write_file(target, b"old")
    write_file(target, b"new")
    assert os.listdir(tmp_path) == [target.name] and target.read_bytes() == b"new"


def test_many_files_are_all_written_in_the_order_made(tmp_path):
    """The files go to writer threads as they are made: every one lands whole, in its
    sub-folder, and the paths come back in the order the files were made."""
    files = [(f"sub{k % 3}/f{k:03d}.csv", b"%d," % k * (k + 1)) for k in range(60)]
    ours = {"sub0", "sub1", "sub2"}
    paths = replace_folder(tmp_path / "out", iter(files), "test export", ours)
    assert [str(p.relative_to(tmp_path / "out")) for p in paths] == [name for name, _ in files]
    assert contents(tmp_path / "out") == dict(files)


def test_a_failed_file_write_keeps_the_previous_folder_and_leaves_no_staging(tmp_path, monkeypatch):
    """A write failing on a writer thread (a full disk at the 30th file) fails the export
    with a sentence, after the writes under way end: the old folder is whole, nothing else is
    left beside it, and the files made after the failure are not asked for."""
    folder = tmp_path / "out"
    export(folder, "old")
    write_file = folder_writer._write_file
    made = []

    def full_at_30(path: str, data: bytes) -> None:
        if path.endswith("f029.csv"):
            raise OSError(28, "No space left on device")
        write_file(path, data)

    def files():
        for k in range(200):
            made.append(k)
            yield f"sub/f{k:03d}.csv", b"x" * 100

    monkeypatch.setattr(folder_writer, "_write_file", full_at_30)
    with pytest.raises(ExportError, match="No space left on device"):
        replace_folder(folder, files(), "test export", OURS)
    assert contents(folder) == OLD
    assert os.listdir(tmp_path) == ["out"]
    assert len(made) < 200
