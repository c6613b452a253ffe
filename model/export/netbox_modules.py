"""NetBox modules: the transceiver in every used cage, and one module type per part number.

The physical plant (:func:`model.plant.build_plant`) puts one plug in every used cage: a
transceiver module (multimode / single-mode media) or one end of an integrated cable (DAC, ACC,
AEC, AOC, UTP). Only the modules become NetBox modules; an integrated cable's ends are the cable
itself (exported as the cable), and backplane links have no plug at all.

- Module types (``shared/03_module_types/*.yaml``) are devicetype-library "module-types"
  documents (``schema/moduletype.json``: ``manufacturer`` and ``model`` required,
  ``part_number`` ≤ 50, ``description``, ``comments``; no other key is allowed). One per part
  number: the catalog may list one physical product under several parts (a twin-port OSFP used
  as 2 x 400G or as 1 x 800G), and NetBox's type is the product. ``model`` is the part number,
  because NetBox's module import finds a module type by ``model`` alone.
- Module types declare no interfaces and no power port, by choice: the interfaces are the host
  device's own (its device type already has them, and a module interface of the same name would
  collide on the device), and a transceiver draws from its host, not from a PSU feed. Its
  typical and maximum power are in the type's comments.
- Modules (``site/10_modules.csv``) follow NetBox's ``ModuleImportForm``: ``device``,
  ``module_bay`` (by name, looked up among that device's bays), ``module_type`` (by model),
  ``status``, ``description``. The bay name is the cage label of :func:`model.cages.port_cages`
  (``{group} cage {n}``), which is the module-bay name the device-type YAML declares
  (:meth:`model.export.netbox_types.TypeVariant.module_bays`).
- The device is found by asset tag (column ``device.asset_tag``, NetBox's ``field.attribute``
  header), not by name: the module form has no site column, so ``device`` by name searches the
  whole NetBox and fails ("not a unique value") once a second site has a device of that name,
  which is the normal case for pods generated alike. NetBox keeps asset tags unique across the
  whole NetBox, so the export gives every device one: ``{device} @ {site}`` (site names are
  unique in NetBox), fitted to NetBox's 50 characters by the hash rule of ``netbox_names``. It
  is a placeholder for planned devices; the README says to replace it with the real tag.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model.cabling import CablePlant
from model.cages import port_cages
from model.design import Design
from model.export import ExportError
from model.export.netbox_names import DESCRIPTION_MAX, MODEL_NAME_MAX, fit_name, slugify
from model.parts import ModulePart
from model.plant import build_plant

PART_NUMBER_MAX = 50  # devicetype-library moduletype.json / NetBox ModuleType.part_number
ASSET_TAG_MAX = 50  # NetBox Device.asset_tag
MODULES_STEM = "10_modules"
MODULE_TYPES_DIR = "shared/03_module_types"
MODULE_HEADER = ("device.asset_tag", "module_bay", "module_type", "status", "description")


@dataclass
class ModuleType:
    """One NetBox module type: a transceiver product (all catalog parts of one part number)."""

    parts: list[ModulePart] = field(default_factory=list)

    @property
    def first(self) -> ModulePart:
        return self.parts[0]

    @property
    def vendor(self) -> str:
        return self.first.vendor

    @property
    def model(self) -> str:
        return fit_name(self.first.part_number, MODEL_NAME_MAX)

    @property
    def slug(self) -> str:
        return slugify(f"{self.vendor}-{self.first.part_number}")

    def document(self) -> dict[str, object]:
        first = self.first
        uses = "; ".join(
            f"{p.form_factor} {p.ports} port(s), {p.heatsink} top, medium {p.medium}, "
            f"typical {p.power_w:g} W, max {p.power_w_max:g} W [Hallwright part {p.id}]"
            for p in self.parts
        )
        sources = sorted({s.strip() for p in self.parts for s in p.source.split(",")})
        return {
            "manufacturer": self.vendor,
            "model": self.model,
            "part_number": fit_name(first.part_number, PART_NUMBER_MAX),
            "description": fit_name(first.description, DESCRIPTION_MAX),
            "comments": f"Transceiver. {uses}. Sources: {', '.join(sources)}",
        }


@dataclass
class ModuleExport:
    """The module types and the module rows (``MODULE_HEADER``) of one design."""

    types: list[ModuleType]
    rows: list[tuple]


def device_asset_tag(site: str, device_name: str) -> str:
    """The asset tag that identifies a device across a shared NetBox (see the module docstring)."""
    return fit_name(f"{device_name} @ {site}", ASSET_TAG_MAX)


def module_export(
    design: Design, plant: CablePlant, device_tags: dict[str, str], phys=None
) -> ModuleExport:
    """A module per used cage that holds a transceiver, in its device's module bay.

    ``device_tags`` are the exported devices' asset tags (device id -> tag); ``phys`` the
    physical plant with its ``link_parts`` when the caller has one. Rows are sorted by device
    and bay, so the same design always exports the same file. Port tables, medium names and
    descriptions are looked up once per device type and per medium, not per link end.
    """
    by_number: dict[str, list[ModulePart]] = {}
    for part in sorted(design.catalog.module_parts.values(), key=lambda p: p.id):
        by_number.setdefault(part.part_number, []).append(part)
    types = {number: ModuleType(parts) for number, parts in by_number.items()}
    if phys is None or not phys.link_parts:
        phys = build_plant(plant, with_links=True)
    cages: dict[tuple[str, str], tuple[str, str]] = {}  # (device, bay) -> (part number, medium)
    tables: dict[str, dict] = {}  # device id -> its port table
    names = [m.name for m in plant.media] + [""]
    index, medium_index = plant.index, plant.medium_index
    for link_id, (_cable, _a, _b, mod_a, mod_b, _part) in phys.link_parts.items():
        if not mod_a and not mod_b:
            continue
        link = design.links.get(link_id)
        if link is None:
            continue
        row = index.get(link_id)
        medium_name = names[int(medium_index[row])] if row is not None else ""
        for end, number in ((link.a, mod_a), (link.b, mod_b)):
            if not number:
                continue
            table = tables.get(end.device)
            if table is None:
                device = design.devices[end.device]
                table = tables[end.device] = port_cages(
                    design.catalog.device_types[device.type], device.breakout
                )
            bay = table[end.port][2]
            cages.setdefault((end.device, bay), (number, medium_name))
    used: dict[str, ModuleType] = {}
    rows = []
    described: dict[str, str] = {}
    for (device_id, bay), (number, medium_name) in cages.items():
        mtype = types.get(number)
        if mtype is None:
            raise ExportError(f"module part number {number!r} is not in the design's catalog")
        used[number] = mtype
        rows.append(
            (
                device_tags[device_id],
                bay,
                mtype.model,
                "planned",
                described.get(medium_name)
                or described.setdefault(
                    medium_name,
                    fit_name(f"{medium_name} transceiver" if medium_name else "", DESCRIPTION_MAX),
                ),
            )
        )
    folded: dict[str, str] = {}
    bays: dict[str, tuple[str, int]] = {}

    def order(r: tuple) -> tuple:
        tag, bay = r[0], r[1]
        f = folded.get(tag)
        if f is None:
            f = folded[tag] = tag.casefold()
        b = bays.get(bay)
        if b is None:
            b = bays[bay] = _bay_key(bay)
        return (f, b)

    rows.sort(key=order)
    return ModuleExport(sorted(used.values(), key=lambda t: t.slug), rows)


def _bay_key(bay: str) -> tuple[str, int]:
    """``p cage 10`` after ``p cage 9``."""
    head, _, number = bay.rpartition(" ")
    return (head, int(number)) if number.isdigit() else (bay, 0)
