"""Why each link has its medium (or none), in words, for many links at once (``routes``).

:meth:`CablePlant.reason <model.cabling_media.PlantMedia.reason>` words one link; this gives the
same sentence for every link asked for, as pieces (:mod:`model.text_columns`): the choice
worded once per group of rows with the same candidates, medium and pin and per distinct length
(:func:`model.media_words.explain_lengths`), the pinned-mismatch and no-tray-path remarks, and
the per-cage words of :func:`model.cage_words.cage_word_tables`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from model.media_words import explain_lengths
from model.plant_status import NO_TRAY_PATH, PINNED_MISMATCH
from model.text_columns import codes

if TYPE_CHECKING:
    from model.cabling import CablePlant

MISMATCH = " (does not match the link's speed, lane rate or form factor)"
NO_TRAY = "; no tray path: routed on the floor"
REASON_PIECES = 13  # columns of reason_word_table


def reason_word_table(plant: CablePlant, rows: np.ndarray) -> np.ndarray:
    """``plant.reason(link_id)`` of each of ``rows`` as an ``(n, REASON_PIECES)`` piece table:
    choice, mismatch remark, "; per cage: ", the A end's 4 pieces, "; ", the B end's 4 pieces
    (these 10 empty unless the plug was chosen per cage), the no-tray-path remark."""
    from model.cage_words import cage_word_tables

    rows = np.asarray(rows, dtype=np.int64)
    n = len(rows)
    table = np.empty((n, REASON_PIECES), dtype=object)
    table[:] = ""
    if not n:
        return table
    table[:, 0] = _choice_words(plant, rows)
    status = plant.status[rows]
    table[(status & PINNED_MISMATCH) != 0, 1] = MISMATCH
    chosen = plant.medium_index[rows].astype(np.int64)
    backplane = np.array([m.kind == "backplane" for m in plant.media] + [True])
    by_cage = np.flatnonzero(
        plant._by_cage[rows] & (chosen >= 0) & ~backplane[np.where(chosen < 0, -1, chosen)]
    )
    if len(by_cage):
        words_a, words_b = cage_word_tables(plant, rows[by_cage])
        table[by_cage, 2] = "; per cage: "
        table[by_cage, 3:7] = words_a
        table[by_cage, 7] = "; "
        table[by_cage, 8:12] = words_b
    table[(status & NO_TRAY_PATH) != 0, 12] = NO_TRAY
    return table


def _choice_words(plant: CablePlant, rows: np.ndarray) -> np.ndarray:
    """The choice sentence of each row: one wording pass per group (same port classes, cage
    specs, medium and pin), over the group's distinct lengths."""
    ca, cb = plant._class_a[rows], plant._class_b[rows]
    width = len(plant._classes) + 1
    n_specs = int(max(plant._spec_a.max(initial=0), plant._spec_b.max(initial=0))) + 2
    chosen = plant.medium_index[rows].astype(np.int64)
    pinned = plant._pinned[rows] >= 0
    group = (np.minimum(ca, cb) * width + np.maximum(ca, cb)) * n_specs
    group = (group + plant._spec_a[rows] + 1) * n_specs + plant._spec_b[rows] + 1
    group = (group * (len(plant.media) + 1) + chosen + 1) * 2 + pinned
    groups, of_group = codes(group)
    lengths, of_length = codes(plant.length_m[rows])
    pairs, of_pair = codes(of_group * len(lengths) + of_length)
    pair_group, pair_length = np.divmod(pairs, len(lengths))
    first = np.full(len(groups), len(rows), dtype=np.int64)
    np.minimum.at(first, of_group, np.arange(len(rows)))  # first row of each group
    bounds = np.searchsorted(pair_group, np.arange(len(groups) + 1))
    texts = np.empty(len(pairs), dtype=object)
    for g, r in enumerate(rows[first].tolist()):
        cands, lane_rate = plant._group(int(plant._class_a[r]), int(plant._class_b[r]))
        sa, sb = int(plant._spec_a[r]), int(plant._spec_b[r])
        cands = [c for c in cands if plant.parts.orderable(c, sa, sb)] or cands
        lo, hi = bounds[g], bounds[g + 1]
        texts[lo:hi] = explain_lengths(
            plant.media,
            cands,
            lengths[pair_length[lo:hi]],
            int(plant.medium_index[r]),
            plant.policy,
            lane_rate,
            int(plant._pinned[r]) >= 0,
        )
    return texts[of_pair]
