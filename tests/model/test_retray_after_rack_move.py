"""A tray edit after a rack move (issue #38): the live plant equals a fresh routing of the design.

The bulk nearest-segment figures a tray edit carries to the next one
(:meth:`~model.engine.tray_graph.TrayGraph.attach_after`) are keyed by the drop points' positions
when they were measured; a rack move in between re-attaches the moved drops in place in the
plant's attachments and must not change those figures."""

from __future__ import annotations

import numpy as np
import pytest

from model.engine.link_table import OUTPUT_COLUMNS
from model.engine.retray_copy import adopt, pending_tray_edits, retray
from model.engine.routed_links import NO_TRAY_PATH, RoutedLinks
from model.engine.snapshot import Snapshotter
from model.generators.generate import leaf_spine
from tests.model.test_tray_reroute import _assert_same_plant


def _ls_direct():
    """The reviewer's ls-direct: 16 nodes, racks A01-A05 along t-row-A, B01 on t-row-B."""
    design = leaf_spine(nodes=16, node_type="hgx-h100-8x400", switch="qm9700")
    live = RoutedLinks(design)
    snaps = Snapshotter(design, live)
    snaps.take()
    return design, live, snaps


def _tray_edit_applied(live: RoutedLinks, snaps: Snapshotter, on_a_copy: bool) -> None:
    """The pending tray edit applied in place, or as the editor does: re-routed on a worker's
    copy of a snapshot, which the live plant adopts."""
    if not on_a_copy:
        live.refresh()
        return
    applied = pending_tray_edits(live)
    _, snap = snaps.take(pending_trays=True)
    worked, _ = retray(snap)
    assert adopt(live, worked, applied)


def _same_routing(live: RoutedLinks, fresh: RoutedLinks, route_ids: bool) -> None:
    """Attachments, methods, lengths, media and status as ``fresh``'s; route ids too when
    ``route_ids``."""
    for name in ("seg", "hop", "elev", "s", "u", "v"):
        np.testing.assert_array_equal(getattr(live._att, name), getattr(fresh._att, name), name)
    if route_ids:
        _assert_same_plant(live, fresh)
        return
    for name in OUTPUT_COLUMNS:
        if name != "_route_key":
            np.testing.assert_array_equal(getattr(live, name), getattr(fresh, name), name)


@pytest.mark.parametrize("on_a_copy", [False, True], ids=["in place", "on a copy"])
def test_a_tray_drag_after_racks_traded_places_routes_as_a_fresh_plant(on_a_copy):
    """t-row-A's end dragged, racks A01 and A04 trade places, then t-row-B's end dragged.
    A01's drops now sit where A04's were when the first drag measured them; their nearest tray
    (t-cross-2 at 0.9 m, out of reach) must be measured for that position, so A01's links go
    on the floor as in a fresh plant. Route ids are compared after the tray edits only: a rack
    move names its links' new routes piecemeal (model/engine/route_renames.py), unlike a fresh
    plant, and a tray edit names them all again."""
    design, live, snaps = _ls_direct()
    x0 = design.trays["t-row-A"].points[0][0]
    design.move_racks({"A02": (4.5, 2.4), "A05": (2.7, 2.4)})
    live.refresh()
    design.set_tray_points("t-row-A", [(x0, 2.4), (5.177, 1.097)])
    _tray_edit_applied(live, snaps, on_a_copy)
    design.move_racks({"A01": (3.9, 2.4), "A04": (2.1, 2.4)})
    live.refresh()
    _same_routing(live, RoutedLinks(design), route_ids=False)
    design.set_tray_points("t-row-B", [(x0, 4.8), (4.491, 5.883)])
    _tray_edit_applied(live, snaps, on_a_copy)
    fresh = RoutedLinks(design)
    _same_routing(live, fresh, route_ids=True)
    assert (fresh.status & NO_TRAY_PATH).any()  # the case in point: links off the trays
