"""``main.py allreduce FILE [--gpus N] [--placement P | --servers ID,...] [--json]``: one job's
all-reduce after NCCL's model, with the tiers its rings cross, and the curve over job sizes."""

from __future__ import annotations

import argparse
import json

from cli import CliError, load_or_refuse


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    from model.analysis.collectives import ALGORITHMS, PLACEMENTS

    parser = sub.add_parser(
        name,
        help="all-reduce time, busBW and the tiers crossed for a job placed on the design",
        description="The all-reduce of one job after NCCL's bus-bandwidth model (pipelined "
        "rings, busBW = algBW x 2(n-1)/n): which tiers its rings cross decides whether an "
        "oversubscribed tier slows it. Defaults come from the design settings.",
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument("--gpus", type=int, help="GPUs in the job (default: every GPU)")
    parser.add_argument("--placement", choices=PLACEMENTS, help="which servers the job takes")
    parser.add_argument("--servers", help="comma-separated GPU server ids the job runs on")
    parser.add_argument("--algorithm", choices=ALGORITHMS)
    parser.add_argument("--message-mb", type=float, help="message size, MB (10^6 bytes)")
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from model.analysis.allreduce import allreduce, curve, job_context, knee
    from model.analysis.report import _allreduce_json, _clean

    if args.placement and args.servers:
        raise CliError("give either --placement or --servers, not both")
    if args.message_mb is not None and not 0 < args.message_mb <= 1e6:
        raise CliError("--message-mb must be above 0 and at most 1,000,000")
    design = load_or_refuse(args.file)
    settings = design.settings
    bw, domain, rings, total = job_context(design)
    if not total:
        raise CliError(f"{args.file} has no GPU servers")
    placement = args.placement or settings.job_placement
    if args.servers:
        placement = [s.strip() for s in args.servers.split(",") if s.strip()]
        try:
            job_servers = rings.order(placement)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        total = int(rings.gpus[job_servers].sum())
    gpus = args.gpus if args.gpus is not None else total
    if not 1 <= gpus <= total:
        raise CliError(f"--gpus must be between 1 and {total:,} (the GPUs the placement holds)")
    message = args.message_mb if args.message_mb is not None else settings.allreduce_message_mb
    algorithm = args.algorithm or settings.allreduce_algorithm
    job = allreduce(bw, gpus, domain, message, algorithm, rings, placement)
    points = curve(bw, gpus, domain, message, algorithm, rings, placement)
    result = _clean(
        _allreduce_json(job) | {"curve": [_allreduce_json(p) for p in points], "knee": knee(points)}
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    crossed = ", ".join(job.tiers_crossed) or "none"
    print(
        f"All-reduce {message:g} MB over {gpus:,} GPUs ({algorithm}, placement {job.placement}): "
        f"{job.time_s * 1000:,.3f} ms, algBW {job.algbw_gbps / 8:,.1f} GB/s, busBW "
        f"{job.busbw_gbps / 8:,.1f} GB/s; limited by {job.limited_by}; tiers crossed: {crossed}"
    )
    for p in points:
        print(
            f"  {p.gpus:>9,} GPUs  {p.time_s * 1000:10,.3f} ms  busBW {p.busbw_gbps / 8:8,.1f} GB/s"
            f"  {p.limited_by}"
        )
    print(f"  {result['knee']}")
    return 0
