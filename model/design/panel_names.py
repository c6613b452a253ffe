"""Patch panel names: a panel is named by its rack and its U position (``C01-U42``), and the
name follows the panel when its rack is renamed or it is moved.

Why this scheme: ANSI/TIA-606 identifies a patch panel by its rack and its position in the rack
(rack AJ05, U 42); an installer standing at a rack finds ``C01-U42`` without a list, where
``pp27`` needs one. The cabling schedule already names a device's end by rack and U
(``A01-U2-nic1``), so a cord reads ``A01-U2-nic1 to A01-U48:17``. Rack names are unique in a
design and no two devices share a U of a rack, so the names are unique hall-wide; a name some
other device already holds (typed by hand) gets ``-2``, ``-3``.

Only a name of exactly that form follows its panel: a name typed by hand ("MDA-PP-A") and the
``pp27`` of files saved before are the user's and stay as they are, until the user asks for
the old names to be replaced (:func:`old_names_replaced`, Design > Name Panels by Rack and U).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

import msgspec

from model.design.entities import Device
from model.design.limits import MAX_NAME_LENGTH

PANEL_ROLE = "patch-panel"
OLD_NAME = re.compile(r"pp\d+")  # what panels were named before (pp27): a number, no place


def panel_name(rack_name: str, u: int, n: int = 1) -> str:
    """The name of the panel at ``u`` (its lowest U) of the rack named ``rack_name``; ``n`` > 1
    adds ``-n`` (a name held already). A rack name near the length limit is cut so that the U
    still fits (a device name has the same limit)."""
    suffix = f"-U{u}" if n == 1 else f"-U{u}-{n}"
    return rack_name[: MAX_NAME_LENGTH - len(suffix)] + suffix


def unique_panel_name(rack_name: str, u: int, taken: Callable[[str], bool]) -> str:
    """:func:`panel_name`, with ``-2``, ``-3``... until ``taken`` says it is free."""
    n = 1
    while taken(panel_name(rack_name, u, n)):
        n += 1
    return panel_name(rack_name, u, n)


def follow_rack_names(
    panels: Iterable[Device], rack_names: Mapping[str, tuple[str, str]]
) -> list[Device]:
    """The panels among ``panels`` named after their rack's old name, named after its new one;
    ``rack_names``: rack id -> (old name, new name) of the racks renamed."""
    out = []
    for device in panels:
        names = rack_names.get(device.rack)
        if device.role != PANEL_ROLE or names is None:
            continue
        old, new = names
        if device.name == panel_name(old, device.u):
            out.append(msgspec.structs.replace(device, name=panel_name(new, device.u)))
    return out


def moved_name(device: Device, old_rack_name: str, new_rack_name: str, new_u: int) -> str:
    """A device's name once moved to ``new_u`` of the rack named ``new_rack_name``: a panel
    named by its old place is named by its new one; any other name stays."""
    if device.role == PANEL_ROLE and device.name == panel_name(old_rack_name, device.u):
        return panel_name(new_rack_name, new_u)
    return device.name


def old_names_replaced(devices: Iterable[Device], rack_names: Mapping[str, str]) -> list[Device]:
    """The panels still named the old way (``pp27``), each named by its rack and U; unique
    among every device's name (``rack_names``: rack id -> name)."""
    devices = list(devices)
    old = [d for d in devices if d.role == PANEL_ROLE and OLD_NAME.fullmatch(d.name)]
    taken = {d.name for d in devices} - {d.name for d in old}
    out = []
    for device in sorted(old, key=lambda d: (rack_names[d.rack], d.u, d.id)):
        name = unique_panel_name(rack_names[device.rack], device.u, taken.__contains__)
        taken.add(name)
        out.append(msgspec.structs.replace(device, name=name))
    return out
