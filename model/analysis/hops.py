"""Switch hops between GPU servers over the compute fabric (scale-out path only).

Two servers that share a leaf are 1 switch hop apart; sharing a level-2 group (a pod of leaves
and spines) but no leaf, 3; sharing only a level-3 group, 5; in general 2k - 1 for the lowest
level k of a group that contains both. GPUs inside one server talk over NVLink (0 switch hops)
and are not counted. ``typical`` is the median over all server pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.topology import LINK_COMPUTE, Topology, components
from model.common.arrays import unique_sorted


@dataclass
class Hops:
    max: int | None  # None: fewer than 2 servers, or some pair is not connected
    typical: int | None
    disconnected_pairs: int
    histogram: dict[int, int]  # switch hops -> number of server pairs


def server_hops(topo: Topology, groups: dict[int, np.ndarray] | None = None) -> Hops:
    """Switch hops between GPU servers. ``groups``: the component labels of the switches up to
    each level k >= 2, when the caller has them (the analysis and what-if do)."""
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    a, b = topo.a[compute], topo.b[compute]
    la, lb = topo.level[a], topo.level[b]
    top = topo.top_level()
    labels = []  # per level k >= 2: component labels of switches up to level k
    for level in range(2, top + 1):
        if groups is not None and level in groups:
            labels.append(groups[level])
            continue
        members = (topo.level >= 1) & (topo.level <= level)
        labels.append(components(n, a, b, members))
    up_a, up_b = (la == 0) & (lb == 1), (lb == 0) & (la == 1)
    srv = np.concatenate([a[up_a], b[up_b]])
    leaf = np.concatenate([b[up_a], a[up_b]])
    servers = np.flatnonzero(topo.is_gpu_server)
    if len(servers) < 2:
        return Hops(None, None, 0, {})
    sig_leaves, counts = _signatures(servers, srv, leaf, n)
    hist, disconnected = _pair_counts(sig_leaves, counts, labels)
    if not hist and not disconnected:
        return Hops(None, None, 0, {})
    typical = _median(hist) if hist else None
    worst = None if disconnected or not hist else max(hist)
    return Hops(worst, typical, disconnected, dict(sorted(hist.items())))


def _signatures(
    servers: np.ndarray, srv: np.ndarray, leaf: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct leaf sets of the GPU servers and how many servers have each.

    Returns a (signatures x widest set) matrix of sorted leaf numbers padded with -1 (a row of
    -1 only: servers on no leaf) and the server count per row. Servers with the same set of
    leaves are alike for every pair count, so pairs are counted per pair of sets.
    """
    width = max(n, 1)
    pairs = unique_sorted(srv * width + leaf)  # (server, leaf) once each, by server then leaf
    pair_srv, pair_leaf = pairs // width, pairs % width
    pairs_of = np.bincount(pair_srv, minlength=width)
    widest = int(pairs_of[servers].max()) if len(servers) else 0
    # Each server's row: its leaves in ascending order, then -1.
    table = np.full((width, max(widest, 1)), -1, dtype=np.int64)
    first = np.concatenate([[0], np.cumsum(pairs_of)[:-1]])
    column = np.arange(len(pairs)) - first[pair_srv]
    keep = np.isin(pair_srv, servers) if len(pairs) else np.zeros(0, dtype=bool)
    table[pair_srv[keep], column[keep]] = pair_leaf[keep]
    # Equal rows grouped by one lexicographic sort (np.unique(axis=0) sorts a structured view).
    rows = table[servers]
    rows = rows[np.lexsort(rows.T[::-1])]
    starts = np.flatnonzero(np.concatenate([[True], (rows[1:] != rows[:-1]).any(axis=1)]))
    return rows[starts], np.diff(np.append(starts, len(rows)))


def _pair_counts(
    sig_leaves: np.ndarray, counts: np.ndarray, labels: list[np.ndarray]
) -> tuple[dict[int, int], int]:
    """(server pairs per switch-hop count, pairs not connected) over the pairs of servers.

    Two leaf sets that share a leaf are 1 hop apart; otherwise 2k - 1 for the lowest level k
    whose groups (``labels[k - 2]``) both sets reach; a set with no leaf reaches nothing. Two
    sets meet at a level where one of the first set's few keys there (its leaves, or their
    groups) has the second set among its members: a gather of the key-by-set membership rows,
    a block of sets at a time so that many distinct sets stay in memory.

    Why not a product of 0/1 membership matrices (as before, the same answer): a float32
    matrix product is multi-threaded in OpenBLAS, whose threads spin; at XL (256 leaf sets,
    2,048 leaves) it took 12-55 ms of CPU where a single thread takes 3 ms, and this gather ~1 ms.
    """
    n_sigs, width = sig_leaves.shape
    sig_of, place = np.nonzero(sig_leaves >= 0)
    leaf = sig_leaves[sig_of, place]
    levels = [_key_table(n_sigs, width, sig_of, place, leaf)]
    levels += [_key_table(n_sigs, width, sig_of, place, lab[leaf]) for lab in labels]
    hop_of = [1] + [2 * (k + 2) - 1 for k in range(len(labels))]
    c = counts.astype(np.int64)
    totals: dict[int, int] = {}
    # Rows per block: the gathered (rows x keys x sets) booleans stay within ~16 MB.
    block = max(1, min(1024, (1 << 24) // max(width * n_sigs, 1)))
    for lo in range(0, n_sigs, block):
        hi = min(lo + block, n_sigs)
        # Pairs (i, j) with i in this block and j >= i: distinct sets c_i * c_j, one set
        # with itself c_i (c_i - 1) / 2.
        j = np.arange(lo, n_sigs)
        weight = c[lo:hi, None] * c[None, lo:]
        i_col = np.arange(lo, hi)[:, None]
        weight = np.where(j[None, :] > i_col, weight, 0)
        own = np.arange(hi - lo)
        weight[own, own] = c[lo:hi] * (c[lo:hi] - 1) // 2
        hops = np.zeros(weight.shape, dtype=np.int64)  # 0: not connected
        for (keys, sets), h in zip(reversed(levels), reversed(hop_of), strict=True):
            meet = sets[:, lo:][keys[lo:hi]].any(axis=1)
            hops[meet] = h
        for h in unique_sorted(hops.ravel()).tolist():
            got = int(weight[hops == h].sum())
            if got:
                totals[h] = totals.get(h, 0) + got
    disconnected = totals.pop(0, 0)
    return totals, disconnected


def _key_table(
    rows: int, width: int, row_of: np.ndarray, place: np.ndarray, key: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(each row's keys as column numbers, a rows x width table padded with the number of
    distinct keys; a (distinct keys + 1) x rows boolean table: True where a row has that key,
    its last row, the padding's, all False)."""
    _, column = np.unique(key, return_inverse=True)
    column = column.reshape(-1)
    n_keys = int(column.max()) + 1 if len(column) else 0
    keys = np.full((rows, max(width, 1)), n_keys, dtype=np.int64)
    keys[row_of, place] = column
    sets = np.zeros((n_keys + 1, rows), dtype=bool)
    sets[column, row_of] = True
    return keys, sets


def _median(hist: dict[int, int]) -> int:
    total = sum(hist.values())
    seen = 0
    for hops in sorted(hist):
        seen += hist[hops]
        if 2 * seen >= total:
            return hops
    return max(hist)
