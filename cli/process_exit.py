"""A headless command's design left to the process's exit, not freed one object at a time.

Why: a command such as ``schedule`` or ``render`` is done once its file is written, yet dropping
the design and its routed plant freed their ~1.2 M objects one by one as ``run`` returned and
the interpreter shut down (XL: 0.1-0.3 s of a 2-6 s command, for memory the system takes back
whole a moment later). So the loaders of the command line (:func:`cli.load_or_refuse`,
:func:`cli.export_common.load_and_route`) hand what they load to :func:`keep_until_exit`, and
``main.py``, once the command has returned, calls :func:`leave_to_exit`: the kept objects are
then held only by a reference cycle, frozen (the permanent generation, which no collection
visits, not even the one at shutdown), and go with the process.

Only in the process ``main.py`` started (:func:`own_process`, called by its ``__main__`` block
with that process's id): a caller running commands in its own process (tests, scripts, the
editor, a worker forked from it) keeps the usual behaviour, and nothing is kept at all. What is
kept holds no Qt object and no open file (``model/`` never imports Qt, files are written and
closed inside the commands), so nothing of them needs a finaliser; ``atexit`` handlers still
run, since the interpreter still exits normally. (Freezing also spares the shutdown's last
collection every other object alive by then; ``sys.stdout`` and ``sys.stderr`` are flushed by
the interpreter itself, not by a finaliser.)
"""

from __future__ import annotations

import gc
import os

_owner_pid: int | None = None
_kept: list = []


def own_process() -> None:
    """Mark this process as ``main.py``'s own: from now on :func:`keep_until_exit` keeps."""
    global _owner_pid
    _owner_pid = os.getpid()


def is_own_process() -> bool:
    """Whether this is the process ``main.py`` started (not a test's, the editor's or a child's):
    one that runs one command on one thread, and may fork (:mod:`model.runtime.forked_call`)."""
    return _owner_pid is not None and _owner_pid == os.getpid()


def keep_until_exit(*objects: object) -> None:
    """Keep ``objects`` until the process exits, when this is ``main.py``'s process (a child
    forked from it has another id, and keeps nothing: it may live on and load many designs)."""
    if is_own_process():
        _kept.extend(objects)


def no_collection_until_exit() -> None:
    """In ``main.py``'s process, the automatic cyclic collector off for the rest of the command.

    For the one-shot commands that load, route and write (``bom``, ``schedule``, the exports,
    ``analyze``, ``routes``, ``render``). Why: their design and plant make no garbage cycles,
    and whatever their export left alive (tables, parts, findings) is kept to the exit; yet once
    a collector pause ended, the next allocation ran a young collection over all of it (XL: 0.12
    s of ``schedule`` and of ``export-netbox``, 0.19 s of ``bom -o .xlsx``), and routing ran
    two more (~30 ms) that found nothing. Measured at XL, each of those collections freed at
    most 33,000 objects of cycles (render's) — memory a command about to exit does not need back.
    Elsewhere (tests, the editor, a forked child) nothing changes. A long-running command (the
    what-if sweep) keeps the collector."""
    if is_own_process():
        gc.disable()


def leave_to_exit() -> None:
    """After the command: what was kept goes with the process, never freed one by one."""
    if _kept and _owner_pid == os.getpid():
        _kept.append(_kept)  # a cycle: once the module is cleared at shutdown only a collection
        gc.freeze()  # could free it, and frozen objects are never collected
