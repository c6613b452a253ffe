"""The media choice judges a paneled link on its channel's length as the layout lays it (cords
and trunks at their stock lengths, a service loop per trunk), not on the routed link's: a 44.8 m
link is a 58 m channel through two panels, past the 50 m multimode reaches with panels."""

from __future__ import annotations

import dataclasses

import msgspec
import numpy as np
import pytest

from model.analysis.analyzer import analyze
from model.design.records import Tray
from model.engine.routed_links import RoutedLinks
from model.structured.layout import structured_layout
from tests.builders import device, empty_hall, link, rack


def _row(apart_m: float, cabling: str = "cross-connect"):
    """A DGX H100 (rack a1) with both ports of its first twin-port cage cabled to a QM9700
    ``apart_m`` along one tray (rack b1)."""
    design = empty_hall(60.0, 8.4)
    rack(design, "a1", 1.5, 3.0)
    rack(design, "b1", 1.5 + apart_m, 3.0)
    design.add_trays([Tray(id="t", points=[(0.6, 3.0), (59.4, 3.0)])])
    device(design, "g1", "a1", 2, "dgx-h100")
    device(design, "s1", "b1", 20, "qm9700")
    link(design, "n1", ("g1", "nic1"), ("s1", "p1"))
    link(design, "n2", ("g1", "nic2"), ("s1", "p2"))
    design.set_settings(msgspec.structs.replace(design.settings, cabling=cabling))
    plant = RoutedLinks(design)
    plant.refresh()
    return design, plant


def test_a_link_within_reach_whose_channel_is_not_gets_single_mode_on_its_whole_cage():
    design, plant = _row(36.0)
    routed_m = float(plant.length_m[plant.index["n1"]])
    assert routed_m < 50.0  # multimode would reach the link itself
    channel = structured_layout(plant).channels["n1"]
    assert channel.length_m > 50.0  # trunk at 50 m stock + two cords
    assert {plant.medium(lid).kind for lid in ("n1", "n2")} == {"smf"}
    codes = [w.code for w in analyze(design, plant).warnings]
    assert "CHANNEL_REACH_EXCEEDED" not in codes


def test_a_channel_within_the_paneled_reach_keeps_multimode():
    _, plant = _row(30.0)
    assert structured_layout(plant).channels["n1"].length_m <= 50.0
    assert {plant.medium(lid).kind for lid in ("n1", "n2")} == {"mmf"}


@pytest.mark.parametrize("cabling", ["cross-connect", "zones"])
def test_the_media_choice_counts_the_channel_length_the_layout_lays(cabling):
    """The engine's channel length on each link's chosen medium equals the layout's channel
    length for every two-patch-point channel of a generated hall (the ones multimode may take)."""
    from model.generators.generate import apply_cabling, generate

    design = apply_cabling(
        generate("rail-optimized", nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32),
        cabling,
    )
    plant = RoutedLinks(design)
    plant.refresh()
    layout = structured_layout(plant)
    rows = np.arange(len(plant.link_ids))
    points, pieces = plant._channels(rows)
    from model.engine.cage_choice import _trunk_lengths

    checked = 0
    for link_id, channel in layout.channels.items():
        r = plant.index[link_id]
        if channel.panels != 2 or points[r] != 2:
            continue
        medium = plant.medium(link_id)
        part = design.catalog.fibre_parts[
            next(p.fibre for p in design.catalog.module_parts.values() if p.medium == medium.id)
        ]
        mode = "smf" if medium.kind == "smf" else "mmf"
        one = np.asarray([r])
        got = dataclasses.replace(
            pieces,
            **{f: getattr(pieces, f)[one] for f in ("cord_a_m", "cord_b_m", "trunk_m", "trunks")},
            typed=pieces.typed[one],
        ).length_m(
            np.asarray(part.lengths_m, dtype=float), _trunk_lengths(mode), plant.length_m[one]
        )
        assert float(got[0]) == pytest.approx(channel.length_m), link_id
        checked += 1
    assert checked > 100


def test_after_a_rack_move_the_channel_aware_choice_equals_a_fresh_one():
    """The media choice re-made for a moved rack's components (the editor's refresh) judges
    the channel as a fresh plant of the moved design does: moved from 30 m to 36 m along the
    tray, the pair's channel passes 50 m and both ports of the cage go single-mode."""
    design, plant = _row(30.0)
    assert {plant.medium(lid).kind for lid in ("n1", "n2")} == {"mmf"}
    rack = design.racks["b1"]
    design.move_racks({"b1": (rack.x + 6.0, rack.y)})
    plant.refresh()
    assert {plant.medium(lid).kind for lid in ("n1", "n2")} == {"smf"}
    fresh = RoutedLinks(design)
    fresh.refresh()
    assert np.array_equal(plant.medium_index, fresh.medium_index)
    assert np.array_equal(plant.ordered_m, fresh.ordered_m, equal_nan=True)
