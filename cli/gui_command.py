"""Opening the editor from the command line: ``main.py [FILE]``."""

from __future__ import annotations

import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "resources" / "examples" / "small-pod.hall.json"


def open_editor(argv: list[str]) -> int:
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(
            "usage: main.py [FILE] | main.py COMMAND ... (main.py --help lists commands)",
            file=sys.stderr,
        )
        return 2
    from gui.app import run_editor  # Qt is imported only when the editor opens

    return run_editor(Path(argv[0]) if argv else EXAMPLE)
