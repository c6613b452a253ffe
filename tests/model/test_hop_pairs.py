"""``hops._pair_counts`` (sets meet by a gather of key membership) gives the counts the
product of 0/1 membership matrices gave, which is the definition written out here."""

from __future__ import annotations

import numpy as np

from model.analysis.hops import _pair_counts


def _by_products(sig_leaves, counts, labels):
    """The reference: sets i, j meet at a level when their 0/1 membership rows' product is
    non-zero; every pair of servers counted once at its lowest meeting level."""
    n_sigs = len(sig_leaves)
    sig_of, place = np.nonzero(sig_leaves >= 0)
    leaf = sig_leaves[sig_of, place]

    def membership(key):
        _, column = np.unique(key, return_inverse=True)
        out = np.zeros((n_sigs, int(column.max()) + 1 if len(column) else 1))
        out[sig_of, column.reshape(-1)] = 1.0
        return out

    members = [membership(leaf)] + [membership(lab[leaf]) for lab in labels]
    hop_of = [1] + [2 * (k + 2) - 1 for k in range(len(labels))]
    totals: dict[int, int] = {}
    for i in range(n_sigs):
        for j in range(i, n_sigs):
            pairs = counts[i] * (counts[i] - 1) // 2 if i == j else counts[i] * counts[j]
            hop = next((h for m, h in zip(members, hop_of, strict=True) if m[i] @ m[j] > 0), 0)
            if pairs:
                totals[hop] = totals.get(hop, 0) + int(pairs)
    return totals, totals.pop(0, 0)


def _case(rng, n_sigs, width, n_leaves, levels):
    rows = []
    for _ in range(n_sigs):
        k = int(rng.integers(0, width + 1))  # some sets reach no leaf at all
        row = np.sort(rng.choice(n_leaves, size=k, replace=False))
        rows.append(np.concatenate([row, np.full(width - k, -1)]))
    sig_leaves = np.array(rows, dtype=np.int64).reshape(n_sigs, width)
    counts = rng.integers(1, 5, size=n_sigs)
    # per level, a label per leaf; -1 (a leaf outside the level's switches) is a key too
    labels = [
        rng.integers(-1, max(n_leaves // (3 * (k + 1)), 1), size=n_leaves) for k in range(levels)
    ]
    return sig_leaves, counts, labels


def test_pair_counts_equal_the_membership_products() -> None:
    rng = np.random.default_rng(3)
    for n_sigs, width, n_leaves, levels in [
        (1, 2, 4, 1),
        (7, 3, 9, 2),
        (40, 4, 30, 2),
        (90, 8, 200, 3),
    ]:
        for _ in range(3):
            case = _case(rng, n_sigs, width, n_leaves, levels)
            assert _pair_counts(*case) == _by_products(*case)


def test_many_sets_are_counted_in_blocks_alike() -> None:
    """Enough sets that the rows are taken in several blocks (16 MB of booleans each)."""
    rng = np.random.default_rng(5)
    sig_leaves, counts, labels = _case(rng, 1500, 8, 3000, 2)
    got = _pair_counts(sig_leaves, counts, labels)
    # the reference in matrix form (its pair loop is too slow at this size)
    sig_of, place = np.nonzero(sig_leaves >= 0)
    leaf = sig_leaves[sig_of, place]
    c = counts.astype(np.int64)
    weight = np.triu(np.outer(c, c), 1) + np.diag(c * (c - 1) // 2)
    hops = np.zeros(weight.shape, dtype=np.int64)
    keys = [leaf] + [lab[leaf] for lab in labels]
    for key, h in reversed(list(zip(keys, [1, 3, 5], strict=True))):
        _, column = np.unique(key, return_inverse=True)
        m = np.zeros((len(c), int(column.max()) + 1))
        m[sig_of, column.reshape(-1)] = 1.0
        hops[(m @ m.T) > 0] = h
    want = {h: int(weight[hops == h].sum()) for h in np.unique(hops).tolist()}
    want = {h: v for h, v in want.items() if v}
    assert got == (want, want.pop(0, 0))
