"""The placement optimiser (model.optimise): finds the nearer place, keeps every hard limit,
honours locks, is deterministic, and leaves a design with nowhere to go unchanged."""

from __future__ import annotations

import math

import msgspec
import pytest

from model.analysis import analyze
from model.design.rack_clashes import rack_clashes
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes
from model.generators.generate import generate
from model.optimise.moves import free_positions, network_racks
from model.optimise.objective import DEFAULT_WEIGHTS, OptimiseError, Pricer, parse_weights
from model.optimise.optimise import optimise

LIMIT_CODES = {
    "RACK_OVERLAP",
    "RACK_OUTSIDE_HALL",
    "RACK_ON_OBSTACLE",
    "RACK_OVER_POWER",
    "NO_MEDIUM_REACHES",
    "NO_TRAY_PATH",
}


def _far_pod():
    """An 8-node leaf-spine pod whose leaf rack stands in the far corner of the hall, away
    from its servers' row (the generator puts it in the middle of the row)."""
    design = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch="qm9700")
    leaf = network_racks(design)[0]
    design.move_racks({leaf: (5.1, 6.6)})
    assert not rack_clashes(design)
    return design, leaf


def _distance_to_servers_m(design, rack_id: str) -> float:
    rack = design.racks[rack_id]
    servers = {
        design.devices[d].rack
        for lid in design.links_of_racks([rack_id])
        for d in (design.links[lid].a.device, design.links[lid].b.device)
    } - {rack_id}
    return sum(math.hypot(rack.x - design.racks[s].x, rack.y - design.racks[s].y) for s in servers)


def _analysis(design):
    plant = RoutedLinks(design)
    j = analyze(design, plant).to_json()
    plant.close()
    return j


@pytest.fixture(scope="module")
def far_result():
    design, leaf = _far_pod()
    before = design_to_bytes(design)
    result = optimise(design, DEFAULT_WEIGHTS, iterations=150, seed=3)
    return design, leaf, before, result


def test_far_leaf_rack_moves_closer_and_the_objective_falls(far_result):
    design, leaf, before, result = far_result
    assert design_to_bytes(design) == before  # the input is untouched
    assert result.changed, result.sentence
    report = result.report
    assert report["objective"]["after"] < report["objective"]["before"]
    terms = report["terms"]
    assert terms["cost_usd"]["delta"] < 0 or terms["optics_power_w"]["delta"] < 0
    assert _distance_to_servers_m(result.design, leaf) < _distance_to_servers_m(design, leaf)
    assert any(m["rack"] == leaf for m in report["moved"])


def test_report_deltas_equal_the_analysis_difference(far_result):
    design, _leaf, _before, result = far_result
    a, b = _analysis(design), _analysis(result.design)
    terms = result.report["terms"]
    assert terms["cost_usd"]["delta"] == pytest.approx(
        b["cost_usd"]["total"] - a["cost_usd"]["total"]
    )
    assert terms["failures_per_day"]["after"] == pytest.approx(b["reliability"]["failures_per_day"])
    assert terms["failures_per_day"]["before"] == pytest.approx(
        a["reliability"]["failures_per_day"]
    )


def test_every_hard_limit_holds_in_the_result(far_result):
    _design, _leaf, _before, result = far_result
    optimised = result.design
    assert not rack_clashes(optimised)
    codes = {w["code"] for w in _analysis(optimised)["warnings"] if w["severity"] == "error"}
    assert not codes & LIMIT_CODES
    overfilled = [w for w in _analysis(optimised)["warnings"] if w["code"] == "TRAY_OVERFILLED"]
    assert not overfilled
    plant = RoutedLinks(optimised)
    pricer = Pricer(optimised, plant)
    assert pricer.broken(pricer.start, list(optimised.racks), set(optimised.links)) is None
    plant.close()
    assert len(result.report["limits"]) == 6


def test_media_flips_are_reported_per_link(far_result):
    _design, _leaf, _before, result = far_result
    flipped = sum(f["links"] for f in result.report["media_flipped"])
    per_rack = sum(m["links_flipped"] for m in result.report["moved"])
    assert flipped > 0  # the far leaf's links ran on optics; near its servers some do not
    assert per_rack >= flipped  # each flipped link counted at each moved rack it touches


def test_locked_racks_never_move():
    design, leaf = _far_pod()
    others = [r for r in network_racks(design) if r != leaf]
    design.set_settings(msgspec.structs.replace(design.settings, locked_racks=(leaf,)))
    result = optimise(design, DEFAULT_WEIGHTS, iterations=80, seed=1, locked=others)
    for rack_id in (leaf, *others):
        moved = result.design.racks[rack_id]
        assert (moved.x, moved.y) == (design.racks[rack_id].x, design.racks[rack_id].y)
    assert not result.changed
    assert "locked" in result.sentence


