"""``main.py analyze FILE [--json] [--strict]``: the analysis report of a design file."""

from __future__ import annotations

import argparse
import json

from cli import load_or_refuse
from cli.export_common import add_policy_argument
from cli.process_exit import is_own_process, no_collection_until_exit
from cli.progress import Progress


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="bandwidth, bisection, power, cost and warnings of a design")
    parser.add_argument("file", help="a .hall.json design file")
    add_policy_argument(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when the analysis finds any error-level warning",
    )


def cable_plant(design, policy: str | None = None):
    """The geometry engine's routed cables and media, or None when it is not available."""
    try:
        from model.engine.routed_links import RoutedLinks
    except ImportError:
        return None
    from cli.process_exit import keep_until_exit

    plant = RoutedLinks(design, policy)
    plant.refresh()
    keep_until_exit(plant)  # as its design: left to main.py's exit, not freed one by one
    return plant


def run(args: argparse.Namespace) -> int:
    from model.analysis import analyze
    from model.analysis.plant_free import plant_free_figures
    from model.analysis.topology import infer_topology
    from model.runtime.forked_call import ForkedCall

    no_collection_until_exit()  # one load, route and analysis, then the exit
    progress = Progress("analyze")
    try:
        design = load_or_refuse(args.file)  # unreadable files are refused there too
        progress.step("loaded")
        # The topology inferred once, before the fork, for the child's figures and this
        # process's analysis alike (each inferred its own: ~0.1 s of CPU at XL, twice).
        topology = infer_topology(design)
        # The figures that read no cable plant (collectives, bisection: ~0.6 s at XL) on the
        # second core while this one routes and builds the plant; in this process, the
        # analysis computes them itself as it always did. Only main.py's own process forks (a
        # caller's, a test's or the editor's may hold threads Python does not count).
        with ForkedCall(lambda: plant_free_figures(design, topology), is_own_process()) as free:
            plant = cable_plant(design, args.policy)
            progress.step("routed")
            given = free.result if free.forked else None
            report = analyze(design, plant, topology=topology, plant_free=given)
    finally:
        progress.done()  # the line cleared before the report (or an error) is printed
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(report.to_text())
    return 1 if args.strict and report.errors() else 0
