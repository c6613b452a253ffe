"""The heap policy (model.runtime.heap_reuse): a process's big arrays land in pages it already has,
as the editor's edits and a command's stages make and free their per-link columns."""

from __future__ import annotations

import platform
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Six 24 MB arrays made and freed four times, as an edit's snapshot and analysis make and free
# their per-link columns; prints the minor page faults of each round.
ROUNDS = textwrap.dedent(
    """
    import resource, sys
    import numpy as np
    if sys.argv[1] == "reuse":
        from model.runtime.heap_reuse import reuse_freed_heap
        assert reuse_freed_heap() and reuse_freed_heap()  # idempotent
    def faults():
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    def one_round():
        before = faults()
        arrays = [np.ones(3_000_000) for _ in range(6)]
        del arrays
        return faults() - before
    print(" ".join(str(one_round()) for _ in range(4)))
    """
)

glibc_only = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="the policy is glibc's mallopt",
)


def _rounds(mode: str) -> list[int]:
    out = subprocess.run(
        [sys.executable, "-c", ROUNDS, mode], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [int(v) for v in out.stdout.split()]


@glibc_only
def test_a_process_with_the_policy_reuses_freed_arrays_without_page_faults():
    first, *later = _rounds("reuse")
    assert first > 1000  # the first round touches new memory
    assert max(later) < first / 20  # the next rounds reuse it


@glibc_only
def test_without_it_glibc_maps_and_faults_the_same_arrays_again():
    """What the policy is for (and what makes the test above able to fail)."""
    first, *later = _rounds("default")
    assert min(later) > first / 4
