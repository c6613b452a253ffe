"""AMD MI355X and Helios (domain-facts §9): their counts as the sources give them, their fabrics
at the Clos minimum (checked here by hand from the formula), only vendor-neutral parts in the
AMD and Broadcom cages, and the analysis (bandwidth, bisection, collectives) on them."""

from __future__ import annotations

import math

import pytest

from model.analysis import analyze
from model.catalog.components import builtin_catalog
from model.engine.cages import PartTables, port_cages
from model.engine.routed_links import RoutedLinks
from model.generators.generate import GenerateError, generate, preview
from model.plant.physical_plant import build_plant

# Cages whose vendors are AMD or Broadcom: NVIDIA lists none of its LinkX parts for them.
NON_NVIDIA_FAMILIES = {"Pollara", "Vulcano", "Tomahawk-5", "Tomahawk-6", "Tomahawk-Ultra"}
TH5_RADIX_400G = 128  # Tomahawk 5: 64 x 800G cages, each 2 x 400G
TH6_RADIX_800G = 128  # Tomahawk 6: 64 x 1.6T cages, each 2 x 800G (STH-TH6)


def test_mi355x_node_and_racks_as_the_sources_give_them():
    cat = builtin_catalog()
    for node_id, per_rack, gpus_per_rack in (
        ("mi355x-dlc-orv3", 16, 128),  # INFOSUNRISE-MI355X: the 128-GPU DLC ORv3 rack
        ("mi355x-dlc-4u", 12, 96),  # INFOSUNRISE-MI355X: the 96-GPU EIA rack
    ):
        node = cat.device_types[node_id]
        assert node.gpu_count == 8 and node.gpus.power_w_per_gpu == 1400  # REG-MI355X
        nic = node.port_group("nic")  # AMD-POLLARA: a Pollara 400 per GPU
        assert (nic.count, nic.speed_gbps, nic.nic) == (node.gpu_count, 400, "pollara-400")
        assert node.servers_per_rack * node.gpu_count == gpus_per_rack
        rack = cat.rack_types[node.rack_type]
        assert per_rack * node.u_height <= rack.height_u
        assert per_rack * node.power_max_w <= rack.power_budget_kw * 1000
    pollara = cat.nic_types["pollara-400"]
    assert pollara.vendor == "AMD" and pollara.speeds("ethernet")[0] == 400
    assert pollara.speeds("infiniband") == []  # an Ultra Ethernet NIC (UEC-1.0)


def test_helios_rack_adds_up_to_its_sources():
    cat = builtin_catalog()
    tray = cat.device_types["helios-compute-tray"]
    switch = cat.device_types["helios-ualoe-switch-tray"]
    rack = cat.rack_types["rack-helios"]
    assert 18 * tray.gpu_count == 72  # AA-HELIOS: 18 trays x 4 GPUs
    # REG-HELIOS: 300 GB/s scale-out per GPU on 800G Vulcano NICs = 3 NICs per GPU.
    nic = tray.port_group("nic")
    assert nic.count * nic.speed_gbps / tray.gpu_count == 300 * 8 and nic.speed_gbps == 800
    # REG-HELIOS: UALink 3.6 TB/s per GPU (bidirectional) = 14,400 Gb/s per direction, on the
    # 6 switch trays' 18 links each.
    assert tray.gpus.scale_up_gbps_per_gpu == 3600 * 8 / 2
    ual = tray.port_group("ual")
    assert ual.count * ual.speed_gbps == tray.gpu_count * 14_400
    assert 18 * ual.count == 6 * switch.port_group("ual").count
    # Two 102.4T ASICs of 512 x 200G SerDes (STH-TH6) hold each switch tray's lanes.
    lanes = switch.port_group("ual").count * switch.port_group("ual").lanes
    assert lanes <= 2 * 512 and 72 * 72 > 5 * 2 * 512  # 5 trays would be too few
    # REG-HELIOS: double-wide, ~7,000 lb loaded.
    loaded_kg = rack.empty_weight_kg + 18 * tray.weight_kg + 6 * switch.weight_kg
    assert loaded_kg == pytest.approx(7000 * 0.45359237, abs=1)
    assert rack.width_m == 1.2
    assert 18 * tray.power_max_w + 6 * switch.power_max_w <= rack.power_budget_kw * 1000


