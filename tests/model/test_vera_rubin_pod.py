"""The Vera Rubin POD (issue 39; domain-facts §9): NVIDIA's technical blog (NV-VR-POD) gives
40 racks and 1,152 Rubin GPUs in five rack types; NEXTFIN-VR-POD 256 CPUs per Vera CPU rack.
What the generator builds from those, and which counts are estimates, is said per assertion."""

from __future__ import annotations

from collections import Counter

import pytest

from model.analysis import analyze
from model.catalog.components import builtin_catalog
from model.catalog.ports import port_table
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.generators.plans import GenerateError

POD_RACKS = 40  # NV-VR-POD
POD_GPUS = 1152  # NV-VR-POD
GPUS_PER_NVL72 = 72  # NV-RA-VR: 18 trays x 4 Rubin
CPUS_PER_CPU_RACK = 256  # NEXTFIN-VR-POD (and domain-facts §9)


@pytest.fixture(scope="module")
def pod():
    design = generate("nvl72", racks=16, platform="vera-rubin", pod=True)
    plant = RoutedLinks(design)
    plant.refresh()
    return design, analyze(design, plant)


def test_the_pod_rack_types_carry_ports_in_cages_of_their_kind():
    cat = builtin_catalog()
    cpu = cat.device_type("vera-cpu-tray")
    cpu_rack = cat.rack_type(cpu.rack_type)
    # 256 CPUs per rack (NEXTFIN-VR-POD): 32 trays of 8 is the estimate that makes it.
    assert cpu.servers_per_rack * 8 == CPUS_PER_CPU_RACK
    assert cpu.servers_per_rack * cpu.u_height <= cpu_rack.height_u - 1
    stx = cat.device_type("bf4-stx-node")
    for dtype in (cpu, stx):
        table = port_table(dtype)
        data = [p for p in table.values() if p.role == "storage"]
        # BlueField-4 converged ports: 400GbE in OSFP cages, a mode of the DPU (NV-RA-VR).
        assert data and {(p.form_factor, p.speed_gbps) for p in data} == {("OSFP", 400)}
        assert {g.nic for g in dtype.port_groups if g.role == "storage"} == {"bluefield-4"}
        bmc = [p for p in table.values() if p.role == "management"]
        assert [p.form_factor for p in bmc] == ["RJ45"]
    for rack_id in ("rack-vr-cpu", "rack-vr-stx", "rack-vr-spx"):
        rack = cat.rack_type(rack_id)
        assert rack.liquid_manifold and "NV-VR-POD" in rack.source


def test_the_q3200_port_count_is_marked_an_estimate():
    q3200 = builtin_catalog().device_type("q3200")
    assert "estimate" in q3200.source.split(", ")
    # Secondary readings disagree (36 ports or 2 x 36): still an estimate, the readings cited.
    assert "NOT settled" in q3200.notes and "NV-XDR-CLUSTERS" in q3200.source
    group = q3200.port_group("p")
    # XDR: 800G at 4 x 200G lanes in twin-port OSFP cages, as the Q3400-RA (QX800-NOTE).
    assert (group.speed_gbps, group.lane_rate_gbps, group.form_factor, group.ports_per_cage) == (
        800,
        200,
        "OSFP",
        2,
    )


