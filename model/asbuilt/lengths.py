"""Measured cable lengths into the design's as-built lengths, and the estimate's error per route.

A lengths file names each cable by its label (the cabling schedule's, also NetBox's cable label)
and gives the measured length in metres. Each matched link gets ``as_built_m`` (the routed
estimate is never overwritten, it stays derived). The comparison uses the estimate the design
had before (``routed_m``: tray path + vertical runs + slack), grouped by route kind, so the slack
settings (per end, percent) can be recalibrated: a mean error of +1 m on tray routes means the
installers needed a metre more than the estimate gives.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import msgspec

from model.asbuilt.report_csv import ReportError, read_table
from model.design.design import Design
from model.engine.routed_links import NO_TRAY_PATH, SAME_RACK, RoutedLinks
from model.outputs.schedule import schedule_rows

LENGTH_COLUMNS = {
    "label": ("label", "cable", "cable label", "cable id", "name"),
    "length_m": ("length_m", "length", "measured", "measured_m", "measured length", "length (m)"),
}
MAX_LENGTH_M = 10_000.0


@dataclass(frozen=True)
class RouteError:
    """Estimate versus measured for one route kind (metres; error = measured - estimate)."""

    route_kind: str
    cables: int
    mean_error_m: float
    mean_abs_error_m: float
    max_abs_error_m: float
    mean_error_pct: float


def route_kind(status: int) -> str:
    if status & SAME_RACK:
        return "same rack"
    if status & NO_TRAY_PATH:
        return "floor (no tray path)"
    return "tray"


def read_lengths(path: str | Path) -> list[tuple[int, str, float]]:
    """(line, label, metres) for every row; bad numbers are refused with their line."""
    out = []
    for line, row in read_table(path, LENGTH_COLUMNS):
        text = row["length_m"].replace(",", ".").removesuffix("m").strip()
        try:
            value = float(text)
        except ValueError:
            raise ReportError(
                f"{path}: line {line}: length {row['length_m']!r} is not a number"
            ) from None
        if not math.isfinite(value) or not 0 < value <= MAX_LENGTH_M:
            raise ReportError(
                f"{path}: line {line}: length {value:g} m is outside 0-{MAX_LENGTH_M:g} m"
            )
        out.append((line, row["label"], value))
    return out


def apply_lengths(
    design: Design, plant: RoutedLinks, measured: list[tuple[int, str, float]]
) -> tuple[list[RouteError], list[str]]:
    """Set ``as_built_m`` of every labelled link; returns (errors per route kind, problems).

    Problems (unknown or repeated labels) are sentences; those rows change nothing.
    """
    by_label: dict[str, str] = {}
    structured: dict[str, str] = {}  # label -> "patch cord" / "trunk": no link of its own
    for row in schedule_rows(design, plant):
        if row.cable_id in design.links:
            by_label[row.label] = row.cable_id
        else:
            structured.setdefault(row.label, row.medium_kind.replace("-", " "))
    for link in design.links.values():
        if link.label:
            by_label.setdefault(link.label, link.id)
    problems: list[str] = []
    seen: dict[str, int] = {}
    updates = {}
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for line, label, value in measured:
        link_id = by_label.get(label)
        if link_id is None and label in structured:
            # A cord or trunk carries parts of many links: its length is no link's length
            problems.append(
                f"line {line}: {label!r} is a {structured[label]} of the structured cabling; "
                "as-built lengths are kept for point-to-point cables only, the row changes nothing"
            )
            continue
        if link_id is None:
            problems.append(f"line {line}: no cable labelled {label!r}")
            continue
        if label in seen:
            problems.append(f"line {line}: cable {label!r} already measured on line {seen[label]}")
            continue
        seen[label] = line
        i = plant.index[link_id]
        estimate = float(plant.routed_m[i])
        if math.isfinite(estimate):
            groups[route_kind(int(plant.status[i]))].append((estimate, value))
        updates[link_id] = msgspec.structs.replace(design.links[link_id], as_built_m=value)
    if updates:
        design.update_links(updates.values())
    errors = []
    for kind in sorted(groups):
        pairs = groups[kind]
        diffs = [m - e for e, m in pairs]
        pct = [100 * (m - e) / e for e, m in pairs if e > 0]
        errors.append(
            RouteError(
                route_kind=kind,
                cables=len(pairs),
                mean_error_m=sum(diffs) / len(diffs),
                mean_abs_error_m=sum(abs(d) for d in diffs) / len(diffs),
                max_abs_error_m=max(abs(d) for d in diffs),
                mean_error_pct=sum(pct) / len(pct) if pct else 0.0,
            )
        )
    return errors, problems
