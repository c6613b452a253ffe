"""Drop the source text PySide6's import hook leaves in ``linecache`` for every module imported.

Why: once PySide6 is imported, its ``__feature__`` import hook reads the source of each module
that imports something (``inspect.getsource``, to see whether it names PySide6), and
``inspect`` keeps what it read in ``linecache``: every line of numpy, PySide6's support code
and the whole project, ~880 files and ~31 MB of str objects by the time the editor has an XL
hall open, never read again. Nothing else in the editor fills that cache (a traceback reads
the few lines it prints), and whatever needs a line later reads it again from its file.
"""

from __future__ import annotations

import linecache


def drop_import_sources() -> None:
    """Empty ``linecache`` (cheap when it is empty already: called on every collector tick,
    since modules imported later on demand, by a dialog or a worker, fill it again)."""
    if linecache.cache:
        linecache.clearcache()
