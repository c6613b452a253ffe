"""A non-editable install of the project carries its catalog and examples (package data): the
installed ``main.py validate`` accepts the bundled example, run away from the checkout.

The temporary venv borrows the test environment's packages through a ``.pth`` file (numpy,
msgspec, setuptools...), so the install needs no network (``--no-deps --no-build-isolation``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("pyproject.toml", "README.md", "main.py", "model", "gui", "cli", "resources")


def _run(args: list, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(python of a fresh venv with the project installed, its site-packages)."""
    base = tmp_path_factory.mktemp("install")
    source = base / "source"  # a copy: building in the checkout would leave build/ behind
    source.mkdir()
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], base)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = Path(
        _run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], base
        ).stdout.strip()
    )
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "borrowed.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet"]
    # --no-compile: the two interpreters below import a fraction of the ~450 modules pip would
    # byte-compile for them (what is checked is the package's files, not its bytecode).
    done = _run(
        [*pip, "--no-deps", "--no-build-isolation", "--no-index", "--no-compile", source], base
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return python, site


def test_the_installed_package_holds_the_catalog_and_validates_the_bundled_example(
    installed, tmp_path
):
    python, site = installed
    assert (site / "resources" / "catalog" / "sources.json").is_file()
    example = site / "resources" / "examples" / "small-pod.hall.json"
    assert example.is_file()
    where = _run([python, "-c", "import model; print(model.__file__)"], tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr
    result = _run([python, "-m", "main", "validate", example], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid" in result.stdout and "GPUs" in result.stdout
