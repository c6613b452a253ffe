"""``main.py collective FILE [options] [--json]``: one collective on one job, from link loads.

Options: ``--collective C``, ``--gpus N`` or ``--job ID,...``, ``--fail ID,...``, ``--pxn on|off``
(the all-to-all's PXN mode), ``--routing auto|ideal|ecmp-hash|adaptive`` (how bytes spread over
equal-cost uplinks), ``--jobs K`` (K equal jobs cut from the largest in topology order, running
it at once: the busiest link under their summed loads). The pattern is NCCL's; ``allreduce`` is this command's alias."""

from __future__ import annotations

import argparse
import json

from cli import CliError, load_or_refuse


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    from model.analysis.collectives import ALGORITHMS, COLLECTIVES, PLACEMENTS, ROUTINGS
    from model.analysis.nccl_tuning import PROTOCOLS

    parser = sub.add_parser(
        name,
        help="time of a collective on a job: the busiest links, NCCL's algorithm and protocol",
        description="A collective (all-reduce by default) on a job of the design: NCCL's pattern "
        "(topology-ordered rings per rail, double binary trees, NVLS, all-to-all with PXN) routed "
        "over the fabric with ECMP, the busiest link's bytes over its capacity plus NCCL's "
        "latency model (src/graph/tuning.cc). The job: the largest the design holds, the first "
        "N GPUs in topology order, or named servers, racks and SUs (su:1). Defaults come from "
        "the design settings.",
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument("--collective", choices=COLLECTIVES, default="all-reduce")
    parser.add_argument("--gpus", type=int, help="the first N GPUs in topology order")
    parser.add_argument("--placement", choices=PLACEMENTS, help="order --gpus takes servers in")
    parser.add_argument("--job", "--servers", dest="job", help="servers, racks or su:N, by comma")
    parser.add_argument("--fail", help="comma-separated device or link ids taken out first")
    parser.add_argument("--algorithm", choices=ALGORITHMS, help="force one (default: NCCL's)")
    parser.add_argument("--protocol", choices=PROTOCOLS, help="force one (default: NCCL's)")
    parser.add_argument("--message-mb", type=float, help="message size, MB (10^6 bytes)")
    parser.add_argument(
        "--pxn",
        choices=("on", "off"),
        help="all-to-all through the GPU on the destination's rail over NVLink (on: "
        "NCCL_P2P_PXN_LEVEL=2, NCCL's default) or from each GPU's own NIC (off: level 0); "
        "default: the design's setting pxn",
    )
    parser.add_argument(
        "--routing",
        choices=("auto", *ROUTINGS),
        help="how bytes spread over equal-cost uplinks: adaptive or ideal (an even split), "
        "ecmp-hash (static flow hashing: the expected busiest uplink, and its 95th percentile); "
        "auto follows the switches (InfiniBand, Spectrum-X: adaptive; other Ethernet: "
        "ecmp-hash); default: the design's setting routing",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        help="K equal jobs, contiguous in topology order (whole SUs when K divides them), "
        "running the collective at once: each job's time under the sum of their link loads",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from model.analysis.allreduce import asked_algorithm, knee
    from model.analysis.collectives import Collectives
    from model.analysis.report import _clean

    if args.job and (args.gpus is not None or args.placement):
        raise CliError("give either --job or --gpus/--placement, not both")
    if args.jobs is not None and (args.job or args.gpus is not None):
        raise CliError("--jobs cuts the largest job into K: give it without --job or --gpus")
    if args.message_mb is not None and not 0 < args.message_mb <= 1e6:
        raise CliError("--message-mb must be above 0 and at most 1,000,000")
    design = load_or_refuse(args.file)
    settings = design.settings
    failed = [s.strip() for s in (args.fail or "").split(",") if s.strip()]
    try:
        pxn = None if args.pxn is None else args.pxn == "on"
        c = Collectives(design, failed=failed, pxn=pxn, routing=args.routing)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if not c.default_job.gpus:
        raise CliError(f"{args.file} has no GPU server that can run a job")
    try:
        job = _chosen_job(args, c, design)
        size = (args.message_mb or settings.allreduce_message_mb) * 1e6
        algorithm = args.algorithm or (
            asked_algorithm(settings) if args.collective == "all-reduce" else "auto"
        )
        e = c.estimate(job, args.collective, size, algorithm, args.protocol)
        points = c.curve(args.collective, size, algorithm)
        together = None
        if args.jobs is not None:
            from model.analysis.concurrent_jobs import concurrent

            together = concurrent(c, args.jobs, args.collective, size, algorithm)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    result = _clean(
        e.to_json()
        | {"message_mb": size / 1e6, "failed": failed, "routing_words": c.routing_words()}
        | {"curve": [p.to_json() for p in points], "knee": knee(points)}
        | ({"concurrent": together.to_json()} if together is not None else {})
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{e.collective} of {size / 1e6:g} MB on {e.job} ({e.gpus:,} GPUs, {e.nodes:,} nodes): "
        f"{e.time_s * 1000:,.3f} ms with {e.algorithm}/{e.protocol} "
        f"(latency {e.latency_s * 1e6:,.1f} us, transfer {e.bandwidth_s * 1000:,.3f} ms), "
        f"busBW {e.busbw_gbps / 8:,.1f} GB/s"
    )
    if e.collective == "all-to-all":
        print(f"  PXN {e.pxn}")
    print(f"  routing: {c.routing_words()}")
    if e.routing == "ecmp-hash":
        print(f"  95th percentile of the hashing: {e.time_p95_s * 1000:,.3f} ms")
    if e.unreachable:
        print("  some of the job's GPUs cannot reach the others")
    else:
        bound = "latency-bound; " if e.latency_bound else ""
        if e.limited_by == "scale-up":
            print(f"  {bound}busiest: NVLink (scale-up bandwidth per GPU)")
        else:
            more = f" and {e.bottleneck_count - 8:,} more" if e.bottleneck_count > 8 else ""
            shown = ", ".join(e.bottleneck_links[:8])
            print(f"  {bound}busiest links ({e.limited_by}): {shown}{more}")
    for p in points:
        print(
            f"  {p.gpus:>9,} GPUs  {p.time_s * 1000:10,.3f} ms  {p.algorithm:>9}/{p.protocol:<6}"
            f"  {'latency' if p.latency_bound else 'bandwidth'}-bound  {p.limited_by}"
        )
    print(f"  {result['knee']}")
    if together is not None:
        _print_concurrent(together)
    return 0


def _chosen_job(args: argparse.Namespace, c, design):
    """The job --job or --gpus names, else the largest (ValueError for an unknown name)."""
    from model.analysis.jobs import named_job

    whole = c.default_job
    if args.job:
        return named_job(c.fabric, design, [s for s in args.job.split(",") if s.strip()])
    if args.gpus is not None:
        if not 1 <= args.gpus <= whole.gpus:
            raise CliError(f"--gpus must be between 1 and {whole.gpus:,} (the largest job)")
        return c.job(args.gpus, args.placement or design.settings.job_placement)
    return whole


def _print_concurrent(r) -> None:
    t = r.together
    print(
        f"{r.jobs} jobs of {t.gpus:,} GPUs at once ({', '.join(r.labels[:3])}"
        f"{' ...' if r.jobs > 3 else ''}): {t.time_s * 1000:,.3f} ms each, alone "
        f"{r.alone.time_s * 1000:,.3f} ms ({r.slowdown:,.3f}x)"
    )
    if t.limited_by == "scale-up":
        print("  busiest: NVLink (scale-up bandwidth per GPU), which no other job shares")
    elif t.bottleneck_links:
        more = f" and {t.bottleneck_count - 8:,} more" if t.bottleneck_count > 8 else ""
        print(f"  busiest links ({t.limited_by}): {', '.join(t.bottleneck_links[:8])}{more}")
