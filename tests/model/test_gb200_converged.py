"""GB200 `--fabrics all`: storage and in-band on one Spectrum-4 Ethernet fabric, as the GB200
SuperPOD reference architecture runs them (NV-SP-GB200, domain-facts §9), not an InfiniBand
QM9700 storage fabric beside a separate in-band one (issue 39)."""

from __future__ import annotations

from collections import Counter

import pytest

from model.catalog.components import builtin_catalog
from model.generators.generate import generate
from model.generators.network_ports import converged_servers


def _switches(design):
    types = design.catalog.device_types
    return Counter(
        (d.fabric, d.type) for d in design.devices.values() if types[d.type].category == "switch"
    )


def test_gb200_storage_and_inband_are_one_spectrum4_fabric():
    design = generate("nvl72", racks=8, fabrics="all")
    switches = _switches(design)
    storage = {t for (f, t) in switches if f == "storage"}
    assert storage == {"sn5600"}  # Spectrum-4, run as 128 x 400G for BlueField-3
    assert ("storage", "qm9700") not in switches
    # No storage UFMs (an Ethernet fabric), the compute fabric's InfiniBand unchanged.
    assert not [d for d in design.devices if d.startswith("ufm-storage")]
    assert {t for (f, t) in switches if f == "compute"} == {"qm9700"}
    # Every tray's BlueField-3 ports (both) on the converged fabric; none on a separate
    # in-band leaf, which now serves the head nodes and UFMs only.
    fabric_of = {d.id: d.fabric for d in design.devices.values()}
    trays = [d.id for d in design.devices.values() if d.role == "gpu-server"]
    on = Counter()
    for link in design.links.values():
        for end, far in ((link.a, link.b), (link.b, link.a)):
            if end.device in trays and end.port.startswith("stor"):
                on[fabric_of[far.device]] += 1
    assert on == {"storage": 2 * len(trays)}


def test_only_nvl72_bluefield_trays_converge():
    cat = builtin_catalog()
    assert converged_servers(cat, [("t", "gb200-compute-tray")])
    assert converged_servers(cat, [("t", "gb300-compute-tray")])
    assert not converged_servers(cat, [("s", "dgx-b200")])  # BlueField-3, but a DGX box
    assert not converged_servers(cat, [("s", "dgx-h100")])  # front-end ports of its own
    design = generate(
        "rail-optimized",
        nodes=32,
        node_type="dgx-h100",
        switch="qm9700",
        su_nodes=32,
        fabrics="all",
    )
    assert ("storage", "qm9700") in _switches(design)  # the H100 RA's InfiniBand storage


def test_vera_rubin_trays_join_one_converged_fabric_by_two_ports_on_two_switches():
    """NV-RA-VR: three physical fabrics (compute, converged, out-of-band); the converged one
    joins each node by two 400G ports to two separate switches. The trays' BlueField-4 ports
    were split, one on a storage fabric and one on an in-band SN5600 fabric of its own."""
    assert converged_servers(builtin_catalog(), [("t", "vr-nvl72-compute-tray")])
    design = generate("nvl72", racks=8, platform="vera-rubin", fabrics="all")
    switches = _switches(design)
    assert {t for (f, t) in switches if f == "storage"} == {"sn5600"}
    assert not [t for (f, t) in switches if f == "inband" and t == "sn5600"]
    fabric_of = {d.id: d.fabric for d in design.devices.values()}
    leaves: dict[str, set[str]] = {}
    for link in design.links.values():
        for end, far in ((link.a, link.b), (link.b, link.a)):
            if design.devices[end.device].type == "vr-nvl72-compute-tray" and fabric_of[
                far.device
            ] in ("storage", "inband"):
                assert fabric_of[far.device] == "storage"
                leaves.setdefault(end.device, set()).add(far.device)
    assert len(leaves) == 8 * 18 and {len(v) for v in leaves.values()} == {2}


def _switches_of_each_tray(design) -> dict[str, set[str]]:
    fabric_of = {d.id: d.fabric for d in design.devices.values()}
    out: dict[str, set[str]] = {}
    for link in design.links.values():
        for end, far in ((link.a, link.b), (link.b, link.a)):
            tray = design.devices[end.device].type.endswith("compute-tray")
            if tray and fabric_of[far.device] in ("storage", "inband"):
                out.setdefault(end.device, set()).add(far.device)
    return out


@pytest.mark.parametrize(
    ("platform", "racks"),
    [("vera-rubin", 1), ("vera-rubin", 2), ("vera-rubin", 3), ("vera-rubin", 8)]
    + [("gb200", 1), ("gb200", 2), ("gb300", 1), ("gb300", 2)],
)
def test_every_tray_reaches_two_converged_switches_at_every_size(platform, racks):
    """NV-RA-VR: each node's two converged ports go to two separate switches. At 1-2 racks
    every port fitted one leaf, so a leaf's failure cut every tray off the converged fabric;
    now at least two leaves (GB200/GB300 alike)."""
    design = generate("nvl72", racks=racks, platform=platform, fabrics="all")
    trays = _switches_of_each_tray(design)
    assert len(trays) == racks * 18
    assert {len(v) for v in trays.values()} == {2}
