"""The small zoned hall several structured tests read from a file: a k=4 fat tree of QM9700
generated with ``--cabling zones`` through the command line, as a user would make it."""

from __future__ import annotations

from pathlib import Path

from cli import run_cli


def zoned_fat_tree_file(tmp_path_factory) -> Path:
    """Generate it into a fresh folder of ``tmp_path_factory``; its path."""
    path = tmp_path_factory.mktemp("zoned") / "ft4z.hall.json"
    args = ["generate", "fat-tree", "--k", "4", "--switch", "qm9700", "--cabling", "zones"]
    assert run_cli([*args, "-o", str(path)]) == 0
    return path
