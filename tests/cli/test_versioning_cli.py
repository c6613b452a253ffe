"""diff, merge and textconv on the command line, and as git's diff and merge drivers in a real repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec

from cli import run_cli
from model.files.design_file import design_to_bytes, load_design, read_design_bytes, save_design

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "small-pod.hall.json"
MAIN = f"{sys.executable} {ROOT / 'main.py'}"


def _write(path, *edits):
    design = load_design(EXAMPLE)
    for edit in edits:
        edit(design)
    save_design(design, path)
    return design


def _move_a09(d):
    d.move_racks({"A09": (7.6, 2.4)})


def _override_l1(d):
    d.update_links([msgspec.structs.replace(d.links["l-1"], length_override_m=12.0)])


def _label(label):
    return lambda d: d.update_links([msgspec.structs.replace(d.links["l-1"], label=label)])


def test_diff_text_and_json(tmp_path, capsys):
    _write(tmp_path / "a.hall.json")
    _write(tmp_path / "b.hall.json", _move_a09)
    assert run_cli(["diff", str(tmp_path / "a.hall.json"), str(tmp_path / "b.hall.json")]) == 0
    out = capsys.readouterr().out
    assert "Racks moved (1): A09" in out and "Links re-routed" in out
    assert (
        run_cli(["diff", "--json", str(tmp_path / "a.hall.json"), str(tmp_path / "b.hall.json")])
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["diff"]["racks_moved"] == ["A09"] and not result["identical"]
    assert set(result["kpis"]) >= {"cost_per_gpu_usd", "bisection_gbps"}


def test_merge_exit_codes_and_conflicts_on_stderr(tmp_path, capsys):
    base, ours, theirs = (tmp_path / f"{n}.hall.json" for n in ("base", "ours", "theirs"))
    _write(base)
    _write(ours, _label("ours"))
    _write(theirs, _label("theirs"), _move_a09)
    assert (
        run_cli(["merge", str(base), str(ours), str(theirs), "-o", str(tmp_path / "m.hall.json")])
        == 1
    )
    err = capsys.readouterr().err
    assert "1 conflict" in err and "links l-1 field label" in err
    merged = load_design(tmp_path / "m.hall.json")
    assert merged.links["l-1"].label == "ours" and merged.racks["A09"].x == 7.6
    (tmp_path / "bad.hall.json").write_text("{not json")
    assert run_cli(["merge", str(base), str(ours), str(tmp_path / "bad.hall.json")]) == 2
    assert "bad.hall.json" in capsys.readouterr().err
    assert ours.read_bytes() == design_to_bytes(read_design_bytes(ours.read_bytes()))  # untouched


def _git(repo, *args):
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo)}
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )


def test_git_merges_two_engineers_edits_through_the_driver_and_diffs_through_textconv(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (
        ("init", "-q", "-b", "main"),
        ("config", "user.email", "a@example.org"),
        ("config", "user.name", "A"),
        ("config", "merge.hallwright.driver", f"{MAIN} merge %O %A %B"),
        ("config", "diff.hallwright.textconv", f"{MAIN} textconv"),
    ):
        assert _git(repo, *args).returncode == 0
    (repo / ".gitattributes").write_text("*.hall.json diff=hallwright merge=hallwright\n")
    design = repo / "hall.hall.json"
    _write(design)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    _git(repo, "checkout", "-qb", "theirs")
    # The same JSON line as the label below: a line merge would conflict, the driver does not.
    _write(design, _move_a09, _override_l1)
    _git(repo, "commit", "-qam", "move A09, override l-1")
    shown = _git(repo, "diff", "main", "--", "hall.hall.json").stdout
    assert "-rack A09 name=A09" in shown and "+rack A09 name=A09" in shown and "x=7.6" in shown
    _git(repo, "checkout", "-q", "main")
    _write(design, _label("rail1"))
    _git(repo, "commit", "-qam", "label l-1")
    merge = _git(repo, "merge", "-q", "--no-edit", "theirs")
    assert merge.returncode == 0, merge.stderr
    assert design.read_bytes() == design_to_bytes(
        _write(tmp_path / "both.hall.json", _label("rail1"), _move_a09, _override_l1)
    )
