"""All-cause reliability forecast: job interruptions per day by category, GPU-hours at risk.

Every category's FIT (failures per 10^9 unit-hours) is in
``resources/catalog/reliability/fit-rates.json``: derived from the LLAMA3 observation (the Table 5
rows it names over the units the 16,384-GPU reference cluster had: FIT = interruptions /
(units x days x 24 h) x 1e9) or given with its source (``estimate`` where none is published). A
design overrides any category's FIT per unit in ``settings.reliability_fit``. Expected failures
per day = 24 x 1e-9 x sum(count x FIT) (domain-facts 8d).

What each category counts (parts from the physical plant, per cage, as the BOM buys them):

* ``gpus``, ``hbm``, ``software``: GPUs of the GPU servers; ``hosts``: GPU servers (a compute
  tray of an NVL72 rack is one host); ``nics``: physical NICs of GPU servers with a cabled
  compute port (a port broken out into planes is still one NIC: Helios's 800G port split into
  4 x 200G planes fails as one Vulcano, :func:`physical_nics`);
* ``switches``: devices of the catalog category ``switch`` (every fabric); ``nvlink_trays``:
  devices of the category ``nvlink-switch``;
* ``optics``: transceiver modules, each lasers x FIT per laser + its DSP (lasers = lasers per
  port of its medium x the part's ports, so optics with fewer lasers forecast fewer failures;
  a linear-drive module has no DSP), and the external laser sources of co-packaged switches
  (their lasers; a co-packaged port has no module of its own);
* ``active_cables``: AOC, AEC and ACC assemblies, each its ends (1 + fanout) x FIT per end;
* ``passive_cables``: DAC assemblies.

The job: by default the largest the design holds (every GPU server), or ``job_servers`` (topology
device indexes), or the first ``settings.reliability_job_gpus`` GPUs (a share of every part).
Its own GPUs, HBM, software, hosts and NICs interrupt it; network parts (switches, NVLink
trays, optics, cables) are shared, so a job of J of the hall's G GPUs is hit by J/G of their
failures (a choice: its own leaves fail it more surely, a far core less). A failure costs the
job ``job GPUs x restart_h`` GPU-hours (``settings.reliability_restart_h``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from pathlib import Path
from typing import get_args

import numpy as np

from model.analysis.topology import LINK_COMPUTE, Topology
from model.catalog.components import CATALOG_DIR
from model.catalog.ports import port_table
from model.common.arrays import FirstSeen, unique_counts, unique_inverse, unique_sorted
from model.design.bulk_load import loaded_link_codes
from model.design.entities import FitCategory

FIT_FILE = CATALOG_DIR / "reliability" / "fit-rates.json"
CATEGORIES: tuple[str, ...] = get_args(FitCategory)  # the settings' own list
NETWORK = ("switches", "nvlink_trays", "optics", "active_cables", "passive_cables")
LABEL = "all causes"  # what the panel's tile says the figure counts
SCOPE = (
    "all causes: GPU, HBM, host, NIC, switch, scale-up (NVLink, UALink) tray, optics, cables, "
    "software"
)
HOURS_PER_YEAR = 8766.0  # 365.25 days


@dataclass(frozen=True)
class FitRate:
    category: str
    label: str
    unit: str
    fit: float  # per unit; for optics and active cables: the rate of a typical unit (see below)
    source: str
    entry: dict  # the file's entry (per-laser, per-end figures)
    note: str = ""  # how the FIT of a unit follows its parts, where it is not one figure


def _derived_fit(entry: dict, ref: dict) -> float:
    """FIT per unit from the LLAMA3 rows ``entry`` names over the reference cluster's units,
    to the whole FIT (counts of 2 to 196 carry no more figures; the settings edit whole FITs)."""
    interruptions = sum(ref["table5"][row] for row in entry["derived_from"])
    unit_hours = ref["gpus"] * entry["units_per_gpu"] * ref["days"] * 24.0
    return float(round(interruptions / unit_hours * 1e9))


@cache
def fit_rates(path: Path = FIT_FILE) -> dict[str, FitRate]:
    """The bundled FIT per category (see the file for each figure's source or derivation).

    For optics ``fit`` is a 4-laser module with its DSP; for active cables an AEC end's."""
    data = json.loads(path.read_text(encoding="utf-8"))
    ref = data["reference"]
    out = {}
    for c in data["categories"]:
        note = ""
        if "derived_from" in c:
            fit = _derived_fit(c, ref)
        elif c["category"] == "optics":
            fit = 4 * c["fit_per_laser"] + c["dsps_per_module"] * c["fit_per_dsp"]
            note = (
                f"{c['fit_per_laser']:g} per laser + {c['fit_per_dsp']:g} per DSP; "
                f"{fit:g} = a 4-laser module"
            )
        elif c["category"] == "active_cables":
            fit = float(c["fit_per_end_by_kind"]["aec"])
            ends = ", ".join(f"{k.upper()} {v:g}" for k, v in c["fit_per_end_by_kind"].items())
            note = f"per end: {ends}, AOC as an optic; {fit:g} = an AEC end"
        else:
            fit = float(c["fit"])
        out[c["category"]] = FitRate(
            c["category"], c["label"], c["unit"], fit, c["source"], c, note
        )
    return out


@cache
def reference() -> dict:
    """The public observation the derived rates come from (LLAMA3 Table 5, domain-facts 8d)."""
    return json.loads(FIT_FILE.read_text(encoding="utf-8"))["reference"]


@cache
def lasers_per_port() -> tuple[dict[str, int], int]:
    """(lasers per port by medium id, the default for a medium not listed)."""
    table = json.loads(FIT_FILE.read_text(encoding="utf-8"))["lasers_per_port"]
    return dict(table["by_medium"]), int(table["default"])


def unit_fits(design, phys, rates: dict[str, FitRate]) -> dict[str, list[tuple[int, float]]]:
    """Per plant-counted category: (quantity, FIT per unit) of each plant item it counts."""
    out: dict[str, list[tuple[int, float]]] = {
        "optics": [],
        "active_cables": [],
        "passive_cables": [],
    }
    if phys is None:
        return out
    by_medium, default = lasers_per_port()
    optics = rates["optics"].entry
    per_laser, dsp = optics["fit_per_laser"], optics["dsps_per_module"] * optics["fit_per_dsp"]
    catalog = design.catalog
    for item in phys.of("module"):
        part = catalog.module_parts.get(item.part_id)
        medium, ports = (part.medium, part.ports) if part else ("", 1)
        lasers = by_medium.get(medium, default) * ports
        # A linear-drive (LPO) module has no DSP to fail.
        own_dsp = 0.0 if part is not None and part.optics == "linear" else dsp
        out["optics"].append((item.quantity, lasers * per_laser + own_dsp))
    for item in phys.of("laser-source"):
        # A co-packaged switch's external laser source: its lasers, no DSP (domain-facts §9).
        source = catalog.laser_source_parts.get(item.part_id)
        out["optics"].append((item.quantity, (source.lasers if source else 1) * per_laser))
    active = rates["active_cables"].entry
    for item in phys.of("cable"):
        part = catalog.cable_parts.get(item.part_id)
        ends = 1 + (part.fanout if part else 1)
        if item.kind in active["optical_end_kinds"]:
            lasers = by_medium.get(part.medium if part else "", default)
            out["active_cables"].append((item.quantity, ends * (lasers * per_laser + dsp)))
        elif item.kind in active["fit_per_end_by_kind"]:
            out["active_cables"].append(
                (item.quantity, ends * float(active["fit_per_end_by_kind"][item.kind]))
            )
        elif item.kind == "dac":
            out["passive_cables"].append((item.quantity, rates["passive_cables"].fit))
    return out


def physical_nics(design, ends) -> int:
    """The NICs behind the server port ends ``ends`` (PortRefs of cabled compute links).

    A broken-out port (``nic1/1`` ... ``nic1/4``: one port per plane) is one physical port, and
    ports per NIC are those of the NIC type's mode at the port group's speed (a ConnectX-8 runs
    one 800G port, a dual-port NIC two): one NIC fails every plane it feeds, so counting cabled
    links would multiply NIC failures by the plane count."""
    types = design.catalog.device_types
    names: dict[str, list[str]] = {}  # device -> its port names among ``ends``
    for ref in ends:
        names.setdefault(ref.device, []).append(ref.port)
    # Per port table, not per end (XL: 131,072 ends on 16,384 servers of one type): each port's
    # group and physical port; per (device type, group), the NIC's ports at the group's speed.
    physical_of: dict[int, tuple[dict, dict[str, tuple[str, str]]]] = {}
    per_nic: dict[tuple[str, str], int] = {}
    total = 0
    for device_id, port_names in names.items():
        device = design.devices[device_id]
        table = port_table(types[device.type], device.breakout)
        known = physical_of.get(id(table))
        if known is None:  # the table is held beside its map, so its id stays its own
            pairs = {name: (info.group, name.partition("/")[0]) for name, info in table.items()}
            known = physical_of[id(table)] = (table, pairs)
        physical = known[1]
        ports = {physical[n] for n in port_names if n in physical}
        groups = {group for group, _ in ports}
        # Most servers cable one port group: its count is the set's size (a Counter per
        # device, 16k at XL, cost more than the rest of this loop)
        used = {groups.pop(): len(ports)} if len(groups) == 1 else Counter(g for g, _ in ports)
        for group_name, count in used.items():
            key = (device.type, group_name)
            if key not in per_nic:
                per_nic[key] = _ports_per_nic(design, *key)
            total += -(-count // per_nic[key])
    return total


def coded_physical_nics(design, codes, device: np.ndarray, port: np.ndarray) -> int:
    """:func:`physical_nics` of the ends given as the loader's codes (``codes``:
    :class:`model.design.state.LoadedLinkCodes`; ``device``/``port``: the ends' codes).

    The same count in numpy (the per-end Python took ~0.2 s in all at XL with every network): each
    distinct (port table, port) is looked up once, each device's distinct physical ports
    counted per port group by sorting codes, and each group's count divided by its NIC's ports."""
    if not len(device):
        return 0
    types = design.catalog.device_types
    used = unique_sorted(device)  # device codes: dense, marked not sorted
    table_of = FirstSeen()  # (type, breakout) -> code: devices of one key share a port table
    keys = []
    for device_id in map(codes.device_ids.__getitem__, used.tolist()):
        d = design.devices[device_id]
        keys.append((d.type, tuple(sorted(d.breakout.items())) if d.breakout else ()))
    table_code = np.zeros(int(used[-1]) + 1, dtype=np.int64)
    table_code[used] = np.fromiter(map(table_of.__getitem__, keys), np.int64, len(keys))
    width = len(codes.port_names) + 1
    pairs, pair_of_end = unique_inverse(table_code[device] * width + port)
    tables = [port_table(types[t], dict(b)) for t, b in table_of]  # in code order
    nic_of = FirstSeen()  # (device type, port group) -> code
    physical_of = FirstSeen()  # (port group, physical port) -> code
    nic, physical = [], []
    table_keys = list(table_of)
    for t, p in zip(*np.divmod(pairs, width), strict=True):
        name = codes.port_names[int(p)]
        info = tables[int(t)].get(name)
        if info is None:  # a port its table does not have: not counted, as physical_nics
            nic.append(-1)
            physical.append(-1)
            continue
        nic.append(nic_of[(table_keys[int(t)][0], info.group)])
        physical.append(physical_of[(info.group, name.partition("/")[0])])
    nic_end = np.asarray(nic, dtype=np.int64)[pair_of_end.reshape(-1)]
    physical_end = np.asarray(physical, dtype=np.int64)[pair_of_end.reshape(-1)]
    known = nic_end >= 0
    if not known.any():
        return 0
    # A device's distinct physical ports, then how many of them each (device, NIC kind) has
    ports, first = np.unique(
        device[known] * len(physical_of) + physical_end[known], return_index=True
    )
    group_key = (ports // len(physical_of)) * len(nic_of) + nic_end[known][first]
    groups, counts = unique_counts(group_key)
    per_nic = np.array([_ports_per_nic(design, *key) for key in nic_of], dtype=np.int64)
    return int((-(-counts // per_nic[groups % len(nic_of)])).sum())


def _ports_per_nic(design, type_id: str, group_name: str) -> int:
    """Ports one NIC of the port group serves at the group's speed (1 without a NIC type)."""
    group = design.catalog.device_types[type_id].port_group(group_name)
    nic = design.catalog.nic_types.get(group.nic) if group is not None else None
    at_speed = [m.ports for m in nic.modes if m.speed_gbps == group.speed_gbps] if nic else []
    return min(at_speed, default=1)


def device_counts(design, topo: Topology, servers: np.ndarray) -> dict[str, int]:
    """GPUs, hosts and physical NICs of ``servers`` (topology indexes), and the hall's
    switches and NVLink trays."""
    types = design.catalog.device_types
    by_category: Counter[str] = Counter()
    for type_id, n in Counter(d.type for d in design.devices.values()).items():
        by_category[types[type_id].category] += n
    compute = topo.kind == LINK_COMPUTE
    member = np.zeros(len(topo.device_ids), dtype=bool)
    member[servers] = True
    server = topo.is_gpu_server
    links, ids = design.links, topo.link_ids
    rows_a, rows_b = (
        np.flatnonzero(compute & member[at_server] & ~server[other])
        for at_server, other in ((topo.a, topo.b), (topo.b, topo.a))
    )
    codes = loaded_link_codes(design)
    if codes is not None and len(ids) == codes.link_count:
        # A design unedited since its load: the loader's end codes (topology rows are the
        # links in design.links order, as the codes' rows), counted in numpy
        ends_at = np.concatenate([rows_a, codes.link_count + rows_b])
        nics = coded_physical_nics(design, codes, codes.device[ends_at], codes.port[ends_at])
    else:
        ends: list = []
        for side, rows in (("a", rows_a), ("b", rows_b)):
            # mapped in C: 131k server ends at XL
            ends += map(
                attrgetter(side), map(links.__getitem__, map(ids.__getitem__, rows.tolist()))
            )
        nics = physical_nics(design, ends)
    gpus = int(np.asarray(topo.gpus)[servers].sum())
    return {
        "gpus": gpus,
        "hbm": gpus,
        "software": gpus,
        "hosts": len(servers),
        "nics": nics,
        "switches": by_category["switch"],
        "nvlink_trays": by_category["nvlink-switch"],
    }


def hall_counts(design, topo: Topology) -> dict[str, int]:
    """:func:`device_counts` of every GPU server: what the hall's devices count, which the
    devices, links and catalog alone decide (the analyzer keeps it while they stand)."""
    return device_counts(design, topo, np.flatnonzero(topo.is_gpu_server))


def forecast(
    design,
    topo: Topology,
    phys,
    job_servers: np.ndarray | None = None,
    hall: dict[str, int] | None = None,
) -> dict:
    """The ``reliability`` block of ``analyze --json`` (module docstring for the rules).

    ``phys``: the physical plant (None without routed links: no optics or cables counted);
    ``job_servers``: the job's GPU servers as topology indexes (None: the default job);
    ``hall``: :func:`hall_counts` of this design and topology (computed when not given)."""
    settings = design.settings
    rates = fit_rates()
    overrides = dict(getattr(settings, "reliability_fit", {}) or {})
    all_servers = np.flatnonzero(topo.is_gpu_server)
    if hall is None:
        hall = hall_counts(design, topo)
    plant_units = unit_fits(design, phys, rates)
    gpus = hall["gpus"]
    restart_h = float(getattr(settings, "reliability_restart_h", 1.0))
    if job_servers is not None:
        job = device_counts(design, topo, np.asarray(job_servers, dtype=np.int64))
        share = job["gpus"] / gpus if gpus else 0.0
        job_share = {name: share for name in NETWORK}
        for name in ("gpus", "hbm", "software", "hosts", "nics"):
            job_share[name] = job[name] / hall[name] if hall[name] else 0.0
        servers_in_job: int | None = len(job_servers)
        job_gpus = job["gpus"]
    else:
        asked = int(getattr(settings, "reliability_job_gpus", 0) or gpus)
        job_gpus = min(asked, gpus)
        share = job_gpus / gpus if gpus else 0.0
        job_share = {name: share for name in CATEGORIES}
        # A share of GPUs names no server set unless it is the whole hall.
        servers_in_job = len(all_servers) if job_gpus == gpus else None
    categories = {}
    total_fit = job_fit = 0.0
    for name in CATEGORIES:
        rate = rates[name]
        units = plant_units.get(name) or [(hall.get(name, 0), rate.fit)]
        if name in overrides:
            units = [(n, overrides[name]) for n, _ in units]
        count = sum(n for n, _ in units)
        fit_sum = sum(n * fit for n, fit in units)
        per_day = 24e-9 * fit_sum
        categories[name] = {
            "label": rate.label,
            "unit": rate.unit,
            "count": count,
            "fit": fit_sum / count if count else overrides.get(name, rate.fit),
            "source": "design setting" if name in overrides else rate.source,
            "failures_per_day": per_day,
            "failures_per_year": per_day * HOURS_PER_YEAR / 24,
            "job_failures_per_day": per_day * job_share[name],
        }
        total_fit += fit_sum
        job_fit += fit_sum * job_share[name]
    per_day = 24e-9 * total_fit
    job_per_day = 24e-9 * job_fit
    return {
        "label": LABEL,
        "scope": SCOPE,
        "categories": categories,
        "failures_per_day": per_day,
        "failures_per_year": per_day * HOURS_PER_YEAR / 24,
        "mtbf_hours": 24 / per_day if per_day else None,
        "media_counted": phys is not None,
        "hall_gpus": gpus,
        "hall_gpu_hours_at_risk_per_day": per_day * gpus * restart_h,
        "job_servers": servers_in_job,
        "job_gpus": job_gpus,
        "restart_h": restart_h,
        "job_interruptions_per_day": job_per_day,
        "gpu_hours_at_risk_per_day": job_per_day * job_gpus * restart_h,
        "gpu_hours_at_risk_per_year": job_per_day * job_gpus * restart_h * HOURS_PER_YEAR / 24,
    }
