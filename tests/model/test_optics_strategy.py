"""Optics strategy per switch tier (issue 39, item 5): pluggable, linear and co-packaged.

The leaf tier of one small fabric, hand-computed under each choice from the catalog's own
figures (resources/catalog/parts.json): watts and lasers of the plugs in the leaf's used cages,
and for co-packaged switches the external laser sources that light a cabled port.
"""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from model.analysis import analyze
from model.analysis.optics import optics_by_tier
from model.catalog.components import builtin_catalog
from model.engine.routed_links import RoutedLinks
from model.generators.generate import GenerateError, generate
from model.generators.optics import parse_optics
from model.outputs.bom import bom_lines
from model.plant.physical_plant import build_plant, rack_power


def _plant(design):
    plant = RoutedLinks(design)
    plant.refresh()
    return plant


def _leaf(design, plant):
    return optics_by_tier(design, plant)["leaf"]


@pytest.fixture(scope="module")
def xdr_pair():
    """4 DGX B300 (8 x 800G each) on Quantum-X800: one leaf, two spines; pluggable and CPO."""
    out = {}
    for optics in ("pluggable", "co-packaged"):
        design = generate(
            "leaf-spine", nodes=4, node_type="dgx-b300", switch="q3400", optics=optics
        )
        out[optics] = (design, _plant(design))
    return out


def test_leaf_tier_pluggable_by_hand(xdr_pair):
    design, plant = xdr_pair["pluggable"]
    cat = builtin_catalog()
    module = cat.module_parts["xdr-2xdr4-fin"]  # 1.6T twin-port 2 x DR4 in a Q3400 cage
    assert (module.power_w, module.ports) == (25, 2)
    leaf = _leaf(design, plant)
    # 32 server ports down + 32 up on the one leaf = 64 ports = 32 twin-port cages.
    assert leaf["modules"] == {"dsp": 32, "linear": 0}
    assert leaf["co_packaged_ports"] == 0 and leaf["laser_sources"] == 0
    assert leaf["power_w"] == pytest.approx(32 * 25.0)  # 800 W
    assert leaf["lasers"] == 32 * (4 * 2)  # DR4: 4 lasers per port, 2 ports: 256


def test_leaf_tier_co_packaged_by_hand(xdr_pair):
    design, plant = xdr_pair["co-packaged"]
    cat = builtin_catalog()
    leaves = [d for d in design.devices.values() if d.role == "leaf"]
    assert {d.type for d in leaves} == {"q3450-ld"}
    port = cat.module_parts["q3450-cpo-port"]
    els = cat.laser_source_parts["q3450-els"]
    assert (port.power_w, els.power_w, els.lasers) == (2.5, 16, 8)
    # 144 ports / 18 laser sources = 8 ports per source; the leaf's 64 cabled ports are
    # p1..p32 (down) and p113..p144 (up): blocks 1-4 and 15-18, so 8 sources light them.
    used = {
        end.port
        for link in design.links.values()
        for end in (link.a, link.b)
        if end.device == leaves[0].id
    }
    assert used == {f"p{i}" for i in [*range(1, 33), *range(113, 145)]}
    leaf = _leaf(design, plant)
    assert leaf["modules"] == {"dsp": 0, "linear": 0}
    assert leaf["co_packaged_ports"] == 64
    assert leaf["laser_sources"] == 8
    assert leaf["power_w"] == pytest.approx(64 * 2.5 + 8 * 16.0)  # 288 W
    assert leaf["lasers"] == 8 * 8  # 64: the sources' lasers, none in the ports


