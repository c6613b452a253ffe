"""Hall-wide overlay items repaint only what changed: bundles the trays whose line changed (and
draw what a fresh item would draw), row labels the rows whose label moved."""

from __future__ import annotations

from PySide6.QtCore import QRectF

from gui.canvas.bundle_item import BundleItem
from gui.canvas.row_labels_item import RowLabelsItem
from model.design.entities import Tray

TRAYS = {
    "west": Tray(id="west", points=[(0.0, 0.0), (0.0, 20.0)]),
    "mid": Tray(id="mid", points=[(10.0, 0.0), (10.0, 20.0)]),
    "east": Tray(id="east", points=[(30.0, 0.0), (30.0, 20.0)]),
}


def _drawn(item: BundleItem):
    return [(path.boundingRect(), pen.widthF(), pen.color().name()) for path, pen in item._lines]


def _updates(item: BundleItem) -> list:
    calls = []
    item.update = lambda *rect: calls.append(QRectF(*rect) if rect else None)
    return calls


def test_a_count_change_on_one_tray_repaints_only_that_tray(qapp):
    item = BundleItem()
    counts = {"west": {"mmf": 40}, "mid": {"mmf": 10}, "east": {"copper": 40}}
    item.set_bundles(TRAYS, counts)
    calls = _updates(item)
    changed = {**counts, "mid": {"mmf": 20}}  # the busiest tray (the width scale) is unchanged
    item.set_bundles(TRAYS, changed)
    assert len(calls) == 1 and calls[0] is not None
    assert calls[0].intersects(QRectF(9.5, 0, 1, 20))
    assert not calls[0].intersects(QRectF(-0.5, 0, 1, 20))
    assert not calls[0].intersects(QRectF(29.5, 0, 1, 20))
    fresh = BundleItem()
    fresh.set_bundles(TRAYS, changed)
    assert _drawn(item) == _drawn(fresh)


def test_same_bundles_repaint_nothing_and_a_new_busiest_tray_repaints_all(qapp):
    item = BundleItem()
    counts = {"west": {"mmf": 40}, "mid": {"mmf": 10}, "east": {"copper": 40}}
    item.set_bundles(TRAYS, counts)
    calls = _updates(item)
    item.set_bundles(TRAYS, dict(counts))
    assert calls == []
    item.set_bundles(TRAYS, {**counts, "mid": {"mmf": 90}})  # every width scales to the new top
    assert len(calls) == 1 and calls[0].contains(QRectF(-0.5, 0, 31, 20))
    item.set_bundles(TRAYS, {k: v for k, v in counts.items() if k != "mid"})
    assert len(calls) == 2
    fresh = BundleItem()
    fresh.set_bundles(TRAYS, {k: v for k, v in counts.items() if k != "mid"})
    assert _drawn(item) == _drawn(fresh)


def test_a_row_whose_first_rack_moved_repaints_only_its_label(qapp):
    item = RowLabelsItem()
    rows = [("Row A", 2.0, 3.0), ("Row B", 2.0, 30.0), ("Row C", 2.0, 60.0)]
    item.set_labels(rows)
    calls = _updates(item)
    item.set_labels(list(rows))
    assert calls == []
    item.set_labels([rows[0], ("Row B", 1.4, 30.0), rows[2]])  # within the labels' bounds
    assert len(calls) == 1 and calls[0] is not None
    assert calls[0].intersects(QRectF(-10, 29, 10, 2))
    assert not calls[0].intersects(QRectF(-10, 2, 10, 2))
    assert not calls[0].intersects(QRectF(-10, 59, 10, 2))
    item.set_labels([rows[0], ("Row B", 12.0, 30.0), rows[2]])  # past them: the bounds grow
    assert len(calls) == 2 and calls[1] is None
    assert item.boundingRect().contains(QRectF(-8, 25, 20, 10))


def test_a_new_width_keeps_each_trays_path_and_a_moved_tray_gets_a_new_one(qapp):
    """After a tray edit the busiest tray's count rescales every width: the lines of the trays
    whose stretches stand keep their paths (built again: ~0.1 ms a tray, 100 trays at XL per
    analysis), with new pens; the moved tray's path is new; all as a fresh item draws them."""
    item = BundleItem()
    counts = {"west": {"mmf": 40}, "mid": {"mmf": 10}, "east": {"copper": 40}}
    item.set_bundles(TRAYS, counts)
    paths = {t: entry[1] for t, entry in item._by_tray.items()}
    moved = {**TRAYS, "east": Tray(id="east", points=[(31.0, 0.0), (30.0, 20.0)])}
    after = {**counts, "mid": {"mmf": 90}}
    item.set_bundles(moved, after)
    assert item._by_tray["west"][1] is paths["west"] and item._by_tray["mid"][1] is paths["mid"]
    assert item._by_tray["east"][1] is not paths["east"]
    fresh = BundleItem()
    fresh.set_bundles(moved, after)
    assert _drawn(item) == _drawn(fresh)
    assert _drawn(item)[0][1] != 2.0 + 8.0 * (40 / 40) ** 0.5  # west's width did change
