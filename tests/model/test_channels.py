"""Channel loss budgets, panel rules and polarity on hand-built channels (figures hand-computed).

Figures: MPO mated pair 0.35 dB, LC 0.25 dB, MMF 3.0 dB/km, OS2 0.4 dB/km (NV-STRUCT); limits
sr4-400g 1.9 dB (estimate), dr4-400g 3.0 dB (TIA-FOTC), fr4-400g 4.0 dB (estimate).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from model.catalog.structured import STRUCTURED_FILE, structured_catalog
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.structured.channel_checks import channel_findings, channel_summary
from model.structured.channels import Channel, Element, direct_channel, loss_budget, plant_channels
from model.structured.polarity import check_polarity
from tests.model.test_catalog_sources import load_sources, unresolved_keys

ROOT = Path(__file__).resolve().parents[2]
E = Element


def mpo_channel(medium, mode, cords_m, trunks_m, panels, trunk_type="B", cord_type="A"):
    """cord - (panel - trunk - )* panel - cord; ``panels`` patch points, trunks between them."""
    if panels == 0:
        return Channel("L1", medium, mode, "MPO-12/APC", (E("cord", "c1", "", cords_m, "B"),))
    els = [E("cord", "c1", "", cords_m / 2, cord_type)]
    for i in range(panels):
        els.append(E("panel", f"p{i + 1}", "panel-mpo-1u-72"))
        if i < panels - 1:
            els.append(
                E("trunk", f"t{i + 1}", "trunk-mpo12-mm", trunks_m / (panels - 1), trunk_type)
            )
    if panels == 1:  # one panel: the second segment is a trunk running to the far module
        els.append(E("trunk", "t1", "trunk-mpo12-mm", trunks_m, trunk_type))
    els.append(E("cord", "c2", "", cords_m / 2, cord_type))
    return Channel("L1", medium, mode, "MPO-12/APC", tuple(els))


def lc_cassette_channel(k_far=6, trunk="B", near_cord="AB", far_cord="AB", length_m=100.0):
    return Channel(
        "L2",
        "fr4-400g",
        "smf",
        "LC duplex",
        (
            E("cord", "c1", "", 2.0, near_cord),
            E("cassette", "k1", "cassette-mpo12-lc6-a", port=1),
            E("trunk", "t1", "trunk-mpo12-sm", length_m, trunk),
            E("cassette", "k2", "cassette-mpo12-lc6-a", port=k_far, reverse=True),
            E("cord", "c2", "", 2.0, far_cord),
        ),
    )


def codes(channel):
    return [f.code for f in channel_findings([channel])]


# --- loss budgets ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("panels", "cords_m", "trunks_m", "loss_db"),
    [
        (0, 30.0, 0.0, 0.090),  # 30 m x 3 dB/km
        (1, 4.0, 30.0, 0.35 + 0.102),  # one adapter + 34 m
        (2, 6.0, 40.0, 0.70 + 0.138),  # two adapters + 46 m
        (4, 6.0, 30.0, 1.40 + 0.108),  # four adapters + 36 m
    ],
)
def test_multimode_loss_is_mated_pairs_plus_length_times_attenuation(
    panels, cords_m, trunks_m, loss_db
):
    channel = mpo_channel("sr4-400g", "mmf", cords_m, trunks_m, panels)
    budget = loss_budget(channel)
    assert budget.mated_pairs == ("MPO",) * panels
    assert budget.loss_db == pytest.approx(loss_db)
    assert budget.limit_db == 1.9
    assert budget.margin_db == pytest.approx(1.9 - loss_db)


@pytest.mark.parametrize(
    ("panels", "length_m", "loss_db"),
    [(0, 500.0, 0.2), (1, 200.0, 0.35 + 0.08), (2, 300.0, 0.70 + 0.12), (4, 100.0, 1.40 + 0.04)],
)
def test_single_mode_loss_and_margin(panels, length_m, loss_db):
    channel = mpo_channel("dr4-400g", "smf", 2.0, length_m - 2.0, panels)
    if panels == 0:
        channel = direct_channel("L1", "dr4-400g", "smf", "MPO-12/APC", length_m)
    budget = loss_budget(channel)
    assert budget.loss_db == pytest.approx(loss_db)
    assert budget.margin_db == pytest.approx(3.0 - loss_db)
    assert budget.max_panels is None  # no panel rule for single-mode in NV-STRUCT
    assert "CHANNEL_TOO_MANY_PANELS" not in codes(channel)


def test_cassettes_count_two_mated_pairs_each():
    budget = loss_budget(lc_cassette_channel(length_m=100.0))
    assert budget.mated_pairs == ("LC", "MPO", "LC", "MPO")
    assert budget.loss_db == pytest.approx(2 * (0.25 + 0.35) + 104.0 * 0.4 / 1000)
    assert budget.margin_db == pytest.approx(4.0 - budget.loss_db)


def test_over_budget_warning_names_the_link_and_every_element():
    # 4 adapters 1.40 dB + 180 m x 3 dB/km 0.54 dB = 1.94 dB > 1.9 dB
    channel = mpo_channel("sr4-400g", "mmf", 6.0, 174.0, 4)
    findings = {f.code: f for f in channel_findings([channel])}
    over = findings["CHANNEL_LOSS_OVER_BUDGET"]
    assert over.objects == ("L1", "c1", "p1", "t1", "p2", "t2", "p3", "t3", "p4", "c2")
    assert "1.94 dB" in over.message and "by 0.04 dB" in over.message
    assert "CHANNEL_TOO_MANY_PANELS" in findings  # 4 > 2 patch panels (NV-STRUCT)
    assert "CHANNEL_REACH_EXCEEDED" in findings  # 180 m > 50 m with panels


def test_panel_reach_rule_depends_on_the_panel_count():
    # 60 m direct on OM4: within the medium's reach (checked by the plant), no panel rule.
    direct = direct_channel("L1", "sr4-400g", "mmf", "MPO-12/APC", 60.0)
    assert loss_budget(direct).reach_m is None
    assert "CHANNEL_REACH_EXCEEDED" not in codes(direct)
    two = mpo_channel("sr4-400g", "mmf", 6.0, 54.0, 2)  # 60 m through two panels
    assert loss_budget(two).reach_m == 50
    assert codes(two) == ["CHANNEL_REACH_EXCEEDED"]
    assert codes(mpo_channel("sr4-400g", "mmf", 6.0, 40.0, 2)) == []  # 46 m: fine
    three = mpo_channel("sr4-400g", "mmf", 6.0, 20.0, 3)
    # Two Type-B trunks in series cancel each other's flip: polarity is caught as well.
    assert codes(three) == ["CHANNEL_TOO_MANY_PANELS", "POLARITY_MISMATCH"]


# --- polarity -------------------------------------------------------------------------------


def test_direct_channels_are_polarity_correct():
    for connector in ("MPO-12/APC", "MPO-16/APC", "LC duplex"):
        assert check_polarity(direct_channel("L", "m", "mmf", connector, 5.0)).ok


def test_polarity_method_a_b_c_compose_tx_onto_rx():
    method_a = lc_cassette_channel(k_far=1, trunk="A", near_cord="AA", far_cord="AB")
    method_b = lc_cassette_channel(k_far=6, trunk="B")  # port 1 arrives on port 6 (mirrored)
    method_c = lc_cassette_channel(k_far=1, trunk="C")
    for channel in (method_a, method_b, method_c):
        assert check_polarity(channel).ok, channel
    # Parallel optics across a Type-B trunk need no flip, with straight or crossed cords.
    assert check_polarity(mpo_channel("sr4-400g", "mmf", 6, 30, 2, "B", "A")).ok
    assert check_polarity(mpo_channel("sr4-400g", "mmf", 6, 30, 2, "B", "B")).ok


def test_a_type_a_trunk_between_straight_cords_is_caught_and_a_cord_named():
    channel = mpo_channel("sr4-400g", "mmf", 6.0, 30.0, 2, trunk_type="A")
    result = check_polarity(channel)
    assert not result.ok
    assert result.wrong[0] == ("A", 1, 1, 1, 12)
    (finding,) = channel_findings([channel])
    assert finding.code == "POLARITY_MISMATCH"
    # Cheapest fix first: a cord is swapped in minutes, a trunk is re-ordered and re-pulled.
    assert finding.objects == ("L1", "c1")
    assert "change cord c1 from Type A to Type B" in finding.message
    # Crossed cords at both ends and a Type-A trunk: the two flips cancel; again a cord.
    crossed = mpo_channel("sr4-400g", "mmf", 6.0, 30.0, 2, trunk_type="A", cord_type="B")
    assert not check_polarity(crossed).ok
    # A lone Type-A trunk has no cord to change: the trunk is named.
    assert channel_findings([crossed])[0].objects == ("L1", "c1")
    one = Channel("L1", "sr4-400g", "mmf", "MPO-12/APC", (E("trunk", "t9", "", 30.0, "A"),))
    (finding,) = channel_findings([one])
    assert finding.objects == ("L1", "t9")
    assert "change trunk t9 from Type A to Type B" in finding.message


def test_method_a_with_two_straight_cords_names_a_cord():
    channel = lc_cassette_channel(k_far=1, trunk="A", near_cord="AA", far_cord="AA")
    result = check_polarity(channel)
    assert not result.ok
    assert "change cord c1 from Type AA to Type AB" in result.message(channel)


def test_method_b_plugged_at_the_wrong_far_port_is_lost_and_the_port_named():
    channel = lc_cassette_channel(k_far=1, trunk="B")
    result = check_polarity(channel)
    assert result.wrong[0][3] is None  # the fibre arrives on another port
    message = result.message(channel)
    assert "is lost (wrong port)" in message
    assert "change cassette k2 from LC port 1 to port 6" in message
    fixed = lc_cassette_channel(k_far=6, trunk="B")
    assert check_polarity(fixed).ok


# --- catalog and plant ----------------------------------------------------------------------


def test_structured_catalog_sources_resolve_and_every_module_medium_has_a_limit():
    assert unresolved_keys([STRUCTURED_FILE], load_sources()) == []
    catalog = structured_catalog()
    design_catalog = load_design(ROOT / "resources" / "examples" / "superpod-4su.hall.json")
    module_media = {p.medium for p in design_catalog.catalog.module_parts.values()}
    assert module_media <= set(catalog.limits)
    assert catalog.trunk_for("mmf", 12).id == "trunk-mpo12-mm"
    assert catalog.trunk_for("mmf", 13).fibres == 16
    assert catalog.trunk_for("smf", 16).fibres == 24


def test_plant_channels_of_the_superpod_are_direct_with_loss_equal_to_fibre_length():
    design = load_design(ROOT / "resources" / "examples" / "superpod-4su.hall.json")
    plant = RoutedLinks(design)
    channels = plant_channels(plant)
    assert channels
    att = structured_catalog().attenuation_db_per_km
    for link_id, channel in channels.items():
        row = plant.index[link_id]
        assert channel.style == "direct"
        assert channel.length_m == plant.ordered_m[row]
        assert loss_budget(channel).loss_db == pytest.approx(
            plant.ordered_m[row] / 1000 * att[channel.mode]
        )
    summary = channel_summary(channels.values())
    assert summary["total"] == len(channels)
    assert summary["over_budget"] == 0 and summary["polarity_errors"] == 0
    assert 0 < summary["max_loss_db"] < 0.2  # at most 50 m of MMF: 0.15 dB
    assert channel_findings(channels.values()) == []
