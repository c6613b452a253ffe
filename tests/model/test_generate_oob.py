"""The OOB network serves the racks around it (#43 item 1): an OOB switch per run of racks, its
ports to that run's BMCs and switches, each PDU on the nearest OOB switch, UTP within reach."""

from __future__ import annotations

import re

import pytest

from model.catalog.components import builtin_catalog
from model.generators.generate import rail_optimized
from model.generators.oob import OOB_SWITCH
from model.generators.placement import Segment, segment_rack_count


@pytest.fixture(scope="module")
def superpod():
    # The general rule, on servers whose reference architecture names no rack arrangement (an
    # OEM HGX H100): the DGX H100 SuperPOD's own (RA Table 7) is test_ra_h100_table7.py's.
    return rail_optimized(
        nodes=128, node_type="hgx-h100-8x400", switch="qm9700", su_nodes=32, fabrics="all"
    )


def _row(design, device_id: str) -> str:
    return re.sub(r"\d+$", "", design.devices[device_id].rack)


def _oob_links(design):
    oob = {d.id for d in design.devices.values() if d.type == OOB_SWITCH}
    for link in design.links.values():
        a, b = link.a.device, link.b.device
        if b in oob and link.b.port.startswith("p") and a not in oob:
            yield a, b


def test_every_bmc_and_switch_port_goes_to_an_oob_switch_in_its_own_row(superpod):
    """Handed out in sequence over one hall-wide pool, su1's BMCs went to oob001 wherever it
    stood (141 m across the XL hall); per run, every managed device shares its OOB switch's row."""
    pairs = [(a, b) for a, b in _oob_links(superpod) if not a.startswith("pdu-")]
    assert len(pairs) >= 128 + 48  # every server BMC and compute switch, at least
    far = [(a, b) for a, b in pairs if _row(superpod, a) != _row(superpod, b)]
    assert far == []
    # An OOB switch in every row of racks: each SU, the spines, storage and management.
    rows = {re.sub(r"\d+$", "", r) for r in superpod.racks}
    assert {_row(superpod, b) for _, b in pairs} == rows


def test_each_pdu_goes_to_the_nearest_oob_switch(superpod):
    oob = [d.id for d in superpod.devices.values() if d.type == OOB_SWITCH]

    def distance_m(rack_a: str, rack_b: str) -> float:
        ra, rb = superpod.racks[rack_a], superpod.racks[rack_b]
        return abs(ra.x - rb.x) + abs(ra.y - rb.y)

    pdus = [(a, b) for a, b in _oob_links(superpod) if a.startswith("pdu-")]
    assert len(pdus) == len(superpod.racks)
    for pdu, switch in pdus:
        rack = superpod.devices[pdu].rack
        best = min(distance_m(rack, superpod.devices[s].rack) for s in oob)
        assert distance_m(rack, superpod.devices[switch].rack) == pytest.approx(best), pdu


def test_an_oob_switch_joins_the_network_rack_it_serves():
    """A 1U OOB switch goes into the run's network rack while U and power allow, rather than
    a rack of its own per run."""
    catalog = builtin_catalog()
    leaves = [(f"leaf{i}", "qm9700", "leaf", {}) for i in range(8)]
    oob = [("oob01", OOB_SWITCH, "management", {})]
    alone = segment_rack_count(catalog, Segment(switches=leaves))
    assert segment_rack_count(catalog, Segment(switches=leaves + oob)) == alone == 1
    # A rack of leaves at its limit sends the next leaf to a new rack, OOB or not.
    full = [(f"leaf{i}", "qm9700", "leaf", {}) for i in range(16)]
    assert segment_rack_count(catalog, Segment(switches=full + oob + leaves[:1])) >= 2


@pytest.mark.slow
def test_the_xl_hall_with_every_network_opens_with_no_warning_or_error():
    """XL with every network, cabled direct: 15,665 findings before #43 - 5,220 BMC links beyond
    the 100 m of UTP (NO_MEDIUM_REACHES, and PART_NOT_ORDERABLE on both their cages) and Cross 5
    over 50 % even as a 5 x 0.9 m bank. OOB switches per run, and cross trays every 6 m where
    12 m left a tray short, leave none (~30 s here: build 22 s, analysis 8 s)."""
    from model.analysis.analyzer import analyze
    from model.engine.routed_links import RoutedLinks
    from tests.benchmarks.workloads import build

    design = build("XL", fabrics="all")
    plant = RoutedLinks(design)
    plant.refresh()
    try:
        found = [w for w in analyze(design, plant).warnings if w.severity != "info"]
    finally:
        plant.close()
    assert not found, [f"{w.code}: {w.message}" for w in found[:5]]
