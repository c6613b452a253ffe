"""The state a NetBox export of patch panels carries between its steps: the rows it adds
(:class:`PanelExport`), the ports handed out per panel (:class:`PanelPorts`) and the per-link
facts the cords and legs share (:class:`LinkFacts`); :mod:`model.outputs.netbox.panels` makes the
cords, :mod:`model.outputs.netbox.panel_legs` the trunk legs, both from these."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from model.catalog.structured import structured_catalog
from model.outputs.netbox.columns import Column
from model.outputs.netbox.names import fit_name
from model.structured.layout import LC_ENCLOSURE, MPO_PANEL

# A cable row's cells: side A and side B (site, device, type, name), then CABLE_ROW_TAIL.
CABLE_WIDTH = range(14)
VIRTUAL_PREFIX = {MPO_PANEL: "PP", LC_ENCLOSURE: "FE"}


@dataclass
class PanelExport:
    """What the panels add to a NetBox export (rows are dicts by NetBox column name)."""

    # The links exported as cord-trunk-cord: their rows in the schedule (sorted) when each has
    # one and a leg of its own, else (None) their ids in ``links``
    links: set[str] = field(default_factory=set)
    rows: np.ndarray | None = None
    virtual: list[tuple[str, str, str]] = field(default_factory=list)  # (name, rack, part)
    # The cables' columns in CABLE_HEADER order, each as its pieces (columns.joined makes one
    # column of them): the cords', then the legs' (a zoned XL hall has ~1.2 M cables: a tuple
    # per row, turned back into columns, was ~1 s; a list per column, ~1 s more).
    cable_columns: list[list[Column]] = field(default_factory=lambda: [[] for _ in CABLE_WIDTH])


@dataclass
class PlacedLegs:
    """The trunk legs in their numbering order with their panel ports, as columns: per leg its
    links, trunk ids and whether its end points are cassettes, and its first node (``start``,
    one entry more: the end of the last leg); per node (a leg's patch points, A end first) its
    panel's NetBox name (``name``: a position in ``names``) and port or slot number.

    A zoned XL hall has 393k legs and 1.2 M nodes: as a list of (name, number) tuples per leg
    they were ~120 MB, and every reader took them apart again."""

    links: list[tuple[str, ...]]
    trunks: list[tuple[str, ...]]
    cassettes: np.ndarray  # bool per leg
    start: np.ndarray  # int64 per leg, and the nodes' count last
    names: list[str]
    name: np.ndarray  # int64 per node
    number: np.ndarray  # int64 per node
    # Per leg its position in the layout's legs (None: not kept)
    layout_legs: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.links)


class PanelPorts:
    """Ports handed out per panel; a virtual holder (not a design device) is split into
    panels of the part's capacity, named after the rack."""

    def __init__(self, design, device_names, rack_names, taken: set[str]):
        self.design, self.names, self.rack_names, self.taken = (
            design,
            device_names,
            rack_names,
            taken,
        )
        self.next: dict[str, int] = defaultdict(int)
        self.virtual: dict[tuple[str, int], tuple[str, str, str]] = {}
        self._per: dict[str, int] = {}  # part id -> ports or slots (the catalog read once)

    def take(self, holder: str, rack_id: str, part_id: str) -> tuple[str, int]:
        """(NetBox device name, port or slot number) of the holder's next free port."""
        self.next[holder] += 1
        n = self.next[holder]
        if holder in self.design.devices:
            return self.names[holder], n
        per = self._per.get(part_id)
        if per is None:
            part = structured_catalog().panels[part_id]
            per = self._per[part_id] = part.slots or part.front_ports
        key = (holder, (n - 1) // per)
        if key not in self.virtual:
            base = f"{self.rack_names[rack_id]}-{VIRTUAL_PREFIX.get(part_id, 'PP')}"
            name = free_name(f"{base}{key[1] + 1}", self.taken)
            self.virtual[key] = (name, rack_id, part_id)
        return self.virtual[key][0], (n - 1) % per + 1


def free_name(name: str, taken: set[str]) -> str:
    """``name`` fitted to NetBox's 64 characters, with -2, -3... until no name ``taken`` has
    it (NetBox compares names case-blind); it is then taken."""
    candidate, n = fit_name(name, 64), 2
    while candidate.casefold() in taken:
        candidate = fit_name(f"{name}-{n}", 64)
        n += 1
    taken.add(candidate.casefold())
    return candidate


class LinkFacts:
    """Labels per link (a zoned XL hall asks ~1.3 M times): the schedule's, read from its
    dict, and the few others made once; the plant, whose medium column gives the cables' types."""

    def __init__(self, design, plant, labels) -> None:
        self.design, self.plant, self.labels = design, plant, labels
        # Only the labels the schedule has not (a copy of the schedule's 393k was ~20 MB at
        # the peak of a zoned XL export).
        self._label: dict[str, str] = {}
        # (links, their medium rows) once the cords looked them up: the legs' first links are
        # often the same list (a leg per link).
        self.media_rows: tuple[list[str], np.ndarray] | None = None

    def labels_of(self, link_ids: list[str]) -> list[str]:
        """:meth:`label` of each link, those the schedule has gathered in C."""
        got = list(map(self.labels.get, link_ids))
        if all(got):  # the schedule labels every link (found in C, not link by link)
            return cast("list[str]", got)
        for k in [k for k, label in enumerate(got) if not label]:
            got[k] = self.label(link_ids[k])
        return cast("list[str]", got)

    def label(self, link_id: str) -> str:
        """The schedule's label of the link, else its own, else its id."""
        got = self.labels.get(link_id)
        if got:
            return got
        got = self._label.get(link_id)
        if got is None:
            got = self._label[link_id] = self.design.links[link_id].label or link_id
        return got
