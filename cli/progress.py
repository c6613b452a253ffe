"""Progress of a long command on stderr: one line, rewritten per step, for work over a second.

Choice (issue #13): progress is shown only when stderr is a terminal, and only once the command
has run for ``after_s`` (1 s): a quick command prints nothing, and a pipe, a log file, CI or a
test (whose stderr is not a terminal) never sees progress lines, so stderr keeps only messages
and warnings there. The line is cleared when the command ends, leaving the terminal as it was.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

AFTER_S = 1.0  # work shorter than this shows no progress


class Progress:
    """``step(what)`` after each stage of a command; ``done()`` at its end."""

    def __init__(
        self, command: str, stream: TextIO | None = None, after_s: float | None = None
    ) -> None:
        self.command = command
        self.stream = stream if stream is not None else sys.stderr
        self.after_s = AFTER_S if after_s is None else after_s
        self.started = time.perf_counter()
        self.shown = False
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty())

    def step(self, what: str) -> None:
        """Say that ``what`` is done (shown only on a terminal, once past ``after_s``)."""
        elapsed = time.perf_counter() - self.started
        if not self.enabled or elapsed < self.after_s:
            return
        self.stream.write(f"\r\x1b[K{self.command}: {what} ({elapsed:.1f} s)")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        """Clear the progress line, if one was shown."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
