"""Two device types whose names slug alike ("Acme X1", "acme-x1") both reach the NetBox export:
distinct slugs, one YAML file each; a catalog type keeps its plain slug."""

from __future__ import annotations

import json

from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes
from model.outputs.netbox.export import netbox_tables, write_netbox_dir
from model.outputs.schedule import schedule_rows
from tests.builders import small_pod
from tests.fuzz.mutator import _fuzz_type


def test_types_that_slug_alike_both_reach_the_export(tmp_path):
    doc = json.loads(design_to_bytes(small_pod()))
    types = doc.setdefault("custom_types", {}).setdefault("device_types", [])
    types.append(_fuzz_type(id="acme-1", vendor="Acme", model="Acme X1"))
    types.append(_fuzz_type(id="acme-2", vendor="Acme", model="acme-x1"))
    for n, (type_id, rack) in enumerate(zip(("acme-1", "acme-2"), doc["racks"], strict=False)):
        doc["devices"].append(
            {
                "id": f"x{n}",
                "name": f"x{n}",
                "type": type_id,
                "rack": rack["id"],
                "u": 40,
                "role": "leaf",
            }
        )
    design = read_design_bytes(json.dumps(doc).encode(), "slugs.hall.json")
    plant = RoutedLinks(design)
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    slugs = [v.slug for v in export.device_types]
    assert len(slugs) == len(set(slugs))
    acme = sorted(v.slug for v in export.device_types if v.dtype.vendor == "Acme")
    assert len(acme) == 2 and acme[0] == "acme-acme-x1" and acme[1].startswith("acme-acme-x1-")
    assert "nvidia-quantum-2-qm9700" in slugs  # no collision: the plain slug, as before
    written = write_netbox_dir(tmp_path / "nb", export)
    yaml = [p.name for p in written if p.name.startswith("acme-")]
    assert sorted(yaml) == sorted(f"{s}.yaml" for s in acme)
