"""The physical plant kept by a PlantCache equals a plant built from scratch after any edits."""

from __future__ import annotations

import dataclasses

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from model.generators.generate import rail_optimized
from model.plant.physical_plant import PlantCache, build_plant

EDITS = st.lists(
    st.tuples(
        st.sampled_from(["move", "far", "pin", "unpin", "unlink", "restore", "policy"]),
        st.integers(0, 10_000),
        st.floats(-6.0, 6.0),
    ),
    min_size=1,
    max_size=6,
)
POLICIES = ("lowest-cost", "lowest-power", "copper-first", "fibre-only")


def _design():
    return rail_optimized(nodes=16, node_type="dgx-h100", switch="qm9700", su_nodes=8)


def _plant_dict(phys) -> dict:
    """The plant as a dict, without the BOM's ``needed_m`` (the metres each line serves before
    rounding up): only a BOM build (no cache) computes it; the analysis's cached plant counts
    the same parts without it."""
    out = dataclasses.asdict(phys)
    for item in out["items"]:
        item.pop("needed_m", None)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS)
def test_cached_plant_equals_a_fresh_build_after_any_edits(edits):
    design = _design()
    plant = RoutedLinks(design)
    plant.refresh()
    cache = PlantCache()
    snapshots = Snapshotter(design, plant)
    build_plant(snapshots.take()[1], cache=cache)
    removed = []
    media = [m.id for m in plant.media]
    for op, n, dx in edits:
        racks, links = list(design.racks), list(design.links)
        rack = design.racks[racks[n % len(racks)]]
        if op == "move":
            design.move_racks({rack.id: (rack.x + dx, rack.y)})
        elif op == "far":  # far enough to change media (copper out of reach)
            design.move_racks({rack.id: (rack.x, rack.y + 4 * dx)})
        elif op == "pin" and links:
            link = design.links[links[n % len(links)]]
            medium = media[n % len(media)]
            design.update_links([msgspec.structs.replace(link, medium=medium)])
        elif op == "unpin" and links:
            link = design.links[links[n % len(links)]]
            design.update_links([msgspec.structs.replace(link, medium="auto")])
        elif op == "unlink" and links:
            removed.append(design.remove_links([links[n % len(links)]]))
        elif op == "restore" and removed:
            design.restore(removed.pop())
        elif op == "policy":
            design.set_settings(
                msgspec.structs.replace(design.settings, media_policy=POLICIES[n % 4])
            )
        plant.refresh()
        _, frozen = snapshots.take()  # the analysis worker reads snapshots: copies each time
        assert _plant_dict(build_plant(frozen, cache=cache)) == _plant_dict(build_plant(frozen))
    snapshots.close()
    plant.close()


def test_a_rack_move_recounts_only_the_components_of_its_links():
    design = _design()
    plant = RoutedLinks(design)
    plant.refresh()
    cache = PlantCache()
    build_plant(plant, cache=cache)
    assert cache.recounted_rows == len(plant.link_ids)
    rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
    design.move_racks({rack.id: (rack.x + 1.5, rack.y)})
    changed = plant.refresh()
    assert changed  # the move changed some lengths
    build_plant(plant, cache=cache)
    assert 0 < cache.recounted_rows < len(plant.link_ids) / 2
    assert _plant_dict(build_plant(plant, cache=cache)) == _plant_dict(build_plant(plant))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS)
def test_a_links_component_rows_follow_every_edit(edits):
    """``component_of`` (kept from one refresh to the next while no edit relabels the cage
    graph) always names the rows whose cages are joined to the link's, as a fresh plant does."""
    design = _design()
    plant = RoutedLinks(design)
    plant.refresh()
    removed = []
    media = [m.id for m in plant.media]
    for op, n, dx in edits:
        racks, links = list(design.racks), list(design.links)
        rack = design.racks[racks[n % len(racks)]]
        if op in ("move", "far"):
            design.move_racks({rack.id: (rack.x + dx, rack.y + (4 * dx if op == "far" else 0))})
        elif op == "pin" and links:
            link = design.links[links[n % len(links)]]
            design.update_links([msgspec.structs.replace(link, medium=media[n % len(media)])])
        elif op == "unlink" and links:
            removed.append(design.remove_links([links[n % len(links)]]))
        elif op == "restore" and removed:
            design.restore(removed.pop())
        plant.refresh()
        if not plant.link_ids:
            continue
        fresh = RoutedLinks(design)
        fresh.refresh()
        for link_id in list(design.links)[n % 7 :: 7]:
            mine = sorted(plant.link_ids[r] for r in plant.component_of(link_id).tolist())
            theirs = sorted(fresh.link_ids[r] for r in fresh.component_of(link_id).tolist())
            assert mine == theirs and link_id in mine
        fresh.close()
    plant.close()


def test_a_cache_that_keeps_nothing_counts_as_one_that_keeps():
    """``PlantCache(keep=False)`` (a one-shot analysis's) gives every call the plant a kept
    cache gives, after a rack move too, and holds no graph, count or copy between calls."""
    design = _design()
    plant = RoutedLinks(design)
    plant.refresh()
    kept, one_shot = PlantCache(), PlantCache(keep=False)
    for dx in (0.0, 5.0):
        if dx:
            rack = next(iter(design.racks.values()))
            design.move_racks({rack.id: (rack.x, rack.y + 4 * dx)})
            plant.refresh()
        expected = dataclasses.asdict(build_plant(plant, cache=kept))
        assert dataclasses.asdict(build_plant(plant, cache=one_shot)) == expected
        assert one_shot._key is one_shot._graph is one_shot._tally is None
        assert one_shot._inputs is one_shot._shares is one_shot._power is None
    plant.close()
