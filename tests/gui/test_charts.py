"""Charts are drawn from the report and the plant, with reach lines and labelled axes."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from gui.edit.commands import MoveRacksCommand
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


def _items(plot, cls):
    return [i for i in plot.getPlotItem().items if isinstance(i, cls)]


def test_charts_show_lengths_reach_power_ladder_and_allreduce(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    charts = d.charts
    assert charts._plots is None  # not made with the window: its Charts tab never showed
    d.tabs.setCurrentWidget(d.charts_page)
    assert charts._plots and all(plot.isVisible() for plot in charts._plots)  # made, shown
    bars = _items(charts.lengths, pg.BarGraphItem)
    assert len(bars) == 1  # the SuperPOD: every link on multimode modules and fibres
    assert _items(charts.power, pg.BarGraphItem) and _items(charts.ladder, pg.BarGraphItem)
    curves = charts.allreduce.getPlotItem().listDataItems()
    assert curves and curves[0].xData[-1] == 1024
    for plot in (charts.lengths, charts.power, charts.ladder, charts.allreduce):
        assert plot.getAxis("left").labelText
    assert "(m)" in charts.lengths.getAxis("bottom").labelText
    total_before = sum(b.opts["height"].sum() for b in bars)

    design = window.document.design
    rack = next(r for r in design.racks.values() if r.name == "A05")
    window.scene.push(MoveRacksCommand(design, {rack.id: (14.8, rack.y)}))
    wait_fresh(qtbot, window)
    bars = _items(charts.lengths, pg.BarGraphItem)
    assert sum(b.opts["height"].sum() for b in bars) == total_before
    window.view.fit()
    qtbot.wait(50)
    window.grab().save(str(_output("analysis_charts.png")))
    close_quietly(window)


def _output(name):
    from pathlib import Path

    out = Path(__file__).resolve().parents[1] / "output"
    out.mkdir(exist_ok=True)
    return out / name


def test_charts_say_when_they_are_being_recomputed(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    charts = docks(window).charts
    assert charts.status.text().startswith("up to date")
    design = window.document.design
    rack = next(r for r in design.racks.values() if r.name == "A05")
    window.scene.push(MoveRacksCommand(design, {rack.id: (14.8, rack.y)}))
    assert "recomputing" in charts.status.text()
    assert "recomputing" in docks(window).warnings.summary.text()
    wait_fresh(qtbot, window)
    assert charts.status.text().startswith("up to date")
    close_quietly(window)


def test_charts_behind_another_tab_are_drawn_when_their_tab_shows(qtbot, tmp_path, monkeypatch):
    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    d.tabs.setCurrentWidget(d.charts_page)
    total = sum(b.opts["height"].sum() for b in _items(d.charts.lengths, pg.BarGraphItem))
    d.tabs.setCurrentWidget(d.warnings)
    drawn, lengths = [], d.charts._lengths
    monkeypatch.setattr(d.charts, "_lengths", lambda h: (drawn.append(h), lengths(h)))
    design = window.document.design
    rack = next(r for r in design.racks.values() if r.name == "A05")
    window.scene.push(MoveRacksCommand(design, {rack.id: (14.8, rack.y)}))
    wait_fresh(qtbot, window)
    assert d.charts.status.text().startswith("up to date")
    assert not drawn  # four plots not redrawn behind the warnings
    d.tabs.setCurrentWidget(d.charts_page)  # a person clicks the Charts tab
    assert len(drawn) == 1
    bars = _items(d.charts.lengths, pg.BarGraphItem)
    assert bars and sum(b.opts["height"].sum() for b in bars) == total
    assert d.charts._pending is None  # the moved design's charts, drawn on showing
    close_quietly(window)


def test_reach_lines_of_the_media_in_use(qtbot, tmp_path):
    from tests.builders import copper_pod

    window = open_window(qtbot, tmp_path, copper_pod())
    d = docks(window)
    d.tabs.setCurrentWidget(d.charts_page)
    window.scene.push(MoveRacksCommand(window.document.design, {"r2": (9.0, 3.0)}))
    wait_fresh(qtbot, window)
    bars = _items(d.charts.lengths, pg.BarGraphItem)
    assert len(bars) == 2  # copper (LACC) and multimode
    reach = _items(d.charts.lengths, pg.InfiniteLine)
    assert any("LACC" in line.label.format for line in reach)
    close_quietly(window)


def test_a_chart_is_redrawn_only_when_its_figures_change(qtbot, tmp_path):
    """A rack move that changes no power, bandwidth or all-reduce figure leaves those three
    plots as drawn (their items are the same objects); a changed figure redraws its plot."""
    import dataclasses

    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    charts = d.charts
    d.tabs.setCurrentWidget(d.charts_page)
    power, ladder = _items(charts.power, pg.BarGraphItem), _items(charts.ladder, pg.BarGraphItem)
    curve = charts.allreduce.getPlotItem().listDataItems()
    before = window.analysis_docks.runner.result.report

    design = window.document.design
    rack = next(r for r in design.racks.values() if r.name == "A05")
    window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 0.6, rack.y)}))
    wait_fresh(qtbot, window)
    result = window.analysis_docks.runner.result
    assert result.report.power_w == before.power_w  # the move changed no medium
    assert _items(charts.power, pg.BarGraphItem) == power
    assert _items(charts.ladder, pg.BarGraphItem) == ladder
    assert charts.allreduce.getPlotItem().listDataItems() == curve

    more = {**result.report.power_w, "switches": result.report.power_w["switches"] + 5e5}
    charts.update_charts(dataclasses.replace(result.report, power_w=more), result.lengths)
    redrawn = _items(charts.power, pg.BarGraphItem)
    assert redrawn != power
    assert sum(redrawn[0].opts["height"]) == pytest.approx(sum(power[0].opts["height"]) + 500)
    assert _items(charts.ladder, pg.BarGraphItem) == ladder
    close_quietly(window)
