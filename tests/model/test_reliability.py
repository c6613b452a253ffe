"""All-cause reliability forecast: rates derived from LLAMA3 Table 5 or sourced, counts from the
physical plant, a hand-computed pod, the job's share, and the 16,384-GPU check."""

from __future__ import annotations

import json
from types import SimpleNamespace

import msgspec
import numpy as np
import pytest

from model.analysis import analyze
from model.analysis.reliability import (
    CATEGORIES,
    FIT_FILE,
    NETWORK,
    fit_rates,
    forecast,
    hall_counts,
    reference,
    unit_fits,
)
from model.analysis.topology import LINK_COMPUTE, infer_topology
from model.design.entities import Settings
from model.engine.routed_links import RoutedLinks
from model.generators.generate import helios, nvl72, rail_optimized
from model.plant.parts_count import PartCount
from tests.model.test_catalog_sources import load_sources, unresolved_keys


def _report(design):
    plant = RoutedLinks(design)
    plant.refresh()
    return analyze(design, plant).to_json()


def _pod():
    # 1 SU of 32 DGX H100 on QM9700: 8 leaves, 4 spines (domain-facts 6c).
    return rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)


def test_every_category_has_a_rate_and_every_source_key_resolves():
    rates = fit_rates()
    assert set(rates) == set(CATEGORIES)
    for rate in rates.values():
        assert rate.fit > 0 and rate.source and rate.label
    assert unresolved_keys([FIT_FILE], load_sources()) == []
    # The reference rows are Table 5's: 419 interruptions in all.
    assert sum(reference()["table5"].values()) == 419


def test_rates_derived_from_llama3_table5():
    # FIT = interruptions / (units x 54 d x 24 h) x 1e9 over 16,384 GPUs, 2,048 servers:
    # GPU rows 148 + 19 + 17 + 6 + 6 = 196; HBM3 72; host rows 32 + 3 + 3 + 2 + 2 + 2 + 2 = 46;
    # NIC 7 (one per GPU); software bug 54 + dependency 2 + NCCL watchdog 7 = 63.
    gpu_hours = 16384 * 54 * 24
    rates = fit_rates()
    assert rates["gpus"].fit == round(196 / gpu_hours * 1e9) == 9231
    assert rates["hbm"].fit == round(72 / gpu_hours * 1e9) == 3391
    assert rates["hosts"].fit == round(46 / (2048 * 54 * 24) * 1e9) == 17331
    assert rates["nics"].fit == round(7 / gpu_hours * 1e9) == 330
    assert rates["software"].fit == round(63 / gpu_hours * 1e9) == 2967


def test_hand_computed_forecast_of_a_one_su_pod_per_category():
    rel = _report(_pod())["reliability"]
    c = rel["categories"]
    # 32 DGX H100 = 256 GPUs, 256 cabled 400G NIC ports; 12 QM9700.
    # Modules: 4 twin-port cages per DGX (128) + 8 leaves x (16 down + 16 up cages) (256) +
    # 4 spines x 32 cages (128) = 512 twin-port 2x400G SR4: 8 lasers x 125 + 1 DSP x 300 FIT.
    expected = {
        "gpus": (256, 9231),
        "hbm": (256, 3391),
        "hosts": (32, 17331),
        "nics": (256, 330),
        "switches": (12, 9132),
        "nvlink_trays": (0, 9132),
        "optics": (512, 8 * 125 + 300),
        "active_cables": (0, 300),
        "passive_cables": (0, 10),
        "software": (256, 2967),
    }
    total = 0.0
    for name, (count, fit) in expected.items():
        per_day = 24e-9 * count * fit
        assert c[name]["count"] == count, name
        assert c[name]["fit"] == fit, name
        assert c[name]["failures_per_day"] == pytest.approx(per_day), name
        total += per_day
    assert total == pytest.approx(0.129721)  # 0.0567 + 0.0208 + 0.0133 + 0.0020 + 0.0026 + ...
    assert rel["failures_per_day"] == pytest.approx(total)
    assert rel["label"] == "all causes"
    # The default job is every GPU server: interrupted by every failure.
    assert rel["job_gpus"] == 256 and rel["job_servers"] == 32
    assert rel["job_interruptions_per_day"] == pytest.approx(total)
    assert rel["gpu_hours_at_risk_per_day"] == pytest.approx(total * 256 * 1.0)
    assert rel["hall_gpu_hours_at_risk_per_day"] == pytest.approx(total * 256 * 1.0)