def test_a_locked_rack_is_not_swapped_either():
    design, leaf = _far_pod()
    servers = [r for r in design.racks if r not in network_racks(design)]
    result = optimise(
        design, DEFAULT_WEIGHTS, iterations=120, seed=5, locked=servers, swap_compute=True
    )
    for rack_id in servers:
        assert (result.design.racks[rack_id].x, result.design.racks[rack_id].y) == (
            design.racks[rack_id].x,
            design.racks[rack_id].y,
        )


def test_same_seed_same_result_and_restarts_pick_the_best():
    design, _leaf = _far_pod()
    one = optimise(design, DEFAULT_WEIGHTS, iterations=60, seed=7, restarts=2)
    two = optimise(design, DEFAULT_WEIGHTS, iterations=60, seed=7, restarts=2)
    assert design_to_bytes(one.design) == design_to_bytes(two.design)
    assert one.report["objective"] == two.report["objective"]
    runs = one.report["runs"]
    assert [r["seed"] for r in runs] == [7, 8]
    assert one.report["objective"]["after"] == pytest.approx(min(r["objective"] for r in runs))


def test_no_free_position_returns_the_input_unchanged_with_a_sentence():
    design, _leaf = _far_pod()
    design.move_racks({_leaf: (2.7, 2.4)})  # back to its place in the row, between its servers
    # The hall shrunk to the racks' own footprints: row A, row B's one rack, and a corridor
    # between them narrower than a rack; not one free tile.
    row_a = [r for r in design.racks.values() if r.y == 2.4]
    (b_rack,) = [r for r in design.racks.values() if r.y != 2.4]
    half_w, half_d = b_rack.width_m / 2, b_rack.depth_m / 2
    ax0, ax1 = min(r.x for r in row_a) - half_w, max(r.x for r in row_a) + half_w
    ay0, ay1 = 2.4 - half_d, 2.4 + half_d
    bx0, bx1, by0, by1 = b_rack.x - half_w, b_rack.x + half_w, b_rack.y - half_d, b_rack.y + half_d
    outline = [
        (ax0, ay0),
        (ax1, ay0),
        (ax1, ay1),
        (bx1 - 0.1, ay1),
        (bx1 - 0.1, by0),
        (bx1, by0),
        (bx1, by1),
        (bx0, by1),
        (bx0, by0),
        (bx0 + 0.1, by0),
        (bx0 + 0.1, ay1),
        (ax0, ay1),
    ]
    design.set_hall(msgspec.structs.replace(design.hall, outline=outline))
    assert not rack_clashes(design)
    servers = [r for r in design.racks if r not in network_racks(design)]
    network = network_racks(design)
    result = optimise(
        design, DEFAULT_WEIGHTS, iterations=50, seed=0, locked=[*servers, *network[1:]]
    )
    assert not result.changed
    assert result.sentence.startswith("Design unchanged: no network rack has a free floor position")
    assert design_to_bytes(result.design) == design_to_bytes(design)


@pytest.mark.parametrize(
    "text",
    [
        "cost=-1",
        "cost=abc",
        "speed=1",
        "cost",
        "cost=nan",
        "cost=0,power=0,power_max=0,failures=0,cable=0",
    ],
)
def test_bad_weights_are_refused_with_a_sentence(text):
    with pytest.raises(OptimiseError):
        parse_weights(text)


def test_weights_override_the_defaults():
    weights = parse_weights("cost=2,failures_per_day=0")
    assert weights["cost_usd"] == 2 and weights["failures_per_day"] == 0
    assert weights["cable_m"] == DEFAULT_WEIGHTS["cable_m"]


def test_racks_move_along_the_existing_rows_unless_anywhere(far_result):
    design, leaf, _before, result = far_result
    rows = {r.y for r in design.racks.values()}  # its own line too: it may slide along it
    assert all(m["to"][1] in rows for m in result.report["moved"])
    free_rows = {p[1] for p in free_positions(design, leaf)}
    assert free_rows <= rows
    anywhere = free_positions(design, leaf, anywhere=True)
    assert {p[1] for p in anywhere} - rows  # tiles off the rows exist, and are left out


def test_structured_design_keeps_every_channel_within_its_limits():
    design, _leaf = _far_pod()
    design.set_settings(msgspec.structs.replace(design.settings, cabling="cross-connect"))
    result = optimise(design, DEFAULT_WEIGHTS, iterations=60, seed=3)
    assert result.changed, result.sentence
    assert result.report["limits"][-1].startswith("Channels: 0 over")
    warnings = _analysis(result.design)["warnings"]
    assert not [
        w
        for w in warnings
        if w["code"].startswith("CHANNEL_") and w["code"] != "CHANNEL_LIMIT_UNKNOWN"
    ]
