"""NetBox import files: the CSVs NetBox's bulk import (Import -> CSV) takes, one per object type.

Column names follow NetBox 4.x's import forms (``dcim/forms/bulk_import.py``): sites, locations,
manufacturers, device roles, device types, racks, devices (``role``, ``manufacturer``,
``device_type`` by model, ``rack``, ``position`` = lowest U, ``face``), interfaces (``type`` from
NetBox's interface types, ``speed`` in kb/s) and cables (``side_a_device``, ``side_a_type`` =
``dcim.interface``, ``side_a_name``, ... ``type`` from the media type's ``netbox_type``, ``length``
with ``length_unit`` = m). Files are numbered in the order they must be imported. Everything is
``status=planned``: the design is not yet built.

Names: NetBox needs device names unique (per site) and rack names unique per location; a name
used twice in the design is exported as ``{rack}-{name}`` (then ``-{id}``) so that every cable end
names exactly one device. Cables are the cabling schedule's rows (same label and A/B ends), with
the ordered length (the cable bought) as ``length``; links on the rack backplane are not cables.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from model.bom import ScheduleRow
from model.design import Design
from model.export import ExportError
from model.export.csv_writer import csv_bytes

SITE_HEADER = ("name", "slug", "status", "description")
LOCATION_HEADER = ("site", "name", "slug", "status")
MANUFACTURER_HEADER = ("name", "slug")
ROLE_HEADER = ("name", "slug", "color")
DEVICE_TYPE_HEADER = ("manufacturer", "model", "slug", "u_height", "is_full_depth", "description")
RACK_HEADER = ("site", "location", "name", "status", "width", "u_height", "description")
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
)
INTERFACE_HEADER = ("device", "name", "type", "speed", "mgmt_only", "enabled")
CABLE_HEADER = (
    "side_a_device",
    "side_a_type",
    "side_a_name",
    "side_b_device",
    "side_b_type",
    "side_b_name",
    "type",
    "status",
    "label",
    "length",
    "length_unit",
)

FILES = (
    "01_sites.csv",
    "02_locations.csv",
    "03_manufacturers.csv",
    "04_device_roles.csv",
    "05_device_types.csv",
    "06_racks.csv",
    "07_devices.csv",
    "08_interfaces.csv",
    "09_cables.csv",
)
LOCATION_NAME = "Data hall"

# (speed Gb/s, form factor) -> NetBox interface type; anything else is "other".
INTERFACE_TYPES = {
    (1, "RJ45"): "1000base-t",
    (10, "RJ45"): "10gbase-t",
    (100, "QSFP28"): "100gbase-x-qsfp28",
    (200, "QSFP56"): "200gbase-x-qsfp56",
    (200, "QSFP-DD"): "200gbase-x-qsfpdd",
    (400, "QSFP112"): "400gbase-x-qsfp112",
    (400, "QSFP-DD"): "400gbase-x-qsfpdd",
    (400, "OSFP"): "400gbase-x-osfp",
    (800, "OSFP"): "800gbase-x-osfp",
    (800, "OSFP224"): "800gbase-x-osfp",
    (800, "QSFP-DD800"): "800gbase-x-qsfpdd",
    (1600, "OSFP"): "1.6tbase-x-osfp1600",
    (1600, "OSFP224"): "1.6tbase-x-osfp1600",
}
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
}
_SLUG_BAD = re.compile(r"[^a-z0-9_]+")


def slugify(text: str) -> str:
    """NetBox slug: lower-case letters, digits, ``-`` and ``_``; never empty; at most 100 chars."""
    slug = _SLUG_BAD.sub("-", text.lower()).strip("-")[:100].strip("-")
    return slug or "x"


def interface_type(speed_gbps: float, form_factor: str) -> str:
    return INTERFACE_TYPES.get((round(speed_gbps), form_factor), "other")


def _unique_names(items: Sequence[tuple[str, str, str]]) -> dict[str, str]:
    """(id, name, qualifier) -> id -> a name unique among the items."""
    count = Counter(name for _, name, _ in items)
    out: dict[str, str] = {}
    used: set[str] = set()
    for object_id, name, qualifier in items:
        candidate = name if count[name] == 1 else f"{qualifier}-{name}"
        if candidate in used or not candidate:
            candidate = f"{candidate}-{object_id}"
        used.add(candidate)
        out[object_id] = candidate
    return out


def netbox_tables(
    design: Design, schedule: Sequence[ScheduleRow]
) -> dict[str, tuple[tuple[str, ...], list[tuple]]]:
    """File name -> (header, rows) for every NetBox import file."""
    catalog = design.catalog
    site = design.name.strip() or "Hallwright design"
    location_slug = slugify(LOCATION_NAME)
    racks = sorted(design.racks.values(), key=lambda r: (r.name, r.id))
    rack_names = _unique_names([(r.id, r.name, r.id) for r in racks])
    devices = sorted(design.devices.values(), key=lambda d: (rack_names[d.rack], d.u, d.name, d.id))
    device_names = _unique_names([(d.id, d.name, rack_names[d.rack]) for d in devices])

    type_ids = sorted({d.type for d in devices})
    dtypes = [catalog.device_types[t] for t in type_ids]
    vendors = sorted({t.vendor for t in dtypes})
    models = _unique_names([(t.id, t.model, t.id) for t in dtypes])
    roles = sorted({d.role for d in devices})

    tables: dict[str, tuple[tuple[str, ...], list[tuple]]] = {}
    tables["01_sites.csv"] = (
        SITE_HEADER,
        [(site, slugify(site), "planned", "exported from Hallwright")],
    )
    tables["02_locations.csv"] = (
        LOCATION_HEADER,
        [(site, LOCATION_NAME, location_slug, "planned")],
    )
    tables["03_manufacturers.csv"] = (MANUFACTURER_HEADER, [(v, slugify(v)) for v in vendors])
    tables["04_device_roles.csv"] = (
        ROLE_HEADER,
        [(r, slugify(r), ROLE_COLORS.get(r, "607d8b")) for r in roles],
    )
    tables["05_device_types.csv"] = (
        DEVICE_TYPE_HEADER,
        [
            (
                t.vendor,
                models[t.id],
                slugify(models[t.id]),
                t.u_height,
                "true",
                f"Hallwright {t.id}",
            )
            for t in dtypes
        ],
    )
    tables["06_racks.csv"] = (
        RACK_HEADER,
        [(site, LOCATION_NAME, rack_names[r.id], "planned", 19, r.height_u, r.type) for r in racks],
    )
    tables["07_devices.csv"] = (
        DEVICE_HEADER,
        [
            (
                device_names[d.id],
                d.role,
                catalog.device_types[d.type].vendor,
                models[d.type],
                "planned",
                site,
                LOCATION_NAME,
                rack_names[d.rack],
                d.u,
                "front",
            )
            for d in devices
        ],
    )
    interfaces = []
    for d in devices:
        for port, info in design.ports(d).items():
            interfaces.append(
                (
                    device_names[d.id],
                    port,
                    interface_type(info.speed_gbps, info.form_factor),
                    round(info.speed_gbps * 1_000_000),
                    "true" if info.role == "management" else "false",
                    "true",
                )
            )
    tables["08_interfaces.csv"] = (INTERFACE_HEADER, interfaces)

    cables = []
    for row in schedule:
        link = design.links.get(row.cable_id)
        if link is None:
            raise ExportError(f"schedule row {row.cable_id!r} names no link of the design")
        a, b = link.a, link.b
        if _end_key(design, a.device, a.port) != (row.a_rack, row.a_u, row.a_device, row.a_port):
            a, b = b, a
        medium = catalog.media_types.get(row.medium) if row.medium else None
        length = row.ordered_length_m if row.ordered_length_m is not None else row.length_m
        cables.append(
            (
                device_names[a.device],
                "dcim.interface",
                a.port,
                device_names[b.device],
                "dcim.interface",
                b.port,
                medium.netbox_type if medium else "",
                "planned",
                row.label[:100],
                length,
                "m" if length is not None else "",
            )
        )
    tables["09_cables.csv"] = (CABLE_HEADER, cables)
    return tables


def _end_key(design: Design, device_id: str, port: str) -> tuple[str, int, str, str]:
    device = design.devices[device_id]
    return (design.racks[device.rack].name, device.u, device.name, port)


README = """NetBox import files exported by Hallwright (NetBox 4.x bulk import, CSV format).

