"""Vera Rubin NVL72 (issue 39): the AI Factory reference architecture's compute fabric
(NV-RA-VR, domain-facts §9): 18 compute trays (4 Rubin + 2 Vera) and 9 NVLink 6 switch trays
per rack; a rail-optimized, non-blocking Spectrum-X Ethernet fat tree over ConnectX-9
SuperNICs, two 800G per GPU (WHEELER-CX9); ~190-230 kW per rack (REGANTIH). The RA's switch
model and counts were not in the sources read: the Spectrum-6 SN6810 (128 x 800G) stands in,
and the counts below are the Clos minimum of that switch, not an RA table."""

from __future__ import annotations

import math
from collections import Counter

from model.analysis import analyze
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate, preview


def test_vera_rubin_su_is_a_non_blocking_rail_optimized_spectrum_x_fabric():
    racks = 8
    design = generate("nvl72", racks=racks, platform="vera-rubin")
    types = Counter(d.type for d in design.devices.values())
    assert types["vr-nvl72-compute-tray"] == 18 * racks
    assert types["vr-nvlink6-switch-tray"] == 9 * racks
    assert {r.type for r in design.racks.values() if r.type.startswith("rack-vr")} == {
        "rack-vr-nvl72"
    }
    assert design.gpu_count() == 72 * racks
    endpoints = 18 * racks * 8  # 8 ConnectX-9 800G ports per tray: 2 per GPU
    leaves, spines = math.ceil(endpoints / 64), math.ceil(endpoints / 128)
    counts = preview("nvl72", racks=racks, platform="vera-rubin")
    assert counts["switches"] == {"nvlink-switch": 72, "leaf": leaves, "spine": spines}
    assert types["sn6810"] == leaves + spines == 27
    plant = RoutedLinks(design)
    plant.refresh()
    report = analyze(design, plant)
    assert [w for w in report.warnings if w.severity != "info"] == []
    # Non-blocking: half the endpoints x 800G across the minimum balanced cut.
    assert report.bisection_gbps == endpoints / 2 * 800
    assert report.oversubscription["leaf"].max == 1.0
    # Co-packaged Spectrum-X Photonics switches: no module on the switch side.
    optics = report.to_json()["optics"]
    assert optics["by_tier"]["leaf"]["modules"] == {"dsp": 0, "linear": 0}
    assert optics["by_tier"]["gpu-server"]["modules"]["dsp"] == endpoints
    # Rack power inside the 190-230 kW the sources give.
    tray_racks = {d.rack for d in design.devices.values() if d.role == "gpu-server"}
    for rack in tray_racks:
        typical, maximum, budget = report.rack_power_w[rack]
        assert 190_000 <= typical <= maximum <= budget == 230_000
