"""What the editor's analyzer keeps from one snapshot to the next while the topology and the
plant rows stand (a rack move): the plant's fabric codes, read-only, and the same report as a
one-shot analysis of the snapshot."""

from __future__ import annotations

from model.analysis import Analyzer, analyze
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from model.generators.generate import rail_optimized


def test_fabric_codes_kept_over_a_rack_move_read_only_and_the_report_unchanged():
    design = rail_optimized(nodes=16, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    plant = RoutedLinks(design)
    plant.refresh()
    snapshots = Snapshotter(design, plant)
    changes: list = []
    design.subscribe(changes.append)
    first_design, first_plant = snapshots.take()
    analyzer = Analyzer(first_design, first_plant, subscribe=False, refresh_plant=False)
    analyzer.advance(first_design, first_plant, [], set())
    codes = analyzer._fabric_codes(analyzer._topo)
    assert codes is not None and not codes.flags.writeable

    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 0.6, rack.y)})
    changed = plant.refresh()
    moved_design, moved_plant = snapshots.take()
    report = analyzer.advance(moved_design, moved_plant, list(changes), set(changed))
    assert analyzer._fabric_codes(analyzer._topo) is codes
    assert report.to_json() == analyze(moved_design, moved_plant).to_json()
