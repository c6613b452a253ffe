"""PlantFeed: the one owner of a document's cable-plant refreshes in the editor.

Before it, three places called ``plant.refresh()`` and the first emptied the plant's queue of
edits for the others (so the links table, say, never learnt which links changed and reset
whole). Now every GUI consumer asks the feed: after an edit the feed refreshes the plant on the
next turn of the event loop (or at once, when a consumer needs the plant current right now:
``ensure_fresh()``) and announces *every* refresh with the ids of the links whose length or
medium changed (``refreshed``), so each consumer updates only those.

A tray-only edit may be re-routed off the GUI thread (``offload_trays``, set by the analysis
runner that does it): the feed then leaves the edit unapplied (``rerouting`` is True, the plan
says so), the runner's worker re-routes a copy of the plant before its analysis, and the
feed ``adopt``s the copy as soon as it comes back (0.5-0.7 s of CPU at XL kept off the GUI
thread, see :mod:`model.engine.retray_copy`). A consumer that needs the plant current at once
(``ensure_fresh()``: a measurement, a connection) still gets it applied here; passive
consumers (the plan's links) ask with ``defer_trays=True`` and wait for ``refreshed``.

One feed per plant (``feed_for(design, plant)``), kept beside the plant rather than passed
through every constructor (a choice: the scene, the runner and the links table are made in
different places from the same plant); the feed holds the plant weakly and stops once the
plant is gone. GUI thread only.
"""

from __future__ import annotations

import weakref
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from model.design.changes import TRAY_KINDS, Change, ChangeKind
from model.design.design import Design
from model.engine.retray_copy import adopt, pending_tray_edits, refresh_in_steps
from model.engine.routed_links import RoutedLinks


@dataclass(
    frozen=True, eq=False
)  # compared and hashed by identity: ChangedRows is a set, unhashable
class PlantUpdate:
    """One refresh: the links whose route or medium changed, at this design revision (after a
    worker's re-route, a :class:`~model.engine.changed_rows.ChangedRows`: ids named when read)."""

    changed: AbstractSet[str]
    revision: int


class PlantFeed(QObject):
    """Refreshes one plant after each edit and tells every listener which links changed."""

    refreshed = Signal(object)  # PlantUpdate
    rerouting_changed = Signal(bool)  # a tray edit's re-route handed to the worker, or done

    def __init__(self, design: Design, plant: RoutedLinks) -> None:
        super().__init__()
        self.design = design
        self._plant = weakref.ref(plant)  # the plant keeps its feed alive, not the reverse
        self.closed = False
        self.refreshes = 0  # how many refreshes found edits to apply (tests, diagnostics)
        self._dirty = False
        # Set by the analysis runner that re-routes tray edits on its worker (see above).
        self.offload_trays = False
        self._rerouting = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        # A bound method, not a lambda: PySide keeps a connected lambda (and the feed it
        # captures) alive for as long as the timer, which the feed owns, a cycle through C++
        # the collector cannot see; the closed feed then held its design (and every
        # subscriber's window) for the rest of the process.
        self._timer.timeout.connect(self._refresh_deferred)
        self._subscription = design.subscribe(self._on_change)

    @property
    def plant(self) -> RoutedLinks | None:
        return self._plant()

    def _refresh_deferred(self) -> None:
        self.ensure_fresh(defer_trays=True)

    def close(self) -> None:
        self._subscription.close()
        self._timer.stop()
        self.closed = True

    @property
    def dirty(self) -> bool:
        """True while an edit has not reached the plant yet."""
        return self._dirty

    @property
    def rerouting(self) -> bool:
        """True while a tray edit waits for its re-route on the worker (the plant is a step behind)."""
        return self._rerouting

    def _set_rerouting(self, on: bool) -> None:
        if on != self._rerouting:
            self._rerouting = on
            self.rerouting_changed.emit(on)

    # Set by the runner while one of its jobs re-routes this plant's tray edits.
    waiting_on_worker = False

    def deferred_edits(self) -> tuple[Change, ...]:
        """The unapplied tray edits the worker is to re-route (``()`` when not rerouting)."""
        plant = self.plant
        return pending_tray_edits(plant) if self._rerouting and plant is not None else ()

    def adopt(
        self, worked: RoutedLinks, applied: tuple[Change, ...], changed: AbstractSet[str]
    ) -> bool:
        """The worker re-routed ``applied`` on the copy ``worked``: the live plant takes it
        and every listener hears the links that changed; False when the plant has other edits
        since (or was refreshed here meanwhile), and nothing is taken."""
        plant = self.plant
        if plant is None or not applied or not adopt(plant, worked, applied):
            return False
        self._dirty = plant.has_unapplied_edits  # edits made since stay, applied next turn
        self._set_rerouting(False)
        self.refreshes += 1
        self.refreshed.emit(PlantUpdate(changed, self.design.revision))
        if self._dirty:
            self._timer.start()
        return True

    def _on_change(self, change: Change) -> None:
        if change.kinds == {ChangeKind.NAME_CHANGED}:
            return
        self._dirty = True
        self._timer.start()
        plant = self.plant
        if self.offload_trays and change.kinds <= TRAY_KINDS and plant is not None:
            # The deferred refresh on the next turn would leave it to the worker and say so
            # (``ensure_fresh(defer_trays=True)``): said now, the plan's "updating…" is drawn in
            # the edit's own repaint, not in a repaint of its own before the job starts (~1 ms
            # of the GUI thread at XL, on the way from a tray drop to the fresh panel).
            if pending_tray_edits(plant):
                self._set_rerouting(True)

    def ensure_fresh(self, defer_trays: bool = False) -> PlantUpdate | None:
        """Apply pending edits to the plant now and announce them; None if there were none.

        ``defer_trays``: edits of the trays alone are left to the worker when ``offload_trays``
        (``rerouting`` then says so, and None is returned)."""
        self._timer.stop()
        plant = self.plant
        if plant is None:  # the document closed: follow nothing more
            self.close()
            return None
        if not self._dirty:
            return None
        if defer_trays and self.offload_trays:
            # Tray edits alone go to the worker; an edit of another kind made while it
            # re-routes them waits for its copy (applied on top of it, not with it).
            if pending_tray_edits(plant) or (self._rerouting and self.waiting_on_worker):
                self._set_rerouting(True)
                return None
        self._dirty = False
        self._set_rerouting(False)  # applied here: a copy on the worker will be refused
        update = PlantUpdate(frozenset(refresh_in_steps(plant)), self.design.revision)
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
