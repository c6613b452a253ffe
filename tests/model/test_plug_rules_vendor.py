"""Plug rules from the vendors' own words: a part goes into a cage only where its vendor supports
it (NVIDIA's twin-port modules in Quantum-2 and Spectrum-4 switches only), a fibre only onto a
receptacle of its own connector and polish (APC with APC, UPC with UPC), a port past a module's
reach moves its whole cage, and no ``EST-`` part stands where a cited document publishes the
number (domain-facts §9)."""

from __future__ import annotations

import json

import msgspec
import numpy as np

from model.catalog.components import SOURCES_FILE, Catalog, builtin_catalog
from model.catalog.parts import part_words
from model.engine.cages import PartTables, port_cages
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.bom import bom_lines, quote_lines, summary_rows
from model.plant.physical_plant import build_plant
from tests.builders import link
from tests.model.test_plant_rules import media, one_rack

TWIN_PORT_NVIDIA = "980-9I510-00NS00"  # MMA4Z00-NS, finned top: Quantum-2 and Spectrum-4 only


def _tables(catalog: Catalog, type_id: str, breakout: dict[str, int] | None = None):
    """(part tables of all media, spec row of the first cage of port ``p1`` / ``fe1``)."""
    media_list = list(catalog.media_types.values())
    tables = PartTables.build(catalog, media_list)
    dtype = catalog.device_types[type_id]
    port = "p1" if dtype.port_group("p") else "fe1"
    if breakout:
        port = "p1/1"
    _, spec, _ = port_cages(dtype, breakout)[port]
    row = {m.id: i for i, m in enumerate(media_list)}
    return tables, tables.spec_row(spec), row


def test_nvidia_twin_port_module_refused_in_a_tomahawk5_cage_taken_in_a_quantum2_cage():
    catalog = builtin_catalog()
    th5, s_th5, row = _tables(catalog, "tomahawk5-64x800", {"p": 2})
    part = th5.module(row["sr4-400g"], s_th5)
    assert part is not None and part.vendor != "NVIDIA" and part.part_number.startswith("EST-")
    why = th5.refused[(row["sr4-400g"], s_th5)]
    assert TWIN_PORT_NVIDIA in why and "Tomahawk-5" in why and "Quantum-2" in why
    qm, s_qm, row = _tables(catalog, "qm9700")
    assert qm.module(row["sr4-400g"], s_qm).part_number == TWIN_PORT_NVIDIA
    # The NVIDIA twin-port DAC is no more orderable between Tomahawk-5 cages than the module
    assert not th5.orderable(row["dac-400g"], s_th5, s_th5)
    assert qm.orderable(row["dac-400g"], s_qm, s_qm)


def test_a_tomahawk5_fabric_orders_no_nvidia_twin_port_module():
    design = generate(
        "rail-optimized",
        nodes=24,
        node_type="hgx-h100-8x400",
        switch="tomahawk5-64x800",
        su_nodes=24,
    )
    plant = RoutedLinks(design)
    phys = build_plant(plant)
    modules = {i.part_number: i.quantity for i in phys.of("module")}
    nvidia_twin = {
        p.part_number
        for p in design.catalog.module_parts.values()
        if p.vendor == "NVIDIA" and p.ports == 2
    }
    assert sum(modules.values()) > 0 and not nvidia_twin & set(modules)
    assert phys.cages_invalid == 0
    plant.close()


def test_an_apc_fibre_is_refused_on_a_upc_module():
    base = builtin_catalog()
    parts = base.parts_file()
    sr4 = next(p for p in parts.module_parts if p.medium == "sr4-100g")
    assert sr4.receptacle == "MPO-12/UPC"  # a third-party QSFP28 SR4: flat polish
    # As the catalog had it: NVIDIA's MPO-12/APC NDR fibre on that module
    wrong = msgspec.structs.replace(sr4, fibre="fibre-mpo12-mm")
    parts.module_parts = [wrong if p is sr4 else p for p in parts.module_parts]
    catalog = Catalog(
        base.device_types.values(), base.rack_types.values(), base.media_types.values(), parts
    )
    tables, spec, row = _tables(catalog, "sn4600c")
    assert tables.module(row["sr4-100g"], spec) is None
    why = tables.refused[(row["sr4-100g"], spec)]
    # named as the BOM lists them: the estimated module by what it is and "quote"
    assert sr4.part_number.startswith("EST-") and "EST-" not in why
    assert part_words(sr4.vendor, sr4.part_number, sr4.description) in why
    assert "980-9I570-00N" in why and "MPO-12/APC" in why
    # The bundled catalog pairs it with a UPC trunk, which mates
    tables, spec, row = _tables(base, "sn4600c")
    assert tables.module(row["sr4-100g"], spec) is sr4
    assert tables.fibre_of[row["sr4-100g"]].connector == "MPO-12/UPC"


