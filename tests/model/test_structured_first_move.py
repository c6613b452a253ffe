"""The editor's first rack move after opening reuses what the opening analysis left, as later
moves reuse what the move before left (#43: the first drop was measured dearer than the next;
at int13 it is not, and this keeps it so): the worker's opening report fills the legs, the
groups, the cords, the table checks' shapes and the trunk counts, and the first move
re-measures them instead of laying the hall out again."""

from __future__ import annotations

from model.analysis import analyze
from model.design.design import DesignError
from model.structured.layout import structured_layout
from tests.model.test_structured_relay import EditorWorker, _every_record, _hall


def _move_a_server_rack(design) -> str:
    """The first rack with links (as the editor bench drags) moved one tile along its row: in
    this hall that changes no medium or path of its links, only lengths."""
    for rack_id in sorted(design.racks):
        if not design.links_of_racks([rack_id]):
            continue
        rack = design.racks[rack_id]
        for dx, dy in ((0.6, 0.0), (-0.6, 0.0)):
            try:
                design.move_racks({rack_id: (rack.x + dx, rack.y + dy)})
            except DesignError:
                continue
            return rack_id
    raise AssertionError("no rack could move")


def test_the_first_rack_move_after_opening_reuses_the_opening_layout():
    design = _hall("fat-tree zoned")
    worker = EditorWorker(design)  # the opening report, as the editor's worker makes it
    analyzer = worker.analyzer
    legs = analyzer._legs
    assert legs.relaid_paths == -1  # the opening lays every leg
    _move_a_server_rack(design)
    report = worker.advance()
    # Re-measured from the opening's legs, groups, cords and trunk counts: none made afresh.
    assert legs.relaid_paths >= 0
    assert legs.groups.reused
    assert legs.cords.reused
    assert legs.shapes.reused
    assert analyzer._plant_cache.kept_trunk_counts().recounted >= 0
    assert report.to_json() == analyze(design, worker.plant).to_json()
    assert _every_record(analyzer.structured) == _every_record(structured_layout(worker.plant))
    worker.close()
