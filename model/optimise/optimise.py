"""Optimise a design's network-rack placement: restarts, the best design and its report.

:func:`optimise` never touches its input: it works on a copy read from the input's file bytes,
runs ``restarts`` independent annealing runs (seeds ``seed``, ``seed + 1``, ...) through
``run_jobs`` (sequential by default; the command passes Dask), keeps the lowest objective (ties
to the lower seed, so the answer does not depend on which worker finished first) and prices
the result again from scratch for the report: objective terms before and after, the racks
moved (from -> to), the links whose medium changed, and why each hard limit holds.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from model.analysis.optics import tier_strategy
from model.design.design import Design
from model.design.rack_clashes import rack_clashes
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes
from model.generators.optics import SWITCH_TIERS
from model.optimise.explain import explain_moves
from model.optimise.moves import (
    MOVE_SERVERS,
    locked_racks,
    network_racks,
    search_space,
    slide_partners,
)
from model.optimise.objective import TERMS, Pricer
from model.optimise.optics_moves import apply_strategies, tier_options
from model.optimise.optics_search import explain_optics
from model.optimise.search import Progress, restart
from model.optimise.servers import assign_servers, servers_report
from model.plant.physical_plant import rack_power

RunJobs = Callable[[Callable[[dict], dict], list[dict]], list[dict]]
SERVER_MIN_GAIN = 0.001  # share of the start's plant cost a moved server must save


@dataclass
class Result:
    """The optimised design (a copy) and what the report says about it."""

    design: Design
    changed: bool
    sentence: str
    report: dict = field(default_factory=dict)


def _changes(design: Design, best: dict) -> bool:
    """Whether the best run leaves ``design`` (untouched: the start) otherwise: a rack
    elsewhere or a switch tier's optics strategy changed."""
    racks = design.racks
    if any(tuple(p) != (racks[r].x, racks[r].y) for r, p in best["positions"].items()):
        return True
    strategies, current = best.get("optics") or {}, tier_strategy(design)
    return any(t in strategies and strategies[t] != current.get(t) for t in SWITCH_TIERS)


def _sequential(work: Callable[[dict], dict], jobs: list[dict]) -> list[dict]:
    return [work(job) for job in jobs]


