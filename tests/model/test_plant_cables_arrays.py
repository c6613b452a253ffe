"""Integrated cables counted per component with arrays (``plant_tally._cables``) give exactly
what the per-component loop gave: the same counts, problems, cable of each component and rows
of each component, on generated halls with every fabric (copper in storage, in-band and
out-of-band) and with random links pinned to copper media, moved racks and long links (split
cables, mixed cages, parts too short)."""

from __future__ import annotations

import copy
import random
from collections import defaultdict

import msgspec
import numpy as np
import pytest

import model.plant.tally as plant_tally
from model.catalog.parts import part_words
from model.design.fabrics import plant_fabric_rows
from model.engine.cages import SHAPE_SPLITTER, SHAPE_STRAIGHT
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.plant.physical_plant import build_plant


def reference_cables(out, tables, graph, cable_rows, m, ordered, row_fab) -> None:
    """The per-component loop ``_cables`` was before it worked on arrays (kept as the oracle)."""
    media, problem = tables.media, out.problem
    comp, ia, ib, cage_spec = graph.comp, graph.ia, graph.ib, graph.cage_spec
    shape, hub, leaf, leaves = graph.shape, graph.hub, graph.leaf, graph.leaves
    comps = np.unique(comp[cable_rows]).tolist()
    comp_rows: dict[int, list[int]] = defaultdict(list)
    for r in cable_rows.tolist():
        comp_rows[int(comp[r])].append(r)
    out.comp_rows = comp_rows
    for c in comps:
        crow = comp_rows[c]
        mm = int(m[crow[0]])
        cages_here = {int(ia[r]) for r in crow} | {int(ib[r]) for r in crow}
        if any(int(m[r]) != mm for r in crow) or any(x in problem for x in cages_here):
            continue
        part = None
        if shape[c] in (SHAPE_STRAIGHT, SHAPE_SPLITTER):
            h, f = int(cage_spec[hub[c]]), int(cage_spec[leaf[c]])
            part = tables.cable(mm, h, f, int(leaves[c])) or (
                tables.cable(mm, f, h, 1) if shape[c] == SHAPE_STRAIGHT else None
            )
            if (
                shape[c] == SHAPE_SPLITTER
                and len({int(cage_spec[x]) for x in cages_here} - {h}) > 1
            ):
                part = None
        if part is None:
            # Ports of one cage to different far cages with no splitter part for them.
            code = "CAGE_SPLIT_CABLE" if shape[c] != SHAPE_STRAIGHT else "PART_NOT_ORDERABLE"
            why = (
                f"{media[mm].name}: its ports go to different far cages, which no "
                "integrated cable joins (a module and a fibre per link would)"
                if code == "CAGE_SPLIT_CABLE"
                else f"no orderable {media[mm].name} part of this shape"
            )
            for x in cages_here:
                problem.setdefault(x, (code, why))
            continue
        length = float(np.nanmax(ordered[crow])) if np.isfinite(ordered[crow]).any() else np.nan
        if not np.isfinite(length) or length > part.reach_m + 1e-9:
            for x in cages_here:
                problem.setdefault(
                    x,
                    (
                        "PART_NOT_ORDERABLE",
                        f"{part_words(part.vendor, part.part_number, part.description)}: "
                        "no length that long",
                    ),
                )
            continue
        length = min(x for x in part.lengths_m if x + 1e-9 >= length)
        out.cable_of_comp[c] = (part, length)
        out.add(
            "cable",
            part,
            length,
            1,
            media[mm].kind,
            part.power_a_w + part.fanout * part.power_b_w,
            part.power_a_w_max + part.fanout * part.power_b_w_max,
            part.price_at(length),
            int(row_fab[crow[0]]),
        )


def _compare_both(calls):
    real = plant_tally._cables

    def both(out, tables, graph, cable_rows, m, ordered, row_fab, needed=None, shares=True):
        # ``needed`` (the routed metres, for the BOM's spare length) and ``shares`` (the item
        # numbers a kept count takes out again) change no count.
        expected = copy.deepcopy(out)
        reference_cables(expected, tables, graph, cable_rows, m, ordered, row_fab)
        real(out, tables, graph, cable_rows, m, ordered, row_fab, needed, shares)
        assert out.counts == expected.counts
        assert out.meta == expected.meta
        assert out.problem == expected.problem
        assert list(out.cable_of_comp.items()) == list(expected.cable_of_comp.items())
        assert {c: out.comp_rows[c].tolist() for c in expected.comp_rows} == dict(
            expected.comp_rows
        )
        assert len(out.comp_rows) == len(expected.comp_rows)
        calls.append(len(expected.cable_of_comp) + len(expected.problem))

    return both


COPPER = ("dac-400g", "dac-400g-splitter", "lacc-400g", "dac-800g", "lacc-800g")


