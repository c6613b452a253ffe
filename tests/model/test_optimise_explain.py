"""The optimiser explains each moved rack (its own share, measured by putting it back), reports
progress and stops when told, moves only the tiers it is given, and its Pareto front holds no
dominated point."""

from __future__ import annotations

import pytest

from model.generators.generate import generate
from model.optimise.front import FRONT_TERMS, FrontPoint, dominates, non_dominated, pareto_front
from model.optimise.moves import move_groups, network_racks
from model.optimise.objective import DEFAULT_WEIGHTS
from model.optimise.optimise import optimise


def _far_pod():
    """An 8-node leaf-spine pod whose leaf rack stands in the hall's far corner: its 64 leaf to
    server links are then too long for copper (the generator puts it mid-row, on LACC)."""
    design = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch="qm9700")
    leaf = network_racks(design)[0]
    design.move_racks({leaf: (5.1, 6.6)})
    return design, leaf


@pytest.fixture(scope="module")
def far():
    design, leaf = _far_pod()
    seen: list[dict] = []
    result = optimise(
        design, DEFAULT_WEIGHTS, iterations=150, seed=3, progress=lambda p: seen.append(p) or True
    )
    return design, leaf, result, seen


def test_each_moved_rack_has_a_sentence_with_what_it_bought(far):
    _design, leaf, result, _seen = far
    why = {w["racks"][0]: w for w in result.report["why"] if w["kind"] == "rack"}
    assert leaf in why
    mine = why[leaf]
    # Alone, from its corner, the leaf shortens its links (less cable) but flips none of them.
    assert mine["cost_usd_delta"] < 0 and not mine["media_flipped"]
    assert mine["mean_link_m"]["after"] < mine["mean_link_m"]["before"]
    assert mine["sentence"].startswith(f"Leaf rack {result.design.racks[leaf].name} moved ")
    assert "no link changed medium" in mine["sentence"] and "kW typical optics" in mine["sentence"]
    # Its links to the spine come under copper reach only with the spine moved too: the pair's.
    (pair,) = [w for w in result.report["why"] if w["kind"] == "pair" and leaf in w["racks"]]
    assert pair["media_flipped"] and all("LACC" in f["to"] for f in pair["media_flipped"])
    assert pair["cost_usd_delta"] < 0 and pair["optics_power_w_delta"] < 0
    assert "links changed medium only because both ends moved" in pair["sentence"]
    whole = result.report["terms"]["cost_usd"]["delta"]
    assert whole <= mine["cost_usd_delta"] + 1e-6


def test_the_sentences_add_up_to_the_whole_delta_and_name_each_changed_link_once(far):
    """The leaf (A02) and a spine both move and share their 64 leaf-spine links, which flip only
    when both ends move: they are named once, in the pair's sentence, and the rack and pair
    sentences sum to the whole cost and optics-power delta (the optimiser here moves racks only).
    Before, each rack's sentence was what putting it back lost, and the shared links were in
    both: the sentences summed to more than the whole gain."""
    _design, leaf, result, _seen = far
    report, why = result.report, result.report["why"]
    pairs = [w for w in why if w["kind"] == "pair"]
    assert any(
        leaf in w["racks"] and "only because both ends moved" in w["sentence"] for w in pairs
    )
    # The rack and pair sentences alone sum to the whole: no "moves together" remainder (which
    # is the whole minus the rest by construction, so a sum over every sentence proves nothing).
    assert all(w["kind"] in ("rack", "pair") for w in why)
    for term, key in (("cost_usd", "cost_usd_delta"), ("optics_power_w", "optics_power_w_delta")):
        whole = report["terms"][term]["delta"]
        assert sum(w[key] for w in why) == pytest.approx(whole, rel=1e-9, abs=1e-6)
    named = sum(f["links"] for w in why for f in w["media_flipped"])
    assert named == sum(f["links"] for f in report["media_flipped"])


def test_copper_share_rises_when_links_come_under_copper_reach(far):
    _design, _leaf, result, _seen = far
    share = result.report["copper_share"]
    assert share["after"] > share["before"]


def test_progress_reports_the_best_so_far_and_never_gets_worse(far):
    _design, _leaf, _result, seen = far
    assert seen and seen[0]["iteration"] == 0
    bests = [p["best"] for p in seen]
    assert bests == sorted(bests, reverse=True)
    assert {"terms", "copper_share", "moved", "iterations"} <= set(seen[-1])


