"""model/ must never import Qt or gui: import every model module with PySide6 blocked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = """
import importlib, pkgutil, sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'gui'):
            raise ImportError(f'model must not import {name}')
        return None

sys.meta_path.insert(0, Block())
import model
names = [m.name for m in pkgutil.walk_packages(model.__path__, 'model.')]
for name in names:
    importlib.import_module(name)
print(len(names))
"""


def test_every_model_module_imports_without_qt():
    result = subprocess.run(
        [sys.executable, "-c", BLOCKER], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 5  # design, entities, catalog, ports, fileio at least


def test_blocker_really_blocks():
    probe = BLOCKER.replace("import model\n", "import PySide6\nimport model\n")
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0 and "must not import PySide6" in result.stderr


def test_plant_findings_do_not_import_the_plant():
    """model.engine.routed_links imports model.engine.link_findings, never the other way (no import cycle)."""
    probe = (
        "import sys, model.engine.link_findings; print('model.engine.routed_links' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
