"""What a rack is for, from the roles of the devices it holds (the plan colours racks by it)."""

from __future__ import annotations

from collections.abc import Iterable

from model.catalog.components import DEVICE_ROLES

# Ties between equally many devices go to the role earlier here (the catalog's order, which the
# plan legend follows): a network rack with as many patch panels as switches is a network rack.
# Before this order the tie went to whichever role a set happened to yield first, so the same
# cross-connect design drew its network racks green in one run and grey in the next (string
# hashing is salted per process).
ROLE_ORDER = DEVICE_ROLES
_RANK = {role: i for i, role in enumerate(ROLE_ORDER)}


def rack_role(roles: Iterable[str]) -> str | None:
    """The role of a rack holding devices of ``roles`` (one entry per device); None when empty.

    Any GPU server makes it a compute rack (with its top-of-rack switch and PDUs); otherwise the
    most common role, ties broken by ``ROLE_ORDER`` and then by name."""
    counts: dict[str, int] = {}
    for role in roles:
        counts[role] = counts.get(role, 0) + 1
    if not counts:
        return None
    if "gpu-server" in counts:
        return "gpu-server"
    return min(counts, key=lambda r: (-counts[r], _RANK.get(r, len(_RANK)), r))
