"""The link whose tray route a trunk between two racks follows (``_route_links``): per rack
pair, the longest link (horizontal), ties to the greatest id, as a link-by-link pass finds it."""

from __future__ import annotations

import numpy as np
import pytest

from model.structured.channel_groups import _route_links


def _link_by_link(link_ids, horizontal, rack_a, rack_b, rack_ids) -> dict:
    best: dict[tuple[str, str], tuple[float, str]] = {}
    for r, link_id in enumerate(link_ids):
        if rack_a[r] == rack_b[r]:
            continue
        pair = (rack_ids[rack_a[r]], rack_ids[rack_b[r]])
        candidate = (float(horizontal[r]), link_id)
        if pair not in best or candidate > best[pair]:
            best[pair] = candidate
    return {pair: got[1] for pair, got in best.items()}


@pytest.mark.parametrize("seed", range(40))
def test_route_links_is_the_longest_then_greatest_id(seed):
    rng = np.random.default_rng(seed)
    n, racks = int(rng.integers(1, 80)), int(rng.integers(1, 6))
    # Ids in no sorted order (their str order is not their place), lengths with many ties.
    link_ids = [f"l-{k}" for k in rng.permutation(10 * n)[:n].tolist()]
    horizontal = rng.integers(0, 3, n).astype(np.float64)
    rack_a, rack_b = rng.integers(0, racks, n), rng.integers(0, racks, n)
    rack_ids = [f"r{k}" for k in range(racks)]
    got = _route_links(link_ids, horizontal, rack_a, rack_b, rack_ids)
    want = _link_by_link(link_ids, horizontal, rack_a, rack_b, rack_ids)
    assert got == want
