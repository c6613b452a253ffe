"""The report's figures that read no cable plant: the collectives and the bisection.

Why apart: at XL they are ~0.6 s of CPU (the collectives' curves ~0.4 s, the balanced cuts
~0.2 s) that depend only on the design's devices, links, racks and settings, never on routes
or media. ``main.py analyze`` computes them in a forked child on the second core
(:mod:`model.runtime.forked_call`) while this process routes the links and builds the
physical plant, and hands them to :func:`model.analysis.analyzer.analyze`, which uses them in
place of computing them again: the same functions on the same design give the same figures.
The child also computes the analyzer's cheaper plant-free stages
(:mod:`model.analysis.plant_free_stages`), taken at the start of the analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.allreduce import CollectiveFigures, collective_figures
from model.analysis.bisection import Bisection
from model.analysis.collectives import Collectives
from model.analysis.min_cut import MinCut
from model.analysis.plant_free_stages import PlantFreeStages, plant_free_stages
from model.analysis.topology import LINK_COMPUTE, Topology, components, infer_topology


@dataclass(frozen=True)
class PlantFreeFigures:
    """The collective figures (for the settings ``settings_key``), the bisection and the
    analyzer's other plant-free stages of the design ``state`` names (:func:`design_state`)."""

    collectives: CollectiveFigures | None  # None: no GPUs
    settings_key: tuple
    bisection: Bisection
    state: tuple[int, int]
    stages: PlantFreeStages | None = None  # None: the analyzer computes its own


def design_state(design) -> tuple[int, int]:
    """Which design, at which edit, figures were computed for: the object's identity (a forked
    child's copy keeps its parent's address) and its revision (every edit bumps it). Figures of
    another state are not the design's: the bisection reads the racks' places."""
    return id(design), design.revision


def collective_settings_key(settings) -> tuple:
    """The settings the collective figures read."""
    key = (settings.allreduce_message_mb, settings.allreduce_algorithm, settings.job_placement)
    return key + (settings.pxn, settings.routing)


def switch_groups(topo: Topology) -> dict[int, np.ndarray]:
    """Per level L >= 2, the component label of each device in the compute fabric's switches
    of levels 1..L (what the bandwidth, hops, collectives and cuts share)."""
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    a, b = topo.a[compute], topo.b[compute]
    return {
        level: components(n, a, b, (topo.level >= 1) & (topo.level <= level))
        for level in range(2, topo.top_level() + 1)
    }


def usable_figures(free: PlantFreeFigures | None, design) -> PlantFreeFigures | None:
    """``free`` when computed for ``design`` as it is now; None (compute them here) when they
    are another design's, or this one's before an edit."""
    return free if free is not None and free.state == design_state(design) else None


def plant_free_figures(design, topo: Topology | None = None) -> PlantFreeFigures:
    """The figures and stages as the analyzer computes them for ``design`` as it is now.
    ``topo``: ``infer_topology(design)`` of the design as it is now, if the caller made it
    already (``main.py analyze`` infers it once for this child and its own analysis)."""
    settings = design.settings
    topo = topo if topo is not None else infer_topology(design)
    groups = switch_groups(topo)
    coll = Collectives(design, topo, groups=groups)
    coll = coll.with_pxn(settings.pxn == "on").with_routing(settings.routing)
    figures = collective_figures(coll, settings)
    bisection = MinCut(topo, switch_groups=groups).bisection(design)
    key = collective_settings_key(settings)
    stages = plant_free_stages(design, topo, groups)
    return PlantFreeFigures(figures, key, bisection, design_state(design), stages)
