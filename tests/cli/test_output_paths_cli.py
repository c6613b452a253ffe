"""``-o`` of the export commands: devices and FIFOs written through, ``-`` to standard output,
folders and the design itself refused before any work; an unknown command exits 2."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from cli import COMMANDS, run_cli
from model.files.design_file import save_design


@pytest.fixture
def design_file(tmp_path, pod):
    path = tmp_path / "pod.hall.json"
    save_design(pod, path)
    return path


def test_schedule_to_a_character_device_keeps_the_device(tmp_path, design_file, capsys):
    device = tmp_path / "x.csv"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a null device of our own
    except PermissionError:
        pytest.skip("making a device file needs root")
    assert run_cli(["schedule", str(design_file), "-o", str(device)]) == 0
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["pod.hall.json", "x.csv"]
    # a device without the extension takes the command's first format
    plain = tmp_path / "null"
    os.mknod(plain, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert run_cli(["bom", str(design_file), "-o", str(plain)]) == 0
    assert stat.S_ISCHR(os.lstat(plain).st_mode)


def test_schedule_into_a_fifo_streams_the_same_bytes(tmp_path, design_file):
    assert run_cli(["schedule", str(design_file), "-o", str(tmp_path / "file.csv")]) == 0
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    assert run_cli(["schedule", str(design_file), "-o", str(fifo)]) == 0
    reader.join(30)
    assert received == [(tmp_path / "file.csv").read_bytes()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_dash_writes_standard_output(tmp_path, design_file, capsysbinary):
    assert run_cli(["schedule", str(design_file), "-o", str(tmp_path / "file.csv")]) == 0
    capsysbinary.readouterr()
    assert run_cli(["schedule", str(design_file), "-o", "-"]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == (tmp_path / "file.csv").read_bytes()
    assert b"cables" in captured.err  # the closing line is not mixed into the CSV


@pytest.mark.parametrize("command", ["schedule", "bom", "export-p2p"])
def test_a_folder_is_refused_before_any_work(tmp_path, design_file, capsys, command):
    folder = tmp_path / "out.csv"
    folder.mkdir()
    assert run_cli([command, str(design_file), "-o", str(folder)]) == 2
    assert "is a folder, not a file name" in capsys.readouterr().err
    assert folder.is_dir() and not list(folder.iterdir())


def test_the_design_itself_is_never_the_output(tmp_path, design_file, capsys):
    design = tmp_path / "d.csv"  # a design file whose name is a valid output name
    design.write_bytes(design_file.read_bytes())
    (tmp_path / "link.csv").symlink_to(design)
    before = design.read_bytes()
    for out in (design, tmp_path / "link.csv"):
        assert run_cli(["bom", str(design), "-o", str(out)]) == 2
        assert "it is the input" in capsys.readouterr().err
    assert run_cli(["schedule", str(tmp_path / "link.csv"), "-o", str(design)]) == 2
    assert design.read_bytes() == before and (tmp_path / "link.csv").is_symlink()


def test_export_netbox_into_a_folder_link_keeps_the_link_and_its_files(tmp_path, design_file):
    real = tmp_path / "real"
    assert run_cli(["export-netbox", str(design_file), "-o", str(real)]) == 0
    first = sorted(p.relative_to(real) for p in real.rglob("*"))
    link = tmp_path / "nb"
    link.symlink_to(real)
    assert run_cli(["export-netbox", str(design_file), "-o", str(link)]) == 0
    assert link.is_symlink()
    assert sorted(p.relative_to(real) for p in real.rglob("*")) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nb", "pod.hall.json", "real"]


def test_an_unknown_command_exits_2_with_the_list(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert "'frobnicate' is neither a command nor a file" in err
    assert all(name in err for name in COMMANDS)
