"""Simulated annealing over network-rack positions, priced by the editor's incremental plant.

Each candidate is one edit through the design's edit API (``Design.move_racks``: a rack to a free
position, two racks of one plan size swapping places, or a rack sliding along its row past a
rack it is cabled to: :func:`model.optimise.moves.slide_partners`); ``RoutedLinks.refresh()`` re-routes only
the moved racks' links, the plant and forecast are priced from the cached counts, and a
rejected or infeasible move is undone by moving back: the plant's rows are put back as saved
before the move (:mod:`model.engine.move_undo`), and for a move refused at its tray fill (most
of them at XL) the pricer's tray fill and link totals too (``Pricer.take_back``); otherwise
the caches recount the difference at the next pricing. Deterministic for a seed without a time budget: the random stream is the
only choice, iteration order is fixed. Temperature and the floor of a kept move are measured in
one movable rack's share of the objective (:func:`rack_share`). Independent restarts (seed, seed+1, ...) are pure top-level jobs (:func:`restart`)
that any executor can run; the command runs them on Dask as ``sweep`` does.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from model.analysis.optics import tier_strategy
from model.design.design import Design
from model.engine.move_undo import checkpoint, restore
from model.engine.routed_links import RoutedLinks
from model.optimise.clash_index import ClashIndex
from model.optimise.moves import (
    Position,
    locked_racks,
    move_groups,
    network_racks,
    plan_sizes,
    search_space,
    slide_partners,
)
from model.optimise.objective import Priced, Pricer
from model.optimise.optics_moves import tier_options
from model.optimise.optics_search import OpticsStep, descend_optics

# Temperature and the floor below are shares of one movable rack's share of the starting
# objective (the objective over the movable racks' count), not of the whole hall's: each term
# is normalised by the start's, so the objective is ~4.65 in any hall, while a move re-cables
# only the links of the racks it moves: in a hall 16 times larger the same move is a 16 times
# smaller share. As shares of the whole hall, the generated L hall's best candidates (-0.008,
# a spine-core swap saving $110k) sat far below the temperature (0.02: the walk drifted
# uphill and never beat the start in 300 moves) and below the floor (0.0047 per rack moved,
# ~$200k a rack).
# Temperature: a move worse by 2 % of a rack's share is taken with probability 1/e at the
# start, by 0.05 % at the end (geometric cooling between).
T_START, T_END = 0.02, 0.0005
SWAP_SHARE = 0.3  # share of candidates that swap two racks instead of moving one
# Share of candidates, for a rack with a rack to slide past (:func:`slide_partners`), that
# trade places with one: drawn before the swap, so a hall without slides keeps its stream.
SLIDE_SHARE = 0.3
# A kept move must buy at least this share of a movable rack's share of the starting objective
# per rack it moves: a swap chain that shuffles eight compute racks to save 0.3 % of the fibre
# bill is noise an architect would not redraw the hall for (seen on the bundled 4-SU
# SuperPOD, 5 movable racks, before this floor).
MIN_GAIN_PER_RACK = 0.005
# What a timed run keeps of its budget for after its loop (optimise()'s restarts: ``anneal``'s
# ``reserve``): FINISH_SHARE of its set-up (the design read, first route and the pricer's
# set-up; optimise() then routes and prices a fresh plant of the start again) and, per rack
# the best state moves, PUT_BACK_ITERATIONS of the loop's mean iteration (the put back tries
# each moved rack, and again after each trade taken; the report explains each). XL 60 s
# --swap-compute runs (opt15, load 7-9, 2 cores), set-up 6-8 s wall, 15-20 ms an iteration:
# put back 4.3 s wall for 189 racks moved, 6 s for 276; optimise()'s finish 7.5-9 s
# (~the set-up and 0.1 s per rack it keeps moved). With these shares the run ended in
# 53 s; with the set-up's share alone (1.0) in 78 s, with none 104 s (opt14).
FINISH_SHARE = 1.0
PUT_BACK_ITERATIONS = 3
PROGRESS_EVERY = 10  # iterations between progress reports (and on every new best)

# Called with the run's progress (see :func:`anneal`); returning False stops the run, which
# then ends at its best state so far, as it would at the end of its iterations.
Progress = Callable[[dict], bool]


@dataclass
class Run:
    """What one annealing run found."""

    seed: int
    objective: float
    positions: dict[str, Position]  # best state: every rack's centre
    iterations: int
    feasible: int
    accepted: int
    seconds: float
    stopped: bool = False  # ended because ``progress`` said stop
    optics: dict[str, str] | None = None  # each switch tier's strategy (``vary_optics`` only)


def _candidate(rng, design, movable, free, partners, slides) -> dict[str, Position] | None:
    rack_id = rng.choice(movable)
    rack = design.racks[rack_id]
    if slides[rack_id] and rng.random() < SLIDE_SHARE:
        other = design.racks[rng.choice(slides[rack_id])]
        # Only along the row they share now: a leaf swapped into another row would otherwise
        # send one of its servers to that row (seen at XL: a compute rack moved 29 m).
        along_x = rack.rotation in (0, 180)
        here, there = (rack.y, other.y) if along_x else (rack.x, other.x)
        if round(here, 6) != round(there, 6):
            return None
        return {rack_id: (other.x, other.y), other.id: (rack.x, rack.y)}
    if partners[rack_id] and rng.random() < SWAP_SHARE:
        other = design.racks[rng.choice(partners[rack_id])]
        return {rack_id: (other.x, other.y), other.id: (rack.x, rack.y)}
    if not free[rack_id]:
        return None
    place = rng.choice(free[rack_id])
    return None if place == (rack.x, rack.y) else {rack_id: place}


class _Shown:
    """The best state's copper share and moved racks as progress reports them, made once per
    new best: reported every PROGRESS_EVERY iterations, the share's pass over every link was
    ~3.5 ms at XL (~0.35 ms of each iteration of a run with a progress callback)."""

    def __init__(self, pricer: Pricer) -> None:
        self.pricer = pricer
        self.priced: Priced | None = None
        self.places: dict[str, Position] | None = None
        self.share = 0.0
        self.moved: list[str] = []

    def figures(self, priced: Priced, places: dict[str, Position]) -> tuple[float, list[str]]:
        """(copper share, moved racks sorted) of the best state: ``priced`` and ``places``,
        each replaced, never changed in place, by a new best."""
        if self.priced is not priced:
            self.priced, self.share = priced, self.pricer.copper_share(priced)
        if self.places is not places:
            start = self.pricer.start_places
            self.places = places
            self.moved = sorted(r for r, p in places.items() if p != start[r])
        return self.share, list(self.moved)


class _Budget:
    """When a timed loop ends: ``seconds`` after ``t0`` less, with ``reserve``, what follows
    the loop is expected to take (``FINISH_SHARE`` of the set-up, ``PUT_BACK_ITERATIONS`` mean
    iterations per rack the best state moves: ``moved``, kept by the loop)."""

    def __init__(self, seconds: float | None, t0: float, reserve: bool) -> None:
        self.seconds, self.t0, self.reserve = seconds, t0, reserve
        self.setup = time.perf_counter() - t0  # made when the loop is about to start
        self.limit = None if seconds is None else seconds - reserve * FINISH_SHARE * self.setup
        self.moved = 0
        self.counts_moved = reserve and seconds is not None  # the loop keeps ``moved``

    def over(self, i: int) -> bool:
        """Whether the loop ends before iteration ``i`` (``i`` iterations made)."""
        if self.seconds is None:
            return False
        elapsed = time.perf_counter() - self.t0
        if self.reserve and i:
            each = (elapsed - self.setup) / i
            kept = FINISH_SHARE * self.setup + PUT_BACK_ITERATIONS * self.moved * each
            self.limit = self.seconds - kept
        return elapsed > (self.limit or 0.0)


def rack_share(start_value: float, movable: int) -> float:
    """One movable rack's share of the starting objective: the unit of the run's temperature
    and of its floor per moved rack."""
    return abs(start_value) / max(movable, 1)


def _temperature(i: int, iterations: int, elapsed_s: float, seconds: float | None) -> float:
    """The share of a rack's share at which a worse move is taken with probability 1/e: cooled
    over the iterations, or over the time budget when that ends the run first (a timed run
    given a large iteration count would otherwise never cool)."""
    done = i / max(iterations - 1, 1)
    if seconds is not None:
        done = min(max(done, elapsed_s / seconds), 1.0)
    return T_START * (T_END / T_START) ** done


def _tried(
    design, plant, pricer, weights, moves: dict[str, Position]
) -> tuple[float | None, tuple]:
    """Make ``moves`` (clash-checked by the caller against the kept index) and price them as
    the loop prices a candidate: routed with the media left unchosen, refused at the tray
    fill before the plant is counted, ``broken`` not asked the clash again. (The objective,
    what :func:`_undo` takes to move them back) when every limit holds (the moves stay), and
    (None, ()) otherwise (undone as the loop undoes a refused move: the plant's rows and the
    pricer's fill put back). Counted and routed back
    in full, as the put back did before, a try was ~20 ms CPU at XL (a 60 s run's put back of
    64 moved racks took 18 s wall on the loaded machine)."""
    back = {r: (design.racks[r].x, design.racks[r].y) for r in moves}
    saved, mark = checkpoint(plant, list(moves)), pricer.mark()
    design.move_racks(moves)
    changed = plant.refresh(defer_media=True)
    priced = pricer.price(changed, stop_at_fill=True)
    if pricer.broken(priced, [], changed) is None:
        return pricer.objective(priced, weights), (back, saved, mark)
    _undo(design, plant, pricer, back, saved, mark)
    return None, ()


def _undo(design, plant, pricer, back, saved, mark) -> None:
    """Move back what :func:`_tried` moved: the plant's rows put back as saved (and the
    pricer's fill and totals, :meth:`Pricer.take_back`), else routed back at the next
    refresh, as the loop undoes a move."""
    design.move_racks(back)
    if saved is not None and restore(plant, saved):
        pricer.take_back(mark)


def _put_back(
    design,
    plant,
    pricer,
    weights,
    start: dict[str, Position],
    best: float,
    index: ClashIndex,
    floor: float,
    slides: dict[str, list[str]],
) -> float:
    """Move each moved rack back to its start, one at a time, where that costs nothing (the
    objective no higher, every limit holding): annealing also keeps moves that gain nothing,
    and an architect should not move a rack for no gain. Then each group of racks that took
    each other's places goes back together unless it buys ``MIN_GAIN_PER_RACK`` of the start's
    objective per rack (``floor``: that gain, in objective units) it counts (:func:`_counted`).
    Each try is priced and undone as the loop's candidates are (:func:`_tried`). Leaves the
    design refreshed."""
    plant.refresh()
    for rack_id in sorted(start):
        here = (design.racks[rack_id].x, design.racks[rack_id].y)
        if here == start[rack_id] or index.clashes({rack_id: start[rack_id]}):
            continue
        value, undo = _tried(design, plant, pricer, weights, {rack_id: start[rack_id]})
        if value is not None and value <= best + 1e-12:
            best = value
        elif value is not None:
            _undo(design, plant, pricer, *undo)
    best = _home_displaced(design, plant, pricer, weights, start, best, index, set(slides))
    target = {
        r: (design.racks[r].x, design.racks[r].y)
        for r in start
        if (design.racks[r].x, design.racks[r].y) != start[r]
    }
    for group in move_groups(start, target, plan_sizes(design, target)):
        back = {r: start[r] for r in group}
        if index.clashes(back):
            continue
        value, undo = _tried(design, plant, pricer, weights, back)
        if value is not None and value <= best + floor * _counted(group, slides, start, target):
            best = value
        elif value is not None:
            _undo(design, plant, pricer, *undo)
    plant.refresh()
    return best


def _home_displaced(design, plant, pricer, weights, start, best, index, placed: set[str]):
    """Send home each moved rack the search did not place (a compute rack moved by a slide or
    a swap) by trading places with the rack that now stands on its start, where that costs
    nothing and breaks no limit: a chain of slides displaces server racks whose own moves buy
    nothing (a leaf two slots on, past two servers, where one slide gains the same). Repeated
    until no such trade is taken; returns the objective."""
    taken = True
    while taken:
        taken = False
        at = {(design.racks[r].x, design.racks[r].y): r for r in start}
        for rack_id in sorted(start):
            here = (design.racks[rack_id].x, design.racks[rack_id].y)
            other = at.get(start[rack_id])
            if rack_id in placed or here == start[rack_id] or other in (None, rack_id):
                continue
            trade = {rack_id: start[rack_id], other: here}
            if index.clashes(trade):
                continue
            value, undo = _tried(design, plant, pricer, weights, trade)
            if value is not None and value <= best + 1e-12:
                best, taken = value, True
                # The two racks traded places: the rest of the hall stands where it stood.
                at[start[rack_id]], at[here] = rack_id, other
            elif value is not None:
                _undo(design, plant, pricer, *undo)
    return best


def _counted(
    group: list[str],
    slides: dict[str, list[str]],
    start: dict[str, Position],
    target: dict[str, Position],
) -> int:
    """Racks of a moved group the floor counts: every one but a rack that only made way for a
    rack it is cabled to, standing now where that rack stood (a slide partner in the slider's
    old place: the servers' rack a leaf slid past keeps its cables to the leaf, the other half
    of one rack's slide, not a rack redrawn for its own sake). One rack per slider: a chain of
    slides that displaced more server racks counts them, so it must buy their share too.
    Counted per rack, the XL hall's end leaf sliding one slot to bring 40 spine links under
    the SR4 reach (-$18,608, -40 W) was 0.61 of the floor and put back."""
    made_way = {
        o
        for r in group
        for o in slides.get(r, ())
        if o in target and o != r and target[o] == start[r]
    }
    return max(sum(r not in made_way for r in group), 1)


def anneal(
    design: Design,
    plant: RoutedLinks,
    weights: dict[str, float],
    iterations: int,
    seed: int,
    locked: set[str],
    seconds: float | None = None,
    anywhere: bool = False,
    tiers: tuple[str, ...] | None = None,
    progress: Progress | None = None,
    swap_compute: bool = False,
    vary_optics: bool = False,
    started: float | None = None,
    reserve: bool = False,
) -> Run:
    """Anneal ``design`` in place (left at its best state); stops after ``iterations`` or
    ``seconds``, whichever comes first, or when ``progress`` returns False (a timed run cools
    over whichever of the two is further along, so only an untimed run repeats exactly for a
    seed: a timed one already stopped where the clock said); ``anywhere``: free
    tiles off the rows too; ``tiers``: the rack roles that may move (default: switch tiers).

    ``progress`` gets ``{"seed", "iteration", "iterations", "best", "terms", "copper_share",
    "moved"}`` every ``PROGRESS_EVERY`` iterations and at each new best: the best state's
    objective, its terms, its share of links on copper and the racks it moves.

    ``vary_optics``: each switch tier's optics strategy is searched too
    (:func:`model.optimise.optics_search.descend_optics`), before the rack moves and again
    after them.

    ``started``: the ``time.perf_counter()`` the budget counts from (default: now; a restart
    counts its design's read and first route too); ``reserve``: the loop leaves of ``seconds``
    what follows it is expected to take (the put back here, the caller's pricing and report:
    ``FINISH_SHARE`` of the set-up, from ``started`` to the first move, and
    ``PUT_BACK_ITERATIONS`` mean iterations per rack the best state moves)."""
    t0 = time.perf_counter() if started is None else started
    pricer = Pricer(design, plant)
    index = ClashIndex(design)  # follows the moves below; closed once the run is put back
    movable = [r for r in network_racks(design, tiers) if r not in locked]
    free, partners = search_space(design, movable, locked, anywhere, swap_compute)
    slides = slide_partners(design, movable, locked, swap_compute)
    rng = random.Random(seed)
    current = best = pricer.objective(pricer.start, weights)
    unit = rack_share(current, len(movable))
    best_places = {r: (design.racks[r].x, design.racks[r].y) for r in design.racks}
    feasible = accepted = done = 0
    best_priced = pricer.start
    stopped = False
    optics = tier_options(design).options if vary_optics else {}
    if optics:
        step = descend_optics(design, plant, pricer, weights, optics, OpticsStep(best, best_priced))
        current = best = step.value
        best_priced = step.priced

    shown = _Shown(pricer)

    def report(i: int) -> bool:
        if progress is None:
            return True
        share, moved = shown.figures(best_priced, best_places)
        return progress(
            {
                "seed": seed,
                "iteration": i,
                "iterations": iterations,
                "best": best,
                "terms": dict(best_priced.terms),
                "copper_share": share,
                "moved": moved,
            }
        )

    budget = _Budget(seconds, t0, reserve)
    for i in range(iterations if movable else 0):
        if budget.over(i):
            break
        if i % PROGRESS_EVERY == 0 and not report(i):
            stopped = True
            break
        done += 1
        moves = _candidate(rng, design, movable, free, partners, slides)
        if moves is None:
            continue
        if index.clashes(moves):
            continue  # checked before the edit: a clashing place is never priced
        back = {r: (design.racks[r].x, design.racks[r].y) for r in moves}
        saved, mark = checkpoint(plant, list(moves)), pricer.mark()
        design.move_racks(moves)
        # Routed with its media left unchosen: most XL candidates fill a tray past 40 % with
        # even the thinnest cables their links could take, refused before the media choice.
        changed = plant.refresh(defer_media=True)
        # A candidate that fills a tray past its limit is refused before its plant is counted
        # (most of them at XL): the same decision. broken()'s sentence may differ from a whole
        # pricing's (a fill with the thinnest cables, maybe another tray): only None is read here.
        priced = pricer.price(changed, stop_at_fill=True)
        # The footprints were clash-checked above (the same check ``broken`` makes of the
        # racks it is given): asked again it would be a second ~5 ms walk of the hall at L.
        ok = pricer.broken(priced, [], changed) is None
        value = pricer.objective(priced, weights) if ok else math.inf
        temp = unit * _temperature(i, iterations, time.perf_counter() - t0, budget.limit)
        feasible += ok
        if ok and (value <= current or rng.random() < math.exp(-(value - current) / temp)):
            accepted += 1
            current = value
            if value < best - 1e-12:
                best, best_priced = value, priced
                best_places = {r: (design.racks[r].x, design.racks[r].y) for r in design.racks}
                if budget.counts_moved:
                    budget.moved = sum(p != pricer.start_places[r] for r, p in best_places.items())
                if not report(i + 1):
                    stopped = True
                    break
        else:
            # Undone by moving back; the plant's rows are put back as saved, and when refused
            # at its tray fill, the pricer's tray fill and link totals too (take_back);
            # otherwise the pricer heard the move back and compares those racks' rows at the
            # next pricing. Without a checkpoint the next refresh routes them back.
            design.move_racks(back)
            if saved is not None and restore(plant, saved):
                pricer.take_back(mark)
    design.move_racks(best_places)
    floor = MIN_GAIN_PER_RACK * unit
    start = dict(pricer.start_places)
    best = _put_back(design, plant, pricer, weights, start, best, index, floor, slides)
    index.close()
    if optics:
        best = descend_optics(
            design, plant, pricer, weights, optics, OpticsStep(best, best_priced)
        ).value
    best_places = {r: (design.racks[r].x, design.racks[r].y) for r in design.racks}
    seconds_used = time.perf_counter() - t0
    run = Run(seed, best, best_places, done, feasible, accepted, seconds_used, stopped)
    run.optics = tier_strategy(design) if vary_optics else None
    return run


def restart(job: dict, progress: Progress | None = None) -> dict:
    """One independent run on a fresh copy of the design (a pure, picklable Dask job):
    ``job`` holds ``design`` (file bytes), ``seed``, ``iterations``, ``weights``, ``locked``,
    ``seconds``, ``anywhere``, ``tiers``, ``swap_compute``, ``vary_optics``; returns the run's fields. ``progress``: see
    :func:`anneal` (in-process runs only: a callback does not cross to a Dask worker). A
    budget (``seconds``) counts from here and keeps time for after the loop (:func:`anneal`'s
    ``reserve``)."""
    from model.files.design_file import read_design_bytes

    began = time.perf_counter()

    design = read_design_bytes(job["design"])
    plant = RoutedLinks(design)
    locked = locked_racks(design, job.get("locked", ()))
    run = anneal(
        design,
        plant,
        job["weights"],
        job["iterations"],
        job["seed"],
        locked,
        job.get("seconds"),
        job.get("anywhere", False),
        job.get("tiers"),
        progress,
        job.get("swap_compute", False),
        job.get("vary_optics", False),
        started=began,
        reserve=True,
    )
    plant.close()
    return {
        "seed": run.seed,
        "objective": run.objective,
        "positions": run.positions,
        "iterations": run.iterations,
        "feasible": run.feasible,
        "accepted": run.accepted,
        "seconds": run.seconds,
        "stopped": run.stopped,
        "optics": run.optics,
    }