def test_leaf_tier_linear_by_hand():
    """4 DGX H100 on Tomahawk-5 at lowest power: the leaf's 32 2x400G cages take 2 x SR4
    DSP modules (15 W) when pluggable, 800G LPO modules run as 2 x DR4 (8.5 W) when linear."""
    cat = builtin_catalog()
    figures = {}
    for optics in ("pluggable", "linear"):
        design = generate(
            "leaf-spine",
            nodes=4,
            node_type="dgx-h100",
            switch="tomahawk5-64x800",
            optics=optics,
        )
        design.set_settings(msgspec.structs.replace(design.settings, media_policy="lowest-power"))
        figures[optics] = _leaf(design, _plant(design))
    dsp, lpo = cat.module_parts["osfp-2xsr4-th5"], cat.module_parts["osfp-2xdr4-lpo-th5"]
    assert (dsp.power_w, lpo.power_w, lpo.optics) == (15, 8.5, "linear")
    assert figures["pluggable"]["modules"] == {"dsp": 32, "linear": 0}
    assert figures["pluggable"]["power_w"] == pytest.approx(32 * 15.0)  # 480 W
    assert figures["pluggable"]["lasers"] == 32 * (4 * 2)  # SR4: 4 per port, 2 ports
    assert figures["linear"]["modules"] == {"dsp": 0, "linear": 32}
    assert figures["linear"]["power_w"] == pytest.approx(32 * 8.5)  # 272 W
    assert figures["linear"]["lasers"] == 32 * (4 * 2)  # DR4: 4 per port, 2 ports


def test_co_packaged_port_takes_a_fibre_and_no_module(xdr_pair):
    design, plant = xdr_pair["co-packaged"]
    phys = build_plant(plant)
    assert phys.cages_invalid == 0 and not phys.findings
    modules = phys.of("module")
    # Only the servers' ConnectX-8 modules: none for a co-packaged port.
    assert {m.part_id for m in modules} == {"xdr-dr4-flat"}
    assert sum(m.quantity for m in modules) == 32
    # Every link still takes one single-mode fibre (64 links: 32 server-leaf, 32 leaf-spine).
    assert sum(f.quantity for f in phys.of("fibre")) == len(design.links) == 64
    assert phys.co_packaged_ports == 32 + 32 + 32  # leaf down + leaf up + spine down
    # The laser sources are bought, powered and listed: 8 on the leaf, 2 on each spine.
    (sources,) = phys.of("laser-source")
    assert (sources.part_id, sources.quantity) == ("q3450-els", 8 + 2 + 2)
    lines = [ln for ln in bom_lines(design, plant) if ln.category == "Laser sources"]
    assert sum(ln.quantity for ln in lines) == 12


def test_laser_sources_are_in_the_switch_rack_power(xdr_pair):
    design, plant = xdr_pair["co-packaged"]
    phys = build_plant(plant)
    leaf = next(d for d in design.devices.values() if d.role == "leaf")
    # 64 co-packaged ports at 2.5 W + 8 laser sources at 16 W are the leaf's plug power.
    assert phys.device_power_w[leaf.id] == pytest.approx(64 * 2.5 + 8 * 16.0)
    # The one-rack figure the canvas and inspector show agrees with the whole plant's.
    whole = analyze(design, plant).rack_power_w[leaf.rack]
    assert rack_power(design, plant, [leaf.rack])[leaf.rack] == pytest.approx(whole)
    switch_w = builtin_catalog().device_types["q3450-ld"].power_typical_w
    assert whole[0] >= switch_w + 64 * 2.5 + 8 * 16.0


