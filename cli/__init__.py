"""Command-line entry: dispatches to one module per subcommand, or opens the editor.

Each subcommand module defines ``add_parser(subparsers)`` and ``run(args) -> int``. Bad input of
any kind ends with exit code 2 and one sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Subcommand name -> module in this package. Each issue adds its command here.
COMMANDS = {
    "validate": "cli.validate_command",
    "bom": "cli.bom_command",
    "schedule": "cli.schedule_command",
    "export-netbox": "cli.export_netbox_command",
    "generate": "cli.generate_command",
    "routes": "cli.routes_command",
    "analyze": "cli.analyze_command",
    "render": "cli.render_command",
    "export-p2p": "cli.export_p2p_command",
    "check-cabling": "cli.check_cabling_command",
    "as-built": "cli.as_built_command",
    "import-netbox": "cli.import_netbox_command",
    "whatif": "cli.whatif_command",
    "compare": "cli.compare_command",
    "sweep": "cli.sweep_command",
    "collective": "cli.collective_command",
    "allreduce": "cli.collective_command",  # the old name: an all-reduce by default
    "catalog": "cli.catalog_command",
    "optimise": "cli.optimise_command",
    "diff": "cli.diff_command",
    "merge": "cli.merge_command",
    "textconv": "cli.textconv_command",
    "export-topology": "cli.export_topology_command",
    "optimize": "cli.optimise_command",  # the (and US) spelling
    "push-netbox": "cli.push_netbox_command",
}


class CliError(Exception):
    """Bad input from the user: printed as one sentence, exit code 2."""


def load_or_refuse(path):
    """The design at ``path``; a file problem becomes a CliError (exit 2, one sentence).

    In ``main.py``'s own process the design is kept until the process exits
    (:mod:`cli.process_exit`): no command reads a design after it returns, and freeing one
    object at a time only delays the exit."""
    from cli.process_exit import keep_until_exit
    from model.files.design_file import DesignFileError, load_design

    try:
        design = load_design(path)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    keep_until_exit(design)
    return design


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own errors also exit 2, but say more
        self.print_usage(sys.stderr)
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of the one named ``only`` (what a run of that command
    parses with: importing every command module first cost 0.2-1.1 s of each run at start)."""
    parser = _Parser(prog="hallwright", description="Design the interconnect of an AI data hall.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module_name in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module_name).add_parser(sub, name)
    return parser


def _unknown_command(word: str) -> bool:
    """A first argument that names no command and no existing file (a mistyped command):
    opening the editor on it would wait for a window nobody sees when headless. A name ending
    in the design extension is a new design for the editor."""
    from pathlib import Path

    if word in COMMANDS or word.startswith("-") or word.endswith(".hall.json"):
        return False
    return not Path(word).exists()


def run_cli(argv: list[str]) -> int:
    if argv[:1] in (["--version"], ["-V"]):
        from model.runtime.version import version

        print(f"hallwright {version()}")
        return 0
    if argv and _unknown_command(argv[0]):
        print(
            f"hallwright: {argv[0]!r} is neither a command nor a file; the commands are: "
            + ", ".join(COMMANDS),
            file=sys.stderr,
        )
        return 2
    if not argv or argv[0] not in COMMANDS and argv[0] not in ("-h", "--help"):
        from cli.gui_command import open_editor

        return open_editor(argv)
    args = build_parser(argv[0] if argv[0] in COMMANDS else None).parse_args(argv)
    from cli.process_exit import is_own_process

    if is_own_process():
        from model.runtime.heap_reuse import reuse_freed_heap

        reuse_freed_heap()  # the command's freed arrays reused, not faulted in again
    module = importlib.import_module(COMMANDS[args.command])
    try:
        return module.run(args)
    except CliError as exc:
        print(f"hallwright {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        sys.stderr.close()
        return 0
