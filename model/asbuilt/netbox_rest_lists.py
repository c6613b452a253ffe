"""``import-netbox --url``: a NetBox site read through its REST API and written as the list
exports import-netbox reads (netbox_sites/racks/devices/cables.csv), so both ways in share one
importer (:mod:`model.asbuilt.netbox_import`) and its messages name files one can open.

The calls are push-netbox's (:class:`model.outputs.netbox.rest_client.RestClient`: the token
header, ``next``-link paging at 1,000 a page): the sites, then the chosen site's racks, devices,
interfaces (name, device, type: what a type the catalog does not know is read from) and cables
by ``site_id``, and every device type (a device's nested type names its model; the
manufacturer is read from the type, which a NetBox 4 brief object may leave out). Cells are
written as NetBox's own list export writes them: height ``48U``, outer sizes ``600 mm``,
lengths ``10 m``; a cable end names its device and port, whatever the port's kind (interface,
front or rear port). A cable with several terminations on a side is written one row per pair
(a NetBox trunk cable of legs); a cable with more on one side than the other is listed as not
all brought back.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Protocol

from model.asbuilt.report_csv import ReportError
from model.outputs.netbox.device_types import type_record_line

INCH_MM = 25.4


class ReadApi(Protocol):
    def read_all(self, endpoint: str, params: dict[str, object]) -> list[dict]: ...


def _value(field: object) -> str:
    """A REST choice (``{"value", "label"}``), nested object (its name) or scalar as text."""
    if isinstance(field, dict):
        for key in ("value", "name", "model"):
            if key in field and field[key] is not None:
                return str(field[key])
        return ""
    return "" if field is None else str(field)


def _number(value: object) -> str:
    if value in (None, ""):
        return ""
    number = float(value)  # type: ignore[arg-type]
    return f"{number:g}"


def _size_mm(value: object, unit: object) -> str:
    if value in (None, ""):
        return ""
    size = float(value)  # type: ignore[arg-type]
    if _value(unit) == "in":
        size *= INCH_MM
    return f"{size:g} mm"


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def rest_lists(api: ReadApi, site: str | None, folder: Path) -> tuple[str, list[str]]:
    """Write the site's lists into ``folder``; returns (the site's name, a line per cable
    whose uneven terminations were not all brought back)."""
    sites = api.read_all("sites", {"name": site} if site else {})
    if site:
        sites = [s for s in sites if s.get("name") == site]
    if not sites:
        raise ReportError(
            f"NetBox holds no site named {site!r}" if site else "NetBox holds no site"
        )
    if len(sites) > 1:
        names = ", ".join(str(s.get("name")) for s in sites[:10])
        raise ReportError(f"NetBox holds {len(sites)} sites; name one with --site ({names})")
    chosen = sites[0]
    name, site_id = str(chosen["name"]), chosen["id"]
    folder.mkdir(parents=True, exist_ok=True)
    _write(
        folder / "netbox_sites.csv",
        ["Name", "Description", "Comments"],
        [[name, _value(chosen.get("description")), _value(chosen.get("comments"))]],
    )
    _write(
        folder / "netbox_racks.csv",
        ["Name", "Site", "Height", "Outer Width", "Outer Depth", "Description", "Facility ID"]
        + ["Comments"],
        [
            [
                _value(r.get("name")),
                name,
                f"{r['u_height']}U" if r.get("u_height") else "",
                _size_mm(r.get("outer_width"), r.get("outer_unit")),
                _size_mm(r.get("outer_depth"), r.get("outer_unit")),
                _value(r.get("description")),
                _value(r.get("facility_id")),
                _value(r.get("comments")),
            ]
            for r in api.read_all("racks", {"site_id": site_id})
        ],
    )
    types = {t["id"]: t for t in api.read_all("device-types", {})}
    rows = []
    used: dict[int, dict] = {}
    for d in api.read_all("devices", {"site_id": site_id}):
        nested = d.get("device_type") or {}
        dtype = types.get(nested.get("id"), nested) if isinstance(nested, dict) else {}
        used.setdefault(dtype.get("id", -1), dtype)
        rows.append(
            [
                _value(d.get("name")),
                name,
                _value(d.get("rack")),
                _value(d.get("role") or d.get("device_role")),
                _value(dtype.get("manufacturer")),
                _value(dtype.get("model")),
                _number(d.get("position")),
                _value(d.get("description")),
            ]
        )
    _write(
        folder / "netbox_devices.csv",
        ["Name", "Site", "Rack", "Role", "Manufacturer", "Type", "Position", "Description"],
        rows,
    )
    # The site's device types with the one line of their comments the importer reads: a
    # custom type's power and GPUs (model.asbuilt.netbox_custom_types), in the columns of
    # NetBox's device type list export. Only that line: a datasheet pasted into any type's
    # comments (200 kB) went past csv's field limit and failed the whole import.
    _write(
        folder / "netbox_device_types.csv",
        ["Device Type", "Manufacturer", "Comments"],
        [
            [
                _value(t.get("model")),
                _value(t.get("manufacturer")),
                type_record_line(_value(t.get("comments"))) or "",
            ]
            for t in used.values()
        ],
    )
    # Interfaces: what an unknown type is read from (model.asbuilt.netbox_custom_types)
    _write(
        folder / "netbox_interfaces.csv",
        ["Device", "Name", "Type"],
        [
            [_value(i.get("device")), _value(i.get("name")), _value(i.get("type"))]
            for i in api.read_all("interfaces", {"site_id": site_id, "fields": "name,device,type"})
        ],
    )
    cables, uneven = _cable_rows(api.read_all("cables", {"site_id": site_id}), name)
    _write(
        folder / "netbox_cables.csv",
        ["Device A", "Termination A", "Device B", "Termination B", "Site A", "Site B", "Label"]
        + ["Length", "Type", "Description"],
        cables,
    )
    return name, uneven


def _end(termination: dict) -> tuple[str, str]:
    port = termination.get("object") or {}
    return _value(port.get("device")), _value(port.get("name"))


def _cable_rows(cables: list[dict], site: str) -> tuple[list[list[str]], list[str]]:
    rows, uneven = [], []
    for c in cables:
        a_side, b_side = c.get("a_terminations") or [], c.get("b_terminations") or []
        if len(a_side) != len(b_side):
            uneven.append(
                f"cable {_value(c.get('label')) or '(no label)'} (NetBox id {c.get('id')}): "
                f"{len(a_side)} terminations on side A, {len(b_side)} on side B; "
                f"{abs(len(a_side) - len(b_side))} not read"
            )
        length = _number(c.get("length"))
        unit = _value(c.get("length_unit")) or "m"
        for a, b in zip(a_side, b_side, strict=False):
            (device_a, port_a), (device_b, port_b) = _end(a), _end(b)
            rows.append(
                [
                    device_a,
                    port_a,
                    device_b,
                    port_b,
                    site,
                    site,
                    _value(c.get("label")),
                    f"{length} {unit}" if length else "",
                    _value(c.get("type")),
                    _value(c.get("description")),
                ]
            )
    return rows, uneven
