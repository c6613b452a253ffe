"""What NetBox must hold after importing a design: counts from the design, lengths by label.

Run with Hallwright's Python: ``expected.py DESIGN.hall.json OUT.json``. The live driver runs in
NetBox's own environment and compares the database with this file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from model.bom import schedule_rows  # noqa: E402
from model.cabling import CablePlant  # noqa: E402
from model.export.netbox import netbox_tables  # noqa: E402
from model.fileio import load_design  # noqa: E402


def main(design_path: str, out_path: str) -> None:
    design = load_design(design_path)
    plant = CablePlant(design)
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    cables = export.rows("08_cables") + export.rows("09_backplane_cables")
    lengths = {row[10]: row[11] for row in cables}
    expected = {
        "site": export.site,
        "devices": len(design.devices),
        "interfaces": sum(len(design.ports(d)) for d in design.devices.values()),
        "cables": len(design.links),
        "cabled_ports": 2 * len(design.links),
        "modules": len(export.rows("10_modules")),
        "lengths": lengths,
    }
    Path(out_path).write_text(json.dumps(expected, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:3])
