"""Optics figures of a design: modules or laser sources, fibres, watts, lasers and cost, per tier.

What the optics strategy (``Settings.optics_strategy``, issue 39) changes, so that pluggable
(DSP), linear (LPO) and co-packaged (CPO) designs can be set side by side:

* per switch tier (and the GPU servers): the plugs in its devices' used cages by how they make
  light (DSP modules, linear modules, co-packaged ports), their watts (typical and max), their
  lasers and their price, and the tier's external laser sources (per co-packaged switch);
* for the whole design: the same summed, plus the fibres (a co-packaged port still takes one),
  and per GPU: optics watts, lasers and optics cost.

Lasers of a module = lasers per port of its medium (``fit-rates.json``, one per optical lane)
x its ports, the count the reliability forecast uses; a co-packaged port has none of its own
(its light comes from the switch's laser sources, each with its ``lasers``). Watts and prices
are the catalog's, per cage as the plant counts them (:func:`model.plant.power.plug_power_w`),
so the totals equal the plant's and the BOM's.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from model.analysis.optics_plugs import CageEnds, PlugTally, plug_counts
from model.analysis.reliability import lasers_per_port
from model.common.arrays import unique_inverse
from model.common.findings import Finding
from model.engine.cages import cage_view
from model.plant.laser_sources import lit_sources

TIERS = ("gpu-server", "leaf", "spine", "core")
OPTICS_KINDS = ("dsp", "linear", "co-packaged")
_FIGURES = ("power_w", "power_w_max", "lasers", "price_usd")


def _empty_tier() -> dict:
    return {
        "modules": {k: 0 for k in OPTICS_KINDS if k != "co-packaged"},
        "co_packaged_ports": 0,
        "laser_sources": 0,
    } | {k: 0.0 for k in _FIGURES}


def co_packaged_devices(design) -> list:
    """The devices whose type has external laser sources (co-packaged switches), in the
    design's order: what the laser-source figures walk, instead of every device (a pass over
    the 21k devices of the XL hall, which has none, was ~3.5 ms of each report); a caller may
    keep the list while the devices and the catalog stand."""
    types = design.catalog.device_types
    return [d for d in design.devices.values() if types[d.type].laser_sources]


def tier_strategy(design, co_packaged: list | None = None) -> dict[str, str]:
    """The optics strategy of each switch tier: the setting, or "co-packaged" where the
    tier's switches are co-packaged types (their ports have no modules whatever it says).
    ``co_packaged``: :func:`co_packaged_devices` of ``design``, when the caller kept it."""
    out = {t: design.settings.optics_strategy.get(t, "pluggable") for t in TIERS[1:]}
    for device in co_packaged_devices(design) if co_packaged is None else co_packaged:
        if device.role in out:
            out[device.role] = "co-packaged"
    return out


def optics_by_tier(
    design,
    plant,
    ends: CageEnds | None = None,
    tally: PlugTally | None = None,
    co_packaged: list | None = None,
) -> dict[str, dict]:
    """Per tier (device role): module counts by optics kind, co-packaged ports, laser sources,
    and their watts (typical, max), lasers and price. ``ends``: the plant's cage ends sorted
    once and kept by the caller (:class:`~model.analysis.optics_plugs.CageEnds`); ``tally``:
    the plugs counted before, kept by the caller and following the plant's cages
    (:class:`~model.analysis.optics_plugs.PlugTally`), updated for the media changed since;
    ``co_packaged``: :func:`co_packaged_devices` of ``design``, when the caller kept it."""
    out: dict[str, dict] = defaultdict(_empty_tier)
    if plant is not None and len(plant.link_ids):
        view = cage_view(plant)
        if tally is not None:
            codes, counts = tally.counts(view, plant.medium_index)
        else:
            codes, counts = plug_counts(view, plant.medium_index, ends)
        _add_plugs(out, view, codes, counts, _role_rows(design, view, tally))
    catalog = design.catalog
    for device in co_packaged_devices(design) if co_packaged is None else co_packaged:
        dtype = catalog.device_types[device.type]
        source = catalog.laser_source_parts[dtype.laser_source]
        lit = lit_sources(design, device)
        tier = out[device.role]
        tier["laser_sources"] += lit
        tier["lasers"] += lit * source.lasers
        tier["power_w"] += lit * source.power_w
        tier["power_w_max"] += lit * source.power_w_max
        tier["price_usd"] += lit * source.price_usd
    return dict(sorted(out.items(), key=lambda kv: (kv[0] not in TIERS, kv[0])))


def _role_rows(design, view, tally: PlugTally | None) -> tuple[dict, np.ndarray]:
    """(number per role, in order of first device; the role number of each ``view.dev_ids``
    row), kept on ``tally`` while the design's device records (replaced, never changed in
    place, when a device is edited) and the view's device list are the same: a tray edit
    changes neither, and the loop over ~24k devices was ~4 ms of its optics at XL."""
    devices = list(design.devices.values())
    kept = tally.roles if tally is not None else None
    if kept is not None and kept[0] == devices and kept[1] == view.dev_ids:
        return kept[2]
    roles = {d.id: d.role for d in devices}
    numbers: dict[str, int] = {}
    role_of = np.array(
        [numbers.setdefault(roles.get(d, "other"), len(numbers)) for d in view.dev_ids],
        dtype=np.int64,
    )
    if tally is not None:
        tally.roles = (devices, list(view.dev_ids), (numbers, role_of))
    return numbers, role_of


def _add_plugs(
    out: dict, view, codes: np.ndarray, counts: np.ndarray, role_rows: tuple[dict, np.ndarray]
) -> None:
    """Add the plugs counted by :func:`plug_counts` to each tier of ``out``: per plug (code
    order) its modules or co-packaged ports, and quantity x its part's watts, lasers and price.

    Column-wise, ~24k plugs at XL in a few passes instead of a Python loop (~25 ms of every
    report whose media changed): each figure is a cumulative sum, which adds left to right as
    the loop did, so the float totals are the loop's to the last bit."""
    tables = view.tables
    specs = len(tables.specs) + 1
    dev, pair = np.divmod(codes, (len(tables.media) + 1) * specs)
    kinds, at = unique_inverse(pair)  # the (medium, spec) pairs: few, in a small range
    parts = [tables.module(*divmod(int(k), specs)) for k in kinds]
    by_medium, default = lasers_per_port()
    # per pair: plugged, co-packaged, optics kind, and the per-unit figures
    plugged = np.array([p is not None for p in parts], dtype=bool)[at]
    co_packaged = np.array([p is not None and p.optics == "co-packaged" for p in parts])[at]
    optics = np.array([p.optics if p is not None else "" for p in parts], dtype=object)[at]
    unit = {
        "power_w": [p.power_w if p else 0.0 for p in parts],
        "power_w_max": [p.power_w_max if p else 0.0 for p in parts],
        "price_usd": [p.price_usd if p else 0.0 for p in parts],
        "lasers": [by_medium.get(p.medium, default) if p else 0 for p in parts],
        "ports": [p.ports if p else 0 for p in parts],
    }
    unit_of = {k: np.asarray(v, dtype=np.float64)[at] for k, v in unit.items()}
    numbers, role_of = role_rows[0], role_rows[1][dev]
    qty = counts.astype(np.float64)
    for role, number in numbers.items():
        mine = plugged & (role_of == number)
        if not mine.any():
            continue  # no plug of this role: no tier (as the loop made none)
        tier = out[role]
        cp, q = co_packaged[mine], counts[mine]
        tier["co_packaged_ports"] += int(q[cp].sum())
        for kind in tier["modules"]:
            tier["modules"][kind] += int(q[(optics[mine] == kind) & ~cp].sum())
        q_f = qty[mine]
        # a co-packaged port adds 0.0 to lasers and price: x + 0.0 is x, the sums unchanged
        pluggable = np.where(cp, 0.0, q_f)
        figures = {
            "lasers": pluggable * unit_of["lasers"][mine] * unit_of["ports"][mine],
            "price_usd": pluggable * unit_of["price_usd"][mine],
            "power_w": q_f * unit_of["power_w"][mine],
            "power_w_max": q_f * unit_of["power_w_max"][mine],
        }
        for key, values in figures.items():
            tier[key] += float(np.cumsum(values)[-1])


