"""``main.py textconv FILE``: a design as one line per object, for git's diff driver (diff.hallwright.textconv)."""

from __future__ import annotations

import argparse

from cli import load_or_refuse


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="a design as one text line per object (git diff driver: textconv)",
        description="Print the design as text, one line per setting, tray, rack, device and link "
        "(with its routed length and medium), in a stable order, for git's diff driver: "
        "diff.hallwright.textconv = 'python main.py textconv'.",
    )
    parser.add_argument("file", help="a .hall.json design")
    parser.add_argument(
        "--no-route", action="store_true", help="leave out lengths and media (faster)"
    )


def run(args: argparse.Namespace) -> int:
    from cli.analyze_command import cable_plant
    from model.versioning.design_text import design_lines

    design = load_or_refuse(args.file)
    plant = None if args.no_route else cable_plant(design)
    print("\n".join(design_lines(design, plant)))
    return 0
