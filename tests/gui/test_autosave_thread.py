"""The timer's autosave encodes and writes on a worker thread: the GUI thread only copies the
design's content, the file holds the revision of the moment the autosave started whatever the
edits after, a failed write is a sentence, and a discard or a closing window wins over a job in
flight."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import gui.document.autosaver as autosaver_module
from tests.gui.conftest import click, close_quietly, make_window, snapshot

GUI_THREAD = threading.main_thread().ident
WAIT_S = 5.0  # a job held longer than this is a failure, not a hang


class HeldEncode:
    """``design_pieces`` that records its thread and, when ``hold``, waits for ``released``;
    ``finished`` once every piece is encoded."""

    def __init__(self, hold: bool = True) -> None:
        self.real = autosaver_module.design_pieces
        self.threads: list[int] = []
        self.hold = hold
        self.started, self.released, self.finished = (threading.Event() for _ in range(3))

    def __call__(self, content) -> list[bytes]:
        self.threads.append(threading.get_ident())
        self.started.set()
        if self.hold:
            self.released.wait(WAIT_S)
        data = list(self.real(content))
        self.finished.set()
        return data


@pytest.fixture
def held(monkeypatch) -> HeldEncode:
    encode = HeldEncode()
    monkeypatch.setattr(autosaver_module, "design_pieces", encode)
    yield encode
    encode.released.set()  # a failing test never leaves the worker waiting


def edit(window, x: float = 1.5, y: float = 3.0) -> None:
    click(window.view, x, y)
    window.rotate_action.trigger()


def start_timer(window) -> None:
    window.autosaver.timer.setInterval(10)


def test_the_timers_autosave_encodes_off_the_gui_thread(window, qtbot, monkeypatch):
    encode = HeldEncode(hold=False)
    monkeypatch.setattr(autosaver_module, "design_pieces", encode)
    edit(window)
    with qtbot.waitSignal(window.autosaver.saved, timeout=3000) as saved:
        start_timer(window)
    window.autosaver.timer.stop()
    assert encode.threads and GUI_THREAD not in encode.threads
    assert Path(saved.args[0]).read_bytes() == snapshot(window)


def test_the_file_holds_the_revision_the_autosave_started_from(window, qtbot, held):
    edit(window)
    expected = snapshot(window)
    recovery = window.autosaver.recovery_path(window.document)
    start_timer(window)
    qtbot.waitUntil(held.started.is_set, timeout=3000)
    window.autosaver.timer.stop()
    assert not recovery.exists()  # the job is in flight while the person goes on editing
    edit(window, 4.5, 3.0)
    window.select_all()
    window.delete_action.trigger()
    assert snapshot(window) != expected
    with qtbot.waitSignal(window.autosaver.saved, timeout=3000):
        held.released.set()
    assert recovery.read_bytes() == expected


def test_a_failing_write_on_the_worker_emits_a_sentence(window, qtbot, monkeypatch):
    writers: list[int] = []

    def no_space(*args, **kwargs):
        writers.append(threading.get_ident())
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosaver_module, "write_atomic", no_space)
    edit(window)
    with qtbot.waitSignal(window.autosaver.failed, timeout=3000) as failed:
        start_timer(window)
    window.autosaver.timer.stop()
    assert writers and GUI_THREAD not in writers
    (text,) = failed.args
    assert text.startswith("Autosave failed:") and "No space left on device" in text
    assert "Traceback" not in text and "\n" not in text
    assert window.autosaver.pending() == []


def test_a_discard_while_the_job_is_in_flight_leaves_no_recovery_file(window, qtbot, held):
    edit(window)
    saver = window.autosaver
    recovery = saver.recovery_path(window.document)
    saved: list[str] = []
    saver.saved.connect(saved.append)
    start_timer(window)
    qtbot.waitUntil(held.started.is_set, timeout=3000)
    saver.timer.stop()
    assert not recovery.exists()  # still encoding
    saver.discard()
    held.released.set()
    qtbot.waitUntil(lambda: not saver.busy, timeout=3000)
    assert held.finished.is_set()
    assert not recovery.exists() and saver.pending() == [] and saved == []


def test_a_discard_during_the_write_waits_for_it_and_then_deletes_it(window, qtbot, monkeypatch):
    writing, may_finish = threading.Event(), threading.Event()
    real_write = autosaver_module.write_atomic

    def slow_write(path, data, **kwargs):
        writing.set()
        may_finish.wait(0.3)  # the discard below is made meanwhile and must wait
        real_write(path, data, **kwargs)

    monkeypatch.setattr(autosaver_module, "write_atomic", slow_write)
    edit(window)
    saver = window.autosaver
    recovery = saver.recovery_path(window.document)
    start_timer(window)
    qtbot.waitUntil(writing.is_set, timeout=3000)
    saver.timer.stop()
    assert not recovery.exists()  # the write has begun, not ended
    saver.discard()
    qtbot.waitUntil(lambda: not saver.busy, timeout=3000)
    assert not recovery.exists() and saver.pending() == []


def test_saving_while_the_job_is_in_flight_leaves_no_recovery_file(window, qtbot, held):
    edit(window)
    saver = window.autosaver
    recovery = saver.recovery_path(window.document)
    start_timer(window)
    qtbot.waitUntil(held.started.is_set, timeout=3000)
    saver.timer.stop()
    assert not recovery.exists()
    window.save_action.trigger()
    held.released.set()
    qtbot.waitUntil(lambda: not saver.busy, timeout=3000)
    assert not window.document.modified
    assert not recovery.exists() and saver.pending() == []


def test_closing_the_window_waits_for_the_job_in_flight(qtbot, tmp_path, pod_file, held):
    window = make_window(qtbot, tmp_path, pod_file)
    try:
        edit(window)
        start_timer(window)
        qtbot.waitUntil(held.started.is_set, timeout=3000)
        in_flight = not held.finished.is_set()
        threading.Timer(0.2, held.released.set).start()
        window.document.stack.setClean()  # no unsaved-changes prompt
        assert window.close()  # returns once the job is done: nothing runs on after the window
        done_at_close = held.finished.is_set()
    finally:
        close_quietly(window)
    assert in_flight and done_at_close
