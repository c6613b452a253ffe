"""Two designs side by side: a KPI table and the physical diff (racks, devices, links, media, BOM).

``kpis(report)`` takes the figures of one analysis (the ``analyze --json`` dict), so a sweep's CSV
columns and the compare table are the same numbers. ``physical_diff`` matches objects the way an
installer would:

* racks and devices by id (a rack whose x, y or rotation changed has *moved*);
* links by their two ends (device, port), unordered, so a re-numbered link id is not a change;
* a link in both whose chosen medium differs is *flipped* (e.g. DAC to AOC after a rack move);
* BOM lines by (category, part, length), with the quantity of each side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.common.arrays import FirstSeen, unique_inverse
from model.design.bulk_load import link_end_codes

KPI_COLUMNS = (
    "gpus",
    "cost_per_gpu_usd",
    "optics_w_per_gpu",
    "optics_share_of_it_power",
    "transceivers_per_gpu",
    "lasers_per_gpu",
    "optics_cost_per_gpu_usd",
    "bisection_gbps",
    "bisection_method",
    "allreduce_time_s",
    "alltoall_time_s",
    "failures_per_day",
)
KPI_LABELS = {
    "gpus": "GPUs",
    "cost_per_gpu_usd": "Cost per GPU (USD)",
    "optics_w_per_gpu": "Optics W per GPU",
    "optics_share_of_it_power": "Optics share of IT power",
    "transceivers_per_gpu": "Transceivers per GPU",
    "lasers_per_gpu": "Lasers per GPU",
    "optics_cost_per_gpu_usd": "Optics cost per GPU (USD)",
    "bisection_gbps": "Bisection (Gb/s)",
    "bisection_method": "Bisection method",
    "allreduce_time_s": "All-reduce time (s)",
    "alltoall_time_s": "All-to-all time (s)",
    "failures_per_day": "Failures/day (all causes)",
}


def kpis(j: dict) -> dict[str, float | str | None]:
    """The KPI columns of one ``analyze --json`` dict (optics = every transceiver module, and
    the optical engines and laser sources of co-packaged switches: ``optics`` section);
    ``bisection_method`` is a word, every other column a number (or None: not computed)."""
    gpus = j["gpus"] or 0
    per = 1 / gpus if gpus else 0.0
    optics = j.get("optics") or {}
    trx_w = optics.get("total", {}).get("power_w", j["transceivers"]["power_w"]) or 0.0
    total_w = j["power_w"]["total"] or 0.0
    return {
        "gpus": gpus,
        "cost_per_gpu_usd": (j["cost_usd"]["total"] or 0.0) * per,
        "optics_w_per_gpu": trx_w * per,
        "optics_share_of_it_power": trx_w / total_w if total_w else 0.0,
        "transceivers_per_gpu": j["transceivers"]["total"] * per,
        "lasers_per_gpu": optics.get("per_gpu", {}).get("lasers"),
        "optics_cost_per_gpu_usd": optics.get("per_gpu", {}).get("cost_usd"),
        "bisection_gbps": j["bisection_gbps"],
        # how the minimum balanced cut was evaluated (max-flow, or the tier computation)
        "bisection_method": j.get("bisection_method"),
        "allreduce_time_s": j["allreduce"].get("time_s"),
        # the largest job's all-to-all (expert parallelism): where oversubscription costs
        "alltoall_time_s": j.get("collectives", {})
        .get("default_job", {})
        .get("all-to-all", {})
        .get("time_s"),
        "failures_per_day": j.get("reliability", {}).get("failures_per_day"),
    }


@dataclass
class PhysicalDiff:
    racks_moved: list[str]
    racks_added: list[str]
    racks_removed: list[str]
    devices_added: list[str]
    devices_removed: list[str]
    links_added: list[str]  # ids in B
    links_removed: list[str]  # ids in A
    media_flipped: list[dict]  # {"link" (id in B), "from", "to"}
    bom_changed: list[dict]  # {"category", "part", "length_m", "a", "b"}

    def is_empty(self) -> bool:
        return not any(getattr(self, f) for f in self.__dataclass_fields__)

    def to_json(self) -> dict:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}

    def highlight_ids(self) -> set[str]:
        """Ids of design B the editor marks: moved and added racks, devices and links."""
        return {
            *self.racks_moved,
            *self.racks_added,
            *self.devices_added,
            *self.links_added,
            *(f["link"] for f in self.media_flipped),
        }


_SPAN_LIMIT = 1 << 31  # end codes below this pair into one int64 (lo * span + hi)


def _end_codes(design, devices: FirstSeen, ports: FirstSeen) -> tuple[np.ndarray, np.ndarray]:
    """(device code, port code) of every link end, the A ends then the B ends, links in
    ``design.links`` order; codes shared by both designs through ``devices`` and ``ports``.

    The design's own end codes (:func:`~model.design.bulk_load.link_end_codes`: the loader's, or made
    now) are translated, so only its ~21k device ids and ~200 port names are looked up here (a
    (device, port) tuple hashed per end took ~0.6 s a design at XL)."""
    codes = link_end_codes(design)
    device = np.fromiter(map(devices.__getitem__, codes.device_ids), np.int64)
    port = np.fromiter(map(ports.__getitem__, codes.port_names), np.int64)
    return device[codes.device], port[codes.port]


def _pair_keys(ends: np.ndarray, span: int) -> np.ndarray:
    """Each link's two end codes (< ``span``; A ends then B ends) as one int64 either way
    round."""
    n = len(ends) // 2
    lo, hi = np.minimum(ends[:n], ends[n:]), np.maximum(ends[:n], ends[n:])
    return lo * span + hi


def _link_keys(a, b) -> tuple[np.ndarray, np.ndarray]:
    """The pair keys (:func:`_pair_keys`) of the links of ``a`` and of ``b``, in
    ``design.links`` order: equal keys, equal ends."""
    devices, ports = FirstSeen(), FirstSeen()
    codes_a, codes_b = _end_codes(a, devices, ports), _end_codes(b, devices, ports)
    width = max(len(ports), 1)
    ends_a, ends_b = codes_a[0] * width + codes_a[1], codes_b[0] * width + codes_b[1]
    span = max(len(devices), 1) * width
    if span >= _SPAN_LIMIT:  # lo * span + hi could overflow: number the ends densely instead
        _, dense = unique_inverse(np.concatenate((ends_a, ends_b)))
        ends_a, ends_b = np.split(dense.astype(np.int64), [len(ends_a)])
        span = len(ends_a) + len(ends_b)
    return _pair_keys(ends_a, span), _pair_keys(ends_b, span)


def _last_of_each(keys: np.ndarray) -> np.ndarray:
    """Positions of the distinct keys, the last link of a key that several share (as a dict
    of key -> link keeps it), in order of position."""
    _, first_from_end = np.unique(keys[::-1], return_index=True)
    return np.sort(len(keys) - 1 - first_from_end)


def _media_ids(plant, ids: list[str], at: np.ndarray) -> list[str | None]:
    """The chosen medium's id of the links at positions ``at`` of ``ids`` (the design's links
    in order; None: no medium). A plant built from an unedited design has its rows in that
    order (a list compare of the same string objects, ~1 ms), else rows are looked up by id."""
    if plant.link_ids == ids:
        rows = at
    else:
        rows = np.fromiter(map(plant.index.__getitem__, (ids[k] for k in at.tolist())), np.int64)
    names = [m.id for m in plant.media] + [None]  # index -1: no medium
    chosen = np.asarray(plant.medium_index, dtype=np.int64)[rows]
    return [names[k] for k in chosen.tolist()]


def _link_diff(a, plant_a, b, plant_b) -> tuple[list[str], list[str], list[dict]]:
    """(links added: ids in B, links removed: ids in A, media flipped), links matched by their
    two ends, sorted by id."""
    ids_a, ids_b = list(a.links), list(b.links)
    keys_a, keys_b = _link_keys(a, b)
    at_a, at_b = _last_of_each(keys_a), _last_of_each(keys_b)
    keys_a, keys_b = keys_a[at_a], keys_b[at_b]
    in_a = np.isin(keys_b, keys_a)
    in_b = np.isin(keys_a, keys_b)
    added = sorted(ids_b[k] for k in at_b[~in_a].tolist())
    removed = sorted(ids_a[k] for k in at_a[~in_b].tolist())
    flipped = []
    if plant_a is not None and plant_b is not None and in_a.any():
        # Each link of B in both, beside its link of A (the same ends).
        both_b = at_b[in_a]
        order_a = np.argsort(keys_a, kind="stable")
        match = at_a[order_a[np.searchsorted(keys_a[order_a], keys_b[in_a])]]
        media_a, media_b = _media_ids(plant_a, ids_a, match), _media_ids(plant_b, ids_b, both_b)
        flipped = [
            {"link": ids_b[k], "from": ma, "to": mb}
            for k, ma, mb in zip(both_b.tolist(), media_a, media_b, strict=True)
            if ma != mb
        ]
    flipped.sort(key=lambda f: f["link"])
    return added, removed, flipped


def physical_diff(a, plant_a, b, plant_b, phys=(None, None)) -> PhysicalDiff:
    """What changed physically from design ``a`` to design ``b`` (plants: None skips media/BOM;
    ``phys``: the physical plants of the two, when the caller has them)."""
    moved = sorted(
        rid
        for rid, rack in b.racks.items()
        if rid in a.racks
        and (rack.x, rack.y, rack.rotation)
        != (a.racks[rid].x, a.racks[rid].y, a.racks[rid].rotation)
    )
    added, removed, flipped = _link_diff(a, plant_a, b, plant_b)
    return PhysicalDiff(
        racks_moved=moved,
        racks_added=sorted(set(b.racks) - set(a.racks)),
        racks_removed=sorted(set(a.racks) - set(b.racks)),
        devices_added=sorted(set(b.devices) - set(a.devices)),
        devices_removed=sorted(set(a.devices) - set(b.devices)),
        links_added=added,
        links_removed=removed,
        media_flipped=flipped,
        bom_changed=_bom_diff(a, plant_a, b, plant_b, phys),
    )


def _bom_diff(a, plant_a, b, plant_b, phys) -> list[dict]:
    if plant_a is None or plant_b is None:
        return []
    from model.outputs.bom import bom_lines
    from model.outputs.bom_parts import QUOTE

    def table(design, plant, phys):
        out: dict[tuple, float] = {}
        for line in bom_lines(design, plant, phys):
            # Named as the BOM names it: the part number, or what to quote (never a catalog id)
            name = line.description if line.part_number == QUOTE else line.part_number
            key = (line.category, name, line.length_m)
            out[key] = out.get(key, 0.0) + (line.quantity or 0.0)
        return out

    ta, tb = table(a, plant_a, phys[0]), table(b, plant_b, phys[1])
    changed = []
    for key in sorted(set(ta) | set(tb), key=lambda k: (k[0], k[1], k[2] or 0.0)):
        qa, qb = ta.get(key, 0.0), tb.get(key, 0.0)
        if abs(qa - qb) > 1e-9:
            changed.append(
                {"category": key[0], "part": key[1], "length_m": key[2], "a": qa, "b": qb}
            )
    return changed


def compare(
    a, plant_a, report_a: dict, b, plant_b, report_b: dict, diff: PhysicalDiff | None = None
) -> dict:
    """``{"kpis": {name: {"a", "b", "delta"}}, "diff": {...}}`` of two analysed designs
    (``diff``: their :func:`physical_diff`, when the caller has it)."""
    ka, kb = kpis(report_a), kpis(report_b)
    table = {}
    for name in KPI_COLUMNS:
        va, vb = ka[name], kb[name]
        table[name] = {"a": va, "b": vb, "delta": _delta(va, vb)}
    if diff is None:
        diff = physical_diff(a, plant_a, b, plant_b)
    return {"kpis": table, "diff": diff.to_json(), "identical": diff.is_empty()}


def _delta(va, vb):
    """B - A for numbers; for words (the bisection method) "same" or "changed"."""
    if va is None or vb is None:
        return None
    if isinstance(va, str) or isinstance(vb, str):
        return "same" if va == vb else "changed"
    return vb - va


def compare_designs(a, plant_a, b, plant_b) -> tuple[dict, PhysicalDiff]:
    """(:func:`compare` of ``a`` and ``b``, their physical diff): each design analysed, and
    its BOM counted, from one physical plant (split by fabric, as ``bom`` builds it) instead
    of one each (at XL ~0.4 s a design). Plants: up to date, or None (no media, no BOM)."""
    from model.analysis import analyze
    from model.design.fabrics import plant_fabric_rows
    from model.plant.physical_plant import build_plant

    def physical(design, plant):
        if plant is None:
            return None
        return build_plant(plant, fabric_rows=plant_fabric_rows(design, plant))

    phys = (physical(a, plant_a), physical(b, plant_b))
    report_a = analyze(a, plant_a, phys[0]).to_json()
    report_b = analyze(b, plant_b, phys[1]).to_json()
    diff = physical_diff(a, plant_a, b, plant_b, phys)
    return compare(a, plant_a, report_a, b, plant_b, report_b, diff), diff
