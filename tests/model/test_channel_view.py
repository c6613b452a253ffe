"""The inspector's channel rows: per-element loss adding up to the budget, the element to change,
the panel rule, and where each element is on the plan (figures hand-computed, NV-STRUCT)."""

from __future__ import annotations

import pytest

from model.engine.routed_links import RoutedLinks
from model.structured.channel_view import channel_objects, channel_view
from model.structured.channels import loss_budget
from model.structured.layout import structured_layout
from tests.model.test_channels import lc_cassette_channel, mpo_channel
from tests.model.test_structured_layout import two_rack_hall


@pytest.fixture(scope="module")
def hall():
    design = two_rack_hall(12.0, "sr4-400g")
    return design, structured_layout(RoutedLinks(design))


def test_two_panel_rows_carry_their_own_loss_and_add_up_to_the_budget(hall):
    design, _ = hall
    channel = mpo_channel("sr4-400g", "mmf", 6.0, 40.0, 2)  # 3 m + 40 m + 3 m, two adapters
    view = channel_view(design, channel)
    assert [r.kind for r in view.rows] == ["cord", "panel", "trunk", "panel", "cord"]
    assert [round(r.loss_db, 4) for r in view.rows] == [0.009, 0.35, 0.12, 0.35, 0.009]
    assert sum(r.loss_db for r in view.rows) == pytest.approx(0.838)
    assert sum(r.loss_db for r in view.rows) == pytest.approx(loss_budget(channel).loss_db)
    assert view.rows[1].loss_text == "MPO mated pair 0.35 dB"
    assert view.rows[2].loss_text == "40 m × 3 dB/km"
    # the catalog has EST-TRK-MPO12-OM4-040, an estimate: shown as the BOM lists it
    assert view.rows[2].part == "quote"
    assert view.rows[0].connectors == "MPO-12/APC ↔ MPO-12/APC"
    assert (
        view.panel_rule
        == "2 patch points, within the 2 allowed; 46 m within the 50 m paneled reach"
    )
    assert view.ok and view.polarity_text == "polarity correct"


def test_four_panels_break_the_panel_rule(hall):
    design, _ = hall
    view = channel_view(design, mpo_channel("sr4-400g", "mmf", 6.0, 30.0, 4))
    assert sum(r.loss_db for r in view.rows) == pytest.approx(1.40 + 0.108)
    assert view.panel_rule.startswith("4 patch points, exceeds the 2 allowed")
    assert not view.ok


def test_the_element_to_change_is_flagged_on_its_own_row(hall):
    design, _ = hall
    channel = mpo_channel("sr4-400g", "mmf", 6.0, 30.0, 2, trunk_type="A")
    view = channel_view(design, channel)
    changes = {r.object_id: r.change for r in view.rows if r.change}
    assert changes == {"c1": "change to Type B (flipped)"}
    assert "change cord c1 from Type A to Type B" in view.polarity_text
    wrong_port = channel_view(design, lc_cassette_channel(k_far=1))
    assert {r.object_id: r.change for r in wrong_port.rows if r.change} == {
        "k2": "move to LC port 6"
    }
    # A cassette: two mated pairs (LC front, MPO rear) = 0.25 + 0.35 dB.
    assert wrong_port.rows[1].loss_db == pytest.approx(0.60)
    assert wrong_port.rows[1].connectors == "LC port 1 ↔ MPO rear"
    assert wrong_port.rows[3].connectors == "MPO rear ↔ LC port 1"


def test_layout_elements_are_placed_on_the_plan(hall):
    design, layout = hall
    places = channel_objects(layout, design)
    channel = layout.channels["l-1"]
    cord, near, trunk, far, _ = (e.object_id for e in channel.elements)
    assert places[cord].kind == "cord" and places[cord].link_id == "l-1"
    assert (places[near].rack_id, places[far].rack_id) == ("r1", "n1")
    assert places[trunk].kind == "trunk"
    # The layout's rows for a real channel use its cords' fibre part at their length, and say
    # where each element is.
    view = channel_view(design, channel, layout=layout)
    assert view.rows[0].part.startswith("980-9I570-00N")
    assert [r.place for r in view.rows] == [
        f"a1:nic1 to {near}",
        "in R1",
        "R1 to N1",
        "in N1",
        f"{far} to leaf1:p1",
    ]
