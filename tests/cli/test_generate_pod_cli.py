"""``main.py generate nvl72 --pod``: a Vera Rubin POD (NV-VR-POD: 1,152 GPUs) written, loaded
back and analysed without an error; the wrong platform or size is refused with exit 2."""

from __future__ import annotations

import json

from cli import run_cli
from model.files.design_file import load_design


def test_generate_a_vera_rubin_pod(tmp_path, capsys):
    out = tmp_path / "pod.hall.json"
    argv = ["generate", "nvl72", "--platform", "vera-rubin", "--racks", "16", "--pod"]
    assert run_cli([*argv, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1152 GPUs" in printed and "no Groq 3 LPX racks" in printed
    design = load_design(out)
    types = {r.type for r in design.racks.values()}
    assert {"rack-vr-nvl72", "rack-vr-cpu", "rack-vr-stx", "rack-vr-spx"} <= types
    assert run_cli(["analyze", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [w for w in report["warnings"] if w["severity"] == "error"] == []


def test_a_pod_of_the_wrong_platform_or_size_is_refused(tmp_path, capsys):
    out = str(tmp_path / "x.hall.json")
    base = ["generate", "nvl72", "--pod", "-o", out]
    assert run_cli([*base, "--platform", "gb300", "--racks", "16"]) == 2
    assert "--platform vera-rubin" in capsys.readouterr().err
    assert run_cli([*base, "--platform", "vera-rubin", "--racks", "4"]) == 2
    assert "--racks 16" in capsys.readouterr().err
    assert run_cli(["generate", "leaf-spine", "--pod", "-o", out]) == 2
