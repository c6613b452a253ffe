"""The editor's analysis pipeline on snapshots: a snapshot does not follow later edits, and an
Analyzer fed snapshots and change events (as the worker is) gives the full analysis; the tray
bundles after an incremental update equal a full recount."""

from __future__ import annotations

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from model.analysis import Analyzer, analyze
from model.analysis.tray_fill import TrayFill
from model.catalog.components import medium_group
from model.design.entities import Tray
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter, freeze_plant, snapshot
from model.files.design_file import design_to_bytes, read_design_bytes
from tests.analysis_fabrics import clos
from tests.benchmarks.workloads import build


def group(medium) -> str:
    return medium_group(medium.kind)


def fabric():
    design = clos(
        pods=2,
        leaves_per_pod=2,
        servers_per_leaf=2,
        nics=2,
        spines_per_pod=2,
        leaf_spine_links=1,
        cores=2,
        spine_core_links=1,
        hall_m=40.0,
    )
    design.add_trays(
        [
            Tray(id="t1", points=[(0.0, 6.5), (30.0, 6.5)], width_m=0.05, depth_m=0.05),
            Tray(id="t2", points=[(2.0, 0.0), (2.0, 30.0)], width_m=0.3, depth_m=0.1),
        ]
    )
    return design


def figures(report) -> dict:
    return {
        "json": report.to_json(),
        "fill": report.tray_fill,
        "racks": report.rack_power_w,
        "switches": report.switch_oversubscription,
    }


def test_a_snapshot_is_independent_of_later_edits():
    design = fabric()
    plant = RoutedLinks(design)
    saved = design_to_bytes(design)
    frozen, frozen_plant = snapshot(design, plant)
    before = figures(analyze(frozen, frozen_plant))
    lengths = frozen_plant.length_m.copy()
    # Edit the live design every way the plant and the analysis care about, and refresh.
    racks = list(design.racks)
    design.move_racks({racks[0]: (25.0, 25.0), racks[-1]: (3.0, 28.0)})
    design.remove_links(list(design.links)[:5])
    design.remove_devices([next(iter(design.devices))])
    design.update_trays(
        [Tray(id="t1", points=[(0.0, 9.0), (30.0, 9.0)], width_m=0.1, depth_m=0.05)]
    )
    plant.refresh()
    assert figures(analyze(design, plant)) != before  # the edits did change the analysis
    assert figures(analyze(frozen, frozen_plant)) == before
    assert (frozen_plant.length_m == lengths).all()
    assert design_to_bytes(frozen) == saved
    # ... and it is the analysis of the design as it was saved at that revision.
    reloaded = read_design_bytes(saved)
    assert figures(analyze(reloaded, RoutedLinks(reloaded))) == before


def test_a_snapshots_arrays_cannot_be_written():
    """Immutable, not only unshared: a write into a snapshot's arrays raises instead of changing
    what another job or a published result reads."""
    design = fabric()
    plant = RoutedLinks(design)
    _frozen, frozen_plant = snapshot(design, plant)
    arrays = [v for v in vars(frozen_plant).values() if isinstance(v, np.ndarray)]
    assert arrays and not any(a.flags.writeable for a in arrays)
    with pytest.raises(ValueError):
        frozen_plant.length_m[0] = 1.0
    assert plant.length_m.flags.writeable  # the live plant's own arrays are untouched


def test_a_snapshot_refuses_a_plant_with_unapplied_edits():
    design = fabric()
    plant = RoutedLinks(design)
    design.move_racks({next(iter(design.racks)): (20.0, 20.0)})
    try:
        snapshot(design, plant)
    except ValueError as exc:
        assert "refresh" in str(exc)
    else:
        raise AssertionError("a snapshot of a stale plant was taken")


