"""What NetBox must hold after importing a design: counts from the design, lengths, traces.

Run with Hallwright's Python: ``expected.py DESIGN.hall.json OUT.json``. The live driver runs in
NetBox's own environment and compares the database with this file. Counts come from the design
and its structured layout (panels, cords, trunks), not from the export's rows, so a row the
export drops shows as a difference. ``traces`` are links to trace end to end in NetBox: each
A-end interface must reach the link's B-end interface (through both panels when
``through_panels``).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from model.cabling import CablePlant  # noqa: E402
from model.export.netbox import netbox_tables  # noqa: E402
from model.export.netbox_names import interface_name  # noqa: E402
from model.fileio import load_design  # noqa: E402
from model.schedule import schedule_rows  # noqa: E402
from model.structured_catalog import structured_catalog  # noqa: E402
from model.structured_layout import LC_ENCLOSURE, MPO_PANEL, structured_layout  # noqa: E402

TRACES = 24  # links traced per site, spread over the design


def main(design_path: str, out_path: str) -> None:
    design = load_design(design_path)
    plant = CablePlant(design)
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    layout = structured_layout(plant)
    structured = layout.structured_links()
    trunks = sum(t.quantity for t in layout.trunks if set(t.links) & structured)
    catalog = structured_catalog()
    mpo_panels = sum(
        math.ceil(n / catalog.panels[MPO_PANEL].front_ports) for n in layout.mpo_ports.values()
    )
    enclosures = sum(
        math.ceil(n / catalog.panels[LC_ENCLOSURE].slots) for n in layout.cassettes.values()
    )
    cables = export.rows("08_cables") + export.rows("09_backplane_cables")
    names = {row[0]: row for row in export.rows("07_devices")}
    device_name = {str(row[12]).removeprefix("Hallwright "): row[0] for row in names.values()}
    links = sorted(design.links)
    step = max(1, len(links) // TRACES)
    traces = []
    for link_id in links[::step][:TRACES]:
        link = design.links[link_id]
        traces.append(
            {
                "from": [device_name[link.a.device], interface_name(link.a.port)],
                "to": [device_name[link.b.device], interface_name(link.b.port)],
                "through_panels": link_id in structured,
            }
        )
    expected = {
        "site": export.site,
        "devices": len(design.devices) + mpo_panels + enclosures,
        "patch_panels": mpo_panels + enclosures,
        "interfaces": sum(len(design.ports(d)) for d in design.devices.values()),
        "cables": len(design.links) + len(structured) + trunks,
        "cabled_ports": 2 * len(design.links),
        "cabled_front_ports": 2 * len(structured),
        "cabled_rear_ports": 2 * trunks,
        "modules": len(export.rows("10_modules")),
        "lengths": {row[10]: row[11] for row in cables},
        "traces": traces,
    }
    Path(out_path).write_text(json.dumps(expected, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:3])
