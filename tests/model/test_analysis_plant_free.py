"""The report's plant-free figures (model/analysis/plant_free: collectives, bisection) computed
apart, as ``main.py analyze`` does in a forked child, give the report the analysis computes
itself: checked against ``analyze(design, plant)`` on halls with odd cases, and through
``main.py analyze`` against the in-process report."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import msgspec
import pytest

from model.analysis import analyze
from model.analysis.plant_free import plant_free_figures
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from tests.builders import copper_pod, empty_hall, rack, small_pod
from tests.forked_runs import needs_two_cores, run_recording_forks
from tests.model.zoned_halls import zoned_fat_tree_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "resources" / "examples").glob("*.hall.json"))


def _one_rack():
    design = empty_hall()
    rack(design, "r1", 1.5, 3.0)
    return design


def _both_ways(design) -> tuple[dict, dict]:
    """(the report given the figures computed apart, the report computing them itself)."""
    plant = RoutedLinks(design)
    given = analyze(design, plant, plant_free=lambda: plant_free_figures(design)).to_json()
    return given, analyze(design, RoutedLinks(design)).to_json()


@pytest.mark.parametrize("make", [empty_hall, _one_rack, small_pod, copper_pod])
def test_built_halls_report_alike(make):
    given, own = _both_ways(make())
    assert given == own


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_report_alike(path):
    given, own = _both_ways(load_design(path))
    assert given == own


def test_zoned_hall_reports_alike(tmp_path_factory):
    design = load_design(zoned_fat_tree_file(tmp_path_factory))
    given, own = _both_ways(design)
    assert given["collectives"] and given == own


def test_figures_of_other_settings_are_not_used():
    """Collective figures computed for another message size are the other size's: the report
    computes its own (the settings key is compared), as the bisection reads no setting."""
    design = small_pod()
    other = small_pod()
    settings = other.settings
    other.set_settings(
        msgspec.structs.replace(settings, allreduce_message_mb=settings.allreduce_message_mb * 8)
    )
    foreign = plant_free_figures(other)
    assert foreign.collectives.size_bytes != plant_free_figures(design).collectives.size_bytes
    given = analyze(design, RoutedLinks(design), plant_free=lambda: foreign).to_json()
    assert given == analyze(design, RoutedLinks(design)).to_json()


@needs_two_cores
def test_main_py_analyze_forks_and_prints_the_in_process_report(tmp_path):
    example = ROOT / "resources" / "examples" / "superpod-4su.hall.json"
    out = tmp_path / "report.json"
    lines = run_recording_forks(
        "import contextlib, runpy, sys\n"
        f"sys.argv = ['main.py', 'analyze', {str(example)!r}, '--json']\n"
        f"with open({str(out)!r}, 'w') as f, contextlib.redirect_stdout(f):\n"
        "    try:\n"
        "        runpy.run_path('main.py', run_name='__main__')\n"
        "    except SystemExit as exc:\n"
        "        code = exc.code\n"
        "print('exit', code)\n"
        "print('forked', made, [c.from_child for c in recorded_calls])\n"
    )
    assert lines[-2:] == ["exit 0", "forked [True] [True]"]
    design = load_design(example)
    assert json.loads(out.read_text()) == analyze(design, RoutedLinks(design)).to_json()


def test_given_figures_of_this_design_are_the_ones_reported():
    """The report takes the bisection it is given (a marked figure shows through), so the
    child's work is not done twice."""
    design = small_pod()
    free = plant_free_figures(design)
    bisection = dataclasses.replace(free.bisection, gbps=123456.0)
    given = dataclasses.replace(free, bisection=bisection)
    report = analyze(design, RoutedLinks(design), plant_free=lambda: given).to_json()
    assert report["bisection"]["gbps"] == 123456.0


