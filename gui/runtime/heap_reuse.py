"""The editor keeps the memory numpy frees for its next arrays instead of handing it back.

Why: every edit at XL makes dozens of short-lived per-link arrays of 3-6 MB (the snapshot's
copies, the analysis worker's media, tray and plant sums, the charts' histogram). glibc serves
a request above its mmap threshold with a fresh mapping and unmaps it on free, and the
threshold only adapts to the sizes it has seen freed, so which of them page-fault changes from
one edit to the next: measured at 393k links, 0 to 10,700 minor faults per analysis job, and
the job's median 69-90 ms against 62 ms when the memory is reused. With a fixed threshold above
those sizes and freed memory kept up to ``TRIM_BYTES`` at the top of the heap, the next edit's
arrays land in pages the process already has (0 faults per job).

A headless command sets the same thresholds in ``main.py``'s own process
(:mod:`cli.heap_reuse`, with its own measurement: less CPU at XL, where an earlier measurement
had found ``schedule`` and ``analyze`` 10-20 % slower). The resident
size may stay up to ``TRIM_BYTES`` above what is live after a large operation; the peak does
not grow (see the pipeline benchmark's peak). Other C libraries (macOS, Windows, musl) are left
as they are.
"""

from __future__ import annotations

import ctypes
import ctypes.util

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameter numbers (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_BYTES = 32 * 1024 * 1024  # glibc's largest allowed value on 64-bit (HEAP_MAX_SIZE / 2)
TRIM_BYTES = 256 * 1024 * 1024

_applied: bool | None = None


def reuse_freed_heap() -> bool:
    """Set glibc's thresholds for this process (idempotent); False where there is no glibc."""
    global _applied
    if _applied is None:
        _applied = False
        name = ctypes.util.find_library("c")
        try:
            libc = ctypes.CDLL(name) if name else None
        except OSError:
            libc = None
        if libc is not None and hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt"):
            _applied = bool(
                libc.mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)
                and libc.mallopt(M_TRIM_THRESHOLD, TRIM_BYTES)
            )
    return _applied
