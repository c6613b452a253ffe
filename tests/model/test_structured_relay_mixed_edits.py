"""The editor's kept structured layout (model.structured.leg_reuse, trunk_reuse, channel_reuse)
after edits of every kind, not only rack moves, equals a layout made afresh record for record,
and the editor's analyzer's report equals a fresh analysis (issue #43).

Written by a review of the reuse: rack moves and their undo, rotations, renames of racks and
panels, a panel moved in its rack, slack and tray reach, medium pins, placed panels (via),
length overrides, rack widths and tray edits, in seeded random order on a zoned hall, a
cross-connected hall and a hall whose leaf spills into a patch rack. An edit the design refuses
is skipped.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from model.analysis import analyze
from model.design.design import DesignError
from model.design.structured_edit import route_via
from model.engine.routed_links import RoutedLinks
from model.structured.layout import MPO_PANEL, structured_layout
from model.structured.leg_reuse import LegMemo
from tests.model.test_structured_relay import EditorWorker, _every_record, _hall

REFUSED = (DesignError, ValueError, IndexError, StopIteration)


def _between_racks(design) -> list[str]:
    return [
        lid
        for lid, link in sorted(design.links.items())
        if design.devices[link.a.device].rack != design.devices[link.b.device].rack
    ]


def _panels(design) -> list[str]:
    return sorted(d for d, dev in design.devices.items() if dev.type.startswith("panel-"))


def _edit(design, rng: random.Random, kind: str, undo: list) -> None:
    """One edit of ``kind`` through the design's edit API (``undo``: what "undo" takes back)."""
    racks = sorted(design.racks)
    settings = design.settings
    if kind == "move":
        r = design.racks[rng.choice(racks)]
        undo.append(("move", r.id, (r.x, r.y)))
        dx, dy = rng.choice([-1.2, 0.6, 1.2]), rng.choice([0.0, 1.2])
        design.move_racks({r.id: (r.x + dx, r.y + dy)})
    elif kind == "undo":
        what = undo.pop()  # IndexError when nothing is left: skipped
        if what[0] == "move":
            design.move_racks({what[1]: what[2]})
        else:
            design.update_trays([what[1]])
    elif kind == "tray":
        t = design.trays[rng.choice(sorted(design.trays))]
        undo.append(("tray", t))
        moved = [(x, y + 0.6) for x, y in t.points]
        design.update_trays([msgspec.structs.replace(t, points=moved)])
    elif kind == "rotate":
        design.rotate_racks({rng.choice(racks): rng.choice([0, 90, 180, 270])})
    elif kind == "rack_name":
        r = design.racks[rng.choice(racks)]
        design.update_racks([msgspec.structs.replace(r, name=r.name + "x")])
    elif kind == "width":
        r = design.racks[rng.choice(racks)]
        design.update_racks([msgspec.structs.replace(r, width_m=r.width_m + 0.1)])
    elif kind == "panel_name":
        p = design.devices[rng.choice(_panels(design))]
        design.update_devices([msgspec.structs.replace(p, name=(p.name or p.id) + "x")])
    elif kind == "panel_u":
        p = design.devices[rng.choice(_panels(design))]
        design.move_devices({p.id: (p.rack, p.u - 1)})
    elif kind == "slack":
        design.set_settings(msgspec.structs.replace(settings, slack_pct=settings.slack_pct + 1.0))
    elif kind == "reach":
        reach = settings.tray_reach_m + 0.5
        design.set_settings(msgspec.structs.replace(settings, tray_reach_m=reach))
    elif kind == "override":
        link = design.links[rng.choice(sorted(design.links))]
        length = rng.choice([None, 37.0])
        design.update_links([msgspec.structs.replace(link, length_override_m=length)])
    elif kind == "medium":
        link = design.links[rng.choice(_between_racks(design))]
        medium = rng.choice(["sr4-400g", "dr4-400g", "sr8-800g", "auto"])
        design.update_links([msgspec.structs.replace(link, medium=medium)])
    elif kind == "via":
        lid = rng.choice(_between_racks(design))
        link = design.links[lid]
        panels = [
            next(
                d.id
                for d in design.devices_in_rack(design.devices[end.device].rack)
                if d.type == MPO_PANEL
            )
            for end in (link.a, link.b)
        ]
        route_via(design, lid, panels)


LAYOUT_KINDS = ["move", "rack_name", "rotate", "slack", "panel_u", "override", "width"]
ANALYZER_KINDS = ["move", "move", "undo", "tray", "medium", "via", "panel_name", "rack_name"]
ANALYZER_KINDS += ["slack", "reach"]


@pytest.mark.parametrize(
    "name", ["fat-tree zoned", "rail-optimized cross-connect", "leaf spilling into a patch rack"]
)
@pytest.mark.parametrize("seed", range(3))
def test_a_kept_layout_after_mixed_edits_equals_a_fresh_one(name, seed):
    design = _hall(name)
    plant = RoutedLinks(design)
    memo = LegMemo()
    structured_layout(plant, memo=memo)
    rng = random.Random(seed)
    done: list[str] = []
    for _ in range(14):
        kind = rng.choice(LAYOUT_KINDS)
        try:
            _edit(design, rng, kind, [])
        except REFUSED:
            continue
        done.append(kind)
        plant.refresh()
        got = structured_layout(plant, memo=memo)
        assert _every_record(got) == _every_record(structured_layout(plant)), done


@pytest.mark.parametrize("name", ["fat-tree zoned", "leaf spilling into a patch rack"])
@pytest.mark.parametrize("seed", range(3))
def test_the_editors_analysis_after_mixed_edits_equals_a_fresh_one(name, seed):
    """Driven as the editor's worker drives it: a snapshot per edit, ``Analyzer.advance``."""
    design = _hall(name)
    worker = EditorWorker(design)
    plant, analyzer = worker.plant, worker.analyzer
    rng = random.Random(seed)
    undo: list = []
    done: list[str] = []
    try:
        for _ in range(10):
            kind = rng.choice(ANALYZER_KINDS)
            try:
                _edit(design, rng, kind, undo)
            except REFUSED:
                continue
            done.append(kind)
            report = worker.advance()
            fresh = structured_layout(plant)
            assert _every_record(analyzer.structured) == _every_record(fresh), done
            assert report.to_json() == analyze(design, plant).to_json(), done
    finally:
        worker.close()
