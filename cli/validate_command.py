"""``main.py validate FILE``: check a design file and print a one-line summary."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli import load_or_refuse
from model.files.underlay_file import UnderlayState, resolve_path, underlay_state
from model.files.underlay_pdf import pdf_page_problem


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
        folder = Path(args.file).resolve().parent
        state, sentence = underlay_state(underlay, folder)
        if underlay.kind == "pdf" and state is not UnderlayState.MISSING:
            problem = pdf_page_problem(resolve_path(underlay, folder), underlay.page)
            sentence = f"{sentence} The underlay: {problem}" if problem else sentence
        print(sentence if state is not UnderlayState.OK else f"underlay {underlay.path}: found")
    return 0
