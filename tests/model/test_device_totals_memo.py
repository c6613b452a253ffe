"""build_plant's device totals (cages of every device) kept by a PlantCache across the editor's
snapshots: a snapshot that shares the last one's devices reads them back, one after a device
edit counts them again, and both equal a build without a cache."""

from __future__ import annotations

from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from model.generators.generate import rail_optimized
from model.plant import physical_plant
from model.plant.physical_plant import PlantCache, build_plant


def test_snapshots_sharing_devices_keep_the_totals_and_a_device_edit_recounts(monkeypatch):
    design = rail_optimized(nodes=16, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    plant = RoutedLinks(design)
    plant.refresh()
    snapshots = Snapshotter(design, plant)
    cache = PlantCache()
    first_design, first_plant = snapshots.take()
    build_plant(first_plant, cache=cache)
    counted = []
    count = physical_plant._count_cages
    monkeypatch.setattr(physical_plant, "_count_cages", lambda d: counted.append(d) or count(d))

    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 0.6, rack.y)})  # no device edit
    plant.refresh()
    moved_design, moved_plant = snapshots.take()
    assert moved_design is not first_design and moved_design.devices is first_design.devices
    kept = build_plant(moved_plant, cache=cache)
    assert counted == []
    assert kept.cages_total == build_plant(moved_plant).cages_total

    server = next(d for d in design.devices.values() if "dgx" in d.type)
    design.remove_devices([server.id])
    plant.refresh()
    edited_design, edited_plant = snapshots.take()
    counted.clear()
    recounted = build_plant(edited_plant, cache=cache)
    assert counted == [edited_design]
    assert recounted.cages_total == build_plant(edited_plant).cages_total
    assert recounted.cages_total < kept.cages_total
