"""``whatif --n-1 --json`` stays byte for byte what it was before the per-case work became
incremental (masked survivors, see model/analysis/survivor.py): the 4-SU example and a generated
2-SU 2:1 hall. The files in tests/data/whatif_n1 were written by the code before that change
(commit 5f828e2); a deliberate change of a figure rewrites them in its own commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "whatif_n1"


@pytest.mark.parametrize("name", ["superpod-4su", "two-su-2to1"])
def test_n_minus_one_json_is_unchanged(name, tmp_path, capsys):
    if name == "superpod-4su":
        path = ROOT / "resources" / "examples" / "superpod-4su.hall.json"
    else:
        path = tmp_path / "two.hall.json"
        args = ["generate", "rail-optimized", "--nodes", "64", "--node-type", "dgx-h100"]
        args += ["--switch", "qm9700", "--su-nodes", "32", "--oversubscription", "2"]
        assert run_cli([*args, "-o", str(path)]) == 0
        capsys.readouterr()
    assert run_cli(["whatif", str(path), "--n-1", "--json"]) == 0
    assert capsys.readouterr().out == (DATA / f"{name}.json").read_text()