@pytest.mark.parametrize("nodes, su_nodes", [(64, 32), (128, 64), (256, 64)])
def test_mi355x_rail_optimized_on_tomahawk5_at_the_clos_minimum(nodes, su_nodes):
    counts = preview(
        "rail-optimized",
        nodes=nodes,
        node_type="mi355x-dlc-orv3",
        switch="tomahawk5-64x800",
        su_nodes=su_nodes,
    )
    rails = 8  # one Pollara 400 per GPU, one rail per NIC (AMD-POLLARA)
    ports = nodes * rails
    # Rails share a leaf (no AMD table fixes one rail a leaf): every leaf's 64 downlinks full,
    # 64 x 32 nodes at 32 nodes an SU is 8 leaves of 2 rails, not 16 leaves half empty.
    leaves = math.ceil(ports / (TH5_RADIX_400G // 2))
    spines = math.ceil(ports / TH5_RADIX_400G)  # 1:1, every uplink on a spine port
    assert counts["switches"] == {"leaf": leaves, "spine": spines}
    assert counts["links"] == {"node-leaf": ports, "leaf-spine": ports}


@pytest.mark.parametrize("nodes, su_nodes", [(64, 32), (256, 128), (512, 128)])
def test_mi355x_rail_optimized_on_tomahawk6_100g_serdes_at_the_clos_minimum(nodes, su_nodes):
    """Tomahawk 6 with 1,024 x 100G SerDes (STH-TH6): 256 x 400G on the Pollara NICs' 100G
    lanes, so a rail leaf takes up to 128 nodes and a spine 256 leaf uplinks."""
    counts = preview(
        "rail-optimized",
        nodes=nodes,
        node_type="mi355x-dlc-orv3",
        switch="tomahawk6-128x800-100g",
        su_nodes=su_nodes,
    )
    ports = 8 * nodes
    leaves = math.ceil(ports / 128)  # 64 x 32-node SUs: 4 leaves of 4 rails, not 16 rail leaves
    spines = max(2, math.ceil(ports / 256))
    assert counts["switches"] == {"leaf": leaves, "spine": spines}


@pytest.mark.parametrize("racks, leaves, spines", [(1, 4, 2), (2, 8, 4), (3, 11, 6)])
def test_helios_one_su_fabric_at_the_clos_minimum(racks, leaves, spines):
    """Rails share a leaf (no AMD table fixes one rail a leaf): r rails a leaf (r divides the
    12 Vulcano rails) take 64 // r trays each. By hand, 1 rack: r = 6 is 2 groups x ceil(18 /
    10) = 4 leaves (one rail a leaf built 12, 18 of 64 ports used); 2 racks: r = 12, ceil(36 /
    5) = 8; 3 racks: r = 12, ceil(54 / 5) = 11. Spines: the leaves' used uplinks (1:1) over
    128 ports, 216 / 432 / 648 NIC ports -> 2 / 4 / 6."""
    counts = preview("helios", racks=racks)
    trays = 18 * racks
    ports = 12 * trays
    by_groups = min(12 // r * math.ceil(trays / (64 // r)) for r in (1, 2, 3, 4, 6, 12))
    assert leaves == by_groups >= math.ceil(ports / 64)
    assert spines == math.ceil(ports / TH6_RADIX_800G)
    assert counts["switches"] == {"nvlink-switch": 6 * racks, "leaf": leaves, "spine": spines}
    assert counts["links"]["scale-up"] == 18 * 6 * racks
    assert counts["links"]["node-leaf"] == ports
    assert ports <= counts["links"]["leaf-spine"] <= spines * TH6_RADIX_800G
    assert counts["gpus"] == 72 * racks


@pytest.mark.parametrize("racks", [4, 12])
def test_helios_larger_fabrics_need_no_more_switches_than_the_ports_ask(racks):
    counts = preview("helios", racks=racks)
    nic_ports = 12 * 18 * racks
    leaves, spines = counts["switches"]["leaf"], counts["switches"]["spine"]
    uplinks = counts["links"]["leaf-spine"]
    assert leaves >= math.ceil(nic_ports / (TH6_RADIX_800G // 2))
    assert spines == math.ceil(uplinks / TH6_RADIX_800G)
    assert uplinks >= nic_ports  # non-blocking
    # Fewer switches than SUs of 3 racks (the biggest SU a rail leaf holds) would build.
    fixed = preview("helios", racks=racks, su_racks=3)["switches"]
    assert leaves + spines <= fixed["leaf"] + fixed["spine"]


def test_helios_preview_power_is_its_trays_and_switches():
    cat = builtin_catalog()
    counts = preview("helios", racks=2)
    trays = 36 * cat.device_types["helios-compute-tray"].power_typical_w
    scale_up = 12 * cat.device_types["helios-ualoe-switch-tray"].power_typical_w
    fabric = (8 + 4) * cat.device_types["tomahawk6-64x1600"].power_typical_w  # rails shared
    assert counts["device_power_w"] == trays + scale_up + fabric == 438_000


def test_helios_refuses_a_switch_that_cannot_run_800g_ports():
    with pytest.raises(GenerateError, match="800G"):
        preview("helios", racks=1, switch="qm9700")


def _cage_parts(design):
    """(family of the cage, module part number, cable or fibre part number) of every link end
    ("rack backplane" for the in-rack UALink spine, which takes no part)."""
    plant = RoutedLinks(design)
    plant.refresh()
    phys = build_plant(plant, with_links=True)
    out = []
    for link in design.links.values():
        _, _, _, a_module, b_module, cable = phys.link_parts[link.id]
        for end, module in ((link.a, a_module), (link.b, b_module)):
            device = design.devices[end.device]
            dtype = design.device_type(device)
            _, spec, _ = port_cages(dtype, device.breakout)[end.port]
            out.append((spec.family, module, cable))
    return phys, out


def _nvidia_numbers():
    cat = builtin_catalog()
    modules = {p.part_number for p in cat.module_parts.values() if p.vendor == "NVIDIA"}
    cables = {
        p.part_number.split("{len}")[0] for p in cat.cable_parts.values() if p.vendor == "NVIDIA"
    }
    return modules, cables


@pytest.mark.parametrize(
    "template, params",
    [
        ("helios", {"racks": 2}),
        (
            "rail-optimized",
            {"nodes": 32, "node_type": "mi355x-dlc-orv3", "switch": "tomahawk5-64x800"},
        ),
        (
            "rail-optimized",
            {"nodes": 32, "node_type": "mi355x-dlc-orv3", "switch": "tomahawk6-128x800-100g"},
        ),
    ],
)
def test_only_vendor_neutral_parts_in_amd_and_broadcom_cages(template, params):
    if template == "rail-optimized":
        params = {**params, "su_nodes": 16}
    phys, ends = _cage_parts(generate(template, **params))
    nvidia_modules, nvidia_cables = _nvidia_numbers()
    amd_broadcom = [e for e in ends if e[0] in NON_NVIDIA_FAMILIES]
    families = {e[0] for e in amd_broadcom}
    switch = params.get("switch", "tomahawk6-64x1600")
    nic = "Vulcano" if template == "helios" else "Pollara"
    assert families == {nic, builtin_catalog().device_types[switch].family}
    for family, module, cable in amd_broadcom:
        assert module or cable, family
        assert module not in nvidia_modules, (family, module)
        assert not any(cable.startswith(c) for c in nvidia_cables if cable), (family, cable)
    assert phys.cages_invalid == 0 and not phys.findings


def test_nvidia_nic_modules_are_refused_in_amd_nic_cages():
    cat = builtin_catalog()
    media = list(cat.media_types.values())
    tables = PartTables.build(cat, media)
    row = {m.id: i for i, m in enumerate(media)}
    for type_id, medium, nvidia in (
        ("mi355x-dlc-orv3", "dr4-400g", "980-9I068-00NM00"),  # MMS1X00-NS400 (CX-7, BF-3)
        ("helios-compute-tray", "dr4-800g-xdr", "980-9IAT0-00XM00"),  # ConnectX-8 (MMS4A20)
    ):
        _, spec, _ = port_cages(cat.device_types[type_id])["nic1"]
        s = tables.spec_row(spec)
        part = tables.module(row[medium], s)
        assert part is not None and part.vendor != "NVIDIA" and not part.hosts
        assert part.part_number.startswith("EST-")  # no vendor number published: to quote
        assert nvidia in tables.refused[(row[medium], s)]
        assert spec.family in tables.refused[(row[medium], s)]


def test_analysis_of_a_helios_hall():
    report = analyze(generate("helios", racks=2)).to_json()
    per_gpu = report["bandwidth_per_gpu_gbps"]
    assert per_gpu["scale_up"] == 14_400 and per_gpu["scale_out"] == 2_400
    # 6 rails a leaf, 9 trays: 54 ports down, 56 up (14 to each of the 4 spines, evenly).
    assert report["oversubscription"] == {"leaf": round(54 / 56, 10)}
    # Non-blocking: half the GPUs' scale-out bandwidth crosses the cut (144 x 2,400 / 2).
    assert report["bisection_gbps"] == 144 * 2_400 / 2
    allreduce = report["allreduce"]
    assert allreduce["gpus"] == 144 and allreduce["nodes"] == 2  # two 72-GPU UALink domains
    assert 0 < allreduce["time_s"] < 0.1 and not allreduce["unreachable"]
    assert not [w for w in report["warnings"] if w["severity"] == "error"]


def test_analysis_of_an_mi355x_cluster():
    design = generate(
        "rail-optimized",
        nodes=32,
        node_type="mi355x-dlc-orv3",
        switch="tomahawk5-64x800",
        su_nodes=16,
    )
    report = analyze(design).to_json()
    assert report["gpus"] == 256
    assert report["bandwidth_per_gpu_gbps"]["scale_out"] == 400  # one Pollara 400 per GPU
    assert report["bisection_gbps"] == 256 * 400 / 2
    assert report["allreduce"]["nodes"] == 32 and report["allreduce"]["time_s"] > 0
    assert not [w for w in report["warnings"] if w["severity"] == "error"]


def _non_nvidia_cage_specs(cat):
    """Every cage spec of an AMD or Broadcom port group, as built and broken out."""
    specs = set()
    for dtype in cat.device_types.values():
        for group in dtype.port_groups:
            if (group.family or dtype.family) not in NON_NVIDIA_FAMILIES:
                continue
            for fanout in [1, *(b.fanout for b in group.breakouts)]:
                cages = port_cages(dtype, {group.name: fanout} if fanout > 1 else None)
                specs.update(s for _, s, label in cages.values() if label.startswith(group.name))
    return sorted(specs)


def test_no_nvidia_part_fits_any_amd_or_broadcom_cage_of_the_catalog():
    """Across the catalog, not only on the generated designs: NVIDIA's LinkX modules and
    cables list NVIDIA's own families, so a vendor-neutral part (or none) is what such a cage
    takes, whatever the medium and the far cage."""
    cat = builtin_catalog()
    media = list(cat.media_types.values())
    tables = PartTables.build(cat, media)
    rows = [tables.spec_row(s) for s in _non_nvidia_cage_specs(cat)]
    assert len(rows) >= 10
    chosen = []
    for m in range(len(media)):
        for a in rows:
            chosen.append(tables.module(m, a))
            chosen += [tables.cable(m, a, b, n) for b in rows for n in (1, 2)]
    chosen = [p for p in chosen if p is not None]
    assert chosen and not [p.id for p in chosen if p.vendor == "NVIDIA"]
    # Copper stays possible: vendor-neutral DACs and ACCs (a Tomahawk OSFP cage to a Pollara one).
    assert {p.id for p in chosen} >= {"dac-400g-osfp-qsfp112-msa", "acc-800g-osfp-msa"}
