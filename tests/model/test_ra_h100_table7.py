"""The DGX H100 SuperPOD reference architecture's Table 7 ("Major components of the 4 SU,
127-node DGX SuperPOD", RA-11333-001 V11, Appendix A; resources/catalog/sources.json
NV-SP-H100-T7), row by row, against the hall the generator builds for it.

Table 7 is the DGX H100 RA's, not the GB200 RA's (which has no component table). Every row is
asserted; the one the generator does not reproduce (16 storage fabric switches) is asserted as
what it builds, with why, so a change to either side is seen. The racks, OOB switches and PDUs
follow the RA's arrangement (model/generators/ra_layout.py)."""

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


def _table7_racks(design) -> list:
    """The racks Table 7 counts: all but the partner storage's (the table lists no storage)."""
    storage = {d.rack for d in design.devices.values() if d.type == "storage-appliance-4x400"}
    return [r for r in design.racks.values() if r.id not in storage]


def _holding(design, rack_id: str) -> Counter:
    return Counter(d.type for d in design.devices_in_rack(rack_id) if d.type != "pdu-1u-metered")


def test_row_racks_38_and_row_pdus_12_in_the_6_racks_beside_the_dgx_racks(hall):
    """Racks 38 (NVIDPD13): 32 DGX racks, a network rack per SU and 2 management racks. The
    storage appliances (partner storage, outside Table 7) stand in a row of their own."""
    racks = _table7_racks(hall)
    assert len(racks) == 38
    others = [r for r in racks if r not in _compute_racks(hall)]
    assert len(others) == 6
    assert sum(len(r.pdus) for r in others) == 12  # "12 Rack PDUs" (PX3-5747V-V2)
    assert len(hall.racks) - len(racks) == 2  # 26 appliances of 2U: the storage row


def test_which_network_rack_holds_what(hall):
    """Each SU's network rack: its 8 rail leaves and 2 of the 8 OOB switches. The 2 management
    racks: 16 compute spines, the storage fabric, 8 in-band SN4600C, 4 UFM, 4 BCM servers."""
    others = [r for r in _table7_racks(hall) if r not in _compute_racks(hall)]
    su_racks = [r for r in others if _holding(hall, r.id)["sn2201"]]
    assert len(su_racks) == 4
    for rack in su_racks:
        assert _holding(hall, rack.id) == {"qm9700": 8, "sn2201": 2}, rack.id
        leaves = [d for d in hall.devices_in_rack(rack.id) if d.type == "qm9700"]
        assert {d.role for d in leaves} == {"leaf"} and {d.fabric for d in leaves} == {"compute"}
    mgmt = [r for r in others if r not in su_racks]
    together = sum((_holding(hall, r.id) for r in mgmt), Counter())
    spines = [d for r in mgmt for d in hall.devices_in_rack(r.id) if d.fabric == "compute"]
    assert len(spines) == 16 and {d.role for d in spines} == {"spine"}
    storage = sum(1 for r in mgmt for d in hall.devices_in_rack(r.id) if d.fabric == "storage")
    assert together == {
        "qm9700": 16 + storage,
        "sn4600c": 8,
        "ufm-appliance": 4,
        "mgmt-node": 4,
    }


def test_row_oob_management_8_sn2201_serving_every_port_and_pdu_of_table_8(hall):
    """OOB 8 x SN2201, and Table 8's OOB cables: every DGX, every InfiniBand switch, the 8
    management and UFM nodes, the 8 in-band switches and the 108 PDUs (plus the partner
    storage's BMCs and its racks' PDUs, which the table leaves out)."""
    assert _types(hall, "oob") == {"sn2201": 8}
    oob = {d.id for d in hall.devices.values() if d.fabric == "oob"}
    on_oob: Counter = Counter()
    for link in hall.links.values():
        for near, far in ((link.a, link.b), (link.b, link.a)):
            if far.device in oob and far.port.startswith("p") and near.device not in oob:
                on_oob[hall.devices[near.device].type] += 1
    ib_switches = sum(1 for d in hall.devices.values() if d.type == "qm9700")
    table8_pdus = sum(len(r.pdus) for r in _table7_racks(hall))
    assert table8_pdus == 108
    storage_pdus = sum(len(r.pdus) for r in hall.racks.values()) - table8_pdus
    assert on_oob == {
        "dgx-h100": 127,
        "qm9700": ib_switches,
        "ufm-appliance": 4,
        "mgmt-node": 4,
        "sn4600c": 8,
        "pdu-1u-metered": 108 + storage_pdus,
        "storage-appliance-4x400": 26,
    }


