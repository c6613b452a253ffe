"""import-netbox: device types the catalog does not know, read from their interfaces: matched to
a catalog type by port layout, else brought in as a custom type of the design.

The interfaces come from ``netbox_interfaces.csv`` (NetBox's interface list export, columns
``Device``, ``Name``, ``Type``; ``import-netbox --url`` writes it from the REST API). For each
unknown (manufacturer, model), one device's interfaces stand for the type:

- **port layout**: a catalog type whose ports (no breakout) are exactly these names is that
  type (a switch someone typed in NetBox under another model name);
- **custom type**: otherwise the interfaces become the port groups of a new type: names that
  are a prefix and a number run 1..n (``Ethernet1`` ... ``Ethernet48``, ``swp1`` ... ``swp32``,
  ``Ethernet1/1`` ... ``Ethernet1/4``) are a group of n ports, at the speed and form factor of
  their NetBox type (``400gbase-x-osfp``, or its label ``OSFP (400GE)``). Interfaces that fit no
  such run (``eth0``, ``mgmt``) are not ports of the type; they are listed, and so is every
  cable on them. A type Hallwright exported as a design's own carries its power, depth and
  GPUs in its comments (``model.outputs.netbox.device_types.TYPE_MARK``), read from
  ``netbox_device_types.csv`` (NetBox's device type list export: ``Device Type``,
  ``Manufacturer``, ``Comments``) when the folder has it; a record out of the catalog's ranges
  (a negative power, a zero depth, a maximum below the typical, more GPUs than a device may
  hold) is noted and not used, as is a row of that file csv cannot read. Otherwise its power,
  price and depth are not in NetBox: 0 W, $0, 0.8 m, and its notes say so (the analysis then
  counts no power for it; the BOM lines it at "quote"). Its price is never in NetBox.

Lanes are not in NetBox's interface types: Ethernet ports take IEEE's usual lane count for their
speed (1 lane to 50G, 4 to 400G, 8 above), InfiniBand 4X ports 4 lanes.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

from model.asbuilt.report_csv import MAX_REPORT_BYTES, read_table
from model.catalog.components import Catalog, DeviceType, PortGroup
from model.catalog.ports import port_table
from model.files.checks import check_device_type
from model.outputs.netbox.device_types import (
    ETHERNET_TYPES,
    INFINIBAND_TYPES,
    TypeRecord,
    parse_type_record,
)
from model.outputs.netbox.names import slugify

INTERFACES = "netbox_interfaces.csv"
INTERFACE_COLUMNS = {"device": ("Device",), "name": ("Name",), "type": ("Type",)}
DEVICE_TYPES = "netbox_device_types.csv"
DEVICE_TYPE_COLUMNS = {
    "model": ("Device Type", "Model"),
    "manufacturer": ("Manufacturer",),
    "comments": ("Comments",),
}
_RUN = re.compile(r"^(?P<prefix>.*?\D)(?P<n>[1-9][0-9]{0,3})$")
# NetBox's labels: "OSFP (400GE)", "1000BASE-T (1GE)", "NDR 4X (400 Gbps)", "QSFP28 (100GE)"
_LABEL_GE = re.compile(r"^(?P<form>[\w.+-]+)\s*\((?P<speed>[0-9.]+)(?P<unit>[GT])E\)$")
_LABEL_IB = re.compile(r"^(?P<rate>[A-Z]+)(?: (?P<lanes>\d)X)? \((?P<speed>[0-9.]+) Gbps\)$")
_SLUG = {slug: (float(speed), form) for (speed, form), slug in ETHERNET_TYPES.items()}
_IB = {
    slug: (float(lanes * rate), "OSFP", lanes) for (lanes, rate), slug in INFINIBAND_TYPES.items()
}
SWITCH_ROLES = {"leaf", "spine", "core", "switch", "management"}
_NUMBER = re.compile(r"^\s*[0-9]{1,3}(?:\.[0-9]*)?\s*$")


def ethernet_lanes(speed_gbps: float) -> int:
    return 1 if speed_gbps <= 50 else 4 if speed_gbps <= 400 else 8


def port_kind(type_text: str) -> tuple[float, int, str] | None:
    """(speed Gb/s, lanes, form factor) of a NetBox interface type (slug or label), or None."""
    text = (type_text or "").strip()
    if text in _IB:
        speed, form, lanes = _IB[text]
        return speed, lanes, form
    if text in _SLUG:
        speed, form = _SLUG[text]
        return speed, ethernet_lanes(speed), form
    if m := _LABEL_GE.match(text):
        speed = float(m["speed"]) * (1000 if m["unit"] == "T" else 1)
        form = "RJ45" if m["form"].upper().endswith("BASE-T") else m["form"].upper()
        return speed, ethernet_lanes(speed), form
    if m := _LABEL_IB.match(text):
        lanes = int(m["lanes"] or 1)
        return float(m["speed"]), lanes, "OSFP"
    return None


def layout_match(catalog: Catalog, names: set[str]) -> DeviceType | None:
    """The catalog type whose ports (no breakout) are exactly ``names``, if one is."""
    for dtype in catalog.device_types.values():
        if dtype.port_groups and set(port_table(dtype)) == names:
            return dtype
    return None


def custom_type(
    manufacturer: str,
    model: str,
    role: str,
    u_height: int,
    interfaces: list[tuple[str, str]],
    record: TypeRecord | None = None,
) -> tuple[DeviceType | None, list[str]]:
    """A design type from one device's (name, NetBox type) interfaces, with the power, depth
    and GPUs of its comments' ``record`` when it has one, and the names that fit no port
    group (see the module docstring); None when no interface fits."""
    runs: dict[str, list[tuple[int, str]]] = defaultdict(list)
    unfit = []
    for name, kind in interfaces:
        m = _RUN.match(name)
        if m is None or port_kind(kind) is None:
            unfit.append(name)
            continue
        runs[m["prefix"]].append((int(m["n"]), kind))
    groups = []
    for prefix, members in sorted(runs.items()):
        numbers = sorted(n for n, _ in members)
        if numbers != list(range(1, len(numbers) + 1)):
            unfit.extend(f"{prefix}{n}" for n in numbers)
            continue
        kind = Counter(k for _, k in members).most_common(1)[0][0]
        speed, lanes, form = port_kind(kind) or (1.0, 1, "other")
        groups.append(
            PortGroup(
                name=prefix,
                role="management" if form == "RJ45" and speed <= 10 else "compute",
                count=len(numbers),
                speed_gbps=speed,
                lanes=lanes,
                form_factor=form,
            )
        )
    if not groups:
        return None, unfit
    category = (
        "server"
        if role == "gpu-server"
        else "switch"
        if role in SWITCH_ROLES
        else role
        if role in ("nvlink-switch", "storage")
        else "other"
    )
    if record is not None:
        measured = {
            "power_typical_w": record.power_typical_w,
            "power_max_w": record.power_max_w,
            "depth_m": record.depth_m,
            "gpus": record.gpus,
        }
        notes = (
            "Imported from NetBox: its interfaces, and the power, depth and GPUs Hallwright "
            "recorded in its comments; its price is not in NetBox ($0): fill it in"
        )
    else:
        measured = {"power_typical_w": 0.0, "power_max_w": 0.0}
        notes = (
            "Imported from NetBox: its interfaces only; power, price and depth are not in "
            "NetBox (0 W, $0, 0.8 m): fill them in before trusting the totals"
        )
    dtype = DeviceType(
        id=f"netbox-{slugify(f'{manufacturer}-{model}')}",
        vendor=manufacturer,
        model=model,
        category=category,  # type: ignore[arg-type]
        default_role=role
        if role in SWITCH_ROLES | {"gpu-server", "nvlink-switch", "storage"}
        else "switch",  # type: ignore[arg-type]
        u_height=max(1, u_height),
        port_groups=tuple(groups),
        source="netbox",
        notes=notes,
        **measured,  # type: ignore[arg-type]
    )
    return dtype, unfit


def unknown_types(folder: Path, catalog: Catalog, device_rows, notes) -> tuple[list, dict]:
    """(custom types, (manufacturer ignoring case, model) -> catalog type matched by layout)
    for the device types of ``device_rows`` no name matches, from ``netbox_interfaces.csv``
    when the folder has it; each interface that fits no group goes to ``notes.left_out``."""
    from model.asbuilt.netbox_types import TypeMatcher

    path = folder / INTERFACES
    if not path.is_file():
        return [], {}
    matcher = TypeMatcher(catalog)
    unknown: dict[tuple[str, str], dict[str, str]] = {}
    for _, d in device_rows:
        if d["role"] != "patch-panel" and matcher.match(d["manufacturer"], d["type"]) is None:
            unknown.setdefault((d["manufacturer"], d["type"]), d)
    if not unknown:
        return [], {}
    of_device: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for _, row in read_table(path, INTERFACE_COLUMNS, dialect=csv.excel):
        of_device[row["device"]].append((row["name"], row["type"]))
    records = _type_records(folder, notes)
    custom, by_layout = [], {}
    for (maker, model), d in unknown.items():
        interfaces = of_device.get(d["name"], [])
        if not interfaces:
            continue
        found = layout_match(catalog, {name for name, _ in interfaces})
        if found is not None:
            by_layout[(maker.strip().casefold(), model.strip())] = found
            notes.append(
                f"type {maker} {model!r}: its {len(interfaces)} interfaces are the catalog's "
                f"{found.model} ({found.id}); read as that type"
            )
            continue
        u_height = (
            int(float(d.get("u_height") or 1)) if _NUMBER.match(d.get("u_height") or "") else 1
        )
        record = records.get((maker.strip().casefold(), model.strip()))
        dtype, unfit = custom_type(maker, model, d["role"], u_height, interfaces, record)
        problems = check_device_type("$", dtype) if dtype and record else []
        if problems:
            plain, _ = custom_type(maker, model, d["role"], u_height, interfaces)
            if plain is not None and not check_device_type("$", plain):
                # the record's values fail, not the interfaces: as unreadable as a bad line
                text = "; ".join(f"{p.message} at `{p.json_path}`" for p in problems)
                notes.append(f"type {maker} {model!r}: its comment line's record: {text}; not used")
                dtype, record = plain, None
        if dtype is None or check_device_type("custom type", dtype):
            continue  # its devices are listed as of no catalog type
        custom.append(dtype)
        ports = sum(g.count for g in dtype.port_groups)
        notes.append(
            f"type {maker} {model!r}: imported as the custom type {dtype.id} with {ports} "
            f"ports in {len(dtype.port_groups)} groups from {d['name']}'s interfaces "
            + (
                f"({dtype.power_typical_w:g} W typical, {dtype.power_max_w:g} W maximum, "
                f"{dtype.gpu_count} GPUs from its comments; its price is not in NetBox: 0)"
                if record
                else "(power, price and depth are not in NetBox: 0)"
            )
        )
        for name in unfit:
            notes.left_out.append(
                f"interface {name} of type {maker} {model!r} (as {d['name']} has it): fits no "
                "port group (a prefix and a number running 1..n)"
            )
    return custom, by_layout


def _type_records(folder: Path, notes) -> dict[tuple[str, str], TypeRecord]:
    """(manufacturer ignoring case, model) -> the record in the type's comments, from
    ``netbox_device_types.csv`` when the folder has it; a record edited into something
    unreadable is noted and the type read from its interfaces only."""
    path = folder / DEVICE_TYPES
    if not path.is_file():
        return {}
    out = {}
    # csv's field limit (128 KiB) raised to the file's size limit for this one list: NetBox's
    # export keeps a type's whole comments, where teams paste datasheets (a 200 kB one failed
    # the whole import); a cell stays bounded by the file, checked before reading. Installers'
    # reports keep the default, under which a 140 kB "device name" is refused.
    limit = csv.field_size_limit(MAX_REPORT_BYTES)
    try:
        rows = read_table(path, DEVICE_TYPE_COLUMNS, dialect=csv.excel)
    finally:
        csv.field_size_limit(limit)
    for line, row in rows:
        try:
            record = parse_type_record(row["comments"])
        except ValueError as exc:
            notes.append(f"{path.name} line {line}: type {row['model']!r}: {exc}; not used")
            continue
        if record is not None:
            out[(row["manufacturer"].strip().casefold(), row["model"].strip())] = record
    return out