def test_analysis_and_kpis_compare_the_strategies(xdr_pair):
    from model.studies.compare import kpis

    got = {}
    for optics, (design, plant) in xdr_pair.items():
        j = analyze(design, plant).to_json()
        got[optics] = (j, kpis(j))
    plug, cpo = got["pluggable"], got["co-packaged"]
    assert plug[0]["optics"]["strategy"]["leaf"] == "pluggable"
    assert cpo[0]["optics"]["strategy"] == {
        "leaf": "co-packaged",
        "spine": "co-packaged",
        "core": "co-packaged",
    }
    # Co-packaged: fewer watts, lasers and optics dollars per GPU, fewer optics failures.
    for key in ("optics_w_per_gpu", "lasers_per_gpu", "optics_cost_per_gpu_usd"):
        assert cpo[1][key] < plug[1][key], key
    assert cpo[1]["failures_per_day"] < plug[1]["failures_per_day"]
    # The laser sources and engines are in the design's power and cost (= the BOM's).
    assert cpo[0]["power_w"]["laser_sources"] == pytest.approx(12 * 16.0)
    assert cpo[0]["power_w"]["co_packaged_optics"] == pytest.approx(96 * 2.5)
    assert cpo[0]["cost_usd"]["laser_sources"] == pytest.approx(12 * 1000.0)
    # Hand: 32 CX-8 modules (13 W) + 96 ports (2.5 W) + 12 sources (16 W) over 32 GPUs.
    assert cpo[1]["optics_w_per_gpu"] == pytest.approx((32 * 13 + 96 * 2.5 + 12 * 16) / 32)
    assert cpo[1]["lasers_per_gpu"] == pytest.approx((32 * 4 + 12 * 8) / 32)


def test_optics_option_refusals():
    with pytest.raises(GenerateError, match="one of pluggable, linear, co-packaged"):
        parse_optics("cpo")
    with pytest.raises(GenerateError, match="tier must be one of"):
        parse_optics("row=linear")
    assert parse_optics("leaf=co-packaged,spine=linear") == {
        "leaf": "co-packaged",
        "spine": "linear",
    }
    # No co-packaged Tomahawk-5 box in the catalog: refused, naming the switch.
    with pytest.raises(GenerateError, match="tomahawk5-64x800"):
        generate(
            "leaf-spine",
            nodes=4,
            node_type="dgx-h100",
            switch="tomahawk5-64x800",
            optics="co-packaged",
        )


def test_linear_parts_never_chosen_without_the_strategy():
    design = generate("leaf-spine", nodes=4, node_type="dgx-h100", switch="tomahawk5-64x800")
    design.set_settings(msgspec.structs.replace(design.settings, media_policy="lowest-power"))
    phys = build_plant(_plant(design))
    cat = builtin_catalog()
    assert all(cat.module_parts[m.part_id].optics == "dsp" for m in phys.of("module"))


def test_sweep_sets_the_three_strategies_side_by_side():
    from model.studies.sweep import evaluate, parse_vary, variants

    vary = parse_vary(["optics=pluggable,linear,co-packaged"])
    base = {"nodes": 4, "node_type": "dgx-b300", "switch": "q3400"}
    rows = {p["optics"]: evaluate("leaf-spine", p) for p in variants(base, vary)}
    assert list(rows) == ["pluggable", "linear", "co-packaged"]
    assert all(r["error"] == "" for r in rows.values())
    # NVIDIA sells no linear module for Quantum-X800: linear builds as pluggable there.
    assert rows["linear"]["optics_w_per_gpu"] == rows["pluggable"]["optics_w_per_gpu"]
    plug, cpo = rows["pluggable"], rows["co-packaged"]
    assert plug["optics_w_per_gpu"] == pytest.approx(1616 / 32)  # 80 modules, see above
    assert cpo["optics_w_per_gpu"] == pytest.approx((32 * 13 + 96 * 2.5 + 12 * 16) / 32)
    assert cpo["lasers_per_gpu"] < plug["lasers_per_gpu"]
    assert cpo["failures_per_day"] < plug["failures_per_day"]


def test_a_strategy_the_cages_cannot_take_is_said():
    design = generate("leaf-spine", nodes=4, node_type="dgx-b300", switch="q3400", optics="linear")
    report = analyze(design, _plant(design))
    unmet = [w for w in report.warnings if w.code == "OPTICS_STRATEGY_UNMET"]
    assert {w.severity for w in unmet} == {"info"}
    assert sorted(w.message.split(" tier")[0] for w in unmet) == ["the leaf", "the spine"]
    leaf = next(w for w in unmet if w.message.startswith("the leaf"))
    assert "no linear (LPO) module" in leaf.message and "32 cages" in leaf.message
    assert leaf.objects == ("leaf01",)
    # Met where the catalog has the part: Tomahawk-5 at lowest power takes LPO modules.
    th5 = generate(
        "leaf-spine", nodes=4, node_type="dgx-h100", switch="tomahawk5-64x800", optics="linear"
    )
    th5.set_settings(msgspec.structs.replace(th5.settings, media_policy="lowest-power"))
    assert not [w for w in analyze(th5, _plant(th5)).warnings if w.code == "OPTICS_STRATEGY_UNMET"]


