"""``main.py optimise FILE -o OUT.hall.json [--objective cost|power|failures|balanced]
[--weights ...] [--move TIERS] [--iterations N] [--seconds S] [--seed S] [--restarts R]
[--front DIR] [--vary-optics]`` (also spelled ``optimize``).

Searches where the network racks stand (:mod:`model.optimise`) and writes the best design to a
new file, leaving FILE untouched; prints the report (objective terms before and after, each
moved rack's sentence saying what its move bought, media flipped, why each hard limit holds),
or ``--json``. Restarts run on Dask's local process pool as ``sweep``'s variants do
(``--workers 1``: in this process). ``--front DIR`` also optimises each preset weighting and
writes the non-dominated designs (cost, optics watts, failures per day) to DIR with
``front.json``, each openable and comparable with ``compare``. ``--vary-optics`` searches each
switch tier's optics strategy too, with a sentence per changed tier and per strategy skipped.
"""

from __future__ import annotations

import argparse
import json
import os

from cli import CliError, load_or_refuse

DEFAULT_ITERATIONS = 300  # moves per restart without a time budget
UNBOUNDED_ITERATIONS = 10**9  # with --seconds alone: the budget ends the run


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
        "--objective",
        choices=["cost", "power", "failures", "balanced"],
        default="balanced",
        help="what to minimise: capital cost, optics power, failures per day, or the balanced "
        "default weights (--weights adjusts any of them)",
    )
    parser.add_argument(
        "--weights",
        help="NAME=W,... over the objective's weights (cost, power, power_max, failures, cable)",
    )
    parser.add_argument(
        "--move",
        default="leaf,spine,core",
        help="comma-separated rack roles that may move (leaf, spine, core, storage, "
        "management, patch-panel, nvlink-switch, switch), and 'servers': each SU's servers "
        "trade places (rack and U, every link kept) at their lowest cable price; "
        "default leaf,spine,core",
    )
    parser.add_argument(
        "--front",
        metavar="DIR",
        help="also write the Pareto front of the preset objectives to DIR (one design each)",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        help=f"moves tried per restart (default {DEFAULT_ITERATIONS}; with --seconds and no "
        "--iterations, as many as the time allows)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same result)")
    parser.add_argument("--restarts", type=int, default=1, help="independent runs (Dask)")
    parser.add_argument(
        "--seconds",
        type=float,
        help="time budget of each restart, its set-up, clean-up and report included: one "
        "restart's result comes in about this time (restarts beyond --workers run one after "
        "another); the file's load and save are outside it",
    )
    parser.add_argument(
        "--anywhere",
        action="store_true",
        help="let racks stand on any free tile, not only along the existing rows",
    )
    parser.add_argument(
        "--swap-compute",
        action="store_true",
        help="let a moving rack trade places with a compute rack of its size (which then moves), "
        "and slide along its row past the servers it is cabled to (a leaf in a row full of its "
        "servers has no other short move)",
    )
    parser.add_argument(
        "--vary-optics",
        action="store_true",
        help="also choose each switch tier's optics strategy (pluggable, linear, co-packaged) "
        "among those its switches support",
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
    from model.optimise.front import PRESETS
    from model.optimise.moves import MOVABLE_ROLES, MOVE_SERVERS
    from model.optimise.objective import OptimiseError, parse_weights
    from model.optimise.optimise import optimise

    try:
        weights = parse_weights(args.weights, PRESETS[args.objective])
    except OptimiseError as exc:
        raise CliError(str(exc)) from None
    tiers = tuple(t.strip() for t in args.move.split(",") if t.strip())
    unknown = [t for t in tiers if t not in (*MOVABLE_ROLES, MOVE_SERVERS)]
    if unknown or not tiers:
        raise CliError(
            f"--move {args.move!r}: name rack roles among "
            + ", ".join((*MOVABLE_ROLES, MOVE_SERVERS))
        )
    if args.iterations is None:
        # A user who asks for a time budget means it: 300 moves end an XL run in ~18 s of 60.
        args.iterations = DEFAULT_ITERATIONS if args.seconds is None else UNBOUNDED_ITERATIONS
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
        tiers=tiers,
        swap_compute=args.swap_compute,
        vary_optics=args.vary_optics,
    )
    try:
        save_design(result.design, args.output)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    out = {"changed": result.changed, "sentence": result.sentence, **result.report}
    if args.front:
        out["front"] = _front(args, design, tiers)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(text(result.sentence, result.report))
        if args.front:
            print(front_text(out["front"], args.front))
    return 0


