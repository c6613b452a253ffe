"""``plant_findings`` (what ``routes`` prints) lists exactly ``build_plant(plant).findings``.

The findings-only path skips the plant's items, power and the structured overlay's BOM lines;
it must keep the plug rules and the layout's findings as build_plant has them, in its order.
Each case below makes findings of one kind (plugs, panels, vias, records) or none.
"""

from __future__ import annotations

import msgspec
import pytest

from model.design.design import Design
from model.design.structured_edit import panels_in_rack, place_panel, remove_panels, route_via
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes
from model.generators.generate import apply_cabling, generate
from model.plant.physical_plant import build_plant, plant_findings
from model.structured.layout import set_cabling, structured_layout
from tests.builders import empty_hall
from tests.model.test_plant_rules import connect, one_rack
from tests.model.test_structured_panels import zone_hall


def _pinned(design: Design, **media: str) -> Design:
    design.update_links(
        [msgspec.structs.replace(design.links[x], medium=m) for x, m in media.items()]
    )
    return design


def _rails() -> Design:
    design = one_rack("dgx-h100", "qm9700", "qm9700")
    connect(
        design,
        [("rail1", ("d1", "nic1"), ("d2", "p1")), ("rail2", ("d1", "nic2"), ("d3", "p1"))],
        1.0,
    )
    return design


def _full_rack() -> Design:
    design = zone_hall("sr4-400g")
    set_cabling(design, "cross-connect")
    for panel in list(panels_in_rack(design, "b1")):
        remove_panels(design, [panel.id])
    for u in range(design.racks["b1"].height_u, 0, -1):
        try:
            place_panel(design, "b1", "enclosure-1u-4", u=u)
        except ValueError:  # a U the switch takes
            continue
    return design


def _missing_via() -> Design:
    design = zone_hall("sr4-400g")
    p1 = panels_in_rack(design, "a1")[0].id
    route_via(design, "l-11", [p1])
    data = design_to_bytes(design).replace(f'"via":["{p1}"]'.encode(), b'"via":["pp-gone"]')
    return read_design_bytes(data)


def _wrong_record() -> Design:
    design = zone_hall("dr4-400g")
    pieces = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0)  # a cord, four trunks, a cord: not its channel
    design.update_links([msgspec.structs.replace(design.links["l-11"], as_built_pieces_m=pieces)])
    return design


CASES = {
    "mixed-plugs": (lambda: _pinned(_rails(), rail1="dac-400g"), "CAGE_MIXED_PLUGS"),
    "split-cable": (
        lambda: _pinned(_rails(), rail1="dac-400g", rail2="dac-400g"),
        "CAGE_SPLIT_CABLE",
    ),
    "zones-mixed-plugs": (
        lambda: _pinned(zone_hall("sr4-400g"), **{"l-11": "dr4-400g"}),
        "CAGE_MIXED_PLUGS",
    ),
    "panels-not-placed": (_full_rack, "PANELS_NOT_PLACED"),
    "via-missing": (_missing_via, "VIA_PANEL_MISSING"),
    "record-unused": (_wrong_record, "RECORDED_PIECES_UNUSED"),
    "zones-clean": (lambda: zone_hall("dr4-400g"), None),
    "no-link": (empty_hall, None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_plant_findings_are_the_built_plant_s(case):
    make, code = CASES[case]
    plant = RoutedLinks(make())
    got = plant_findings(plant)
    assert got == build_plant(plant).findings
    if code is None:
        assert got == []
    else:
        assert code in {f.code for f in got}


@pytest.mark.parametrize("case", ["panels-not-placed", "zones-mixed-plugs", "mixed-plugs"])
def test_routes_prints_the_report_with_the_layout_it_keeps(case, tmp_path, capsys):
    """``main.py routes`` lays the design out once and passes the layout to the findings: its
    output is the report of a plant that lays it out itself."""
    from cli import run_cli
    from cli.routes_command import route_report
    from model.files.design_file import load_design, save_design

    path = tmp_path / "case.hall.json"
    save_design(CASES[case][0](), path)
    assert run_cli(["routes", str(path)]) == 0
    printed = capsys.readouterr().out
    design = load_design(path)
    expected = route_report(design, RoutedLinks(design))
    assert printed == expected and CASES[case][1] in printed


def _typed_zones() -> Design:
    design = zone_hall("sr4-400g")
    design.update_links(
        [
            msgspec.structs.replace(design.links["l-11"], length_override_m=49.0),
            msgspec.structs.replace(design.links["l-21"], length_override_m=2.0),
        ]
    )
    return design


LAYOUTS = {
    **{k: v[0] for k, v in CASES.items()},
    "typed-zones": _typed_zones,
    **{
        f"rail-{cabling}": (
            lambda cabling=cabling: apply_cabling(
                generate(
                    "rail-optimized",
                    fabrics="all",
                    nodes=64,
                    node_type="dgx-h100",
                    switch="qm9700",
                    su_nodes=32,
                ),
                cabling,
            )
        )
        for cabling in ("cross-connect", "zones")
    },
}


@pytest.mark.parametrize("case", sorted(LAYOUTS))
def test_the_findings_only_layout_has_the_full_layout_s_findings_and_cords(case):
    plant = RoutedLinks(LAYOUTS[case]())
    full = structured_layout(plant)
    lean = structured_layout(plant, findings_only=True)
    assert lean.findings == full.findings
    assert lean.cords.link_ids == full.cords.link_ids
    assert bool(full.cords.link_ids) == bool(full.channels.structured)
    assert (lean.cords.a_m, lean.cords.b_m) == (full.cords.a_m, full.cords.b_m)
    assert (lean.cords.a_ordered, lean.cords.b_ordered) == (
        full.cords.a_ordered,
        full.cords.b_ordered,
    )