def test_figures_from_before_an_edit_are_not_used():
    """Figures computed, then the westmost and eastmost racks swapped (the floor's halves, and
    so the minimum balanced cut, change): the report is the edited design's, computed here,
    not the stale one."""
    design = load_design(ROOT / "resources" / "examples" / "superpod-4su.hall.json")
    stale = plant_free_figures(design)
    by_x = sorted(design.racks.values(), key=lambda r: (r.x, r.y))
    west, east = by_x[0], by_x[-1]
    design.move_racks({west.id: (east.x, east.y), east.id: (west.x, west.y)})
    assert plant_free_figures(design).bisection.cut != stale.bisection.cut
    given = analyze(design, RoutedLinks(design), plant_free=lambda: stale).to_json()
    assert given == analyze(design, RoutedLinks(design)).to_json()


def test_given_collectives_are_reported_and_none_are_built(monkeypatch):
    """Figures of this design and its settings: the report shows the given collectives (a
    marked figure shows through) and builds no Collectives of its own, the child's work."""
    import model.analysis.analyzer as analyzer

    design = small_pod()
    free = plant_free_figures(design)
    marked = dataclasses.replace(free.collectives, knee="the child's knee")
    given = dataclasses.replace(free, collectives=marked)

    def refuse(*_args, **_kwargs):
        raise AssertionError("a Collectives was built beside the given figures")

    monkeypatch.setattr(analyzer, "Collectives", refuse)
    report = analyze(design, RoutedLinks(design), plant_free=lambda: given).to_json()
    assert report["collectives"]["knee"] == "the child's knee"


def test_given_stages_are_taken_and_none_computed_here(monkeypatch):
    """Figures of this design carry its plant-free stages (bandwidth, hops, device figures,
    entry checks, clashes, fabric shapes, hall counts, NIC modes, topology findings): the
    analysis computes none of them itself, the child's work, and reports what it computes
    alone."""
    import model.analysis.analyzer as analyzer
    import model.analysis.analyzer_kept as kept
    import model.analysis.warnings as warn

    design = small_pod()
    free = plant_free_figures(design)
    own = analyze(design, RoutedLinks(design)).to_json()

    def refuse(*_args, **_kwargs):
        raise AssertionError("a plant-free stage was computed beside the given one")

    for module, name in [
        (analyzer, "switch_groups"),
        (analyzer, "bandwidth"),
        (analyzer, "server_hops"),
        (analyzer, "device_figures"),
        (analyzer, "entry_findings"),
        (analyzer, "rack_clashes"),
        (kept, "fabric_shapes"),
        (kept, "hall_counts"),
        (kept, "nic_mode_findings"),
        (warn, "rack_u_findings"),
        (warn, "placement_findings"),
        (warn, "topology_findings"),
    ]:
        monkeypatch.setattr(module, name, refuse)
    given = analyze(design, RoutedLinks(design), plant_free=lambda: free).to_json()
    assert given == own


def test_stages_from_before_an_edit_are_not_taken():
    """A rack moved onto another after the figures were computed: the report shows the clash
    the edited design has (its own stages), not the stale figures' clean floor."""
    design = small_pod()
    stale = plant_free_figures(design)
    first, second = sorted(design.racks.values(), key=lambda r: r.id)[:2]
    design.move_racks({first.id: (second.x, second.y)})
    given = analyze(design, RoutedLinks(design), plant_free=lambda: stale).to_json()
    assert given == analyze(design, RoutedLinks(design)).to_json()
    assert stale.stages is not None and not stale.stages.clashes
    assert any(w["code"] == "RACK_OVERLAP" for w in given["warnings"])


def test_a_given_topology_is_read_and_none_inferred(monkeypatch):
    """``main.py analyze`` infers the topology once, before the fork, and hands it to the
    child's figures and to its own analysis: neither infers another, and the report is the one
    the analysis gives inferring its own."""
    import model.analysis.analyzer as analyzer
    import model.analysis.plant_free as plant_free
    from model.analysis.topology import infer_topology

    design = small_pod()
    own = analyze(design, RoutedLinks(design)).to_json()
    topology = infer_topology(design)

    def refuse(*_args, **_kwargs):
        raise AssertionError("a topology was inferred beside the given one")

    monkeypatch.setattr(plant_free, "infer_topology", refuse)
    monkeypatch.setattr(analyzer, "infer_topology", refuse)
    free = plant_free_figures(design, topology)
    plant = RoutedLinks(design)
    given = analyze(design, plant, topology=topology, plant_free=lambda: free).to_json()
    assert given == own
