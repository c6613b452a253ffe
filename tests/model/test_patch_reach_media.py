"""A patch rack moved or removed, or the network rack beside it moved, leaves no link's media
stale (#43): the live plant after each edit equals a fresh plant of the edited design, link by
link and in the report. The media choice adds a network rack's way to the patch racks of its
run (:func:`model.engine.patch_points.patch_reach_m`) to its channels, and a patch rack's move
changes that way for links that touch neither rack moved."""

from __future__ import annotations

import pytest

from model.design.design import DesignError
from model.design.entities import Tray
from model.engine.patch_points import patch_reach_m
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.structured.layout import place_panels, set_cabling
from tests.builders import device, empty_hall, link, rack
from tests.model.test_patch_racks import fill_free_u_with_enclosures
from tests.model.test_zone_hub_media import _assert_plant_is_fresh

PATCH = "rack-patch-48u-600x1200"

# 256 HGX H100 on SN5600: the spine rack C01 has no U for 13 of its panels; C-P1 stands
# beside it (tests/model/test_patch_racks.py).
_PARAMS = dict(nodes=256, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64)


def _reach(design) -> dict[str, float]:
    """The network racks' way to their patch racks (0 when none is in their run)."""
    rack_index = {rack_id: k for k, rack_id in enumerate(design.racks)}
    reach = patch_reach_m(design, rack_index)
    if reach is None:
        return {}
    return {r: float(reach[k]) for r, k in rack_index.items() if reach[k]}


@pytest.mark.parametrize("style", ["cross-connect", "zones"])
def test_patch_rack_edits_leave_no_link_media_stale(style):
    design = apply_cabling(generate("rail-optimized", **_PARAMS), style)
    assert "C-P1" in design.racks and _reach(design) == {"C01": pytest.approx(0.6)}
    live = RoutedLinks(design)
    spine = design.racks["C01"]
    reaches = [_reach(design)]
    # C-P1 to the far end of its run, off it (a gap: C01 has no patch rack), to the near
    # side, back; then C01 itself moved off and back beside it; then C-P1 removed.
    steps = [
        ("C-P1", (spine.x + 0.64, spine.y)),
        ("C-P1", (spine.x + 1.5, spine.y)),
        ("C-P1", (spine.x - 0.62, spine.y)),
        ("C-P1", (spine.x + 0.6, spine.y)),
        ("C01", (spine.x - 0.7, spine.y)),
        ("C01", (spine.x, spine.y)),
    ]
    for rack_id, place in steps:
        try:
            design.move_racks({rack_id: place})
        except DesignError:
            continue
        live.refresh()
        reaches.append(_reach(design))
        _assert_plant_is_fresh(design, live)
    design.remove_racks(["C-P1"])
    live.refresh()
    reaches.append(_reach(design))
    _assert_plant_is_fresh(design, live)
    # The edits changed C01's way to its patch racks (what the test is about), not only moved.
    assert len({tuple(sorted(r.items())) for r in reaches}) >= 3


def _leaf_beside_patch_racks(style: str, patch_count: int):
    """Row A: three DGX racks at the hall's west end; row B: the leaf rack B01 16 m east of
    them, every free U of it taken by LC enclosures, so its MPO panels go to the
    ``patch_count`` patch racks east of it (bp0 beside it). Its six links' medium is "auto":
    their channels fit the shorter-reach medium with one patch rack (0.6 m of way), not with
    twelve (7.2 m): the test checks that, so a change of the catalog cannot empty it."""
    design = empty_hall(width_m=40.0, depth_m=10.0)
    for k, x in enumerate((1.5, 2.1, 2.7), start=1):
        rack(design, f"a{k}", x, 3.0, name=f"A0{k}")
        device(design, f"s{k}", f"a{k}", 2, "dgx-h100")
    rack(design, "b1", 16.0, 6.0, name="B01")
    device(design, "leaf1", "b1", 20, "qm9700", role="leaf")
    design.add_trays(
        [
            Tray(id="t-a", points=[(0.6, 3.0), (38.0, 3.0)]),
            Tray(id="t-b", points=[(0.6, 6.0), (38.0, 6.0)]),
            Tray(id="t-x", points=[(0.6, 3.0), (0.6, 6.0)]),
        ]
    )
    for port, (k, nic) in enumerate([(k, nic) for k in (1, 2, 3) for nic in (1, 2)], start=1):
        ends = (f"s{k}", f"nic{nic}"), ("leaf1", f"p{port}")
        link(design, f"l-{k}{nic}", *ends, medium="auto")
    set_cabling(design, style)
    fill_free_u_with_enclosures(design, "b1")
    for k in range(patch_count):
        rack(
            design, f"bp{k}", round(16.0 + 0.6 * (k + 1), 6), 6.0, name=f"B-P{k + 1}", type_id=PATCH
        )
    place_panels(design)
    return design


@pytest.mark.parametrize("style", ["cross-connect", "zones"])
@pytest.mark.parametrize("edit", ["move", "remove"])
def test_patch_racks_moved_off_or_removed_choose_the_leafs_media_again(style, edit):
    """The far eleven of B01's twelve patch racks moved 3 m on (an aisle: off its run) or
    removed: B01's way to its patch racks falls from 7.2 m to 0.6 m and its channels take the
    shorter-reach medium again; its links touch none of the racks edited (failed on 2590c32:
    the live plant kept the longer-reach medium)."""
    design = _leaf_beside_patch_racks(style, 12)
    live = RoutedLinks(design)
    media_before = dict(zip(live.link_ids, live.medium_index.tolist(), strict=True))
    far = [f"bp{k}" for k in range(1, 12)]
    if edit == "move":
        design.move_racks({r: (design.racks[r].x + 3.0, 6.0) for r in far})
    else:
        design.remove_racks(far)
    live.refresh()
    assert _reach(design) == {"b1": pytest.approx(0.6)}
    fresh = RoutedLinks(design)
    media_after = dict(zip(fresh.link_ids, fresh.medium_index.tolist(), strict=True))
    assert media_after != media_before  # the edit changes media: what the test is about
    _assert_plant_is_fresh(design, live)
