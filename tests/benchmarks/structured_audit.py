"""Audit of #43's "Done when": every generator and platform, 1 SU to L, cabled through panels
(cross-connect and zones), with the compute fabric alone and every network, saved, loaded and
analysed as ``generate ... && analyze --json`` would; every finding counted by code.

Run (CPU is shared; small sizes first)::

    nice -n 19 .venv/bin/python -m tests.benchmarks.structured_audit [--max-size M] [--only SUBSTR]

Each case runs in its own forked process (one hall's memory at a time) and prints one row:
case, cabling, fabrics, links, findings by code with severity, and the CPU seconds it took.
``tests/model/test_structured_audit.py`` runs a small, fast subset of :data:`CASES` as a test.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from collections import Counter
from typing import NamedTuple

H100 = dict(node_type="dgx-h100", switch="qm9700", su_nodes=32)
B200 = dict(node_type="dgx-b200", switch="qm9700", su_nodes=32)
B300 = dict(node_type="dgx-b300", switch="q3400", su_nodes=32)
HGX = dict(node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64)
MI355X_TH5 = dict(node_type="mi355x-dlc-orv3", switch="tomahawk5-64x800", su_nodes=32)
MI355X_TH6 = dict(node_type="mi355x-dlc-orv3", switch="tomahawk6-128x800-100g", su_nodes=128)


class Case(NamedTuple):
    """One generated hall: its name, template, parameters and size in scalable units."""

    name: str
    template: str
    params: dict
    size_su: int


def _rail(name: str, base: dict, sus: tuple[int, ...]) -> list[Case]:
    su = base["su_nodes"]
    return [Case(f"{name}-{n}su", "rail-optimized", dict(nodes=n * su, **base), n) for n in sus]


def _nvl72(name: str, platform: str, sus: tuple[int, ...]) -> list[Case]:
    return [Case(f"{name}-{n}su", "nvl72", dict(racks=8 * n, platform=platform), n) for n in sus]


# Every generator and platform ``generate --help`` offers, from 1 SU up to the L hall (16,384
# GPUs); sizes as each platform's scalable unit counts them (32 DGX, 8 NVL72 racks, ...).
CASES: list[Case] = [
    *_rail("dgx-h100", H100, (1, 4, 16, 64)),  # 64 SU: 2,048 DGX, the L hall's 16,384 GPUs
    *_rail("dgx-b200", B200, (1, 4, 16)),
    *_rail("dgx-b300", B300, (1, 4, 16, 64)),
    *_rail("hgx-h100-sn5600", HGX, (1, 4, 32)),  # 32 SU: the L reference hall
    *_rail("mi355x-th5", MI355X_TH5, (1, 4, 16)),
    *_rail("mi355x-th6", MI355X_TH6, (1, 4, 16)),
    *_nvl72("gb200", "gb200", (1, 4, 16)),
    *_nvl72("gb300", "gb300", (1, 4, 16)),
    *_nvl72("vera-rubin", "vera-rubin", (1, 4, 16)),
    Case("vera-rubin-pod", "nvl72", dict(racks=16, platform="vera-rubin", pod=True), 2),
    *[Case(f"kyber-{r}rack", "nvl72", dict(racks=r, platform="rubin-ultra"), r) for r in (1, 4, 8)],
    *[Case(f"helios-{r}rack", "helios", dict(racks=r), r) for r in (1, 4, 16)],
    *[Case(f"fat-tree-k{k}", "fat-tree", dict(k=k), k // 4) for k in (4, 8, 16, 24)],
    Case("leaf-spine-b200", "leaf-spine", dict(nodes=40, node_type="dgx-b200", switch="sn5600"), 1),
    Case(
        "leaf-spine-h100-256",
        "leaf-spine",
        dict(nodes=256, node_type="dgx-h100", switch="qm9700"),
        8,
    ),
]
# The options beside size that change where panels stand and what channels carry: partial
# SUs, end-of-row network racks, oversubscription, 3 tiers and rail-only, planes, optics.
CASES += [
    Case("dgx-h100-127nodes", "rail-optimized", dict(H100, nodes=127), 4),
    Case("dgx-h100-40nodes", "rail-optimized", dict(H100, nodes=40), 2),
    Case("dgx-h100-4su-eor", "rail-optimized", dict(H100, nodes=128, placement="end-of-row"), 4),
    Case("dgx-h100-8su-3tier", "rail-optimized", dict(H100, nodes=256, tiers="3"), 8),
    Case("dgx-h100-4su-rail-only", "rail-optimized", dict(H100, nodes=128, tiers="rail-only"), 4),
    Case("dgx-b200-4su-2to1", "rail-optimized", dict(B200, nodes=128, oversubscription=2), 4),
    Case("dgx-b300-4su-cpo", "rail-optimized", dict(B300, nodes=128, optics="co-packaged"), 4),
    Case("dgx-h100-4su-facility", "rail-optimized", dict(H100, nodes=128, facility="yes"), 4),
    Case(
        "mi355x-th5-4su-facility", "rail-optimized", dict(MI355X_TH5, nodes=128, facility="yes"), 4
    ),
    Case("dgx-b300-4su-linear", "rail-optimized", dict(B300, nodes=128, optics="linear"), 4),
    Case("dgx-b300-4su-2planes", "rail-optimized", dict(B300, nodes=128, planes=2), 4),
    Case("dgx-h100-4su-reserve1", "rail-optimized", dict(H100, nodes=124, reserve_ports=1), 4),
    Case("dgx-h100-4su-2perrack", "rail-optimized", dict(H100, nodes=128, servers_per_rack=2), 4),
    Case("gb300-4su-2planes", "nvl72", dict(racks=32, platform="gb300", planes=2), 4),
    Case("gb200-8su-3tier", "nvl72", dict(racks=64, tiers="3"), 8),
    Case("gb200-12racks", "nvl72", dict(racks=12), 2),
    Case("gb300-2su-eor", "nvl72", dict(racks=16, platform="gb300", placement="end-of-row"), 2),
    Case("vera-rubin-2su-2planes", "nvl72", dict(racks=16, platform="vera-rubin", planes=2), 2),
    Case("helios-3rack-su3", "helios", dict(racks=3, su_racks=3), 3),
    Case(
        "leaf-spine-h100-3to1",
        "leaf-spine",
        dict(nodes=48, node_type="dgx-h100", switch="qm9700", oversubscription=3),
        2,
    ),
]
CABLINGS = ("cross-connect", "zones")
FABRICS = ("compute", "all")


class Row(NamedTuple):
    """What one case gave: findings by (code, severity), its link count, CPU seconds."""

    case: str
    cabling: str
    fabrics: str
    links: int
    findings: dict[tuple[str, str], int]
    cpu_s: float
    refused: str = ""


def audit(case: Case, cabling: str, fabrics: str) -> Row:
    """Generate ``case``, cable it ``cabling``, save, load and analyse it; its findings."""
    from model.analysis.analyzer import analyze
    from model.engine.routed_links import RoutedLinks
    from model.files.design_file import load_design, save_design
    from model.generators.generate import GenerateError, apply_cabling, generate

    start_s = time.process_time()
    try:
        design = generate(case.template, fabrics=fabrics, **case.params)
    except GenerateError as exc:
        return Row(case.name, cabling, fabrics, 0, {}, time.process_time() - start_s, str(exc))
    apply_cabling(design, cabling)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "hall.hall.json")
        save_design(design, path)
        design = load_design(path)
    plant = RoutedLinks(design)
    plant.refresh()
    found = Counter((w.code, w.severity) for w in analyze(design, plant).warnings)
    return Row(
        case.name, cabling, fabrics, len(design.links), dict(found), time.process_time() - start_s
    )


def _in_child(args: tuple[Case, str, str]) -> Row:
    return audit(*args)


def format_row(row: Row) -> str:
    """One table line: case, cabling, fabrics, links, findings (code x count, severity), CPU s."""
    if row.refused:
        what = f"refused: {row.refused}"
    elif not row.findings:
        what = "none"
    else:
        what = ", ".join(
            f"{code} {n} ({sev})"
            for (code, sev), n in sorted(row.findings.items(), key=lambda i: -i[1])
        )
    return (
        f"| {row.case} | {row.cabling} | {row.fabrics} | {row.links} | {what} | {row.cpu_s:.1f} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-size", type=int, default=32, help="largest size in SU (default 32)")
    parser.add_argument("--min-size", type=int, default=0, help="smallest size in SU")
    parser.add_argument("--only", default="", help="cases whose name contains one of these (a,b)")
    parser.add_argument("--cabling", default=",".join(CABLINGS))
    parser.add_argument(
        "--fabrics", default="/".join(FABRICS), help="fabrics choices, each a generate --fabrics"
    )
    args = parser.parse_args(argv)
    chosen = sorted(
        (
            c
            for c in CASES
            if args.min_size <= c.size_su <= args.max_size
            and any(part in c.name for part in args.only.split(","))
        ),
        key=lambda c: c.size_su,
    )
    jobs = [
        (case, cabling, fabrics)
        for case in chosen
        for cabling in args.cabling.split(",")
        for fabrics in args.fabrics.split("/")
    ]
    print("| case | cabling | fabrics | links | findings | CPU s |\n|---|---|---|---|---|---|")
    audit(CASES[0], "direct", "compute")  # imports once, before the children fork
    context = multiprocessing.get_context("fork")
    with context.Pool(1, maxtasksperchild=1) as pool:
        for row in pool.imap(_in_child, jobs):
            print(format_row(row), flush=True)


if __name__ == "__main__":
    main()
