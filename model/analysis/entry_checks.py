"""Entries a design file may hold that no real hall has: each named by a warning.

The loader accepts what the file format allows (a length is any positive number, a role any
role); these values are legal but almost certainly typing slips, and a design that carries them
silently orders wrong parts. Thresholds (chosen, and why):

* ``LENGTH_IMPLAUSIBLE``: a typed or measured cable length under ``MIN_CABLE_M`` (0.1 m). The
  shortest orderable copper in the catalog is 0.5 m; a length of millimetres is a unit slip
  (mm typed into a metre field).
* ``RACK_IMPLAUSIBLE_SIZE``: a rack narrower than a 19-inch mounting frame (``MIN_RACK_WIDTH_M``,
  0.483 m, EIA-310) or shallower than ``MIN_RACK_DEPTH_M`` (0.3 m, below the shallowest wall
  cabinets): no device of the catalog fits it, so its footprint on the plan is wrong.
* ``ROLE_CONTRADICTS_TYPE``: a device whose role puts it on the other side of a line its type
  draws: a GPU server as a switch or a switch as a GPU server, a patch panel as anything else,
  an NVLink switch tray as a scale-out switch. The analysis counts GPUs and tiers by role, so
  such a device changes every figure.
"""

from __future__ import annotations

from model.common.findings import Finding
from model.common.wording import count
from model.design.design import Design

MIN_CABLE_M = 0.1
MIN_RACK_WIDTH_M = 0.483
MIN_RACK_DEPTH_M = 0.3
# Roles a type's default role may not trade: the set each side of the line.
_EXCLUSIVE = ("gpu-server", "patch-panel", "nvlink-switch")
MAX_LISTED = 5


def entry_findings(design: Design) -> list[Finding]:
    return [*_lengths(design), *_racks(design), *_roles(design)]


def _listed(names: list[str]) -> str:
    more = f" and {len(names) - MAX_LISTED:,} more" if len(names) > MAX_LISTED else ""
    return ", ".join(names[:MAX_LISTED]) + more


def _lengths(design: Design) -> list[Finding]:
    # Only the links with a typed or measured length are looked at closely (XL: 463k links,
    # none typed: a pair of tuples per link was 0.09 s of every report).
    typed = [
        link
        for link in design.links.values()
        if link.length_override_m is not None or link.as_built_m is not None
    ]
    short = [
        (link, value, what)
        for link in typed
        for value, what in ((link.length_override_m, "typed"), (link.as_built_m, "measured"))
        if value is not None and value < MIN_CABLE_M
    ]
    if not short:
        return []
    names = [f"{link.label or link.id} ({what} {value:g} m)" for link, value, what in short]
    return [
        Finding(
            code="LENGTH_IMPLAUSIBLE",
            severity="warning",
            message=f"{count(len(short), 'link length')} under {MIN_CABLE_M} m, shorter than any cable "
            f"(a length in millimetres typed as metres?): {_listed(names)}.",
            objects=tuple(dict.fromkeys(link.id for link, _v, _w in short)),
        )
    ]


def _racks(design: Design) -> list[Finding]:
    small = [
        r
        for r in design.racks.values()
        if r.width_m < MIN_RACK_WIDTH_M or r.depth_m < MIN_RACK_DEPTH_M
    ]
    if not small:
        return []
    names = [f"{r.name} ({r.width_m:g} x {r.depth_m:g} m)" for r in small]
    return [
        Finding(
            code="RACK_IMPLAUSIBLE_SIZE",
            severity="warning",
            message=f"{count(len(small), 'rack')} narrower than a 19-inch frame ({MIN_RACK_WIDTH_M} m) "
            f"or shallower than {MIN_RACK_DEPTH_M} m: {_listed(names)}.",
            objects=tuple(r.id for r in small),
        )
    ]


def _roles(design: Design) -> list[Finding]:
    types = design.catalog.device_types
    odd = []
    # Judged once per (type, role), not per device (27k devices at XL with every network)
    contradicts: dict[tuple[str, str], bool] = {}
    for device in design.devices.values():
        key = (device.type, device.role)
        verdict = contradicts.get(key)
        if verdict is None:
            dtype = types.get(device.type)
            verdict = contradicts[key] = dtype is not None and any(
                (dtype.default_role == r) != (device.role == r) for r in _EXCLUSIVE
            )
        if verdict:
            odd.append(device)
    if not odd:
        return []
    names = [f"{d.name} ({types[d.type].model} as {d.role})" for d in odd]
    return [
        Finding(
            code="ROLE_CONTRADICTS_TYPE",
            severity="warning",
            message=f"{count(len(odd), 'device')} with a role its type cannot have: {_listed(names)}.",
            objects=tuple(d.id for d in odd),
        )
    ]
