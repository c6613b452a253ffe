"""The runs of panels a path's legs take (:meth:`PanelPool.take_runs`, one list per node) read
as stretches of legs, panel pairs and displaced lengths, for :mod:`model.structured.legs`
(moved out of it to keep it one class)."""

from __future__ import annotations

from model.structured.paths import patch_way_m


def paired_runs(runs_a: list, runs_b: list) -> list[tuple[str, str, int]]:
    """Two nodes' runs of (panel, legs) over the same legs as runs of (panel A, panel B,
    legs): a new run wherever either node's panel changes."""
    out: list[tuple[str, str, int]] = []
    i = j = 0
    left_a, left_b = runs_a[0][1], runs_b[0][1]
    while True:
        m = min(left_a, left_b)
        pair = (runs_a[i][0], runs_b[j][0])
        if out and out[-1][:2] == pair:
            out[-1] = (*pair, out[-1][2] + m)
        else:
            out.append((*pair, m))
        left_a -= m
        left_b -= m
        if not left_a:
            i += 1
            if i == len(runs_a):
                return out
            left_a = runs_a[i][1]
        if not left_b:
            j += 1
            left_b = runs_b[j][1]


def stretches(way_runs: list) -> list[tuple[int, int, tuple]]:
    """The nodes' runs of (value, legs) over the same legs as stretches of legs (first, end)
    and the values of every node there (ways, or panels): a new stretch wherever any node's
    run changes."""
    out = []
    at = [0] * len(way_runs)
    left = [runs[0][1] for runs in way_runs]
    k = 0
    while True:
        m = min(left)
        out.append((k, k + m, tuple([runs[i][0] for runs, i in zip(way_runs, at, strict=True)])))
        k += m
        for node, runs in enumerate(way_runs):
            left[node] -= m
            if not left[node]:
                at[node] += 1
                if at[node] == len(runs):
                    return out
                left[node] = runs[at[node]][1]


def displace(
    leg_racks: tuple, holders: tuple, seg_m: tuple, home: dict[str, str], racks
) -> tuple[tuple[float, ...], tuple[float, float]]:
    """A leg's segment lengths and its cords' ways (A, B), the leg through ``holders`` with
    a panel in a patch rack (:class:`~model.structured.paths.PanelPool`): the
    cord at that end runs on from its rack to the patch rack, and a trunk ending there is
    ordered for its route to the rack the panel serves plus that same way (the patch rack
    stands beside it in its run; :func:`~model.engine.patch_points.patch_way_m`, which the
    media choice adds too). The leg keeps the served racks, so the trunk follows their tray
    route and fills those trays."""
    off = [
        patch_way_m(racks[rack], racks[home[h]]) if h in home else 0.0
        for rack, h in zip(leg_racks, holders, strict=True)
    ]
    return tuple(m + off[s] + off[s + 1] for s, m in enumerate(seg_m)), (off[0], off[-1])
