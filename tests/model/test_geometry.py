"""Hand-computed routed lengths: same rack, adjacent racks, rows joined by a tray corner, no path.

Heights: U = 0.04445 m, U1 starts 0.1 m above the floor; a DGX H100 (8U) at U2 has its ports at
0.1 + 5 U = 0.32225 m, a QM9700 (1U) at U20 at 0.1 + 19.5 U = 0.966775 m. Overhead trays at the
hall's 2.9 m. Racks are 0.6 x 1.2 m at rotation 0 (front up the page), ports on the rear, so the
drop point is at y + 0.6. Slack is zero unless a test sets it.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from model.design.entities import Settings, Tray
from model.engine.geometry import FACE_FRONT, FACE_REAR, drop_points, port_position
from model.engine.routed_links import NO_TRAY_PATH, SAME_RACK, UNREACHED_RACK, RoutedLinks
from tests.builders import device, empty_hall, link, rack

DGX_U2 = 0.1 + 5 * 0.04445
DGX_U12 = 0.1 + 15 * 0.04445
QM_U20 = 0.1 + 19.5 * 0.04445
TRAY = 2.9


def layout(slack_per_end: float = 0.0, slack_pct: float = 0.0):
    """r1, r2 adjacent in row 1 (y = 3.0); r3 in row 2 (y = 6.6); r4 far from any tray."""
    design = empty_hall(12.0, 9.0)
    design.set_settings(Settings(slack_per_end_m=slack_per_end, slack_pct=slack_pct))
    rack(design, "r1", 1.5, 3.0)
    rack(design, "r2", 2.1, 3.0)
    rack(design, "r3", 3.0, 6.6)
    rack(design, "r4", 10.0, 1.0)
    design.add_trays(
        [
            Tray(id="t1", points=[(0.6, 3.6), (6.0, 3.6)]),
            Tray(id="t2", points=[(6.0, 3.6), (6.0, 7.2), (2.0, 7.2)]),  # corner down to row 2
        ]
    )
    device(design, "s1", "r1", 2, "dgx-h100")
    device(design, "s2", "r1", 12, "dgx-h100")
    device(design, "sw2", "r2", 20, "qm9700")
    device(design, "sw3", "r3", 20, "qm9700")
    device(design, "sw4", "r4", 20, "qm9700")
    link(design, "same", ("s1", "nic1"), ("s2", "nic1"))
    link(design, "adjacent", ("s1", "nic2"), ("sw2", "p1"))
    link(design, "corner", ("s1", "nic3"), ("sw3", "p1"))
    link(design, "nopath", ("s1", "nic4"), ("sw4", "p1"))
    return design


def test_same_rack_is_vertical_distance_between_ports():
    plant = RoutedLinks(layout())
    route = plant.route("same")
    assert route.method == "same-rack"
    assert route.total_m == pytest.approx(DGX_U12 - DGX_U2)
    assert plant.status[plant.index["same"]] == SAME_RACK
    # s1's cage 1 also carries "adjacent" (to sw2): its ports go to two far cages, so the cage
    # takes a twin-port module and "same" a 1 m fibre, not a 0.5 m DAC.
    assert plant.medium("same").id == "sr4-400g" and plant.ordered_m[plant.index["same"]] == 1.0


def test_adjacent_racks_go_up_along_the_tray_and_down():
    plant = RoutedLinks(layout())
    route = plant.route("adjacent")
    assert route.method == "tray"
    assert route.vertical_a_m == pytest.approx(TRAY - DGX_U2)
    assert route.vertical_b_m == pytest.approx(TRAY - QM_U20)
    assert route.hop_a_m == pytest.approx(0) and route.hop_b_m == pytest.approx(0)
    assert route.tray_m == pytest.approx(0.6)
    assert route.total_m == pytest.approx(TRAY - DGX_U2 + 0.6 + TRAY - QM_U20)
    assert route.tray_ids == ["t1"]


def test_rows_joined_by_a_tray_corner():
    plant = RoutedLinks(layout())
    route = plant.route("corner")
    # along t1 from x 1.5 to 6.0, down t2 from y 3.6 to 7.2, back along t2 from x 6.0 to 3.0
    assert route.tray_m == pytest.approx(4.5 + 3.6 + 3.0)
    assert route.total_m == pytest.approx(TRAY - DGX_U2 + 11.1 + TRAY - QM_U20)
    assert route.tray_ids == ["t1", "t2"]
    assert np.allclose(route.points, [(1.5, 3.6), (6.0, 3.6), (6.0, 7.2), (3.0, 7.2)])


def test_no_tray_path_runs_on_the_floor_and_warns():
    plant = RoutedLinks(layout())
    row = plant.index["nopath"]
    route = plant.route("nopath")
    assert route.method == "no-tray-path"
    # down to the floor, Manhattan between drop points (1.5, 3.6) and (10.0, 1.6), up again
    assert route.floor_m == pytest.approx(8.5 + 2.0)
    assert route.total_m == pytest.approx(DGX_U2 + 10.5 + QM_U20)
    assert plant.status[row] == NO_TRAY_PATH | UNREACHED_RACK
    codes = [(f.code, f.severity, f.objects[0]) for f in plant.findings()]
    assert ("NO_TRAY_PATH", "warning", "r4") in codes


def test_racks_on_trays_that_do_not_meet_have_no_tray_path():
    design = layout()
    design.add_trays([Tray(id="t9", points=[(9.0, 1.6), (11.0, 1.6)])])  # r4 reached, island
    plant = RoutedLinks(design)
    row = plant.index["nopath"]
    assert plant.status[row] == NO_TRAY_PATH
    finding = next(f for f in plant.findings() if f.code == "NO_TRAY_PATH")
    assert set(finding.objects[:2]) == {"r1", "r4"} and "nopath" in finding.objects


def test_trays_within_join_tolerance_join_and_elevation_step_counts():
    design = layout()
    # t1 stops 0.2 m short of a new tray at 3.2 m: joined (tolerance 0.3) with 0.2 + 0.3 m
    design.update_trays([Tray(id="t1", points=[(0.6, 3.6), (5.8, 3.6)])])
    design.update_trays(
        [Tray(id="t2", points=[(6.0, 3.6), (6.0, 7.2), (2.0, 7.2)], elevation_m=3.2)]
    )
    route = RoutedLinks(design).route("corner")
    assert route.tray_m == pytest.approx(4.3 + 0.2 + 0.3 + 3.6 + 3.0)
    assert route.vertical_b_m == pytest.approx(3.2 - QM_U20)


def test_slack_settings_applied():
    base = RoutedLinks(layout()).route("corner").total_m
    route = RoutedLinks(layout(slack_per_end=0.5, slack_pct=10.0)).route("corner")
    assert route.slack_m == pytest.approx(1.0 + 0.1 * base)
    assert route.total_m == pytest.approx(base * 1.1 + 1.0)
    same = RoutedLinks(layout(slack_per_end=0.5, slack_pct=10.0)).route("same")
    assert same.total_m == pytest.approx((DGX_U12 - DGX_U2) * 1.1 + 1.0)


@pytest.mark.parametrize(
    "rotation, rear", [(0, (5.0, 5.6)), (90, (4.4, 5.0)), (180, (5.0, 4.4)), (270, (5.6, 5.0))]
)
def test_rotation_moves_the_drop_points(rotation, rear):
    x, y = drop_points(
        np.array([5.0]),
        np.array([5.0]),
        np.array([rotation]),
        np.array([1.2]),
        np.array([FACE_REAR]),
    )
    assert (x[0], y[0]) == pytest.approx(rear)
    fx, fy = drop_points(
        np.array([5.0]),
        np.array([5.0]),
        np.array([rotation]),
        np.array([1.2]),
        np.array([FACE_FRONT]),
    )
    assert (fx[0], fy[0]) == pytest.approx((10.0 - rear[0], 10.0 - rear[1]))
    assert port_position(5.0, 5.0, rotation, 1.2, FACE_REAR, 0.5) == pytest.approx((*rear, 0.5))


def test_rotating_a_rack_changes_its_route():
    design = layout()
    plant = RoutedLinks(design)
    before = plant.route("adjacent")
    design.rotate_racks({"r2": 180})  # rear now faces up the page: drop at (2.1, 2.4)
    assert "adjacent" in plant.refresh()
    after = plant.route("adjacent")
    assert after.hop_b_m == pytest.approx(1.2)
    assert after.total_m == pytest.approx(before.total_m + 1.2)
    assert after.points[-1] == pytest.approx((2.1, 2.4))


def test_under_floor_tray_runs_below_the_floor():
    design = layout()
    design.set_hall(
        design.hall.__class__(outline=design.hall.outline, raised_floor=True, floor_void_m=0.6)
    )
    design.update_trays(
        [
            Tray(id="t1", points=[(0.6, 3.6), (6.0, 3.6)], under_floor=True),
            Tray(id="t2", points=[(6.0, 3.6), (6.0, 7.2), (2.0, 7.2)], under_floor=True),
        ]
    )
    route = RoutedLinks(design).route("adjacent")
    assert route.vertical_a_m == pytest.approx(DGX_U2 + 0.3)
    assert route.vertical_b_m == pytest.approx(QM_U20 + 0.3)


def test_all_pairs_and_lazy_dijkstra_rows_agree():
    from model.engine.tray_graph import TrayGraph
    from tests.benchmarks.synthetic import synthetic_hall

    design = synthetic_hall(2048)
    args = (list(design.trays.values()), design.hall, design.settings.tray_join_tolerance_m)
    everything, lazy = TrayGraph(*args), TrayGraph(*args, all_pairs_max_nodes=0)
    nodes = np.arange(everything.node_count)
    full, full_index = everything.rows(nodes)
    some, some_index = lazy.rows(nodes[::3])
    assert np.allclose(full[full_index[nodes[::3]]], some[some_index[nodes[::3]]])
    assert len(lazy._rows) == len(nodes[::3])


def test_small_pod_file_agrees_with_a_tape_measure():
    from pathlib import Path

    from model.files.design_file import load_design

    design = load_design(Path(__file__).parents[1] / "data/golden-v1.hall.json")
    route = RoutedLinks(design).route("l-1")  # a1 (R1, U2) nic1 -> leaf1 (N1, U20)
    # rear drops at y 3.6, tray along the row centre y 3.0: 0.6 m hop each end, 0.6 m along
    run = (TRAY - DGX_U2) + 0.6 + 0.6 + 0.6 + (TRAY - QM_U20)
    assert route.total_m == pytest.approx(run * 1.05 + 2 * 0.5)
    assert route.tray_ids == ["t-row"]


def test_lazy_and_all_pairs_distances_agree_on_random_points():
    from model.engine.tray_graph import TrayGraph
    from tests.benchmarks.synthetic import synthetic_hall

    design = synthetic_hall(2048)
    args = (list(design.trays.values()), design.hall, design.settings.tray_join_tolerance_m)
    rng = np.random.default_rng(7)
    x, y = rng.uniform(0, 50, 400), rng.uniform(0, 30, 400)
    a, b = rng.permutation(400), np.arange(400)
    results = []
    for graph in (TrayGraph(*args), TrayGraph(*args, all_pairs_max_nodes=0)):
        att = graph.attach(x, y, 3.0)
        results.append(graph.distance(att, a, att, b))
    assert np.isfinite(results[0]).sum() > 100
    assert np.allclose(results[0], results[1], equal_nan=True)


def test_drawn_path_is_as_long_as_the_routed_pieces():
    from tests.benchmarks.synthetic import synthetic_hall

    design = synthetic_hall(2048)
    plant = RoutedLinks(design)
    for link_id in plant.link_ids[::997]:
        route = plant.route(link_id)
        drawn = sum(np.hypot(q[0] - p[0], q[1] - p[1]) for p, q in pairwise(route.points))
        assert drawn == pytest.approx(route.hop_a_m + route.tray_m + route.hop_b_m, abs=1e-6)
        assert route.tray_ids and all(t in design.trays for t in route.tray_ids)
