"""Slips seen in the walkthrough: the Overview drew the row labels at screen size over its
miniature hall; the catalog's type names were elided to "NVIDIA ...te tray" at the default
dock width."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFontMetrics

from gui import style
from model.generators.generate import rail_optimized
from tests.gui.analysis_support import open_window
from tests.gui.conftest import close_quietly, make_window


def _ink(widget, colour: str, tolerance: int = 40) -> int:
    """Pixels near ``colour`` (the overview tints the part the plan shows, so not exact)."""
    image = widget.grab().toImage()
    ink = QColor(colour)

    def near(c: QColor) -> bool:
        return (
            abs(c.red() - ink.red()) + abs(c.green() - ink.green()) + abs(c.blue() - ink.blue())
            < tolerance
        )

    return sum(
        near(image.pixelColor(x, y)) for x in range(image.width()) for y in range(image.height())
    )


def test_the_overview_draws_no_row_labels_while_the_plan_does(qtbot, tmp_path):
    # Rows in the middle of the hall, so a label drawn left of them would land in the overview.
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    window = open_window(qtbot, tmp_path, design)
    try:
        _overview_without_labels(window, qtbot)
    finally:
        close_quietly(window)


def _overview_without_labels(window, qtbot):
    window.overview_dock.show()
    window.overview_dock.raise_()
    window.view.zoom(0.3)  # zoomed out: the plan shows "Row N", "Row R"
    qtbot.wait(20)
    assert _ink(window.view.viewport(), style.ROW_LABEL) > 0
    assert window.overview.isVisible()
    assert _ink(window.overview.viewport(), style.ROW_LABEL) == 0


def test_catalog_names_are_readable_at_the_first_launch_width(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    try:
        qtbot.waitUntil(lambda: window.palette_dock.width() >= 290, timeout=3000)
        tree = window.palette.tree
        metrics = QFontMetrics(tree.font())
        for key in (
            "device:dgx-h100",
            "device:qm9700",
            "device:sn5600",
            "device:sn5400",
            "rack:rack-48u-600x1200",
        ):
            item = window.palette.item_for(key)
            text = item.text(0)
            cell = tree.visualRect(tree.indexFromItem(item, 0))  # the name's column
            room = cell.width() - tree.iconSize().width() - 12
            assert metrics.horizontalAdvance(text) <= room, (text, room)
            assert text.split()[-1] in item.toolTip(0)  # the whole name in the tooltip too
        long_name = window.palette.item_for("device:sn2201")
        assert long_name.text(0) in long_name.toolTip(0)  # elided on screen, whole in the tip
    finally:
        close_quietly(window)
