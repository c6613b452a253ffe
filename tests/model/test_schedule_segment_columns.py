"""The per-segment schedule made column-wise is the one made row by row before (the oracle,
tests/model/schedule_segments_oracle.py): cassettes, polarity records, links the schedule turns
round, links routed via panels by hand, cords too long to order, and links that stay direct."""

from __future__ import annotations

from model.design.structured_edit import place_panel, route_via
from model.engine.routed_links import RoutedLinks
from model.outputs.schedule import ScheduleTable, schedule_table
from model.outputs.schedule_segments import segment_columns
from model.plant.physical_plant import build_plant
from tests.builders import link, rack
from tests.model import schedule_segments_oracle as oracle
from tests.model.test_channel_table import _mixed, pod_file  # noqa: F401 (a fixture)
from tests.model.test_structured_layout import two_rack_hall


def _both(design) -> tuple[list[tuple], list[tuple]]:
    """(the rows made column-wise, the oracle's rows) of ``design``'s schedule."""
    plant = RoutedLinks(design)
    phys = build_plant(plant, with_links=True)
    links = schedule_table(design, plant, phys, segments=False)
    columns = segment_columns(design, plant, links.codes, phys.structured)
    assert columns is not None
    got = list(ScheduleTable(columns).tuples())
    return got, oracle.segment_rows(design, plant, list(links.tuples()), phys.structured)


def test_a_pod_with_cassettes_and_polarity_records_gets_the_oracles_rows(pod_file):  # noqa: F811
    got, want = _both(_mixed(pod_file))
    assert len(got) > 2 * len({row[1] for row in got})  # cords and trunks listed
    assert {row[13] for row in got} >= {"patch-cord", "trunk"}
    assert got == want


def routed_by_hand():
    """Two racks of SR4 links: l-1 via a panel ~68 m away and the near one, l-3 via the near
    panel only, l-4 listed leaf to server."""
    design = two_rack_hall(12.0, "sr4-400g", nics=3)
    link(design, "l-4", ("leaf1", "p4"), ("a1", "nic4"), medium="sr4-400g")
    rack(design, "far", 70.0, 3.0)
    far = place_panel(design, "far", "panel-mpo-1u-72")
    near = place_panel(design, "n1", "panel-mpo-1u-72")
    route_via(design, "l-1", [far.id, near.id])
    route_via(design, "l-3", [near.id])
    return design


def test_links_routed_via_panels_by_hand_get_the_oracles_rows():
    # l-1 via a panel ~68 m away (its A cord cannot be ordered), l-3 via the near panel
    # only, the others the style's path; l-1..l-3 run server to leaf (the schedule lists them
    # from the leaf's end, which sorts first), l-4 leaf to server (listed as it is).
    got, want = _both(routed_by_hand())
    assert {row[1] for row in got} == {"l-1", "l-2", "l-3", "l-4"}
    starts = {row[1]: row[5] for row in reversed(got)}  # each link's first row's A device
    assert starts["l-1"] == "leaf1" and starts["l-4"] == "leaf1"
    assert got == want
