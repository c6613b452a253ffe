"""Links through patch panels, back from NetBox's cable list: cord - trunk(s) - cord joined.

A structured site in NetBox (as :mod:`model.outputs.netbox.panels` exports it, or as a team
records it the same way) has no cable from a GPU port to a switch port: a patch cord runs from
the interface to a panel's front port, a trunk from that panel's rear port to the next panel,
and a cord from the last panel's front port to the far interface. NetBox's cable list export
names each end's device and port but neither the port's kind nor the panel's port mapping, so
the join follows the port names the export's device types use, as NetBox's trace does:

* MPO adapter panels: front ``Fk`` sits on rear ``Rk`` (one position);
* cassette enclosures: front ``Cs-k`` sits on rear ``Cs`` at position ``k``; the position is
  carried straight through trunks and one-position adapters (NetBox's position stack), so the
  far cassette's front is ``Ct-k``;
* a zone (HDA) panel joins two trunks: one on its rear ``Rk``, the next on its front ``Fk``.

A joined link gets the cords' label stem, the panels it passed (A end first), each piece's
recorded length (so the layout keeps the cords and trunks NetBox holds instead of estimating
them again) and, when every piece has a recorded length, their sum as its as-built length. The "cord A" end is the link's
A end. Trunk legs sharing one label (one bundled trunk) are joined leg by leg.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_MPO_FRONT = re.compile(r"^F(\d+)$")
_MPO_REAR = re.compile(r"^R(\d+)$")
_CASSETTE_FRONT = re.compile(r"^(C\d+)-(\d+)$")
_CASSETTE_REAR = re.compile(r"^C\d+$")
_CORD = re.compile(r"^(?P<stem>.*) cord (?P<end>[AB])$")
MAX_HOPS = 18  # Link.via holds 16 panels

End = tuple[str, str]  # (device name, port name)


def _rear_of(front: str) -> tuple[str, int] | None:
    if m := _MPO_FRONT.match(front):
        return f"R{m.group(1)}", 1
    if m := _CASSETTE_FRONT.match(front):
        return m.group(1), int(m.group(2))
    return None


def _front_of(rear: str, position: int) -> str | None:
    if m := _MPO_REAR.match(rear):
        return f"F{m.group(1)}"
    if _CASSETTE_REAR.match(rear):
        return f"{rear}-{position}"
    return None


def _stem(label: str) -> tuple[str, str]:
    m = _CORD.match(label or "")
    return (m.group("stem"), m.group("end")) if m else (label or "", "")


def join_through_panels(
    rows: Sequence[tuple[int, dict[str, str]]],
    is_port: Callable[[End], bool],
    length_m: Callable[[str], float | None],
    consumed: set[int] | None = None,
) -> tuple[
    list[tuple[End, End, str, float | None, tuple[str, ...], dict, tuple[float | None, ...]]],
    int,
    int,
]:
    """(a end, b end, label, as-built length, panel names A to B, the A end's cord row, the
    recorded lengths of its pieces A to B: cord, each trunk, cord; None where a piece has none,
    empty when none has) of every channel the cables ``rows`` join.

    ``rows`` are the cables left over (an end is not a design port); ``is_port`` says whether
    an end is a port of the design. Returns the links, the number of cords left unjoined and
    the number of trunk cables the links passed. ``consumed``, when given, gets the ``id`` of
    every row a link was joined from (its cords and trunks), so the caller can list the others.
    """
    ends: dict[End, tuple[int, dict[str, str], End]] = {}
    for line, c in rows:
        a, b = (c["device_a"], c["port_a"]), (c["device_b"], c["port_b"])
        ends[a] = (line, c, b)
        ends[b] = (line, c, a)
    used: set[int] = set()
    trunk_lines: set[int] = set()
    links = []
    cords = [(line, c) for line, c in rows if is_port(_a(c)) != is_port(_b(c))]
    # A bundled trunk's legs share its label; its length is recorded once (on leg 1, so NetBox
    # sums what is bought): a leg without one takes its trunk's.
    trunk_length: dict[str, float] = {}
    for _, c in rows:
        if not is_port(_a(c)) and not is_port(_b(c)):
            recorded = length_m(c["length"])
            if recorded is not None:
                trunk_length.setdefault(c["label"], recorded)

    def piece_length(c: dict[str, str]) -> float | None:
        recorded = length_m(c["length"])
        return trunk_length.get(c["label"]) if recorded is None else recorded

    for line, cord in cords:
        if line in used:
            continue
        port, panel = (_a(cord), _b(cord)) if is_port(_a(cord)) else (_b(cord), _a(cord))
        found = _follow(panel, ends, is_port)
        if found is None:
            continue
        far_line, far_cord, far_port, trunks, panels = found
        if far_line in used or far_line == line:
            continue
        used.update((line, far_line))
        trunk_lines.update(id(t) for t in trunks)
        if consumed is not None:
            consumed.update((id(cord), id(far_cord), *trunk_lines))
        stem, end = _stem(cord["label"])
        # This cord's end first: its cord, the trunks in the order followed, the far cord
        pieces = (
            length_m(cord["length"]),
            *(piece_length(t) for t in trunks),
            length_m(far_cord["length"]),
        )
        known = [p for p in pieces if p is not None]
        total = round(sum(known), 3) if len(known) == len(pieces) else None
        record = pieces if known else ()
        if end == "B":
            links.append(
                (far_port, port, stem, total, tuple(reversed(panels)), far_cord, record[::-1])
            )
        else:
            links.append((port, far_port, stem, total, tuple(panels), cord, record))
    return links, sum(1 for line, _ in cords if line not in used), len(trunk_lines)


def _follow(front: End, ends, is_port):
    """From a panel front port: (far cord line, far cord, far port, trunks, panels) or None."""
    rear = _rear_of(front[1])
    if rear is None:
        return None
    position = rear[1]
    trunk = ends.get((front[0], rear[0]))
    trunks, panels = [], [front[0]]
    for _ in range(MAX_HOPS):
        if trunk is None:
            return None
        trunks.append(trunk[1])
        dev, rear_port = trunk[2]  # the trunk lands on a rear port
        panels.append(dev)
        out = _front_of(rear_port, position)
        nxt = ends.get((dev, out)) if out else None
        if nxt is None:
            return None
        if is_port(nxt[2]):
            return nxt[0], nxt[1], nxt[2], trunks, panels
        trunk = nxt  # a zone panel: the next trunk leaves its front
    return None


def _a(c: dict[str, str]) -> End:
    return (c["device_a"], c["port_a"])


def _b(c: dict[str, str]) -> End:
    return (c["device_b"], c["port_b"])


_NOT_PLACED = re.compile(r"^Hallwright (\S+) not placed in the design")


def virtual_panel_part(device_row: dict[str, str]) -> str:
    """The panel part of a device row Hallwright's export wrote for a *virtual* panel (one its
    rack had no U for: no rack position, "Hallwright <part> not placed in the design"), else
    ""."""
    if device_row.get("position"):
        return ""
    found = _NOT_PLACED.match(device_row.get("description") or "")
    return found.group(1) if found else ""


def check_virtual_panels(
    design, recorded: dict[tuple[str, str], list[str]], notes: list[str], left_out: list[str]
) -> None:
    """Virtual panels back as what they were: no design device, the layout's overflow of their
    rack (their links came back routed by the style, through those very racks). ``recorded``:
    (rack id, panel part) -> the NetBox names of those panels. Each is compared with the
    imported design's own layout; a panel the layout does not order again is left out."""
    if not recorded:
        return
    from model.engine.routed_links import RoutedLinks
    from model.structured.layout import structured_layout

    plant = RoutedLinks(design)
    try:
        ordered = structured_layout(plant, panels_only=True).virtual_panels
    finally:
        plant.close()
    back = 0
    for key, names in sorted(recorded.items()):
        kept = min(len(names), ordered.get(key, 0))
        back += kept
        for name in sorted(names)[kept:]:
            left_out.append(
                f"device {name}: a {key[1]} panel of rack {key[0]} without a rack position, "
                "which the imported design's channels do not need"
            )
    if back:
        notes.append(
            f"{back} panels no rack had room for (no rack position in NetBox) are the layout's "
            "virtual panels of their racks again, ordered in the BOM; their links take the "
            "cabling style's path through those racks"
        )


def idle_legs(
    rows: Sequence[tuple[int, dict[str, str]]], consumed: set[int], is_port: Callable
) -> set[int]:
    """``id`` of each trunk leg (panel to panel) no channel was joined through whose trunk (its
    label) carries joined channels: the second MPO leg of an 800G SR8/DR8 port, whose cord is
    on the first leg's port (NetBox lets an interface hold one cable). Its trunk comes back
    whole: the layout lays both legs of each such channel again."""
    labels = {c["label"] for _, c in rows if id(c) in consumed and c["label"]}
    return {
        id(c)
        for _, c in rows
        if id(c) not in consumed
        and c["label"] in labels
        and not is_port(_a(c))
        and not is_port(_b(c))
    }