def test_the_general_rules_stay_beyond_the_ras_four_sus():
    """Five SUs of DGX H100 (past the RA's tested 4): an OOB switch in every run of racks and
    the spines in a block of their own, as for every other hall (model/generators/oob.py)."""
    big = generate(
        "rail-optimized",
        nodes=160,
        node_type="dgx-h100",
        switch="qm9700",
        su_nodes=32,
        fabrics="all",
    )
    spines = [d for d in big.devices.values() if d.fabric == "compute" and d.role == "spine"]
    spine_racks = {d.rack for d in spines}
    assert all(set(_holding(big, r)) <= {"qm9700", "sn2201"} for r in spine_racks)
    assert any(_holding(big, r)["sn2201"] for r in spine_racks)  # OOB of the block's own
    heads = {d.rack for d in big.devices.values() if d.type == "mgmt-node"}
    assert not heads & spine_racks


def test_row_the_generator_does_not_reproduce_storage_fabric_16(hall):
    """Storage fabric 16 x QM9700: the generator builds 17 (8 node leaves, 4 appliance leaves,
    5 spines). The RA sizes DGX ports near 4:3 and appliances 1:1 but gives no appliance
    count (partner storage); the generator's appliances carry 40 GB/s for every node at once
    (26 x 4 x 400G = 104 ports). At 4:3 the 8 node leaves send >= 192 uplinks; 104 appliance
    ports at 1:1 take >= 4 leaves and 104 uplinks; 296 uplinks need 5 spines of 64 ports: 17.
    Sixteen switches hold at most 96 appliance ports (3 leaves, 5 spines): 37.8 GB/s per node
    when all 127 read at once.

    Table 8 (NV-SP-H100-T8) cables the RA's example storage: 254 DGX ports (reproduced), 48
    storage cables of 2 x 200G and 240 leaf-spine cables (3/4 x 256 + 48, so 4 spines), but
    its footnote says the storage count "depends on specific storage selected": no published
    rule sizes the appliances, and the RA's "over 40 GBps" is each node's I/O (its two 400G
    storage ports), which the example's 48 x 400G (18.9 GB/s a node with all 127 reading) does
    not give concurrently. The generator keeps its sizing. With the example's 48 ports its
    separate appliance leaves would build 14 (8 + 2 leaves, 4 spines); Table 7's 16 needs 12
    leaves (e.g. 2 node leaves and 1 storage leaf per SU), an arrangement the RA draws
    (Figure 6) but does not state."""
    assert _types(hall, "storage") == {"qm9700": 17}
    assert _types(hall)["storage-appliance-4x400"] == 26
    storage = {d.id for d in hall.devices.values() if d.fabric == "storage"}
    into: Counter = Counter()
    for link in hall.links.values():
        if link.b.device in storage:
            into[hall.devices[link.a.device].type] += 1
    assert into["dgx-h100"] == 254  # Table 8: 254 DGX system transceivers (QSFP112)
    assert into["storage-appliance-4x400"] == 104  # Table 8's example storage: 48 cables
    assert into["qm9700"] == 300  # leaf-spine; Table 8: 494 - 254 = 240


def test_table_8_ufm_back_to_back_cables_are_not_built(hall):
    """Table 8's "2 x 1 Gbps UFM Back-to-Back" (NV-SP-H100-T8) is left out: no datasheet in the
    sources gives the UFM appliance a port for it (model/generators/ufm.py). Each appliance's
    catalog ports are all cabled (2 InfiniBand, in-band, BMC), and no link joins two UFMs."""
    ufms = {d.id for d in hall.devices.values() if d.type == "ufm-appliance"}
    used: Counter = Counter()
    for link in hall.links.values():
        ends = {link.a.device, link.b.device}
        assert len(ends & ufms) <= 1, link
        for end in (link.a, link.b):
            if end.device in ufms:
                used[end.device] += 1
    assert used == dict.fromkeys(ufms, 4)


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


def test_each_dgx_storage_and_in_band_pair_reaches_two_leaves(hall):
    """ "Each pair of in-band management and storage ports provide parallel pathways into the
    DGX H100 system" (NV-SP-H100): one leaf's failure halves a DGX's storage, never cuts it."""
    for fabric in ("storage", "inband"):
        switches = {d.id for d in hall.devices.values() if d.fabric == fabric}
        leaves: dict[str, set] = {}
        for link in hall.links.values():
            if hall.devices[link.a.device].type == "dgx-h100" and link.b.device in switches:
                leaves.setdefault(link.a.device, set()).add(link.b.device)
        assert len(leaves) == 127
        assert all(len(v) == 2 for v in leaves.values()), fabric
