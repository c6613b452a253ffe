"""A link's fabric pinned through ``Design.update_links`` is a topology change.

The pin moves a link to another network, so which links are compute links, the tiers, the
switches off the tiers, oversubscription and bisection all follow it (review18: an Analyzer
following the design kept the old topology, as ``update_links`` announced only LINKS_CHANGED).
Oracle: a fresh Analyzer on the design as it is.
"""

from __future__ import annotations

import msgspec

from model.analysis import analyze
from model.analysis.analyzer import Analyzer
from model.design.changes import ChangeKind
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_structured_relay import EditorWorker, _hall


def _fresh_json(design) -> str:
    return (
        Analyzer(design, RoutedLinks(design), subscribe=False, refresh_plant=False)
        .report()
        .to_json()
    )


def _spine_links_pinned(design, fabric):
    spine = min(d.id for d in design.devices.values() if d.role == "spine")
    return [
        msgspec.structs.replace(design.links[lid], fabric=fabric)
        for lid in sorted(design.links_of_device(spine))
    ]


def test_fabric_pin_reinfers_topology():
    design = synthetic_hall(128)
    analyzer = Analyzer(design, RoutedLinks(design))
    analyzer.report()
    design.update_links(_spine_links_pinned(design, "storage"))
    got = analyzer.report()
    fresh = Analyzer(design, RoutedLinks(design), subscribe=False, refresh_plant=False).report()
    assert got.switches_off_tier == fresh.switches_off_tier
    assert got.switches_by_tier == fresh.switches_by_tier
    assert got.to_json() == fresh.to_json()


def test_undo_of_a_fabric_pin_restores_the_figures():
    """Undo puts the old records back through update_links (gui UpdateCommand.revert): the
    following Analyzer's report is again the one before the pin, and differs while pinned."""
    design = synthetic_hall(128)
    analyzer = Analyzer(design, RoutedLinks(design))
    before = analyzer.report().to_json()
    pinned = _spine_links_pinned(design, "storage")
    old = [design.links[link.id] for link in pinned]
    design.update_links(pinned)
    during = analyzer.report().to_json()
    assert during != before
    design.update_links(old)  # the undo
    assert analyzer.report().to_json() == before == _fresh_json(design)
    design.update_links(pinned)  # the redo
    assert analyzer.report().to_json() == during


def test_refabricked_names_only_the_links_whose_fabric_changed():
    design = synthetic_hall(128)
    heard = []
    design.subscribe(heard.append)
    pinned = _spine_links_pinned(design, "storage")
    relabelled = [
        msgspec.structs.replace(link, label="x")
        for link in design.links.values()
        if link.id not in {p.id for p in pinned}
    ][:3]
    design.update_links([*pinned, *relabelled])
    (change,) = heard  # one edit, one Change
    assert change.ids(ChangeKind.LINKS_CHANGED) == tuple(k.id for k in [*pinned, *relabelled])
    assert change.ids(ChangeKind.LINKS_REFABRICKED) == tuple(p.id for p in pinned)
    heard.clear()
    design.update_links([msgspec.structs.replace(p, label="y") for p in pinned])  # same fabric
    (change,) = heard
    assert change.kinds == {ChangeKind.LINKS_CHANGED}


def test_the_editors_analysis_follows_a_fabric_pin_and_its_undo():
    """Driven as the editor's worker drives it (a snapshot per edit, ``Analyzer.advance``), on
    a hall cabled in zones, whose panels and trunks are split by fabric too."""
    design = _hall("fat-tree zoned")
    worker = EditorWorker(design)
    try:
        before = worker.advance().to_json()
        pinned = _spine_links_pinned(design, "storage")
        old = [design.links[link.id] for link in pinned]
        design.update_links(pinned)
        during = worker.advance().to_json()
        assert during != before
        assert during == analyze(design, worker.plant).to_json()
        design.update_links(old)
        assert worker.advance().to_json() == before == analyze(design, worker.plant).to_json()
    finally:
        worker.close()
