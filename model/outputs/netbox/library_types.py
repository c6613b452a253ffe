"""devicetype-library naming: the library's manufacturer, model, slug and interface names for the
catalog devices it has, and YAML the library's schema accepts for every other type.

The netbox-community devicetype-library names NVIDIA's products under the manufacturer ``Nvidia``
with bare model names (``QM9700``) and the switch OS's port names (``P0.0``, ``swp1``, ``sw1p1``);
a NetBox loaded from it refuses a second ``NVIDIA`` manufacturer and gets a second QM9700 type
from Hallwright's own names. The mapping is ``resources/catalog/netbox/devicetype-library.json``,
one entry per catalog device the library has, each naming the library file (path@commit) its
names and interface types were read from.

With ``--types library`` the export keeps every object but names it so (:class:`LibraryVariant`):

- a catalog device the library has, without breakout, is the library's type: its manufacturer,
  model, slug, part number, interface names and the interface types the library gives them;
- a breakout of such a device is a type of our own named after the library's (``SN5600 (p
  2x400G)``), its sub-ports split the library's port names (``swp1s0``: NVIDIA Cumulus Linux's
  form; the InfiniBand form ``P0.0/1`` is ours);
- every other type keeps its model, under the library's manufacturer name.

Every YAML written is valid against the library's JSON schema (the newest version this project
could read: ``tests/data/devicetype_library_schema/SOURCE.txt``). That schema predates NetBox
4.6's InfiniBand 4X types and 1.6T Ethernet: a port NetBox would type ``infiniband-ndr-4x`` is
typed as the library types its own NDR switch ports (the Ethernet type of the same speed and
form factor, ``400gbase-x-osfp``), or ``other`` when none exists, and its description says
what it is; the catalog gives no power inlet, so the aggregate power port's type is ``other``.
A patch panel's ``port-mappings`` stay (the schema has no key for them, NetBox 4.5 reads them)
and its front ports lose ``rear_port`` (the schema has none): library naming needs NetBox 4.5+.

:func:`read_held_types` reads what a NetBox already holds (a devicetype-library checkout, or
NetBox's own device-type and module-type YAML export); :func:`rename_tables` then leaves those
types out and lists what the held types lack (interfaces a cable lands on, module bays).
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from model.catalog.components import CATALOG_DIR
from model.catalog.ports import port_table
from model.outputs.netbox.device_types import ETHERNET_TYPES, TypeVariant
from model.outputs.netbox.names import (
    DESCRIPTION_MAX,
    SLUG_MAX,
    fit_name,
    interface_name,
    slugify,
)

LIBRARY_FILE = CATALOG_DIR / "netbox" / "devicetype-library.json"
TYPES_HALLWRIGHT = "hallwright"
TYPES_LIBRARY = "library"
TYPE_NAMINGS = (TYPES_HALLWRIGHT, TYPES_LIBRARY)
# Interface types NetBox 4.7 has (dcim/choices.py) that the library's schema does not list.
SCHEMA_LACKS = {
    "infiniband-edr-4x": "InfiniBand EDR 4X (100 Gb/s)",
    "infiniband-hdr-4x": "InfiniBand HDR 4X (200 Gb/s)",
    "infiniband-ndr-4x": "InfiniBand NDR 4X (400 Gb/s)",
    "infiniband-xdr-4x": "InfiniBand XDR 4X (800 Gb/s)",
    "1.6tbase-x-osfp1600": "1.6 Tb/s Ethernet, OSFP",
}
POWER_PORT_TYPE = "other"  # the catalog lists no inlet (C14, C20...) for any device


class PortRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str  # template: {n}, {cage}, {lane}, {cage0}, {lane0}
    type: str
    offset: int = 0


class LibraryEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    catalog: str
    source: str  # path@commit in the library's repository
    manufacturer: str
    model: str
    slug: str
    ports: dict[str, PortRule | None]
    split: str
    absent: list[str]
    part_number: str = ""
    notes: str = ""


class LibraryManufacturer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    slug: str
    source: str


class LibraryTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    about: str
    repository: str
    manufacturers: dict[str, LibraryManufacturer]
    device_types: list[LibraryEntry]

    def entry(self, catalog_id: str) -> LibraryEntry | None:
        # six entries: a scan is as quick as a dict, and a frozen Struct with dicts has no hash
        return next((e for e in self.device_types if e.catalog == catalog_id), None)

    def manufacturer(self, vendor: str) -> str:
        known = self.manufacturers.get(vendor)
        return known.name if known else vendor


@lru_cache(maxsize=1)
def library_table() -> LibraryTable:
    """The bundled mapping (read once; it never changes at run time)."""
    return msgspec.json.decode(LIBRARY_FILE.read_bytes(), type=LibraryTable)


def library_port_name(entry: LibraryEntry, group: str, port: str, per_cage: int) -> str | None:
    """The library's name of the catalog port ``port`` of ``group`` (``p12``, ``p12/2``), or
    None where the library's type has no such interface (its rule is null or missing)."""
    rule = entry.ports.get(group)
    if rule is None:
        return None
    number_text, _, sub_text = port[len(group) :].partition("/")
    n = int(number_text)
    per_cage = max(1, per_cage)
    cage0, lane0 = divmod(n - 1, per_cage)
    name = rule.name.format(
        n=n + rule.offset, cage=cage0 + 1, lane=lane0 + 1, cage0=cage0, lane0=lane0
    )
    if sub_text:
        sub = int(sub_text)
        name = entry.split.format(port=name, sub=sub, sub0=sub - 1)
    return name


