"""RoutedLinks: incremental updates, flips across the copper/fibre boundary, pins, findings, CLI."""

from __future__ import annotations

import msgspec
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import run_cli
from model.design.entities import Settings, Tray
from model.engine.routed_links import NO_MEDIUM, PINNED_MISMATCH, PINNED_OUT_OF_REACH, RoutedLinks
from tests.builders import device, empty_hall, link, rack, small_pod


def row_pod():
    """r1 | n1 | r2 | r3 side by side, one tray over the rear edges, no slack. DGX to leaf is
    ~3 m: past the 2 m twin-port DAC, and NVIDIA's LACC is switch-to-switch only (NV-DAC-LACC),
    so the rails are multimode; leaf to spine (~3.3 m) is an LACC."""
    design = empty_hall(20.0, 8.0)
    design.set_settings(Settings(slack_per_end_m=0.0, slack_pct=0.0))
    for rack_id, x in (("r1", 1.5), ("n1", 2.1), ("r2", 2.7), ("r3", 3.3)):
        rack(design, rack_id, x, 3.0)
    design.add_trays(
        [
            Tray(id="t", points=[(0.6, 3.6), (19.0, 3.6)]),
            Tray(id="t-x", points=[(10.0, 3.6), (10.0, 7.0)]),
        ]
    )
    device(design, "leaf", "n1", 40, "qm9700")
    device(design, "spine", "r3", 40, "qm9700")
    for rack_id, server in (("r1", "a"), ("r2", "b")):
        device(design, server, rack_id, 30, "dgx-h100")
    n = 0
    for server in ("a", "b"):
        for nic in range(1, 5):
            n += 1
            link(design, f"{server}{nic}", (server, f"nic{nic}"), ("leaf", f"p{n}"))
    link(design, "up", ("leaf", "p64"), ("spine", "p64"))
    return design


def snapshot(plant):
    return {
        lid: (
            round(float(plant.routed_m[r]), 9),
            round(float(plant.length_m[r]), 9),
            float(plant.ordered_m[r]) if plant.ordered_m[r] == plant.ordered_m[r] else None,
            int(plant.medium_index[r]),
            int(plant.status[r]),
            float(plant.speed_gbps[r]),
        )
        for lid, r in plant.index.items()
    }


def test_moving_a_rack_across_the_copper_fibre_boundary_flips_exactly_its_links():
    design = row_pod()
    plant = RoutedLinks(design)
    assert [i for i in plant.link_ids if plant.medium(i).is_copper] == ["up"]
    design.move_racks({"r3": (9.3, 3.0)})  # the spine 6 m farther along the tray: > 5 m LACC
    assert plant.refresh() == {"up"}
    assert not any(plant.medium(i).is_copper for i in plant.link_ids)
    design.move_racks({"r3": (3.3, 3.0)})
    assert plant.refresh() == {"up"}
    assert plant.medium("up").is_copper
    assert plant.refresh() == set()


def test_a_small_rack_move_returns_the_links_whose_length_changed():
    design = row_pod()
    plant = RoutedLinks(design)
    design.move_racks({"r1": (1.5, 3.05)})  # hop 0.05 m: lengths change, media do not
    assert plant.refresh() == {"a1", "a2", "a3", "a4"}


def test_pinned_medium_out_of_reach_is_kept_and_warns():
    design = row_pod()
    plant = RoutedLinks(design)
    design.move_racks({"r2": (8.1, 3.0)})
    design.update_links([msgspec.structs.replace(design.links["b1"], medium="dac-400g")])
    assert "b1" in plant.refresh()
    row = plant.index["b1"]
    assert plant.medium("b1").id == "dac-400g"
    assert plant.status[row] & PINNED_OUT_OF_REACH and np.isnan(plant.ordered_m[row])
    found = [f for f in plant.findings() if f.code == "PINNED_MEDIUM_OUT_OF_REACH"]
    assert [(f.severity, f.objects[0]) for f in found] == [("warning", "b1")]
    assert "out of reach" in plant.reason("b1")


def test_pinned_medium_of_another_speed_warns():
    design = row_pod()
    plant = RoutedLinks(design)
    design.update_links([msgspec.structs.replace(design.links["a1"], medium="aoc-200g")])
    plant.refresh()
    assert plant.status[plant.index["a1"]] & PINNED_MISMATCH and plant.medium("a1").id == "aoc-200g"
    assert [f.code for f in plant.findings()] == ["PINNED_MEDIUM_MISMATCH"]
    assert "does not match" in plant.reason("a1")


def test_no_medium_reaches_is_an_error():
    design = row_pod()
    plant = RoutedLinks(design)
    # The uplink has its cages to itself (a rail shares its DGX cage with another rail)
    design.update_links([msgspec.structs.replace(design.links["up"], length_override_m=2500.0)])
    assert plant.refresh() == {"up"}
    assert plant.status[plant.index["up"]] & NO_MEDIUM and plant.medium("up") is None
    assert plant.routed_m[plant.index["up"]] < 10 and plant.length_m[plant.index["up"]] == 2500
    assert [(f.code, f.severity) for f in plant.findings()] == [("NO_MEDIUM_REACHES", "error")]


