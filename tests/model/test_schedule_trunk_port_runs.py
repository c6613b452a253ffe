"""A trunk end's rear ports as runs (``R1-R3,R7``): the column-wise ``_ranges_per_code``
against a plain loop per code, on codes with no port, one run, several runs and repeats."""

from __future__ import annotations

import numpy as np

from model.outputs.schedule_segment_ports import _ranges_per_code


def _plain(codes: list[int], ports: list[int], n: int) -> list[str | None]:
    out: list[str | None] = [None] * n
    for code in range(n):
        mine = sorted({p for c, p in zip(codes, ports, strict=True) if c == code})
        runs: list[list[int]] = []
        for p in mine:
            if runs and p == runs[-1][-1] + 1:
                runs[-1].append(p)
            else:
                runs.append([p])
        if runs:
            out[code] = ",".join(f"R{r[0]}" if len(r) == 1 else f"R{r[0]}-R{r[-1]}" for r in runs)
    return out


def test_runs_per_code_match_a_plain_loop():
    rng = np.random.default_rng(7)
    for _ in range(200):
        m, n = int(rng.integers(0, 50)), int(rng.integers(1, 12))
        codes, ports = rng.integers(0, n, m), rng.integers(1, 10, m)
        got = _ranges_per_code(codes, ports, n)
        assert got == _plain(codes.tolist(), ports.tolist(), n)


def test_one_run_several_runs_and_no_port():
    codes = np.array([2, 0, 0, 0, 2, 0, 2], dtype=np.int64)
    ports = np.array([5, 1, 2, 3, 5, 7, 9], dtype=np.int64)
    assert _ranges_per_code(codes, ports, 4) == ["R1-R3,R7", None, "R5,R9", None]


def test_cord_routes_alike_for_repeated_rack_names():
    # A device end's values are one rack name per device, both ends' lists laid end to end:
    # the same name under several codes makes the same route text, turned or not.
    from model.outputs.schedule_segment_table import Coded
    from model.outputs.schedule_segments import _Segments

    from_rack = Coded(["A01", "A01", "B02", "A01"], np.array([0, 1, 3, 2, 1], dtype=np.int32))
    to_rack = Coded(["C-P1", "A01", "C-P1"], np.array([0, 2, 1, 0, 0], dtype=np.int32))
    turned = np.array([False, True, False, True, False])
    route = _Segments._cord_routes(from_rack, to_rack, turned)
    assert route.cells().tolist() == [
        "A01 > C-P1",
        "C-P1 > A01",
        "(in rack)",
        "C-P1 > B02",
        "A01 > C-P1",
    ]
    assert len(route.values) == 4  # one text per distinct (from, to, turned) names
