"""`make setup`'s environment (.ci/venv): installed once per set of dependencies into the cache
and linked from each checkout; a change of dependencies makes a second one; a folder of its own
or a link elsewhere is installed into as before. Run with a stand-in interpreter whose
``-m venv`` and ``-m pip`` only record that they ran (no real install)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "venv"

# Passes -c and -VV to the real interpreter; "-m venv DIR" makes DIR/bin/python (itself) and
# "-m pip install" appends a line to $INSTALLS: what the script asked for, without installing.
STAND_IN = f"""#!/bin/sh
case "$1 $2" in
"-m venv") mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0 ;;
"-m pip") echo "$0" >>"$INSTALLS" && exit 0 ;;
esac
exec {sys.executable} "$@"
"""

PYPROJECT = """[project]
name = "x"
dependencies = [{deps}]
[project.optional-dependencies]
dev = ["pytest"]
"""


def _checkout(tmp: Path, name: str, deps: str = '"numpy"') -> Path:
    folder = tmp / name
    folder.mkdir()
    (folder / "pyproject.toml").write_text(PYPROJECT.format(deps=deps))
    return folder


def _setup(checkout: Path, python: Path, cache: Path | str, installs: Path) -> None:
    subprocess.run(
        [SCRIPT, ".venv", python, str(cache)],
        cwd=checkout,
        check=True,
        env={**os.environ, "INSTALLS": str(installs)},
        capture_output=True,
    )


def _stand_in(tmp: Path) -> Path:
    python = tmp / "python"
    python.write_text(STAND_IN)
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return python


def test_checkouts_with_the_same_dependencies_share_one_install(tmp_path):
    python, cache, installs = _stand_in(tmp_path), tmp_path / "cache", tmp_path / "installs"
    first, second = _checkout(tmp_path, "a"), _checkout(tmp_path, "b")
    _setup(first, python, cache, installs)
    _setup(second, python, cache, installs)
    assert len(installs.read_text().splitlines()) == 1  # pip ran once, for both
    kept = os.readlink(first / ".venv")
    assert kept == os.readlink(second / ".venv") and kept.startswith(str(cache))
    assert (first / ".venv" / ".installed").exists()
    assert "numpy" in (first / ".venv" / "requirements.txt").read_text()
    # New dependencies: an environment of their own, the first one untouched.
    third = _checkout(tmp_path, "c", deps='"numpy", "shapely"')
    _setup(third, python, cache, installs)
    assert len(installs.read_text().splitlines()) == 2
    assert os.readlink(third / ".venv") != kept and Path(kept, ".installed").exists()


def test_a_stopped_install_is_made_again(tmp_path):
    python, cache, installs = _stand_in(tmp_path), tmp_path / "cache", tmp_path / "installs"
    first = _checkout(tmp_path, "a")
    _setup(first, python, cache, installs)
    kept = Path(os.readlink(first / ".venv"))
    (kept / ".installed").unlink()  # as if pip had been stopped half way
    (first / ".venv").unlink()
    _setup(first, python, cache, installs)
    assert len(installs.read_text().splitlines()) == 2 and (kept / ".installed").exists()


def test_a_venv_of_its_own_or_no_cache_is_installed_into_in_place(tmp_path):
    python, installs = _stand_in(tmp_path), tmp_path / "installs"
    own = _checkout(tmp_path, "own")
    (own / ".venv").mkdir()  # a folder, not a link: kept as it is
    _setup(own, python, tmp_path / "cache", installs)
    uncached = _checkout(tmp_path, "uncached")
    _setup(uncached, python, "", installs)
    for checkout in (own, uncached):
        assert not (checkout / ".venv").is_symlink()
        assert (checkout / ".venv" / ".installed").exists()
    assert not (tmp_path / "cache").exists()
    assert len(installs.read_text().splitlines()) == 2
