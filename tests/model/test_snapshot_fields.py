"""A plant's snapshot takes a declared list of attributes, not whatever the plant's ``__dict__``
holds: every attribute a plant of any kind holds is declared, and an undeclared one is refused."""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import PLANT_FIELDS, Snapshotter, freeze_plant, snapshot
from model.generators.generate import apply_cabling, generate
from tests.builders import empty_hall, small_pod

H100 = dict(nodes=32, su_nodes=32, node_type="dgx-h100", switch="qm9700")


# Built by the test that uses it, not while pytest collects: every xdist worker collects every
# module, and the two 1-SU halls took ~0.2 s of CPU in each, also where the test then ran
# elsewhere.
DESIGNS = {
    "empty hall": empty_hall,
    "small pod": small_pod,
    **{
        f"1 SU, every network, {cabling}": (
            lambda cabling=cabling: apply_cabling(
                generate("rail-optimized", fabrics="all", **H100), cabling
            )
        )
        for cabling in ("direct", "zones")
    },
}


@pytest.mark.parametrize("name", list(DESIGNS), ids=lambda v: v[:24])
def test_every_attribute_of_a_used_plant_is_declared_and_taken(name):
    design = DESIGNS[name]()
    plant = RoutedLinks(design)
    plant.refresh()
    analyze(design, plant)  # builds what the analysis builds on first use (the row index)
    frozen_design, frozen = snapshot(design, plant)
    analyze(frozen_design, frozen)
    assert set(plant.__dict__) <= PLANT_FIELDS, name
    assert set(frozen.__dict__) == set(plant.__dict__), name
    snapper = Snapshotter(design, plant)  # the editor's way, reusing the previous snapshot
    try:
        first, again = snapper.take()[1], snapper.take()[1]
    finally:
        snapper.close()
    assert set(first.__dict__) == set(again.__dict__) == set(plant.__dict__), name


def test_a_plant_holding_an_undeclared_attribute_is_refused():
    design = small_pod()
    plant = RoutedLinks(design)
    plant.refresh()
    plant._new_cache = {}
    with pytest.raises(TypeError, match="_new_cache"):
        freeze_plant(plant, design)