def test_the_in_band_network_orders_upc_trunks_for_its_qsfp28_sr4_modules():
    design = one_rack("mgmt-node", "sn4600c")
    link(design, "fe", ("d1", "fe1"), ("d2", "p1"), length_override_m=40.0)  # past 5 m DAC
    plant = RoutedLinks(design)
    phys = build_plant(plant)
    assert {i.part_id for i in phys.of("fibre")} == {"fibre-mpo12-mm-upc"}
    assert phys.cages_invalid == 0 and not phys.findings


def test_a_600_m_port_moves_both_ports_of_its_twin_port_cage_to_a_2_km_module():
    design = one_rack("qm9700", "qm9700", "qm9700")
    link(design, "near", ("d1", "p1"), ("d2", "p1"), length_override_m=100.0)
    link(design, "far", ("d1", "p2"), ("d3", "p1"), length_override_m=600.0)  # > 500 m DR4
    plant = RoutedLinks(design)
    assert media(plant) == {"near": "fr4-400g", "far": "fr4-400g"}
    phys = build_plant(plant, with_links=True)
    modules = {i.part_number: i.quantity for i in phys.of("module")}
    assert modules == {"MMS4X50-NM": 3}  # 2 km 2xFR4 in all three cages, none mixed
    assert {i.part_id for i in phys.of("fibre")} == {"fibre-lc-sm"}
    assert phys.cages_invalid == 0 and not phys.findings


def test_the_connectx7_single_port_dr4_is_rated_100_m_and_a_longer_fibre_is_flagged():
    catalog = builtin_catalog()
    part = next(p for p in catalog.module_parts.values() if "MMS4X00-NS400" in p.description)
    assert part.part_number == "980-9I31N-00NM00" and part.reach_m == 100.0
    assert part.hosts == ("ConnectX-7",)
    design = one_rack("gb200-compute-tray", "qm9700")
    link(design, "x", ("d1", "nic1"), ("d2", "p1"), length_override_m=150.0, medium="dr4-400g")
    phys = build_plant(RoutedLinks(design))
    assert any("100 m" in f.message and part.part_number in f.message for f in phys.findings)


def _sourced_part_numbers() -> dict[str, str]:
    sources = json.loads(SOURCES_FILE.read_text(encoding="utf-8"))["sources"]
    return {pn: key for key, s in sources.items() for pn in s.get("part_numbers", ())}


def test_no_est_part_where_the_catalogs_own_sources_publish_a_number():
    catalog = builtin_catalog()
    parts = [
        *catalog.module_parts.values(),
        *catalog.cable_parts.values(),
        *catalog.fibre_parts.values(),
    ]
    published = _sourced_part_numbers()
    assert {"MFP7E30", "MFP7E40", "MFP7E20", "980-9I31N-00NM00"} <= set(published)
    # Devices carry their vendor's number too (the DGX SuperPOD RA's MQM9700-NS2F)
    parts += [d for d in catalog.device_types.values() if d.part_number]
    real = [p for p in parts if not p.part_number.startswith("EST-")]
    for number, key in published.items():
        carried = [
            p
            for p in real
            if p.part_number.startswith(number) or number in getattr(p, "description", "")
        ]
        assert carried, f"{key} publishes {number} but no catalog part carries it"
    for p in parts:
        if p.part_number.startswith("EST-"):
            assert "estimate" in p.source, p.id
            assert not any(p.part_number.startswith(n) for n in published), p.id
    # The B300 and GB300 single-mode fibres are orderable: NVIDIA's MFP7E30 and MFP7E40
    fibres = {f.id: f.part_number for f in catalog.fibre_parts.values()}
    assert fibres["fibre-mpo12-sm"].startswith("MFP7E30")
    assert fibres["fibre-mpo12-sm-split"].startswith("MFP7E40")


def test_the_bom_counts_the_lines_to_quote():
    design = one_rack("tomahawk5-64x800", "tomahawk5-64x800")
    design.devices["d1"] = msgspec.structs.replace(design.devices["d1"], breakout={"p": 2})
    design.devices["d2"] = msgspec.structs.replace(design.devices["d2"], breakout={"p": 2})
    link(design, "a", ("d1", "p1/1"), ("d2", "p1/1"), length_override_m=30.0)
    link(design, "b", ("d1", "p1/2"), ("d2", "p2/1"), length_override_m=30.0)
    plant = RoutedLinks(design)
    lines = bom_lines(design, plant)
    quoted = quote_lines(lines)
    assert quoted and all(x.part_number == "quote" for x in quoted)
    # No estimated (EST-) number and no catalog id is ever shown as a part number
    assert not any(x.part_number.startswith("EST-") or x.part_number == x.part for x in lines)
    assert len(quoted) == sum(1 for x in lines if x.part_number == "quote")
    rows = {r[0]: r[1] for r in summary_rows(design, plant, lines, [])}
    assert rows["Lines to quote (no published part number)"] == len(quoted)
    assert np.isfinite(sum(x.quantity or 0 for x in quoted))