EDITS = st.lists(
    st.tuples(
        st.sampled_from(["move", "rotate", "unlink", "remove_device", "restore", "tray", "pin"]),
        st.integers(0, 10_000),
        st.floats(0.5, 30.0),
        st.floats(0.5, 30.0),
        st.booleans(),  # analyse after this edit (False: the next edit joins the same job)
    ),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: each case is slow
)
@given(EDITS)
def test_analyzer_fed_snapshots_equals_full_analysis(edits):
    """The worker's way: snapshot, change events and refreshed links since the last job."""
    design = fabric()
    plant = RoutedLinks(design)
    changes, changed_links = [], set()
    subscription = design.subscribe(changes.append)
    frozen, frozen_plant = snapshot(design, plant)
    analyzer = Analyzer(frozen, frozen_plant, subscribe=False, refresh_plant=False)
    analyzer.advance(frozen, frozen_plant, [], set())
    removed = []
    for op, n, x, y, analyse in [*edits, ("nothing", 0, 0.0, 0.0, True)]:
        racks, links, devices = list(design.racks), list(design.links), list(design.devices)
        if op == "move":
            design.move_racks({racks[n % len(racks)]: (x, y)})
        elif op == "rotate":
            design.rotate_racks({racks[n % len(racks)]: 90 * (n % 4)})
        elif op == "unlink" and links:
            removed.append(design.remove_links([links[n % len(links)]]))
        elif op == "remove_device" and devices:
            removed.append(design.remove_devices([devices[n % len(devices)]]))
        elif op == "restore" and removed:
            design.restore(removed.pop())
        elif op == "tray":
            design.update_trays(
                [Tray(id="t1", points=[(0.0, y), (30.0, y)], width_m=0.01 + x / 300, depth_m=0.05)]
            )
        elif op == "pin" and links:
            link = design.links[links[n % len(links)]]
            design.update_links([msgspec.structs.replace(link, length_override_m=float(x))])
        changed_links |= plant.refresh()
        if not analyse:
            continue
        frozen, frozen_plant = snapshot(design, plant)
        report = analyzer.advance(frozen, frozen_plant, changes, changed_links)
        changes.clear()
        changed_links = set()
        assert figures(report) == figures(analyze(design, plant))
        fresh = TrayFill()
        fresh.update(design, plant, None)
        assert analyzer.cables_by_tray(group) == fresh.cables_by_tray(plant, group)
    subscription.close()


def test_bundles_after_rack_moves_equal_a_full_recount():
    design = fabric()
    plant = RoutedLinks(design)
    counted = TrayFill()
    counted.update(design, plant, None)
    first = counted.cables_by_tray(plant, group)
    assert sum(first.get("t2", {}).values()) > 0  # cables do run along the trays
    racks = list(design.racks)
    moves = [(racks[0], (3.5, 20.0)), (racks[2], (20.0, 7.5)), (racks[0], (1.0, 1.0))]
    for rack_id, place in moves:
        design.move_racks({rack_id: place})
        changed = plant.refresh()
        counted.update(design, plant, changed)
        incremental = counted.cables_by_tray(plant, group)
        full = TrayFill()
        full.update(design, plant, None)
        assert incremental == full.cables_by_tray(plant, group)
    assert incremental != first  # the moves did move cables between trays


def test_tray_fill_finds_the_moved_links_without_being_told():
    """The analyzer no longer lists a moved rack's links (their routes can change at an equal
    length, which the plant's refresh does not report): an update told of no link recounts
    every link whose route or medium changed, the fill and bundles of a full recount."""
    design = fabric()
    plant = RoutedLinks(design)
    counted = TrayFill()
    first = counted.update(design, plant, None)
    racks = list(design.racks)
    for rack_id, place in [
        (racks[0], (3.5, 20.0)),
        (racks[2], (20.0, 7.5)),
        (racks[0], (1.0, 1.0)),
    ]:
        design.move_racks({rack_id: place})
        plant.refresh()
        fill = counted.update(design, plant, set())
        full = TrayFill()
        assert fill == full.update(design, plant, None)
        assert counted.peak_at == full.peak_at
        assert counted.cables_by_tray(plant, group) == full.cables_by_tray(plant, group)
    assert fill != first  # the moves did change the fill


def test_successive_snapshots_share_only_what_no_edit_changed():
    design = fabric()
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    first, first_plant = snapshots.take()
    design.move_racks({next(iter(design.racks)): (3.5, 20.0)})
    plant.refresh()
    second, second_plant = snapshots.take()
    assert second.links is first.links and second_plant.index is first_plant.index
    assert second.racks is not first.racks and second.racks == design.racks
    assert first.racks != design.racks  # the earlier snapshot kept its rack positions
    design.remove_links([next(iter(design.links))])
    plant.refresh()
    third, third_plant = snapshots.take()
    assert third.links is not second.links and third.links == design.links
    assert third_plant.link_ids == plant.link_ids != second_plant.link_ids
    assert figures(analyze(third, third_plant)) == figures(analyze(design, plant))
    snapshots.close()


def test_a_primed_snapshot_is_handed_out_only_while_nothing_changed():
    design = fabric()
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    snapshots.prime()  # as the loading thread does, before anybody edits
    primed = snapshots.take()
    assert primed[0] is not design and figures(analyze(*primed)) == figures(analyze(design, plant))
    snapshots.prime()
    rack = next(iter(design.racks))
    design.move_racks({rack: (3.5, 20.0)})  # an edit after priming: the primed copy is stale
    plant.refresh()
    moved, moved_plant = snapshots.take()
    assert moved.racks[rack] == design.racks[rack] != primed[0].racks[rack]
    assert figures(analyze(moved, moved_plant)) == figures(analyze(design, plant))
    snapshots.close()