def test_a_job_of_half_the_servers_owns_its_parts_and_shares_the_network():
    design = _pod()
    plant = RoutedLinks(design)
    plant.refresh()
    topo = infer_topology(design)
    from model.plant.physical_plant import build_plant

    phys = build_plant(plant)
    servers = np.flatnonzero(topo.is_gpu_server)[:16]
    rel = forecast(design, topo, phys, job_servers=servers)
    c = rel["categories"]
    assert rel["job_gpus"] == 128 and rel["job_servers"] == 16
    assert c["hosts"]["job_failures_per_day"] == pytest.approx(24e-9 * 16 * 17331)
    assert c["nics"]["job_failures_per_day"] == pytest.approx(24e-9 * 128 * 330)
    for name in NETWORK:  # shared parts: half of them hit a job of half the GPUs
        assert c[name]["job_failures_per_day"] == pytest.approx(c[name]["failures_per_day"] / 2)
    job = sum(v["job_failures_per_day"] for v in c.values())
    assert rel["job_interruptions_per_day"] == pytest.approx(job)
    assert rel["gpu_hours_at_risk_per_day"] == pytest.approx(job * 128 * 1.0)
    assert rel["failures_per_day"] == pytest.approx(
        _report(design)["reliability"]["failures_per_day"]
    )


def test_optics_fail_per_laser_so_fewer_lasers_forecast_fewer_failures():
    design = _pod()

    def module(part_id, quantity):
        return PartCount("module", part_id, "", "", "", None, quantity, "mmf", 0, 0, 0, "")

    twin = module("mma4z00-ns-fin", 10)  # 2 ports x SR4: 8 lasers
    single = module("mma4z00-ns400", 10)  # 1 port x SR4: 4 lasers
    dr8 = module("mms4x00-nm-fin-800", 1)  # 1 port x DR8: 8 lasers
    phys = SimpleNamespace(of=lambda cat: [twin, single, dr8] if cat == "module" else [])
    fits = unit_fits(design, phys, fit_rates())["optics"]
    assert fits == [(10, 8 * 125 + 300), (10, 4 * 125 + 300), (1, 8 * 125 + 300)]


def test_active_cables_count_each_end_and_dacs_per_assembly():
    design = _pod()

    def cable(part_id, kind, quantity):
        return PartCount("cable", part_id, "", "", "", 1.0, quantity, kind, 0, 0, 0, "")

    items = [
        cable("aec-800g-osfp", "aec", 3),  # straight: 2 DSP ends
        cable("lacc-800g-single", "acc", 2),  # straight: 2 redriver ends
        cable("aoc-400g-qsfpdd", "aoc", 1),  # straight: 2 optical ends of 8 lasers
        cable("mcp7y00", "dac", 5),  # splitter DAC: one assembly
    ]
    phys = SimpleNamespace(of=lambda cat: items if cat == "cable" else [])
    fits = unit_fits(design, phys, fit_rates())
    parts = {p.id: p for p in design.catalog.cable_parts.values()}
    assert parts["aec-800g-osfp"].fanout == 1 and parts["mcp7y00"].fanout == 2
    assert fits["active_cables"] == [(3, 2 * 300), (2, 2 * 100), (1, 2 * (8 * 125 + 300))]
    assert fits["passive_cables"] == [(5, 10)]


def test_design_settings_override_a_rate_and_the_job():
    design = _pod()
    design.set_settings(
        Settings(
            reliability_fit={"switches": 1000.0, "gpus": 0.0},
            reliability_job_gpus=128,
            reliability_restart_h=2.0,
        )
    )
    rel = _report(design)["reliability"]
    sw = rel["categories"]["switches"]
    assert sw["fit"] == 1000 and sw["source"] == "design setting"
    assert rel["categories"]["gpus"]["failures_per_day"] == 0
    assert rel["job_gpus"] == 128
    assert rel["gpu_hours_at_risk_per_day"] == pytest.approx(
        rel["failures_per_day"] * 128 / 256 * 128 * 2.0
    )
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"reliability_fit": {"gpu": 5}}', type=Settings)


def test_the_text_report_says_all_causes():
    from model.analysis.analyzer import analyze as full

    design = _pod()
    plant = RoutedLinks(design)
    plant.refresh()
    text = full(design, plant).to_text()
    assert "Expected failures (all causes: GPU, HBM, host" in text


@pytest.mark.slow
def test_a_16k_h100_hall_lands_near_llama3_because_its_rates_come_from_it():
    # The L reference workload: 2,048 HGX H100 (16,384 GPUs, one 400G NIC each), 3 tiers of
    # SN5600: the units of the Llama 3 cluster (16,384 H100, 2,048 8-GPU servers, 400G NICs).
    design = rail_optimized(nodes=2048, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64)
    rel = _report(design)["reliability"]
    ref = reference()
    days, table = ref["days"], ref["table5"]
    observed = ref["interruptions"] / days
    assert observed == pytest.approx(7.76, abs=0.005)
    c = rel["categories"]
    assert c["gpus"]["count"] == ref["gpus"] and c["hosts"]["count"] == ref["servers"]
    # Each derived category reproduces its Table 5 rows per day (up to its FIT's rounding to a
    # whole FIT: 0.5 FIT per unit), so together the 384 of 419 interruptions that are not
    # network parts.
    data = json.loads(FIT_FILE.read_text(encoding="utf-8"))
    derived = 0.0
    for entry in data["categories"]:
        if "derived_from" in entry:
            name = entry["category"]
            rows = sum(table[r] for r in entry["derived_from"])
            per_day = c[name]["failures_per_day"]
            assert abs(per_day - rows / days) <= 24e-9 * c[name]["count"] * 0.5, name
            derived += per_day
    assert derived == pytest.approx((419 - 35) / days, rel=1e-3)
    # Network parts (switches, optics, cables) come from their own sources, not Table 5; the
    # paper's 35 switch/cable interruptions check them to within a factor 3.
    net_observed = table["Network Switch/Cable"] / days
    network = sum(c[name]["failures_per_day"] for name in NETWORK)
    assert net_observed / 3 <= network <= net_observed * 3
    # Hence the total lies within [derived + net / 3, derived + 3 net] of the observed 7.76 / day.
    assert derived + net_observed / 3 <= rel["failures_per_day"] <= derived + 3 * net_observed
    assert abs(rel["failures_per_day"] - observed) / observed < 0.2


