"""A tray edit after a rack move (issue #38): the live plant equals a fresh routing of the design.

The bulk nearest-segment figures a tray edit carries to the next one
(:meth:`~model.engine.tray_graph.TrayGraph.attach_after`) are keyed by the drop points' positions
when they were measured; a rack move in between re-attaches the moved drops in place and must
not change those figures."""

from __future__ import annotations

import numpy as np

from model.engine.routed_links import NO_TRAY_PATH, RoutedLinks
from model.generators.generate import leaf_spine
from tests.model.test_tray_reroute import _assert_same_plant


def _attachments_equal(live: RoutedLinks, fresh: RoutedLinks) -> None:
    for name in ("seg", "hop", "elev", "s", "u", "v"):
        np.testing.assert_array_equal(
            getattr(live._att, name), getattr(fresh._att, name), err_msg=name
        )


def test_a_tray_drag_after_racks_traded_places_routes_as_a_fresh_plant():
    """ls-direct (16 nodes, one row of racks per tray): t-row-A's end dragged, racks A01 and
    A04 trade places, then t-row-B's end dragged. A01's drops now sit where A04's were when
    the first drag measured them; their nearest tray (t-cross-2 at 0.9 m, out of reach) must
    be measured for that position, so A01's links go on the floor as in a fresh plant."""
    design = leaf_spine(nodes=16, node_type="hgx-h100-8x400", switch="qm9700")
    live = RoutedLinks(design)
    x0 = design.trays["t-row-A"].points[0][0]
    design.move_racks({"A02": (4.5, 2.4), "A05": (2.7, 2.4)})
    live.refresh()
    design.set_tray_points("t-row-A", [(x0, 2.4), (5.177, 1.097)])
    live.refresh()
    design.move_racks({"A01": (3.9, 2.4), "A04": (2.1, 2.4)})
    live.refresh()
    _assert_same_plant(live, RoutedLinks(design))
    design.set_tray_points("t-row-B", [(x0, 4.8), (4.491, 5.883)])
    live.refresh()
    fresh = RoutedLinks(design)
    _attachments_equal(live, fresh)
    _assert_same_plant(live, fresh)
    assert (fresh.status & NO_TRAY_PATH).any()  # the case in point: links off the trays
