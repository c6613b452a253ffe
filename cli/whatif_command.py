"""``main.py whatif FILE --fail ID[,ID...] | --n-1 [--json]``: failure analysis of a design."""

from __future__ import annotations

import argparse
import json

from cli import CliError, load_or_refuse


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="what a failure costs: islands, the largest job and its all-reduce, bisection, "
        "per-GPU bandwidth",
        description="Fail devices (NVLink switch trays among them), links, racks, one side of "
        "a rack's power (RACK:pdu-a, RACK:pdu-b, its N-th PDU RACK:pdu-N), power feeds and "
        "panels, CDUs and CRAHs (by id), trays or tray segments (TRAY#N) together and "
        "compare the compute fabric before and after: the islands it splits into, the largest "
        "job that still runs and its all-reduce time (busiest links named), bisection and "
        "per-GPU bandwidth; or, with --n-1, rank the worst single failure of every tier.",
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument("--fail", help="comma-separated ids of what fails together")
    parser.add_argument(
        "--n-1", dest="n_1", action="store_true", help="rank the worst single failure per tier"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from cli.analyze_command import cable_plant
    from model.analysis.report import _clean
    from model.analysis.whatif import WhatIf, WhatIfError

    if bool(args.fail) == bool(args.n_1):
        raise CliError("give either --fail ID[,ID...] or --n-1")
    ids = [s.strip() for s in (args.fail or "").split(",") if s.strip()]
    if args.fail is not None and not ids:
        raise CliError("--fail needs at least one id")
    design = load_or_refuse(args.file)
    needs_plant = any(i in design.trays or "#" in i for i in ids)  # routes only for trays
    whatif = WhatIf(design, cable_plant(design) if needs_plant else None)
    if args.n_1:
        from model.analysis.n_minus_one import n_minus_one

        result = _clean(n_minus_one(whatif))
        print(json.dumps(result, indent=2) if args.json else _n1_text(result))
        return 0
    try:
        result = _clean(whatif.run(ids))
    except WhatIfError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps(result, indent=2) if args.json else _text(result))
    return 0


def _gbps(value) -> str:
    return "n/a" if value is None else f"{value:,.0f} Gb/s"


def _islands(islands: dict) -> str:
    sizes = ", ".join(f"{g:,}" for g in islands["gpus"])
    more = ", ..." if islands["count"] > len(islands["gpus"]) else ""
    noun = "island" if islands["count"] == 1 else "islands"
    return f"{islands['count']:,} {noun}: {sizes}{more} GPUs"


def _text(r: dict) -> str:
    before, after = r["before"], r["after"]
    rows = [
        ("GPUs", f"{before['gpus']:,}", f"{after['gpus']:,}"),
        ("Islands", f"{before['islands']['count']:,}", f"{after['islands']['count']:,}"),
        (
            "Largest job, GPUs",
            f"{before['islands']['largest_job_gpus']:,}",
            f"{after['islands']['largest_job_gpus']:,}",
        ),
        (
            "GPUs with no scale-out path",
            f"{before['islands']['gpus_without_scale_out']:,}",
            f"{after['islands']['gpus_without_scale_out']:,}",
        ),
        ("Bisection", _gbps(before["bisection_gbps"]), _gbps(after["bisection_gbps"])),
        (
            "NVLink per GPU, min",
            _gbps(before["scale_up_per_gpu_gbps"]["min"]),
            _gbps(after["scale_up_per_gpu_gbps"]["min"]),
        ),
        (
            "Scale-out per GPU, min",
            _gbps(before["scale_out_per_gpu_gbps"]["min"]),
            _gbps(after["scale_out_per_gpu_gbps"]["min"]),
        ),
        (
            "Scale-out per GPU, mean",
            _gbps(before["scale_out_per_gpu_gbps"]["mean"]),
            _gbps(after["scale_out_per_gpu_gbps"]["mean"]),
        ),
        (
            "Switch hops, typical / max",
            f"{before['hops']['typical']} / {before['hops']['max']}",
            f"{after['hops']['typical']} / {after['hops']['max']}",
        ),
        (
            "Server pairs disconnected",
            f"{before['hops']['disconnected_pairs']:,}",
            f"{after['hops']['disconnected_pairs']:,}",
        ),
    ]
    pdus = f", PDUs {', '.join(r['failed_pdus'])}" if r["failed_pdus"] else ""
    lines = [
        f"Failing {', '.join(r['failed'])}: {len(r['failed_devices'])} devices, "
        f"{r['failed_links']} links of their own{pdus}",
        f"{'':28}{'before':>18}{'after':>18}",
        *(f"{name:28}{b:>18}{a:>18}" for name, b, a in rows),
        f"After: {_islands(r['islands'])}; largest job that still runs: "
        f"{r['largest_job_gpus']:,} GPUs ({r['largest_job_lost_gpus']:,} fewer)",
        f"GPUs cut off from the scale-out fabric: {r['gpus_without_scale_out']:,}; "
        f"GPUs without a NIC link of their own (they reach it through a neighbour's NIC "
        f"over NVLink, or their server failed): {r['gpus_disconnected']:,}",
        *(
            [
                f"Without power: {len(r['unpowered_racks'])} racks, "
                f"{r['unpowered_gpus']:,} GPUs ({', '.join(r['unpowered_racks']) or 'none'})"
            ]
            if r.get("failed_power") or r.get("unpowered_racks")
            else []
        ),
        *_collective_lines(r["collective"]),
        *(
            [
                f"Without cooling: {len(r['uncooled_racks'])} racks, "
                f"{r['uncooled_gpus']:,} GPUs ({', '.join(r['uncooled_racks']) or 'none'})"
            ]
            if r.get("failed_cooling") or r.get("uncooled_racks")
            else []
        ),
        *(f"Assumption: {a}" for a in r["assumptions"]),
    ]
    return "\n".join(lines)


