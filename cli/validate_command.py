"""``main.py validate FILE``: check a design file and print a one-line summary."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli import load_or_refuse
from model.files.underlay_file import UnderlayState, underlay_state


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="check a design file and summarise it")
    parser.add_argument("file", help="a .hall.json design file")


def run(args: argparse.Namespace) -> int:
    design = load_or_refuse(args.file)
    print(
        f"{args.file}: valid — {len(design.racks)} racks, {len(design.devices)} devices, "
        f"{len(design.links)} links, {design.gpu_count()} GPUs"
    )
    underlay = design.hall.underlay
    if underlay is not None:  # the building's drawing: a note, the design itself is valid
        state, sentence = underlay_state(underlay, Path(args.file).resolve().parent)
        print(sentence if state is not UnderlayState.OK else f"underlay {underlay.path}: found")
    return 0
