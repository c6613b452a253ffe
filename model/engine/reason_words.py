"""Why each link has its medium (or none), in words, for many links at once (``routes``).

:meth:`RoutedLinks.reason <model.engine.media_choice.PlantMedia.reason>` words one link; this gives the
same sentence for every link asked for, as pieces (:mod:`model.common.text_columns`): the choice
worded once per group of rows with the same candidates, medium and pin and per distinct length
(:func:`model.engine.media_words.explain_lengths`), the pinned-mismatch and no-tray-path remarks, and
the per-cage words of :func:`model.engine.cage_words.cage_word_columns`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from model.common.text_columns import Columns, codes
from model.engine.link_status import NO_TRAY_PATH, PINNED_MISMATCH
from model.engine.media_words import explain_lengths

if TYPE_CHECKING:
    from model.engine.link_table import LinkTable

MISMATCH = " (does not match the link's speed, lane rate or form factor)"
NO_TRAY = "; no tray path: routed on the floor"


def reason_word_columns(plant: LinkTable, rows: np.ndarray, end: str = "") -> Columns:
    """``plant.reason(link_id) + end`` of each of ``rows`` as 11 columns of pieces: choice,
    mismatch remark, "; per cage: cage " and the A end's 3 pieces, "; cage " and the B end's 3
    pieces (these 8 empty unless the plug was chosen per cage), the no-tray-path remark and
    ``end``."""
    from model.engine.cage_words import cage_word_columns

    rows = np.asarray(rows, dtype=np.int64)
    n = len(rows)
    columns: Columns = [""] * 11  # a column no row has words in stays one ""
    columns[10] = end
    if not n:
        return columns
    columns[0] = _choice_words(plant, rows)
    status = plant.status[rows]
    columns[1] = _on_rows(n, (status & PINNED_MISMATCH) != 0, MISMATCH)
    chosen = plant.medium_index[rows].astype(np.int64)
    backplane = np.array([m.kind == "backplane" for m in plant.media] + [True])
    by_cage = plant.by_cage[rows] & (chosen >= 0) & ~backplane[np.where(chosen < 0, -1, chosen)]
    if by_cage.any():
        where = np.flatnonzero(by_cage)
        words_a, words_b = cage_word_columns(plant, rows[where])
        for k, words in zip(
            range(2, 10), ("; per cage: cage ", *words_a, "; cage ", *words_b), strict=True
        ):
            columns[k] = _on_rows(n, by_cage, words, where)
    columns[10] = _on_rows(n, (status & NO_TRAY_PATH) != 0, NO_TRAY + end, default=end)
    return columns


def _on_rows(n: int, mask: np.ndarray, words, where: np.ndarray | None = None, default=""):
    """A column with ``words`` (a string, or one per row of ``mask``) on the rows of ``mask``
    and ``default`` elsewhere: the words or the default alone when every row or no row has
    them."""
    if mask.all():
        return words
    if not mask.any():
        return default
    out = np.full(n, default, dtype=object)
    out[np.flatnonzero(mask) if where is None else where] = words
    return out


def _choice_words(plant: LinkTable, rows: np.ndarray) -> np.ndarray:
    """The choice sentence of each row: one wording pass per group (same port classes, cage
    specs, medium and pin), over the group's distinct lengths."""
    ca, cb = plant.class_a[rows], plant.class_b[rows]
    width = len(plant.port_classes) + 1
    n_specs = int(max(plant.spec_a.max(initial=0), plant.spec_b.max(initial=0))) + 2
    chosen = plant.medium_index[rows].astype(np.int64)
    pinned = plant.pinned[rows] >= 0
    group = (np.minimum(ca, cb) * width + np.maximum(ca, cb)) * n_specs
    group = (group + plant.spec_a[rows] + 1) * n_specs + plant.spec_b[rows] + 1
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
        cands, lane_rate = plant.candidate_media(int(plant.class_a[r]), int(plant.class_b[r]))
        sa, sb = int(plant.spec_a[r]), int(plant.spec_b[r])
        cands = [c for c in cands if plant.parts.orderable(c, sa, sb)] or cands
        lo, hi = bounds[g], bounds[g + 1]
        texts[lo:hi] = explain_lengths(
            plant.media,
            cands,
            lengths[pair_length[lo:hi]],
            int(plant.medium_index[r]),
            plant.policy,
            lane_rate,
            int(plant.pinned[r]) >= 0,
        )
    return texts[of_pair]
