"""``main.py optimise FILE -o OUT.hall.json [--weights ...] [--iterations N] [--seed S] [--restarts R]``.

Searches where the network racks stand (:mod:`model.optimise`) and writes the best design to a
new file, leaving FILE untouched; prints the report (objective terms before and after, racks
moved, media flipped, why each hard limit holds), or ``--json``. Restarts run on Dask's local
process pool as ``sweep``'s variants do (``--workers 1``: in this process).
"""

from __future__ import annotations

import argparse
import json
import os

from cli import CliError, load_or_refuse


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="move the network racks to lower cost, optics power, failures and cable metres",
        description="Optimise where the leaf, spine and core racks stand (free floor positions "
        "and swaps; locked racks stay) under the hall's hard limits, and write the best design.",
    )
    parser.add_argument("file", help="the .hall.json design (left untouched)")
    parser.add_argument("-o", "--output", required=True, help="the optimised .hall.json to write")
    parser.add_argument(
        "--weights",
        help="NAME=W,... over the defaults (cost, power, power_max, failures, cable)",
    )
    parser.add_argument("--iterations", type=int, default=300, help="moves tried per restart")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same result)")
    parser.add_argument("--restarts", type=int, default=1, help="independent runs (Dask)")
    parser.add_argument("--seconds", type=float, help="time budget per restart")
    parser.add_argument(
        "--anywhere",
        action="store_true",
        help="let racks stand on any free tile, not only along the existing rows",
    )
    parser.add_argument("--lock", action="append", default=[], help="a rack that must not move")
    parser.add_argument("--workers", type=int, help="local processes (default: the cores)")
    parser.add_argument("--json", action="store_true", help="the report as JSON on stdout")


def _run_jobs(workers: int):
    def run_jobs(work, jobs):
        import dask.bag

        n = min(workers, len(jobs))
        bag = dask.bag.from_sequence(jobs, npartitions=len(jobs))
        scheduler = "processes" if n > 1 else "synchronous"
        return bag.map(work).compute(scheduler=scheduler, num_workers=n)

    return run_jobs


def run(args: argparse.Namespace) -> int:
    from model.files.design_file import DesignFileError, save_design
    from model.files.output_file import OutputRefused, output_target
    from model.optimise.objective import OptimiseError, parse_weights
    from model.optimise.optimise import optimise

    try:
        weights = parse_weights(args.weights)
    except OptimiseError as exc:
        raise CliError(str(exc)) from None
    for flag, value in (("--iterations", args.iterations), ("--restarts", args.restarts)):
        if value < 1:
            raise CliError(f"{flag} must be at least 1, not {value}")
    if args.seconds is not None and not args.seconds > 0:
        raise CliError("--seconds must be a positive number")
    workers = args.workers or os.cpu_count() or 1
    if workers < 1:
        raise CliError("--workers must be at least 1")
    try:
        output_target(args.output)
    except OutputRefused as exc:
        raise CliError(str(exc)) from None
    design = load_or_refuse(args.file)
    result = optimise(
        design,
        weights,
        iterations=args.iterations,
        seed=args.seed,
        restarts=args.restarts,
        locked=args.lock,
        seconds=args.seconds,
        run_jobs=_run_jobs(workers),
        anywhere=args.anywhere,
    )
    try:
        save_design(result.design, args.output)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(
            json.dumps(
                {"changed": result.changed, "sentence": result.sentence, **result.report}, indent=2
            )
        )
    else:
        print(text(result.sentence, result.report))
    return 0


def text(sentence: str, report: dict) -> str:
    """The report as lines for a terminal."""
    lines = [sentence]
    if not report:
        return "\n".join(lines)
    lines.append(f"{'term':22}{'before':>16}{'after':>16}{'delta':>16}")
    for term, v in report["terms"].items():
        lines.append(f"{term:22}{v['before']:>16,.4g}{v['after']:>16,.4g}{v['delta']:>+16,.4g}")
    for m in report["moved"]:
        lines.append(
            f"moved {m['name']}: ({m['from'][0]:.2f}, {m['from'][1]:.2f}) m ->"
            f" ({m['to'][0]:.2f}, {m['to'][1]:.2f}) m, {m['links_flipped']} links changed medium"
        )
    for f in report["media_flipped"]:
        lines.append(f"media: {f['links']} links {f['from']} -> {f['to']}")
    lines.extend(report["limits"])
    return "\n".join(lines)