def test_progress_returning_false_stops_at_the_best_so_far():
    design, _leaf = _far_pod()
    calls: list[int] = []

    def stop_after_two(p: dict) -> bool:
        calls.append(p["iteration"])
        return len(calls) < 2

    result = optimise(design, DEFAULT_WEIGHTS, iterations=500, seed=3, progress=stop_after_two)
    runs = result.report.get("runs") if result.changed else None
    assert len(calls) == 2
    if runs is not None:
        assert runs[0]["stopped"] and runs[0]["iterations"] < 500


def test_only_the_named_tiers_move():
    design, _leaf = _far_pod()
    result = optimise(design, DEFAULT_WEIGHTS, iterations=60, seed=3, tiers=("spine",))
    spines = set(network_racks(design, ("spine",)))
    assert spines
    assert {m["rack"] for m in result.report.get("moved", [])} <= spines
    # No storage rack in this pod: nothing may move, and the design says why.
    none = optimise(design, DEFAULT_WEIGHTS, iterations=20, seed=3, tiers=("storage",))
    assert not none.changed and "no network rack may move" in none.sentence


def test_swapped_racks_are_one_group():
    start = {"a": (0.0, 0.0), "b": (1.0, 0.0), "c": (5.0, 5.0)}
    target = {"a": (1.0, 0.0), "b": (0.0, 0.0), "c": (6.0, 5.0)}
    assert move_groups(start, target) == [["a", "b"], ["c"]]


def _point(name, cost, watts, fails):
    return FrontPoint(
        name, {}, {"cost_usd": cost, "optics_power_w": watts, "failures_per_day": fails}, None
    )


def test_non_dominated_by_hand():
    a, b, c, d = (
        _point("a", 10, 5, 1.0),
        _point("b", 8, 7, 1.0),  # cheaper, hotter: on the front beside a
        _point("c", 11, 6, 1.0),  # worse than a on cost and watts: dominated
        _point("d", 10, 5, 1.0),  # a's twin: kept once
    )
    assert dominates(a.terms, c.terms) and not dominates(a.terms, b.terms)
    assert [p.name for p in non_dominated([a, b, c, d])] == ["a", "b"]


def test_the_front_holds_no_dominated_point_and_includes_the_start_or_better():
    design, _leaf = _far_pod()
    front, every = pareto_front(design, iterations=80, seed=1)
    assert every[0].name == "start" and front
    for p in front:
        assert not any(dominates(q.terms, p.terms) for q in every)
    start = every[0].terms
    # Every optimised point keeps its own objective no worse than the start's.
    for p in every[1:]:
        assert any(p.terms[t] <= start[t] + 1e-6 for t in FRONT_TERMS)


def test_a_sweep_can_optimise_each_variant_and_refuses_an_unknown_objective():
    from model.studies.sweep import SweepError, evaluate, parse_vary

    vary = parse_vary(["optimise=none,cost", "optimise_iterations=40"])
    assert vary == {"optimise": ["none", "cost"], "optimise_iterations": [40]}
    base = {"nodes": 32, "node_type": "dgx-h100", "switch": "qm9700"}
    plain = evaluate("leaf-spine", base | {"optimise": "none"})
    best = evaluate("leaf-spine", base | {"optimise": "cost", "optimise_iterations": 40})
    assert plain["error"] == best["error"] == ""
    # The optimiser never returns a design costlier than its start on the objective it minimises.
    assert best["cost_usd"] <= plain["cost_usd"] + 1e-6
    with pytest.raises(SweepError, match="optimise"):
        parse_vary(["optimise=cheapest"])


def test_compute_racks_stay_unless_swaps_with_them_are_allowed():
    design, _leaf = _far_pod()
    compute = [r for r in design.racks if r not in network_racks(design)]
    start = {r: (design.racks[r].x, design.racks[r].y) for r in compute}
    kept = optimise(design, DEFAULT_WEIGHTS, iterations=150, seed=4)
    assert all((kept.design.racks[r].x, kept.design.racks[r].y) == start[r] for r in compute)
    from model.optimise.moves import search_space

    movable = network_racks(design)
    _free, partners = search_space(design, movable, set(), swap_compute=True)
    assert any(set(p) & set(compute) for p in partners.values())
    _free, partners = search_space(design, movable, set())
    assert not any(set(p) & set(compute) for p in partners.values())