def _front(args: argparse.Namespace, design, tiers) -> list[dict]:
    """Optimise each preset, write the non-dominated designs and front.json into the folder."""
    from pathlib import Path

    from model.files.design_file import DesignFileError, save_design
    from model.files.output_file import OutputRefused, output_target, write_output
    from model.optimise.front import pareto_front

    folder = Path(args.front)
    if folder.exists() and not folder.is_dir():
        raise CliError(f"--front {folder}: exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"--front {folder}: cannot create the folder ({exc.strerror})") from None
    front, _every = pareto_front(
        design,
        iterations=args.iterations,
        seed=args.seed,
        locked=args.lock,
        seconds=args.seconds,
        anywhere=args.anywhere,
        tiers=tiers,
        swap_compute=args.swap_compute,
        vary_optics=args.vary_optics,
    )
    rows = []
    for point in front:
        row = point.to_json()
        if point.result is not None:
            path = folder / f"{point.name}.hall.json"
            try:
                save_design(point.result.design, str(path))
            except DesignFileError as exc:
                raise CliError(str(exc)) from None
            row["file"] = path.name
        rows.append(row)
    try:
        target = output_target(folder / "front.json")
        write_output(target, (json.dumps(rows, indent=2) + "\n").encode())
    except (OutputRefused, OSError) as exc:
        raise CliError(f"{folder / 'front.json'}: {exc}") from None
    return rows


def front_text(rows: list[dict], folder: str) -> str:
    lines = [f"Pareto front (cost, typical optics W, failures/day), written to {folder}:"]
    for r in rows:
        t = r["terms"]
        lines.append(
            f"  {r['name']:10} {t['cost_usd']:>14,.0f} USD {t['optics_power_w']:>12,.0f} W"
            f" {t['failures_per_day']:>9.4f}/day  {r.get('file', '(the input design)')}"
        )
    return "\n".join(lines)


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
    if report.get("why"):
        lines.append(
            "What each move bought alone, and pairs only together (these sum to the moves' delta):"
        )
        lines.extend(f"  {w['sentence']}" for w in report["why"])
    optics = report.get("optics")
    if optics:
        lines.append("Optics strategy per switch tier (putting each tier back, the rest kept):")
        lines.extend(f"  {w['sentence']}" for w in optics["why"])
        if not optics["why"]:
            lines.append("  every tier keeps its strategy")
        lines.extend(f"  {s}." for s in optics["skipped"])
    servers = report.get("servers")
    if servers:
        price = servers["link_price_usd"]
        lines.append(
            f"servers: {len(servers['moved'])} placed anew within their SU"
            f" ({servers['groups']} group(s) solved), link price"
            f" {price['before']:,.0f} -> {price['after']:,.0f} USD"
        )
        lines.extend(
            f"  {m['name']}: {m['from'][0]} U{m['from'][1]} -> {m['to'][0]} U{m['to'][1]}"
            for m in servers["moved"]
        )
    if "copper_share" in report:
        c = report["copper_share"]
        lines.append(f"copper share of cabled links: {c['before']:.1%} -> {c['after']:.1%}")
    for f in report["media_flipped"]:
        lines.append(f"media: {f['links']} links {f['from']} -> {f['to']}")
    lines.extend(report["limits"])
    return "\n".join(lines)
