"""Floor load: rack weights from the catalog, load per m2 and per tile against the hall's rating."""

from __future__ import annotations

import msgspec
import pytest

from model.analysis.analyzer import analyze
from model.catalog.components import CatalogFile, RackType
from model.design.design import Design
from model.design.entities import Hall
from model.facility.floor_load import (
    floor_findings,
    floor_load,
    rack_weights_kg,
    tile_loads_kg_m2,
)
from tests.builders import device, empty_hall, rack


def _heavy_hall(rating: float | None, x: float = 1.5, y: float = 3.0) -> Design:
    """One 1,800 kg rack on a 1.0 x 1.2 m (1.2 m2) footprint, tiles of 0.5 m."""
    heavy = RackType(
        id="heavy",
        model="1.8 t rack",
        width_m=1.0,
        depth_m=1.2,
        height_u=48,
        power_budget_kw=200,
        empty_weight_kg=1800,
        source="estimate",
    )
    hall = Hall(
        outline=[(0.0, 0.0), (10.0, 0.0), (10.0, 8.0), (0.0, 8.0)],
        tile_m=0.5,
        floor_rating_kg_m2=rating,
    )
    design = Design(hall, name="floor", custom_types=CatalogFile(rack_types=[heavy]))
    rack(design, "r1", x, y, type_id="heavy")
    return design


def test_rack_weight_is_empty_rack_plus_its_devices():
    design = empty_hall(20.0, 10.0)
    rack(design, "r1", 1.0, 3.0, type_id="rack-nvl72")
    for t in range(18):
        device(design, f"c{t}", "r1", 10 + t, "gb200-compute-tray")
    for t in range(9):
        device(design, f"s{t}", "r1", 30 + t, "gb200-nvlink-switch-tray")
    # 415 kg empty + 18 x 40 + 9 x 25 = 1,360 kg: the ~1.36 t of a full NVL72 (INTROL-GB300)
    assert rack_weights_kg(design) == {"r1": pytest.approx(1360.0)}


def test_1_8_t_on_1_2_m2_against_1200_kg_m2_warns_naming_the_tiles():
    design = _heavy_hall(1200.0)
    found = floor_findings(design)
    assert [(f.code, f.objects) for f in found] == [("FLOOR_OVERLOAD", ("r1",))]
    # 1,800 kg / 1.2 m2 = 1,500 kg/m2 > 1,200. Footprint x 1.0..2.0, y 2.4..3.6 on 0.5 m
    # tiles: columns 2-3, rows 4-7 (row 4 from y 2.0, row 7 up to 3.5..4.0).
    message = found[0].message
    assert "1,500 kg/m2" in message and "1,200 kg/m2" in message
    assert "tiles 2,4 2,5 2,6 2,7 3,4 3,5 3,6 3,7" in message
    assert floor_findings(_heavy_hall(1500.0)) == []  # at the rating: no warning
    assert floor_findings(_heavy_hall(None)) == []  # no rating stated: nothing checked


def test_tile_loads_share_the_mass_by_covered_area():
    design = _heavy_hall(1200.0)
    tiles = tile_loads_kg_m2(design)
    # A fully covered tile carries the footprint's 1,500 kg/m2; tile 2,4 is covered
    # 0.5 x 0.1 m (y 2.4..2.5): 1,800 x 0.05 / 1.2 = 75 kg on 0.25 m2 = 300 kg/m2.
    assert tiles[(2, 5)] == pytest.approx(1500.0)
    assert tiles[(2, 4)] == pytest.approx(300.0)
    assert sum(kg * 0.25 for kg in tiles.values()) == pytest.approx(1800.0)


def test_analyze_json_floor_load_when_the_hall_states_a_rating():
    design = _heavy_hall(1200.0)
    report = analyze(design).to_json()
    assert report["floor_load"]["max_rack_load_kg_m2"] == pytest.approx(1500.0)
    assert report["floor_load"]["racks_over_rating"] == ["r1"]
    assert any(w["code"] == "FLOOR_OVERLOAD" for w in report["warnings"])
    assert "floor_load" not in analyze(_heavy_hall(None)).to_json()
    assert floor_load(_heavy_hall(None)) == {}
    assert floor_load(_heavy_hall(1200.0))["total_rack_mass_kg"] == 1800.0


def test_the_rating_is_a_hall_setting_that_round_trips():
    hall = Hall(outline=[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)], floor_rating_kg_m2=1200.0)
    data = msgspec.json.encode(hall)
    assert b'"floor_rating_kg_m2":1200.0' in data
    assert msgspec.json.decode(data, type=Hall) == hall
