"""Quantum-X800 (XDR) spine counts: the even leaf-spine spread of NVIDIA's XDR SuperPOD table,
within the extra spines its own rows accept, else the Clos minimum (issue 39)."""

from __future__ import annotations

import math

from model.generators.plans import clos_spines, smallest_divisor_at_least

# Switches whose two-tier fabrics NVIDIA publishes with every leaf's uplinks spread
# evenly over the spines (the spine count divides them) even where a round-robin spread would
# take fewer spines: the XDR SuperPOD's Table 3 (NV-SP-B300XDR) has 32 Q3400 leaves of 72
# uplinks on 18 spines at 4 SU and 64 on 36 at 8 SU (4 links a pair, 128 of 144 spine ports),
# not the 16 and 32 the ports alone need. The Q3450-LD is the Q3400-RA's co-packaged twin (same
# ports), so it builds the same fabric. Keyed on the switches the table covers, not the family:
# the Q3200 (also "Quantum-X800") has no such table. Others stay at the Clos minimum (clos_spines).
EVEN_SPREAD_SWITCHES = frozenset({"q3400", "q3450-ld"})
# The most spines the even spread may cost over the Clos minimum, as a ratio: Table 3's 4- and
# 8-SU rows (18 for 16, 36 for 32) are the most it accepts, 9/8. Choice (no source decides the
# sizes between its rows): beyond that the Clos minimum, the pairs as even as round-robin makes
# them (5 SU: 20 spines of 3 or 4 links a leaf, not 24; 10-17 SU: 40-68, not 72).
EVEN_SPREAD_MOST_EXTRA = (9, 8)


def xdr_spines(need: int, leaves: int, spine_ports: int) -> tuple[int, int] | None:
    """(uplinks per leaf, spines) of an :data:`EVEN_SPREAD_SWITCHES` two-tier fabric.

    Uplinks are ``need`` (the downlinks in use at the ratio), never rounded up to a divisor:
    Table 3's leaves have as many uplinks as downlinks, so a leaf of 71 nodes gets 71, not 72.
    Spines are the smallest divisor of ``need`` at or above the Clos minimum where that is at
    most 9/8 of it (:data:`EVEN_SPREAD_MOST_EXTRA`), else the Clos minimum, round-robin. None
    where the leaves do not fit two tiers.
    """
    if clos_spines(need, need, leaves, spine_ports) is None:
        return None
    need = max(need, 2)  # two uplinks at least: no leaf hangs on one cable
    fewest = max(math.ceil(leaves * need / spine_ports - 1e-9), 2)
    if fewest > need:  # a leaf cannot reach every spine: the general rule decides
        return clos_spines(need, need, leaves, spine_ports)
    even = smallest_divisor_at_least(need, fewest)
    num, den = EVEN_SPREAD_MOST_EXTRA
    if even is not None and even * den <= fewest * num:
        return need, even
    return need, fewest
