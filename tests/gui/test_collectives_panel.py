"""The analysis panel and charts show the collectives the model computed from link loads."""

from __future__ import annotations

from pathlib import Path

from model.generators.generate import rail_optimized
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


def _output(name: str) -> Path:
    out = Path(__file__).resolve().parents[1] / "output"
    out.mkdir(exist_ok=True)
    return out / name


def test_panel_names_the_busiest_links_and_selects_them(qtbot, tmp_path):
    """Two SUs at 2:1, 1,024 MB: NCCL picks NVLS-tree on 64 servers; its trees send S per
    server, S/8 per NIC, while a leaf's 16 uplinks carry what leaves the SU: the NICs (server-
    leaf links) are the busiest, and the panel says so, as the model's sentence, with a link
    selecting them; the chart draws a curve per collective with the model's points."""
    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
    )
    window = open_window(qtbot, tmp_path, design)
    wait_fresh(qtbot, window)
    d = docks(window)
    report = d.panel.report
    fig = report.collectives
    a = fig.default["all-reduce"]
    assert a.gpus == 512 and a.bottleneck_links
    tile = d.panel.tiles["allreduce"]
    assert tile.value.text() == f"{a.time_s * 1000:,.2f} ms"
    assert f"limited by {a.limited_by}" in tile.detail.text()
    text = d.panel.bottleneck.text()
    assert a.bottleneck_links[0] in text and f"({a.algorithm}, {a.protocol})" in text
    assert d.panel.collective.isVisibleTo(d.panel)
    d.panel.collective.linkActivated.emit("select")
    selected = set(window.selected())
    assert selected and selected <= set(a.bottleneck_links)

    d.tabs.setCurrentWidget(d.charts_page)
    qtbot.wait(50)
    items = d.charts.allreduce.getPlotItem().listDataItems()
    names = [i.name() for i in items]
    assert names[:5] == ["all-reduce", "all-gather", "reduce-scatter", "broadcast", "all-to-all"]
    ar = items[0]
    assert list(ar.xData) == [p.gpus for p in fig.curves["all-reduce"] if p.gpus > 1]
    d.panel.grab().save(str(_output("collectives_panel.png")))
    d.charts.resize(900, 620)
    qtbot.wait(50)
    d.charts.grab().save(str(_output("collectives_chart.png")))
    close_quietly(window)


def test_chart_shades_exactly_the_latency_bound_job_sizes(qtbot, tmp_path):
    """At 16 MB on two SUs of 32 DGX H100 the all-reduce curve (8 .. 512 GPUs) is bandwidth-
    bound in one server (NVLS on NVLink), latency-bound at 16 GPUs (the first job across two
    servers adds the network latency), bandwidth-bound again from 32 to 128 and latency-bound
    from 256 (NCCL's per-step latency grows with the nodes): the chart shades one region per
    run of latency-bound points (two), draws those points hollow and the bandwidth-bound ones
    filled, and its tooltip names the all-to-all's PXN mode."""
    import msgspec
    import pyqtgraph as pg

    from gui.panels.charts import _latency_spans

    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    design.set_settings(msgspec.structs.replace(design.settings, allreduce_message_mb=16.0))
    window = open_window(qtbot, tmp_path, design)
    wait_fresh(qtbot, window)
    d = docks(window)
    fig = d.panel.report.collectives
    points = [p for p in fig.curves["all-reduce"] if p.gpus > 1 and p.latency_s > 0]
    bound = [p.latency_bound for p in points]
    assert bound == [False, True, False, False, False, True, True]  # the model's, at 16 MB
    d.tabs.setCurrentWidget(d.charts_page)
    qtbot.wait(50)
    plot = d.charts.allreduce.getPlotItem()
    regions = [i for i in plot.items if isinstance(i, pg.LinearRegionItem)]
    assert len(regions) == len(_latency_spans(points)) == 2
    ar = plot.listDataItems()[0]
    hollow = [b is None for b in ar.opts["symbolBrush"]]
    assert hollow == bound
    assert "PXN on" in d.charts.allreduce.toolTip()
    # the routing the figures assume (InfiniBand: adaptive), in the tooltip and the key line
    assert "Routing over equal-cost uplinks: adaptive (InfiniBand" in d.charts.allreduce.toolTip()
    assert f"({fig.default['all-reduce'].algorithm}; adaptive)" in plot.titleLabel.text
    close_quietly(window)
