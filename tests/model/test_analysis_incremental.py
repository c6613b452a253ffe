"""The incremental Analyzer gives the same report as a full analysis after any edit sequence."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.analysis import Analyzer, analyze
from model.design.entities import Rack, Tray
from tests.analysis_fabrics import FakePlant, clos

EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "move",
                "stack",
                "rename",
                "rotate",
                "unlink",
                "remove_device",
                "add_rack",
                "drop_empty_rack",
                "restore",
                "settings",
                "tray",
                "nothing",
            ]
        ),
        st.integers(0, 10_000),
        st.floats(0.5, 30.0),
        st.floats(0.5, 30.0),
    ),
    min_size=1,
    max_size=8,
)


def figures(r) -> dict:
    """What the incremental and the full report must agree on (the warnings' objects apart)."""
    return {
        "json": r.to_json(),
        "fill": r.tray_fill,
        "racks": r.rack_power_w,
        "switches": r.switch_oversubscription,
    }


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS)
def test_incremental_report_equals_full_report(edits):
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
    design.add_trays([Tray(id="t1", points=[(0.0, 5.0), (30.0, 5.0)], width_m=0.05, depth_m=0.05)])
    plant = FakePlant(design)
    analyzer = Analyzer(design, plant)
    analyzer.report()
    removed = []
    for op, n, x, y in edits:
        racks, links, devices = list(design.racks), list(design.links), list(design.devices)
        if op == "move":
            design.move_racks({racks[n % len(racks)]: (x, y)})
        elif op == "stack":  # onto another rack: the two overlap (placement redone for moves)
            other = design.racks[racks[(n + 1) % len(racks)]]
            design.move_racks({racks[n % len(racks)]: (other.x + x / 100, other.y)})
        elif op == "rename":  # names are in the overlap messages: every clash is redone
            rack = design.racks[racks[n % len(racks)]]
            design.update_racks([msgspec.structs.replace(rack, name=f"{rack.name}-{n}")])
        elif op == "rotate":
            design.rotate_racks({racks[n % len(racks)]: 90 * (n % 4)})
        elif op == "unlink" and links:
            removed.append(design.remove_links([links[n % len(links)]]))
        elif op == "remove_device" and devices:
            removed.append(design.remove_devices([devices[n % len(devices)]]))
        elif op == "restore" and removed:
            design.restore(removed.pop())
        elif op == "add_rack":
            rid = design.new_id("rk")
            design.add_racks(
                [
                    Rack(
                        id=rid,
                        name=rid,
                        type="rack-48u-600x1200",
                        x=x,
                        y=y,
                        width_m=0.6,
                        depth_m=1.2,
                        height_u=48,
                        power_budget_kw=45.0,
                    )
                ]
            )
        elif op == "drop_empty_rack":
            empty = [r for r in racks if not design.devices_in_rack(r)]
            if empty:
                design.remove_racks([empty[n % len(empty)]])
        elif op == "settings":
            design.set_settings(
                design.settings.__class__(
                    oversubscription_target=1.0 + n % 3,
                    allreduce_message_mb=x,
                    allreduce_algorithm="ring" if n % 2 else "hierarchical",
                )
            )
        elif op == "tray":
            design.update_trays(
                [Tray(id="t1", points=[(0.0, y), (30.0, y)], width_m=0.01 + x / 300, depth_m=0.05)]
            )
        r = analyzer.report()
        # One full analysis per step for both comparisons (it ran twice, ~1/3 of the CPU).
        expected = analyze(design, plant)
        assert figures(r) == figures(expected)
        assert [w.objects for w in r.warnings] == [w.objects for w in expected.warnings]
    analyzer.close()


def test_rack_move_does_not_recompute_topology(monkeypatch):
    import model.analysis.analyzer as module

    design = clos()
    analyzer = Analyzer(design, FakePlant(design))
    analyzer.report()
    calls = []
    monkeypatch.setattr(module, "infer_topology", lambda d: calls.append(d))
    design.move_racks({"r2": (5.0, 5.0)})
    analyzer.report()
    assert calls == []


def test_switch_ratios_kept_over_a_move_are_each_reports_own():
    """The switches' oversubscription is kept while the topology stands (a rack move), and
    each report gets its own dict: a reader changing one report's leaves the next as it was."""
    design = clos()
    analyzer = Analyzer(design, FakePlant(design))
    first = analyzer.report().switch_oversubscription
    expected = dict(first)
    first.clear()
    design.move_racks({"r2": (5.0, 5.0)})
    second = analyzer.report().switch_oversubscription
    assert second == expected and second
    assert second == analyze(design, FakePlant(design)).switch_oversubscription


def test_plant_refreshed_by_someone_else_still_updates_tray_fill():
    """The editor may refresh the shared plant itself: the analyzer goes by the design's events."""
    design = clos(hall_m=40.0)
    design.add_trays([Tray(id="t1", points=[(0.0, 5.0), (30.0, 5.0)], width_m=0.05, depth_m=0.05)])
    plant = FakePlant(design)
    analyzer = Analyzer(design, plant, refresh_plant=False)
    before = analyzer.report().tray_fill["t1"]
    design.move_racks({"r2": (0.9, 10.0)})  # next to the switches: its links turn AOC -> DAC
    plant.refresh()
    after = analyzer.report()
    assert after.tray_fill["t1"] != before
    assert after.to_json() == analyze(design, plant).to_json()
    assert after.tray_fill == analyze(design, plant).tray_fill


def test_removing_an_empty_rack_keeps_rack_power_right():
    from tests.builders import device, empty_hall, link, rack

    design = empty_hall()
    rack(design, "e1", 10.0, 6.0)  # empty, first in the rack list
    rack(design, "r1", 1.0, 2.0)
    rack(design, "n1", 1.6, 2.0)
    device(design, "s", "r1", 1, "dgx-h100")
    device(design, "leaf", "n1", 20, "qm9700")
    for i in range(1, 9):
        link(design, f"x{i}", ("s", f"nic{i}"), ("leaf", f"p{i}"))
    plant = FakePlant(design)  # auto: 1.6 m DACs, 0.1 W per end: 4 twin-port cables
    analyzer = Analyzer(design, plant)
    analyzer.report()
    design.remove_racks(["e1"])  # shifts r1 and n1 in the rack list; topology unchanged
    incremental = analyzer.report().rack_power_w
    assert incremental == analyze(design, plant).rack_power_w
    assert incremental["r1"][0] == pytest.approx(8000 + 4 * 0.1)  # one cable end per cage
