"""The bundled component catalog (resources/catalog/*.json): ids, sources, units, consistency."""

from __future__ import annotations

import math
import re

import msgspec
import pytest

from model.catalog.components import (
    CATALOG_DIR,
    COPPER_KINDS,
    OPTICAL_KINDS,
    Catalog,
    CatalogError,
    CatalogFile,
    DeviceType,
    MediaType,
    builtin_catalog,
    catalog_files,
    load_catalog_file,
)

REQUIRED_DEVICES = {
    "dgx-h100",
    "dgx-b200",
    "dgx-b300",
    "hgx-h100-8x400",
    "gb200-compute-tray",
    "gb200-nvlink-switch-tray",
    "qm9700",
    "q3400",
    "sn5600",
    "sn5400",
    "tomahawk5-64x800",
    "mgmt-switch-48x1g",
    "patch-panel-48lc",
}
REQUIRED_RACKS = {"rack-42u-600x1200", "rack-48u-600x1200", "rack-52u-800x1200", "rack-nvl72"}
REQUIRED_MEDIA = {
    # 400G @ 100G/lane
    "dac-400g",
    "lacc-400g",
    "aec-400g",
    "sr4-400g",
    "dr4-400g",
    "fr4-400g",
    # 800G @ 100G/lane
    "dac-800g",
    "lacc-800g",
    "aec-800g",
    "sr8-800g",
    "dr8-800g",
    "fr8-800g",
    # 800G @ 200G/lane (XDR) and 1.6T
    "lacc-800g-xdr",
    "aec-800g-xdr",
    "dr4-800g-xdr",
    "dr2-400g-xdr",
    "fr4-800g-xdr",
    "lacc-1600g",
    "dr8-1600g",
    "fr8-1600g",
    # 200G @ 50G/lane, 200G @ 100G/lane, 400G @ 50G/lane, 100G @ 25G/lane
    "dac-200g",
    "aoc-200g",
    "sr4-200g",
    "fr4-200g",
    "dac-200g-100gl",
    "dr-200g-100gl",
    "dac-400g-50gl",
    "aoc-400g-50gl",
    "sr8-400g",
    "dac-100g",
    "sr4-100g",
    "cwdm4-100g",
    "utp-1g",
    "nvlink-backplane",
}

NVL72_GPUS = 72
NVLINK5_GBPS_PER_GPU = 7200  # 1.8 TB/s bidirectional = 900 GB/s = 7,200 Gb/s per direction
NVL72_SWITCH_TRAYS = 9
NVL72_COMPUTE_TRAYS = 18


@pytest.fixture(scope="module")
def cat():
    return builtin_catalog()


def _all_entries(cat):
    return [*cat.device_types.values(), *cat.rack_types.values(), *cat.media_types.values()]


def _matching_media(cat, speed: float, lane_rate: float, form_factor: str) -> list[MediaType]:
    return [
        m
        for m in cat.media_types.values()
        if speed in m.speeds_gbps
        and any(math.isclose(lane_rate, r) for r in m.lane_rates_gbps)
        and form_factor in m.form_factors
    ]


# ---------------------------------------------------------------- files and ids


def test_each_file_holds_only_its_own_kind():
    expected = {
        "devices.json": "device_types",
        "racks.json": "rack_types",
        "media.json": "media_types",
        "parts.json": "module_parts",
        "nics.json": "nic_types",
    }
    assert {p.name for p in catalog_files()} == set(expected)  # sources.json is not one
    for name, field in expected.items():
        part = load_catalog_file(CATALOG_DIR / name)
        for other in ("device_types", "rack_types", "media_types"):
            assert bool(getattr(part, other)) == (other == field), (name, other)


def test_catalog_round_trips_through_msgspec():
    for path in catalog_files():
        part = load_catalog_file(path)
        again = msgspec.json.decode(msgspec.json.encode(part), type=CatalogFile)
        assert again == part


def test_required_ids_exist(cat):
    assert REQUIRED_DEVICES <= set(cat.device_types)
    assert REQUIRED_RACKS <= set(cat.rack_types)
    assert REQUIRED_MEDIA <= set(cat.media_types)


def test_ids_are_lowercase_slugs(cat):
    for entry in _all_entries(cat):
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9.]+)*", entry.id), entry.id


