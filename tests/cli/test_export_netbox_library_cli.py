"""export-netbox --types library / --types-from on the command line: files, report, refusals."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli import run_cli
from model.files.design_file import save_design

LIBRARY_QM9700 = Path(__file__).resolve().parents[1] / "data/devicetype_library_nvidia/QM9700.yaml"


@pytest.fixture
def design_file(tmp_path, pod):
    path = tmp_path / "pod.hall.json"
    save_design(pod, path)
    return path


def test_library_types_are_written_and_held_ones_left_out(tmp_path, design_file, capsys):
    out = tmp_path / "nb"
    assert run_cli(["export-netbox", str(design_file), "-o", str(out), "--types", "library"]) == 0
    types = sorted(p.name for p in (out / "shared/03_device_types").iterdir())
    assert types == ["nvidia-dgx-h100-nic-infiniband.yaml", "nvidia-qm9700.yaml"]
    assert "devicetype-library" in capsys.readouterr().out
    library = tmp_path / "library" / "device-types" / "Nvidia"
    library.mkdir(parents=True)
    shutil.copy(LIBRARY_QM9700, library)
    held = tmp_path / "nb-held"
    argv = ["export-netbox", str(design_file), "-o", str(held), "--types-from", str(library)]
    assert run_cli(argv) == 0
    types = sorted(p.name for p in (held / "shared/03_device_types").iterdir())
    assert types == ["nvidia-dgx-h100-nic-infiniband.yaml"]
    printed = capsys.readouterr().out
    assert "1 left out" in printed
    assert "left out" in (held / "README.txt").read_text()


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--types", "hallwright", "--types-from", "{tmp}"], "use it with --types library"),
        (["--types-from", "{tmp}/missing"], "no such folder"),
        (["--types", "netbox"], "invalid choice"),
    ],
)
def test_bad_type_options_exit_2_with_a_sentence(tmp_path, design_file, capsys, extra, message):
    argv = ["export-netbox", str(design_file), "-o", str(tmp_path / "nb")]
    argv += [a.format(tmp=tmp_path) for a in extra]
    try:
        code = run_cli(argv)
    except SystemExit as exc:  # argparse's own refusals exit from the parser
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "nb").exists()
