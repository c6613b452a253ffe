"""One routed plant, its rack distances and its last structured layout while a hall is cabled.

``generate --cabling`` places panels, then patch racks, then widens trays, in rounds
(:func:`model.generators.generate.apply_cabling`); each step asked for its own routed plant
and structured layout, and each layout searched the tray distance of every rack pair it
needed again (L with every network, zoned: four layouts, 2,432 Dijkstra searches, 3.9 s of
14.8 s CPU). The session keeps, between the steps:

* **the plant**: a :class:`~model.engine.routed_links.RoutedLinks` refreshed after edits of
  the trays alone (as the tray sizing loop always did); after any other edit it is built
  afresh, as each step did: the plant's refresh does not choose media again for links that
  placed panels or moved patch racks send elsewhere (XL with every network, zoned, refreshed
  throughout: one patch rack and 75 panels fewer than the steps' own plants placed);
* **the rack distances**: a pair's tray distance depends only on the two racks' positions
  and the tray graph (the trays' points, elevations and floor side, the hall, the join
  tolerance and reach), so it is kept while those are unchanged, keyed by the racks'
  positions too (a rack moved by a patch rack is searched again);
* **the layout**: it is a pure function of the plant and the design, and the width and name
  of a tray are in neither (the engine routes along the trays' lines): after the trays were
  only widened, the next round's panel placement reads the layout the widening computed.

Anything else edited since (a rack, a device, a link, a setting, a tray's line) makes the
next layout afresh.
"""

from __future__ import annotations

from model.design.changes import TRAY_KINDS, Change, ChangeKind
from model.design.design import Design
from model.engine.routed_links import RoutedLinks
from model.structured.layout import StructuredLayout, structured_layout
from model.structured.leg_reuse import tray_graph_key  # one key for both memos of distances
from model.structured.paths import RackDistances


class CablingSession:
    """The plant, rack distances and last layout of ``design`` while it is cabled; close it
    (or use it as a context manager) to stop following the design."""

    def __init__(self, design: Design) -> None:
        self.design = design
        self.plant = RoutedLinks(design)
        self.distances = RackDistances(self.plant)
        self._edits: list[Change] = []  # since the last layout
        self._plant_edits: list[Change] = []  # since the plant was built
        self._subscription = design.subscribe(self._note)
        self._layout: StructuredLayout | None = None
        self._layout_full = False
        self._layout_key: tuple | None = None
        self.layouts_made = 0  # how many layouts were computed (the tests count them)

    def __enter__(self) -> CablingSession:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def _note(self, change: Change) -> None:
        self._edits.append(change)
        self._plant_edits.append(change)

    def close(self) -> None:
        self._subscription.close()
        self.plant.close()

    def refreshed(self) -> RoutedLinks:
        """The plant with every edit so far applied: refreshed after tray edits alone, else
        built afresh (see the module docstring)."""
        edits, self._plant_edits[:] = list(self._plant_edits), []
        if all(c.kinds <= TRAY_KINDS for c in edits):
            self.plant.refresh()
        else:
            # The old plant and layout (stale now) are let go before the new plant is built:
            # held meanwhile, XL's peak was 0.2 GB above the steps' own plants'.
            self.plant.close()
            self._layout = None
            del self.plant
            self.distances.use(None)
            self.plant = RoutedLinks(self.design)
            self.distances.use(self.plant)
        return self.plant

    def layout(self, panels_only: bool = False) -> StructuredLayout:
        """The design's structured layout now: the last one when nothing it reads changed
        since (a full layout also answers for ``panels_only``), else laid out afresh."""
        plant = self.refreshed()
        key = tray_graph_key(self.design)
        edits, self._edits[:] = list(self._edits), []
        only_trays = all(c.kinds <= {ChangeKind.TRAYS_CHANGED} for c in edits)
        if (
            self._layout is not None
            and only_trays
            and key == self._layout_key
            and (self._layout_full or panels_only)
        ):
            return self._layout
        self.distances.follow(key)
        self._layout = None  # not kept alive while the next one is made (XL: millions of objects)
        self._layout = structured_layout(plant, panels_only=panels_only, distances=self.distances)
        self._layout_full = not panels_only
        self._layout_key = key
        self.layouts_made += 1
        return self._layout
