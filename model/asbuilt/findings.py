"""As-built findings: cabling-check rows and measured lengths as Findings, and each finding's fabric.

The editor's findings list shows the analysis warnings and these side by side, so they share
the analysis' ``Finding`` shape: a stable code, a severity, one sentence and the objects to
select. A measured length deviates when it differs from the routed estimate by more than the
slack the estimate itself allows (``2 x slack_per_end_m + slack_pct``): within that, the
installers used the slack the design gave them; beyond it, the route or the slack settings are
wrong (``model.asbuilt.lengths`` reports the errors per route kind for recalibrating them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from model.asbuilt.cabling_check import MISSING, MISWIRED, UNEXPECTED, UNKNOWN, CheckRow
from model.common.findings import Finding, Severity
from model.design.design import Design
from model.design.fabrics import device_fabric, link_fabric, link_fabric_map
from model.engine.routed_links import RoutedLinks

CABLING_CODES: dict[str, tuple[str, Severity]] = {
    MISWIRED: ("CABLING_MISWIRED", "error"),
    MISSING: ("CABLING_MISSING", "warning"),
    UNEXPECTED: ("CABLING_UNEXPECTED", "warning"),
    UNKNOWN: ("CABLING_UNKNOWN_DEVICE", "info"),
}
LENGTH_CODE = "LENGTH_DEVIATION"


def cabling_findings(design: Design, rows: Iterable[CheckRow]) -> list[Finding]:
    """One finding per cabling-check row that is not OK, naming the link (MISWIRED, MISSING) or
    the device whose free port the report saw cabled (UNEXPECTED)."""
    out = []
    for row in rows:
        coded = CABLING_CODES.get(row.status)
        if coded is None:
            continue
        code, severity = coded
        if row.status == UNEXPECTED:
            objects: tuple[str, ...] = (row.device,) if row.device in design.devices else ()
            message = f"UNEXPECTED: {row.observed}, a port the design leaves free ({row.where})"
        elif row.status == UNKNOWN:
            objects = ()
            message = f"UNKNOWN device: {row.observed} ({row.where})"
        else:
            objects = (row.link_id,) if row.link_id in design.links else ()
            seen = row.observed or "not in the report"
            message = f"{row.status}: {row.label or row.link_id} {row.expected} ; {seen}"
        out.append(Finding(code=code, severity=severity, message=message, objects=objects))
    return out


def length_findings(design: Design, plant: RoutedLinks) -> list[Finding]:
    """A finding per link whose measured (as-built) length differs from its routed estimate
    (the plant's ``routed_m``, with slack) by more than the slack that estimate allows."""
    settings = design.settings
    index, routed_m = plant.index, plant.routed_m
    measured_m = getattr(plant, "_as_built", None)  # each row's link's as_built_m, NaN for none
    if measured_m is not None and np.isnan(measured_m).all():
        return []  # no link of the plant was measured (the usual case: 393k links not walked)
    out = []
    for link in design.links.values():
        measured = link.as_built_m
        if measured is None:
            continue
        row = index.get(link.id)
        if row is None:
            continue
        estimate = float(routed_m[row])
        if not math.isfinite(estimate):
            continue
        allowed_m = 2 * settings.slack_per_end_m + estimate * settings.slack_pct / 100
        deviation_m = measured - estimate
        if abs(deviation_m) <= allowed_m:
            continue
        out.append(
            Finding(
                code=LENGTH_CODE,
                severity="warning",
                message=(
                    f"{link.label or link.id}: measured {measured:.1f} m, routed estimate "
                    f"{estimate:.1f} m ({deviation_m:+.1f} m, more than the {allowed_m:.1f} m "
                    "of slack the estimate allows)"
                ),
                objects=(link.id,),
            )
        )
    return out


# Up to this many findings naming a link, each link's fabric is worked out alone (~20 µs);
# beyond, every link's at once (link_fabric_map: 0.47-0.61 s at 393k links, measured, which a
# single link finding of an XL hall paid after every analysis).
FEW_LINK_FINDINGS = 5_000


def finding_fabrics(design: Design, findings: Sequence[Finding]) -> list[str]:
    """The fabric of each finding ("" when it has none): its first link's, else its first
    switch's. Each named link's fabric by the same rules as the analysis (one link at a time
    when few are named, else all links' at once)."""
    links = design.links
    named = sum(1 for f in findings if any(o in links for o in f.objects))
    fabric_of: dict[str, str] | None = None if named > FEW_LINK_FINDINGS else {}
    out = []
    for finding in findings:
        fabric = ""
        for object_id in finding.objects:
            if object_id in links:
                if fabric_of is None:
                    fabric_of = link_fabric_map(design)
                fabric = fabric_of.get(object_id) or fabric_of.setdefault(
                    object_id, link_fabric(design, object_id)
                )
                break
            if object_id in design.devices:
                fabric = device_fabric(design, object_id) or ""
                if fabric:
                    break
        out.append(fabric)
    return out
