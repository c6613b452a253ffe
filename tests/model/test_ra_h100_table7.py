"""The DGX H100 SuperPOD reference architecture's Table 7 ("Major components of the 4 SU,
127-node DGX SuperPOD", RA-11333-001 V11, Appendix A; resources/catalog/sources.json
NV-SP-H100-T7), row by row, against the hall the generator builds for it.

Table 7 is the DGX H100 RA's, not the GB200 RA's (which has no component table). The rows the
generator reproduces are asserted here; those it does not (38 racks, 8 OOB switches, 16 storage
fabric switches, 12 PDUs in the other racks) are asserted as what it builds, with why, so a
change to either side is seen."""

from __future__ import annotations

from collections import Counter

import pytest

from model.analysis.analyzer import analyze
from model.generators.generate import generate


@pytest.fixture(scope="module")
def hall():
    # 4 SU of up to 32 DGX H100: the table's 127 nodes.
    return generate(
        "rail-optimized",
        nodes=127,
        node_type="dgx-h100",
        switch="qm9700",
        su_nodes=32,
        fabrics="all",
        facility="yes",
    )


def _types(design, fabric=None) -> Counter:
    return Counter(d.type for d in design.devices.values() if fabric is None or d.fabric == fabric)


def _compute_racks(design) -> list:
    holding = {d.rack for d in design.devices.values() if d.type == "dgx-h100"}
    return [r for r in design.racks.values() if r.id in holding]


def test_row_nodes_127_dgx_h100_and_row_ufm_appliance_4(hall):
    assert _types(hall)["dgx-h100"] == 127
    assert _types(hall)["ufm-appliance"] == 4  # a pair on the compute fabric, a pair on storage


def test_row_bcm_management_servers_4(hall):
    # "BCM Management servers: 4" (V11; an earlier version of the appendix says 5).
    assert _types(hall)["mgmt-node"] == 4


def test_row_in_band_management_8_sn4600c_and_compute_fabric_48_qm9700(hall):
    assert _types(hall, "inband") == {"sn4600c": 8}
    assert _types(hall, "compute") == {"qm9700": 48}  # 32 leaves + 16 spines


def test_row_rack_pdus_96_three_in_each_of_the_32_compute_racks_on_both_sides(hall):
    power = hall.hall.power
    side_of_feed = {f.id: f.side for f in power.feeds}
    side = {p.id: side_of_feed[p.feed] for p in power.panels}
    compute = _compute_racks(hall)
    assert len(compute) == 32  # 127 DGX, 4 per rack
    assert sum(len(r.pdus) for r in compute) == 96
    for rack in compute:
        # Two on side A and one on side B: either side's failure leaves the rack powered.
        assert sorted(side[p] for p in rack.pdus) == ["A", "A", "B"], rack.id
    report = analyze(hall)
    assert not [w for w in report.warnings if w.code == "RACK_NOT_REDUNDANT"]
    # The BOM's PDUs are the power paths' (placed metered PDUs plus rack-PDU parts).
    assert sum(len(r.pdus) for r in hall.racks.values()) == 96 + 2 * (len(hall.racks) - 32)


def test_rows_the_generator_does_not_reproduce_are_what_it_builds(hall):
    """Racks 38, OOB management 8, storage fabric 16 and the other racks' 12 PDUs: the generator
    gives the storage appliances (partner storage, outside Table 7) a row of their own, the
    compute spines, the storage switches and the management gear racks of their own (11 racks
    beside the 32 compute racks, where the table's 38 leaves 6), an OOB pair to every run of
    racks for cable reach (the table's 8 serve the hall), and sizes storage for 40 GB/s per
    node (12 leaves + 5 spines). Two PDUs in each of those racks: 22, not 12."""
    others = [r for r in hall.racks.values() if r not in _compute_racks(hall)]
    assert (len(hall.racks), len(others)) == (43, 11)
    assert all(len(r.pdus) == 2 for r in others)
    assert _types(hall, "oob") == {"sn2201": 12}
    assert _types(hall, "storage") == {"qm9700": 17}


def test_every_rack_pdu_is_on_the_oob_network_as_table_8_cables_them(hall):
    """Table 8, OOB Ethernet: "108 PDUs" on 1 GbE - every rack PDU of Table 7 (96 + 12), not one
    per rack. Each PDU the facility plan gives a rack is a device there, cabled to an OOB switch."""
    oob = {d.id for d in hall.devices.values() if d.fabric == "oob"}
    cabled = set()
    for link in hall.links.values():
        if link.b.device in oob and hall.devices[link.a.device].type == "pdu-1u-metered":
            cabled.add(link.a.device)
    for rack in hall.racks.values():
        in_rack = {d.id for d in hall.devices_in_rack(rack.id) if d.type == "pdu-1u-metered"}
        assert len(in_rack) == len(rack.pdus), rack.id
        assert in_rack <= cabled, rack.id
