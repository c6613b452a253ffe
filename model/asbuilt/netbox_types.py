"""import-netbox: a NetBox device type matched to a catalog type, and its interface names to the
catalog's port names.

A NetBox type is matched, in this order, by:

1. Hallwright's own names (``export-netbox --types hallwright``): the catalog's vendor and model,
   a variant's breakout read back from its model (``Spectrum-4 SN5600 (p 2x400G)``);
2. the devicetype-library's names (``--types library``, or a NetBox loaded from the library):
   its manufacturer and model (``Nvidia`` ``QM9700``, ``SN5600 (p 2x400G)``), the interfaces
   read back through the library's port names (``P0.0`` -> ``p1``, ``swp1s1`` -> ``p1/2``) from
   ``resources/catalog/netbox/devicetype-library.json``;
3. the catalog part number as the model (``MQM9700-NS2F``), under the vendor's name or the
   library's;
4. its port layout (``by_layout``, from its interfaces: :mod:`model.asbuilt.netbox_custom_types`).

Manufacturers compare ignoring case (NetBox's own manufacturer names are unique ignoring case).
An interface name the match does not know is kept as it is, so a port the catalog type lacks is
refused by the design and listed, never renamed into another port.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from model.catalog.components import Catalog, DeviceType
from model.outputs.netbox.device_types import TypeVariant
from model.outputs.netbox.library_types import LibraryVariant, library_table

_VARIANT = re.compile(r"^(?P<group>\w+) (?P<fanout>\d+)x")
HALLWRIGHT, LIBRARY, PART_NUMBER = "Hallwright model", "devicetype-library model", "part number"
LAYOUT = "port layout"


@dataclass(frozen=True)
class TypeMatch:
    """A catalog type for a NetBox type; ``ports`` maps NetBox interface names to catalog ports
    where they differ (empty: the same names)."""

    dtype: DeviceType
    breakout: dict[str, int]
    how: str
    ports: dict[str, str] = field(default_factory=dict)


def _breakout(suffix: str) -> dict[str, int]:
    """``p 2x400G, q 4x200G`` (a variant's model suffix, without brackets) -> {group: fan-out}."""
    out = {}
    for part in suffix.strip().strip("()").split(", ") if suffix.strip() else ():
        match = _VARIANT.match(part)
        if match:
            out[match.group("group")] = int(match.group("fanout"))
    return out


def _by_model(model: str, base: str) -> str | None:
    """The variant suffix of ``model`` when it is ``base`` or ``base (...)``; None otherwise."""
    if model == base:
        return ""
    if model.startswith(base + " (") and model.endswith(")"):
        return model[len(base) :]
    return None


class TypeMatcher:
    """Matches NetBox types to one catalog (see the module docstring), each type once."""

    def __init__(
        self, catalog: Catalog, by_layout: dict[tuple[str, str], DeviceType] | None = None
    ):
        self.catalog = catalog
        self.table = library_table()
        self._seen: dict[tuple[str, str], TypeMatch | None] = {}
        # (manufacturer ignoring case, model) -> the catalog type its interfaces matched
        self.by_layout = by_layout or {}

    def match(self, manufacturer: str, model: str) -> TypeMatch | None:
        key = (manufacturer.strip().casefold(), model.strip())
        if key not in self._seen:
            self._seen[key] = self._match(*key)
        return self._seen[key]

    def _match(self, maker: str, model: str) -> TypeMatch | None:
        if (maker, model) in self.by_layout:
            return TypeMatch(self.by_layout[(maker, model)], {}, LAYOUT)
        best: tuple[DeviceType, str] | None = None
        for t in self.catalog.device_types.values():
            suffix = _by_model(model, t.model) if t.vendor.casefold() == maker else None
            if suffix is not None and (best is None or len(t.model) > len(best[0].model)):
                best = (t, suffix)
        if best is not None:
            return TypeMatch(best[0], _breakout(best[1]), HALLWRIGHT)
        for entry in self.table.device_types:
            suffix = _by_model(model, entry.model)
            if entry.manufacturer.casefold() != maker or suffix is None:
                continue
            dtype = self.catalog.device_types.get(entry.catalog)
            if dtype is None:
                continue
            breakout = _breakout(suffix)
            named = LibraryVariant(TypeVariant(dtype, breakout, ()), self.table)
            ports = {library: ours for ours, library in named.renames.items()}
            return TypeMatch(dtype, breakout, LIBRARY, ports)
        for t in self.catalog.device_types.values():
            makers = {t.vendor.casefold(), self.table.manufacturer(t.vendor).casefold()}
            if t.part_number and t.part_number.casefold() == model.casefold() and maker in makers:
                return TypeMatch(t, {}, PART_NUMBER)
        return None
