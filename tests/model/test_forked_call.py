"""A function run in a forked child gives what the same call gives in process
(model/forked_call), and nothing is lost when the child fails, dies or is no longer wanted.

Each case runs in a fresh interpreter: pytest's own process has other threads (and must never
fork), so :func:`can_fork` would rightly refuse there and nothing would be forked.
"""

from __future__ import annotations

import os

import pytest

from tests.forked_runs import needs_two_cores, run_recording_forks

_PRELUDE = (
    "import os, sys, time, threading\n"
    "from model.runtime.forked_call import ForkedCall, can_fork\n"
    "parent = os.getpid()\n"
)


def _run(code: str) -> list[str]:
    """The words ``code`` prints, run after ``_PRELUDE`` in a fresh interpreter."""
    return " ".join(run_recording_forks(_PRELUDE + code)).split()


@needs_two_cores
def test_the_child_computes_the_value_and_the_parent_reads_it_back():
    out = _run(
        "call = ForkedCall(lambda: (os.getpid(), [n * n for n in range(100_000)]), fork=True)\n"
        "pid, squares = call.result()\n"
        "print(can_fork(), call.forked, pid != parent, squares == [n * n for n in range(100_000)])\n"
    )
    assert out == ["True", "True", "True", "True"]


def test_without_fork_the_function_runs_here_when_its_result_is_asked_for():
    out = _run(
        "calls = []\n"
        "call = ForkedCall(lambda: calls.append(os.getpid()) or 'v', fork=False)\n"
        "before = list(calls)\n"
        "print(call.forked, before, call.result(), calls == [parent])\n"
    )
    assert out == ["False", "[]", "v", "True"]


def test_a_process_with_another_thread_does_not_fork():
    """A second thread may hold a lock at the fork that no thread of the child would release."""
    out = _run(
        "stop = threading.Event()\n"
        "threading.Thread(target=stop.wait).start()\n"
        "call = ForkedCall(os.getpid, fork=True)\n"
        "print(can_fork(), call.forked, call.result() == parent)\n"
        "stop.set()\n"
    )
    assert out == ["False", "False", "True"]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_a_process_on_one_core_does_not_fork():
    """On one core a child would only add its copy-on-write faults: the call runs here."""
    out = _run(
        "os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})\n"
        "call = ForkedCall(os.getpid, fork=True)\n"
        "print(can_fork(), call.forked, call.result() == parent)\n"
    )
    assert out == ["False", "False", "True"]


@needs_two_cores
def test_an_error_in_the_child_is_raised_from_the_parent_s_own_run():
    """The child's exception is not carried over: the parent runs the function again and its
    own call raises, with a traceback of this process."""
    out = _run(
        "def fail():\n"
        "    raise ValueError(f'bad input in {os.getpid()}')\n"
        "call = ForkedCall(fail, fork=True)\n"
        "try:\n"
        "    call.result()\n"
        "except ValueError as exc:\n"
        "    print(call.forked, str(exc) == f'bad input in {parent}')\n"
    )
    assert out == ["True", "True"]


@needs_two_cores
def test_a_child_that_dies_or_cannot_send_its_result_costs_only_time():
    out = _run(
        "def dies():\n"
        "    if os.getpid() != parent:\n"
        "        os._exit(3)\n"
        "    return 'done_here'\n"
        "def unpicklable():\n"
        "    return (os.getpid(), lambda: None)\n"
        "died = ForkedCall(dies, fork=True)\n"
        "odd = ForkedCall(unpicklable, fork=True)\n"
        "print(died.forked, died.result(), odd.forked, odd.result()[0] == parent)\n"
    )
    assert out == ["True", "done_here", "True", "True"]


@needs_two_cores
def test_a_child_that_gave_its_result_is_not_waited_for_but_reaped_by_the_next_call():
    """The result is read without waiting for the child's exit (its teardown takes tens of
    milliseconds at XL); the next call reaps it, so no zombie stays behind."""
    out = _run(
        "import model.runtime.forked_call as fc\n"
        "gate_r, gate_w = os.pipe()  # the child leaves once the parent closes gate_w\n"
        "def slow_to_leave():  # runs in the child: its exit waits for the parent\n"
        "    leave = os._exit\n"
        "    os.close(gate_w)\n"
        "    os._exit = lambda status: (os.read(gate_r, 1), leave(status))\n"
        "    return os.getpid()\n"
        "first = ForkedCall(slow_to_leave, fork=True)\n"
        "child = first.result()  # waiting for the child's exit would never end here\n"
        "quick = os.waitpid(child, os.WNOHANG) == (0, 0)  # it has not left yet\n"
        "os.close(gate_w)\n"
        "os.waitid(os.P_PID, child, os.WEXITED | os.WNOWAIT)  # it has left, not reaped yet\n"
        "second = ForkedCall(lambda: 'two', fork=True)\n"
        "try:\n"
        "    os.waitpid(child, os.WNOHANG)\n"
        "    reaped = False\n"
        "except ChildProcessError:\n"
        "    reaped = True\n"
        "print(child != parent, quick, second.result(), reaped, child in fc._exited)\n"
    )
    assert out == ["True", "True", "two", "True", "False"]


@needs_two_cores
def test_a_cancelled_child_is_stopped_and_reaped_at_once():
    """Leaving the ``with`` block without the result (the parent's half failed) kills the child
    and leaves no zombie behind."""
    out = _run(  # the child would never end by itself: only the kill ends it
        "try:\n"
        "    with ForkedCall(lambda: threading.Event().wait(), fork=True) as call:\n"
        "        child = call._pid\n"
        "        raise KeyError('the parent half failed')\n"
        "except KeyError:\n"
        "    pass\n"
        "try:\n"
        "    os.waitpid(child, os.WNOHANG)\n"
        "    reaped = False\n"
        "except ChildProcessError:\n"
        "    reaped = True\n"
        "print(call.forked, reaped)\n"
    )
    assert out == ["True", "True"]


@needs_two_cores
def test_a_result_broken_off_by_ctrl_c_still_stops_the_child():
    """Ctrl-C while the parent waits for the child's result: the interrupt reaches the caller,
    the child is killed and reaped, and no descriptor is closed twice."""
    out = _run(
        "import signal\n"
        "signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))\n"
        "try:\n"
        "    with ForkedCall(lambda: time.sleep(60), fork=True) as call:\n"
        "        child = call._pid\n"
        "        signal.setitimer(signal.ITIMER_REAL, 0.3)\n"
        "        call.result()\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
        "try:\n"
        "    os.waitpid(child, os.WNOHANG)\n"
        "except ChildProcessError:\n"
        "    print('reaped')\n"
        "r, w = os.pipe()\n"
        "call.cancel()\n"
        "os.write(w, b'x')\n"
        "print(os.read(r, 1) == b'x')\n"
    )
    assert out == ["interrupted", "reaped", "True"]
