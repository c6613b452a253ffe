"""``export-netbox --types library [--types-from DIR]``: the export's tables renamed to the
devicetype-library's names, and the types a NetBox already holds left out.

:func:`read_held_types` reads the device and module types of a devicetype-library checkout
(``device-types/<Manufacturer>/*.yaml``, ``module-types/...``) or of NetBox's own YAML export
(Devices > Device Types > Export > YAML: the same documents, separated by ``---``). A document
with a ``slug`` or a ``u_height`` is a device type, any other a module type (module types have no
slug). :func:`rename_tables` renames manufacturers, device types, the interface names in both
cable files, and the module types; leaves out the types held; and reports, never silently, what
a held type lacks: interfaces a cable lands on, module bays a transceiver sits in (those module
rows are left out, the transceivers stay in the BOM).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.outputs.netbox.columns import Table
from model.outputs.netbox.device_types import TypeVariant, distinct_slugs
from model.outputs.netbox.library_types import (
    LibraryTable,
    LibraryVariant,
    library_table,
    typed_power_ports,
)
from model.outputs.netbox.modules import module_slug
from model.outputs.netbox.names import fit_name, slugify
from model.outputs.writers import ExportError

MANUFACTURERS = "01_manufacturers"
DEVICES = "07_devices"
CABLE_STEMS = ("08_cables", "09_backplane_cables")
MODULES = "10_modules"
# Interfaces a held type lacks that a cable lands on, added to each device (NetBox's interface
# import finds the device by its asset tag, unique in the whole NetBox, as the module file does)
INTERFACES_STEM = "07_interfaces"
INTERFACE_HEADER = ("device.asset_tag", "name", "type", "description")
EXAMPLES = 5


def _key(manufacturer: object, model: object) -> tuple[str, str]:
    return str(manufacturer).strip().casefold(), str(model).strip().casefold()


@dataclass
class HeldType:
    """One device type a NetBox holds: its interface and module-bay names."""

    slug: str
    interfaces: set[str]
    bays: set[str]


@dataclass
class HeldTypes:
    """The device and module types a NetBox holds, by slug and by (manufacturer, model)."""

    by_slug: dict[str, HeldType] = field(default_factory=dict)
    by_model: dict[tuple[str, str], HeldType] = field(default_factory=dict)
    modules: set[tuple[str, str]] = field(default_factory=set)
    files: int = 0

    def find(self, manufacturer: str, model: str, slug: str) -> HeldType | None:
        return self.by_slug.get(slug) or self.by_model.get(_key(manufacturer, model))


def read_held_types(directory: str | Path) -> HeldTypes:
    """The types under ``directory`` (see the module docstring); a clear ExportError for a
    folder that is missing, holds no YAML, or holds a file YAML cannot read."""
    import yaml  # PyYAML comes with dask; only this option reads YAML

    root = Path(directory)
    if not root.is_dir():
        raise ExportError(f"--types-from {root}: no such folder")
    held = HeldTypes()
    paths = sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    for path in paths:
        try:
            docs = list(yaml.safe_load_all(path.read_text(encoding="utf-8")))
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ExportError(f"--types-from {path}: not readable YAML ({first})") from None
        held.files += 1
        for doc in docs:
            if isinstance(doc, dict) and doc.get("manufacturer") and doc.get("model"):
                _add_held(held, doc)
    if not held.files:
        raise ExportError(f"--types-from {root}: no .yaml or .yml file in it")
    return held


def _add_held(held: HeldTypes, doc: Mapping[str, Any]) -> None:
    manufacturer, model = doc["manufacturer"], doc["model"]
    if "slug" not in doc and "u_height" not in doc:
        held.modules.add(_key(manufacturer, model))
        return
    names = {str(i.get("name")) for i in doc.get("interfaces") or [] if isinstance(i, dict)}
    bays = {str(b.get("name")) for b in doc.get("module-bays") or [] if isinstance(b, dict)}
    slug = str(doc.get("slug") or slugify(f"{manufacturer}-{model}"))
    held_type = HeldType(slug, names, bays)
    held.by_slug[slug] = held_type
    held.by_model[_key(manufacturer, model)] = held_type


@dataclass
class LibraryReport:
    """What the library naming left out or found missing, for the CLI and the README."""

    types_written: int = 0
    types_held: int = 0  # device types left out: the NetBox holds them
    module_types_held: int = 0
    missing_interfaces: dict[str, set[str]] = field(default_factory=dict)  # type -> names
    cables_to_missing: int = 0
    interfaces_added: int = 0  # rows of 07_interfaces
    modules_dropped: int = 0
    held_from: str = ""

    def lines(self) -> list[str]:
        out = [
            f"device types named as the netbox-community devicetype-library names them "
            f"({self.types_written} written"
            + (
                f", {self.types_held} left out: {self.held_from} holds them"
                if self.held_from
                else ""
            )
            + ")"
        ]
        if self.module_types_held:
            out.append(f"{self.module_types_held} module types left out: already held")
        whose = f"the type held in {self.held_from}" if self.held_from else "the library's type"
        for model, names in sorted(self.missing_interfaces.items()):
            shown = ", ".join(sorted(names)[:EXAMPLES]) + (" ..." if len(names) > EXAMPLES else "")
            then = (
                f"site/{INTERFACES_STEM}.csv adds them to each device (import it after the "
                "devices, before the cables)"
                if self.held_from
                else "in a NetBox holding it, add them to each device before importing the cables"
            )
            out.append(
                f"{model}: {whose} lacks {len(names)} interface(s) a cable lands on ({shown}); "
                + then
            )
        if self.cables_to_missing:
            out.append(f"{self.cables_to_missing} cable rows land on such an interface")
        if self.interfaces_added:
            out.append(f"{self.interfaces_added} interfaces added in site/{INTERFACES_STEM}.csv")
        if self.modules_dropped:
            out.append(
                f"{self.modules_dropped} transceiver modules left out of the module file: the "
                "held type has no bay for their cage (they stay in the BOM)"
            )
        return out


def library_variants(
    variants: Mapping[str, TypeVariant], table: LibraryTable | None = None
) -> dict[tuple, LibraryVariant]:
    """Each distinct variant (by key) as a :class:`LibraryVariant`, slugs made distinct."""
    table = table or library_table()
    out = {v.key: LibraryVariant(v, table) for v in variants.values()}
    distinct_slugs(out.values())  # type: ignore[arg-type]
    return out


def _column(table: Table, name: str) -> list:
    column = table.columns[table.header.index(name)]
    return list(column) if isinstance(column, list) else column.tolist()


def _replace(table: Table, columns: dict[str, list]) -> Table:
    return Table(
        table.header,
        [columns.get(h, c) for h, c in zip(table.header, table.columns, strict=True)],
    )


def rename_tables(
    out: Any,
    device_variants: Mapping[str, TypeVariant],
    device_tags: Mapping[str, str],
    held: HeldTypes | None = None,
    held_from: str = "",
) -> LibraryReport:
    """Rename ``out`` (a ``NetBoxTables``) in place; ``device_variants`` is device name -> its
    type variant, ``device_tags`` device name -> asset tag (see the module docstring)."""
    table = library_table()
    report = LibraryReport(held_from=held_from)
    every = [*out.device_types, *device_variants.values()]
    named = library_variants({v.key: v for v in every}, table)
    # by (manufacturer, model): a PDU type may share a model with a design type of another maker
    by_name = {(old.dtype.vendor, old.model): named[old.key] for old in out.device_types}
    t = out.tables
    # Devices: each row's manufacturer and model (rows of types not in device_types: PDUs)
    devices = t[DEVICES]
    makers, models = _column(devices, "manufacturer"), _column(devices, "device_type")
    for i, (maker, model) in enumerate(zip(makers, models, strict=True)):
        lib = by_name.get((maker, model))
        makers[i] = lib.manufacturer if lib else table.manufacturer(maker)
        models[i] = lib.model if lib else model
    t[DEVICES] = _replace(devices, {"manufacturer": makers, "device_type": models})
    renamed = {d: named[v.key] for d, v in device_variants.items()}
    held_of = {}
    if held is not None:
        for lib in named.values():
            found = held.find(lib.manufacturer, lib.model, lib.slug)
            if found is not None:
                held_of[lib.key] = found
    lacking = _rename_cables(t, renamed, held_of, report)
    if lacking:
        rows = _added_interfaces(lacking, renamed, device_tags, report.held_from)
        t[INTERFACES_STEM] = Table.from_rows(INTERFACE_HEADER, rows)
        report.interfaces_added = len(rows)
    _drop_modules(t, renamed, device_tags, held_of, report)
    # Manufacturers, device types, module types, power types
    makers_table = t[MANUFACTURERS]
    names = sorted({table.manufacturer(m) for m in _column(makers_table, "name")})
    t[MANUFACTURERS] = Table(makers_table.header, [names, [slugify(n) for n in names]])
    kept = [named[v.key] for v in out.device_types if v.key not in held_of]
    report.types_held = len(out.device_types) - len(kept)
    report.types_written = len(kept)
    out.device_types = sorted(kept, key=lambda v: v.slug)
    out.module_types = _module_types(out.module_types, table, held, report)
    out.power_types = _power_types(out.power_types, table, held)
    return report


def _rename_cables(t, renamed, held_of, report: LibraryReport) -> dict[str, set[str]]:
    """Rename the cable ends; returns device name -> the interfaces its held type lacks that
    a cable lands on."""
    lacking: dict[str, set[str]] = {}
    for stem in CABLE_STEMS:
        cables = t.get(stem)
        if cables is None or not len(cables):
            continue
        columns = {}
        for side in ("a", "b"):
            devices = _column(cables, f"side_{side}_device")
            ports = _column(cables, f"side_{side}_name")
            for i, (device, port) in enumerate(zip(devices, ports, strict=True)):
                lib = renamed.get(device)
                if lib is None:
                    continue
                name = lib.renames.get(port, port)
                ports[i] = name
                held_type = held_of.get(lib.key)
                lacks = name not in held_type.interfaces if held_type else name in lib.absent
                if lacks:
                    report.missing_interfaces.setdefault(lib.model, set()).add(name)
                    report.cables_to_missing += 1
                    if held_type is not None:
                        lacking.setdefault(device, set()).add(name)
            columns[f"side_{side}_name"] = ports
        t[stem] = _replace(cables, columns)
    return lacking


def _added_interfaces(lacking, renamed, device_tags, held_from: str) -> list[tuple]:
    """The rows of ``07_interfaces``: each lacking interface of each device, typed as its
    port is in the library-named type (the same speed and form factor)."""
    rows = []
    types: dict[tuple, dict[str, str]] = {}
    for device in sorted(lacking):
        lib = renamed[device]
        if lib.key not in types:
            types[lib.key] = {str(i["name"]): str(i["type"]) for i in lib.interfaces()}
        for name in sorted(lacking[device]):
            rows.append(
                (
                    device_tags[device],
                    name,
                    types[lib.key].get(name, "other"),
                    fit_name(f"Hallwright: a port the type held in {held_from} lacks", 200),
                )
            )
    return rows


def _drop_modules(t, renamed, device_tags, held_of, report: LibraryReport) -> None:
    modules = t.get(MODULES)
    if modules is None or not len(modules) or not held_of:
        return
    lacking = {
        device_tags[d]: held_of[lib.key].bays for d, lib in renamed.items() if lib.key in held_of
    }
    tags, bays = _column(modules, "device.asset_tag"), _column(modules, "module_bay")
    keep = [tag not in lacking or bay in lacking[tag] for tag, bay in zip(tags, bays, strict=True)]
    report.modules_dropped = keep.count(False)
    if report.modules_dropped:
        rows = [r for r, k in zip(modules.rows(), keep, strict=True) if k]
        t[MODULES] = Table.from_rows(modules.header, rows)


def _power_types(types, table: LibraryTable, held: HeldTypes | None) -> list:
    """The PDU and power-shelf types under the library's manufacturer name, power ports typed,
    those ``held`` left out."""
    out = []
    for slug, doc in types:
        doc = {**doc, "manufacturer": table.manufacturer(str(doc["manufacturer"]))}
        typed_power_ports(doc)
        if held is None or held.find(str(doc["manufacturer"]), str(doc["model"]), slug) is None:
            out.append((slug, doc))
    return out


class _RenamedModuleType:
    """A transceiver module type under the library's manufacturer name."""

    def __init__(self, base, manufacturer: str):
        self.base, self.manufacturer = base, manufacturer
        self.model = base.model
        self.slug = module_slug(manufacturer, base.first.part_number, base.slug_suffix)

    def document(self) -> dict[str, object]:
        return {**self.base.document(), "manufacturer": self.manufacturer}


def _module_types(types, table: LibraryTable, held, report: LibraryReport) -> list:
    out = []
    for m in types:
        manufacturer = table.manufacturer(m.vendor)
        if held is not None and _key(manufacturer, m.model) in held.modules:
            report.module_types_held += 1
            continue
        out.append(_RenamedModuleType(m, manufacturer))
    return out
