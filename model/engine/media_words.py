"""Why a medium was chosen, in words: the one wording of a choice, for one length or many.

Links that share their candidates, chosen medium, lane rate and pin differ only in length, so
:func:`explain_lengths` words a whole array of lengths with one vectorised pass per candidate:
the policy's rank keys at each length, the candidates the policy prefers to the chosen one
(those whose keys sort before it), and the binding one among them (the longest reach, the first
in the policy's order on a tie). :func:`explain` words one length by the same path (a link's
tooltip, the inspector). The scalar wording it replaced is kept in the tests as their oracle.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from model.catalog.components import MediaType
from model.engine.media import KIND_LABEL, _lengths, _rank_keys, _speed, ordered_lengths

_WHY = {
    "lowest-cost": "lowest cost",
    "lowest-power": "lowest power",
    "copper-first": "copper first",
    "fibre-only": "fibre only",
}


def explain_lengths(
    media: Sequence[MediaType],
    cands: Sequence[int],
    lengths_m: np.ndarray,
    chosen: int,
    policy: str,
    lane_rate_gbps: float,
    pinned: bool,
) -> list[str]:
    """:func:`explain` of each length: "2.7 m > 2.0 m passive DAC reach at 100G/lane → LACC 3 m"."""
    lengths_m = np.asarray(lengths_m, dtype=float)
    listed = lengths_m.tolist()
    at = f"at {_speed(lane_rate_gbps)}/lane"
    if pinned or not cands or chosen < 0:
        # One sentence shape per case, cheap per length.
        return [_no_ranking(media, cands, x, chosen, at, pinned) for x in listed]
    m = media[chosen]
    ordered = ordered_lengths(m, lengths_m)
    label = KIND_LABEL[m.kind]
    cands = list(cands)
    keys = {c: _order_keys(media[c], lengths_m, policy, cands.index(c)) for c in cands}
    mine = keys[chosen] if chosen in keys else None
    # binding: the preferred candidate of longest reach (first in the policy's order on a tie)
    binding = np.full(len(listed), -1, dtype=np.int64)
    best_keys: list[np.ndarray] | None = None
    if mine is not None:
        for c in cands:
            if c == chosen:
                continue
            preferred = _lex_less(keys[c], mine)
            if best_keys is None:
                take = preferred
                best_keys = [k.copy() for k in keys[c]]
            else:
                reach_c, reach_b = media[c].reach_m, _reach(media, binding)
                take = preferred & (
                    (binding < 0)
                    | (reach_c > reach_b)
                    | ((reach_c == reach_b) & _lex_less(keys[c], best_keys))
                )
            binding[take] = c
            for new, old in zip(keys[c], best_keys, strict=True):
                old[take] = new[take]
    # The sentence is "<length> <middle of the binding candidate> <said> <tail>": the pieces
    # are object arrays added element by element in C, each length worded by length_words (a
    # string per link, formatted in Python, was ~0.25 s of ``routes`` at XL with every network).
    why = _WHY[policy]
    b = np.where(binding < 0, len(media), binding)
    # Worded only for the candidates that bind some length (one sentence a call when a link
    # is explained on its own: the inspector, tooltips, links table), not for every medium.
    middle = np.empty(len(media) + 1, dtype=object)
    for k in np.unique(b).tolist():
        middle[k] = (
            f" > {_lengths(media[k].reach_m)} {KIND_LABEL[media[k].kind]} reach {at} → "
            f"{KIND_LABEL[m.kind]} "
            if k < len(media)
            else f" ≤ {_lengths(m.reach_m)} {label} reach {at} → {KIND_LABEL[m.kind]} "
        )
    tail = np.full(len(media) + 1, "", dtype=object)
    tail[-1] = f" ({why})"
    words = length_words(lengths_m) + middle[b] + length_words(ordered) + tail[b]
    return words.tolist()


def length_words(lengths_m: np.ndarray) -> np.ndarray:
    """``_lengths(x)`` of each length as an object array ("2.7 m", "1,234 m"), the same strings.

    Python rounds the exact binary value to one place (below 100 m) or none, half to even; a
    length rounded in numpy (``rint`` of x * 10 or x) gets the same digits unless its product
    lies within 1e-6 of a half (where the product's own rounding could tip it), is negative
    (a -0.0 to word) or not finite: those few are worded by ``_lengths`` itself. Each distinct
    rounded value is worded once."""
    x = np.asarray(lengths_m, dtype=float)
    out = np.empty(len(x), dtype=object)
    if not len(x):
        return out
    small = x < 100
    scaled = np.where(small, x * 10, x)
    with np.errstate(invalid="ignore"):
        exact = np.isfinite(x) & ~np.signbit(x) & (np.abs(scaled - np.floor(scaled) - 0.5) > 1e-6)
    exact &= scaled < 2**52  # rint and int64 exact
    units = np.rint(np.where(exact, scaled, 0)).astype(np.int64)
    key = np.where(small, units, -1 - units)  # tenths below 100 m, metres above
    distinct, inverse = np.unique(key[exact], return_inverse=True)
    texts = np.empty(len(distinct), dtype=object)
    texts[:] = [f"{k // 10}.{k % 10} m" if k >= 0 else f"{-1 - k:,} m" for k in distinct.tolist()]
    out[exact] = texts[inverse.reshape(-1)]
    rest = np.flatnonzero(~exact)
    if len(rest):
        out[rest] = [_lengths(v) for v in x[rest].tolist()]
    return out


def explain(
    media: Sequence[MediaType],
    cands: Sequence[int],
    length_m: float,
    chosen: int,
    policy: str,
    lane_rate_gbps: float,
    pinned: bool,
) -> str:
    """Why this medium at this length, in words (:func:`explain_lengths` of one length)."""
    lengths = np.array([length_m], dtype=float)
    return explain_lengths(media, cands, lengths, chosen, policy, lane_rate_gbps, pinned)[0]


def _no_ranking(
    media: Sequence[MediaType], cands: Sequence[int], length_m: float, chosen: int, at: str, pinned
) -> str:
    """The sentence of a choice no ranking made: pinned, no candidate, or none reaches."""
    if pinned:
        m = media[chosen]
        ordered = ordered_lengths(m, np.array([length_m]))[0]
        if np.isnan(ordered):
            return (
                f"pinned {m.name}: {_lengths(length_m)} > {_lengths(m.reach_m)} "
                f"{KIND_LABEL[m.kind]} reach {at} (out of reach)"
            )
        return f"pinned {m.name} {_lengths(ordered)}"
    if not cands:
        return f"no medium in the catalog for this speed, lane rate {at} and form factor"
    longest = max(cands, key=lambda c: media[c].reach_m)
    return (
        f"{_lengths(length_m)} > {_lengths(media[longest].reach_m)} "
        f"{KIND_LABEL[media[longest].kind]} reach {at}: no medium reaches"
    )


def _order_keys(medium: MediaType, lengths_m: np.ndarray, policy: str, position: int):
    """The keys the policy sorts a candidate by at each length (rank keys at the length clamped
    to the candidate's orderable range, then its catalog position)."""
    nominal = np.minimum(np.maximum(lengths_m, medium.min_length_m), medium.reach_m)
    keys = [np.asarray(k, dtype=float) for k in _rank_keys(medium, nominal, policy)]
    return [*keys, np.full(len(lengths_m), float(position))]


def _lex_less(a: list[np.ndarray], b: list[np.ndarray]) -> np.ndarray:
    """Per element, whether the key tuple ``a`` sorts strictly before ``b``."""
    less = np.zeros(len(a[0]), dtype=bool)
    decided = np.zeros(len(a[0]), dtype=bool)
    for x, y in zip(a, b, strict=True):
        less |= ~decided & (x < y)
        decided |= x != y
    return less


def _reach(media: Sequence[MediaType], index: np.ndarray) -> np.ndarray:
    reach = np.array([m.reach_m for m in media] + [-np.inf])
    return reach[np.where(index < 0, len(media), index)]
