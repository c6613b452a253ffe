"""Reliability forecast: expected failures per day and per year by part category, GPU-hours at risk.

FIT (failures per 10^9 device-hours) per part category comes from
``resources/catalog/reliability/fit-rates.json`` (each figure sourced or marked estimate), and a
design overrides any category in ``settings.reliability_fit``. Expected failures per day =
24 x 1e-9 x sum(count x FIT) (domain-facts 8d).

Parts are counted from the analysis, by medium kind (so they follow the chosen media):

* ``optics``: transceiver modules of MMF and SMF media (a twin-port module counts once);
* ``active_cables``: plugs with electronics of AOC, AEC and ACC cables (a twin-port splitter plug
  counts once), each at its kind's FIT unless the category is overridden;
* ``passive_cables``: passive copper (DAC) cables, one per link;
* ``switches``: devices whose catalog category is ``switch`` (every fabric, not NVLink trays);
* ``nics``: cabled compute ports of GPU servers (one NIC port each, as on DGX / HGX H100).

GPU-hours at risk: a failure interrupts the job it hits, which then loses ``job_gpus`` x
``restart_h`` GPU-hours (settings ``reliability_job_gpus``, 0 = the whole hall, and
``reliability_restart_h``). A job of J of the hall's G GPUs is hit by J/G of the failures (parts
spread evenly per GPU, a choice: shared core switches make it a slight underestimate).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from model.analysis.topology import LINK_COMPUTE, Topology
from model.catalog.components import CATALOG_DIR

FIT_FILE = CATALOG_DIR / "reliability" / "fit-rates.json"
CATEGORIES = ("optics", "active_cables", "passive_cables", "switches", "nics")
HOURS_PER_YEAR = 8766.0  # 365.25 days


@dataclass(frozen=True)
class FitRate:
    category: str
    fit: float
    source: str
    unit: str
    fit_by_kind: dict[str, float]


@cache
def fit_rates(path: Path = FIT_FILE) -> dict[str, FitRate]:
    """The bundled FIT rate per category (see the file for each figure's source)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        c["category"]: FitRate(
            c["category"], float(c["fit"]), c["source"], c["unit"], dict(c.get("fit_by_kind", {}))
        )
        for c in data["categories"]
    }


@cache
def reference() -> dict:
    """The public observation the defaults are checked against (LLAMA3, domain-facts 8d)."""
    return json.loads(FIT_FILE.read_text(encoding="utf-8"))["reference"]


def part_counts(design, topo: Topology, media) -> dict[str, dict[str, int]]:
    """Counts per category, split by medium kind where the FIT differs by kind."""
    kinds = media.transceivers_by_kind if media.available else {}
    modules = {k: int(v["modules"]) for k, v in kinds.items()}
    # Switches and NICs follow the devices, links and catalog alone: kept with the topology
    # (which any device or link edit replaces) while the catalog stands.
    cached = getattr(topo, "_switches_nics", None)
    if cached is None or cached[0] is not design.catalog:
        types = design.catalog.device_types
        switches = sum(1 for d in design.devices.values() if types[d.type].category == "switch")
        compute = topo.kind == LINK_COMPUTE
        server = topo.is_gpu_server
        nics = int((compute & server[topo.a] & ~server[topo.b]).sum())
        nics += int((compute & server[topo.b] & ~server[topo.a]).sum())
        cached = (design.catalog, switches, nics)
        topo._switches_nics = cached
    _, switches, nics = cached
    return {
        "optics": {k: modules.get(k, 0) for k in ("mmf", "smf")},
        "active_cables": {k: modules.get(k, 0) for k in ("aoc", "aec", "acc")},
        "passive_cables": {"dac": int(media.by_kind.get("dac", 0)) if media.available else 0},
        "switches": {"switch": switches},
        "nics": {"nic": nics},
    }


def forecast(design, topo: Topology, media) -> dict:
    """The ``reliability`` block of ``analyze --json`` (module docstring for the rules)."""
    settings = design.settings
    rates = fit_rates()
    overrides = dict(getattr(settings, "reliability_fit", {}) or {})
    counts = part_counts(design, topo, media)
    categories = {}
    total_fit = 0.0
    for name in CATEGORIES:
        rate = rates[name]
        fit_sum = 0.0
        count = 0
        for kind, n in counts[name].items():
            fit = overrides.get(name, rate.fit_by_kind.get(kind, rate.fit))
            fit_sum += n * fit
            count += n
        per_day = 24e-9 * fit_sum
        categories[name] = {
            "count": count,
            "fit": fit_sum / count if count else overrides.get(name, rate.fit),
            "source": "design setting" if name in overrides else rate.source,
            "failures_per_day": per_day,
            "failures_per_year": per_day * HOURS_PER_YEAR / 24,
        }
        total_fit += fit_sum
    per_day = 24e-9 * total_fit
    gpus = int(np.asarray(topo.gpus).sum())
    job = int(getattr(settings, "reliability_job_gpus", 0) or gpus)
    job = min(job, gpus)
    restart_h = float(getattr(settings, "reliability_restart_h", 1.0))
    hits_per_day = per_day * (job / gpus) if gpus else 0.0
    return {
        "categories": categories,
        "failures_per_day": per_day,
        "failures_per_year": per_day * HOURS_PER_YEAR / 24,
        "mtbf_hours": 24 / per_day if per_day else None,
        "media_counted": bool(media.available),
        "job_gpus": job,
        "restart_h": restart_h,
        "job_interruptions_per_day": hits_per_day,
        "gpu_hours_at_risk_per_day": hits_per_day * job * restart_h,
        "gpu_hours_at_risk_per_year": hits_per_day * job * restart_h * HOURS_PER_YEAR / 24,
    }
