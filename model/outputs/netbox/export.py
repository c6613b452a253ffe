"""NetBox import files for a shared NetBox: the design as one site, shared types apart, chunked.

The folder holds what NetBox's own bulk import (Import -> CSV / YAML) takes, numbered in import
order (the README inside says how):

- ``shared/``: manufacturers, device roles, device types (one devicetype-library YAML per
  type, with interface templates, module bays and power ports) and transceiver module types
  (``model.outputs.netbox.modules``). These are global in NetBox and another site may already
  have created them: import each once, skip what exists.
- ``site/``: the site, its location (the data hall), racks, devices and cables. Devices get
  their interfaces from their device type, so no interface file is needed (an interface file
  cannot name a site, and device names repeat across sites). Cables name ``side_a_site`` /
  ``side_b_site`` so a device name is looked up in this site only.

Column names follow NetBox 4.x's import forms (``dcim/forms/bulk_import.py``). Everything is
``status=planned``. Names are fitted to NetBox's limits and made unique ignoring case
(``model.outputs.netbox.names``); device types, interface and cable types come from
``model.outputs.netbox.device_types``. Cables are the cabling schedule's rows (same label and A/B ends)
with the ordered length in metres; links on a rack backplane (the NVL72 NVLink spine) are
exported as cables of their own file, so those ports show as connected and trace, not free.
The transceiver in every used cage is a module in its device's module bay (``10_modules``);
integrated cables (DAC/ACC/AEC/AOC) are not modules, they are the cable. Every device carries an
asset tag unique in the whole NetBox, which is how the module file finds it (see
``model.outputs.netbox.modules``).
Every CSV is cut into files of at most ``CHUNK_ROWS`` rows, written from the tables' columns
(``model.outputs.netbox.columns``), byte for byte what ``csv_writer.csv_chunks`` writes for rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter, not_
from pathlib import Path
from typing import cast

import numpy as np

from model.common.arrays import unique_sorted
from model.design.design import Design
from model.design.entities import END_DEVICE, END_PORT
from model.engine.routed_links import RoutedLinks
from model.outputs.netbox.cables import CABLE_HEADER, backplane_cables, schedule_cables
from model.outputs.netbox.columns import (
    Column,
    Lookup,
    Repeat,
    Table,
    iter_table_chunks,
    joined,
    kept_rows,
)
from model.outputs.netbox.cooling import (
    COOLING_FEED_HEADER,
    COOLING_README,
    COOLING_SOURCE_HEADER,
    COOLING_STEMS,
    cooling_export,
)
from model.outputs.netbox.device_types import (
    TypeVariant,
    distinct_slugs,
    is_infiniband_switch,
    yaml_document,
)
from model.outputs.netbox.floor_record import hall_comment, rack_comment, rack_facility_id
from model.outputs.netbox.library_export import (
    INTERFACE_HEADER,
    INTERFACES_STEM,
    HeldTypes,
    LibraryReport,
    rename_tables,
)
from model.outputs.netbox.library_types import TYPES_LIBRARY
from model.outputs.netbox.modules import (
    MODULE_TYPES_DIR,
    MODULES_STEM,
    ModuleType,
    device_asset_tag,
    module_export,
)
from model.outputs.netbox.names import (
    DESCRIPTION_MAX,
    DEVICE_NAME_MAX,
    LOCATION_NAME_MAX,
    RACK_NAME_MAX,
    SITE_NAME_MAX,
    fit_name,
    list_safe,
    slugify,
    unique_names,
)
from model.outputs.netbox.panel_links import schedule_links
from model.outputs.netbox.panels import PANEL_ROLE, panel_export
from model.outputs.netbox.power import (
    PDU_ROLE,
    POWER_CABLE_HEADER,
    POWER_FEED_HEADER,
    POWER_PANEL_HEADER,
    power_export,
)
from model.outputs.netbox.readme import LIBRARY_README, POWER_README, README
from model.outputs.schedule import ScheduleRow, ScheduleTable, schedule_table
from model.outputs.schedule_segments import PATCH_CORD, TRUNK
from model.outputs.writers import ExportError
from model.outputs.writers.folder_writer import replace_folder
from model.plant.physical_plant import PhysicalPlant
from model.structured.layout import uses_structured

CHUNK_ROWS = 500
# The schedule columns the export reads as lists (:func:`netbox_schedule`); the cables' ends,
# media and lengths it reads as codes (``ScheduleTable.codes``), as do a structured design's
# panels (``model.outputs.netbox.panel_links``). The route, the parts and the cages are never
# made for it.
SCHEDULE_READ = frozenset({"link_id", "label"})
SHARED = "shared"
SITE = "site"
LOCATION_NAME = "Data hall"
RACK_WIDTH_IN = 19  # EIA-310 rails: the catalog's racks are 600/800 mm cabinets with 19" rails

SITE_HEADER = ("name", "slug", "status", "description", "comments")
LOCATION_HEADER = ("site", "name", "slug", "status")
MANUFACTURER_HEADER = ("name", "slug")
ROLE_HEADER = ("name", "slug", "color")
RACK_HEADER = (
    "site",
    "location",
    "name",
    "status",
    "form_factor",
    "width",
    "u_height",
    "outer_width",
    "outer_depth",
    "outer_unit",
    "airflow",
    "description",
    "facility_id",
    "comments",
)
DEVICE_HEADER = (
    "name",
    "role",
    "manufacturer",
    "device_type",
    "status",
    "site",
    "location",
    "rack",
    "position",
    "face",
    "airflow",
    "asset_tag",
    "description",
)
ROLE_COLORS = {
    "gpu-server": "4caf50",
    "leaf": "2196f3",
    "spine": "3f51b5",
    "core": "673ab7",
    "nvlink-switch": "009688",
    "storage": "ff9800",
    "management": "9e9e9e",
    "patch-panel": "795548",
    "switch": "03a9f4",
    "pdu": "f44336",
}
# Logical tables in import order: (folder, numbered stem).
TABLES = (
    (SHARED, "01_manufacturers"),
    (SHARED, "02_device_roles"),
    (SITE, "04_sites"),
    (SITE, "05_locations"),
    (SITE, "06_racks"),
    (SITE, "07_devices"),
    (SITE, INTERFACES_STEM),
    (SITE, "08_cables"),
    (SITE, "09_backplane_cables"),
    (SITE, MODULES_STEM),
    (SITE, "11_power_panels"),
    (SITE, "12_power_feeds"),
    (SITE, "13_power_cables"),
    (SITE, "14_cooling_sources"),
    (SITE, "15_cooling_feeds"),
)
# Tables left out of the folder when they have no row (a design without such links or plugs,
# or without a facility).
POWER_STEMS = ("11_power_panels", "12_power_feeds", "13_power_cables")
OPTIONAL_TABLES = frozenset(
    {INTERFACES_STEM, "09_backplane_cables", MODULES_STEM, *POWER_STEMS, *COOLING_STEMS}
)
DEVICE_TYPES_DIR = f"{SHARED}/03_device_types"


@dataclass
class NetBoxTables:
    """Everything one export holds: CSV tables by stem, and the NetBox device types.

    The tables are held column by column (:class:`model.outputs.netbox.columns.Table`): the big
    ones (cables, modules) as lookups into tables of distinct names, types and lengths, so
    they are never turned into a tuple per row unless :meth:`rows` is asked for."""

    site: str
    location: str = LOCATION_NAME
    tenant: str = ""  # the design's NetBox tenant: a column of sites, racks, devices when set
    tables: dict[str, Table] = field(default_factory=dict)
    device_types: list[TypeVariant] = field(default_factory=list)
    module_types: list[ModuleType] = field(default_factory=list)
    # The PDU and power-shelf device types of a design with a facility: (slug, YAML document).
    power_types: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    # ``--types library``: what the devicetype-library naming left out or found missing
    library: LibraryReport | None = None

    def rows(self, stem: str) -> list[tuple]:
        """The table ``stem`` as row tuples (built from its columns on each call)."""
        return self.tables[stem].rows()

    def set_rows(self, stem: str, header: tuple[str, ...], rows: list[tuple]) -> None:
        self.tables[stem] = Table.from_rows(header, rows)


def _variants(design: Design) -> dict[str, TypeVariant]:
    """Device id -> its NetBox device type (see ``netbox_types`` for why types split).

    The port groups facing an InfiniBand switch are found with C-level maps over the links:
    each end's group comes from one port -> group table per device type (None for RJ45 and
    unknown ports), and only the distinct (device, group) pairs are looked at in Python.
    """
    types = design.catalog.device_types
    ib_type = {type_id: is_infiniband_switch(t) for type_id, t in types.items()}
    devices = design.devices
    ib_devices = {d.id for d in devices.values() if ib_type[d.type]}
    ib_groups: dict[str, set[str]] = {d: set() for d in devices}
    if ib_devices:
        by_table: dict[int, tuple[dict, dict[str, str]]] = {}  # id(port table) -> groups
        group_table: dict[str, dict[str, str]] = {}  # device id -> port -> group (no RJ45)
        for device in devices.values():
            table = design.ports(device)
            known = by_table.get(id(table))
            if known is None:
                group_of = {p: i.group for p, i in table.items() if i.form_factor != "RJ45"}
                known = by_table[id(table)] = (table, group_of)
            group_table[device.id] = known[1]
        links = list(design.links.values())
        for near_side, far_side in (("a", "b"), ("b", "a")):
            near = list(map(attrgetter(near_side), links))
            far_ib = list(
                map(ib_devices.__contains__, map(END_DEVICE, map(attrgetter(far_side), links)))
            )
            ids = list(compress(map(END_DEVICE, near), far_ib))
            ports = compress(map(END_PORT, near), far_ib)
            end_groups = map(dict.get, map(group_table.__getitem__, ids), ports)
            for device_id, group in set(zip(ids, end_groups, strict=True)):
                if group is not None:
                    ib_groups[device_id].add(group)
    by_key: dict[tuple, TypeVariant] = {}
    out = {}
    custom = {t.id for t in design.custom_types.device_types}
    for device in devices.values():
        dtype = types[device.type]
        groups = ib_groups[device.id]
        if ib_type[device.type]:
            groups = {g.name for g in dtype.port_groups if g.form_factor != "RJ45"}
        variant = TypeVariant(dtype, device.breakout, groups)
        variant.custom = device.type in custom
        out[device.id] = by_key.setdefault(variant.key, variant)
    return out


SEGMENT_KINDS = frozenset({PATCH_CORD, TRUNK})


def netbox_schedule(
    design: Design, plant: RoutedLinks, phys: PhysicalPlant | None = None
) -> ScheduleTable:
    """The schedule :func:`netbox_tables` takes: one row per link (no segments), with only the
    columns it reads as lists (``SCHEDULE_READ``)."""
    return schedule_table(design, plant, phys, segments=False, only=SCHEDULE_READ)


def netbox_tables(
    design: Design,
    schedule: ScheduleTable | Sequence[ScheduleRow],
    plant: RoutedLinks,
    phys: PhysicalPlant | None = None,
    types: str = "hallwright",
    held: HeldTypes | None = None,
    held_from: str = "",
) -> NetBoxTables:
    """The design as NetBox tables (one site); ``schedule`` gives the cables' labels and lengths
    (a :class:`ScheduleTable` is read column by column); ``phys`` the physical plant with its
    ``link_parts``, when the caller has built it already.

    A structured design's installer schedule lists paneled links per segment: the link rows
    (``segments=False``) are taken instead; cords and trunk legs come from
    :mod:`model.outputs.netbox.panels`.

    ``types="library"`` names the types as the devicetype-library does and leaves out those in
    ``held`` (:mod:`model.outputs.netbox.library_export`)."""
    if isinstance(schedule, ScheduleTable):
        kind_names, kind_codes = schedule.codes("medium_kind")
        kinds = {kind_names[k] for k in unique_sorted(kind_codes).tolist()}
    else:
        kinds = {row.medium_kind for row in schedule}
    if not SEGMENT_KINDS.isdisjoint(kinds):
        schedule = netbox_schedule(design, plant, phys)
    # The design's NetBox names (Design Settings, schema 4), else its name and "Data hall".
    names = design.settings
    site = fit_name(names.netbox_site or design.name, SITE_NAME_MAX) or "Hallwright design"
    location = fit_name(names.netbox_location, LOCATION_NAME_MAX) or LOCATION_NAME
    tenant = fit_name(names.netbox_tenant, SITE_NAME_MAX)
    out = NetBoxTables(site=site, location=location, tenant=tenant)
    racks = sorted(design.racks.values(), key=lambda r: (r.name, r.id))
    # Names a cable row refers to carry no comma (NetBox splits them there: names.list_safe).
    rack_names = unique_names([(r.id, list_safe(r.name), "") for r in racks], RACK_NAME_MAX)
    devices = sorted(design.devices.values(), key=lambda d: (rack_names[d.rack], d.u, d.name, d.id))
    device_names = unique_names(
        [(d.id, list_safe(d.name), rack_names[d.rack]) for d in devices], DEVICE_NAME_MAX
    )
    tags = {d.id: device_asset_tag(site, device_names[d.id]) for d in devices}
    variants = _variants(design)
    type_kinds = list({v.key: v for v in variants.values()}.values())
    distinct_slugs(type_kinds)
    out.device_types = sorted(type_kinds, key=lambda v: v.slug)
    modules = module_export(design, plant, tags, phys)
    out.module_types = modules.types
    vendors = sorted(
        {v.dtype.vendor for v in out.device_types} | {m.vendor for m in out.module_types}
    )
    roles = sorted({d.role for d in devices})
    rack_types = design.catalog.rack_types

    # The tables are filled with (header, rows) pairs first, each made a Table below.
    t = cast(dict[str, Table | tuple[Sequence[str], Sequence[Sequence[object]]]], out.tables)
    t["01_manufacturers"] = (MANUFACTURER_HEADER, [(v, slugify(v)) for v in vendors])
    t["02_device_roles"] = (
        ROLE_HEADER,
        [(r, slugify(r), ROLE_COLORS.get(r, "607d8b")) for r in roles],
    )
    # The floor plan NetBox has no field for, in the site's and racks' own (floor_record)
    hall = hall_comment(design.hall, sorted(design.trays.values(), key=lambda tray: tray.id))
    t["04_sites"] = (
        SITE_HEADER,
        [(site, slugify(site), "planned", "exported from Hallwright", hall)],
    )
    t["05_locations"] = (LOCATION_HEADER, [(site, location, slugify(location), "planned")])
    t["06_racks"] = (
        RACK_HEADER,
        [
            (
                site,
                location,
                rack_names[r.id],
                "planned",
                "4-post-cabinet",
                RACK_WIDTH_IN,
                r.height_u,
                round(r.width_m * 1000),
                round(r.depth_m * 1000),
                "mm",
                "front-to-rear",
                fit_name(rack_types[r.type].model if r.type in rack_types else r.type, 200),
                rack_facility_id(r),
                rack_comment(r),
            )
            for r in racks
        ],
    )
    t["07_devices"] = _device_table(devices, device_names, rack_names, variants, tags, out)
    t[INTERFACES_STEM] = (INTERFACE_HEADER, [])  # --types-from: what a held type lacks
    cables = schedule_cables(design, schedule, plant, site, device_names)
    t["08_cables"] = cables if isinstance(cables, Table) else (CABLE_HEADER, cables)
    t["09_backplane_cables"] = backplane_cables(design, plant, site, device_names, rack_names)
    t[MODULES_STEM] = modules.table
    for stem, table in t.items():
        if not isinstance(table, Table):
            t[stem] = Table.from_rows(*table)
    # The physical plant's layout when it has one: laying out an XL structured design is ~15 s.
    layout = getattr(phys, "structured", None)
    _add_panels(design, plant, schedule, out, device_names, rack_names, layout)
    _add_power(design, out, rack_names, set(device_names.values()))
    sources, feeds = cooling_export(design, out.site, LOCATION_NAME, rack_names)
    out.set_rows(COOLING_STEMS[0], COOLING_SOURCE_HEADER, sources)
    out.set_rows(COOLING_STEMS[1], COOLING_FEED_HEADER, feeds)
    if tenant:  # NetBox's import forms take a tenant by name on sites, racks and devices
        for stem in ("04_sites", "06_racks", "07_devices"):
            table = out.tables[stem]  # every table is a Table by now
            out.tables[stem] = Table(
                (*table.header, "tenant"), [*table.columns, Repeat(tenant, len(table))]
            )
    if types == TYPES_LIBRARY:
        by_name = {device_names[d]: variants[d] for d in variants}
        tag_of = {device_names[d]: tags[d] for d in variants}
        out.library = rename_tables(out, by_name, tag_of, held, held_from)
    return out


def _add_power(design, out: NetBoxTables, rack_names, taken: set[str]) -> None:
    """A design with a facility: power panels, feeds, PDU devices and power cables
    (:mod:`model.outputs.netbox.power`); none of it otherwise."""
    # The design's types keep their names; a PDU type named alike yields (power._yielded_type)
    design_types = [(v.dtype.vendor, v.model, v.slug) for v in out.device_types]
    power = power_export(design, out.site, LOCATION_NAME, rack_names, taken, design_types)
    for stem, header, rows in zip(
        POWER_STEMS,
        (POWER_PANEL_HEADER, POWER_FEED_HEADER, POWER_CABLE_HEADER),
        (power.panels, power.feeds, power.cables),
        strict=True,
    ):
        out.set_rows(stem, header, rows)
    if not power.devices:
        return
    out.power_types = power.device_types
    vendors = {v for v, _ in out.rows("01_manufacturers")} | power.manufacturers
    out.set_rows(
        "01_manufacturers", MANUFACTURER_HEADER, [(v, slugify(v)) for v in sorted(vendors)]
    )
    roles = sorted({r for r, _, _ in out.rows("02_device_roles")} | {PDU_ROLE})
    out.set_rows(
        "02_device_roles",
        ROLE_HEADER,
        [(r, slugify(r), ROLE_COLORS.get(r, "607d8b")) for r in roles],
    )
    rows = out.rows("07_devices")
    for device in power.devices:
        device = device | {"asset_tag": device_asset_tag(out.site, str(device["name"]))}
        rows.append(tuple(device.get(h, "") for h in DEVICE_HEADER))
    out.set_rows("07_devices", DEVICE_HEADER, rows)


def _device_table(devices, device_names, rack_names, variants, tags, out) -> Table:
    """The devices' rows as columns; a device type's model, vendor and airflow are worked out
    once per type variant (they are looked up per device)."""
    n = len(devices)
    ids = [d.id for d in devices]
    of_device = list(map(variants.__getitem__, ids))
    distinct = dict.fromkeys(of_device)
    return Table(
        DEVICE_HEADER,
        [
            list(map(device_names.__getitem__, ids)),
            [d.role for d in devices],
            Lookup({v: v.dtype.vendor for v in distinct}, of_device),
            Lookup({v: v.model for v in distinct}, of_device),
            Repeat("planned", n),
            Repeat(out.site, n),
            Repeat(out.location, n),
            Lookup(rack_names, [d.rack for d in devices]),
            [d.u for d in devices],
            Repeat("front", n),
            Lookup({v: v.airflow for v in distinct}, of_device),
            list(map(tags.__getitem__, ids)),
            [fit_name(f"Hallwright {i}", DESCRIPTION_MAX) for i in ids],
        ],
    )


def _add_panels(design, plant, schedule, out, device_names, rack_names, layout=None) -> None:
    """Structured designs: cords + trunk legs in place of their links' cables (the panels are
    design devices, their types carry the ports); virtual panels as unpositioned devices."""
    if not uses_structured(design):
        return
    if not isinstance(schedule, ScheduleTable):
        schedule = ScheduleTable.from_rows(schedule)
    links = schedule_links(design, schedule)
    panels = panel_export(design, plant, out.site, device_names, rack_names, links, layout=layout)
    if not (panels.links if panels.rows is None else len(panels.rows)):
        return
    site = out.site
    if panels.virtual:
        variants = {v.dtype.id: v for v in out.device_types}
        for _, _, part_id in panels.virtual:
            if part_id not in variants:
                variants[part_id] = TypeVariant(design.catalog.device_types[part_id], {}, ())
        distinct_slugs(variants.values())
        out.device_types = sorted(variants.values(), key=lambda v: v.slug)
        vendors = {v for v, _ in out.rows("01_manufacturers")} | {
            v.dtype.vendor for v in variants.values()
        }
        out.set_rows(
            "01_manufacturers", MANUFACTURER_HEADER, [(v, slugify(v)) for v in sorted(vendors)]
        )
        roles = sorted({r for r, _, _ in out.rows("02_device_roles")} | {PANEL_ROLE})
        out.set_rows(
            "02_device_roles",
            ROLE_HEADER,
            [(r, slugify(r), ROLE_COLORS.get(r, "607d8b")) for r in roles],
        )
        device_rows = out.rows("07_devices")
        for name, rack_id, part_id in panels.virtual:
            variant = variants[part_id]
            row = {
                "name": name,
                "role": PANEL_ROLE,
                "manufacturer": variant.dtype.vendor,
                "device_type": variant.model,
                "status": "planned",
                "site": site,
                "location": out.location,
                "rack": rack_names[rack_id],
                "airflow": "passive",
                "asset_tag": device_asset_tag(site, name),
                "description": fit_name(
                    f"Hallwright {part_id} not placed in the design (no rack position)",
                    DESCRIPTION_MAX,
                ),
            }
            device_rows.append(tuple(row.get(h, "") for h in DEVICE_HEADER))
        out.set_rows("07_devices", DEVICE_HEADER, device_rows)
    # The links' own cables but the paneled ones, then the cords and legs, column by column
    # (columns.joined: a Repeat stays one, lookups stay a lookup, written once per value).
    link_ids = links.ids
    if panels.rows is not None:
        keep = np.ones(len(link_ids), dtype=bool)
        keep[panels.rows] = False
    else:
        keep = np.fromiter(map(not_, map(panels.links.__contains__, link_ids)), bool, len(link_ids))
    kept = int(keep.sum())
    columns: list[Column] = []
    for c, pieces in zip(out.tables["08_cables"].columns, panels.cable_columns, strict=True):
        if kept:
            pieces.insert(0, kept_rows(c, keep, kept))
        columns.append(joined(pieces))
        pieces.clear()  # the pieces are dropped as each column is joined
    out.tables["08_cables"] = Table(CABLE_HEADER, columns)


def chunk_names(stem: str, rows: int) -> list[str]:
    """File names of a table of ``rows`` rows: ``stem.csv``, or ``stem_01.csv``... when cut."""
    parts = max(1, -(-rows // CHUNK_ROWS))
    if parts == 1:
        return [f"{stem}.csv"]
    return [f"{stem}_{i:02d}.csv" for i in range(1, parts + 1)]


def netbox_files(export: NetBoxTables) -> dict[str, bytes]:
    """Relative path -> bytes of every file of the export folder, in import order."""
    return dict(netbox_file_stream(export))


def netbox_file_stream(export: NetBoxTables) -> Iterator[tuple[str, bytes]]:
    """(relative path, bytes) of every file of the export folder, in import order, each made
    when asked for: :func:`write_netbox_dir` writes one file while the next is made, and never
    holds the whole folder (157 MB at XL) in memory."""
    power = POWER_README if export.power_types else ""
    if COOLING_STEMS[0] in export.tables and len(export.tables[COOLING_STEMS[0]]):
        power += COOLING_README
    readme = README.format(site=export.site, power=power)
    if export.library is not None:
        readme += LIBRARY_README + "".join(f"- {line}\n" for line in export.library.lines())
    yield "README.txt", readme.encode("utf-8")
    for folder, stem in TABLES:
        table = export.tables[stem]
        if stem == "04_sites":
            for v in export.device_types:
                yield f"{DEVICE_TYPES_DIR}/{v.slug}.yaml", yaml_document(v.document()).encode()
            for slug, doc in export.power_types:
                yield f"{DEVICE_TYPES_DIR}/{slug}.yaml", yaml_document(doc).encode()
            for m in export.module_types:
                yield f"{MODULE_TYPES_DIR}/{m.slug}.yaml", yaml_document(m.document()).encode()
        if not len(table) and stem in OPTIONAL_TABLES:
            continue
        chunks = iter_table_chunks(table, CHUNK_ROWS)
        for name, part in zip(chunk_names(stem, len(table)), chunks, strict=True):
            # formula-safe: these files get opened in a spreadsheet before the import
            yield f"{folder}/{name}", part


# What the export may find in a folder it replaces as its own: the README and the top-level
# folders of its files (a table folder an earlier export held and this one has no rows for
# is ours too).
EXPORT_ENTRIES = frozenset(
    {"README.txt"}
    | {folder.split("/")[0] for folder, _ in TABLES}
    | {DEVICE_TYPES_DIR.split("/")[0], MODULE_TYPES_DIR.split("/")[0]}
)


def write_netbox_dir(directory: str | Path, export: NetBoxTables) -> list[Path]:
    """Write the export folder (creating it and its sub-folders); returns the paths written.

    Each file is made in turn (:func:`netbox_file_stream`) and written by a writer thread
    while the next is made (``model.outputs.writers.folder_writer``); this is the one place
    that writes them. The folder is replaced as a whole (``model.outputs.writers.folder_writer``): a
    failure leaves the previous export complete, and a folder holding other files is refused.
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise ExportError(f"{directory} exists and is not a folder")
    if not directory.parent.is_dir():
        raise ExportError(
            f"cannot create {directory.name}: the folder {directory.parent} does not exist"
        )
    return replace_folder(directory, netbox_file_stream(export), "NetBox export", EXPORT_ENTRIES)
