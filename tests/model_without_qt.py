"""Run the model tests as on a machine without Qt: PySide6, pyqtgraph, pytest-qt and gui/ cannot
be imported (``make test`` runs this before the full suite; arguments go to pytest).

Why a separate run: in the full suite the GUI tests import PySide6 first, so a model module or
model test that imports Qt by mistake would pass there. Here it fails with the name it imported.

With pytest-xdist (``-n``) each worker is a fresh interpreter: this module is then also loaded
there as a plugin (``-p model_without_qt``, found on the sys.path a worker copies from this
process), which puts the blocker in place before pytest loads any other plugin or test module.
"""

from __future__ import annotations

import sys

BLOCKED = ("PySide6", "shiboken6", "pyqtgraph", "pytestqt", "gui")


class QtBlocker:
    """A meta-path finder that refuses the blocked top-level packages."""

    blocks_qt = True  # how a second copy of this module (the plugin) knows it is in place

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"{name} is blocked: the model tests run without Qt")
        return None


def block_qt() -> None:
    """Put the blocker first on sys.meta_path (once), and check nothing blocked came before."""
    if not any(getattr(finder, "blocks_qt", False) for finder in sys.meta_path):
        sys.meta_path.insert(0, QtBlocker())
    loaded = sorted(name for name in sys.modules if name.split(".")[0] in BLOCKED)
    if loaded:
        raise RuntimeError(f"imported before the Qt blocker: {', '.join(loaded)}")


def pytest_addoption(parser) -> None:
    """pytest-qt's ini key in pyproject.toml: declared here, where pytest-qt is blocked, so
    ``--strict-config`` accepts it (it means nothing without Qt)."""
    parser.addini("qt_api", "pytest-qt's Qt binding (pytest-qt is blocked here)")


def main(argv: list[str]) -> int:
    block_qt()
    import pytest

    # pytest-qt is not loaded; this module, loaded as a plugin, blocks Qt in each xdist worker
    # too (see the module's docstring).
    plugins = ["-p", "no:pytest-qt", "-p", "model_without_qt"]
    return int(pytest.main([*plugins, *(argv or ["tests/model"])]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
else:  # loaded as a pytest plugin, in this process or in an xdist worker
    block_qt()
