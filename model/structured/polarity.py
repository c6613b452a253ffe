"""Channel polarity: every element is a fibre permutation; composed, Tx must land on Rx.

Positions are 1-based fibre positions of the connector the light is in. Each element maps the
position a fibre enters at to the position it leaves at (domain-facts §8a, NAUTOBOT-POL):

* trunk or MPO cord of n fibres: Type A ``i -> i`` (key up to key down), Type B
  ``i -> n+1-i`` (key up to key up), Type C adjacent pairs flipped ``1<->2, 3<->4, ...``;
* duplex LC cord: ``AB`` crossed ``1<->2``, ``AA`` straight;
* adapter panel: ``i -> i`` (the polarity of a channel is carried by its cords, trunks and
  cassettes, as in Nautobot's model);
* cassette, front LC duplex port k to rear MPO: polarity A ``1 -> 2k-1, 2 -> 2k``, polarity B
  flipped; met rear to front (``reverse``) it is the inverse, and a fibre arriving on another
  port's positions is *lost* (plugged at the wrong port).

Module lanes (choice, the IEEE parallel-optics convention): MPO-12 SR4/DR4 transmit lane k on
position k (1-4) and receive it on 13-k (12-9); MPO-16 SR8 transmit on 1-8, receive lane k on
17-k; a duplex LC module transmits on position 1 (A) and receives on 2 (B). A channel passes when
every transmit lane of each end lands on the same lane's receive position at the other end.

An MPO-24 trunk carrying 12-fibre channels is modelled per 12-fibre group (``fibres`` of the
element is the channel's group width), which is how key-up/key-up 24-fibre trunks behave row by
row — an approximation, stated.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from msgspec.structs import replace

from model.design.link_entries import CASSETTE_PORTS  # an MPO-12 cassette: 6 LC duplex ports
from model.structured.channels import CONNECTOR_FIBRES, Channel, Element

# (transmit positions, receive positions), lane by lane.
MODULE_LANES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "MPO-12/APC": ((1, 2, 3, 4), (12, 11, 10, 9)),
    "MPO-12/UPC": ((1, 2, 3, 4), (12, 11, 10, 9)),
    "MMC-12": ((1, 2, 3, 4), (12, 11, 10, 9)),
    "MPO-16/APC": (tuple(range(1, 9)), tuple(range(16, 8, -1))),
    "MPO-16/UPC": (tuple(range(1, 9)), tuple(range(16, 8, -1))),
    "LC duplex": ((1,), (2,)),
}
TRUNK_TYPES = ("A", "B", "C")
DUPLEX_TYPES = ("AB", "AA")
CASSETTE_TYPES = ("A", "B")


def _mpo_map(polarity: str, n: int) -> dict[int, int]:
    if polarity == "B":
        return {i: n + 1 - i for i in range(1, n + 1)}
    if polarity == "C":
        return {i: i + 1 if i % 2 else i - 1 for i in range(1, n + 1)}
    return {i: i for i in range(1, n + 1)}


def element_map(element: Element, fibres: int) -> dict[int, int]:
    """The element's permutation (entry position -> exit position) in the direction A to B.

    ``fibres`` is the width of the channel's MPO group (12 or 16); cassettes turn a 2-fibre LC
    frame into it and back.
    """
    if element.kind == "cassette":
        k = element.port
        a, b = (2 * k - 1, 2 * k) if element.polarity == "A" else (2 * k, 2 * k - 1)
        front = {1: a, 2: b}
        return {v: f for f, v in front.items()} if element.reverse else front
    if element.kind == "panel":
        return {i: i for i in range(1, fibres + 1)}
    if element.polarity in DUPLEX_TYPES:
        return {1: 2, 2: 1} if element.polarity == "AB" else {1: 1, 2: 2}
    return _mpo_map(element.polarity, fibres)


def _widths(channel: Channel) -> list[int]:
    """Frame width each element works in: 2 inside LC segments, the MPO group elsewhere."""
    width = CONNECTOR_FIBRES.get(channel.connector, 12)
    group = 12 if width == 2 else width
    out: list[int] = []
    for e in channel.elements:
        if e.kind == "cassette":
            out.append(group)
            width = 2 if e.reverse else group
        else:
            out.append(width)
    return out


def trace(channel: Channel, position: int, backwards: bool = False) -> int | None:
    """Where a fibre entering the channel at ``position`` leaves it (None: lost on the way)."""
    maps = [element_map(e, w) for e, w in zip(channel.elements, _widths(channel), strict=True)]
    if backwards:
        maps = [{v: k for k, v in m.items()} for m in reversed(maps)]
    for m in maps:
        if position not in m:
            return None
        position = m[position]
    return position


@dataclass(frozen=True)
class PolarityResult:
    ok: bool
    # (end "A"/"B", lane 1-based, transmit position, landed position or None, expected position)
    wrong: tuple[tuple[str, int, int, int | None, int], ...]
    fix: tuple[int, Element] | None  # element index and the replacement that makes it pass

    def message(self, channel: Channel) -> str:
        if self.ok:
            return "polarity correct"
        end, lane, tx, got, want = self.wrong[0]
        where = "is lost (wrong port)" if got is None else f"lands on position {got}"
        text = (
            f"link {channel.link_id}: {end}-end Tx lane {lane} (position {tx}) {where}, "
            f"expected Rx position {want}"
        )
        if self.fix is None:
            return text + "; no single element change fixes it"
        i, new = self.fix
        old = channel.elements[i]
        change = (
            f"LC port {old.port} to port {new.port}"
            if new.port != old.port
            else f"Type {old.polarity} to Type {new.polarity}"
        )
        return text + f"; change {old.kind} {old.object_id} from {change}"


def _wrong(channel: Channel) -> tuple[tuple[str, int, int, int | None, int], ...]:
    tx, rx = MODULE_LANES[channel.connector]
    out = []
    for end, backwards in (("A", False), ("B", True)):
        for lane, (t, r) in enumerate(zip(tx, rx, strict=True), start=1):
            got = trace(channel, t, backwards)
            if got != r:
                out.append((end, lane, t, got, r))
    return tuple(out)


def _alternatives(element: Element) -> list[Element]:
    if element.kind == "panel":
        return []
    if element.kind == "cassette":
        alts = [replace(element, polarity=p) for p in CASSETTE_TYPES if p != element.polarity]
        if element.reverse:
            ports = range(1, CASSETTE_PORTS + 1)
            alts += [replace(element, port=k) for k in ports if k != element.port]
        return alts
    types = DUPLEX_TYPES if element.polarity in DUPLEX_TYPES else TRUNK_TYPES
    return [replace(element, polarity=p) for p in types if p != element.polarity]


def check_polarity(channel: Channel) -> PolarityResult:
    """Whether each transmit lane lands on its receive lane; if not, the one element to change.

    The fix is searched cheapest change first: cords (swapped in minutes), then cassettes (a
    polarity or port change at the panel), then trunks (re-ordered and re-pulled); in path order
    within each kind.

    The answer depends only on the channel's *shape* (its connector and each element's kind,
    polarity, port and direction), never on ids, parts or lengths, and a hall has few shapes:
    each is traced once (:func:`_shape_result`). Tracing every channel's fibres took ~3 min of
    the analysis of a zoned XL hall (393k channels, 786k traces, each building its maps).
    """
    if channel.connector not in MODULE_LANES:
        return PolarityResult(True, (), None)
    shape = tuple((e.kind, e.polarity, e.port, e.reverse) for e in channel.elements)
    wrong, fix = _shape_result(channel.connector, shape)
    if fix is None:
        return PolarityResult(not wrong, wrong, None)
    i, changes = fix
    return PolarityResult(False, wrong, (i, replace(channel.elements[i], **dict(changes))))


@functools.lru_cache(maxsize=4096)
def _shape_result(connector: str, shape: tuple) -> tuple[tuple, tuple[int, tuple] | None]:
    """(wrong lanes, fix) of a channel of this shape: the fix as (element index, the fields
    its replacement changes), applied to the real element by :func:`check_polarity`."""
    channel = Channel(
        "", "", "mmf", connector, tuple(Element(k, "", "", 0.0, p, n, r) for k, p, n, r in shape)
    )
    wrong = _wrong(channel)
    if not wrong:
        return (), None
    order = {"cord": 0, "cassette": 1, "trunk": 2, "panel": 3}
    indices = sorted(range(len(channel.elements)), key=lambda i: order[channel.elements[i].kind])
    for i in indices:
        old = channel.elements[i]
        for alt in _alternatives(old):
            elements = list(channel.elements)
            elements[i] = alt
            if not _wrong(replace(channel, elements=tuple(elements))):
                changes = {"polarity": alt.polarity, "port": alt.port}
                return wrong, (i, tuple((k, v) for k, v in changes.items() if getattr(old, k) != v))
    return wrong, None