def schema_interface_type(netbox_type: str, speed_gbps: float, form_factor: str) -> str:
    """``netbox_type``, or the library-schema type standing for it (see the module docstring)."""
    if netbox_type not in SCHEMA_LACKS:
        return netbox_type
    stand_in = ETHERNET_TYPES.get((round(speed_gbps), form_factor), "other")
    return "other" if stand_in in SCHEMA_LACKS else stand_in


def typed_power_ports(doc: dict[str, object]) -> None:
    """Give each power port of ``doc`` the type ``other`` where it has none (the library's
    schema requires one; the catalog lists no inlet), keeping its other keys in order."""
    ports = doc.get("power-ports")
    if isinstance(ports, list):
        doc["power-ports"] = [
            {"name": p["name"], "type": p.get("type", POWER_PORT_TYPE), **p} for p in ports
        ]


class LibraryVariant:
    """A :class:`TypeVariant` named as the devicetype-library names it (module docstring)."""

    def __init__(self, base: TypeVariant, table: LibraryTable):
        self.base = base
        self.dtype = base.dtype
        self.key = base.key
        self.breakout = base.breakout
        self.entry = table.entry(base.dtype.id)
        self.is_library = self.entry is not None and not base.breakout
        self.manufacturer = table.manufacturer(base.dtype.vendor)
        self.slug_suffix = ""  # set by distinct_slugs when another type slugs alike
        self.renames: dict[str, str] = {}  # our interface name -> the library's
        self.absent: set[str] = set()  # the library's names its file lacks
        self._types: dict[str, str] = {}  # the library's name -> its interface type
        if self.entry is not None:
            self._name_ports(self.entry)

    def _name_ports(self, entry: LibraryEntry) -> None:
        missing = set(entry.absent)
        for port, info in port_table(self.dtype, self.breakout).items():
            name = library_port_name(entry, info.group, port, info.ports_per_cage)
            if name is None:  # the library's type has no such interface: keep ours
                if self.is_library:
                    self.absent.add(interface_name(port))
                continue
            self.renames[interface_name(port)] = name
            rule = entry.ports[info.group]
            if self.is_library and rule is not None:
                self._types[name] = rule.type
            if name in missing:
                self.absent.add(name)

    def _renamed(self, port: str) -> str:
        return self.renames.get(port, port)

    @property
    def model(self) -> str:
        if self.entry is None:
            return self.base.model
        if self.is_library:
            return self.entry.model
        return self.entry.model + self.base.model[len(self.dtype.model) :]

    @property
    def slug(self) -> str:
        if self.is_library and self.entry is not None:
            return self.entry.slug
        text = f"{self.manufacturer}-{self.model}"
        if self.slug_suffix:
            return slugify(text, SLUG_MAX - 9) + self.slug_suffix
        return slugify(text)

    @property
    def airflow(self) -> str:
        return self.base.airflow

    def interfaces(self) -> list[dict[str, object]]:
        infos = {interface_name(p): i for p, i in port_table(self.dtype, self.breakout).items()}
        out = []
        for row in self.base.interfaces():
            ours = str(row["name"])
            name = self.renames.get(ours, ours)
            info = infos[ours]
            row = dict(row, name=name)
            netbox_type = str(row["type"])
            library_type = self._types.get(name)
            if library_type is not None:
                row["type"] = library_type
            elif netbox_type in SCHEMA_LACKS:
                row["type"] = schema_interface_type(netbox_type, info.speed_gbps, info.form_factor)
                row.setdefault("description", SCHEMA_LACKS[netbox_type])
            out.append(row)
        return out

    def document(self) -> dict[str, object]:
        doc = self.base.document()
        doc["manufacturer"] = self.manufacturer
        doc["model"] = self.model
        doc["slug"] = self.slug
        if self.entry is not None and self.entry.part_number:
            doc = {**dict(list(doc.items())[:3]), "part_number": self.entry.part_number, **doc}
        if "interfaces" in doc:
            doc["interfaces"] = self.interfaces()
        bays = doc.get("module-bays")
        if isinstance(bays, list) and self.renames:  # a bay's label lists its ports
            doc["module-bays"] = [
                dict(b, label=" + ".join(map(self._renamed, str(b["label"]).split(" + "))))
                for b in bays
            ]
        typed_power_ports(doc)
        fronts = doc.get("front-ports")
        if isinstance(fronts, list):  # mapped through port-mappings only (NetBox 4.5 and later)
            doc["front-ports"] = [
                {k: v for k, v in p.items() if k not in ("rear_port", "rear_port_position")}
                for p in fronts
            ]
        if self.entry is not None:
            named = "its type" if self.is_library else "its base type"
            doc["comments"] = (
                f"{doc['comments']}. Named as the devicetype-library names {named}: "
                f"{self.entry.source}"
            )
        doc["description"] = fit_name(str(doc["description"]), DESCRIPTION_MAX)
        return doc
