"""Tier membership for per-tier views: which tier (leaf, spine, core, tier4 …, scale-up) each
link and each switch is in, from the analysis's topology (graph distance, not typed roles).

The rules, written down:

* A switch is in the tier of its level (:func:`model.analysis.topology.tier_name`: 1 leaf,
  2 spine, 3 core, …); an NVLink switch is in ``scale-up``. A switch the compute topology does
  not reach (a storage or management switch, one not cabled yet) is in no tier.
* A compute link is in the tier of its upper end: a server-to-leaf cable is in the leaf tier
  (it is the leaf's downlink), a leaf-to-spine cable in the spine tier, a cable between two
  switches of one level in that level's tier. A link with a scale-up port is in ``scale-up``.
  Storage, in-band and management links are in no tier (the fabric layers cover them).
* A rack is in the tiers of the switches it holds (servers are in none).

Hiding a tier therefore hides the switches of that level and the cables that reach them from
below, which is how an architect reads "the spine layer".
"""

from __future__ import annotations

import numpy as np

from model.analysis.topology import (
    LINK_COMPUTE,
    LINK_SCALE_UP,
    TIER_NAMES,
    infer_topology,
    tier_name,
)
from model.design.design import Design
from model.design.fabrics import SWITCH_CATEGORIES

SCALE_UP = "scale-up"
TIERS = (*TIER_NAMES.values(), SCALE_UP)  # the tiers every editor lists; tier4 … when present
TIER_LABELS = {
    "leaf": "Leaf",
    "spine": "Spine",
    "core": "Core",
    SCALE_UP: "Scale-up (NVLink, UALink)",
}


def tier_label(tier: str) -> str:
    return TIER_LABELS.get(tier, tier.replace("tier", "Tier "))


def tier_order(tier: str) -> tuple[int, str]:
    """Sort key: leaf, spine, core, tier4 …, then scale-up."""
    if tier == SCALE_UP:
        return (10_000, tier)
    levels = {name: level for level, name in TIER_NAMES.items()}
    if tier in levels:
        return (levels[tier], tier)
    digits = tier.removeprefix("tier")
    return (int(digits) if digits.isdigit() else 9_999, tier)


def tier_membership(design: Design) -> tuple[dict[str, str], dict[str, str]]:
    """(link id -> tier, switch id -> tier) for the links and switches in a tier (the rules
    above); anything in no tier is left out of both maps."""
    topo = infer_topology(design)
    level = topo.level
    types = design.catalog.device_types
    switch_tier: dict[str, str] = {}
    for i, device_id in enumerate(topo.device_ids):
        device = design.devices[device_id]
        category = types[device.type].category
        if category not in SWITCH_CATEGORIES:
            continue
        if category == "nvlink-switch" or device.role == "nvlink-switch":
            switch_tier[device_id] = SCALE_UP
        elif level[i] >= 1:
            switch_tier[device_id] = tier_name(int(level[i]))
    link_tier: dict[str, str] = {}
    if topo.link_ids:
        la, lb = level[topo.a], level[topo.b]
        lo, hi = np.minimum(la, lb), np.maximum(la, lb)
        compute = (topo.kind == LINK_COMPUTE) & (lo >= 0) & (hi >= 1)
        names = {int(h): tier_name(int(h)) for h in np.unique(hi[compute]).tolist()}
        for r in np.flatnonzero(compute).tolist():
            link_tier[topo.link_ids[r]] = names[int(hi[r])]
        for r in np.flatnonzero(topo.kind == LINK_SCALE_UP).tolist():
            link_tier[topo.link_ids[r]] = SCALE_UP
    return link_tier, switch_tier


def rack_tiers(design: Design, switch_tier: dict[str, str]) -> dict[str, set[str]]:
    """Rack id -> the tiers of the switches it holds (racks with none are left out)."""
    racks: dict[str, set[str]] = {}
    for device_id, tier in switch_tier.items():
        racks.setdefault(design.devices[device_id].rack, set()).add(tier)
    return racks