# ---------------------------------------------------------------- media units and rules


def test_media_units_are_sane(cat):
    for m in cat.media_types.values():
        assert 0.5 <= m.reach_m <= 10_000, m.id
        assert 0 <= m.power_per_end_w <= 40, m.id
        assert m.speeds_gbps and m.lane_rates_gbps and m.form_factors, m.id
        lengths = m.orderable_lengths_m
        # Exactly one way to order a length: a list of lengths or cut to a step.
        assert bool(lengths) != (m.length_step_m > 0) or m.kind == "backplane", m.id
        if lengths:
            assert list(lengths) == sorted(set(lengths)), f"{m.id}: lengths not ascending"
            assert lengths[-1] <= m.reach_m + 1e-9, f"{m.id}: orderable length beyond reach"
            assert m.min_length_m <= lengths[0], m.id
        assert m.min_length_m < m.reach_m, m.id
        # Every speed is a whole number of lanes (1, 2, 4 or 8) at every listed lane rate.
        for speed in m.speeds_gbps:
            for rate in m.lane_rates_gbps:
                lanes = speed / rate
                # An in-rack scale-up spine carries many lanes per link (Helios UALink: 48 x 200G).
                wide = m.kind == "backplane" and lanes.is_integer()
                assert lanes in (1, 2, 4, 8) or wide, (m.id, speed, rate)


def test_media_modules_and_prices_follow_kind(cat):
    for m in cat.media_types.values():
        if m.kind in ("dac", "utp", "backplane"):
            assert m.modules_per_link == 0, m.id
            assert m.price_per_end_usd == 0, m.id
        else:
            assert m.modules_per_link == 2, m.id
        if m.kind in ("acc", "aec", "aoc"):
            # Integrated ends: the whole cable is one price.
            assert m.price_per_end_usd == 0 and m.cable_price_usd > 0, m.id
        if m.kind in ("mmf", "smf"):
            assert m.price_per_end_usd > 0, f"{m.id}: optics need a module price"
            assert m.netbox_type in ("mmf-om4", "smf-os2"), m.id
        assert (m.kind in COPPER_KINDS) != (m.kind in OPTICAL_KINDS), m.id


def test_cable_weights_follow_nvidia_table(cat):
    for m in cat.media_types.values():
        if m.kind in ("dac", "acc", "aec"):
            assert (m.cable_diameter_mm, m.weight_kg_per_m) == (9.43, 0.045), m.id
        elif m.kind in OPTICAL_KINDS:
            assert (m.cable_diameter_mm, m.weight_kg_per_m) == (3.0, 0.009), m.id


def test_no_passive_copper_or_multimode_at_200g_lanes(cat):
    for m in cat.media_types.values():
        if m.kind == "dac":
            assert max(m.lane_rates_gbps) < 200, f"{m.id}: no passive DAC at 200G/lane"
        if m.kind in ("mmf", "aoc"):
            assert max(m.lane_rates_gbps) < 200, f"{m.id}: NVIDIA XDR list has no MMF/AOC"


def test_passive_dac_reach_by_lane_rate(cat):
    limit = {25: 5.0, 50: 3.0, 100: 2.0}
    for m in cat.media_by_kind["dac"]:
        # 26AWG splitter legs reach 3 m at 100G/lane where straight DACs reach 2 m (§1b, §7a).
        cap = 3.0 if m.id == "dac-400g-splitter" else min(limit[r] for r in m.lane_rates_gbps)
        assert m.reach_m <= cap, m.id


def test_nvidia_reach_figures(cat):
    reach = {m.id: m.reach_m for m in cat.media_types.values()}
    assert reach["dac-800g"] == 2.0
    assert reach["lacc-800g"] == 5.0
    assert reach["sr4-400g"] == reach["sr8-800g"] == 50.0
    assert reach["dr4-400g"] == reach["dr8-800g"] == 500.0
    assert reach["fr8-800g"] == 2000.0
    assert cat.media_type("dac-800g").orderable_lengths_m == (0.5, 1, 1.5, 2)
    assert cat.media_type("lacc-800g").orderable_lengths_m == (3, 4, 5)


