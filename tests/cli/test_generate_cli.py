"""``main.py generate``: writes a valid design and a one-line summary; refuses with exit 2."""

from __future__ import annotations

from cli import run_cli
from model.files.design_file import load_design


def test_generate_superpod_then_validate(tmp_path, capsys):
    out = tmp_path / "pod.hall.json"
    code = run_cli(
        [
            "generate",
            "rail-optimized",
            "--nodes",
            "128",
            "--node-type",
            "dgx-h100",
            "--switch",
            "qm9700",
            "--su-nodes",
            "32",
            "-o",
            str(out),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    assert printed.count("\n") == 1
    assert "128 nodes, 1024 GPUs" in printed and "32 leaf, 16 spine" in printed
    assert run_cli(["validate", str(out)]) == 0
    assert "2048 links" in capsys.readouterr().out
    assert len(load_design(out).links) == 2048


def test_every_template_from_the_command_line(tmp_path, capsys):
    for argv in (
        [
            "leaf-spine",
            "--nodes",
            "12",
            "--node-type",
            "hgx-h100-8x400",
            "--switch",
            "sn5600",
            "--oversubscription",
            "3",
        ],
        ["fat-tree", "--k", "4"],
        ["nvl72", "--racks", "2", "--placement", "end-of-row"],
        [
            "rail-optimized",
            "--nodes",
            "64",
            "--node-type",
            "dgx-h100",
            "--switch",
            "qm9700",
            "--su-nodes",
            "32",
            "--tiers",
            "3",
            "--reserve-ports",
            "0",
        ],
    ):
        out = tmp_path / f"{argv[0]}.hall.json"
        assert run_cli(["generate", *argv, "-o", str(out)]) == 0, argv
        assert out.exists()
    capsys.readouterr()


def test_impossible_request_exits_2_with_the_sentence(tmp_path, capsys):
    out = tmp_path / "x.hall.json"
    code = run_cli(
        [
            "generate",
            "rail-optimized",
            "--nodes",
            "64",
            "--node-type",
            "dgx-h100",
            "--switch",
            "qm9700",
            "--su-nodes",
            "32",
            "--oversubscription",
            "64",
            "-o",
            str(out),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "leaves no uplink on a 64-port" in err and "Traceback" not in err
    assert not out.exists()


def test_missing_and_foreign_options_exit_2(tmp_path, capsys):
    out = str(tmp_path / "x.hall.json")
    assert run_cli(["generate", "rail-optimized", "--nodes", "8", "-o", out]) == 2
    assert "needs --node-type, --switch, --su-nodes" in capsys.readouterr().err
    assert run_cli(["generate", "fat-tree", "--k", "4", "--nodes", "3", "-o", out]) == 2
    assert "does not take --nodes" in capsys.readouterr().err


def test_one_command_builds_the_4_su_superpod_with_every_network(tmp_path, capsys):
    # Issue 14 "done when": one command, all four networks placed in the hall; the BOM lists
    # each network's switches, cables and transceivers under its own fabric.
    import csv
    import json

    out = tmp_path / "superpod.hall.json"
    argv = ["generate", "rail-optimized", "--nodes", "127", "--node-type", "dgx-h100"]
    argv += ["--switch", "qm9700", "--su-nodes", "32", "--fabrics", "all", "-o", str(out)]
    assert run_cli(argv) == 0
    capsys.readouterr()
    design = load_design(out)
    assert all(d.rack in design.racks for d in design.devices.values())
    assert run_cli(["analyze", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["fabrics"]) == {"compute", "storage", "inband", "oob"}
    assert report["fabrics"]["compute"]["planes"] == 1
    bom = tmp_path / "bom.csv"
    assert run_cli(["bom", str(out), "-o", str(bom)]) == 0
    with bom.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    per: dict[str, set[str]] = {}
    for row in rows:
        for fabric in ("compute", "storage", "inband", "oob"):
            if row[f"qty_{fabric}"] not in ("", "0"):
                per.setdefault(fabric, set()).add(row["category"])
    for fabric in ("compute", "storage", "inband"):
        assert {"Switches", "Modules"} <= per[fabric], fabric
        assert per[fabric] & {"Cables", "Fibres"}, fabric
    assert {"Switches", "Cables"} <= per["oob"]


def test_generate_and_analyze_show_progress_on_a_terminal_and_clear_it(
    tmp_path, capsys, monkeypatch
):
    import io
    import sys

    import cli.progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(cli.progress, "AFTER_S", 0.0)  # as if every step took over a second
    out = tmp_path / "fabric.hall.json"
    for argv, steps in (
        (["generate", "fat-tree", "--k", "4", "-o", str(out)], ("generated", "cabling placed")),
        (["analyze", str(out)], ("loaded", "routed")),
    ):
        terminal = Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        assert run_cli(argv) == 0
        shown = terminal.getvalue()
        for step in steps:
            assert f"\r\x1b[K{argv[0]}: {step} (" in shown
        assert shown.endswith("\r\x1b[K")  # the line is cleared before the output
        assert capsys.readouterr().out  # the command's own output is on stdout, as before
