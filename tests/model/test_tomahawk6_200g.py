"""Tomahawk 6 as 512 x 200G (STH-TH6: 64 x 1.6T or 512 x 200G SerDes): each 1.6T cage split
1:8 on a 1.6T DR8 module run as 8 x 200G DR1, and a two-tier fabric of it: AMD Helios with each
Vulcano 800G NIC as 4 x 200G, one port in each of 4 planes, switch counts at the Clos minimum."""

from __future__ import annotations

import math

import pytest

from model.analysis import analyze
from model.catalog.components import builtin_catalog
from model.engine.cages import PartTables, port_cages
from model.generators.generate import generate, preview
from model.generators.plans import port_modes
from tests.model.test_amd_platforms import NON_NVIDIA_FAMILIES, _cage_parts, _nvidia_numbers

RADIX_200G = 512  # STH-TH6: 512 x 200G SerDes, one lane a port
PLANES = 4  # a Vulcano 800G NIC is 4 lanes of 200G (REG-HELIOS NICs; lane split an estimate)


def test_tomahawk6_runs_512_ports_of_200g_on_a_dr8_module_as_8_dr1():
    cat = builtin_catalog()
    th6 = cat.device_types["tomahawk6-64x1600"]
    assert port_modes(th6)["512x200G"] == 200
    media = list(cat.media_types.values())
    tables = PartTables.build(cat, media)
    m = [x.id for x in media].index("dr1-200g")
    _, spec, _ = port_cages(th6, {"p": 8})["p1/1"]
    part = tables.module(m, tables.spec_row(spec))
    # The same module (part number) as the 1.6T DR8, its 8 lanes 8 ports; vendor-neutral.
    assert part.part_number == cat.module_parts["osfp-1.6t-dr8-th6"].part_number
    assert part.ports == 8 and part.vendor != "NVIDIA" and part.hosts == ("Tomahawk-6",)
    assert cat.media_types["dr1-200g"].power_per_end_w * 8 <= part.power_w_max


@pytest.mark.parametrize("racks, leaves, spines", [(1, 1, 0), (4, 4, 2), (14, 12, 6)])
def test_helios_on_four_planes_of_512x200g_at_the_clos_minimum(racks, leaves, spines):
    """Per plane, by hand: 1 rack's 216 NIC ports fit one 512-port switch (one tier, no spine);
    4 racks' 864 need ceil(864 / 256) = 4 leaves at 1:1, 3 rails a leaf (85 trays of 3 ports),
    on ceil(864 / 512) = 2 spines; 14 racks' 3,024 are a leaf a rail (252 trays <= 256), 12
    leaves on ceil(3,024 / 512) = 6 spines. Rails share a leaf: no AMD table fixes one a leaf."""
    counts = preview("helios", racks=racks, planes=PLANES, port_mode="512x200G")
    trays = 18 * racks  # AA-HELIOS
    rails = 12  # 12 Vulcano NICs a tray (REG-HELIOS: 300 GB/s per GPU)
    assert leaves == math.ceil(rails * trays / (RADIX_200G // 2)) or racks == 1
    assert spines == (math.ceil(rails * trays / RADIX_200G) if racks > 1 else 0)
    assert counts["switches"] == {
        "nvlink-switch": 6 * racks,
        "leaf": PLANES * leaves,
        "spine": PLANES * spines,
    }
    assert counts["links"]["node-leaf"] == PLANES * rails * trays
    assert counts["planes"] == PLANES and counts["tiers"] == (1 if racks == 1 else 2)


def test_512x200g_keeps_two_tiers_where_128x800g_needs_three():
    """4,032 GPUs (56 racks): at 128 x 800G a rail of 1,008 trays overflows two tiers; the
    512-port mode holds every plane in two, with fewer switches in all."""
    wide = preview("helios", racks=56, planes=PLANES, port_mode="512x200G")
    narrow = preview("helios", racks=56)
    assert (wide["tiers"], narrow["tiers"]) == (2, 3)
    assert sum(wide["switches"].values()) < sum(narrow["switches"].values())
    per_plane_leaves = 12 * math.ceil(56 * 18 / 256)  # 4 SUs of 14 racks (252 trays)
    assert wide["switches"]["leaf"] == PLANES * per_plane_leaves
    uplinks = wide["links"]["leaf-spine"] // PLANES
    assert wide["switches"]["spine"] == PLANES * math.ceil(uplinks / RADIX_200G)


def test_four_plane_helios_plugs_vendor_neutral_parts_and_analyses():
    design = generate("helios", racks=1, planes=PLANES, port_mode="512x200G")
    phys, ends = _cage_parts(design)
    nvidia_modules, nvidia_cables = _nvidia_numbers()
    ours = [e for e in ends if e[0] in NON_NVIDIA_FAMILIES and e[2] != "rack backplane"]
    assert {e[0] for e in ours} == {"Vulcano", "Tomahawk-6"}
    assert all(module and module not in nvidia_modules for _, module, _ in ours)
    # Every scale-out link on two modules and a third-party fibre pair, no NVIDIA cable.
    assert all(part.startswith("EST-SM-MPO12APC-DR1-PAIR-") for _, _, part in ours)
    assert not any(part.startswith(tuple(nvidia_cables)) for _, _, part in ours)
    assert phys.cages_invalid == 0 and not phys.findings
    # A Vulcano cage (its 4 planes) holds one module: 12 a tray. A plane is one switch (216
    # ports of 512): its 8-port cages, 27 of them, each hold one module.
    modules = {m.part_number: m.quantity for m in phys.of("module")}
    assert modules["EST-OSFP-800G-DR4-MSA"] == 18 * 12
    assert modules["EST-OSFP-1.6T-DR8"] == PLANES * math.ceil(18 * 12 / 8)
    report = analyze(design).to_json()
    assert report["bandwidth_per_gpu_gbps"]["scale_out"] == 2_400  # 3 x 800G, 4 x 200G each
    assert report["bisection_gbps"] == 72 * 2_400 / 2
    assert report["allreduce"]["time_s"] > 0 and not report["allreduce"]["unreachable"]
    assert not [w for w in report["warnings"] if w["severity"] == "error"]


def test_a_dr8_module_run_as_8_x_dr1_has_the_lasers_of_a_dr8():
    """The reliability forecast counts lasers as lasers per port x the part's ports: 8 ports of
    one lane each are the 8 lasers of the DR8 module, not 8 x the default 4."""
    from model.analysis.reliability import lasers_per_port

    by_medium, _ = lasers_per_port()
    part = builtin_catalog().module_parts["osfp-1.6t-8xdr1-th6"]
    assert by_medium["dr1-200g"] * part.ports == by_medium["dr8-1600g"] == 8
