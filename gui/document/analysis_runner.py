"""AnalysisRunner: keeps a document's analysis report current, debounced and off the GUI thread.

Threading contract. The design and its cable plant are edited and refreshed on the GUI thread
only, the plant by the document's :class:`~gui.document.plant_feed.PlantFeed` (the one owner of plant
refreshes, which tells every consumer which links changed). When a job starts, the runner takes
a snapshot of the design and the refreshed plant (:mod:`model.engine.snapshot`) on the GUI thread and
hands the worker only that: the worker never reads the live design or plant, so edits made
while it runs cannot tear what it reads, and the result is exactly the analysis of the design
at the snapshot's revision.

The worker keeps one incremental :class:`~model.analysis.analyzer.Analyzer` between jobs (only
the worker touches it, one job at a time) and feeds it the change events and changed links
since the previous job, so a rack move redoes the placement checks, the media figures and the
tray fill of the links that moved, not the whole analysis. A job that fails drops the analyzer;
the next job starts from a fresh one. A result whose revision is no longer current is not
published: the job runs again for the current revision.

An edit of the trays alone is re-routed by the job too, not on the GUI thread (the feed leaves
it unapplied: ``PlantFeed.offload_trays``): the snapshot carries the plant's pending tray edits,
the worker applies them on a copy of its own (:mod:`model.engine.retray_copy`) and hands the
copy back before analysing it: the live plant adopts it then (the plan's cables and the links
table first, the figures when the analysis is published). A job whose re-route is
overtaken by a newer edit stops before its analysis (``superseded``): its edits go to the next
job, which re-routes them all at once, so stale work never queues up.

A result is published in two steps, each whole. The report (with the findings, tiers, the
structured layout and the route names) goes out as soon as the worker has it: ``finished``, and
the runner is ``fresh``. The plan's bundles, their stretches and the length histogram of the same
snapshot follow: ``completed``, with the same report, and the runner is ``settled``. The analysis
panel shows the first; the bundles and the charts take only the second, so no view shows
figures of two revisions side by side (at XL the three came to ~18 ms of the worker's CPU
and ~3 ms of the GUI thread's between the analysis and the panel, after a tray-corner drop).
"""

from __future__ import annotations

import gc
import threading
import time
import traceback
import weakref
from collections.abc import Set as AbstractSet
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np
import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from gui.document.plant_feed import PlantUpdate, feed_for
from gui.panels.links_model import TIER_NAMES
from gui.runtime.main_thread_gc import collect_on_gui_thread
from model.analysis import Report
from model.analysis.analyzer import Analyzer
from model.analysis.report_delta import describe_delta
from model.analysis.tray_fill import medium_bundle_group
from model.asbuilt.findings import finding_fabrics, length_findings
from model.common.findings import Finding
from model.design.changes import TRAY_KINDS, Change, ChangeKind
from model.design.design import Design
from model.engine.length_histogram import LengthHistogram, length_histogram
from model.engine.retray_copy import frozen, retray
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from model.runtime.gc_policy import collector_waits
from model.structured.layout import StructuredLayout

# An edit made while the panel is fresh is analysed at once (the panel is then fresh within the
# 150 ms of DESIGN.md after a single edit); edits following it closer together than this make
# one more analysis (keyboard nudges, a burst of undo), as do edits made while a job runs.
DEBOUNCE_MS = 40
# The longest a job's second step (bundles, stretches, histogram) waits for the GUI thread to
# take its report before going on anyway.
REPORT_WAIT_S = 0.5


