"""Links per medium and cable lengths: what the analysis reads per link from the routed links.

Counts of links per medium and per medium kind, links without a medium, and the routed and
ordered cable lengths, in topology link order. Modules, cables, fibres, their power and their cost
are not counted here: the physical plant (:func:`model.plant.physical_plant.build_plant`) counts
them per cage, the one rule the analysis, the per-fabric figures, the reliability forecast and
the BOM all read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from model.analysis.topology import Topology

KINDS = ("dac", "acc", "aec", "aoc", "mmf", "smf")


@dataclass
class LinkMedia:
    available: bool  # False when no routed links were given
    by_kind: dict[str, int] = field(default_factory=dict)
    by_medium: dict[str, int] = field(default_factory=dict)
    no_medium: int = 0
    length_total_m: float = 0.0
    length_max_m: float = 0.0
    ordered_total_m: float = 0.0
    # Per topology link: the index of its medium kind in ``kinds`` (len(kinds) = no medium).
    kind_of_link: np.ndarray | None = None
    kinds: tuple[str, ...] = ()

    def kinds_of(self, mask: np.ndarray) -> dict[str, int]:
        """Links per medium kind among the topology links of ``mask`` (kinds with none left out)."""
        if self.kind_of_link is None:
            return {}
        counts = np.bincount(self.kind_of_link[mask], minlength=len(self.kinds) + 1)
        out: dict[str, int] = {}
        for kind, n in zip(self.kinds, counts.tolist(), strict=False):
            if n:
                out[kind] = out.get(kind, 0) + n
        return out


def link_media(
    topo: Topology, plant, order: np.ndarray | None = None, in_order: bool = False
) -> LinkMedia:
    """Links per medium and kind, and cable lengths, of the media ``plant`` chose.

    ``order`` = the plant row of each topology link (computed when not given); ``in_order``:
    it is every plant row in order (the caller knows), so the columns are read as they are
    (three gathers of every link were ~1.5 ms of each XL report; the same values, the same
    order, so the same sums).
    """
    if plant is None:
        return LinkMedia(False)
    n_links = len(topo.link_ids)
    if in_order and order is not None and len(order) == len(plant.medium_index):
        mi = np.asarray(plant.medium_index).astype(np.int64)
        length = np.asarray(plant.length_m, dtype=float)
        ordered = np.asarray(plant.ordered_m, dtype=float)
    else:
        if order is None:
            order = np.fromiter(
                (plant.index[lid] for lid in topo.link_ids), dtype=np.int64, count=n_links
            )
        mi = np.asarray(plant.medium_index)[order].astype(np.int64)
        length = np.asarray(plant.length_m, dtype=float)[order]
        ordered = np.asarray(plant.ordered_m, dtype=float)[order]
    media = list(plant.media)
    k = len(media)
    idx = np.where(mi < 0, k, mi)  # index k = "no medium"
    counts = np.bincount(idx, minlength=k + 1)
    by_medium = {media[i].id: int(counts[i]) for i in range(k) if counts[i]}
    by_kind = {name: 0 for name in KINDS}
    for i in range(k):
        if counts[i]:
            by_kind[media[i].kind] = by_kind.get(media[i].kind, 0) + int(counts[i])
    kinds = tuple(dict.fromkeys([*KINDS, *(m.kind for m in media)]))  # by_kind's order
    kind_code = np.array([kinds.index(m.kind) for m in media] + [len(kinds)], dtype=np.int64)
    safe_ordered = np.where(np.isfinite(ordered), ordered, 0.0)
    finite = np.isfinite(length)
    return LinkMedia(
        True,
        by_kind,
        by_medium,
        int(counts[k]),
        float(length[finite].sum()),
        float(length[finite].max()) if finite.any() else 0.0,
        float(safe_ordered.sum()),
        kind_code[idx],
        kinds,
    )
