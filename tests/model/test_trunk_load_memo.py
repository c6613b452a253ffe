"""The tray trunks of an editor's layout after rack moves, on the last layout's trunk parts
(:class:`model.analysis.tray_trunks.TrunkLoadMemo`), are the tray trunks found afresh."""

from __future__ import annotations

import random

import msgspec

from model.analysis.tray_trunks import TrunkLoadMemo, trunk_load
from model.catalog.structured import structured_catalog
from model.engine.routed_links import RoutedLinks
from model.structured.channels import rows_in_plant
from model.structured.layout import structured_layout
from model.structured.leg_reuse import LegMemo
from tests.model.test_structured_relay import _hall, _move_some_racks


def test_trunk_loads_after_random_rack_moves_equal_fresh_ones():
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    legs, memo = LegMemo(), TrunkLoadMemo()
    layout = structured_layout(plant, memo=legs)
    assert trunk_load(plant, layout, memo=memo) == trunk_load(plant, layout)
    assert memo.reread_trunks == -1  # the first call reads every trunk
    rng = random.Random(43)
    kept = reread = recounted = 0
    for _ in range(6):
        if not _move_some_racks(design, rng, rng.choice([1, 1, 2])):
            continue
        plant.refresh()
        layout = structured_layout(plant, memo=legs)
        assert trunk_load(plant, layout, memo=memo) == trunk_load(plant, layout)
        kept += memo.reread_trunks >= 0
        reread += memo.reread_trunks > 0
        recounted += memo.recounted_rows >= 0
    # Some call kept the last parts and read the re-made trunks again into them (else this
    # compared two full reads).
    assert kept
    assert reread
    # The links per (route, medium) were counted again only where rows changed, too.
    assert recounted


def _loaded_once():
    """A zoned hall's plant and layout, its trunks loaded once into a memo, and the places of
    the trunks that run along a link's route."""
    plant = RoutedLinks(_hall("fat-tree zoned"))
    layout = structured_layout(plant)
    memo = TrunkLoadMemo()
    trunk_load(plant, layout, memo=memo)
    on_links = [i for i, t in enumerate(layout.trunks) if t.route_link]
    return plant, layout, memo, on_links


def test_a_trunk_re_made_of_another_part_or_route_is_read_again():
    """A trunk record replaced (same count, same channel table) is read again: its part's
    figures and its route link's route are the new ones."""
    plant, layout, memo, on_links = _loaded_once()
    first, other = layout.trunks[on_links[0]], layout.trunks[on_links[-1]]
    parts = sorted(structured_catalog().trunks)
    assert len(parts) > 1 and first.route_link != other.route_link
    layout.trunks[on_links[0]] = msgspec.structs.replace(
        first,
        part=next(p for p in parts if p != first.part),
        route_link=other.route_link,
        quantity=first.quantity + 1,
    )
    again = trunk_load(plant, layout, memo=memo)
    assert memo.reread_trunks == 1
    assert again == trunk_load(plant, layout)


def test_a_trunk_moved_off_its_route_link_reads_every_trunk_again():
    """A re-made trunk with no route link goes among the trunks between racks no link joins:
    the places of the trunks after it move, so every trunk is read again."""
    plant, layout, memo, on_links = _loaded_once()
    trunk = layout.trunks[on_links[0]]
    layout.trunks[on_links[0]] = msgspec.structs.replace(
        trunk, route_link="", panel_a=trunk.panel_a or "", panel_b=trunk.panel_b or ""
    )
    again = trunk_load(plant, layout, memo=memo)
    assert memo.reread_trunks == -1
    assert again == trunk_load(plant, layout)


def test_links_per_route_counted_again_by_the_changed_rows_only():
    """The links per (route, medium) after a rack move, from the last count with the rows
    whose route or medium changed taken out and put in again, are a fresh count; other
    channel rows are counted afresh."""
    design = _hall("fat-tree zoned")
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    memo = TrunkLoadMemo()
    first = trunk_load(plant, layout, memo=memo)
    assert memo.recounted_rows == -1 and first.minus
    rack_id = next(r for r in sorted(design.racks) if design.links_of_racks([r]))
    rack = design.racks[rack_id]
    design.move_racks({rack_id: (rack.x + 0.6, rack.y)})
    plant.refresh()
    moved = trunk_load(plant, layout, memo=memo)
    assert memo.recounted_rows > 0
    assert moved.minus == trunk_load(plant, layout).minus
    rows = rows_in_plant(plant, layout.channels.link_ids)
    other = rows.copy()
    other[0] = other[-1]  # another channel row list: counted whole
    again = trunk_load(plant, layout, other, memo)
    assert memo.recounted_rows == -1
    assert again.minus == trunk_load(plant, layout, other).minus != moved.minus