def test_ordered_length_rounds_up(cat):
    dac = cat.media_type("dac-800g")
    assert dac.ordered_length(1.2) == 1.5
    assert dac.ordered_length(2.5) is None
    utp = cat.media_type("utp-1g")
    assert utp.ordered_length(3.2) == 5.0  # the next stock patch cord, not a 0.5 m step
    assert utp.ordered_length(101) is None
    cord = cat.cable_parts["cat6a"]
    assert utp.orderable_lengths_m == cord.lengths_m  # the link is ordered as a cord sold
    assert cat.media_type("dr8-800g").ordered_length(40) == 50


# ---------------------------------------------------------------- devices


def test_device_units_are_sane(cat):
    for d in cat.device_types.values():
        assert 1 <= d.u_height <= 12, d.id
        assert 0.2 <= d.depth_m <= 1.2, d.id
        # A Kyber canister (18 blades of a ~600 kW rack, TOMS-KYBER) is one device: its blades
        # stand vertically, without rack units; every other device is a box under 20 kW.
        limit_w = 150_000 if d.id == "kyber-nvl576-canister" else 20_000
        assert 0 <= d.power_typical_w <= d.power_max_w <= limit_w, d.id
        names = [g.name for g in d.port_groups]
        assert len(names) == len(set(names)), d.id
        for g in d.port_groups:
            assert re.fullmatch(r"[a-z]+", g.name), (d.id, g.name)
            # A rack backplane's "lane" is a share of its links, not a SerDes (NVLink 6: 800)
            lane_ok = g.form_factor.endswith("backplane") or g.speed_gbps / g.lanes in (
                (1, 25, 50, 100, 200, 400)
            )
            assert lane_ok, (d.id, g.name)
            assert g.count % g.ports_per_cage == 0, (d.id, g.name)
            for b in g.breakouts:
                assert b.fanout * b.speed_gbps == g.speed_gbps, (d.id, g.name, b)
                # A split shares the port's lanes, or (a ConnectX-8's 800G port as 2 x 400G
                # for Spectrum-X planes) runs its OSFP's 8 electrical lanes at half the rate.
                assert b.fanout * b.lanes == g.lanes or (
                    b.fanout * b.lanes == 2 * g.lanes
                    and b.speed_gbps / b.lanes == g.lane_rate_gbps / 2
                ), (d.id, g.name, b)


def test_switch_capacity_is_plausible(cat):
    for d in cat.device_types.values():
        if d.category in ("switch", "nvlink-switch"):
            total = sum(g.count * g.speed_gbps for g in d.port_groups)
            # Spectrum-X Photonics SN6800: 512 x 800G = 409.6 Tb/s (domain-facts §9, TPU-CPO),
            # a multi-ASIC co-packaged system of 2026; every other box is one ASIC's worth.
            # A Kyber NVLink switch blade joins 4 canisters of 36 packages (TOMS-KYBER): its
            # scale-up links carry 4 x 129,600 Gb/s (an estimate, see its notes).
            # The Helios scale-up tray: two 102.4T ASICs (6 trays for 72 GPUs x 72 UALink lanes).
            limits = {
                "sn6800": 410_000,
                "kyber-nvlink-switch-blade": 520_000,
                "helios-ualoe-switch-tray": 205_000,
            }
            limit = limits.get(d.id, 120_000)
            assert total <= limit, f"{d.id}: {total} Gb/s exceeds any 2025 switch"


def test_named_switches(cat):
    qm = cat.device_type("qm9700").port_group("p")
    assert (qm.role, qm.count, qm.speed_gbps, qm.lanes, qm.ports_per_cage) == (
        "compute",
        64,
        400,
        4,
        2,
    )
    assert qm.breakout(2).speed_gbps == 200

    q3400 = cat.device_type("q3400").port_group("p")
    assert (q3400.count, q3400.speed_gbps, q3400.lane_rate_gbps) == (144, 800, 200)
    assert q3400.count // q3400.ports_per_cage == 72  # 72 OSFP cages

    sn = cat.device_type("sn5600").port_group("p")
    assert (sn.count, sn.speed_gbps, sn.lane_rate_gbps) == (64, 800, 100)
    assert sn.breakout(2).speed_gbps == 400
    assert sn.breakout(4).speed_gbps == 200

    sn54 = cat.device_type("sn5400").port_group("p")
    assert (sn54.count, sn54.speed_gbps, sn54.lane_rate_gbps) == (64, 400, 50)

    # Per-direction capacity: NVIDIA quotes Quantum-2's 51.2 Tb/s counting both directions.
    per_direction = {
        "qm9700": 25_600,
        "sn5600": 51_200,
        "tomahawk5-64x800": 51_200,
        "q3400": 115_200,
    }
    for switch_id, gbps in per_direction.items():
        d = cat.device_type(switch_id)
        assert sum(g.count * g.speed_gbps for g in d.ports_of_role("compute")) == gbps


