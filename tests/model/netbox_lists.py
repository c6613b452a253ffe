"""NetBox's list exports ("Export -> All data": netbox_sites/racks/devices/cables.csv) of a site
as an export's import files would leave it, written offline for import-netbox tests.

Only the columns import-netbox reads, with NetBox's titles and cell formats as in the recorded
lists of tests/data/netbox_export (height "48U", outer sizes "600 mm", lengths "10 m").
``foreign=True`` writes what a NetBox Hallwright did not write holds: no "Hallwright <id>"
descriptions, no comments, no facility ids.
"""

from __future__ import annotations

import csv
from pathlib import Path


def _write(path: Path, header: list[str], rows: list[list[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def write_lists(export, folder: Path, foreign: bool = False, interfaces: bool = False) -> Path:
    """The list exports of ``export``'s site in ``folder``; ``interfaces``: NetBox's interface
    list too (netbox_interfaces.csv: each device's interfaces as its type's templates made them)
    and its device type list (netbox_device_types.csv: model, manufacturer, comments)."""
    folder.mkdir(parents=True, exist_ok=True)

    def table(stem):
        t = export.tables[stem]
        return [dict(zip(t.header, row, strict=True)) for row in export.rows(stem)]

    def keep(text):
        return "" if foreign else (text or "")

    _write(
        folder / "netbox_sites.csv",
        ["Name", "Description", "Comments"],
        [[s["name"], keep(s["description"]), keep(s["comments"])] for s in table("04_sites")],
    )
    _write(
        folder / "netbox_racks.csv",
        [
            "Name",
            "Site",
            "Height",
            "Outer Width",
            "Outer Depth",
            "Description",
            "Facility ID",
            "Comments",
        ],
        [
            [
                r["name"],
                r["site"],
                f"{r['u_height']}U",
                f"{r['outer_width']} mm",
                f"{r['outer_depth']} mm",
                r["description"],
                keep(r["facility_id"]),
                keep(r["comments"]),
            ]
            for r in table("06_racks")
        ],
    )
    # NetBox shows a rack that has a facility id as "name (facility id)" (Rack.__str__ in
    # netbox/dcim/models/racks.py), in the device list's Rack column too.
    shown = {
        r["name"]: f"{r['name']} ({r['facility_id']})" if keep(r["facility_id"]) else r["name"]
        for r in table("06_racks")
    }
    _write(
        folder / "netbox_devices.csv",
        ["Name", "Site", "Rack", "Role", "Manufacturer", "Type", "Position", "Description"],
        [
            [
                d["name"],
                d["site"],
                shown.get(d["rack"], d["rack"]),
                d["role"],
                d["manufacturer"],
                d["device_type"],
                d["position"] if d["position"] is not None else "",
                keep(d["description"]),
            ]
            for d in table("07_devices")
        ],
    )
    if interfaces:
        templates = {}
        docs = [variant.document() for variant in export.device_types]
        for doc in docs:
            templates[(doc["manufacturer"], doc["model"])] = doc.get("interfaces", [])
        # NetBox's device type list ("Device Type" is its model column), with the comments
        _write(
            folder / "netbox_device_types.csv",
            ["Device Type", "Manufacturer", "Comments"],
            [[doc["model"], doc["manufacturer"], keep(str(doc["comments"]))] for doc in docs],
        )
        _write(
            folder / "netbox_interfaces.csv",
            ["Device", "Name", "Type"],
            [
                [d["name"], i["name"], i["type"]]
                for d in table("07_devices")
                for i in templates.get((d["manufacturer"], d["device_type"]), [])
            ],
        )
    cables = []
    for stem in ("08_cables", "09_backplane_cables"):
        if stem in export.tables:
            cables += table(stem)
    _write(
        folder / "netbox_cables.csv",
        [
            "Device A",
            "Termination A",
            "Device B",
            "Termination B",
            "Site A",
            "Site B",
            "Label",
            "Length",
            "Type",
            "Description",
        ],
        [
            [
                c["side_a_device"],
                c["side_a_name"],
                c["side_b_device"],
                c["side_b_name"],
                c["side_a_site"],
                c["side_b_site"],
                c["label"],
                f"{c['length']:g} m" if c["length"] not in (None, "") else "",
                c["type"],
                c["description"],
            ]
            for c in cables
        ],
    )
    return folder
