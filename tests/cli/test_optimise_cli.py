"""``main.py optimise``: writes the optimised design to a new file (input untouched), exit 0;
bad weights or counts: one sentence, exit 2. One test runs main.py in a process of its own (the
command's exit code and streams as a shell sees them); the others call the same entry point in
this process (``run_cli``, what main.py runs), ~0.5 s of CPU less each for the interpreter and
imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cli import run_cli
from model.files.design_file import load_design, save_design
from model.generators.generate import generate
from model.optimise.moves import network_racks

ROOT = Path(__file__).resolve().parents[2]


def _main(*args):
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def _run(capsys, *args) -> subprocess.CompletedProcess:
    """``main.py *args`` in this process: its exit code, stdout and stderr."""
    try:
        code = run_cli([*map(str, args)])
    except SystemExit as exc:  # argparse refuses an option so
        code = exc.code if isinstance(exc.code, int) else 2
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out.out, out.err)


def _far_pod(tmp_path: Path) -> Path:
    design = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch="qm9700")
    design.move_racks({network_racks(design)[0]: (5.1, 6.6)})
    path = tmp_path / "far.hall.json"
    save_design(design, path)
    return path


def test_optimise_writes_the_file_and_exits_0(tmp_path):
    src = _far_pod(tmp_path)
    before = src.read_bytes()
    out = tmp_path / "best.hall.json"
    done = _main(
        "optimise", src, "-o", out, "--iterations", 80, "--seed", 2, "--workers", 1, "--json"
    )
    assert done.returncode == 0, done.stderr
    assert src.read_bytes() == before
    report = json.loads(done.stdout)
    assert report["changed"] and report["moved"]
    optimised = load_design(out)
    leaf = network_racks(optimised)[0]
    assert (optimised.racks[leaf].x, optimised.racks[leaf].y) != (5.1, 6.6)


def test_optimise_refuses_bad_weights_with_exit_2(tmp_path, capsys):
    src = _far_pod(tmp_path)
    out = tmp_path / "best.hall.json"
    done = _run(capsys, "optimise", src, "-o", out, "--weights", "cost=-3")
    assert done.returncode == 2
    assert "weight cost" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()
    done = _run(capsys, "optimise", src, "-o", out, "--iterations", 0)
    assert done.returncode == 2 and "--iterations" in done.stderr


def test_optimize_spelling_writes_the_pareto_front_and_explains_each_move(tmp_path, capsys):
    src = _far_pod(tmp_path)
    out, front = tmp_path / "best.hall.json", tmp_path / "front"
    done = _run(
        capsys,
        "optimize",
        src,
        "-o",
        out,
        "--objective",
        "cost",
        "--iterations",
        80,
        "--seed",
        2,
        "--workers",
        1,
        "--front",
        front,
        "--json",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["why"] and all(w["sentence"].endswith(").") for w in report["why"])
    listed = json.loads((front / "front.json").read_text())
    assert listed == report["front"]
    for row in listed:
        if "file" in row:  # each optimised point is a design the loader opens
            load_design(front / row["file"])


def test_optimise_refuses_an_unknown_tier_and_a_front_that_is_a_file(tmp_path, capsys):
    src = _far_pod(tmp_path)
    out = tmp_path / "best.hall.json"
    done = _run(capsys, "optimise", src, "-o", out, "--move", "leaf,gpu-server")
    assert done.returncode == 2 and "--move" in done.stderr and "Traceback" not in done.stderr
    blocker = tmp_path / "front"
    blocker.write_text("mine")
    done = _run(
        capsys, "optimise", src, "-o", out, "--iterations", 5, "--workers", 1, "--front", blocker
    )
    assert done.returncode == 2 and "not a folder" in done.stderr
    assert blocker.read_text() == "mine"


def test_vary_optics_writes_the_chosen_strategy_and_says_why(tmp_path, capsys):
    design = generate("leaf-spine", nodes=4, node_type="dgx-b300", switch="q3400")
    src = tmp_path / "xdr.hall.json"
    save_design(design, src)
    out = tmp_path / "best.hall.json"
    done = _run(
        capsys, "optimise", src, "-o", out, "--objective", "power", "--iterations", 10, "--workers", 1,
        "--vary-optics",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Leaf tier pluggable -> co-packaged" in done.stdout
    assert "linear skipped: no linear (LPO) module" in done.stdout
    optimised = load_design(out)
    assert optimised.settings.optics_strategy["leaf"] == "co-packaged"
    assert {d.type for d in optimised.devices.values() if d.role == "leaf"} == {"q3450-ld"}


def test_move_servers_places_each_su_server_and_says_where(tmp_path, capsys):
    from tests.model.test_optimise_servers import _two_rack_su

    design, home = _two_rack_su()
    src = tmp_path / "su.hall.json"
    save_design(design, src)
    out = tmp_path / "best.hall.json"
    done = _run(capsys, "optimize", src, "-o", out, "--move", "servers", "--workers", 1)
    assert done.returncode == 0, done.stderr
    assert "placed anew within their SU" in done.stdout
    optimised = load_design(out)
    assert {s: optimised.devices[s].rack for s in home} == home
    done = _run(capsys, "optimize", src, "-o", out, "--move", "server")
    assert done.returncode == 2 and "servers" in done.stderr and "Traceback" not in done.stderr


def test_a_time_budget_alone_is_not_cut_short_by_the_default_move_count(
    tmp_path, capsys, monkeypatch
):
    """`--seconds 60` means "search for a minute": the 300 moves of the default count would end
    an XL run after ~18 s. Without a budget the default count holds; a count given holds too."""
    from cli import optimise_command
    from model.optimise import optimise as optimise_module

    asked = []
    real = optimise_module.optimise

    def counted(design, weights, **kwargs):
        asked.append((kwargs["iterations"], kwargs["seconds"]))
        return real(design, weights, **{**kwargs, "iterations": 3})

    monkeypatch.setattr(optimise_module, "optimise", counted)  # the command imports it late
    src, out = _far_pod(tmp_path), tmp_path / "best.hall.json"
    for extra in ([], ["--seconds", 30], ["--seconds", 30, "--iterations", 40]):
        done = _run(capsys, "optimise", src, "-o", out, "--workers", 1, *extra)
        assert done.returncode == 0, done.stderr
    assert asked == [
        (optimise_command.DEFAULT_ITERATIONS, None),
        (optimise_command.UNBOUNDED_ITERATIONS, 30.0),
        (40, 30.0),
    ]