def optimise(
    design: Design,
    weights: dict[str, float],
    iterations: int = 500,
    seed: int = 0,
    restarts: int = 1,
    locked: Iterable[str] = (),
    seconds: float | None = None,
    run_jobs: RunJobs = _sequential,
    anywhere: bool = False,
    tiers: Iterable[str] | None = None,
    progress: Progress | None = None,
    data: bytes | None = None,
    swap_compute: bool = False,
    vary_optics: bool = False,
) -> Result:
    """The best placement found (see the module docstring); ``locked``: rack ids or names;
    ``anywhere``: free tiles off the existing rows too (:mod:`model.optimise.moves`);
    ``tiers``: the rack roles that may move (default leaf, spine, core), and ``"servers"``:
    each SU's servers are then placed by :func:`model.optimise.servers.assign_servers` on the
    result (kept only when it lowers the objective, every limit holding); ``progress``: called
    as :func:`model.optimise.search.anneal` says, the restarts then run one after another in
    this process whatever ``run_jobs`` is; ``data``: the design's file bytes when the caller
    already has them (the editor snapshots on its own thread and optimises on a worker);
    ``swap_compute``: a moving rack may also trade places with a compute rack of its size;
    ``vary_optics``: each switch tier's optics strategy is searched too (pluggable, linear,
    co-packaged where its switches support it: :mod:`model.optimise.optics_moves`).
    ``seconds``: each restart's budget, less what this call spent before the runs (the copy
    read here), counted from the restart's own start, so a single run's result comes in about
    ``seconds``; restarts that run one after another take about that each
    (:func:`model.optimise.search.restart`)."""
    began = time.perf_counter()
    data = design_to_bytes(design) if data is None else data
    copy = read_design_bytes(data)
    held = locked_racks(copy, locked)
    tiers = None if tiers is None else tuple(tiers)
    servers = tiers is not None and MOVE_SERVERS in tiers
    if tiers is not None and servers:
        tiers = tuple(t for t in tiers if t != MOVE_SERVERS)
    movable = [r for r in network_racks(copy, tiers) if r not in held]
    free, partners = search_space(copy, movable, held, anywhere, swap_compute)
    optics = tier_options(copy) if vary_optics else None
    may_vary = optics is not None and any(len(o) > 1 for o in optics.options.values())
    slides = slide_partners(copy, movable, held, swap_compute)
    searched = may_vary or any(free[r] or partners[r] or slides[r] for r in movable)
    if not searched and not servers:
        why = (
            "no network rack may move (none, or all locked)"
            if not movable
            else "no network rack has a free floor position or a rack to swap with"
        )
        return Result(copy, False, f"Design unchanged: {why}.")
    budget = None if seconds is None else seconds - (time.perf_counter() - began)
    jobs = [
        {
            "design": data,
            "seed": seed + k,
            "iterations": iterations,
            "weights": dict(weights),
            "locked": sorted(held),
            "seconds": budget,
            "anywhere": anywhere,
            "tiers": tiers,
            "swap_compute": swap_compute,
            "vary_optics": vary_optics,
        }
        for k in range(max(restarts, 1))
    ]
    if not searched:
        # No rack search: the start, as a run that moved nothing would leave it.
        runs: list[dict] = [{"seed": seed, "objective": 0.0, "positions": {}, "optics": None}]
    elif progress is not None:
        runs = []
        for job in jobs:
            runs.append(restart(job, progress))
            if runs[-1]["stopped"]:
                break
    else:
        runs = run_jobs(restart, jobs)
    best = min(runs, key=lambda r: (r["objective"], r["seed"]))
    if not servers and not _changes(copy, best):
        # The run moved nothing: the start, unpriced. Pricing it again from a fresh plant
        # (its route, the pricer's set-up, two pricings and a re-read) was ~6 s CPU at XL,
        # all after the time budget, to reach this sentence: the start breaks no limit
        # (each is the start's or looser) and its objective is not below its own.
        return Result(
            copy, False, "Design unchanged: no feasible move lowers the weighted objective."
        )
    plant = RoutedLinks(copy)
    pricer = Pricer(copy, plant)
    start = {r: (copy.racks[r].x, copy.racks[r].y) for r in copy.racks}
    target = {r: tuple(p) for r, p in best["positions"].items() if tuple(p) != start[r]}
    before_obj = pricer.objective(pricer.start, weights)
    start_optics = tier_strategy(copy)
    tiers_changed = apply_strategies(copy, best.get("optics") or {})
    if tiers_changed:
        pricer.devices_changed()
    copy.move_racks(target)
    changed = plant.refresh()
    after = pricer.price(changed)
    after_obj = pricer.objective(after, weights)
    plan = None
    if servers:
        after, after_obj, plan = _place_servers(copy, plant, pricer, weights, held, after)
    moved_servers = plan.moved if plan is not None else {}
    racks = {copy.devices[s].rack for s in moved_servers} | {
        p[0] for p, _ in moved_servers.values()
    }
    broken = pricer.broken(after, list(target), set(copy.links), racks)
    if (
        (not target and not tiers_changed and not moved_servers)
        or broken is not None
        or after_obj >= before_obj - 1e-12
    ):
        copy.move_racks({r: start[r] for r in target})
        plant.close()
        why = broken or "no feasible move lowers the weighted objective"
        return Result(read_design_bytes(data), False, f"Design unchanged: {why}.")
    report = _report(copy, plant, pricer, after, start, target, (before_obj, after_obj))
    report["why"] = [
        w.to_json() for w in explain_moves(copy, plant, pricer, after, start, target, weights)
    ]
    if optics is not None:
        report["optics"] = {
            "before": start_optics,
            "after": tier_strategy(copy),
            "why": [w.to_json() for w in explain_optics(copy, plant, pricer, after, start_optics)],
            "skipped": list(optics.skipped),
        }
    report["copper_share"] = {
        "before": pricer.copper_share(pricer.start),
        "after": pricer.copper_share(after),
    }
    report["runs"] = runs_summary(runs) if searched else []
    if plan is not None:
        report["servers"] = servers_report(copy, plan)
    plant.close()
    moved = len(target)
    tiers_said = f" and the optics of {len(tiers_changed)} tier(s)" if tiers_changed else ""
    if moved_servers:
        tiers_said += f" and {len(moved_servers)} server(s) within their SU"
    sentence = (
        f"Moved {moved} rack{'s' * (moved != 1)}{tiers_said}:"
        f" objective {before_obj:.4f} -> {after_obj:.4f}"
        f" ({report['terms']['cost_usd']['delta']:+,.0f} USD,"
        f" {report['terms']['optics_power_w']['delta'] / 1000:+.2f} kW typical optics)."
    )
    return Result(copy, True, sentence, report)