@dataclass
class AnalysisResult:
    report: Report
    revision: int
    seconds: float  # worker time of the analysis
    delta: str  # what changed since the previous published report ("" the first time)
    # Cables per tray and medium group (the plan's bundles), from the same tray count as the
    # report's tray fill.
    bundles: dict[str, dict[str, int]] | None = None
    # The charts panel's cable-length histogram of the same snapshot (computed on the worker:
    # 130–190 ms at 393k links was the GUI thread's largest piece after an edit).
    lengths: LengthHistogram | None = None
    # The links table's tier column: (names, code per plant row) of the same snapshot (1.5 s
    # of topology inference at 393k links when the table computed it on the GUI thread).
    tiers: tuple[list[str], np.ndarray] | None = None
    # Per tray, the stretches some cable runs along (the bundles are drawn there only), of the
    # same snapshot: 30-45 ms at 393k links, the GUI thread's largest piece of the publish.
    used: dict[str, list[tuple[float, float]]] | None = None
    # The structured layout (trunks, channels) the analysis used, None for direct cabling: the
    # trunk layer and the channel views adopt it (a zoned XL hall's layout is ~10 s, which the
    # GUI thread computed again after every edit).
    structured: StructuredLayout | None = None
    # The findings list's rows: the report's warnings and the measured-length deviations, with
    # the fabric of each, of the same snapshot (the findings dock worked them out on the GUI
    # thread after every analysis).
    findings: list[Finding] = field(default_factory=list)
    finding_fabrics: list[str] = field(default_factory=list)


@dataclass
class _Work:
    """What one job reads: snapshots and what changed since the analyzer's previous job."""

    design: Design
    plant: RoutedLinks | None
    changes: list[Change]
    changed_links: set[str]
    revision: int
    retray: tuple[Change, ...] = ()  # the plant's tray edits the worker applies first
    adopted: bool = False  # the live plant took the worker's re-route of them


class _JobSignals(QObject):
    # revision, ((report, tiers, structured, findings, fabrics, route names), (bundles,
    # lengths, used)) and the re-routed link ids, SUPERSEDED or None; error, seconds
    done = Signal(int, object, str, float)
    # revision, (report, tiers, structured, findings, fabrics, route names), seconds: sent once
    # the report is made, before the bundles, stretches and histogram (those come with done)
    reported = Signal(int, object, float)
    # revision, the plant re-routed for the retray edits, ids of the links that changed: sent
    # before the analysis of it, so the plan and the links table take it first
    rerouted = Signal(int, object, object)


SUPERSEDED = "superseded"  # a job's result when a newer edit overtook its re-route


class _Job(QRunnable):
    def __init__(self, analyzer: Analyzer, work: _Work, signals: _JobSignals) -> None:
        super().__init__()
        self.analyzer, self.work, self.signals = analyzer, work, signals
        # The runner keeps this object until its result arrives: with auto-delete, Qt would free
        # the C++ side on the worker thread under a live Python wrapper, which corrupted
        # reference counts and crashed the interpreter at exit.
        self.setAutoDelete(False)
        self.superseded = False  # set on the GUI thread when a newer edit comes
        self.started = 0.0  # perf_counter when run() began
        # Set on the GUI thread once it has taken the report (published it or not): the
        # bundles, stretches and histogram wait for it (see _compute).
        self.report_taken = threading.Event()
        # The GUI thread's collector waits for the job (what it makes is frozen when the result
        # is published, see _publish) from now, not from when run() begins: a collector tick
        # due during the snapshot ran as soon as it was handed over, before the worker took
        # the GIL, and found the job not started (once a full collection, ~0.12 s of the GUI
        # thread's CPU at XL, which the worker then waited for). Ended by run().
        self._collector_wait = ExitStack()
        self._collector_wait.enter_context(collector_waits())

    def run(self) -> None:
        started = self.started = time.perf_counter()
        work = self.work
        try:
            with self._collector_wait:  # entered when the job was made
                result, error = self._compute(work), ""
        except Exception:  # noqa: BLE001 - reported; the analyzer is dropped
            result, error = None, traceback.format_exc(limit=6)
        seconds = time.perf_counter() - started
        # Let go of the snapshot before reporting: the thread pool keeps its Python reference to
        # a started runnable, so a job holding its work kept every snapshot's arrays (~85 MB of
        # plant columns at 393k links) alive, one more per edit.
        self.work = self.analyzer = None
        self.signals.done.emit(work.revision, result, error, seconds)

    def _compute(self, work: _Work) -> tuple | str:
        analyzer = self.analyzer
        rerouted: AbstractSet[str] = frozenset()
        changed_links: AbstractSet[str] = work.changed_links
        if work.retray and work.plant is not None:
            worked, rerouted = retray(work.plant)
            if self.superseded:
                return SUPERSEDED
            work.plant = frozen(worked, work.design)  # the analysis reads this copy
            changed_links = changed_links | rerouted if changed_links else rerouted
            # Handed over before the analysis (the cables redrawn ~0.5 s after the drop at XL,
            # the figures after); never touched here again, the live plant may take it.
            self.signals.rerouted.emit(work.revision, worked, rerouted)
            del worked
        report = analyzer.advance(work.design, work.plant, work.changes, changed_links)
        tiers = analyzer.tier_codes(TIER_NAMES)
        measured = length_findings(work.design, work.plant) if work.plant is not None else []
        findings = [*report.warnings, *measured]
        fabrics = finding_fabrics(work.design, findings)
        # The route names this snapshot made (after a tray edit it names every route here, not
        # the GUI thread): the live plant adopts them when the result is published.
        names = work.plant.route_names() if work.plant is not None and not work.retray else None
        structured = analyzer.structured
        # The panel's figures go out now; what only the plan and the charts show follows.
        early = (report, tiers, structured, findings, fabrics, names)
        self.signals.reported.emit(work.revision, early, time.perf_counter() - self.started)
        # The rest waits (the GIL released) until the GUI thread has taken the report: run at
        # once, it held the GIL in turns with the publish and the panels' updates, which the
        # panel being fresh waits for. Bounded, so a GUI thread busy elsewhere delays nothing.
        self.report_taken.wait(REPORT_WAIT_S)
        bundles = analyzer.cables_by_tray(medium_bundle_group) if work.plant is not None else {}
        lengths = length_histogram(work.plant) if work.plant is not None else None
        used = analyzer.used_stretches() if work.plant is not None else {}
        return (early, (bundles, lengths, used)), rerouted


