"""The backplane cables of the NetBox export, built as columns, are the rows the row-by-row
version made (kept here as the oracle): same cells, same order, labels of their own (long ones
fitted to NetBox's limit) and default ones."""

from __future__ import annotations

import msgspec
import numpy as np

from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.netbox.cables import CABLE_HEADER, backplane_cables, cable_row
from model.outputs.netbox.export import netbox_tables
from model.outputs.netbox.names import LABEL_MAX
from model.outputs.schedule import schedule_rows


def reference_backplane(design, plant, site, device_names, rack_names) -> list[tuple]:
    """The row-by-row ``backplane_cables`` of before (kept as the oracle)."""
    backplane = [k for k, m in enumerate(plant.media) if m.kind == "backplane"]
    rows = np.flatnonzero(np.isin(np.asarray(plant.medium_index), backplane)).tolist()
    out = []
    for link_id in sorted(plant.link_ids[r] for r in rows):
        if link_id not in design.links:
            continue
        medium = plant.medium(link_id)
        link = design.links[link_id]
        a, b = link.a, link.b
        da, db = design.devices[a.device], design.devices[b.device]
        label = link.label or (
            f"{rack_names[da.rack]}-U{da.u}-{a.port} to {rack_names[db.rack]}-U{db.u}-{b.port}"
        )
        out.append(cable_row(site, device_names, a, b, medium, label, None))
    out.sort(key=lambda r: (r[1], r[3], r[5], r[7]))
    return out


def _site_names(design):
    names = {d.id: f"dev-{d.id}" for d in design.devices.values()}
    racks = {r.id: f"rack-{r.name}" for r in design.racks.values()}
    return names, racks


def test_backplane_columns_equal_the_rows_of_before():
    design = generate("nvl72", racks=2)
    plant = RoutedLinks(design)
    backplane = [
        lid for lid in plant.link_ids if plant.medium(lid) and plant.medium(lid).kind == "backplane"
    ]
    assert len(backplane) > 100
    # Labels of their own: short, padded with spaces, and longer than NetBox takes.
    own = {backplane[0]: "NVL-1", backplane[5]: "  padded  ", backplane[9]: "x" * (LABEL_MAX + 9)}
    design.update_links(
        [msgspec.structs.replace(design.links[lid], label=text) for lid, text in own.items()]
    )
    plant = RoutedLinks(design)
    names, racks = _site_names(design)
    got = backplane_cables(design, plant, "site-1", names, racks)
    assert got.header == CABLE_HEADER
    assert got.rows() == reference_backplane(design, plant, "site-1", names, racks)


def test_a_design_without_a_backplane_has_an_empty_table():
    design = generate(
        "rail-optimized", nodes=32, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32
    )
    plant = RoutedLinks(design)
    names, racks = _site_names(design)
    assert len(backplane_cables(design, plant, "s", names, racks)) == 0
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    assert len(export.tables["09_backplane_cables"]) == 0
