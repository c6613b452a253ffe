"""sweep: rows equal separate generate + analyze runs, on a local Dask cluster and a process pool."""

from __future__ import annotations

import csv
import json

import pytest

from cli import run_cli
from model.studies.compare import KPI_COLUMNS
from model.studies.sweep import SweepError, parse_vary, variants

BASE = ["rail-optimized", "--node-type", "dgx-h100", "--switch", "qm9700", "--su-nodes", "16"]


# The separate runs' KPIs by (nodes, policy): both sweep tests compare against the same four,
# made once per test process (each is a generate, a save and an analyze command).
_SEPARATE: dict[tuple[int, str], dict] = {}


def _separately(tmp_path, capsys, nodes: int, policy: str) -> dict:
    made = _SEPARATE.get((nodes, policy))
    if made is None:
        made = _SEPARATE[(nodes, policy)] = _run_separately(tmp_path, capsys, nodes, policy)
    return made


def _run_separately(tmp_path, capsys, nodes: int, policy: str) -> dict:
    path = tmp_path / f"v{nodes}-{policy}.hall.json"
    gen = ["generate", *BASE, "--nodes", str(nodes), "-o", str(path)]
    assert run_cli(gen) == 0
    from model.files.design_file import load_design, save_design

    design = load_design(path)
    design.set_settings(design.settings.__class__(media_policy=policy))
    save_design(design, path)
    capsys.readouterr()
    assert run_cli(["analyze", str(path), "--json"]) == 0
    from model.studies.compare import kpis

    return kpis(json.loads(capsys.readouterr().out))


def _rows(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _check(rows, tmp_path, capsys):
    assert [(r["nodes"], r["policy"]) for r in rows] == [
        ("16", "lowest-cost"),
        ("16", "fibre-only"),
        ("32", "lowest-cost"),
        ("32", "fibre-only"),
    ]
    for row in rows:
        expected = _separately(tmp_path, capsys, int(row["nodes"]), row["policy"])
        for column in KPI_COLUMNS:
            if isinstance(expected[column], str):  # a word column: the bisection method
                assert row[column] == expected[column] and row[column], column
                continue
            assert float(row[column]) == pytest.approx(expected[column], rel=1e-9), column
        assert row["error"] == ""


def test_sweep_on_a_local_dask_cluster_matches_separate_runs(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "sweep.csv"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        argv = ["sweep", *BASE, "--vary", "nodes=16,32", "--vary", "policy=lowest-cost,fibre-only"]
        assert run_cli([*argv, "-o", str(out), "--cluster", cluster.scheduler_address]) == 0
    assert "4 variants" in capsys.readouterr().out
    _check(_rows(out), tmp_path, capsys)


def test_sweep_on_the_local_process_pool_and_a_refused_variant(tmp_path, capsys):
    out = tmp_path / "sweep.csv"
    argv = ["sweep", *BASE, "--vary", "nodes=16,32", "--vary", "policy=lowest-cost,fibre-only"]
    assert run_cli([*argv, "-o", str(out), "--workers", "2"]) == 0
    _check(_rows(out), tmp_path, capsys)
    # 2:1 on 64 ports is allowed (42 down / 21 up + a spare); 64:1 leaves no uplink.
    argv = ["sweep", *BASE, "--nodes", "16", "--vary", "oversubscription=1,64", "-o", str(out)]
    assert run_cli(argv) == 0
    rows = _rows(out)
    assert rows[0]["error"] == "" and "oversubscription" in rows[1]["error"]


def test_bad_vary_is_refused(tmp_path, capsys):
    out = tmp_path / "x.csv"
    assert run_cli(["sweep", *BASE, "--vary", "colour=red", "-o", str(out)]) == 2
    assert "colour" in capsys.readouterr().err
    assert run_cli(["sweep", *BASE, "--vary", "nodes=a", "-o", str(out)]) == 2
    assert run_cli(["sweep", *BASE, "-o", str(out)]) == 2
    assert not out.exists()
    with pytest.raises(SweepError):
        parse_vary(["nodes=1", "nodes=2"])
    assert len(variants({}, parse_vary(["k=4,6", "policy=a,b,c"]))) == 6


def test_a_cluster_that_does_not_answer_is_a_clear_refusal(tmp_path, capsys):
    import socket

    with socket.socket() as s:  # a free local port with nothing listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "x.csv"
    argv = ["sweep", *BASE, "--vary", "nodes=16", "-o", str(out)]
    assert run_cli([*argv, "--cluster", f"tcp://127.0.0.1:{port}"]) == 2
    assert "no Dask scheduler answers" in capsys.readouterr().err
    assert not out.exists()