class AnalysisRunner(QObject):
    """Follows one design; emits ``stale`` at the first edit, ``finished`` with a fresh report
    and ``completed`` with the same report and its bundles, stretches and length histogram.

    ``plant_refreshed`` carries the ids of links whose length or medium changed (re-emitted
    from the document's PlantFeed, on the GUI thread, before the analysis runs).
    ``snapshot_s`` is how long the last snapshot held the GUI thread.
    """

    stale = Signal()
    plant_refreshed = Signal(object)  # set (or frozenset) of link ids
    # AnalysisResult without bundles, stretches and histogram when they follow (``completed``)
    finished = Signal(object)
    completed = Signal(object)  # AnalysisResult: the one ``finished`` gave, with them
    failed = Signal(str)

    # Every runner alive (weakly: it keeps none alive). A runner left open keeps its worker
    # pool and its design subscription, so whoever must know that all were closed asks here
    # (the test suite's leak check) instead of scanning the whole heap for them.
    alive: ClassVar[weakref.WeakSet[AnalysisRunner]] = weakref.WeakSet()

    def __init__(
        self,
        design: Design,
        plant: RoutedLinks,
        delay_ms: int = DEBOUNCE_MS,
        parent=None,
        snapshots: Snapshotter | None = None,
    ) -> None:
        """``snapshots``: a Snapshotter of this design and plant, primed on the loading thread
        (:func:`gui.document.document.prepare`); without one the first snapshot is taken here."""
        super().__init__(parent)
        AnalysisRunner.alive.add(self)
        collect_on_gui_thread()  # the worker never runs a collection (see gui.runtime.main_thread_gc)
        self.design = design
        self.plant = plant
        self.feed = feed_for(design, plant) if plant is not None else None
        self.result: AnalysisResult | None = None
        self.snapshot_s = 0.0
        self._analyzer: Analyzer | None = None
        if snapshots is not None and (
            snapshots.design is not design or snapshots.plant is not plant
        ):
            raise ValueError("the snapshots follow another design or plant")
        # copies only what edits changed
        self._snapshots = snapshots or Snapshotter(design, plant)
        self._changes: list[Change] = []  # since the analyzer's last job
        self._changed_links: set[str] = set()
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _JobSignals(self)
        self._signals.done.connect(self._job_done)
        self._signals.reported.connect(self._job_reported)
        self._signals.rerouted.connect(self._job_rerouted)
        self._running: int | None = None  # revision of the job in flight
        # The job in flight published its report and works out the rest of it (its revision's)
        self._finishing = False
        # The published result has its bundles, stretches and histogram (``completed`` sent): a
        # job whose second step failed leaves a report without them, which is not ``settled``.
        self._whole = False
        # ``stale`` was sent for an edit the published result does not cover: the next edits
        # of a burst during a job's second step are debounced, as during its first.
        self._stale_sent = False
        self._job: _Job | None = None
        # Jobs that reported. QThreadPool.start() hands a job to C++ (PySide) and nothing takes
        # it back, so without shiboken6.delete each edit's job (and its signals) stayed alive
        # for the whole process; deleted once the worker has surely returned from run().
        self._spent: list[_Job] = []
        self._work: _Work | None = None  # what the job in flight was handed
        self._adopting = False  # the live plant is taking a job's re-routed copy
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._delay_ms = delay_ms
        self._timer.timeout.connect(self._start)
        # The snapshot runs on an event-loop turn of its own (see _start).
        self._snap_timer = QTimer(self)
        self._snap_timer.setSingleShot(True)
        self._snap_timer.setInterval(0)
        self._snap_timer.timeout.connect(self._run_job)
        self._subscription = design.subscribe(self._on_change)
        if self.feed is not None:
            self.feed.refreshed.connect(self._plant_refreshed)
            self.feed.offload_trays = True  # tray edits are re-routed by this runner's jobs
        self._timer.start(0)

    # ------------------------------------------------------------------ state

    @property
    def fresh(self) -> bool:
        """True when the published report was computed from the current design revision (its
        bundles, stretches and histogram may still be on the way: ``settled``)."""
        return (
            self.result is not None
            and self.result.revision == self.design.revision
            and (self._running is None or self._finishing)
            and not self._timer.isActive()
        )

    @property
    def settled(self) -> bool:
        """True when ``fresh`` and the published result is whole (``completed`` was sent)."""
        return self.fresh and self._running is None and self._whole

    @property
    def analysing(self) -> bool:
        """True while a job is in flight (its report perhaps published, the rest to come) or
        about to start; False at rest, whether its last job succeeded or failed."""
        return not self._closed and (self._running is not None or self._timer.isActive())

    @property
    def closed(self) -> bool:
        """True once ``close()`` ran: no more jobs, the design is no longer followed."""
        return self._closed

    def close(self) -> None:
        """Stop following the design and wait for a job in flight (its result, and a tray
        re-route it had not handed back, are dropped: the document is closing)."""
        if self._closed:
            return
        self._closed = True
        self._subscription.close()
        self._snapshots.close()
        if self.feed is not None:
            try:
                self.feed.refreshed.disconnect(self._plant_refreshed)
            except (RuntimeError, TypeError):
                pass
            # A re-route still pending goes with the document (the runner closes when its
            # document does): re-routing it here held the GUI thread for seconds at XL.
            self.feed.offload_trays = False
        self._timer.stop()
        if self._job is not None:
            self._job.report_taken.set()  # its report will not be taken: no wait for it
        self._signals.done.disconnect(self._job_done)
        self._signals.reported.disconnect(self._job_reported)
        self._signals.rerouted.disconnect(self._job_rerouted)
        # Poll with the GIL released instead of a blocking waitForDone(): the job in flight is
        # Python code and needs the GIL to finish.
        while self._pool.activeThreadCount():
            time.sleep(0.005)
        self._pool.waitForDone()
        if self._job is not None:
            self._spent.append(self._job)
        self._job = None
        self._delete_spent()

    def request(self) -> None:
        """Recompute soon (after the debounce delay)."""
        self._timer.start(self._delay_ms)

    # ------------------------------------------------------------------ flow

    def _on_change(self, change: Change) -> None:
        if change.kinds == {ChangeKind.NAME_CHANGED}:
            # The name is in no figure. At rest with nothing pending, the published result
            # covers the renamed revision too (else it stayed not fresh until another edit,
            # and whatever waited for it waited for good); a job under way or due analyses
            # the revision the rename made anyway.
            if (
                self.result is not None
                and self._running is None
                and not self._timer.isActive()
                and not self._changes
            ):
                self.result = replace(self.result, revision=self.design.revision)
            return
        self._changes.append(change)
        if self._job is not None and change.kinds <= TRAY_KINDS:
            # A re-route in flight stops before its analysis: the next job re-routes both.
            # An edit of another kind waits for it instead (applied on top of its copy).
            self._job.superseded = True
        was_fresh = not self._timer.isActive() and (
            self._running is None or (self._finishing and not self._stale_sent)
        )
        # QTimer.start(msec) also sets the interval: always say which delay is meant (the
        # start(0) of __init__ once made every later start() immediate, debounce and all).
        self._timer.start(0 if was_fresh else self._delay_ms)
        if was_fresh:
            self._stale_sent = True
            self.stale.emit()

    def _plant_refreshed(self, update: PlantUpdate) -> None:
        if not self._adopting:  # a job's re-route: its analysis counted those links already
            self._changed_links |= update.changed
        self.plant_refreshed.emit(update.changed)  # read only: not copied (190k ids at XL)

    def _start(self) -> None:
        if self._running is not None:
            return  # the job in flight finishes first; _job_done starts the next one
        if self.feed is not None:
            self.feed.ensure_fresh(defer_trays=True)
        # The snapshot (15 ms at XL) is taken on the next turn of the event loop, not in this
        # one: this turn already ran the edit's repaint, the plant refresh and the inspector,
        # and one turn holding all of them was the editor's longest hitch after an edit.
        self._running = self.design.revision  # a job is under way: not fresh meanwhile
        self._snap_timer.start()

    def _run_job(self) -> None:
        """Snapshot the design and plant and hand them to the worker."""
        if self._closed:
            self._running = None
            return
        retray: tuple[Change, ...] = ()
        if self.feed is not None:
            self.feed.ensure_fresh(defer_trays=True)  # an edit between _start and now
            retray = self.feed.deferred_edits()
            self.feed.waiting_on_worker = bool(retray)
        started = time.perf_counter()
        design, plant = self._snapshots.take(pending_trays=bool(retray))
        self.snapshot_s = time.perf_counter() - started
        if self._analyzer is None:
            self._analyzer = Analyzer(design, plant, subscribe=False, refresh_plant=False)
            self._changes.clear()  # a fresh analyzer computes everything
        work = _Work(
            design, plant, self._changes, self._changed_links, self.design.revision, retray
        )
        self._changes, self._changed_links = [], set()
        self._running = work.revision
        self._work = work
        self._delete_spent()
        self._job = _Job(self._analyzer, work, self._signals)
        self._pool.start(self._job)

    def _delete_spent(self) -> None:
        """Delete the jobs that reported, unless the worker may still be returning from one
        (its done signal is the last statement of run(): then at the next job or close)."""
        if self._spent and not self._pool.activeThreadCount():
            for job in self._spent:
                shiboken6.delete(job)
            self._spent.clear()

    def _job_rerouted(self, revision: int, worked: RoutedLinks, changed: AbstractSet[str]) -> None:
        """The job in flight re-routed its tray edits: the live plant takes the copy now (the
        feed tells the plan and the links table), unless an edit came since."""
        work = self._work
        if self._closed or work is None or work.revision != revision or self.feed is None:
            return
        self._adopting = True
        self.feed.waiting_on_worker = False
        try:
            work.adopted = self.feed.adopt(worked, work.retray, changed)
        finally:
            self._adopting = False
        if work.adopted:
            self._snapshots.adopted()

    def _job_reported(self, revision: int, early: tuple, seconds: float) -> None:
        """The job in flight made its report: published now when _job_done would publish it
        (the current revision's, its re-route adopted), its bundles, stretches and histogram
        to follow; otherwise _job_done decides, as for a job that reports once. Either way the
        job then goes on with them (it waits until here)."""
        try:
            self._take_report(revision, early, seconds)
        finally:
            # The job that sent this report (a slot run by the report could turn the event
            # loop, and a newer job start, before this: that one waits for its own report).
            # Its ``work`` is None once it ran to the end (set on the worker: read it once).
            job = self._job
            work = job.work if job is not None else None
            if job is not None and (work is None or work.revision == revision):
                job.report_taken.set()

    def _take_report(self, revision: int, early: tuple, seconds: float) -> None:
        work = self._work
        if (
            self._closed
            or work is None
            or work.revision != revision
            or (work.retray and not work.adopted)
            or revision != self.design.revision
            or self._timer.isActive()
        ):
            return
        self._finishing = True
        self._publish(revision, early, None, seconds)

    def _publish(self, revision: int, early: tuple, rest: tuple | None, seconds: float) -> None:
        """Publish the report ``early`` (report, tiers, structured, findings, fabrics, route
        names) of the current revision, with ``rest`` (bundles, lengths, used) or without."""
        report, tiers, structured, findings, fabrics, names = early
        # the snapshot's revision is the current one: nothing changed since it was taken
        if names is not None and self.plant is not None and self.plant.adopt_routes(names):
            self._snapshots.adopted()
        bundles, lengths, used = rest if rest is not None else (None, None, None)
        self._whole, self._stale_sent = rest is not None, False
        previous = self.result.report if self.result is not None else None
        self.result = AnalysisResult(
            report,
            revision,
            seconds,
            describe_delta(previous, report) if previous else "",
            bundles,
            lengths,
            tiers,
            used,
            structured,
            findings,
            fabrics,
        )
        self.finished.emit(self.result)
        if rest is not None:
            self.completed.emit(self.result)
        # What the job built and the panels keep (the analyzer's caches, the snapshot's copied
        # indexes, the report) lives until the next edit or longer. Moved out of the collector's
        # generations, a full collection no longer re-walks them: at 393k links one walked
        # ~786k index entries for 100-150 ms, holding the GIL and so the GUI thread with it.
        # Frozen objects are still freed by reference counting; a reference cycle made before
        # this point is collected at the next design load (model.runtime.gc_policy), as for the design.
        gc.freeze()

    def _completed(self, result, error: str, seconds: float) -> None:
        """The job whose report was published (``_job_reported``) made the rest of it."""
        if result is None:
            self._analyzer = None  # its caches may be half updated: start over next time
            self.failed.emit(error)
        elif self.result is not None:
            (_, (bundles, lengths, used)), _ = result
            self.result = replace(
                self.result, seconds=seconds, bundles=bundles, lengths=lengths, used=used
            )
            self._whole = True
            self.completed.emit(self.result)
            gc.freeze()  # what the job made since the report (see _publish)
        if self.result is None or self.result.revision != self.design.revision:
            if not self._timer.isActive():
                self._timer.start(0)  # edited since the report: analyse the current revision

    def _job_done(self, revision: int, result, error: str, seconds: float) -> None:
        work, self._work = self._work, None
        self._running = None
        finishing, self._finishing = self._finishing, False
        if self._job is not None:
            self._spent.append(self._job)
        self._job = None
        if self.feed is not None:
            self.feed.waiting_on_worker = False
        if self._closed:
            return  # a result queued before close() is dropped, as close() promises
        if finishing:
            self._completed(result, error, seconds)
            return
        rerouted: AbstractSet[str] = frozenset()
        if result == SUPERSEDED and work is not None:
            # The analyzer never saw this work: its edits and links go to the next job.
            self._changes[:0] = work.changes
            self._changed_links |= work.changed_links
            if not self._timer.isActive():
                self._timer.start(0)
            return
        if result is None:
            self._analyzer = None  # its caches may be half updated: start over next time
            if work is not None and work.retray and not work.adopted and self.feed is not None:
                self.feed.ensure_fresh()  # its re-route is not coming: applied here, as before
        else:
            result, rerouted = result
            if work is not None and work.retray and not work.adopted:
                # The plant was refreshed here meanwhile, naming its routes its own way: this
                # analyzer's route ids (the copy's) are not the plant's, whether or not the
                # design was edited since (the copy and the plant reach the same route
                # generation, so the tray fill would take the stale spans as its own). Start
                # over; the links the copy changed go to the fresh analysis with the rest.
                self._analyzer = None
                self._changed_links |= rerouted
                self._timer.start(0)
                return
        if revision != self.design.revision or self._timer.isActive():
            if not self._timer.isActive():  # a burst still settling keeps its delay
                self._timer.start(0)  # edited since the snapshot: analyse the current revision
            return
        if result is None:
            self.failed.emit(error)
            return
        early, rest = result
        self._publish(revision, early, rest, seconds)