def test_a_generated_pod_has_the_sourced_counts(pod):
    design, report = pod
    racks = Counter(r.type for r in design.racks.values())
    # 1,152 GPUs (NV-VR-POD) in NVL72 racks of 72: 16 racks.
    assert design.gpu_count() == POD_GPUS
    assert racks["rack-vr-nvl72"] == POD_GPUS // GPUS_PER_NVL72 == 16
    # Vera CPU and STX racks: 4 each, an estimate (no per-type split was found).
    assert racks["rack-vr-cpu"] == 4 and racks["rack-vr-stx"] == 4
    cpus = sum(8 for d in design.devices.values() if d.type == "vera-cpu-tray")
    assert cpus == 4 * CPUS_PER_CPU_RACK
    # The SPX racks hold every compute-fabric switch (their count follows from the fabric).
    spx = [r.id for r in design.racks.values() if r.type == "rack-vr-spx"]
    in_spx = Counter(d.type for r in spx for d in design.devices_in_rack(r))
    compute = Counter(d.type for d in design.devices.values() if d.fabric == "compute")
    assert in_spx["sn6810"] == compute["sn6810"] == 36 + 18  # 2,304 ports: 36 leaves, 18 spines
    # 40 racks (NV-VR-POD) less the LPX racks, which are not built; the note says how many.
    built = len(design.racks)
    assert built < POD_RACKS
    assert f"the other {POD_RACKS - built} racks" in design.generation_notes[-1]
    # The STX nodes are the storage: no generic appliance.
    assert not [d for d in design.devices.values() if d.type == "storage-appliance-4x400"]


def test_a_generated_pod_analyses_without_an_error_or_warning(pod):
    design, report = pod
    assert [(w.code, w.message) for w in report.warnings if w.severity != "info"] == []
    # Every CPU tray and STX node cabled: both converged ports and the BMC.
    cabled = Counter()
    for link in design.links.values():
        for end in (link.a, link.b):
            cabled[design.devices[end.device].type] += 1
    assert cabled["vera-cpu-tray"] == 128 * 3
    assert cabled["bf4-stx-node"] == 64 * 3
    for rack_id, (typical, maximum, budget) in report.rack_power_w.items():
        assert typical <= maximum <= budget, rack_id
        # The NVL72 racks inside the ~190-230 kW (Max-Q to Max-P) the sources give (REGANTIH).
        if design.racks[rack_id].type == "rack-vr-nvl72":
            assert 190_000 <= typical <= maximum <= 230_000, rack_id


def test_a_pod_is_refused_on_another_platform_or_size():
    with pytest.raises(GenerateError, match="--platform vera-rubin"):
        generate("nvl72", racks=16, platform="gb300", pod=True)
    with pytest.raises(GenerateError, match="--racks 16"):
        generate("nvl72", racks=8, platform="vera-rubin", pod=True)


def test_a_leaf_spine_on_the_q3200_is_its_clos_minimum():
    # 16 DGX B300 (8 x 800G each, NV-SP-B300XDR) on 36-port Q3200 switches (port count an
    # estimate): 18 down / 18 up a leaf, whole servers: 2 a leaf = 8 leaves of 16 uplinks,
    # 128 uplinks over 36-port spines = 4 spines.
    design = generate("leaf-spine", nodes=16, node_type="dgx-b300", switch="q3200")
    types = Counter(d.type for d in design.devices.values())
    assert types["q3200"] == 8 + 4
    plant = RoutedLinks(design)
    plant.refresh()
    report = analyze(design, plant)
    assert [w.code for w in report.warnings if w.severity != "info"] == []
    assert report.bisection_gbps == 128 / 2 * 800


def test_the_pod_runs_storage_and_inband_on_one_converged_fabric(pod):
    """NV-RA-VR: compute, converged and OOB fabrics, each node joined to the converged one by
    two 400G ports on two separate switches. The Vera CPU trays (no GPUs) kept the POD apart:
    an SN5600 in-band fabric beside storage, each tray one port on each. Choice: the CPU trays'
    BlueField-4 ports join the converged fabric as the GPU trays' do."""
    design, _ = pod
    fabric_of = {d.id: d.fabric for d in design.devices.values()}
    assert not [d for d in design.devices.values() if (d.fabric, d.type) == ("inband", "sn5600")]
    reach: dict[str, set[str]] = {}
    for link in design.links.values():
        for end, far in ((link.a, link.b), (link.b, link.a)):
            kind = design.devices[end.device].type
            if kind in ("vr-nvl72-compute-tray", "vera-cpu-tray"):
                if fabric_of[far.device] in ("storage", "inband"):
                    assert fabric_of[far.device] == "storage"
                    reach.setdefault(end.device, set()).add(far.device)
    assert len(reach) == 16 * 18 + 128 and {len(v) for v in reach.values()} == {2}
