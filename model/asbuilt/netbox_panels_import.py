"""Links through patch panels, back from NetBox's cable list: cord - trunk - cord joined.

A structured site in NetBox (as :mod:`model.export.netbox_panels` exports it, or as a team
records it the same way) has no cable from a GPU port to a switch port: a patch cord runs from
the interface to a panel's front port, a trunk from that panel's rear port to a far panel's rear
port, and a second cord from the far panel's front port to the far interface. NetBox's cable
list export names each end's device and port but neither the port's kind nor the panel's port
mapping, so the join follows the panel port names the export writes:

* MPO adapter panels: front ``Fk`` sits on rear ``Rk`` (one position);
* cassette enclosures: front ``Cs-k`` sits on rear ``Cs`` (six positions). Which of the far
  cassette's six fronts continues a channel is a position NetBox keeps in the device type, not
  in the cable list: when more than one far front holds a cord, the cord whose label has the
  same stem (``<link label> cord A`` / ``... cord B``) is the one; without that the channel is
  left out with a note.

A joined link gets the cords' label stem and, when all three pieces have a recorded length,
their sum as its as-built length. The "cord A" end is the link's A end.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_MPO_FRONT = re.compile(r"^F(\d+)$")
_MPO_REAR = re.compile(r"^R(\d+)$")
_CASSETTE_FRONT = re.compile(r"^(C\d+)-(\d+)$")
_CASSETTE_REAR = re.compile(r"^C\d+$")
_CORD = re.compile(r"^(?P<stem>.*) cord (?P<end>[AB])$")
CASSETTE_FRONTS = 6

End = tuple[str, str]  # (device name, port name)


def _rear_of(front: str) -> str | None:
    if m := _MPO_FRONT.match(front):
        return f"R{m.group(1)}"
    if m := _CASSETTE_FRONT.match(front):
        return m.group(1)
    return None


def _fronts_of(rear: str) -> list[str]:
    if m := _MPO_REAR.match(rear):
        return [f"F{m.group(1)}"]
    if _CASSETTE_REAR.match(rear):
        return [f"{rear}-{k}" for k in range(1, CASSETTE_FRONTS + 1)]
    return []


def _stem(label: str) -> tuple[str, str]:
    m = _CORD.match(label or "")
    return (m.group("stem"), m.group("end")) if m else (label or "", "")


def join_through_panels(
    rows: Sequence[tuple[int, dict[str, str]]],
    is_port: Callable[[End], bool],
    length_m: Callable[[str], float | None],
) -> tuple[list[tuple[End, End, str, float | None]], int]:
    """(a end, b end, label, as-built length) of every channel the cables ``rows`` join.

    ``rows`` are the cables left over (an end is not a design port); ``is_port`` says whether
    an end is a port of the design. Returns the links and the number of cords left unjoined.
    """
    ends: dict[End, tuple[int, dict[str, str], End]] = {}
    for line, c in rows:
        a, b = (c["device_a"], c["port_a"]), (c["device_b"], c["port_b"])
        ends[a] = (line, c, b)
        ends[b] = (line, c, a)
    used: set[int] = set()
    links = []
    cords = [(line, c) for line, c in rows if is_port(_a(c)) != is_port(_b(c))]
    for line, cord in cords:
        if line in used:
            continue
        port, panel = (_a(cord), _b(cord)) if is_port(_a(cord)) else (_b(cord), _a(cord))
        rear = _rear_of(panel[1])
        trunk = ends.get((panel[0], rear)) if rear else None
        if trunk is None:
            continue
        far_panel = trunk[2]
        stem, end = _stem(cord["label"])
        candidates = []
        for front in _fronts_of(far_panel[1]):
            far = ends.get((far_panel[0], front))
            if far is not None and far[0] not in used and far[0] != line and is_port(far[2]):
                candidates.append(far)
        if len(candidates) > 1:
            candidates = [f for f in candidates if _stem(f[1]["label"])[0] == stem]
        if len(candidates) != 1:
            continue
        far_line, far_cord, far_port = candidates[0]
        used.update((line, far_line))
        pieces = [length_m(c["length"]) for c in (cord, trunk[1], far_cord)]
        total = None if None in pieces else round(sum(pieces), 3)
        a, b = (far_port, port) if end == "B" else (port, far_port)
        links.append((a, b, stem, total))
    return links, sum(1 for line, _ in cords if line not in used)


def _a(c: dict[str, str]) -> End:
    return (c["device_a"], c["port_a"])


def _b(c: dict[str, str]) -> End:
    return (c["device_b"], c["port_b"])
