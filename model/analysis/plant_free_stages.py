"""The analyzer's stages that read the design alone, never its cable plant, computed in one go.

Why apart: ``main.py analyze`` computes the plant-free figures (:mod:`model.analysis.plant_free`)
in a forked child on the second core while this process routes the links. The analyzer's other
plant-free stages (bandwidth, hops, device figures and findings, entry checks, rack clashes,
fabric shapes, hall counts, NIC modes, topology findings: ~0.14 s of CPU at XL with every
network) read the same topology the child infers anyway, so the child computes them too and
the parent's critical path after routing is that much shorter. They are the same functions on
the same design, so they give what the analyzer gives itself (a few kB to pickle back; the
topology, ~44 MB pickled, is inferred again here instead: cheaper than reading it back).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis import warnings as warn
from model.analysis.bandwidth import Bandwidth, bandwidth
from model.analysis.devices import DeviceFigures, device_figures
from model.analysis.entry_checks import entry_findings
from model.analysis.fabrics import FabricShape, fabric_shapes
from model.analysis.hops import Hops, server_hops
from model.analysis.nic_modes import nic_mode_findings
from model.analysis.reliability import hall_counts
from model.analysis.topology import Topology
from model.common.findings import Finding
from model.design.design import Design
from model.design.rack_clashes import Clash, rack_clashes


@dataclass(frozen=True)
class PlantFreeStages:
    """What the analyzer's topology, device, entry and placement stages (and the figures it
    keeps per topology) compute for a design, when no edit has followed."""

    groups: dict[int, np.ndarray]  # plant_free.switch_groups of the topology
    bandwidth: Bandwidth
    hops: Hops
    devices: DeviceFigures
    rack_u_findings: list[Finding]
    entry_findings: list[Finding]
    clashes: list[Clash]
    placement_findings: list[Finding]
    fabric_shapes: list[FabricShape]
    hall_counts: dict[str, int]
    nic_mode_findings: list[Finding]
    topology_findings: list[Finding]  # at the design's oversubscription target


def plant_free_stages(
    design: Design, topo: Topology, groups: dict[int, np.ndarray]
) -> PlantFreeStages:
    """The stages of ``design`` as it is now, ``topo`` its topology and ``groups`` its switch
    groups (the calls the analyzer makes, with the same arguments)."""
    bw = bandwidth(design, topo, groups)
    clashes = rack_clashes(design)
    return PlantFreeStages(
        groups=groups,
        bandwidth=bw,
        hops=server_hops(topo, groups),
        devices=device_figures(design),
        rack_u_findings=warn.rack_u_findings(design),
        entry_findings=entry_findings(design),
        clashes=clashes,
        placement_findings=warn.placement_findings(design, clashes),
        fabric_shapes=fabric_shapes(design, topo),
        hall_counts=hall_counts(design, topo),
        nic_mode_findings=nic_mode_findings(design),
        topology_findings=warn.topology_findings(design, topo, bw.switch_ratio),
    )
