"""The rules a link's ``via``, ``polarity`` and ``as_built_pieces_m`` follow beyond their types.

The file's types (``Link.via``: at most 16 ids; ``Link.polarity``: keys ``cord-1`` ...
``cassette-99``, values ``A``/``B``/``C``/``AB``/``AA`` with an optional ``@port``) let through
entries the editor's edit API refuses: a panel named twice in a route, a port on a trunk or a
cord, a cassette port past the cassette's six. The loader (:mod:`model.files.checks`), the link
edits (:mod:`model.design.links`), ``route_via`` and ``set_polarity`` ask these functions, so a
file the editor could not have written is refused with its JSON path, and the editor can never
write one (#44). A ``via`` naming a device that is not a patch panel is no refusal: the file is
still usable, and the layout's VIA_PANEL_MISSING warning names the link (its channel skips it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

MAX_VIA = 16  # panels on one link (the file's limit, Link.via)
ELEMENT_KINDS = ("cord", "trunk", "cassette")  # what a polarity record may name
POLARITY_TYPES = ("A", "B", "C", "AB", "AA")  # trunk and MPO cord types, duplex cord types
CASSETTE_PORTS = 6  # an MPO-12 cassette: 6 LC duplex ports (model.structured.polarity)


def via_problem(via: Iterable[str]) -> str | None:
    """What makes ``via`` (panel ids, A end to B end) a route no edit makes, or None."""
    via = tuple(via)
    if len(via) > MAX_VIA:
        return f"at most {MAX_VIA} panels on one link"
    seen: set[str] = set()
    for panel_id in via:
        if panel_id in seen:
            return f"panel {panel_id!r} appears twice in its route"
        seen.add(panel_id)
    return None


def pieces_problem(pieces_m: Iterable[float | None], via: Iterable[str]) -> str | None:
    """What makes ``pieces_m`` (recorded lengths: cord A, each trunk, cord B) a record no
    import makes, or None: a channel has two cords and at least one trunk, and through the
    panels it names (``via``) one trunk fewer than panels, so one piece more than panels."""
    pieces_m, via = tuple(pieces_m), tuple(via)
    if not pieces_m:
        return None
    if len(pieces_m) < 3:
        return f"{len(pieces_m)} pieces: a channel is a cord, at least one trunk and a cord"
    if via and len(pieces_m) != len(via) + 1:
        return (
            f"{len(pieces_m)} pieces for {len(via)} panels: a channel through {len(via)} "
            f"panels is 2 cords and {len(via) - 1} trunks"
        )
    if any(p is not None and p <= 0 for p in pieces_m):
        return "a recorded length of 0 m: leave the piece out (null) instead"
    return None


def polarity_problem(key: str, value: str) -> str | None:
    """What makes ``key: value`` a polarity entry no edit makes, or None."""
    kind, _, n = key.partition("-")
    if kind not in ELEMENT_KINDS or not n.isdigit() or not 1 <= int(n) <= 99:
        return f"{key!r} names no channel element (e.g. trunk-1)"
    polarity, _, port = value.partition("@")
    if polarity not in POLARITY_TYPES or (port and not port.isdigit()):
        return f"{value!r} is no polarity (A, B, C, AB, AA)"
    if port and not (kind == "cassette" and 1 <= int(port) <= CASSETTE_PORTS):
        return f"only a cassette has a port (1-{CASSETTE_PORTS})"
    return None


def record_problem(record: Mapping[str, str]) -> tuple[str, str] | None:
    """The first entry of a polarity ``record`` no edit makes, as (its key, the problem)."""
    for key, value in record.items():
        problem = polarity_problem(key, value)
        if problem is not None:
            return key, problem
    return None


__all__ = [
    "CASSETTE_PORTS",
    "ELEMENT_KINDS",
    "MAX_VIA",
    "POLARITY_TYPES",
    "pieces_problem",
    "polarity_problem",
    "record_problem",
    "via_problem",
]