def optics_figures(
    design, plant, phys, gpus: int, tiers: dict | None = None, co_packaged: list | None = None
) -> dict:
    """The ``optics`` section of ``analyze --json``: per tier, totals, fibres and per GPU;
    ``tiers`` the :func:`optics_by_tier` of ``plant`` and ``co_packaged`` the
    :func:`co_packaged_devices` of ``design`` when the caller kept them."""
    if tiers is None:
        tiers = optics_by_tier(design, plant)
    total = _empty_tier()
    for tier in tiers.values():
        for kind, qty in tier["modules"].items():
            total["modules"][kind] += qty
        for key in ("co_packaged_ports", "laser_sources", *_FIGURES):
            total[key] += tier[key]
    fibres = phys.of("fibre") if phys is not None else []
    fibre_qty = sum(i.quantity for i in fibres)
    fibre_usd = sum(i.quantity * i.unit_price_usd for i in fibres)
    cost = total["price_usd"] + fibre_usd
    per = 1 / gpus if gpus else 0.0
    return {
        "strategy": tier_strategy(design, co_packaged),
        "by_tier": {name: _rounded(t) for name, t in tiers.items()},
        "total": _rounded(total) | {"fibres": fibre_qty, "fibre_price_usd": round(fibre_usd, 2)},
        "cost_usd": round(cost, 2),
        "per_gpu": {
            "power_w": round(total["power_w"] * per, 4),
            "lasers": round(total["lasers"] * per, 4),
            "cost_usd": round(cost * per, 2),
        },
    }


