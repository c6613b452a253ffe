"""Hallwright: open the editor (default) or run a headless command.

    python main.py [FILE]                 open the editor (the bundled example when no FILE)
    python main.py validate FILE          check a design file and print a one-line summary
    python main.py COMMAND --help         help for any other command

Exit codes: 0 success, 1 the command found error-level problems (where documented), 2 bad input.
"""

from __future__ import annotations

import sys

from cli import run_cli


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return run_cli(argv)


if __name__ == "__main__":
    from cli.process_exit import leave_to_exit, own_process

    own_process()  # this process ends with the command: its design is left to the exit
    code = main()
    leave_to_exit()
    sys.exit(code)
