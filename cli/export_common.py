"""Shared step of the export commands: load a design and route its cables, or say why not."""

from __future__ import annotations

from cli import load_or_refuse
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
