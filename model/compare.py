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


def _ends(link) -> frozenset:
    return frozenset(((link.a.device, link.a.port), (link.b.device, link.b.port)))


def _medium(plant, link_id: str) -> str | None:
    if plant is None:
        return None
    medium = plant.medium(link_id)
    return medium.id if medium is not None else None


def physical_diff(a, plant_a, b, plant_b) -> PhysicalDiff:
    """What changed physically from design ``a`` to design ``b`` (plants: None skips media/BOM)."""
    moved = sorted(
        rid
        for rid, rack in b.racks.items()
        if rid in a.racks
        and (rack.x, rack.y, rack.rotation)
        != (a.racks[rid].x, a.racks[rid].y, a.racks[rid].rotation)
    )
    ends_a = {_ends(link): lid for lid, link in a.links.items()}
    ends_b = {_ends(link): lid for lid, link in b.links.items()}
    flipped = []
    if plant_a is not None and plant_b is not None:
        for key, lid_b in ends_b.items():
            lid_a = ends_a.get(key)
            if lid_a is None:
                continue
            ma, mb = _medium(plant_a, lid_a), _medium(plant_b, lid_b)
            if ma != mb:
                flipped.append({"link": lid_b, "from": ma, "to": mb})
    flipped.sort(key=lambda f: f["link"])
    return PhysicalDiff(
        racks_moved=moved,
        racks_added=sorted(set(b.racks) - set(a.racks)),
        racks_removed=sorted(set(a.racks) - set(b.racks)),
        devices_added=sorted(set(b.devices) - set(a.devices)),
        devices_removed=sorted(set(a.devices) - set(b.devices)),
        links_added=sorted(lid for key, lid in ends_b.items() if key not in ends_a),
        links_removed=sorted(lid for key, lid in ends_a.items() if key not in ends_b),
        media_flipped=flipped,
        bom_changed=_bom_diff(a, plant_a, b, plant_b),
    )


def _bom_diff(a, plant_a, b, plant_b) -> list[dict]:
    if plant_a is None or plant_b is None:
        return []
    from model.bom import bom_lines

    def table(design, plant):
        out: dict[tuple, float] = {}
        for line in bom_lines(design, plant):
            key = (line.category, line.part, line.length_m)
            out[key] = out.get(key, 0.0) + (line.quantity or 0.0)
        return out

    ta, tb = table(a, plant_a), table(b, plant_b)
    changed = []
    for key in sorted(set(ta) | set(tb), key=lambda k: (k[0], k[1], k[2] or 0.0)):
        qa, qb = ta.get(key, 0.0), tb.get(key, 0.0)
        if abs(qa - qb) > 1e-9:
            changed.append(
                {"category": key[0], "part": key[1], "length_m": key[2], "a": qa, "b": qb}
            )
    return changed


def compare(a, plant_a, report_a: dict, b, plant_b, report_b: dict) -> dict:
    """``{"kpis": {name: {"a", "b", "delta"}}, "diff": {...}}`` of two analysed designs."""
    ka, kb = kpis(report_a), kpis(report_b)
    table = {}
    for name in KPI_COLUMNS:
        va, vb = ka[name], kb[name]
        delta = vb - va if va is not None and vb is not None else None
        table[name] = {"a": va, "b": vb, "delta": delta}
    diff = physical_diff(a, plant_a, b, plant_b)
    return {"kpis": table, "diff": diff.to_json(), "identical": diff.is_empty()}
