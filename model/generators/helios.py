"""AMD Helios racks: the plan and devices of 72-GPU UALink domains and their Ultra Ethernet scale-out.

A Helios rack (domain-facts §9, REG-HELIOS, AA-HELIOS) is 18 compute trays of 4 MI455X GPUs and
one EPYC Venice CPU; its scale-up domain is the rack's 72 GPUs on an in-rack UALink spine, which
the first units run as UALink-over-Ethernet on Ethernet switch trays (ATG-UALOE). The catalog
models that spine as 6 switch trays of two 102.4T ASICs, each joined to every compute tray by one
48-lane backplane link (``helios-ualoe-switch-tray``: 72 GPUs x 72 lanes of 200G = 5,184 lanes
need at least 5.06 trays of 1,024; the tray count is an estimate, the sources give none). The
scale-out is a rail-optimized Ultra Ethernet fabric over the trays' 12 Vulcano 800G NICs (3 per
GPU: 300 GB/s per GPU), on Tomahawk-6 switches in their 128 x 800G mode by default, switch counts
at the Clos minimum (:func:`model.generators.plans.clos_spines`).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.catalog.components import Catalog
from model.generators.placement import Segment, Unit
from model.generators.plans import (
    GenerateError,
    check_size,
    leaf_ports,
    require_positive,
    switch_ports,
)
from model.generators.rail_plans import RailPlan, plan_rail_optimized
from model.generators.topology import PortLink, build_rack_scale_units, rail_optimized

HELIOS_TRAY = "helios-compute-tray"
HELIOS_SWITCH_TRAY = "helios-ualoe-switch-tray"
HELIOS_RACK = "rack-helios"
HELIOS_COMPUTE_TRAYS = 18  # AA-HELIOS: 18 trays x (4 GPUs + 1 Venice) = 72 GPUs
HELIOS_SWITCH_TRAYS = 6  # estimate: the fewest two-ASIC trays for 5,184 UALink lanes
MAX_SU_RACKS = 32  # SU sizes tried for the default (a few ms of formulas each)
HELIOS_SWITCH = "tomahawk6-64x1600"  # Broadcom Tomahawk 6, run as 128 x 800G for the Vulcano NICs
# Trays bottom to top: 9 compute, the 6 scale-up switch trays in the middle, 9 compute.
HELIOS_LAYOUT = (
    [("compute", i) for i in range(9)]
    + [("switch", i) for i in range(HELIOS_SWITCH_TRAYS)]
    + [("compute", i) for i in range(9, HELIOS_COMPUTE_TRAYS)]
)


@dataclass(frozen=True)
class HeliosPlan:
    """Helios racks and the rail-optimized plan of their scale-out (one node = one tray)."""

    racks: int
    su_racks: int
    scale_out: RailPlan

    def counts(self) -> dict:
        out = self.scale_out.counts()
        out["helios_racks"] = self.racks
        out["switches"] = {"nvlink-switch": self.racks * HELIOS_SWITCH_TRAYS, **out["switches"]}
        out["links"] = {
            "scale-up": self.racks * HELIOS_COMPUTE_TRAYS * HELIOS_SWITCH_TRAYS,
            **out["links"],
        }
        return out


def plan_helios(
    catalog: Catalog,
    *,
    racks: int,
    switch: str | None = None,
    su_racks: int | None = None,
    tiers: str | int = "auto",
    oversubscription: int = 1,
    reserve_ports: int = 0,
    port_mode: str = "auto",
    planes: int = 1,
) -> HeliosPlan:
    """``racks`` Helios racks; an SU is ``su_racks`` racks (default: the size that builds the
    fewest switches). ``planes`` 4 runs each Vulcano 800G NIC as 4 x 200G, one port a plane,
    each plane its own fabric (with ``port_mode`` 512x200G: Tomahawk 6 as 512 x 200G)."""
    switch = switch or HELIOS_SWITCH
    require_positive(racks, "--racks")
    require_positive(planes, "--planes")
    check_size(racks * HELIOS_COMPUTE_TRAYS * 4)

    def plan(su: int) -> RailPlan:
        return plan_rail_optimized(
            catalog,
            nodes=racks * HELIOS_COMPUTE_TRAYS,
            node_type=HELIOS_TRAY,
            switch=switch,
            su_nodes=su * HELIOS_COMPUTE_TRAYS,
            tiers=tiers,
            oversubscription=oversubscription,
            reserve_ports=reserve_ports,
            planes=planes,
            port_mode=port_mode,
        )

    if su_racks is not None:
        require_positive(su_racks, "--su-racks")
        su_racks = min(su_racks, racks)
        return HeliosPlan(racks, su_racks, plan(su_racks))
    # No SU size is published for Helios: the one that builds the fewest switches (the Clos
    # minimum of the rail-optimized fabric; ties: the larger SU). 4 racks: one SU of 72 trays
    # (2 leaves a rail, 24 leaves, 7 spines), not SUs of 3 racks (24 leaves, 11 spines).
    leaf = switch_ports(catalog, switch, _nic_speed(catalog) / planes, port_mode=port_mode)
    _, down = leaf_ports(leaf.radix, oversubscription, reserve_ports)
    most = min(racks, MAX_SU_RACKS, max(1, leaf.radix * down // HELIOS_COMPUTE_TRAYS))
    plans = [(plan(su), su) for su in range(1, most + 1)]
    best, su_racks = min(plans, key=lambda ps: (_switches(ps[0]), -ps[1]))
    return HeliosPlan(racks, su_racks, best)


def _switches(plan: RailPlan) -> int:
    return plan.leaves + plan.total_spines + plan.cores


def _nic_speed(catalog: Catalog) -> float:
    tray = catalog.device_types.get(HELIOS_TRAY)
    nic = tray.port_group("nic") if tray else None
    if nic is None:
        raise GenerateError(f"the catalog has no {HELIOS_TRAY!r} with its NICs")
    return nic.speed_gbps


def helios(catalog: Catalog, plan: HeliosPlan) -> tuple[list[Segment], list[list[PortLink]]]:
    """Helios racks (18 compute trays x 6 scale-up switch trays, all-to-all on the rack's
    UALink spine) plus the rail-optimized scale-out over the trays' Vulcano NICs."""
    so = plan.scale_out
    wr = max(2, len(str(plan.racks)))
    tray_t = catalog.device_types[HELIOS_TRAY]
    tray_split = dict(so.node.breakout or {})  # multi-plane: each NIC split across the planes
    switch_t = catalog.device_types[HELIOS_SWITCH_TRAY]
    scale_up: list[PortLink] = []

    def tray_name(s: int, j: int) -> str:
        g = s * so.su_nodes + j
        return (
            f"helios{g // HELIOS_COMPUTE_TRAYS + 1:0{wr}d}-tray{g % HELIOS_COMPUTE_TRAYS + 1:02d}"
        )

    def make_units(ids: list[str]) -> list[Unit]:
        return build_rack_scale_units(
            ids, HELIOS_COMPUTE_TRAYS, ("ualsw", HELIOS_SWITCH_TRAYS), HELIOS_LAYOUT,
            (tray_t, switch_t), tray_split, "ual", scale_up,
        )  # fmt: skip

    segments, tiers = rail_optimized(catalog, so, tray_name, make_units)
    for seg in segments:
        if seg.units:
            seg.server_rack_type = tray_t.rack_type or HELIOS_RACK
            seg.units_per_rack = 1
    return segments, [scale_up, *tiers]