@pytest.mark.parametrize(
    ("build", "nics_per_gpu"),
    [
        # Helios: 3 Vulcano 800G NICs per GPU (REG-HELIOS), each 800G port split 4 x 200G
        # into four Tomahawk-6 planes: 4 cabled links per NIC, one NIC.
        (lambda: helios(racks=2, planes=4, port_mode="512x200G"), 3),
        # GB300 multi-plane Spectrum-X: each ConnectX-8 800G port as 2 x 400G planes.
        (lambda: nvl72(racks=2, platform="gb300", planes=2), 1),
    ],
)
def test_multi_plane_nics_count_physical_nics_not_plane_links(build, nics_per_gpu):
    design = build()
    topo = infer_topology(design)
    hall = hall_counts(design, topo)
    compute_links = int((topo.kind == LINK_COMPUTE).sum())
    # The planes really are separate links (more than one per NIC), and each NIC counts once.
    assert compute_links > hall["gpus"] * nics_per_gpu
    assert hall["nics"] == hall["gpus"] * nics_per_gpu
    rel = forecast(design, topo, None, hall=hall)
    nic_day = rel["categories"]["nics"]["failures_per_day"]
    assert nic_day == pytest.approx(24e-9 * hall["gpus"] * nics_per_gpu * 330)


def test_physical_nics_counts_each_port_group_of_a_server_apart(monkeypatch):
    """A server cabling ports of two groups: each group's physical ports over its own ports per
    NIC (here 2 for ``nic``, 1 for ``stor``), a port cabled twice or unknown counted never."""
    from model.analysis import reliability
    from model.design.entities import PortRef
    from tests.builders import small_pod

    per_nic = {"nic": 2, "stor": 1}
    monkeypatch.setattr(reliability, "_ports_per_nic", lambda design, t, group: per_nic[group])
    ends = [PortRef("a1", p) for p in ("nic1", "nic2", "nic3", "stor1", "stor2", "stor2", "x9")]
    ends += [PortRef("a2", "nic5")]
    # a1: nic 3 ports -> 2 NICs, stor 2 ports -> 2 NICs; a2: nic 1 port -> 1 NIC
    assert reliability.physical_nics(small_pod(), ends) == 5


@pytest.mark.parametrize(
    "build",
    [
        lambda: helios(racks=2, planes=4, port_mode="512x200G"),
        lambda: nvl72(racks=2, platform="gb300", planes=2),
        lambda: rail_optimized(
            nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, fabrics="all"
        ),
    ],
)
def test_loaded_design_counts_nics_from_the_loader_codes_as_per_end(build, monkeypatch):
    """A design just loaded counts its NICs from the loader's end codes (coded_physical_nics),
    the same count as the per-end path of an edited design (physical_nics)."""
    from model.analysis import reliability
    from model.design.bulk_load import loaded_link_codes
    from model.files.design_file import design_to_bytes, read_design_bytes

    design = read_design_bytes(design_to_bytes(build()))
    assert loaded_link_codes(design) is not None  # the coded path is the one taken
    topo = infer_topology(design)
    coded = hall_counts(design, topo)
    monkeypatch.setattr(reliability, "loaded_link_codes", lambda design: None)
    assert coded == hall_counts(design, topo)
    assert coded["nics"] > 0


def test_coded_nics_count_each_port_group_apart(monkeypatch):
    """As test_physical_nics_counts_each_port_group_of_a_server_apart, from end codes."""
    from model.analysis import reliability
    from model.design.state import LoadedLinkCodes
    from tests.builders import small_pod

    per_nic = {"nic": 2, "stor": 1}
    monkeypatch.setattr(reliability, "_ports_per_nic", lambda design, t, group: per_nic[group])
    names = ["nic1", "nic2", "nic3", "stor1", "stor2", "x9", "nic5"]
    device = np.array([0, 0, 0, 0, 0, 0, 0, 1])
    port = np.array([0, 1, 2, 3, 4, 4, 5, 6])
    codes = LoadedLinkCodes(4, ["a1", "a2"], names, device, port, True)
    assert reliability.coded_physical_nics(small_pod(), codes, device, port) == 5
    assert reliability.coded_physical_nics(small_pod(), codes, device[:0], port[:0]) == 0