def test_the_engine_never_chooses_a_module_past_the_reach_its_vendor_rates():
    """Unpinned, a 150 m link from a ConnectX-7 port is not given the 100 m MMS4X00-NS400 (its
    DR4 medium reaches 500 m, the part 100 m): the engine takes a medium whose parts reach, and
    the plant has no finding; at 80 m the DR4 part is allowed again."""
    for length_m, allowed in ((150.0, False), (80.0, True)):
        design = one_rack("gb200-compute-tray", "qm9700")
        link(design, "x", ("d1", "nic1"), ("d2", "p1"), length_override_m=length_m)
        plant = RoutedLinks(design)
        chosen = media(plant)["x"]
        phys = build_plant(plant, with_links=True)
        assert not [f for f in phys.findings if "100 m" in f.message]
        modules = {i.part_number for i in phys.of("module")}
        assert ("980-9I31N-00NM00" in modules) == (allowed and chosen == "dr4-400g")
        if not allowed:
            assert "980-9I31N-00NM00" not in modules and chosen is not None


def test_a_gb300_compute_fabric_orders_nvidia_xdr_optics_by_their_numbers():
    """The GB300 compute fabric's optics, fibres and switches are orderable: MMS4A20
    (980-9IAT0-00XM00) in the ConnectX-8 cages, MMS4A00 (980-9IAH1-00XM00) in the Q3400-RA's,
    the Q3400-RA itself (920-9B36F-00RX-8S0) and MFP7E30 fibres; none is a line to quote."""
    design = generate("nvl72", racks=1, platform="gb300")
    lines = bom_lines(design, RoutedLinks(design))
    compute = [x for x in lines if x.fabric_quantity("compute")]
    assert {x.category for x in compute} >= {"Switches", "Modules", "Fibres"}
    assert not quote_lines(compute), [x.description for x in quote_lines(compute)]
    numbers = {x.part_number for x in compute}
    assert {"980-9IAT0-00XM00", "980-9IAH1-00XM00", "920-9B36F-00RX-8S0"} <= numbers
    assert all(x.part_number.startswith("MFP7E30") for x in compute if x.category == "Fibres")


def test_a_vera_rubin_compute_fabric_orders_the_connectx9_module_by_its_number():
    """ConnectX-9 cages take NVIDIA's MMS4C10-XM800 (980-9IAY0-00XM00, NV-MMS4C10) and the
    co-packaged SN6810 ports a fibre each: the compute fabric's modules and fibres are
    orderable; what stays to quote is the switch and its laser sources (no number published)."""
    design = generate("nvl72", racks=1, platform="vera-rubin")
    lines = bom_lines(design, RoutedLinks(design))
    compute = [x for x in lines if x.fabric_quantity("compute")]
    modules = [x for x in compute if x.category == "Modules"]
    assert [x.part_number for x in modules] == ["980-9IAY0-00XM00"]
    assert modules[0].quantity == 18 * 8  # one per ConnectX-9 port
    assert not quote_lines([x for x in compute if x.category in ("Modules", "Fibres")])


def test_vera_rubin_bluefield4_ports_take_a_dr4_not_a_2_km_fr4():
    """BlueField-4's OSFP 400GbE cages take no NVIDIA part (its OSFP DR4 is listed for
    ConnectX-7 only): a vendor-neutral DR4, not the only other part that fitted, a 2 km FR4
    (with a 2 km 2xFR4 at the switch) on converged links of tens of metres."""
    design = generate("nvl72", racks=1, platform="vera-rubin", fabrics="all")
    phys = build_plant(RoutedLinks(design))
    modules = {i.part_id: i.quantity for i in phys.of("module")}
    assert modules.get("osfp-400g-dr4-msa") == 18 * 2  # two converged ports a tray
    assert "fr4-400g-osfp" not in modules and "mms4x50-nm-fin" not in modules
    assert not phys.findings


def test_a_gb300_bom_names_its_nvlink_switch_tray_without_another_platform():
    """GB200 and GB300 NVL72 share the NVLink 5 switch tray (NV-MC-NVLINK, INTROL-GB300): a
    GB300 BOM ordered it as a "GB200 NVL72 NVLink switch tray"."""
    design = generate("nvl72", racks=1, platform="gb300")
    lines = [x for x in bom_lines(design, RoutedLinks(design)) if "NVLink" in x.description]
    assert lines and not [
        x.description for x in lines if "GB200" in x.description and "GB300" not in x.description
    ]
    assert sum(x.quantity for x in lines if "switch tray" in x.description) == 9