def _ms(seconds) -> str:
    return "no path (unreachable)" if seconds is None else f"{seconds * 1e3:,.2f} ms"


def _links(e: dict) -> str:
    if e["limited_by"] == "scale-up":
        return "NVLink"
    if e["limited_by"] == "none":
        return "no link (nothing crosses the network)"
    shown = ", ".join(e["bottleneck_links"][:4])
    more = f" and {e['bottleneck_count'] - 4:,} more" if e["bottleneck_count"] > 4 else ""
    return f"the {e['limited_by']} links {shown}{more}"


def _collective_lines(c: dict) -> list[str]:
    """The default job's collective before and after, its job and its busiest links."""
    b, a = c["before"], c["after"]
    slow = f" ({c['slowdown']:.2f}x)" if c["slowdown"] is not None else ""
    if a["gpus"] < 2:
        after = f"  after: no job of two or more GPUs still runs ({a['gpus']} GPUs left together)"
    else:
        after = (
            f"  after {_ms(a['time_s'])}{slow} on the {a['job']} ({a['algorithm']}, "
            f"{a['protocol']}), busiest {_links(a)}"
        )
    return [
        f"{b['collective'].capitalize()} of {c['size_bytes'] / 1e6:g} MB: before "
        f"{_ms(b['time_s'])} on the {b['job']} ({b['algorithm']}, {b['protocol']}), busiest "
        f"{_links(b)}",
        after,
    ]


def _n1_text(r: dict) -> str:
    lines = [
        f"Worst single failure per tier (bisection before {_gbps(r['before']['bisection_gbps'])}"
        f", largest job {r['before']['islands']['largest_job_gpus']:,} GPUs, its all-reduce "
        f"{_ms(r['collective_before']['time_s'])})"
    ]
    for t in r["tiers"]:
        w = t["worst"]
        lines.append(
            f"  {t['tier']:18} {w['id']} (and {w['equivalent'] - 1:,} alike of "
            f"{t['candidates']:,}): largest job -{w['largest_job_lost_gpus']:,} GPUs, "
            f"{w['islands']:,} islands, {w['gpus_without_scale_out']:,} GPUs without scale-out, "
            f"{w['gpus_disconnected']:,} without a NIC link, bisection "
            f"-{_gbps(w['bisection_lost_gbps'])}, NVLink per GPU min "
            f"{_gbps(w['scale_up_per_gpu_gbps']['min'])}, scale-out per GPU mean "
            f"{_gbps(w['scale_out_per_gpu_gbps']['mean'])}, all-reduce "
            f"{_ms(w['collective_time_s'])}"
            + (f" ({w['collective_slowdown']:.2f}x)" if w["collective_slowdown"] else "")
        )
    lines += [f"Assumption: {a}" for a in r["assumptions"]]
    return "\n".join(lines)