def test_a_snapshot_of_a_hall_without_links_analyses():
    design = fabric()
    design.remove_links(list(design.links))
    design.remove_devices(list(design.devices))
    plant = RoutedLinks(design)
    snap, snap_plant = snapshot(design, plant)
    assert figures(analyze(snap, snap_plant)) == figures(analyze(design, plant))


def _plant_arrays(plant) -> dict[str, np.ndarray]:
    return {n: v for n, v in vars(plant).items() if isinstance(v, np.ndarray) and v.size >= 4096}


def test_snapshots_reuse_only_arrays_nothing_holds_and_equal_fresh_copies():
    design = build("L")  # 49k links: columns big enough to be worth reusing
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    racks = list(design.racks)
    held_design, held_plant = snapshots.take()  # kept, as a running job keeps its snapshot
    held = {n: a.copy() for n, a in _plant_arrays(held_plant).items()}
    assert held  # the fabric is big enough for arrays worth reusing
    for step, rack_id in enumerate(racks[:6]):
        design.move_racks({rack_id: (3.5 + step, 20.0)})
        plant.refresh()
        _, snap_plant = snapshots.take()  # dropped at once, as a finished job drops its own
        # Every array equals what a fresh snapshot copies now...
        for name, array in _plant_arrays(freeze_plant(plant, design)).items():
            assert np.array_equal(getattr(snap_plant, name), array, equal_nan=True), name
            assert not getattr(snap_plant, name).flags.writeable
        del snap_plant
    # ...the snapshot still held never had an array overwritten...
    for name, array in _plant_arrays(held_plant).items():
        assert np.array_equal(array, held[name], equal_nan=True), name
    # ...and the dropped snapshots' memory was copied into again.
    assert snapshots._buffers.reused > 0
    snapshots.close()


def test_with_no_free_array_a_snapshot_shares_what_the_edit_left_as_it_was():
    """The first edit after opening finds every array of the first snapshot held (by the first
    analysis): the arrays a rack move did not change are then the first snapshot's own, the
    changed ones copies, and none of them follows later edits."""
    design = build("L")
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    _, first = snapshots.take()  # held, as the first analysis holds it
    kept = {n: a.copy() for n, a in _plant_arrays(first).items()}
    rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
    design.move_racks({rack.id: (rack.x + 1.2, rack.y)})
    assert plant.refresh()  # the move changed some lengths
    _, second = snapshots.take()
    arrays = _plant_arrays(second)
    shared = {n for n, a in arrays.items() if a is getattr(first, n)}
    assert shared and len(shared) < len(arrays)  # most arrays shared, the changed ones copied
    expected = {n: a.copy() for n, a in _plant_arrays(freeze_plant(plant, design)).items()}
    for name, array in arrays.items():
        assert np.array_equal(array, expected[name], equal_nan=True), name
        assert not array.flags.writeable
    for step in range(3):  # later edits and snapshots change neither snapshot
        design.move_racks({rack.id: (rack.x + 2.0 + step, rack.y)})
        plant.refresh()
        snapshots.take()
    for name, array in _plant_arrays(first).items():
        assert np.array_equal(array, kept[name], equal_nan=True), name
    for name, array in arrays.items():
        assert np.array_equal(array, expected[name], equal_nan=True), name
    snapshots.close()


def test_a_snapshots_part_tables_plug_a_new_cage_spec_as_the_live_plants_do():
    # The module list and each module's own fibre are dataclass fields of PartTables: a
    # snapshot (dataclasses.replace of init fields) once lost them, so a cage spec first seen
    # on the worker raised AttributeError and a refusal read no module's own fibre.
    design = fabric()
    plant = RoutedLinks(design)
    _, snap = snapshot(design, plant)
    assert snap is not None
    live, frozen = plant.parts, snap.parts
    assert frozen.medium_modules == live.medium_modules and frozen.medium_modules
    assert frozen.own_fibre == live.own_fibre
    spec = live.specs[0]
    new = type(spec)((*spec[:3], "no-such-family", spec[4]))
    row = live.spec_row(new)
    assert frozen.spec_row(new) == row
    assert {k: v for k, v in frozen.modules.items() if k[1] == row} == {
        k: v for k, v in live.modules.items() if k[1] == row
    }
    assert frozen.refused == live.refused
