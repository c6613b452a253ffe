"""The scalar wording of a media choice, kept as the oracle of the vectorised one.

Production words every choice with :func:`model.engine.media_words.explain_lengths` (one length or
many); this is the earlier one-length-at-a-time rule it must agree with, character for
character: rank the candidates by the policy at the length, the ones before the chosen medium
are preferred, and the binding one is the preferred candidate of longest reach.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from model.catalog.components import MediaType
from model.engine.media import KIND_LABEL, _lengths, _rank_keys, _speed, ordered_lengths


def explain(
    media: Sequence[MediaType],
    cands: Sequence[int],
    length_m: float,
    chosen: int,
    policy: str,
    lane_rate_gbps: float,
    pinned: bool,
) -> str:
    """Why this medium, in words: "2.7 m > 2.0 m passive DAC reach at 100G/lane → LACC 3 m"."""
    at = f"at {_speed(lane_rate_gbps)}/lane"
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
    if chosen < 0:
        longest = max(cands, key=lambda c: media[c].reach_m)
        return (
            f"{_lengths(length_m)} > {_lengths(media[longest].reach_m)} "
            f"{KIND_LABEL[media[longest].kind]} reach {at}: no medium reaches"
        )
    m = media[chosen]
    ordered = ordered_lengths(m, np.array([length_m]))[0]
    # The media the policy would prefer to the chosen one, had they reached.
    ranked = _policy_order(media, cands, length_m, policy)
    preferred = ranked[: ranked.index(chosen)] if chosen in ranked else []
    label = f"{KIND_LABEL[m.kind]} {_lengths(ordered)}"
    if not preferred:
        why = {
            "lowest-cost": "lowest cost",
            "lowest-power": "lowest power",
            "copper-first": "copper first",
            "fibre-only": "fibre only",
        }[policy]
        return f"{_lengths(length_m)} ≤ {_lengths(m.reach_m)} {KIND_LABEL[m.kind]} reach {at} → {label} ({why})"
    binding = max(preferred, key=lambda c: media[c].reach_m)
    return (
        f"{_lengths(length_m)} > {_lengths(media[binding].reach_m)} "
        f"{KIND_LABEL[media[binding].kind]} reach {at} → {label}"
    )


def _policy_order(
    media: Sequence[MediaType], cands: Sequence[int], length_m: float, policy: str
) -> list[int]:
    """Candidates in the order the policy prefers them, ignoring reach."""

    def key(c: int) -> tuple:
        m = media[c]
        nominal = np.array([min(max(length_m, m.min_length_m), m.reach_m)])
        return tuple(float(k[0]) for k in _rank_keys(m, nominal, policy)) + (cands.index(c),)

    return sorted(cands, key=key)
