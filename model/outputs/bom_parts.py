"""What a purchaser reads on a BOM line: its category, its orderable part number (or "quote"),
the catalog product it orders and the documents behind its figures, by their titles and URLs.

A purchaser sends the BOM as it is, so every line names a product the way its vendor sells it:

- **Categories** a purchaser recognises: GPU servers apart from storage appliances and from
  management servers (head nodes, UFM appliances), switches, modules, cables, fibres, trunks,
  panels, cassettes, trays, racks, PDUs. Spares stay keyed by the design setting's coarser
  categories (:data:`model.design.entities.BomCategory`, part of the file format), so a file's
  ``spares_pct`` means what it meant.
- **Part numbers** are the vendor's orderable numbers where the catalog's sources publish one;
  otherwise the line says ``quote`` (an ``EST-`` number or a catalog id is never shown as one).
- **One product, one line**: the product id keys the line, so a panel placed as a device and
  the same panel counted by the structured layout are one part (the device type of a placed
  panel is the structured part of the same id).
"""

from __future__ import annotations

import json
from functools import lru_cache

from model.catalog.components import SOURCES_FILE

# The part-number rule lives with the parts (the editor shows it too); named here as before.
from model.catalog.parts import QUOTE, orderable_number, row_number  # noqa: F401

ESTIMATE = "engineering estimate"

# Purchase categories, in the order the BOM lists them.
PURCHASE_CATEGORIES = (
    "GPU servers",
    "Storage appliances",
    "Management servers",
    "Switches",
    "Modules",
    "Laser sources",
    "Cables",
    "Fibres",
    "Trunks",
    "Panels",
    "Cassettes",
    "Trays",
    "Racks",
    "PDUs",
    "Power and cooling",
    "Other equipment",
)
# The design setting's spares category (entities.BomCategory) of each purchase category.
SPARES_CLASS = {
    "GPU servers": "Servers",
    "Storage appliances": "Servers",
    "Management servers": "Servers",
    "Switches": "Switches",
    "Modules": "Transceivers",
    "Laser sources": "Laser sources",
    "Cables": "Cables",
    "Fibres": "Fibres",
    "Trunks": "Trunks",
    "Panels": "Patch panels",
    "Cassettes": "Patch panels",
    "Trays": "Trays",
    "Racks": "Racks",
    "PDUs": "Other equipment",
    "Power and cooling": "Power and cooling",
    "Other equipment": "Other equipment",
}
# Plant item categories (model.plant.parts_count.PartCount.category) -> purchase category;
# panels are split by their structured kind (cassette or panel / enclosure).
PART_CATEGORY = {
    "module": "Modules",
    "laser-source": "Laser sources",
    "cable": "Cables",
    "fibre": "Fibres",
    "trunk": "Trunks",
    "panel": "Panels",
    "tray": "Trays",
    "facility": "Power and cooling",  # model.facility.parts: busways, PDUs, shelves, CDUs
}


def device_category(dtype) -> str:
    """The purchase category of a catalog device type: a server with GPUs is a GPU server, one
    without (head node, UFM appliance) a management server; a storage appliance its own."""
    category = dtype.category
    if category == "server":
        return "GPU servers" if dtype.gpu_count > 0 else "Management servers"
    if category == "storage":
        return "Storage appliances"
    if category in ("switch", "nvlink-switch"):
        return "Switches"
    if category == "patch-panel":
        return "Panels"
    if "pdu" in dtype.id.lower() or "pdu" in dtype.model.lower():
        return "PDUs"
    return "Other equipment"


def purchase_category(catalog, item) -> str:
    """The purchase category of a plant, tray or facility part count: a facility rack PDU is
    ordered with the PDUs the design places as devices, not with the power and cooling plant."""
    if item.category == "facility":
        part = catalog.facility_parts.get(item.part_id)
        if part is not None and part.kind == "rack-pdu":
            return "PDUs"
    return PART_CATEGORY[item.category]


@lru_cache(maxsize=1)
def _documents() -> dict[str, tuple[str, str | None]]:
    data = json.loads(SOURCES_FILE.read_text(encoding="utf-8"))["sources"]
    return {key: (doc.get("title") or key, doc.get("url")) for key, doc in data.items()}


@lru_cache(maxsize=4096)
def cited_sources(source: str) -> str:
    """A catalog ``source`` (comma-separated keys of sources.json, or ``estimate``) as the
    documents' own titles and URLs, which a purchaser can open without the repository."""
    documents = _documents()
    out: list[str] = []
    for key in (k.strip() for k in source.split(",")):
        if not key:
            continue
        if key == "estimate":
            text = ESTIMATE
        elif key in documents:
            title, url = documents[key]
            text = f"{title} <{url}>" if url else title
        else:
            text = key  # a design's own catalog entry may cite its own words
        if text not in out:
            out.append(text)
    return "; ".join(out)
