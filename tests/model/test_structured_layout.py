"""Cross-connect layout on real designs: channels, trunks, cords, panels, BOM, CLI, moving racks."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from cli import run_cli
from model.analysis import analyze
from model.design.entities import Tray
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, load_design
from model.generators.generate import generate
from model.outputs.bom import bom_lines, bom_totals
from model.structured.channel_checks import channel_findings
from model.structured.channels import loss_budget
from model.structured.layout import set_cabling, structured_layout
from model.structured.polarity import check_polarity
from tests.builders import device, empty_hall, link, rack

ROOT = Path(__file__).resolve().parents[2]
SMALL_POD = ROOT / "resources" / "examples" / "small-pod.hall.json"
SMALL_POD_PARAMS = dict(
    nodes=31,
    node_type="dgx-h100",
    switch="qm9700",
    su_nodes=31,
    reserve_ports=1,
    name="Small pod: one DGX H100 SuperPOD scalable unit (example)",
)


def cross_connect(design):
    set_cabling(design, "cross-connect")
    return design


@pytest.fixture(scope="module")
def pod():
    design = cross_connect(load_design(SMALL_POD))
    plant = RoutedLinks(design)
    return design, plant, structured_layout(plant)


def inter_rack_optical(design, plant):
    out = []
    for link_id in plant.link_ids:
        medium = plant.medium(link_id)
        link = design.links[link_id]
        racks = {design.devices[link.a.device].rack, design.devices[link.b.device].rack}
        if medium is not None and medium.kind in ("mmf", "smf") and len(racks) == 2:
            out.append(link_id)
    return out


def test_every_inter_rack_optical_link_of_the_pod_runs_through_two_panels(pod):
    design, plant, layout = pod
    expected = inter_rack_optical(design, plant)
    assert expected
    assert layout.structured_links() == set(expected)
    for link_id in expected:
        channel = layout.channels[link_id]
        assert [e.kind for e in channel.elements] == ["cord", "panel", "trunk", "panel", "cord"]
        assert check_polarity(channel).ok
        budget = loss_budget(channel)
        assert budget.mated_pairs == ("MPO", "MPO")
        assert budget.loss_db == pytest.approx(0.70 + channel.length_m * 3.0 / 1000)
    assert channel_findings(layout.channels.values()) == []


def test_pod_bom_lists_cords_trunks_and_panels_and_matches_the_analysis(pod):
    design, plant, layout = pod
    n = len(layout.structured_links())
    lines = bom_lines(design, plant)
    qty = Counter()
    for ln in lines:
        qty[ln.category] += ln.quantity
    # One cord at each end, fibres_per_port 1 on the pod's SR4 modules; a cord is the same part
    # as a point-to-point fibre of its length, so they share its line
    assert len(layout.cords) == 2 * n
    assert qty["Fibres"] == 2 * n
    # Bundled: the legs between two rack panels share the fewest trunks that hold them (one
    # MPO-12 leg per SR4 channel): the smallest trunk for all, else the largest that turns the
    # trays' 100 mm corner first (48 fibres, 82.5 mm; a 144's 142.5 mm does not).
    legs = Counter((t.panel_a, t.panel_b) for t in layout.trunks for _ in range(t.legs))
    assert sum(legs.values()) == n
    per_pair = Counter()
    for t in layout.trunks:
        per_pair[(t.panel_a, t.panel_b)] += 1
        assert t.legs * 12 <= t.fibres
        members = [layout.channels[lid] for lid in t.links]
        trunk_m = {e.length_m for c in members for e in c.elements if e.object_id == t.id}
        assert trunk_m == {t.ordered_m} and t.ordered_m >= t.length_m
    for pair, count in legs.items():
        assert per_pair[pair] == math.ceil(count / 4)  # 48-fibre trunks carry 4 legs
    assert qty["Trunks"] == len(layout.trunks) < n
    # Panels: each rack's MPO ports over 72 per 1U panel, rounded up per rack.
    ports = Counter()
    for link_id in layout.structured_links():
        link = design.links[link_id]
        ports[design.devices[link.a.device].rack] += 1
        ports[design.devices[link.b.device].rack] += 1
    assert qty["Panels"] == sum(math.ceil(p / 72) for p in ports.values())
    assert all("trunk" not in ln.description or ln.length_m for ln in lines)
    report = analyze(design, plant)
    assert report.cost_usd["total"] == pytest.approx(bom_totals(lines).price_usd)
    channels = report.to_json()["channels"]
    assert channels["total"] == len(layout.channels)
    assert channels["over_budget"] == 0 and channels["polarity_errors"] == 0
    assert channels["min_margin_db"] == pytest.approx(
        min(loss_budget(c).margin_db for c in layout.channels.values())
    )


def test_direct_is_the_default_and_unchanged(tmp_path):
    design = load_design(SMALL_POD)
    assert design.settings.cabling == "direct"
    plant = RoutedLinks(design)
    assert structured_layout(plant).structured_links() == set()
    assert "channels" not in analyze(design, plant).to_json()
    assert "Trunks" not in {ln.category for ln in bom_lines(design, plant)}
    out = tmp_path / "pod.hall.json"
    args = ["rail-optimized", "--nodes", "31", "--node-type", "dgx-h100", "--switch", "qm9700"]
    args += ["--su-nodes", "31", "--reserve-ports", "1", "--name", SMALL_POD_PARAMS["name"]]
    assert run_cli(["generate", *args, "-o", str(out), "--cabling", "direct"]) == 0
    assert out.read_bytes() == SMALL_POD.read_bytes()
    assert out.read_bytes() == design_to_bytes(generate("rail-optimized", **SMALL_POD_PARAMS))


def test_generate_cross_connect_saves_the_style(tmp_path):
    out = tmp_path / "pod.hall.json"
    args = ["rail-optimized", "--nodes", "31", "--node-type", "dgx-h100", "--switch", "qm9700"]
    args += ["--su-nodes", "31", "--reserve-ports", "1"]
    assert run_cli(["generate", *args, "-o", str(out), "--cabling", "cross-connect"]) == 0
    design = load_design(out)
    assert design.settings.cabling == "cross-connect"
    assert design.revision == 0
    assert b'"cabling":"cross-connect"' in out.read_bytes().replace(b" ", b"")
    with pytest.raises(SystemExit):
        run_cli(["generate", *args, "-o", str(out), "--cabling", "spaghetti"])


def two_rack_hall(x_far: float, medium: str, nics: int = 1):
    """A DGX rack at x = 1.5 and a leaf rack at ``x_far`` on one 70 m tray, links pinned."""
    design = empty_hall(width_m=72.0)
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", x_far, 3.0)
    design.add_trays([Tray(id="t-row", points=[(0.6, 3.0), (71.4, 3.0)])])
    device(design, "a1", "r1", 2, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    for nic in range(1, nics + 1):
        link(design, f"l-{nic}", ("a1", f"nic{nic}"), ("leaf1", f"p{nic}"), medium=medium)
    return cross_connect(design)


def test_moving_the_network_rack_away_makes_that_channel_exceed_the_paneled_reach():
    design = two_rack_hall(12.0, "sr4-400g")
    plant = RoutedLinks(design)
    assert channel_findings(structured_layout(plant).channels.values()) == []
    design.move_racks({"n1": (42.0, 3.0)})
    plant.refresh()
    row = plant.index["l-1"]
    assert plant.ordered_m[row] <= 50  # the direct fibre would still reach (50 m OM4) ...
    layout = structured_layout(plant)
    channel = layout.channels["l-1"]
    assert channel.length_m > 50  # ... but cords + trunk with its service loop do not
    (finding,) = channel_findings(layout.channels.values())
    assert finding.code == "CHANNEL_REACH_EXCEEDED"
    assert finding.objects[:2] == ("l-1", "l-1:cord-a")
    assert "trunk-1" in finding.objects and "panel-n1" in finding.objects
    codes = {w.code: w for w in analyze(design, plant).warnings}
    assert codes["CHANNEL_REACH_EXCEEDED"].objects[0] == "l-1"


def test_duplex_channels_share_a_trunk_through_cassettes_with_mirrored_ports():
    design = two_rack_hall(12.0, "fr4-400g", nics=8)
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    (trunk,) = layout.trunks  # 6 + 2 duplex channels: two cassette legs bundled in one trunk
    assert (trunk.part, trunk.legs, len(trunk.links)) == ("trunk-mpo24-sm", 2, 8)
    first = layout.channels["l-1"].elements
    assert [e.kind for e in first] == ["cord", "cassette", "trunk", "cassette", "cord"]
    assert (first[1].port, first[3].port) == (1, 6)
    for channel in layout.channels.values():
        assert check_polarity(channel).ok
        assert loss_budget(channel).mated_pairs == ("LC", "MPO", "LC", "MPO")
    assert layout.panel_counts() == {"enclosure-1u-4": 2, "cassette-mpo12-lc6-a": 4}
    qty = Counter()
    for ln in bom_lines(design, plant):
        qty[ln.category] += ln.quantity
    assert qty["Trunks"] == 1 and qty["Panels"] == 2 and qty["Cassettes"] == 4


def test_a_cross_connect_design_round_trips_its_style(tmp_path):
    design = two_rack_hall(12.0, "sr4-400g")
    path = tmp_path / "x.hall.json"
    path.write_bytes(design_to_bytes(design))
    again = load_design(path)
    assert again.settings.cabling == "cross-connect"
    assert msgspec.structs.asdict(again.settings) == msgspec.structs.asdict(design.settings)
