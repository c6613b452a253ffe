"""The plant's rows of a moved rack (read from its drop columns) are its design's links."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.design.records import DesignError
from model.engine.routed_links import RoutedLinks
from model.generators.generate import rail_optimized

EDITS = st.lists(
    st.tuples(
        st.sampled_from(["move", "device", "unlink", "restore"]),
        st.integers(0, 10_000),
        st.floats(-3.0, 3.0),
    ),
    min_size=1,
    max_size=8,
)


def _ids_of_rows(plant: RoutedLinks, rack_id: str) -> set[str]:
    return {plant.link_ids[r] for r in plant._rows_of_racks([rack_id]).tolist()}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS)
def test_rows_of_every_rack_are_its_links_after_any_edits(edits):
    design = rail_optimized(nodes=16, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    plant = RoutedLinks(design)
    plant.refresh()
    removed = []
    racks = list(design.racks)
    for op, n, dx in edits:
        rack = design.racks[racks[n % len(racks)]]
        if op == "move":
            design.move_racks({rack.id: (rack.x + dx, rack.y)})
        elif op == "device":  # a switch taken into another rack: its links change racks
            device = next(
                d for d in sorted(design.devices.values(), key=lambda d: d.id) if d.role != "gpu"
            )
            for u in range(1, 48):  # the first free slot of the rack (none: no edit)
                try:
                    design.move_devices({device.id: (rack.id, u)})
                    break
                except DesignError:
                    continue
        elif op == "unlink":
            links = sorted(design.links)
            removed.append(design.remove_links([links[n % len(links)]]))
        elif op == "restore" and removed:
            design.restore(removed.pop())
        plant.refresh()
        # Asked after each edit, as the optimiser's moves ask: the kept rows must stay right.
        for rack_id in racks:
            assert _ids_of_rows(plant, rack_id) == design.links_of_racks([rack_id]), rack_id
    plant.close()
