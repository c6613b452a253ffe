"""NetBox modules: the transceiver in every used cage, and one module type per part number.

The physical plant (:func:`model.plant.physical_plant.build_plant`) puts one plug in every used cage: a
transceiver module (multimode / single-mode media) or one end of an integrated cable (DAC, ACC,
AEC, AOC, UTP). Only the modules become NetBox modules; an integrated cable's ends are the cable
itself (exported as the cable), and backplane links have no plug at all.

- Module types (``shared/03_module_types/*.yaml``) are devicetype-library "module-types"
  documents (``schema/moduletype.json``: ``manufacturer`` and ``model`` required,
  ``part_number`` ≤ 50, ``description``, ``comments``; no other key is allowed). One per part
  number: the catalog may list one physical product under several parts (a twin-port OSFP used
  as 2 x 400G or as 1 x 800G), and NetBox's type is the product. ``model`` is the part number,
  because NetBox's module import finds a module type by ``model`` alone; ``part_number`` is
  the vendor's orderable number, left out where the catalog's is an EST- estimate.
- Module types declare no interfaces and no power port, by choice: the interfaces are the host
  device's own (its device type already has them, and a module interface of the same name would
  collide on the device), and a transceiver draws from its host, not from a PSU feed. Its
  typical and maximum power are in the type's comments.
- Modules (``site/10_modules.csv``) follow NetBox's ``ModuleImportForm``: ``device``,
  ``module_bay`` (by name, looked up among that device's bays), ``module_type`` (by model),
  ``status``, ``description``. The bay name is the cage label of :func:`model.engine.cages.port_cages`
  (``{group} cage {n}``), which is the module-bay name the device-type YAML declares
  (:meth:`model.outputs.netbox.device_types.TypeVariant.module_bays`).
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
from operator import itemgetter

import numpy as np

from model.catalog.parts import QUOTE, ModulePart, orderable_number
from model.common.arrays import unique_sorted
from model.design.design import Design
from model.engine.cages import CAGE_STRIDE, cage_view, port_cages
from model.engine.routed_links import RoutedLinks
from model.outputs.netbox.columns import Lookup, Repeat, Table
from model.outputs.netbox.names import (
    DESCRIPTION_MAX,
    MODEL_NAME_MAX,
    SLUG_MAX,
    fit_name,
    slugify,
    suffix_alike_slugs,
)
from model.outputs.writers import ExportError
from model.plant.links import LinkParts
from model.plant.physical_plant import build_plant

PART_NUMBER_MAX = 50  # devicetype-library moduletype.json / NetBox ModuleType.part_number
ASSET_TAG_MAX = 50  # NetBox Device.asset_tag
MODULES_STEM = "10_modules"
MODULE_TYPES_DIR = "shared/03_module_types"
MODULE_HEADER = ("device.asset_tag", "module_bay", "module_type", "status", "description")


@dataclass
class ModuleType:
    """One NetBox module type: a transceiver product (all catalog parts of one part number)."""

    parts: list[ModulePart] = field(default_factory=list)
    slug_suffix: str = ""  # set by distinct_module_slugs when another type slugs alike

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
        return module_slug(self.vendor, self.first.part_number, self.slug_suffix)

    def document(self) -> dict[str, object]:
        first = self.first
        uses = "; ".join(
            f"{p.form_factor} {p.ports} port(s), {p.heatsink} top, medium {p.medium}, "
            f"typical {p.power_w:g} W, max {p.power_w_max:g} W [Hallwright part {p.id}]"
            for p in self.parts
        )
        sources = sorted({s.strip() for p in self.parts for s in p.source.split(",")})
        # The vendor's orderable number, or none: an EST- estimate is no number to order by
        # and "quote" (the BOM's word for it) is no part number. ``model`` keeps the catalog's
        # number, the key NetBox's module import and import-netbox find the type by.
        number = orderable_number(first.part_number)
        return {
            "manufacturer": self.vendor,
            "model": self.model,
            **({"part_number": fit_name(number, PART_NUMBER_MAX)} if number != QUOTE else {}),
            "description": fit_name(first.description, DESCRIPTION_MAX),
            "comments": f"Transceiver. {uses}. Sources: {', '.join(sources)}",
        }


def module_slug(vendor: str, part_number: str, suffix: str = "") -> str:
    """The file name (less ``.yaml``) of a module type; ``suffix`` keeps it within the limit."""
    text = f"{vendor}-{part_number}"
    return slugify(text, SLUG_MAX - len(suffix)) + suffix if suffix else slugify(text)


def distinct_module_slugs(types: list[ModuleType]) -> None:
    """Suffixes for module types that slug alike, by part number (:func:`~model.outputs.netbox.
    names.suffix_alike_slugs`): part numbers differing in case or punctuation only (a design's
    own part beside the catalog's). Their models (the part numbers, which NetBox's module
    import finds them by) differ."""
    suffix_alike_slugs(types, lambda mtype: mtype.first.part_number)


@dataclass
class ModuleExport:
    """The module types and the module table (``MODULE_HEADER``) of one design."""

    types: list[ModuleType]
    table: Table


def device_asset_tag(site: str, device_name: str) -> str:
    """The asset tag that identifies a device across a shared NetBox (see the module docstring)."""
    return fit_name(f"{device_name} @ {site}", ASSET_TAG_MAX)


def module_export(
    design: Design, plant: RoutedLinks, device_tags: dict[str, str], phys=None
) -> ModuleExport:
    """A module per used cage that holds a transceiver, in its device's module bay.

    ``device_tags`` are the exported devices' asset tags (device id -> tag); ``phys`` the
    physical plant with its ``link_parts`` when the caller has one. Rows are sorted by device
    and bay, so the same design always exports the same file. The first link end (in
    ``link_parts`` order) that plugs a cage names its module; port tables, models, medium
    descriptions and sort keys are worked out once per device type, part, medium, device and
    bay, and the rows are put together column by column.
    """
    by_number: dict[str, list[ModulePart]] = {}
    for part in sorted(design.catalog.module_parts.values(), key=lambda p: p.id):
        by_number.setdefault(part.part_number, []).append(part)
    types = {number: ModuleType(parts) for number, parts in by_number.items()}
    if phys is None or not phys.link_parts:
        phys = build_plant(plant, with_links=True)
    cages = _plugged_cages(design, plant, phys.link_parts)
    numbers = cages.plugs.tolist()
    missing = set(numbers) - types.keys()
    if missing:
        first = next(n for n in numbers if n in missing)
        raise ExportError(f"module part number {first!r} is not in the design's catalog")
    # In first-use order, as the types are listed before their sort by slug
    models = {n: types[n].model for n in dict.fromkeys(numbers)}
    described = [
        fit_name(f"{medium} transceiver" if medium else "", DESCRIPTION_MAX)
        for medium in cages.media
    ]
    # Tag per device number and bay per slot, "" where no row uses them
    used_devices = unique_sorted(cages.device).tolist()
    tags = [""] * len(cages.dev_ids)
    for d in used_devices:
        tags[d] = device_tags[cages.dev_ids[d]]
    # Sort by (tag ignoring case, bay in number order): the rank of each used tag and bay,
    # then one stable sort of the rows by their pair of ranks.
    folded = {f: i for i, f in enumerate(sorted({tags[d].casefold() for d in used_devices}))}
    tag_rank = np.zeros(len(tags), dtype=np.int64)
    for d in used_devices:
        tag_rank[d] = folded[tags[d].casefold()]
    used_slots = unique_sorted(cages.bay).tolist()
    bay_keys = {i: _bay_key(cages.slots[i]) for i in used_slots}
    ranked = {k: i for i, k in enumerate(sorted(set(bay_keys.values())))}
    bay_rank = np.zeros(len(cages.slots), dtype=np.int64)
    for i, k in bay_keys.items():
        bay_rank[i] = ranked[k]
    key = tag_rank[cages.device] * len(ranked) + bay_rank[cages.bay]
    order = np.argsort(key, kind="stable")
    n = len(order)
    table = Table(
        MODULE_HEADER,
        [
            Lookup(tags, cages.device[order]),
            Lookup(cages.slots, cages.bay[order]),
            Lookup(models, cages.plugs[order].tolist()),
            Repeat("planned", n),
            Lookup(described, cages.medium[order]),
        ],
    )
    used = [types[number] for number in models]
    distinct_module_slugs(used)
    return ModuleExport(sorted(used, key=lambda t: t.slug), table)


@dataclass
class _Cages:
    """The plugged cages as columns of codes: device number (into ``dev_ids``), bay (into
    ``slots``), module part number (an object array) and medium (into ``media``)."""

    dev_ids: list[str]
    device: np.ndarray
    slots: list[str]
    bay: np.ndarray
    plugs: np.ndarray
    media: list[str]
    medium: np.ndarray


def _plugged_cages(design: Design, plant: RoutedLinks, link_parts) -> _Cages:
    """Every cage a module plugs, as columns of codes (:class:`_Cages`): device, bay, module
    part number, medium;
    the first link end that plugs a cage names its module (ends in ``link_parts`` order, A
    first), and cages are listed in the order of those ends.

    The ends' cage keys are the plant's (:func:`model.engine.cages.cage_view`), the first end of each
    cage is found by ``numpy.unique``, and a bay is named once per device type and cage number
    (the type's port table, :func:`model.engine.cages.port_cages`). Were a table to give two cages one
    bay name, the later cage is dropped, as NetBox would have the bay once.
    """
    link_ids, module_a, module_b = _end_modules(link_parts)
    if link_ids != list(design.links) and not all(map(design.links.__contains__, link_ids)):
        # a link gone from the design (the plant's own order, compared first, is the design's)
        kept = [i for i, link_id in enumerate(link_ids) if link_id in design.links]
        link_ids = [link_ids[i] for i in kept]
        module_a, module_b = (np.asarray(m, dtype=object)[kept] for m in (module_a, module_b))
    n = len(link_ids)
    view = cage_view(plant)
    names = [m.name for m in plant.media] + [""]
    if not n:
        empty = np.zeros(0, dtype=np.int64)
        return _Cages(view.dev_ids, empty, [], empty, np.zeros(0, dtype=object), names, empty)
    if isinstance(link_parts, LinkParts) and link_parts.link_ids == list(plant.link_ids):
        rows = link_parts.rows if n == len(link_parts) else None  # the plant's own rows
    else:
        rows = None
    if rows is None:
        rows = np.fromiter(map(plant.index.__getitem__, link_ids), np.int64, n)
    cage = np.column_stack([view.cage_a[rows], view.cage_b[rows]]).ravel()  # A, B, A, B...
    module = np.empty(2 * n, dtype=object)
    module[0::2] = module_a
    module[1::2] = module_b
    plugged = np.flatnonzero(module != "")
    _, first = np.unique(cage[plugged], return_index=True)
    ends = plugged[np.sort(first)]  # the first end of each cage, in end order
    medium = np.asarray(plant.medium_index, dtype=np.int64)[rows[ends >> 1]]
    number, cage_no = np.divmod(cage[ends], CAGE_STRIDE)
    # Port table of each device number used: one bay list per table (cage number -> name)
    dev_ids, devices, device_types = view.dev_ids, design.devices, design.catalog.device_types
    tables: dict[int, int] = {}  # id(port table) -> its position in ``bay_names``
    bay_names: list[list[str]] = []
    injective = True
    used = unique_sorted(number)
    table_of = np.zeros(len(dev_ids), dtype=np.int64)
    for d in used.tolist():
        device = devices[dev_ids[d]]
        table = port_cages(device_types[device.type], device.breakout)  # cached per type
        t = tables.get(id(table))
        if t is None:
            t = tables[id(table)] = len(bay_names)
            named = {c: b for c, _, b in table.values()}
            injective &= len(set(named.values())) == len(named)
            width = max(named, default=0) + 1
            bay_names.append([named.get(c, "") for c in range(width)])
        table_of[d] = t
    slots = [b for names_of in bay_names for b in names_of]
    offset = np.cumsum([0] + [len(b) for b in bay_names])[:-1]
    bay = offset[table_of[number]] + cage_no
    plugs = module[ends]
    if not injective:  # the first cage per (device, bay) name
        firsts: dict[tuple[int, str], int] = {}
        bay_name = map(slots.__getitem__, bay.tolist())
        for i, key in enumerate(zip(number.tolist(), bay_name, strict=True)):
            firsts.setdefault(key, i)
        keep = np.asarray(sorted(firsts.values()), dtype=np.int64)
        number, bay, plugs, medium = number[keep], bay[keep], plugs[keep], medium[keep]
    return _Cages(dev_ids, number, slots, bay, plugs, names, medium)


def _end_modules(link_parts) -> tuple[list[str], object, object]:
    """(link ids, module part of each A end, of each B end) in ``link_parts`` order: from the
    codes of a :class:`LinkParts` (no tuple per link), else from the mapping's values."""
    if isinstance(link_parts, LinkParts):
        rows = link_parts.rows
        ids = link_parts.link_ids
        if len(rows) == len(ids) and bool((rows == np.arange(len(ids))).all()):
            link_ids = list(ids)
        else:
            link_ids = [ids[r] for r in rows.tolist()]
        return (
            link_ids,
            link_parts.names("a_module")[link_parts.codes("a_module", rows)],
            link_parts.names("b_module")[link_parts.codes("b_module", rows)],
        )
    link_ids, parts = list(link_parts), list(link_parts.values())
    return link_ids, list(map(itemgetter(3), parts)), list(map(itemgetter(4), parts))


def _bay_key(bay: str) -> tuple[str, int]:
    """``p cage 10`` after ``p cage 9``."""
    head, _, number = bay.rpartition(" ")
    return (head, int(number)) if number.isdigit() else (bay, 0)
