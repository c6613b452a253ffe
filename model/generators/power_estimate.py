"""What a generator's request will draw, estimated from its plan's counts before anything is
built (the wizard's and ``preview``'s figure; the analysis of the built design is the real one)."""

from __future__ import annotations

from model.catalog.components import OPTICAL_KINDS, Catalog
from model.generators import helios as helios_racks
from model.generators import plans

NVL72_NODE_TYPE = "gb200-compute-tray"
NVL72_SWITCH_TYPE = "gb200-nvlink-switch-tray"


def power_estimate(catalog: Catalog, template: str, params: dict, counts: dict) -> dict:
    """What the fabric will draw, before it is built (an estimate; the analysis of the built
    design is the figure). ``device_power_w``: typical draw of the nodes and switches counted,
    None when a type is not named. ``optics_at_most``: 2 modules per fabric link (an upper
    bound: short links may be copper). ``power_estimate_w``: devices plus that many modules at
    the median per-end power of the catalog's optics."""
    types = catalog.device_types
    switch = params.get("switch")
    node_type = params.get("node_type") or ""
    if template == "nvl72":
        node_type, default_switch = plans.NVL72_PLATFORMS.get(
            params.get("platform", "gb200"), (NVL72_NODE_TYPE, None)
        )
        if (params.get("planes") or 1) > 1:
            default_switch = plans.MULTI_PLANE_SWITCH
        switch = switch or default_switch
    if template == "helios":
        node_type = helios_racks.HELIOS_TRAY
        switch = switch or helios_racks.HELIOS_SWITCH
    node = types.get(node_type)
    leaf = types.get(switch or "")
    spine = types.get(params.get("spine_switch") or "") or leaf
    fabric_links = sum(n for tier, n in counts["links"].items() if tier != "scale-up")
    optics = 2 * fabric_links
    out = {"optics_at_most": optics, "device_power_w": None, "power_estimate_w": None}
    if node is None or leaf is None:
        return out
    device_w = counts["nodes"] * node.power_typical_w
    for tier, n in counts["switches"].items():
        tray = plans.NVL72_SWITCH_TRAY_OF.get(node_type, NVL72_SWITCH_TYPE)
        dtype = {"leaf": leaf, "nvlink-switch": types.get(tray)}.get(tier, spine)
        device_w += n * (dtype.power_typical_w if dtype else 0.0)
    per_end = sorted(
        m.power_per_end_w
        for m in catalog.media_types.values()
        if m.kind in OPTICAL_KINDS and m.power_per_end_w > 0
    )
    optic_w = per_end[len(per_end) // 2] if per_end else 0.0
    out["device_power_w"] = device_w
    out["power_estimate_w"] = device_w + optics * optic_w
    return out
