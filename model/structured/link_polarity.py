"""Element polarity on a link's channel: the record (``Link.polarity``), applying it, fixing it.

The cabling style lays every channel out polarity-correct (:mod:`model.structured.layout`:
Type B first trunk, A-to-B cords). What is *installed* can differ — a Type A trunk delivered
for a Type B, an A-to-A cord, a cassette plugged at the wrong port — and the design records it
on the link, so POLARITY_MISMATCH (:func:`model.structured.polarity.check_polarity`) checks the channel as
built and names the element to change.

Choices, written down:

* **Stored on the link**, not on the trunk or the panel pair: trunk ids are derived (they follow
  the bundling) and a panel pair can carry several trunks; the link is the stable record. An
  element is named by its kind and its order among that kind from the A end: ``cord-1`` (A-end
  cord), ``cord-2`` (B-end), ``trunk-1``, ``cassette-2`` (:func:`element_key`). A key that no
  element of the channel has any more (the link was re-routed) is ignored.
* **Values**: a trunk or MPO cord ``A``/``B``/``C``, a duplex cord ``AB``/``AA``, a cassette
  ``A``/``B`` optionally with ``@port`` (its LC port, 1-6).
* **Fix polarity** (:func:`fix_polarity`) records the check's named change; it is a plain
  :func:`set_polarity`, so one undo step puts the link back. Schema-compatible: an empty
  record is omitted from the file, so designs without overrides are byte-for-byte unchanged.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from model.design.design import Design, DesignError
from model.design.entities import Link
from model.design.link_entries import ELEMENT_KINDS, polarity_problem
from model.structured.channels import Channel, Element
from model.structured.polarity import CASSETTE_TYPES, DUPLEX_TYPES, TRUNK_TYPES, check_polarity

KINDS = ELEMENT_KINDS


def element_key(channel: Channel, index: int) -> str:
    """The record key of ``channel.elements[index]`` ("trunk-1", ...); "" for a panel."""
    kind = channel.elements[index].kind
    if kind not in KINDS:
        return ""
    n = sum(1 for e in channel.elements[: index + 1] if e.kind == kind)
    return f"{kind}-{n}"


def element_value(element: Element) -> str:
    """The record value that states ``element``'s polarity (and a cassette's port)."""
    if element.kind == "cassette":
        return f"{element.polarity}@{element.port}"
    return element.polarity


def _parse(element: Element, value: str) -> Element:
    polarity, _, port = value.partition("@")
    if element.kind == "cassette":
        if polarity not in CASSETTE_TYPES:
            raise DesignError(f"a cassette's polarity is A or B, not {polarity!r}")
        return replace(element, polarity=polarity, port=int(port) if port else element.port)
    if port:
        raise DesignError(f"only a cassette has a port; {element.kind} takes a type alone")
    allowed = DUPLEX_TYPES if element.polarity in DUPLEX_TYPES else TRUNK_TYPES
    if polarity not in allowed:
        raise DesignError(f"this {element.kind} takes {' / '.join(allowed)}, not {polarity!r}")
    return replace(element, polarity=polarity)


def apply_polarity(channel: Channel, record: dict[str, str]) -> Channel:
    """``channel`` with the elements its link's record names set as installed."""
    if not record:
        return channel
    elements = list(channel.elements)
    for i in range(len(elements)):
        value = record.get(element_key(channel, i))
        if value is not None:
            try:
                elements[i] = _parse(elements[i], value)
            except DesignError:  # a value for another element kind (re-routed): ignored
                continue
    return replace(channel, elements=tuple(elements))


def set_polarity(design: Design, link_id: str, key: str, value: str | None) -> Link:
    """Record element ``key`` of ``link_id``'s channel as ``value`` (None: forget it, the
    style's polarity applies). Returns the link as it was (undo: ``design.update_links``)."""
    link = design.links.get(link_id)
    if link is None:
        raise DesignError(f"no link {link_id!r}")
    _check(link_id, key, value or "A")
    record = dict(link.polarity)
    if value is None:
        record.pop(key, None)
    else:
        record[key] = value
    if record != link.polarity:
        design.update_links([msgspec.structs.replace(link, polarity=record)])
    return link


def polarity_text(record: dict[str, str]) -> str:
    """The record as the inspector's field shows it: "trunk-1 A, cord-2 AA" (element order)."""
    order = {kind: i for i, kind in enumerate(("cord", "cassette", "trunk"))}

    def key(item):
        kind, _, n = item[0].partition("-")
        return (order.get(kind, 9), int(n) if n.isdigit() else 0)

    return ", ".join(f"{k} {v}" for k, v in sorted(record.items(), key=key))


def parse_polarity_text(link_id: str, text: str) -> dict[str, str]:
    """The record typed as "trunk-1 A, cord-2 AA" (blank: none); refuses with a sentence."""
    record: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        words = part.replace("=", " ").split()
        if len(words) != 2:
            raise DesignError(
                f"link {link_id!r}: {part!r} is not an element and its polarity (e.g. trunk-1 A)"
            )
        _check(link_id, words[0], words[1].upper())
        record[words[0]] = words[1].upper()
    return record


def _check(link_id: str, key: str, value: str) -> None:
    problem = polarity_problem(key, value)  # the loader's rule too (model.design.link_entries)
    if problem is not None:
        raise DesignError(f"link {link_id!r}: {problem}")


def set_polarity_record(design: Design, link_id: str, record: dict[str, str]) -> Link:
    """Replace the link's whole record (validated first); returns the link as it was."""
    link = design.links.get(link_id)
    if link is None:
        raise DesignError(f"no link {link_id!r}")
    for key, value in record.items():
        _check(link_id, key, value)
    if dict(record) != link.polarity:
        design.update_links([msgspec.structs.replace(link, polarity=dict(record))])
    return link


def polarity_fix(channel: Channel) -> tuple[str, str, str] | None:
    """The change the polarity check names, as (element key, new value, words); None when the
    channel is correct or no single element change fixes it."""
    result = check_polarity(channel)
    if result.ok or result.fix is None:
        return None
    index, new = result.fix
    old = channel.elements[index]
    if new.kind == "cassette" and new.port != old.port:
        words = f"move {old.object_id} to LC port {new.port}"
    else:
        words = f"change {old.kind} {old.object_id} from Type {old.polarity} to {new.polarity}"
    return element_key(channel, index), element_value(new), words


def fix_polarity(design: Design, channel: Channel) -> Link:
    """Apply :func:`polarity_fix` to the channel's link; refuses when there is nothing to fix."""
    fix = polarity_fix(channel)
    if fix is None:
        raise DesignError(f"link {channel.link_id!r}: no single polarity change to make")
    return set_polarity(design, channel.link_id, fix[0], fix[1])
