"""A function run on the second core, in a forked copy of this process, its result read back.

Why: the machines Hallwright runs on have two cores or more, and a headless export is one
interpreter on one of them. Where an export has two independent halves (``bom -o .xlsx``: the
BOM lines and the analysis behind the Warnings, beside the cabling schedule and its sheet), the
smaller half can run in a child that :func:`os.fork` made after the design was loaded and
routed: the child sees the design as it is, without a copy (the pages are shared until written)
and without pickling 400k links, and hands back only its result, pickled through a pipe (the
BOM's lines and findings: a few kB).

Only where it is safe and asked for (``fork=True``): the command line asks for it in the process
``main.py`` started, which has no other thread at that point. A process with other threads
(the editor's Qt threads, a test runner's) may hold a lock at the moment of the fork that no
thread of the child will ever release, so it passes ``fork=False`` and the function runs in
this process when its result is asked for, as before. So does a platform without ``fork``.

Whatever happens in the child, the caller gets what an in-process call gives: if the child
raises, is killed or cannot pickle its result, the function is run again here, so the error
(if any) is raised from this process with its own traceback and nothing is lost but time.
The child never returns to the caller's code: it leaves by :func:`os._exit` (no ``atexit``
handler, no flush of buffers it shares with the parent).
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

_FAILED = 1  # the child's exit status when its function raised or its result did not pickle


def can_fork() -> bool:
    """Whether this process may fork now, and gains by it: the platform has ``fork``, no other
    Python thread runs (a thread the interpreter knows of; the caller vouches for native ones)
    and the process may run on two cores or more (on one, a child only adds its copy-on-write
    faults and the work it repeats)."""
    return hasattr(os, "fork") and threading.active_count() == 1 and usable_cores() > 1


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# Children that gave their result and are exiting, not yet reaped (ForkedCall.result).
_exited: list[int] = []


def _reap() -> None:
    """Reap the children of :data:`_exited` that are gone, without waiting for the others."""
    for pid in list(_exited):
        try:
            done, _status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere
            done = pid
        if done:
            _exited.remove(pid)


class ForkedCall(Generic[T]):
    """``fn()`` started in a forked child (``fork=True`` and :func:`can_fork`), or kept to be
    called in this process; :meth:`result` gives its value either way. As a context manager,
    a child whose result was not asked for is stopped on leaving."""

    def __init__(self, fn: Callable[[], T], fork: bool) -> None:
        self._fn = fn
        self._pid: int | None = None
        self._read_fd = -1
        self.forked = False  # whether a child runs it (for tests and the benchmark's notes)
        # whether result() gave the child's value, not a rerun here after the child failed
        # (a test of a forking command asserts it: the rerun would hide a child that never works)
        self.from_child = False
        if fork and can_fork():
            self._start()

    def _start(self) -> None:
        _reap()
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: run, send, leave without returning to the caller
            os.close(read_fd)
            status = _FAILED
            try:
                payload = pickle.dumps(self._fn(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write_fd, "wb") as pipe:
                    pipe.write(payload)
                status = 0
            finally:
                os._exit(status)
        os.close(write_fd)
        self._pid, self._read_fd, self.forked = pid, read_fd, True

    def result(self) -> T:
        """The function's value: the child's when it gave one, else the function run here."""
        if self._pid is None:
            return self._fn()
        # The pipe is the file object's from here: closed by it even if the read is broken off
        # (Ctrl-C), when cancel() then only stops and reaps the child.
        read_fd, self._read_fd = self._read_fd, -1
        with os.fdopen(read_fd, "rb") as pipe:
            payload = pipe.read()  # all of it: the child writes only once it is done
        pid, self._pid = self._pid, None
        # The child writes its result only once it has it whole, and then only exits: a payload
        # that unpickles is its complete result. Its exit is not waited for then: tearing down
        # its copy of the address space takes 40-50 ms at XL, which the caller need not wait;
        # it is reaped on the next call (_reap) or, at the latest, when this process ends.
        try:
            value = pickle.loads(payload)
        except Exception:  # a payload cut short (the child failed): do it here instead
            os.waitpid(pid, 0)
            return self._fn()
        _exited.append(pid)
        _reap()
        self.from_child = True
        return value

    def cancel(self) -> None:
        """Stop a child whose result will not be asked for (the caller's own half failed), so
        that it neither runs on nor lingers as a zombie."""
        if self._pid is None:
            return
        os.kill(self._pid, signal.SIGKILL)
        os.waitpid(self._pid, 0)
        self._pid = None
        if self._read_fd >= 0:
            os.close(self._read_fd)
            self._read_fd = -1

    def __enter__(self) -> ForkedCall[T]:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.cancel()
