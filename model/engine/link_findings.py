"""Findings of the cable plant: links with no tray path, no medium, or a pinned medium out of reach.

``NO_TRAY_PATH`` (warning) is grouped so that one badly placed rack gives one finding, not one
per cable: one per rack farther than the tray reach from every tray, and one per pair of reached
racks whose trays do not meet. ``NO_MEDIUM_REACHES`` (error), ``PINNED_MEDIUM_OUT_OF_REACH`` and
``PINNED_MEDIUM_MISMATCH`` (warnings: pinned medium of another speed, lane rate or form factor)
are one per link, with the link and its two devices as objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from model.common.findings import Finding, Severity, sort_findings
from model.engine.floor_blocks import floor_block_findings
from model.engine.link_status import NO_MEDIUM, NO_TRAY_PATH, PINNED_MISMATCH, PINNED_OUT_OF_REACH

if TYPE_CHECKING:  # for the annotation only: the plant imports this module
    from model.engine.link_table import LinkTable


def plant_findings(plant: LinkTable) -> list[Finding]:
    design = plant.design
    out: list[Finding] = []
    reach = design.settings.tray_reach_m
    unreached: dict[str, list[str]] = {}
    pairs: dict[tuple[str, str], list[str]] = {}
    floor_pairs: dict[tuple[str, str], list[str]] = {}  # every floor run, for obstacles
    for row in np.flatnonzero(plant.status & NO_TRAY_PATH).tolist():
        link = design.links[plant.link_ids[row]]
        ra = design.devices[link.a.device].rack
        rb = design.devices[link.b.device].rack
        lost = [
            r
            for r, drop in ((ra, plant.drop_a[row]), (rb, plant.drop_b[row]))
            if plant.off_trays(drop)
        ]
        floor_pairs.setdefault((min(ra, rb), max(ra, rb)), []).append(link.id)
        for rack in lost:
            unreached.setdefault(rack, []).append(link.id)
        if not lost:
            pairs.setdefault((min(ra, rb), max(ra, rb)), []).append(link.id)
    for rack_id, links in sorted(unreached.items()):
        name = design.racks[rack_id].name
        out.append(
            Finding(
                code="NO_TRAY_PATH",
                severity="warning",
                message=(
                    f"rack {name} is more than {reach:g} m from every tray: "
                    f"{len(links)} link(s) are routed on the floor"
                ),
                objects=(rack_id, *links),
            )
        )
    for (ra, rb), links in sorted(pairs.items()):
        out.append(
            Finding(
                code="NO_TRAY_PATH",
                severity="warning",
                message=(
                    f"no tray path between racks {design.racks[ra].name} and "
                    f"{design.racks[rb].name}: {len(links)} link(s) are routed on the floor"
                ),
                objects=(ra, rb, *links),
            )
        )
    out += floor_block_findings(design, floor_pairs)
    checks: tuple[tuple[int, str, Severity], ...] = (
        (NO_MEDIUM, "NO_MEDIUM_REACHES", "error"),
        (PINNED_OUT_OF_REACH, "PINNED_MEDIUM_OUT_OF_REACH", "warning"),
        (PINNED_MISMATCH, "PINNED_MEDIUM_MISMATCH", "warning"),
    )
    for flag, code, severity in checks:
        rows = np.flatnonzero(plant.status & flag)
        # Worded for all rows at once (the same words as plant.reason, one per link): a hall
        # whose far management links no copper reaches has thousands of them.
        words = plant.reasons(rows) if len(rows) else []
        for row, why in zip(rows.tolist(), words, strict=True):
            link = design.links[plant.link_ids[row]]
            ends = f"{_end(design, link.a)} – {_end(design, link.b)}"
            out.append(
                Finding(
                    code=code,
                    severity=severity,
                    message=f"link {link.label or link.id} ({ends}): {why}",
                    objects=(link.id, link.a.device, link.b.device),
                )
            )
    return sort_findings(out)


def _end(design, end) -> str:
    return f"{design.devices[end.device].name} {end.port}"
