"""A headless command's design is left to ``main.py``'s exit, and only there (cli/process_exit)."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

from cli import process_exit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "small-pod.hall.json"


class _Held:  # stands for a design: any object a weak reference can watch
    pass


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def _as_main_py(argv: list[str], then: str) -> subprocess.CompletedProcess:
    """Run ``main.py argv`` through its ``__main__`` block in a fresh interpreter, then the
    Python ``then`` (which sees the command's exit code as ``code``)."""
    return _run(
        "import gc, runpy, sys\n"
        f"sys.argv = ['main.py', *{argv!r}]\n"
        "try:\n"
        "    runpy.run_path('main.py', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "from cli import process_exit\n" + then
    )


def test_in_a_process_not_main_py_s_nothing_is_kept():
    """pytest runs commands in process: the design is freed as the command returns."""
    held = _Held()
    gone = weakref.ref(held)
    process_exit.keep_until_exit(held)
    process_exit.leave_to_exit()
    del held
    gc.collect()
    assert gone() is None
    assert process_exit._kept == []


def test_main_py_keeps_the_design_it_loaded_and_freezes_it_after_the_command():
    """Run as ``main.py validate FILE`` (its ``__main__`` block), the loaded design is kept, and
    after the command it is held by a frozen cycle: a full collection does not free it."""
    done = _as_main_py(
        ["validate", str(EXAMPLE)],
        "kept = process_exit._kept\n"
        "gc.collect()\n"
        "print(code, [type(k).__name__ for k in kept], kept[-1] is kept, gc.get_freeze_count() > 0)\n",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0 ['Design', 'list'] True True"


def test_main_py_s_exports_keep_the_routed_plant_too(tmp_path):
    """``schedule`` loads and routes: both the design and its plant are kept."""
    out = tmp_path / "s.csv"
    done = _as_main_py(
        ["schedule", str(EXAMPLE), "-o", str(out)],
        "print(code, sorted(type(k).__name__ for k in process_exit._kept[:-1]))\n",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0 ['Design', 'RoutedLinks']"
    assert out.read_text().count("\n") > 1


def test_a_child_forked_from_main_py_s_process_keeps_nothing():
    """A worker forked from the command's process may load many designs: it frees each."""
    done = _run(
        "import gc, os, weakref\n"
        "from cli import process_exit\n"
        "class Held: pass\n"
        "process_exit.own_process()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    held = Held(); gone = weakref.ref(held)\n"
        "    process_exit.keep_until_exit(held); del held; gc.collect()\n"
        "    os._exit(0 if gone() is None else 3)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "held = Held(); gone = weakref.ref(held)\n"
        "process_exit.keep_until_exit(held); del held; gc.collect()\n"
        "print(os.waitstatus_to_exitcode(status), gone() is not None)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "True"]


def test_main_py_exits_with_the_command_s_code_and_output():
    """Leaving the design to the exit changes nothing a user sees: bad input still exits 2."""
    good = subprocess.run(
        [sys.executable, "main.py", "validate", str(EXAMPLE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert good.returncode == 0 and good.stdout.strip() and good.stderr == ""
    bad = subprocess.run(
        [sys.executable, "main.py", "validate", str(ROOT / "no-such.hall.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "no-such.hall.json" in bad.stderr


def test_main_py_s_one_shot_commands_run_no_automatic_collection(tmp_path):
    """``schedule``, ``bom`` and ``analyze``, run as ``main.py``: no collection from the load
    to the exit (one over an export's leftovers cost 0.12-0.19 s at XL), the collector off."""
    for argv in (
        ["schedule", str(EXAMPLE), "-o", str(tmp_path / "s.csv")],
        ["bom", str(EXAMPLE), "-o", str(tmp_path / "b.xlsx")],
        ["analyze", str(EXAMPLE)],
    ):
        done = _run(_track_collections(argv))
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == "0 False 0", (argv, done.stdout)


def _track_collections(argv: list[str]) -> str:
    """Code that runs ``main.py argv`` and prints its exit code, whether the collector is on,
    and how many collections ran once the command had started loading its design."""
    return (
        "import gc, runpy, sys\n"
        "import model.files.design_file as fileio\n"
        "started, runs = [], []\n"
        "load = fileio.load_design\n"
        "def watched(*args, **kwargs):\n"
        "    started.append(True)\n"
        "    return load(*args, **kwargs)\n"
        "fileio.load_design = watched\n"
        "gc.callbacks.append(lambda phase, info: runs.append(1) "
        "if phase == 'start' and started else None)\n"
        "gc.set_threshold(10)  # a collection every few allocations, wherever one may run\n"
        f"sys.argv = ['main.py', *{argv!r}]\n"
        "try:\n"
        "    runpy.run_path('main.py', run_name='__main__')\n"
        "    code = 0\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print(code, gc.isenabled(), len(runs))\n"
    )


def test_a_command_run_in_process_gives_the_collector_back(tmp_path):
    """Outside ``main.py``'s process (pytest, the editor) the one-shot switch does nothing."""
    from cli import run_cli

    was = gc.isenabled()  # the editor's tests, earlier in this process, may have turned it off
    gc.enable()
    try:
        assert run_cli(["schedule", str(EXAMPLE), "-o", str(tmp_path / "s.csv")]) == 0
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