def test_gpu_servers(cat):
    h100 = cat.device_type("dgx-h100")
    assert h100.gpu_count == 8 and h100.gpus.scale_up_gbps_per_gpu == 3600
    assert h100.power_max_w == 10_200 and h100.u_height == 8
    nic = h100.port_group("nic")
    assert (nic.count, nic.speed_gbps, nic.form_factor, nic.ports_per_cage) == (8, 400, "OSFP", 2)
    for server_id in ("dgx-b200", "dgx-b300", "gb200-compute-tray"):
        assert cat.device_type(server_id).gpus.scale_up_gbps_per_gpu == NVLINK5_GBPS_PER_GPU
    assert cat.device_type("dgx-b300").port_group("nic").lane_rate_gbps == 200
    for d in cat.device_types.values():
        if d.default_role == "gpu-server":
            assert d.gpus is not None, d.id
            assert d.ports_of_role("compute"), d.id
            # One scale-out NIC port per GPU or fewer; Vera Rubin two: a pair of 800G
            # ConnectX-9 per GPU, 1.6 Tb/s (WHEELER-CX9, domain-facts §9).
            # Rubin Ultra (Kyber) taken as Vera Rubin's pair, an estimate.
            # AMD Helios three: 300 GB/s per GPU on 800G Vulcano NICs (REG-HELIOS).
            pairs = d.id.startswith(("vr-", "kyber-"))
            per_gpu = 2 if pairs else 3 if d.id.startswith("helios-") else 1
            assert sum(g.count for g in d.ports_of_role("compute")) <= per_gpu * d.gpu_count, d.id
            assert d.gpus.power_w_per_gpu * d.gpu_count <= d.power_max_w, d.id


def test_nvl72_scale_up_bandwidth_adds_up(cat):
    tray = cat.device_type("gb200-compute-tray")
    switch = cat.device_type("gb200-nvlink-switch-tray")
    assert tray.gpus.scale_up_domain == "links"
    assert tray.gpus.scale_up_domain_gpus == NVL72_GPUS
    assert NVL72_COMPUTE_TRAYS * tray.gpu_count == NVL72_GPUS

    (tray_nvl,) = tray.ports_of_role("scale-up")
    (switch_nvl,) = switch.ports_of_role("scale-up")
    # Each compute tray reaches every switch tray once; each switch tray reaches every compute tray.
    assert tray_nvl.count == NVL72_SWITCH_TRAYS
    assert switch_nvl.count == NVL72_COMPUTE_TRAYS
    assert tray_nvl.speed_gbps == switch_nvl.speed_gbps
    assert tray_nvl.count * tray_nvl.speed_gbps == tray.gpu_count * NVLINK5_GBPS_PER_GPU
    switch_capacity = switch_nvl.count * switch_nvl.speed_gbps
    assert NVL72_SWITCH_TRAYS * switch_capacity == NVL72_GPUS * NVLINK5_GBPS_PER_GPU


# ---------------------------------------------------------------- devices x media


def _cabled_devices(cat) -> list[DeviceType]:
    return [d for d in cat.device_types.values() if d.category != "patch-panel"]


def test_every_server_compute_port_has_a_medium(cat):
    for d in cat.device_types.values():
        if d.category != "server":
            continue
        for g in d.ports_of_role("compute"):
            found = _matching_media(cat, g.speed_gbps, g.lane_rate_gbps, g.form_factor)
            assert found, f"{d.id}.{g.name}: no medium for {g.speed_gbps}G/{g.form_factor}"