@pytest.mark.parametrize("seed", range(4))
def test_cables_on_arrays_equal_the_per_component_loop(seed, monkeypatch):
    rng = random.Random(seed)
    design = generate(
        "rail-optimized",
        nodes=32,
        node_type="dgx-h100",
        switch="qm9700",
        su_nodes=32,
        fabrics="all",
    )
    # Pin random links to copper media (some cannot be cabled so: split and mixed cages, no
    # part of the shape), stretch some far past copper's reach, move a rack.
    links = rng.sample(sorted(design.links), len(design.links) // 5)
    design.update_links(
        [
            msgspec.structs.replace(
                design.links[lid],
                medium=rng.choice(COPPER),
                length_override_m=rng.choice([None, None, 0.5, 3.0, 40.0]),
            )
            for lid in links
        ]
    )
    rack_id = rng.choice(sorted(design.racks))
    rack = design.racks[rack_id]
    design.move_racks({rack_id: (rack.x + rng.uniform(-3, 3), rack.y)})
    calls: list[int] = []
    monkeypatch.setattr(plant_tally, "_cables", _compare_both(calls))
    plant = RoutedLinks(design)
    phys = build_plant(plant, fabric_rows=plant_fabric_rows(design, plant), with_links=True)
    assert calls and sum(calls) > 0  # components were decided (cables or problems)
    assert phys.items


def test_a_hall_with_no_copper_has_no_cable_components(monkeypatch):
    design = generate(
        "rail-optimized", nodes=32, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32
    )
    calls: list[int] = []
    monkeypatch.setattr(plant_tally, "_cables", _compare_both(calls))
    build_plant(RoutedLinks(design), with_links=True)
    assert calls


def _random_rack(seed: int):
    """A switch's twin-port cages wired at random to single-port and twin-port NIC cages, at
    random lengths, some links pinned to copper."""
    from tests.builders import device, empty_hall, link, rack

    rng = random.Random(seed)
    design = empty_hall()
    rack(design, "r1", 2.0, 3.0)
    device(design, "sw", "r1", 2, "qm9700")
    u = 2 + design.catalog.device_types["qm9700"].u_height
    nics = []
    for n, type_id in enumerate(["hgx-h100-8x400", "dgx-h100", "hgx-h100-8x400", "dgx-h100"]):
        device(design, f"d{n}", "r1", u, type_id)
        u += design.catalog.device_types[type_id].u_height
        nics += [(f"d{n}", f"nic{k}") for k in range(1, 9)]
    rng.shuffle(nics)
    pins = [rng.choice([*COPPER, "auto", "auto"]) for _ in range(16)]  # per switch cage
    for k, nic in enumerate(nics[: rng.randrange(8, 32)], start=1):
        medium = pins[(k - 1) // 2] if rng.random() < 0.8 else rng.choice(COPPER)
        length = rng.choice([0.8, 1.2, 2.0, 2.5, 2.9, 3.4, 4.8, 6.0])
        link(design, f"l{k}", ("sw", f"p{k}"), nic, medium=medium, length_override_m=length)
    # One twin-port cage to one twin-port cage: a straight cable where the length allows.
    device(design, "dx", "r1", u, "dgx-h100")
    medium = rng.choice(["dac-400g", "lacc-400g", "auto"])
    length = rng.choice([0.8, 1.5, 2.5, 4.0])
    for k in (1, 2):
        link(
            design,
            f"s{k}",
            ("sw", f"p{60 + k}"),
            ("dx", f"nic{k}"),
            medium=medium,
            length_override_m=length,
        )
    return design


SEEDS = range(16)


@pytest.mark.parametrize("seed", SEEDS)
def test_cables_on_arrays_equal_the_loop_on_random_copper_in_one_rack(seed, monkeypatch):
    """Straight cables and splitters (leaves of one spec or of several), meshes, mixed cages
    and lengths past a part's reach: the same decisions as the loop."""
    calls: list[int] = []
    monkeypatch.setattr(plant_tally, "_cables", _compare_both(calls))
    build_plant(RoutedLinks(_random_rack(seed)), with_links=True)
    assert calls


def test_the_random_racks_reach_every_rule_of_the_cables(monkeypatch):
    """The random racks above decide straight cables, splitters, split cables and splitters
    whose leaves differ: the comparison covers each rule of ``_cables``."""
    seen: dict[str, int] = defaultdict(int)
    real = plant_tally._cables

    def watch(out, tables, graph, cable_rows, m, ordered, row_fab, needed=None, shares=True):
        before = set(out.problem)
        real(out, tables, graph, cable_rows, m, ordered, row_fab, needed, shares)
        for c in out.cable_of_comp:
            seen["straight" if graph.shape[c] == SHAPE_STRAIGHT else "splitter"] += 1
        for cage, (code, _why) in out.problem.items():
            if cage not in before:
                seen[code] += 1
        for c in np.unique(graph.comp[cable_rows]).tolist():
            rows = cable_rows[graph.comp[cable_rows] == c]
            specs = {int(graph.cage_spec[x]) for x in [*graph.ia[rows], *graph.ib[rows]]}
            if graph.shape[c] == SHAPE_SPLITTER and len(specs) > 2:
                seen["splitter with leaves of several specs"] += 1

    monkeypatch.setattr(plant_tally, "_cables", watch)
    for seed in SEEDS:
        build_plant(RoutedLinks(_random_rack(seed)), with_links=True)
    assert {
        "straight",
        "splitter",
        "CAGE_SPLIT_CABLE",
        "PART_NOT_ORDERABLE",
        "splitter with leaves of several specs",
    } <= set(seen), dict(seen)
