"""A generated fabric gets sensible media from the geometry engine: links inside a rack on
copper, long runs (between rows, to the spine row) on optics, and every link with a medium."""

from __future__ import annotations

import pytest

from model.generators.generate import generate

cabling = pytest.importorskip(
    "model.engine.routed_links", reason="the geometry engine is not merged yet"
)


def _media(design):
    plant = cabling.RoutedLinks(design)
    out = {}
    for link_id in design.links:
        row = plant.index[link_id]
        out[link_id] = (plant.medium(link_id), float(plant.length_m[row]))
    return out


def _same_rack(design, link):
    return design.devices[link.a.device].rack == design.devices[link.b.device].rack


def test_s_fabric_media_follow_distance():
    design = generate(
        "rail-optimized", nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32
    )
    media = _media(design)
    assert all(medium is not None for medium, _ in media.values())
    kinds = {"copper": 0, "optical": 0}
    for link_id, (medium, length) in media.items():
        if length <= 2.0:
            assert medium.is_copper, (link_id, length, medium.id)
        if length > 7.0:
            assert not medium.is_copper, (link_id, length, medium.id)
        kinds["copper" if medium.is_copper else "optical"] += 1
    # leaf-spine links cross to the spine row: all optical
    for link in design.links.values():
        if design.devices[link.b.device].role == "spine":
            assert not media[link.id][0].is_copper
    assert kinds["optical"] > 0


def test_in_rack_links_are_copper():
    design = generate("nvl72", racks=2)
    media = _media(design)
    in_rack = [lk for lk in design.links.values() if _same_rack(design, lk)]
    assert len(in_rack) == 2 * 162
    assert all(media[lk.id][0].is_copper for lk in in_rack)
    out_of_rack = [lk for lk in design.links.values() if not _same_rack(design, lk)]
    assert any(not media[lk.id][0].is_copper for lk in out_of_rack)
