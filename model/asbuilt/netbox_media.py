"""The medium a NetBox cable records, back onto the links an import builds from it.

What is installed wins over what the policy would choose: a site cabled on single-mode FR4
through LC cassettes must not come back as the multimode SR4 the lowest-cost policy picks for
its lengths. Two records say what a cable is:

- the description Hallwright's export writes for a point-to-point cable, ending in the media
  type id in brackets (``Single-mode fibre: 400G FR4 ... [fr4-400g]``): exact;
- NetBox's cable type (``smf-os2``; the list export writes its label, ``Single-mode Fiber
  (OS2)``) and, on a patch cord Hallwright exported, the fibre part in brackets at the end of
  its description (``patch cord (fibre-lc-sm)``): the medium is then the one the design's
  policy chooses among the media that fit the link's ports and length, are of that cable type
  and plug that fibre (single-mode on LC duplex is FR4, on MPO it is DR4).

A link is pinned (``Link.medium``) only where the record differs from the engine's own choice,
so a site exported from an "auto" design comes back "auto". A record the catalog cannot match
(an unknown id, a cable type no fitting medium has) leaves the link to the policy, with a note.
"""

from __future__ import annotations

import re

import msgspec
import numpy as np

from model.design.design import Design
from model.engine.media import choose, media_that_fit
from model.engine.routed_links import RoutedLinks

_BRACKETED_ID = re.compile(r"\[([A-Za-z0-9_.\-]+)\]\s*$")
# A cord's fibre part, before the media type id its description ends in since #40 (an older
# export's cord ends in the part)
_FIBRE_PART = re.compile(r"\(([A-Za-z0-9_.\-]+)\)(?:\s*\[[A-Za-z0-9_.\-]+\])?\s*$")

# NetBox 4.x ``dcim.choices.CableTypeChoices``: the labels its list export writes for the
# cable types Hallwright's catalog uses (the import also accepts the slugs themselves).
NETBOX_CABLE_TYPE_LABELS = {
    "Direct Attach Copper (Active)": "dac-active",
    "Direct Attach Copper (Passive)": "dac-passive",
    "Active Optical Cabling (AOC)": "aoc",
    "CAT6a": "cat6a",
    "Multimode Fiber": "mmf",
    "Multimode Fiber (OM3)": "mmf-om3",
    "Multimode Fiber (OM4)": "mmf-om4",
    "Multimode Fiber (OM5)": "mmf-om5",
    "Single-mode Fiber": "smf",
    "Single-mode Fiber (OS1)": "smf-os1",
    "Single-mode Fiber (OS2)": "smf-os2",
}


def recorded_medium(cable: dict[str, str]) -> tuple[str, str, str]:
    """(media type id, NetBox cable type slug, fibre part id) a cable row records, each ""
    when it does not; read with the optional ``type`` and ``description`` columns."""
    description = cable.get("description", "")
    medium = _BRACKETED_ID.search(description)
    fibre = _FIBRE_PART.search(description)
    kind = cable.get("type", "")
    return (
        medium.group(1) if medium else "",
        NETBOX_CABLE_TYPE_LABELS.get(kind, kind),
        fibre.group(1) if fibre else "",
    )


def _fibres_of(catalog) -> dict[str, set[str]]:
    """Media type id -> the fibre parts its modules plug."""
    out: dict[str, set[str]] = {}
    for part in catalog.module_parts.values():
        if part.fibre:
            out.setdefault(part.medium, set()).add(part.fibre)
    return out


def _as_recorded(medium, kind: str, fibre: str, fibres_of: dict[str, set[str]]) -> bool:
    """Whether ``medium`` is of the recorded cable type and plugs the recorded fibre part."""
    return (not kind or medium.netbox_type == kind) and (
        not fibre or fibre in fibres_of.get(medium.id, ())
    )


def pin_recorded_media(
    design: Design, recorded: dict[str, tuple[str, str, str]], notes: list[str]
) -> None:
    """Pin each link of ``recorded`` (link id -> :func:`recorded_medium`) to the medium its
    cable records, where that differs from what the design's policy chooses."""
    recorded = {k: r for k, r in recorded.items() if any(r) and k in design.links}
    if not recorded:
        return
    catalog = design.catalog
    fibres_of = _fibres_of(catalog)
    plant = RoutedLinks(design)
    try:
        media = plant.media
        pins, unmatched, unknown_ids = {}, 0, set()
        for link_id, (medium_id, kind, fibre) in recorded.items():
            chosen = plant.medium(link_id)
            if medium_id in catalog.media_types:
                if chosen is None or chosen.id != medium_id:
                    pins[link_id] = medium_id
                continue
            if medium_id:
                unknown_ids.add(medium_id)
            fibre = fibre if fibre in catalog.fibre_parts else ""
            if not (kind or fibre) or (
                chosen is not None and _as_recorded(chosen, kind, fibre, fibres_of)
            ):
                continue
            link = design.links[link_id]
            fits = media_that_fit(
                media,
                design.ports(link.a.device)[link.a.port],
                design.ports(link.b.device)[link.b.port],
            )
            length = np.array([float(plant.length_m[plant.index[link_id]])])
            of_record = [i for i in fits if _as_recorded(media[i], kind, fibre, fibres_of)]
            best, _ = choose(media, of_record, length, plant.policy)
            if best[0] >= 0:
                pins[link_id] = media[int(best[0])].id
            else:
                unmatched += 1
    finally:
        plant.close()
    if pins:
        design.update_links(
            msgspec.structs.replace(design.links[k], medium=m) for k, m in sorted(pins.items())
        )
        notes.append(
            f"{len(pins)} links pinned to the medium their NetBox cable records "
            "(it differs from what the policy chooses)"
        )
    if unmatched:
        named = ", ".join(sorted(unknown_ids)[:3]) + (", ..." if len(unknown_ids) > 3 else "")
        notes.append(
            f"{unmatched} cables record a medium the catalog has no match for at their ports "
            f"and length{f' ({named})' if named else ''}; the policy chooses theirs"
        )
