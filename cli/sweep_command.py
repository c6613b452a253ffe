"""``main.py sweep TEMPLATE [generator options] --vary NAME=V1,V2 ... -o OUT.csv [--cluster ADDR]``.

Every combination is generated and analysed by :func:`model.studies.sweep.evaluate` on Dask: the
multiprocessing scheduler (a local process pool) by default, or the workers of an existing Dask
distributed cluster with ``--cluster tcp://host:8786``. One CSV row per variant.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from functools import partial

from cli import CliError
from cli.generate_command import add_generator_options, generator_params
from model.generators.generate import TEMPLATES


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="generate and analyse every combination of varied parameters; one CSV row each",
        description="Sweep a fabric template: every combination of the --vary values is "
        "generated, cabled and analysed (KPIs of `compare`), on a local process pool or on a "
        "Dask distributed cluster.",
    )
    parser.add_argument("template", choices=TEMPLATES)
    add_generator_options(parser)
    parser.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="a parameter and its values (generator options, policy, allreduce_algorithm, "
        "job_placement, allreduce_message_mb); repeat for more",
    )
    parser.add_argument("-o", "--output", required=True, help="the CSV file to write")
    parser.add_argument(
        "--cluster", help="address of a running Dask scheduler (default: a local process pool)"
    )
    parser.add_argument(
        "--workers", type=int, help="local processes (default: the machine's cores)"
    )


def run(args: argparse.Namespace) -> int:
    from model.files.output_file import OutputRefused, output_target
    from model.studies.sweep import SweepError, columns, evaluate, parse_vary, variants

    try:
        output_target(args.output)  # a folder or socket refused before the variants run
    except OutputRefused as exc:
        raise CliError(str(exc)) from None

    try:
        vary = parse_vary(args.vary)
    except SweepError as exc:
        raise CliError(str(exc)) from None
    if not vary:
        raise CliError("give at least one --vary NAME=V1,V2")
    base = generator_params(args, given=set(vary))
    for name in vary:
        if name in base:
            raise CliError(f"--{name.replace('_', '-')} is both fixed and varied; give it once")
    jobs = variants(base, vary)
    work = partial(evaluate, args.template)
    rows = _run_cluster(args.cluster, work, jobs) if args.cluster else _run_local(work, jobs, args)
    header = columns(vary, base)
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=header, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    # Atomically: a full disk or a kill leaves the previous results whole, not cut mid-row.
    from model.outputs.writers import ExportError, write_file

    try:
        write_file(args.output, text.getvalue().encode("utf-8"))
    except ExportError as exc:
        raise CliError(str(exc)) from None
    failed = sum(1 for r in rows if r["error"])
    print(
        f"{args.output}: {len(rows)} variants"
        + (f", {failed} refused by the generator (see the error column)" if failed else ""),
        file=sys.stderr if args.output == "-" else sys.stdout,
    )
    return 0


def _run_local(work, jobs: list[dict], args) -> list[dict]:
    import dask.bag

    workers = args.workers or os.cpu_count() or 1
    if workers < 1:
        raise CliError("--workers must be at least 1")
    bag = dask.bag.from_sequence(jobs, npartitions=min(len(jobs), workers * 4))
    scheduler = "processes" if workers > 1 and len(jobs) > 1 else "synchronous"
    return bag.map(work).compute(scheduler=scheduler, num_workers=workers)


def _run_cluster(address: str, work, jobs: list[dict]) -> list[dict]:
    from distributed import Client

    try:
        client = Client(address, timeout="5s")
    except (OSError, TimeoutError) as exc:
        raise CliError(f"no Dask scheduler answers at {address}: {exc}") from None
    try:
        futures = client.map(work, jobs, pure=False)
        return client.gather(futures)
    finally:
        client.close()
        sys.stdout.flush()
