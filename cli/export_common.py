"""Shared steps of the export commands: load a design and route its cables, check ``-o``."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from cli import CliError, load_or_refuse
from cli.process_exit import keep_until_exit, no_collection_until_exit
from model.design.design import Design
from model.engine.routed_links import RoutedLinks


def add_policy_argument(parser) -> None:
    """``--policy``: the media policy for this run, overriding the design's."""
    from model.engine.media import POLICIES

    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default=None,
        help="media policy for this run (default: the design's setting)",
    )


def load_and_route(path: str, policy: str | None = None) -> tuple[Design, RoutedLinks]:
    """The design at ``path`` and its cable plant (under ``policy`` when given); both kept
    until ``main.py``'s process exits, as :func:`cli.load_or_refuse` keeps the design."""
    no_collection_until_exit()  # a one-shot export: see cli.process_exit
    design = load_or_refuse(path)
    plant = RoutedLinks(design, policy)
    keep_until_exit(plant)
    return design, plant


def output_path(
    output: str, suffixes: tuple[str, ...], inputs: Sequence[str] = (), stream: bool = True
) -> tuple[str | Path, str]:
    """``-o OUTPUT`` checked before any work: (the path or ``-``, the format's suffix).

    The name must end in one of ``suffixes``, except ``-`` (standard output) and a character
    device or FIFO (written through), which take the first suffix's format when their name
    has none of them (``stream=False``: a command that cannot stream refuses ``-``). A folder
    or socket is refused, and so is a path that is one of ``inputs`` (or a link to one):
    writing it would destroy what the command reads."""
    from model.files.output_file import STDOUT, OutputRefused, output_target

    shown = " or ".join(suffixes)
    if output == STDOUT:
        if not stream:
            raise CliError(f"cannot write to standard output: give a file name ending in {shown}")
        return STDOUT, suffixes[0]
    path = Path(output)
    try:
        target = output_target(path)
    except OutputRefused as exc:
        raise CliError(str(exc)) from None
    suffix = path.suffix.lower()
    if suffix not in suffixes:
        if target.kind != "stream" or not stream:
            raise CliError(f"cannot write {path.name}: the output must end in {shown}")
        suffix = suffixes[0]
    for source in inputs:
        if _same_file(path, source):
            raise CliError(
                f"cannot write {output}: it is the input {source}; choose another output file"
            )
    return path, suffix


def _same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def summary_stream(output: str | Path) -> TextIO:
    """Where a command's closing line goes: stderr when the output itself is standard output."""
    return sys.stderr if str(output) == "-" else sys.stdout