def test_a_rack_that_slid_into_part_of_anothers_old_place_is_in_its_group():
    # Found on the bundled SuperPOD: leaf A14 moved 3 m and leaf A05 slid into half of the spot
    # it left; A14 alone cost money and could not go back while A05 stood there.
    start = {"a05": (0.3, 0.0), "a14": (1.2, 0.0), "b01": (5.0, 5.0)}
    target = {"a05": (0.9, 0.0), "a14": (4.2, 0.0), "b01": (7.0, 5.0)}
    sizes = {r: (0.6, 1.2) for r in start}
    assert move_groups(start, target) == [["a05"], ["a14"], ["b01"]]  # centres only
    assert move_groups(start, target, sizes) == [["a05", "a14"], ["b01"]]


def test_a_kept_move_that_is_no_gain_names_the_limit_its_put_back_breaks():
    """The bundled SuperPOD as a 60 s run (seed 1) left it: leaves A05 and spine B01 moved to
    the row ends bring 152 links onto LACC; putting leaf A14 (moved 3 m) back would save $742,
    but it would fill the cross tray t-cross-1 past 40 %, so the sentence says so."""
    from pathlib import Path

    from model.engine.routed_links import RoutedLinks
    from model.files.design_file import load_design
    from model.optimise.explain import explain_moves
    from model.optimise.objective import Pricer

    path = Path(__file__).resolve().parents[2] / "resources/examples/superpod-4su.hall.json"
    design = load_design(path)
    plant = RoutedLinks(design)
    pricer = Pricer(design, plant)
    start = {r.id: (r.x, r.y) for r in design.racks.values()}
    target = {"A05": (1.5, 2.4), "A14": (14.1, 2.4), "B01": (1.5, 4.8)}
    design.move_racks(target)
    final = pricer.price(plant.refresh())
    assert pricer.broken(final, list(target), set(design.links)) is None
    whys = {w.racks: w for w in explain_moves(design, plant, pricer, final, start, target,
                                               DEFAULT_WEIGHTS)}  # fmt: skip
    a14 = whys[("A14",)]
    # Alone from the start A14 saves cable; with the spine moved too, putting it back would
    # save $742: the sentence says so, and why it stays.
    assert a14.cost_usd < 0 and "putting it back now would change -$742" in a14.sentence
    assert a14.kept_because.startswith("putting it back breaks a hard limit (tray t-cross-1")
    assert "kept: putting it back breaks" in a14.sentence and "%" in a14.sentence
    # The moves that pay for themselves need no such clause.
    assert whys[("A05",)].kept_because == whys[("B01",)].kept_because == ""
    assert (design.racks["A14"].x, design.racks["A14"].y) == target["A14"]  # left as optimised
    # The 152 leaf-spine links flip only with A05 and B01 both moved: named once, in their pair,
    # and the five sentences sum to the whole delta to the cent and the watt.
    together = whys[("A05", "B01")]
    assert together.kind == "pair" and sum(n for _a, _b, n in together.flips) == 152
    assert not whys[("A05",)].flips and not whys[("B01",)].flips
    assert all(w.kind in ("rack", "pair") for w in whys.values())  # no remainder sentence
    for term in ("cost_usd", "optics_power_w"):  # MoveWhy's fields are named as the terms
        whole = final.terms[term] - pricer.start.terms[term]
        assert abs(sum(getattr(w, term) for w in whys.values()) - whole) < 0.005
    plant.close()


def test_what_no_move_or_pair_buys_alone_is_one_sentence_that_closes_the_sum():
    """Three groups that each buy $100 alone, no pair sharing links, but a whole delta of -$450
    (a cage three moves share): the rest, -$150 and -20 W, is its own sentence."""
    import numpy as np

    from model.generators.generate import generate
    from model.optimise.explain import _Joint
    from model.optimise.objective import Priced

    design = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch="qm9700")
    racks = sorted(design.racks)[:3]
    media = np.zeros(4, np.int32)

    def priced(cost: float, power: float) -> Priced:
        return Priced({"cost_usd": cost, "optics_power_w": power}, media, 0, 0)

    base, final = priced(1000.0, 50.0), priced(550.0, 30.0)
    joint = _Joint(design, [[r] for r in racks], ["m"], base, final, (np.zeros(4), np.zeros(4)))
    (rest,) = joint.entries([priced(900.0, 50.0)] * 3, {}, {}, {}, -300.0, 0.0)
    assert rest.kind == "shared" and rest.cost_usd == -150.0 and rest.optics_power_w == -20.0
    assert rest.sentence.startswith("The 3 moves together: no link changed medium, -$150")
    # Nothing left over: no such sentence.
    assert joint.entries([priced(850.0, 30.0)] * 3, {}, {}, {}, -450.0, -20.0) == []