Import them in the order of their numbers (Organization/Devices -> Import, "CSV" tab or file
upload): sites, locations, manufacturers, device roles, device types, racks, devices,
interfaces, cables. All objects are status "planned". Cable length is the ordered length in
metres; cable labels match the Hallwright cabling schedule.
"""


def write_netbox_dir(
    directory: str | Path, tables: dict[str, tuple[tuple[str, ...], list[tuple]]]
) -> list[Path]:
    """Write every table as ``directory/<name>``; returns the paths.

    The folder is replaced as a whole: every file is written (and synced) into a new folder
    beside it, which then takes the old folder's place by rename, so a full disk or any other
    failure leaves the previous export complete and unmixed. A folder that holds anything but
    a previous export (other files, sub-folders) is refused rather than replaced, since
    replacing it would delete the user's files.
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise ExportError(f"{directory} exists and is not a folder")
    if not directory.parent.is_dir():
        raise ExportError(
            f"cannot create {directory.name}: the folder {directory.parent} does not exist"
        )
    contents = {
        name: csv_bytes(header, rows)  # formula-safe: these files get opened in spreadsheets
        for name, (header, rows) in tables.items()
    }
    contents["00_README.txt"] = README.encode("utf-8")
    if directory.is_dir():
        foreign = sorted(p.name for p in directory.iterdir() if not _is_export_file(p))
        if foreign:
            shown = ", ".join(foreign[:3]) + (" …" if len(foreign) > 3 else "")
            raise ExportError(
                f"{directory} holds files that are not a NetBox export ({shown}); "
                "choose a new or empty folder, nothing was written"
            )
    staging = None
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
        for name, data in contents.items():
            with open(staging / name, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(staging, 0o777 & ~_umask())
        _swap_in(staging, directory)
        staging = None
    except OSError as exc:
        raise ExportError(
            f"could not write the NetBox export to {directory} ({exc.strerror or exc}); "
            "the previous export is unchanged"
        ) from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return [directory / name for name in contents]


def _is_export_file(path: Path) -> bool:
    """A file a NetBox export writes: ``00_README.txt`` or ``NN_name.csv``."""
    name = path.name
    return path.is_file() and (
        name == "00_README.txt"
        or (name[:2].isdigit() and name[2:3] == "_" and name.endswith(".csv"))
    )


def _swap_in(staging: Path, directory: Path) -> None:
    """Put ``staging`` at ``directory``: the old folder moves aside first and comes back if the
    second rename fails, then goes."""
    if not directory.exists():
        os.rename(staging, directory)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{directory.name}.old.", dir=directory.parent))
    os.rmdir(old)
    os.rename(directory, old)
    try:
        os.rename(staging, directory)
    except OSError:
        os.rename(old, directory)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