def test_co_packaged_with_every_network_swaps_the_switches_that_have_a_twin():
    """A GB300 hall with every network: the leaf tier is the Q3400 compute leaves and the
    Spectrum-4 storage and in-band leaves. Co-packaged puts the Q3450-LD in place of each
    Q3400 (leaves and spines) and keeps the others pluggable, said by an info finding; it was
    refused outright, so co-packaged optics could not be priced on such a hall."""
    design = generate("nvl72", racks=8, platform="gb300", fabrics="all", optics="co-packaged")
    types = Counter((d.role, d.type) for d in design.devices.values())
    assert types[("leaf", "q3450-ld")] == 8 and types[("spine", "q3450-ld")] == 4
    assert not types[("leaf", "q3400")] and not types[("spine", "q3400")]
    assert types[("leaf", "sn5600")] and types[("leaf", "sn4600c")]  # no twin: pluggable
    # The name states the scale-out switch the hall has, not the one asked for.
    assert design.name == "GB300 NVL72 x 8, q3450-ld scale-out"
    report = analyze(design, _plant(design))
    unmet = [w for w in report.warnings if w.code == "OPTICS_STRATEGY_UNMET"]
    assert unmet and {w.severity for w in unmet} == {"info"}
    assert not [w for w in report.warnings if w.severity == "error"]
    # The compute tiers' optics are the co-packaged ports and their laser sources now.
    tiers = report.to_json()["optics"]["by_tier"]
    assert tiers["leaf"]["co_packaged_ports"] == 8 * 144
    assert tiers["spine"]["co_packaged_ports"] == 4 * 144
    assert tiers["leaf"]["laser_sources"] == 8 * 18


def test_co_packaged_is_refused_where_no_switch_of_the_tier_has_a_twin():
    with pytest.raises(GenerateError, match="sn5600"):
        generate("leaf-spine", nodes=4, node_type="dgx-b300", switch="sn5600", optics="co-packaged")


def test_a_tier_already_co_packaged_meets_a_co_packaged_strategy():
    """A Vera Rubin hall's SN6810 leaves are co-packaged already: with every network the leaf
    tier (SN6810, SN5600, SN4600C) was refused because the Spectrum-4/-3 leaves have no twin."""
    design = generate("nvl72", racks=1, platform="vera-rubin", fabrics="all", optics="co-packaged")
    types = Counter((d.role, d.type) for d in design.devices.values())
    assert types[("leaf", "sn6810")] and types[("leaf", "sn5600")]
    assert design.settings.optics_strategy["leaf"] == "co-packaged"


def test_the_unmet_finding_names_only_the_switches_left_pluggable():
    """A partly swapped leaf tier (GB300, every network): the finding named every leaf, the
    Q3450-LD too; it names the SN5600 / SN4600C leaves that keep their cages, and each of them."""
    design = generate("nvl72", racks=1, platform="gb300", fabrics="all", optics="co-packaged")
    types = design.catalog.device_types
    report = analyze(design, _plant(design))
    (leaf,) = [
        w for w in report.warnings if w.code == "OPTICS_STRATEGY_UNMET" and "leaf tier" in w.message
    ]
    named = {design.devices[d].type for d in leaf.objects}
    assert named and not [t for t in named if types[t].laser_sources]
    pluggable = {
        d.id
        for d in design.devices.values()
        if d.role == "leaf"
        and types[d.type].category == "switch"
        and not types[d.type].laser_sources
    }
    assert set(leaf.objects) == pluggable
