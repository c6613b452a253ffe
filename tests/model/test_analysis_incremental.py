"""The incremental Analyzer gives the same report as a full analysis after any edit sequence."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.analysis import Analyzer, analyze
from model.entities import Tray
from tests.analysis_fabrics import FakePlant, clos

EDITS = st.lists(st.tuples(st.sampled_from(["move", "rotate", "unlink", "remove_device",
                                            "restore", "settings", "tray", "nothing"]),
                           st.integers(0, 10_000), st.floats(0.5, 30.0), st.floats(0.5, 30.0)),
                 min_size=1, max_size=8)


def full(design, plant) -> dict:
    r = analyze(design, plant)
    return {"json": r.to_json(), "fill": r.tray_fill, "racks": r.rack_power_w,
            "switches": r.switch_oversubscription}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS)
def test_incremental_report_equals_full_report(edits):
    design = clos(pods=2, leaves_per_pod=2, servers_per_leaf=2, nics=2, spines_per_pod=2,
                  leaf_spine_links=1, cores=2, spine_core_links=1, hall_m=40.0)
    design.add_trays([Tray(id="t1", points=[(0.0, 5.0), (30.0, 5.0)], width_m=0.05, depth_m=0.05)])
    plant = FakePlant(design)
    analyzer = Analyzer(design, plant)
    analyzer.report()
    removed = []
    for op, n, x, y in edits:
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
        elif op == "settings":
            design.set_settings(design.settings.__class__(
                oversubscription_target=1.0 + n % 3, allreduce_message_mb=x,
                allreduce_algorithm="ring" if n % 2 else "hierarchical"))
        elif op == "tray":
            design.update_trays([Tray(id="t1", points=[(0.0, y), (30.0, y)],
                                      width_m=0.01 + x / 300, depth_m=0.05)])
        r = analyzer.report()
        incremental = {"json": r.to_json(), "fill": r.tray_fill, "racks": r.rack_power_w,
                       "switches": r.switch_oversubscription}
        assert incremental == full(design, plant)
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
