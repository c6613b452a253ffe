"""The report's power (typical and maximum) and cost totals, each line from one home.

Devices from :mod:`model.analysis.devices`, modules, cables, fibres, trunks and panels from the
physical plant (``build_plant``: the same counts, power and prices as the BOM, so the analysis
cost equals the BOM total), trays from :mod:`model.plant.tray_products`, co-packaged optics
from :mod:`model.analysis.optics`, facility parts from :mod:`model.facility.parts`.
"""

from __future__ import annotations

from model.analysis.devices import DeviceFigures
from model.analysis.optics import co_packaged_totals
from model.design.design import Design
from model.facility.parts import facility_cost

# The plant categories the report counts as cabling: cables, fibres and, for structured
# cabling, trunks and patch panels.
CABLING_CATEGORIES = ("cable", "fibre", "trunk", "panel")


def plant_sum(phys, category: str, attr: str) -> float:
    """``phys.total(category, attr)``; 0 without a physical plant (no media)."""
    return phys.total(category, attr) if phys else 0.0


def power_and_cost(
    design: Design, dev: DeviceFigures, phys, trays, facility: dict[str, float] | None = None
) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Typical power (W), maximum power (W) and cost (USD) per line, each with its ``total``
    first; the co-packaged optics lines only where a design has them (the other designs'
    figures keep their keys). ``facility``: ``facility_cost(design)`` when the caller kept it."""
    power = {
        "total": 0.0,
        "servers": dev.servers_w,
        "switches": dev.switches_w,
        "transceivers": plant_sum(phys, "module", "unit_power_w"),
        "cables": plant_sum(phys, "cable", "unit_power_w"),
        "other_devices": dev.other_w,
    }
    cpo_power, cpo_power_max, cpo_cost = co_packaged_totals(phys)
    power |= cpo_power
    power_max = {
        "total": 0.0,
        "servers": dev.servers_w_max,
        "switches": dev.switches_w_max,
        "transceivers": plant_sum(phys, "module", "unit_power_w_max"),
        "cables": plant_sum(phys, "cable", "unit_power_w_max"),
        "other_devices": dev.other_w_max,
    }
    power_max |= cpo_power_max
    cost = {
        "total": 0.0,
        "servers": dev.servers_usd,
        "switches": dev.switches_usd,
        "transceivers": plant_sum(phys, "module", "unit_price_usd"),
        "cables": sum(plant_sum(phys, c, "unit_price_usd") for c in CABLING_CATEGORIES),
        "trays": sum(t.quantity * t.unit_price_usd for t in trays),
        "racks": dev.racks_usd,
        "other_devices": dev.other_usd,
    }
    cost |= cpo_cost
    cost |= (
        facility_cost(design) if facility is None else facility
    )  # the facility's lines (Power and cooling; rack PDUs under PDUs)
    for lines in (power, power_max, cost):
        lines["total"] = sum(v for k, v in lines.items() if k != "total")
    return power, power_max, cost
