"""PlantFeed: the one owner of a document's cable-plant refreshes in the editor.

Before it, three places called ``plant.refresh()`` and the first emptied the plant's queue of
edits for the others (so the links table, say, never learnt which links changed and reset
whole). Now every GUI consumer asks the feed: after an edit the feed refreshes the plant on the
next turn of the event loop (or at once, when a consumer needs the plant current right now:
``ensure_fresh()``) and announces *every* refresh with the ids of the links whose length or
medium changed (``refreshed``), so each consumer updates only those.

One feed per plant (``feed_for(design, plant)``), kept beside the plant rather than passed
through every constructor (a choice: the scene, the runner and the links table are made in
different places from the same plant); the feed holds the plant weakly and stops once the
plant is gone. GUI thread only.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from model.design.changes import Change, ChangeKind
from model.design.design import Design
from model.engine.routed_links import RoutedLinks


@dataclass(frozen=True)
class PlantUpdate:
    """One refresh: the links whose route or medium changed, at this design revision."""

    changed: frozenset[str]
    revision: int


class PlantFeed(QObject):
    """Refreshes one plant after each edit and tells every listener which links changed."""

    refreshed = Signal(object)  # PlantUpdate

    def __init__(self, design: Design, plant: RoutedLinks) -> None:
        super().__init__()
        self.design = design
        self._plant = weakref.ref(plant)  # the plant keeps its feed alive, not the reverse
        self.closed = False
        self.refreshes = 0  # how many refreshes found edits to apply (tests, diagnostics)
        self._dirty = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.ensure_fresh)
        self._subscription = design.subscribe(self._on_change)

    @property
    def plant(self) -> RoutedLinks | None:
        return self._plant()

    def close(self) -> None:
        self._subscription.close()
        self._timer.stop()
        self.closed = True

    @property
    def dirty(self) -> bool:
        """True while an edit has not reached the plant yet."""
        return self._dirty

    def _on_change(self, change: Change) -> None:
        if change.kinds == {ChangeKind.NAME_CHANGED}:
            return
        self._dirty = True
        self._timer.start()

    def ensure_fresh(self) -> PlantUpdate | None:
        """Apply pending edits to the plant now and announce them; None if there were none."""
        self._timer.stop()
        plant = self.plant
        if plant is None:  # the document closed: follow nothing more
            self.close()
            return None
        if not self._dirty:
            return None
        self._dirty = False
        update = PlantUpdate(frozenset(plant.refresh()), self.design.revision)
        self.refreshes += 1
        self.refreshed.emit(update)
        return update


_FEEDS: weakref.WeakKeyDictionary[RoutedLinks, PlantFeed] = weakref.WeakKeyDictionary()


def feed_for(design: Design, plant: RoutedLinks) -> PlantFeed:
    """The feed of ``plant`` (made on first use); every GUI consumer of one plant shares it."""
    feed = _FEEDS.get(plant)
    if feed is None or feed.design is not design or feed.closed:
        feed = _FEEDS[plant] = PlantFeed(design, plant)
    return feed


def close_feed(plant: RoutedLinks | None) -> None:
    """The plant is being closed: its feed (if any) stops following the design."""
    feed = _FEEDS.pop(plant, None) if plant is not None else None
    if feed is not None:
        feed.close()
