"""Measured cable lengths into the design's as-built lengths, and the estimate's error per route.

A lengths file names each cable by its label (the cabling schedule's, also NetBox's cable label)
and gives the measured length in metres. Each matched link gets ``as_built_m`` (the routed
estimate is never overwritten, it stays derived). The comparison uses the estimate the design
had before (``routed_m``: tray path + vertical runs + slack), grouped by route kind, so the slack
settings (per end, percent) can be recalibrated: a mean error of +1 m on tray routes means the
installers needed a metre more than the estimate gives.

A structured design's patch cords and trunks have labels of their own (the schedule's segment
rows); a length measured for one is recorded as that piece of its links
(``Link.as_built_pieces_m``), which the structured layout then uses instead of its estimate,
and its error is grouped as "patch cord" or "trunk".
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import msgspec

from model.asbuilt.report_csv import ReportError, read_table
from model.design.design import Design
from model.design.entities import Link
from model.design.link_entries import pieces_problem
from model.engine.routed_links import NO_TRAY_PATH, SAME_RACK, RoutedLinks
from model.outputs.schedule import schedule_rows
from model.plant.physical_plant import build_plant
from model.structured.cords import recorded_pieces
from model.structured.layout import uses_structured
from model.structured.layout_records import StructuredLayout

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


class StructuredPieces:
    """The cords and trunks of a structured design by schedule label, and the lengths measured
    for them, made into each link's recorded pieces (``Link.as_built_pieces_m``: cord A, each
    trunk A to B, cord B). A trunk is a piece of every link it carries; a link's pieces it
    already had recorded stay unless measured again."""

    def __init__(self, design: Design, plant: RoutedLinks):
        self.design = design
        self.phys = build_plant(plant, with_links=True)
        layout = self.phys.structured
        # uses_structured(design): build_plant has laid it out
        assert isinstance(layout, StructuredLayout)
        self.layout = layout
        self.trunks = {t.id: t for t in layout.trunks}
        self._cords: dict[tuple[str, int], float] = {}  # (link, 0 = A / 1 = B) -> as laid
        cords = layout.cords
        for link_id, a_m, b_m in zip(cords.link_ids, cords.a_m, cords.b_m, strict=True):
            self._cords.setdefault((link_id, 0), a_m)
            self._cords.setdefault((link_id, 1), b_m)
        self.by_label: dict[str, str] = {}  # schedule label -> cable id (link:cord-a, trunk id)
        self._records: dict[str, list[float | None]] = {}

    def add_row(self, row) -> None:
        self.by_label.setdefault(row.label, row.cable_id)

    def __contains__(self, label: str) -> bool:
        return label in self.by_label

    def _record_of(self, link_id: str) -> list[float | None]:
        record = self._records.get(link_id)
        if record is None:
            middle = self.layout.channels.middle_of(link_id)
            trunks = sum(1 for e in middle if e.kind == "trunk")
            had = recorded_pieces(self.design.links[link_id], trunks)
            record = self._records[link_id] = list(had or (None,) * (trunks + 2))
        return record

    def record(self, label: str, value: float) -> tuple[str, float]:
        """Records ``value`` as the piece labelled ``label``; returns (its kind, the estimate
        it replaces: the layout's length before rounding up to a stock length)."""
        cable_id = self.by_label[label]
        trunk = self.trunks.get(cable_id)
        if trunk is not None:
            for link_id in trunk.links:
                middle = self.layout.channels.middle_of(link_id)
                ids = [e.object_id for e in middle if e.kind == "trunk"]
                # A link of several fibres: its record is its channel's (first) fibre's
                if trunk.id in ids:
                    self._record_of(link_id)[1 + ids.index(trunk.id)] = value
            return "trunk", trunk.length_m
        link_id, _, end = cable_id.rpartition(":cord-")
        b_end = end.startswith("b")  # "a", "b", or "a.2" (a link of several fibres)
        record = self._record_of(link_id)
        record[-1 if b_end else 0] = value
        return "patch cord", self._cords.get((link_id, int(b_end)), math.nan)

    def into(self, updates: dict[str, Link], problems: list[str]) -> None:
        """Each link given a length, with its recorded pieces, into ``updates`` (link id -> the
        link as it will be); a record the file could not hold is one of ``problems`` instead."""
        for link_id, pieces in self._records.items():
            record = tuple(pieces)
            link = updates.get(link_id, self.design.links[link_id])
            # A via naming a device that is no panel (its channel skips it) has more panels
            # than the channel: the file could not hold the record, so it is said, not saved
            problem = pieces_problem(record, link.via)
            if problem is not None:
                problems.append(f"link {link_id}: its measured cords and trunks: {problem}")
                continue
            updates[link_id] = msgspec.structs.replace(link, as_built_pieces_m=record)


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

    Problems (unknown or repeated labels) are sentences; those rows change nothing. A cord's
    or trunk's label (the schedule's segment rows) records that piece of its links
    (:class:`StructuredPieces`); its error is reported as route kind "patch cord" / "trunk".
    """
    by_label: dict[str, str] = {}
    pieces = StructuredPieces(design, plant) if uses_structured(design) else None
    for row in schedule_rows(design, plant, pieces.phys if pieces else None):
        if row.cable_id in design.links:
            by_label[row.label] = row.cable_id
        elif pieces is not None:
            pieces.add_row(row)
    for link in design.links.values():
        if link.label:
            by_label.setdefault(link.label, link.id)
    problems: list[str] = []
    seen: dict[str, int] = {}
    updates = {}
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for line, label, value in measured:
        link_id = by_label.get(label)
        if label in seen:  # only labels applied are in it
            problems.append(f"line {line}: cable {label!r} already measured on line {seen[label]}")
            continue
        if link_id is None and pieces is not None and label in pieces:
            # A cord or trunk of the structured cabling: recorded as its links' piece
            seen[label] = line
            kind, estimate = pieces.record(label, value)
            if math.isfinite(estimate):
                groups[kind].append((estimate, value))
            continue
        if link_id is None:
            problems.append(f"line {line}: no cable labelled {label!r}")
            continue
        seen[label] = line
        i = plant.index[link_id]
        estimate = float(plant.routed_m[i])
        if math.isfinite(estimate):
            groups[route_kind(int(plant.status[i]))].append((estimate, value))
        updates[link_id] = msgspec.structs.replace(design.links[link_id], as_built_m=value)
    if pieces is not None:
        pieces.into(updates, problems)
    if updates:
        design.update_links(updates.values())
    return _route_errors(groups), problems


def _route_errors(groups: dict[str, list[tuple[float, float]]]) -> list[RouteError]:
    """Per route kind, the (estimate, measured) pairs summed up."""
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
    return errors
