"""What NetBox must hold after importing a design: counts from the design, lengths, traces.

Run with Hallwright's Python: ``expected.py DESIGN.hall.json OUT.json [--types-from DIR]``
(``--types-from``: the export was made with the devicetype-library's names and the types held in
DIR, as ``export-netbox --types-from DIR`` makes it). The live driver runs in
NetBox's own environment and compares the database with this file. Counts come from the design
and its structured layout (panels, cords, trunks), not from the export's rows, so a row the
export drops shows as a difference. ``traces`` are links to trace end to end in NetBox: each
A-end interface must reach the link's B-end interface (through both panels when
``through_panels``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from model.design.structured_edit import is_panel  # noqa: E402
from model.engine.routed_links import RoutedLinks  # noqa: E402
from model.files.design_file import load_design  # noqa: E402
from model.outputs.netbox.export import netbox_tables  # noqa: E402
from model.outputs.netbox.library_export import read_held_types  # noqa: E402
from model.outputs.netbox.names import interface_name  # noqa: E402
from model.outputs.schedule import schedule_rows  # noqa: E402
from model.structured.layout import structured_layout  # noqa: E402

TRACES = 24  # links traced per site, spread over the design


def main(design_path: str, out_path: str, types_from: str = "") -> None:
    design = load_design(design_path)
    plant = RoutedLinks(design)
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    renamed = _library_names(design, plant, export, types_from) if types_from else {}
    layout = structured_layout(plant)
    structured = layout.structured_links()
    # One cable per trunk leg and segment (model.outputs.netbox.panels); a leg leaving a zone
    # panel starts on its front port.
    trunks = sum(len(leg.trunks) for leg in layout.legs)
    zone_fronts = sum(len(leg.trunks) - 1 for leg in layout.legs)
    placed = sum(1 for d in design.devices.values() if is_panel(design, d.id))
    virtual = sum(1 for r in export.rows("07_devices") if "not placed" in str(r[12]))
    cables = export.rows("08_cables") + export.rows("09_backplane_cables")
    names = {row[0]: row for row in export.rows("07_devices")}
    device_name = {str(row[12]).removeprefix("Hallwright "): row[0] for row in names.values()}
    links = sorted(design.links)
    step = max(1, len(links) // TRACES)
    traces = []
    for link_id in links[::step][:TRACES]:
        link = design.links[link_id]
        a = (device_name[link.a.device], interface_name(link.a.port))
        b = (device_name[link.b.device], interface_name(link.b.port))
        traces.append(
            {
                "from": [a[0], renamed.get(a, a[1])],
                "to": [b[0], renamed.get(b, b[1])],
                "through_panels": link_id in structured,
            }
        )
    expected = {
        "site": export.site,
        # A design with a facility: one PDU device, power feed and power cable per rack PDU.
        "devices": len(design.devices) + virtual + len(export.rows("12_power_feeds")),
        "power_feeds": len(export.rows("12_power_feeds")),
        "patch_panels": placed + virtual,
        "interfaces": sum(len(design.ports(d)) for d in design.devices.values()),
        "library_types": [],
        "cables": len(design.links)
        + len(structured)
        + trunks
        + len(export.rows("13_power_cables")),
        "cabled_ports": 2 * len(design.links),
        "cabled_front_ports": 2 * len(structured) + zone_fronts,
        "cabled_rear_ports": 2 * trunks - zone_fronts,
        "modules": len(export.rows("10_modules")),
        # label -> every length under it: a bundled trunk's legs share its label and only
        # leg 1 carries the length (the others none), so one length per label lost the rest.
        "lengths": _lengths_by_label(cables),
        "traces": traces,
    }
    if types_from:
        _held_counts(design, export, types_from, expected)
    Path(out_path).write_text(json.dumps(expected, indent=1), encoding="utf-8")


def _library_names(design, plant, export, types_from: str) -> dict[tuple, str]:
    """(device, Hallwright interface name) -> the devicetype-library's name for it: the cable
    files of the two namings, row by row (the renaming keeps every row where it is)."""
    named = netbox_tables(
        design, schedule_rows(design, plant), plant, None, "library", read_held_types(types_from)
    )
    out = {}
    for stem in ("08_cables", "09_backplane_cables"):
        for mine, lib in zip(export.rows(stem), named.rows(stem), strict=True):
            out[(mine[1], mine[3])] = lib[3]
            out[(mine[5], mine[7])] = lib[7]
    return out


def _held_counts(design, export, types_from: str, expected: dict) -> None:
    """Counts that change when the NetBox holds a device type: a device of a held type has the
    held type's interfaces, plus those export-netbox adds for the cables (07_interfaces), and
    its transceivers only in the bays the held type has (the module file says which)."""
    held = read_held_types(types_from)
    named = netbox_tables(
        design, schedule_rows(design, RoutedLinks(design)), RoutedLinks(design), None,
        "library", held, types_from,
    )  # fmt: skip
    lib_of = {row[0]: held.find(row[2], row[3], "") for row in named.rows("07_devices")}
    by_name = {str(row[12]).removeprefix("Hallwright "): row[0] for row in named.rows("07_devices")}
    interfaces = 0
    for device in design.devices.values():
        held_type = lib_of.get(by_name.get(device.id, ""))
        interfaces += len(held_type.interfaces) if held_type else len(design.ports(device))
    added = named.rows("07_interfaces") if "07_interfaces" in named.tables else []
    expected["interfaces"] = interfaces + len(added)
    expected["modules"] = len(named.rows("10_modules"))
    # slug -> the devices that must use the held type, not a second one of Hallwright's
    used: dict[str, int] = {}
    for held_type in lib_of.values():
        if held_type is not None:
            used[held_type.slug] = used.get(held_type.slug, 0) + 1
    expected["library_types"] = sorted(used.items())


def _lengths_by_label(cables) -> dict[str, list]:
    out: dict[str, list] = {}
    for row in cables:
        out.setdefault(row[10], []).append(row[11])
    return {label: sorted(v, key=lambda x: (x is not None, x or 0)) for label, v in out.items()}


if __name__ == "__main__":
    args = sys.argv[1:]
    held_dir = args[args.index("--types-from") + 1] if "--types-from" in args else ""
    main(args[0], args[1], held_dir)
