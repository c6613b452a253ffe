"""The analysis panel's power and cooling table: the report's per-feed and per-CDU figures,
formatted, sortable by any column, hidden for a hall without a facility model."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from model.design.entities import Cdu, Cooling, Power, PowerFeed, PowerPanel
from tests.builders import device, empty_hall, rack
from tests.gui.analysis_support import close_quietly, docks, open_window

TRAY = "gb200-compute-tray"


def _dc(oid: str, kw: float, side: str = "A") -> PowerFeed:
    return PowerFeed(id=oid, side=side, current="dc", voltage_v=800.0, current_a=kw * 1.25)


def _panel(oid: str, feed: str, kw: float) -> PowerPanel:
    return PowerPanel(
        id=oid, feed=feed, points=[(1.0, 1.0)], current="dc", voltage_v=800.0, current_a=kw * 1.25
    )


def _hall():
    """Two racks of two GB200 trays (13.7 kW each at max), 2N-fed, two CDUs of 20 and 50 kW."""
    design = empty_hall(20.0, 10.0)
    for i in range(2):
        rack(design, f"r{i + 1}", 1.0 + 0.7 * i, 3.0, type_id="rack-nvl72")
        for t in range(2):
            device(design, f"r{i + 1}t{t}", f"r{i + 1}", 10 + t, TRAY)
    design.set_power(
        Power(
            redundancy="2N",
            feeds=(_dc("FA", 100), _dc("FB", 100, "B")),
            panels=(_panel("PA", "FA", 100), _panel("PB", "FB", 100)),
        )
    )
    design.set_rack_pdus({"r1": ("PA", "PB"), "r2": ("PA", "PB")})
    cdus = (
        Cdu(id="C1", point=(5.0, 5.0), capacity_kw=20.0),
        Cdu(id="C2", point=(6.0, 5.0), capacity_kw=50.0),
    )
    design.set_cooling(Cooling(cdus=cdus))
    design.set_rack_cooling({"r1": ["C1", "C2"], "r2": ["C1", "C2"]})
    design.revision = 0
    return design


@pytest.fixture
def window(qtbot, tmp_path):
    w = open_window(qtbot, tmp_path, _hall())
    yield w
    close_quietly(w)


def _column(table, col: int) -> list[str]:
    m = table.model()
    return [m.index(r, col).data() for r in range(m.rowCount())]


def test_the_table_shows_the_reports_rows_and_sorts_by_a_header_click(window, qtbot):
    panel = docks(window).panel
    table = panel.facility_table
    assert table.isVisible() and panel.facility_caption.isVisible()
    report = panel.report
    # The figures are the report's: 27.4 kW of racks, 13.7 kW on each side normally.
    fa = next(u for u in report.power_feeds if u["id"] == "FA")
    assert (fa["max_draw_kw"], fa["one_side_failed_kw"]) == (13.7, 27.4)
    assert sorted(_column(table, 0)) == ["C1", "C2", "FA", "FB", "PA", "PB"]
    row = _column(table, 0).index("FA")
    m = table.model()
    assert [m.index(row, c).data() for c in range(1, 8)] == [
        "feed", "A", "100.0", "13.7", "13.7 %", "27.4", "27.4 %"
    ]  # fmt: skip
    # Liquid heat 4 x 6,850 W x 0.94 = 25.756 kW, half on each CDU: C1 (20 kW) 64.4 %, and
    # 128.8 % with C2 failed: red; C2 (50 kW) 25.8 % and 51.5 %.
    c1 = _column(table, 0).index("C1")
    assert m.index(c1, 5).data() == "64.4 %" and m.index(c1, 7).data() == "128.8 %"
    assert m.index(c1, 0).data(Qt.BackgroundRole).color().name() == "#ffc9c9"
    # A click on "% one failed" sorts by the number (128.8 % above 51.5 % above 27.4 %).
    header = table.horizontalHeader()
    qtbot.mouseClick(header.viewport(), Qt.LeftButton, pos=_section_centre(header, 7))
    order = _column(table, 7)
    keys = [float(t.rstrip(" %")) for t in order]
    assert keys == sorted(keys) or keys == sorted(keys, reverse=True)
    if keys != sorted(keys, reverse=True):
        qtbot.mouseClick(header.viewport(), Qt.LeftButton, pos=_section_centre(header, 7))
    assert _column(table, 0)[0] == "C1" and _column(table, 7)[-1] == "27.4 %"
    # Between an edit and its fresh report the table is greyed, as the tiles are.
    panel.show_stale()
    assert not table.isEnabled()
    panel.show_result(docks(window).runner.result)
    assert table.isEnabled() and _column(table, 0)[0] == "C1"  # the user's sort kept


def _section_centre(header, section: int):
    from PySide6.QtCore import QPoint

    x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
    return QPoint(x, header.height() // 2)


def test_a_hall_without_feeds_or_cooling_hides_the_table(qtbot, tmp_path):
    design = empty_hall(20.0, 10.0)
    rack(design, "r1", 1.0, 3.0)
    w = open_window(qtbot, tmp_path, design)
    try:
        panel = docks(w).panel
        assert panel.facility_table.model().rowCount() == 0
        assert not panel.facility_table.isVisible() and not panel.facility_caption.isVisible()
    finally:
        close_quietly(w)
