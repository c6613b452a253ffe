"""The 2026-27 platforms in the catalog (domain-facts §9): a Tomahawk-6 box with its 1.6T and
2 x 800G modules, and the Vera Rubin NVL72 compute and NVLink 6 switch trays and rack; each
figure as its source gives it, and its cages taking only the parts their vendors list."""

from __future__ import annotations

from model.catalog.components import builtin_catalog
from model.engine.cages import PartTables, port_cages
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.plant.physical_plant import build_plant
from tests.builders import link
from tests.model.test_plant_rules import media, one_rack


def _module(type_id: str, port: str, medium: str, breakout: dict[str, int] | None = None):
    catalog = builtin_catalog()
    media_list = list(catalog.media_types.values())
    tables = PartTables.build(catalog, media_list)
    _, spec, _ = port_cages(catalog.device_types[type_id], breakout)[port]
    s = tables.spec_row(spec)
    m = [x.id for x in media_list].index(medium)
    return tables.module(m, s), tables.refused.get((m, s), "")


def test_tomahawk6_is_64_ports_of_1_6t_or_128_of_800g():
    th6 = builtin_catalog().device_types["tomahawk6-64x1600"]
    (ports,) = th6.ports_of_role("compute")
    assert ports.count * ports.speed_gbps == 102_400  # STH-TH6, GB-TH6
    assert ports.lane_rate_gbps == 200 and ports.breakout(2).speed_gbps == 800
    assert th6.family == "Tomahawk-6" and th6.u_height == 4  # NAND-ARISTA: 4RU, air


def test_tomahawk6_cages_take_vendor_neutral_1_6t_modules_never_nvidia_xdr_ones():
    part, _ = _module("tomahawk6-64x1600", "p1", "dr8-1600g")
    assert part.id == "osfp-1.6t-dr8-th6" and part.fibres_per_port == 2
    part, why = _module("tomahawk6-64x1600", "p1/1", "dr4-800g-xdr", {"p": 2})
    assert part.id == "osfp-1.6t-2xdr4-th6"
    assert "Tomahawk-6" in why and "Quantum-X800" in why  # NVIDIA's XDR IHS twin-port
    nvidia, _ = _module("q3400", "p1", "dr4-800g-xdr")
    assert nvidia.vendor == "NVIDIA" and nvidia.hosts == ("Quantum-X800",)


def test_two_tomahawk6_switches_100_m_apart_run_1_6t_dr8():
    design = one_rack("tomahawk6-64x1600", "tomahawk6-64x1600")
    link(design, "up", ("d1", "p1"), ("d2", "p1"), length_override_m=100.0)
    plant = RoutedLinks(design)
    assert media(plant) == {"up": "dr8-1600g"}
    phys = build_plant(plant)
    assert {i.part_number: i.quantity for i in phys.of("module")} == {"EST-OSFP-1.6T-DR8": 2}
    fibres = phys.of("fibre")
    # Dual MPO; a Tomahawk cage takes no NVIDIA part, so the MSA equivalent of MFP7E30.
    assert [(f.part_number, f.quantity) for f in fibres] == [("EST-MPO12APC-SM-100", 2)]
    assert phys.cages_invalid == 0 and not phys.findings


def test_vera_rubin_tray_carries_1_6t_per_gpu_and_3_6_tb_s_of_nvlink_6():
    catalog = builtin_catalog()
    tray = catalog.device_types["vr-nvl72-compute-tray"]
    switch = catalog.device_types["vr-nvlink6-switch-tray"]
    nic = tray.port_group("nic")
    assert nic.family == "ConnectX-9" and nic.lane_rate_gbps == 200
    assert nic.count * nic.speed_gbps / tray.gpu_count == 1600  # two 800G ConnectX-9 per GPU
    assert tray.port_group("conv").count * tray.port_group("conv").speed_gbps == 800  # 2 x 400G
    # 3.6 TB/s bidirectional = 14,400 Gb/s per direction per GPU, over 9 switch trays
    assert tray.gpus.scale_up_gbps_per_gpu == 14_400
    nvl = tray.port_group("nvl")
    assert nvl.count * nvl.speed_gbps == tray.gpu_count * 14_400
    assert 18 * nvl.count == 9 * switch.port_group("nvl").count  # 18 trays x 9 = 9 x 18
    rack = catalog.rack_types["rack-vr-nvl72"]
    assert 18 * tray.power_max_w + 9 * switch.power_max_w <= rack.power_budget_kw * 1000
    assert 190_000 <= 18 * tray.power_typical_w + 9 * switch.power_typical_w <= 230_000


def test_the_nvlink_6_spine_comes_with_the_rack():
    design = one_rack("vr-nvl72-compute-tray", "vr-nvlink6-switch-tray")
    link(design, "nv", ("d1", "nvl1"), ("d2", "nvl1"), length_override_m=1.0)
    plant = RoutedLinks(design)
    assert media(plant) == {"nv": "nvlink6-backplane"}
    phys = build_plant(plant)
    assert not phys.of("module") and not phys.of("cable") and not phys.findings


def test_tomahawk_ultra_box_takes_vendor_neutral_800g_optics():
    """Tomahawk Ultra (51.2T, 512 x 100G SerDes, STH-THULTRA): a 64 x 800G box whose cages
    take the vendor-neutral 800G OSFP modules of TH5 boxes, never NVIDIA's twin-port ones."""
    cat = builtin_catalog()
    thu = cat.device_types["tomahawk-ultra-64x800"]
    p = thu.port_group("p")
    assert (p.count, p.speed_gbps, p.lanes, thu.family) == (64, 800, 8, "Tomahawk-Ultra")
    assert "estimate" in thu.source
    design = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch=thu.id)
    plant = RoutedLinks(design)
    plant.refresh()
    phys = build_plant(plant)
    assert phys.cages_invalid == 0
    on_switch = [
        cat.module_parts[m.part_id] for m in phys.of("module") if m.part_id.endswith("th5")
    ]
    assert on_switch and all("Tomahawk-Ultra" in m.hosts for m in on_switch)
    assert all(m.vendor != "NVIDIA" for m in on_switch)