def test_as_built_length_wins_over_override_and_estimate():
    design = row_pod()
    plant = RoutedLinks(design)
    design.update_links(
        [msgspec.structs.replace(design.links["a1"], length_override_m=4.0, as_built_m=1.0)]
    )
    plant.refresh()
    assert plant.length_m[plant.index["a1"]] == 1.0
    # a1 and a2 share one twin-port module in each cage, each on its own fibre at its length
    a1, a2 = plant.index["a1"], plant.index["a2"]
    assert plant.medium("a1") == plant.medium("a2") and plant.medium("a1").kind == "mmf"
    assert plant.ordered_m[a1] == 1.0 and plant.ordered_m[a2] >= plant.length_m[a2] > 1.0
    # Both within the 2 m twin-port DAC: one straight cable, ordered at the longer link
    design.update_links([msgspec.structs.replace(design.links["a2"], as_built_m=2.0)])
    plant.refresh()
    assert plant.medium("a1").kind == "dac" and plant.ordered_m[a1] == plant.ordered_m[a2] == 2.0


def test_links_added_and_removed_follow_the_design():
    design = row_pod()
    plant = RoutedLinks(design)
    design.remove_links(["a2", "b3"])
    assert plant.refresh() == set() and "a2" not in plant.index and len(plant.link_ids) == 7
    link(design, "new", ("a", "nic2"), ("leaf", "p40"))
    # nic2 shares a's cage 1 with a1 (nic1 -> p1): the cage is now split between two leaf
    # cages; a1 was on a module and a fibre already, so it keeps them.
    assert plant.refresh() == {"new"}
    assert plant.medium("a1") == plant.medium("new") and plant.medium("a1").kind == "mmf"
    assert snapshot(plant) == snapshot(RoutedLinks(design))
    design.remove_racks(["r2"])
    plant.refresh()
    assert snapshot(plant) == snapshot(RoutedLinks(design))


def test_settings_and_tray_changes_recompute_everything():
    design = row_pod()
    plant = RoutedLinks(design)
    design.set_settings(Settings(slack_per_end_m=0.5, slack_pct=5.0))
    assert plant.refresh() == set(design.links)
    design.set_settings(Settings(slack_per_end_m=0.5, slack_pct=5.0, oversubscription_target=2.0))
    assert plant.refresh() == set()  # nothing the cables depend on
    design.remove_trays(["t"])
    plant.refresh()
    assert snapshot(plant) == snapshot(RoutedLinks(design))


def test_rack_device_and_link_added_in_one_batch():
    design = row_pod()
    plant = RoutedLinks(design)
    rack(design, "r9", 12.0, 3.0)
    device(design, "c", "r9", 30, "dgx-h100")
    link(design, "c1", ("c", "nic1"), ("leaf", "p20"))
    assert plant.refresh() == {"c1"}
    assert snapshot(plant) == snapshot(RoutedLinks(design))
    removed = design.delete(["r9"])
    design.restore(removed)  # undo of a delete, before any refresh
    plant.refresh()
    assert snapshot(plant) == snapshot(RoutedLinks(design))


moves = st.lists(
    st.tuples(
        st.sampled_from(["r1", "n1", "r2", "r3"]),
        st.floats(0.5, 19.5),
        st.floats(0.5, 7.5),
        st.sampled_from([0, 90, 180, 270]),
        st.sampled_from(["move", "rotate", "pin", "unpin", "device", "unlink", "relink"]),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves)
def test_incremental_equals_full_recompute(steps):
    design = row_pod()
    plant = RoutedLinks(design)
    for rack_id, x, y, rotation, action in steps:
        if action == "move":
            design.move_racks({rack_id: (round(x, 2), round(y, 2))})
        elif action == "rotate":
            design.rotate_racks({rack_id: rotation})
        elif action == "pin":
            design.update_links([msgspec.structs.replace(design.links["up"], medium="dr4-400g")])
        elif action == "unpin":
            design.update_links([msgspec.structs.replace(design.links["up"], medium="auto")])
        elif action == "device":
            design.move_devices({"spine": (rack_id, 20 if rack_id != "n1" else 1)})
        elif action == "unlink" and "b2" in design.links:
            design.remove_links(["b2"])
        elif action == "relink" and "b2" not in design.links:
            link(design, "b2", ("b", "nic2"), ("leaf", "p6"))
        if x > 10:  # refresh at random points, sometimes after several edits
            plant.refresh()
            plan_paths(plant)  # memoised: a later move must forget the paths it changes
    plant.refresh()
    assert snapshot(plant) == snapshot(RoutedLinks(design))
    assert plan_paths(plant) == plan_paths(RoutedLinks(design))


def plan_paths(plant) -> dict[str, tuple]:
    """Each link's plan path and trays, as the canvas and the trunk layer draw them."""
    return {
        lid: (tuple(map(tuple, plant.route(lid).points)), tuple(plant.route_tray_ids(lid)))
        for lid in plant.design.links
    }


def test_routes_command_prints_each_link(capsys, tmp_path):
    from model.files.design_file import save_design

    path = tmp_path / "pod.hall.json"
    save_design(small_pod(), path)
    assert run_cli(["routes", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n  reason  ") == 32
    assert "l-1: a1 nic1 -> leaf1 p1, 400G" in out and "slack" in out and "ordered" in out


def test_routes_command_bad_file_exits_2_without_traceback(capsys, tmp_path):
    bad = tmp_path / "bad.hall.json"
    bad.write_text("{not json")
    assert run_cli(["routes", str(bad)]) == 2
    assert run_cli(["routes", str(tmp_path / "missing.hall.json")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "hallwright routes:" in err