def strategy_findings(design, tiers: dict[str, dict]) -> list[Finding]:
    """OPTICS_STRATEGY_UNMET: a tier whose setting asks for linear or co-packaged optics that
    its cages cannot take (no linear module of their media and family; a pluggable switch with
    no co-packaged twin), so it runs DSP pluggables: said, never silently taken as met."""
    out = []
    wanted = design.settings.optics_strategy
    for tier, strategy in sorted(wanted.items()):
        figures = tiers.get(tier)
        if figures is None:
            continue
        dsp = figures["modules"]["dsp"]
        if strategy == "linear" and dsp and not figures["modules"]["linear"]:
            why = "no linear (LPO) module of their media fits their cages"
        elif strategy == "co-packaged" and dsp:
            why = "its switches have pluggable cages (no co-packaged type in their place)"
        else:
            continue
        types = design.catalog.device_types
        # Only the switches left pluggable: a partly swapped tier's co-packaged ones are met.
        switches = sorted(
            d.id
            for d in design.devices.values()
            if d.role == tier
            and types[d.type].category == "switch"
            and not (strategy == "co-packaged" and types[d.type].laser_sources)
        )
        out.append(
            Finding(
                code="OPTICS_STRATEGY_UNMET",
                severity="info",
                message=f"the {tier} tier is set to {strategy} optics, but {why}: its "
                f"{dsp:,} cages take DSP modules",
                objects=tuple(switches[:20]),
            )
        )
    return out


def co_packaged_totals(phys) -> tuple[dict, dict, dict]:
    """The report's extra power (typical, max) and cost lines of co-packaged optics: their
    optical engines' watts and their laser sources' watts and price; empty dicts for a design
    without them, so the other designs' power and cost keep their keys."""
    if phys is None:
        return {}, {}, {}
    sources = phys.of("laser-source")
    if not (phys.co_packaged_ports or sources):
        return {}, {}, {}
    return (
        {
            "co_packaged_optics": phys.co_packaged_power_w,
            "laser_sources": phys.total("laser-source", "unit_power_w"),
        },
        {
            "co_packaged_optics": phys.co_packaged_power_w_max,
            "laser_sources": phys.total("laser-source", "unit_power_w_max"),
        },
        {"laser_sources": phys.total("laser-source", "unit_price_usd")},
    )


def modules_by_kind(phys) -> dict[str, dict[str, float]]:
    """The physical plant's modules by kind: count and typical and maximum power (the
    report's ``transceivers_by_kind``)."""
    out: dict[str, dict[str, float]] = {}
    for item in phys.of("module"):
        entry = out.setdefault(item.kind, {"modules": 0, "power_w": 0.0, "power_w_max": 0.0})
        entry["modules"] += item.quantity
        entry["power_w"] += item.quantity * item.unit_power_w
        entry["power_w_max"] += item.quantity * item.unit_power_w_max
    return out


def _rounded(tier: dict) -> dict:
    return tier | {k: round(tier[k], 3) for k in _FIGURES}