def _place_servers(design, plant, pricer, weights, locked, priced):
    """Each SU's servers at their lowest link price, kept when the whole plant prices the
    placement lower (every limit holding): (priced, objective, plan), the plan empty when not
    kept (the servers then stand where they stood)."""
    before = pricer.objective(priced, weights)
    # A floor in dollars per server moved (0.1 % of the start's plant cost, the rack search's
    # floor before it was measured per movable rack): on the generated 4-SU SuperPOD with
    # every fabric, the assignment without it moved 30 servers to save 78 USD.
    move_usd = SERVER_MIN_GAIN * pricer.start.terms["cost_usd"]
    plan = assign_servers(design, plant, locked, move_usd)
    if not plan.moved:
        return priced, before, plan
    pricer.devices_changed()  # each rack's devices and their draw
    after = pricer.price(set(design.links))
    racks = {design.devices[s].rack for s in plan.moved} | {p[0] for p, _ in plan.moved.values()}
    value = pricer.objective(after, weights)
    if pricer.broken(after, [], set(design.links), racks) is None and value < before - 1e-12:
        return after, value, plan
    design.move_devices({s: old for s, (old, _new) in plan.moved.items()})
    plant.refresh()
    pricer.devices_changed()
    plan.moved.clear()
    return pricer.price(set(design.links)), before, plan


def runs_summary(runs: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "positions"} for r in runs]


def _report(design, plant, pricer, after, start, target, objectives) -> dict:
    before = pricer.start
    terms = {
        t: {
            "before": before.terms[t],
            "after": after.terms[t],
            "delta": after.terms[t] - before.terms[t],
        }
        for t in TERMS
    }
    media = [m.id for m in plant.media]
    name = {i: media[i] for i in range(len(media))} | {-1: "none"}
    flips: Counter[tuple[str, str]] = Counter()
    per_rack: Counter[str] = Counter()
    for row in (before.medium_index != after.medium_index).nonzero()[0].tolist():
        flips[(name[int(before.medium_index[row])], name[int(after.medium_index[row])])] += 1
        link = design.links.get(plant.link_ids[row])
        if link is not None:
            for end in (link.a.device, link.b.device):
                rack_id = design.devices[end].rack
                if rack_id in target:
                    per_rack[rack_id] += 1
    moved = [
        {
            "rack": r,
            "name": design.racks[r].name,
            "from": list(start[r]),
            "to": list(target[r]),
            "links_flipped": per_rack[r],
        }
        for r in target
    ]
    return {
        "objective": {"before": objectives[0], "after": objectives[1]},
        "terms": terms,
        "moved": moved,
        "media_flipped": [{"from": a, "to": b, "links": n} for (a, b), n in sorted(flips.items())],
        "limits": limit_sentences(design, plant, pricer, after, list(target)),
    }


def limit_sentences(design, plant, pricer, after, moved: list[str]) -> list[str]:
    """Why each hard limit holds in the optimised design, one sentence each."""
    out = []
    clashes = rack_clashes(design, only=moved)
    out.append(
        f"Placement: the {len(moved)} moved racks clash with nothing ({len(clashes)} clashes)."
    )
    out.append(
        f"Reach: {after.unreached} links without a medium or tray path"
        f" (start: {pricer.start.unreached})."
    )
    power = rack_power(design, plant)
    rack_id, (_t, mx, budget) = max(
        power.items(), key=lambda kv: kv[1][1] / kv[1][2] if kv[1][2] else 0.0
    )
    over = [r for r, (_a, m, b) in power.items() if m > max(b, pricer.start_power[r][1]) + 1e-6]
    out.append(
        f"Rack power at maximum draw: highest {mx / 1000:.1f} of {budget / 1000:.1f} kW"
        f" ({design.racks[rack_id].name}); {len(over)} racks above budget and their start."
    )
    out.append(
        "Rack U: a move changes no rack's devices, so every rack's U use is as at the start."
    )
    fill = after.tray_fill
    if fill:
        tray, ratio = max(fill.items(), key=lambda kv: kv[1])
        out.append(f"Tray fill: highest {ratio:.0%} ({tray}); limit 40 % (or the start's fill).")
    else:
        out.append("Tray fill: the design has no trays.")
    if design.settings.cabling == "direct":
        out.append("Channels: direct cabling, no patch points to check.")
    else:
        out.append(
            f"Channels: {after.channel_breaks} over their loss, patch-point or reach limit"
            f" (start: {pricer.start.channel_breaks})."
        )
    return out
