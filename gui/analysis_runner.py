"""AnalysisRunner: keeps a document's analysis report current, debounced and off the GUI thread.

Threading contract. The design and its cable plant are edited on the GUI thread only; the plant
is also refreshed there (it is not thread-safe, and an incremental refresh is fast). A refresh
job then runs ``analyze(design, plant)`` on one worker thread with a *fresh* analyzer, so no
cache outlives a job. Edits may arrive while the worker reads the model: the job remembers the
design revision it started from, and a result whose revision is no longer current (or that
failed while the model changed under it) is thrown away and the job runs again. Only a result
computed from the current revision is ever published as fresh.

What the worker may touch while the GUI thread reads the same objects: design dicts and plant
arrays are only read (edits replace records and arrays rather than mutating them in place); the
plant's tray-graph distance cache gains rows only for attachment nodes not seen before, and every
node a route of the current links uses was cached by the plant's own refresh on the GUI thread
before the job started, so the worker does not extend it.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from model.analysis import Report, analyze
from model.cabling import CablePlant
from model.changes import Change, ChangeKind
from model.design import Design

DEBOUNCE_MS = 150
KIND_SHORT = {
    "dac": "DAC",
    "acc": "LACC",
    "aec": "AEC",
    "aoc": "AOC",
    "mmf": "MMF optic",
    "smf": "SMF optic",
    "utp": "UTP",
    "backplane": "backplane",
}


@dataclass
class AnalysisResult:
    report: Report
    revision: int
    seconds: float  # worker time of the analysis
    delta: str  # what changed since the previous published report ("" the first time)


class _JobSignals(QObject):
    done = Signal(int, object, str, float)  # revision, report or None, error text, seconds


class _Job(QRunnable):
    def __init__(self, design: Design, plant, revision: int, signals: _JobSignals) -> None:
        super().__init__()
        self.design, self.plant, self.revision, self.signals = design, plant, revision, signals
        # The runner keeps this object until its result arrives: with auto-delete, Qt would free
        # the C++ side on the worker thread under a live Python wrapper, which corrupted
        # reference counts and crashed the interpreter at exit.
        self.setAutoDelete(False)

    def run(self) -> None:
        started = time.perf_counter()
        try:
            report = analyze(self.design, self.plant)
            error = ""
        except Exception:  # noqa: BLE001 - reported, or discarded if the model moved on
            report, error = None, traceback.format_exc(limit=6)
        self.signals.done.emit(self.revision, report, error, time.perf_counter() - started)


class AnalysisRunner(QObject):
    """Follows one design; emits ``stale`` at the first edit and ``finished`` with a fresh result.

    ``plant_refreshed`` carries the ids of links whose length or medium changed (emitted on the
    GUI thread right after the plant has been brought up to date, before the analysis runs).
    """

    stale = Signal()
    plant_refreshed = Signal(object)  # set of link ids
    finished = Signal(object)  # AnalysisResult
    failed = Signal(str)

    def __init__(
        self, design: Design, plant: CablePlant, delay_ms: int = DEBOUNCE_MS, parent=None
    ) -> None:
        super().__init__(parent)
        self.design = design
        self.plant = plant
        self.result: AnalysisResult | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _JobSignals(self)
        self._signals.done.connect(self._job_done)
        self._running: int | None = None  # revision of the job in flight
        self._job: _Job | None = None
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self._start)
        self._plant_timer = QTimer(self)  # the plant follows at once, the analysis after a pause
        self._plant_timer.setSingleShot(True)
        self._plant_timer.setInterval(0)
        self._plant_timer.timeout.connect(self._refresh_plant)
        self._subscription = design.subscribe(self._on_change)
        self._timer.start(0)

    # ------------------------------------------------------------------ state

    @property
    def fresh(self) -> bool:
        """True when the published report was computed from the current design revision."""
        return (
            self.result is not None
            and self.result.revision == self.design.revision
            and self._running is None
            and not self._timer.isActive()
        )

    @property
    def closed(self) -> bool:
        """True once ``close()`` ran: no more jobs, the design is no longer followed."""
        return self._closed

    def close(self) -> None:
        """Stop following the design and wait for a job in flight (its result is dropped)."""
        if self._closed:
            return
        self._closed = True
        self._subscription.close()
        self._timer.stop()
        self._plant_timer.stop()
        self._signals.done.disconnect(self._job_done)
        # Poll with the GIL released instead of a blocking waitForDone(): the job in flight is
        # Python code and needs the GIL to finish.
        while self._pool.activeThreadCount():
            time.sleep(0.005)
        self._pool.waitForDone()
        self._job = None

    def request(self) -> None:
        """Recompute soon (after the debounce delay)."""
        self._timer.start()

    # ------------------------------------------------------------------ flow

    def _on_change(self, change: Change) -> None:
        if change.kinds == {ChangeKind.NAME_CHANGED}:
            return  # the name is in no figure
        was_fresh = not self._timer.isActive() and self._running is None
        self._timer.start()
        self._plant_timer.start()
        if was_fresh:
            self.stale.emit()

    def _refresh_plant(self) -> None:
        """Bring the plant up to date (GUI thread) and tell the views that read it directly."""
        self.plant_refreshed.emit(self.plant.refresh())

    def _start(self) -> None:
        if self._running is not None:
            return  # the job in flight finishes first; _job_done starts the next one
        self._refresh_plant()
        self._running = self.design.revision
        self._job = _Job(self.design, self.plant, self._running, self._signals)
        self._pool.start(self._job)

    def _job_done(self, revision: int, report, error: str, seconds: float) -> None:
        self._running = None
        self._job = None
        if self._closed:
            return  # a result queued before close() is dropped, as close() promises
        if revision != self.design.revision or self._timer.isActive():
            self._timer.start()  # the model changed while the worker read it: do it again
            return
        if report is None:
            self.failed.emit(error)
            return
        previous = self.result.report if self.result is not None else None
        self.result = AnalysisResult(
            report, revision, seconds, describe_delta(previous, report) if previous else ""
        )
        self.finished.emit(self.result)


def describe_delta(before: Report, after: Report) -> str:
    """What changed between two reports, in the terms a person checks: "+6 AOC, −6 DAC, +84 W"."""
    parts = []
    kinds = sorted(set(before.links_by_kind) | set(after.links_by_kind))
    for kind in kinds:
        d = after.links_by_kind.get(kind, 0) - before.links_by_kind.get(kind, 0)
        if d:
            parts.append((d, f"{_signed(d)} {KIND_SHORT.get(kind, kind)}"))
    parts.sort(key=lambda p: -p[0])
    words = [text for _, text in parts]
    unrouted = after.links_without_medium - before.links_without_medium
    if unrouted:
        words.append(f"{_signed(unrouted)} without medium")
    for label, d in (
        ("links", after.links_total - before.links_total),
        ("GPUs", after.gpus - before.gpus),
        ("optics", after.transceivers - before.transceivers),
    ):
        if d:
            words.append(f"{_signed(d)} {label}")
    watts = after.power_w.get("total", 0.0) - before.power_w.get("total", 0.0)
    if abs(watts) >= 0.5:
        words.append(_signed_watts(watts))
    cost = after.cost_usd.get("total", 0.0) - before.cost_usd.get("total", 0.0)
    if abs(cost) >= 0.5:
        words.append(f"{'+' if cost > 0 else '−'}${abs(cost):,.0f}")
    warn = len(after.warnings) - len(before.warnings)
    if warn:
        words.append(f"{_signed(warn)} warning{'s' if abs(warn) != 1 else ''}")
    bisection = after.bisection_gbps - before.bisection_gbps
    if abs(bisection) >= 0.5:
        words.append(f"bisection {_signed_float(bisection / 1000)} Tb/s")
    return ", ".join(words) if words else "no change in counts, power or cost"


def _signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"−{-n:,}"


def _signed_float(x: float) -> str:
    return f"+{x:,.1f}" if x > 0 else f"−{-x:,.1f}"


def _signed_watts(w: float) -> str:
    sign = "+" if w > 0 else "−"
    w = abs(w)
    return f"{sign}{w / 1000:,.1f} kW" if w >= 10_000 else f"{sign}{w:,.0f} W"
