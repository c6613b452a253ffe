"""The semantic diff of two designs a reviewer reads: objects moved, added, removed, re-routed, media flipped, KPI and BOM delta.

It extends :func:`model.studies.compare.compare_designs` (the KPI table, racks moved, links
added and removed by their ends, media flipped, BOM lines changed) with what a pull request
review also asks: which devices moved to another rack or U, which links kept their ends but
now run a different length (re-routed: a moved rack or a changed tray), which records had a
field edited (a pinned medium, a length override, a tray's path), and which settings changed.
Records are matched by id, as the file and the merge driver match them.
"""

from __future__ import annotations

import msgspec

from model.studies.compare import compare_designs

REROUTE_TOLERANCE_M = 0.01  # a length change below 1 cm is float noise, not a new route
SECTIONS = ("trays", "racks", "devices", "links")


def _changed_fields(a, b) -> list[str]:
    pa, pb = msgspec.to_builtins(a), msgspec.to_builtins(b)
    return sorted(k for k in set(pa) | set(pb) if pa.get(k) != pb.get(k))


def record_changes(a, b) -> dict[str, list[dict]]:
    """Per section, the records of both designs whose fields differ: ``{"id", "fields"}``."""
    out: dict[str, list[dict]] = {}
    for section in SECTIONS:
        ta, tb = getattr(a, section), getattr(b, section)
        rows = []
        for oid in sorted(set(ta) & set(tb)):
            if ta[oid] != tb[oid]:
                rows.append({"id": oid, "fields": _changed_fields(ta[oid], tb[oid])})
        out[section] = rows
    return out


def devices_moved(a, b) -> list[dict]:
    """Devices in both whose rack or U changed: ``{"id", "from": [rack, u], "to": [rack, u]}``."""
    moved = []
    for did in sorted(set(a.devices) & set(b.devices)):
        da, db = a.devices[did], b.devices[did]
        if (da.rack, da.u) != (db.rack, db.u):
            moved.append({"id": did, "from": [da.rack, da.u], "to": [db.rack, db.u]})
    return moved


def links_rerouted(a, plant_a, b, plant_b) -> list[dict]:
    """Links of the same id and ends in both whose effective length changed by more than
    :data:`REROUTE_TOLERANCE_M`: ``{"id", "from_m", "to_m"}``."""
    if plant_a is None or plant_b is None:
        return []
    out = []
    for lid in sorted(set(a.links) & set(b.links)):
        la, lb = a.links[lid], b.links[lid]
        if {la.a, la.b} != {lb.a, lb.b}:
            continue
        ma = float(plant_a.length_m[plant_a.index[lid]])
        mb = float(plant_b.length_m[plant_b.index[lid]])
        if abs(ma - mb) > REROUTE_TOLERANCE_M:
            out.append({"id": lid, "from_m": round(ma, 3), "to_m": round(mb, 3)})
    return out


def settings_changed(a, b) -> list[dict]:
    """Design settings and hall fields that differ: ``{"name", "a", "b"}``."""
    out = []
    for prefix, va, vb in (("settings", a.settings, b.settings), ("hall", a.hall, b.hall)):
        pa, pb = msgspec.to_builtins(va), msgspec.to_builtins(vb)
        for key in sorted(set(pa) | set(pb)):
            if pa.get(key) != pb.get(key):
                out.append({"name": f"{prefix}.{key}", "a": pa.get(key), "b": pb.get(key)})
    if a.name != b.name:
        out.append({"name": "name", "a": a.name, "b": b.name})
    return out


def semantic_diff(a, plant_a, b, plant_b) -> dict:
    """The review diff of ``a`` -> ``b`` as plain JSON values (plants: up to date, or None to
    leave out media, lengths, KPIs and the BOM)."""
    result, _ = compare_designs(a, plant_a, b, plant_b)
    diff = result["diff"]
    diff["devices_moved"] = devices_moved(a, b)
    diff["links_rerouted"] = links_rerouted(a, plant_a, b, plant_b)
    diff["trays_added"] = sorted(set(b.trays) - set(a.trays))
    diff["trays_removed"] = sorted(set(a.trays) - set(b.trays))
    diff["records_changed"] = record_changes(a, b)
    diff["settings_changed"] = settings_changed(a, b)
    identical = result["identical"] and not (
        diff["devices_moved"]
        or diff["links_rerouted"]
        or diff["trays_added"]
        or diff["trays_removed"]
        or any(diff["records_changed"].values())
        or diff["settings_changed"]
    )
    return {"kpis": result["kpis"], "diff": diff, "identical": identical}
