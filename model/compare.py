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
from operator import attrgetter

import numpy as np

from model.arrays import FirstSeen

KPI_COLUMNS = (
    "gpus",
    "cost_per_gpu_usd",
    "optics_w_per_gpu",
    "optics_share_of_it_power",
    "transceivers_per_gpu",
    "bisection_gbps",
    "allreduce_time_s",
    "failures_per_day",
)
KPI_LABELS = {
    "gpus": "GPUs",
    "cost_per_gpu_usd": "Cost per GPU (USD)",
    "optics_w_per_gpu": "Optics W per GPU",
    "optics_share_of_it_power": "Optics share of IT power",
    "transceivers_per_gpu": "Transceivers per GPU",
    "bisection_gbps": "Bisection (Gb/s)",
    "allreduce_time_s": "All-reduce time (s)",
    "failures_per_day": "Failures per day",
}


def kpis(j: dict) -> dict[str, float]:
    """The KPI columns of one ``analyze --json`` dict (optics = every transceiver module)."""
    gpus = j["gpus"] or 0
    per = 1 / gpus if gpus else 0.0
    trx_w = j["transceivers"]["power_w"] or 0.0
    total_w = j["power_w"]["total"] or 0.0
    return {
        "gpus": gpus,
        "cost_per_gpu_usd": (j["cost_usd"]["total"] or 0.0) * per,
        "optics_w_per_gpu": trx_w * per,
        "optics_share_of_it_power": trx_w / total_w if total_w else 0.0,
        "transceivers_per_gpu": j["transceivers"]["total"] * per,
        "bisection_gbps": j["bisection_gbps"],
        "allreduce_time_s": j["allreduce"].get("time_s"),
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


_A, _B = attrgetter("a"), attrgetter("b")
_DEVICE, _PORT = attrgetter("device"), attrgetter("port")


def _link_keys(design, codes: FirstSeen) -> tuple[list[str], np.ndarray]:
    """(the link ids, each link's two ends as one int64 either way round): C-level passes and
    numpy, no frozenset per link (at XL 393k of them took most of ``compare``'s own time)."""
    ids = list(design.links)
    recs = list(design.links.values())
    ends = []
    for side in (_A, _B):
        refs = list(map(side, recs))
        pairs = zip(map(_DEVICE, refs), map(_PORT, refs), strict=True)
        ends.append(np.fromiter(map(codes.__getitem__, pairs), np.int64, len(ids)))
    lo, hi = np.minimum(*ends), np.maximum(*ends)
    return ids, (lo << 32) | hi


def _last_of_each(keys: np.ndarray) -> np.ndarray:
    """Positions of the distinct keys, the last link of a key that several share (as a dict
    of key -> link keeps it), in order of position."""
    _, first_from_end = np.unique(keys[::-1], return_index=True)
    return np.sort(len(keys) - 1 - first_from_end)


def _media_ids(plant, ids: list[str]) -> list[str | None]:
    """The chosen medium's id of each link (None: no medium)."""
    rows = np.fromiter(map(plant.index.__getitem__, ids), np.int64, len(ids))
    names = [m.id for m in plant.media] + [None]  # index -1: no medium
    chosen = np.asarray(plant.medium_index, dtype=np.int64)[rows]
    return [names[k] for k in chosen.tolist()]


def _link_diff(a, plant_a, b, plant_b) -> tuple[list[str], list[str], list[dict]]:
    """(links added: ids in B, links removed: ids in A, media flipped), links matched by their
    two ends, sorted by id."""
    codes = FirstSeen()  # (device, port) -> code, shared by both designs
    ids_a, keys_a = _link_keys(a, codes)
    ids_b, keys_b = _link_keys(b, codes)
    if len(codes) >= 1 << 31:
        raise ValueError("too many link ends to compare")  # 2 x 2^31 ports: not a design
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
        lid_b = [ids_b[k] for k in both_b.tolist()]
        lid_a = [ids_a[k] for k in match.tolist()]
        media_a, media_b = _media_ids(plant_a, lid_a), _media_ids(plant_b, lid_b)
        flipped = [
            {"link": lb, "from": ma, "to": mb}
            for lb, ma, mb in zip(lid_b, media_a, media_b, strict=True)
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
    from model.bom import bom_lines

    def table(design, plant, phys):
        out: dict[tuple, float] = {}
        for line in bom_lines(design, plant, phys):
            key = (line.category, line.part, line.length_m)
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
        delta = vb - va if va is not None and vb is not None else None
        table[name] = {"a": va, "b": vb, "delta": delta}
    if diff is None:
        diff = physical_diff(a, plant_a, b, plant_b)
    return {"kpis": table, "diff": diff.to_json(), "identical": diff.is_empty()}


def compare_designs(a, plant_a, b, plant_b) -> tuple[dict, PhysicalDiff]:
    """(:func:`compare` of ``a`` and ``b``, their physical diff): each design analysed, and
    its BOM counted, from one physical plant (split by fabric, as ``bom`` builds it) instead
    of one each (at XL ~0.4 s a design). Plants: up to date, or None (no media, no BOM)."""
    from model.analysis import analyze
    from model.fabrics import plant_fabric_rows
    from model.plant import build_plant

    def physical(design, plant):
        if plant is None:
            return None
        return build_plant(plant, fabric_rows=plant_fabric_rows(design, plant))

    phys = (physical(a, plant_a), physical(b, plant_b))
    report_a = analyze(a, plant_a, phys[0]).to_json()
    report_b = analyze(b, plant_b, phys[1]).to_json()
    diff = physical_diff(a, plant_a, b, plant_b, phys)
    return compare(a, plant_a, report_a, b, plant_b, report_b, diff), diff
