"""The tray trunks (model/analysis/tray_trunks.trunk_load) read the channels' plant rows the
physical plant found (``PhysicalPlant.structured_rows``) instead of finding them again: the
same TrunkLoad as found by themselves, on a zoned and a cross-connect hall."""

from __future__ import annotations

import numpy as np
import pytest

from cli import run_cli
from model.analysis.tray_trunks import trunk_load
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.plant.physical_plant import build_plant
from model.structured.channels import kept_plant_rows, rows_in_plant


@pytest.fixture(scope="module", params=["zones", "cross-connect"])
def zoned_plant(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("trunk-rows") / "ft4.hall.json"
    args = ["generate", "fat-tree", "--k", "4", "--switch", "qm9700", "--cabling", request.param]
    assert run_cli([*args, "-o", str(path)]) == 0
    plant = RoutedLinks(load_design(path))
    plant.refresh()
    return plant


def test_plant_rows_are_the_channels_rows(zoned_plant):
    phys = build_plant(zoned_plant)
    layout = phys.structured
    assert layout is not None and len(layout.trunks)
    table = layout.channels
    kept = kept_plant_rows(zoned_plant, table.fibres)
    own = rows_in_plant(zoned_plant, table.link_ids, table.fibre_rows, kept)
    assert phys.structured_rows is not None and np.array_equal(phys.structured_rows, own)


def test_trunk_load_with_the_plant_rows_is_the_plain_one(zoned_plant):
    phys = build_plant(zoned_plant)
    given = trunk_load(zoned_plant, phys.structured, phys.structured_rows)
    plain = trunk_load(zoned_plant, phys.structured)
    assert given.plus and given == plain
