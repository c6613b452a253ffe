"""Schema migrations of design files: each step turns a version-n document (plain JSON values,
as parsed) into a version n+1 document, before it is validated (:mod:`model.files.design_file`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Migration = Callable[[dict[str, Any]], dict[str, Any]]

# v1 -> v2 (fabric membership): a v1 design knew only the compute fabric (plus NVLink
# scale-up), so its switches are pinned to the fabric their role meant then; links stay derived.
_V1_SWITCH_FABRIC = {
    "leaf": "compute",
    "spine": "compute",
    "core": "compute",
    "switch": "compute",
    "nvlink-switch": "scale-up",
    "management": "oob",
}


def _v1_to_v2(raw: dict[str, Any]) -> dict[str, Any]:
    """Give every v1 switch an explicit ``fabric`` (v2 adds optional ``fabric`` to devices and links)."""
    devices = raw.get("devices")
    if isinstance(devices, list):
        for device in devices:
            if isinstance(device, dict) and "fabric" not in device:
                role = device.get("role")
                fabric = _V1_SWITCH_FABRIC.get(role) if isinstance(role, str) else None
                if fabric is not None:
                    device["fabric"] = fabric
    return raw


def _v2_to_v3(raw: dict[str, Any]) -> dict[str, Any]:
    """Nothing to rewrite: v3 adds optional ``via`` (patch panels) to links and the ``zones``
    cabling style; a v2 file is a valid v3 file. The step exists so that an older Hallwright
    refuses a v3 file by its version, not by an unknown field."""
    return raw


def _v3_to_v4(raw: dict[str, Any]) -> dict[str, Any]:
    """Nothing to rewrite: v4 adds only optional records. The facility (the hall's ``power``,
    ``cooling`` and ``floor_rating_kg_m2``, a rack's ``pdus`` and ``cooling``): a v3 file states
    none of them, so its floor load is reported but unchecked until a rating is set. The hall's
    ``underlay`` (the building's drawing) and ``dimensions``, an obstacle's ``height_m`` and the
    settings' NetBox names. The step exists so that an older Hallwright refuses a v4 file by its
    version, not by an unknown field."""
    return raw


# MIGRATIONS[n] turns a version-n document (plain JSON values) into a version n+1 document.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}