def test_every_port_group_and_breakout_has_a_medium(cat):
    for d in _cabled_devices(cat):
        for g in d.port_groups:
            assert _matching_media(cat, g.speed_gbps, g.lane_rate_gbps, g.form_factor), (
                f"{d.id}.{g.name}"
            )
            for b in g.breakouts:
                rate = b.speed_gbps / b.lanes
                assert _matching_media(cat, b.speed_gbps, rate, g.form_factor), (
                    f"{d.id}.{g.name} {b.fanout}x{b.speed_gbps}G"
                )


def test_server_to_leaf_links_have_copper_and_optics(cat):
    """DGX H100 NIC -> QM9700 (400G, 100G lanes, OSFP) can be DAC in-rack or optics across rows."""
    kinds = {m.kind for m in _matching_media(cat, 400, 100, "OSFP")}
    assert {"dac", "mmf", "smf"} <= kinds
    # XDR (B300 -> Q3400): only LACC/AEC copper and single-mode optics.
    xdr = _matching_media(cat, 800, 200, "OSFP")
    assert xdr and {m.kind for m in xdr} <= {"acc", "aec", "smf"}
    assert any(m.kind == "smf" and m.reach_m >= 500 for m in xdr)


def test_scale_up_ports_only_use_the_backplane(cat):
    for d in _cabled_devices(cat):
        for g in d.ports_of_role("scale-up"):
            found = _matching_media(cat, g.speed_gbps, g.lane_rate_gbps, g.form_factor)
            assert [m.kind for m in found] == ["backplane"], d.id


# ---------------------------------------------------------------- racks


def test_racks(cat):
    for r in cat.rack_types.values():
        # AMD Helios is double-wide (REG-HELIOS): two 600 mm bays.
        widest = 1.2 if r.id == "rack-helios" else 1.0
        assert 0.5 <= r.width_m <= widest and 1.0 <= r.depth_m <= 1.4, r.id
        assert 40 <= r.height_u <= 52, r.id
        # Kyber (Rubin Ultra NVL576): ~600 kW per rack at 800 V DC (TOMS-KYBER, domain-facts §9).
        limit_kw = 600 if r.id == "rack-kyber-nvl576" else 250
        assert 5 <= r.power_budget_kw <= limit_kw, r.id
    h100 = cat.device_type("dgx-h100")
    for rack_id in ("rack-42u-600x1200", "rack-48u-600x1200"):
        rack = cat.rack_type(rack_id)
        assert 4 * h100.power_max_w <= rack.power_budget_kw * 1000  # 40.8 kW SuperPOD rack
        assert 4 * h100.u_height <= rack.height_u
        assert h100.depth_m <= rack.depth_m


def test_nvl72_rack_holds_its_trays(cat):
    rack = cat.rack_type("rack-nvl72")
    tray = cat.device_type("gb200-compute-tray")
    switch = cat.device_type("gb200-nvlink-switch-tray")
    assert (
        NVL72_COMPUTE_TRAYS * tray.u_height + NVL72_SWITCH_TRAYS * switch.u_height <= rack.height_u
    )
    power_kw = (
        NVL72_COMPUTE_TRAYS * tray.power_max_w + NVL72_SWITCH_TRAYS * switch.power_max_w
    ) / 1000
    assert power_kw <= rack.power_budget_kw
    assert rack.power_budget_kw == 132


def test_a_repeated_id_or_a_part_on_an_unknown_medium_is_refused():
    """The catalog's index refuses a second entry of one id, and a part naming a medium it
    lacks (each with its kind and id), for types and parts alike."""
    cat = builtin_catalog()
    media = list(cat.media_types.values())
    with pytest.raises(CatalogError, match="duplicate media type id"):
        Catalog(media_types=[*media, media[0]])
    part = next(p for p in cat.cable_parts.values() if p.medium)
    with pytest.raises(CatalogError, match="duplicate cable part id"):
        Catalog(media_types=media, parts=CatalogFile(cable_parts=[part, part]))
    stray = msgspec.structs.replace(part, medium="no-such-medium")
    with pytest.raises(CatalogError, match=f"cable part '{part.id}' names unknown medium"):
        Catalog(media_types=media, parts=CatalogFile(cable_parts=[stray]))
    assert Catalog(media_types=media, parts=CatalogFile(cable_parts=[part])).cable_parts == {
        part.id: part
    }
