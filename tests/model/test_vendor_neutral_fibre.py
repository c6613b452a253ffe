"""The fibre between modules follows the cages' vendor rules: an AMD or Broadcom hall orders
MSA (vendor-neutral) fibres, marked for a quote, and an NVIDIA hall still orders NVIDIA's
MFP7E30 / 980-9I570 fibres (issue 39)."""

from __future__ import annotations

import pytest

from model.catalog.components import builtin_catalog
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.bom_parts import orderable_number
from model.plant.physical_plant import build_plant


def _fibres(design):
    plant = RoutedLinks(design)
    plant.refresh()
    phys = build_plant(plant, with_links=True)
    return phys, phys.of("fibre")


def test_msa_fibres_are_nvidia_s_in_all_but_vendor_and_number():
    fibres = builtin_catalog().fibre_parts
    for msa, nvidia in (
        ("fibre-mpo12-sm-msa", "fibre-mpo12-sm"),
        ("fibre-mpo12-mm-msa", "fibre-mpo12-mm"),
    ):
        a, b = fibres[msa], fibres[nvidia]
        assert (a.mode, a.connector, a.lengths_m) == (b.mode, b.connector, b.lengths_m)
        assert a.vendor != "NVIDIA" and a.part_number.startswith("EST-")
        assert orderable_number(a.part_number) == "quote"


@pytest.mark.parametrize(
    "template, params",
    [
        ("helios", {"racks": 2}),  # Vulcano NICs to Tomahawk 6 at 800G (DR4 and 2 x DR4)
        (
            "rail-optimized",
            {
                "nodes": 32,
                "node_type": "mi355x-dlc-orv3",
                "switch": "tomahawk5-64x800",
                "su_nodes": 16,
            },
        ),  # Pollara 400G NICs to Tomahawk 5
    ],
)
def test_amd_and_broadcom_halls_order_no_nvidia_fibre(template, params):
    phys, fibres = _fibres(generate(template, **params))
    assert fibres, "the hall has fibre links"
    catalog = builtin_catalog()
    nvidia = {f.id for f in catalog.fibre_parts.values() if f.vendor == "NVIDIA"}
    for item in fibres:
        assert item.part_id not in nvidia, item
        assert item.part_number.startswith("EST-"), item
    assert {f.part_id for f in fibres} & {"fibre-mpo12-sm-msa", "fibre-mpo12-mm-msa"}
    assert phys.cages_invalid == 0


def test_an_nvidia_hall_still_orders_nvidia_fibres():
    # GB300 NVL72 on Quantum-X800: ConnectX-8 to Q3400, NVIDIA modules at both ends.
    _, fibres = _fibres(generate("nvl72", racks=2, platform="gb300"))
    assert fibres and all(f.part_id == "fibre-mpo12-sm" for f in fibres if f.kind == "smf-fibre")
    assert any(f.part_number.startswith("MFP7E30") for f in fibres)


def test_a_structured_hall_removes_the_msa_direct_fibres_its_cords_replace():
    # Cross-connect: every Helios link runs through panels, so none of its direct fibres is
    # ordered (counted as the MSA part, removed as the link's fibre: not ordered twice).
    design = generate("helios", racks=2)
    apply_cabling(design, "cross-connect")
    phys, fibres = _fibres(design)
    assert phys.structured is not None and phys.structured.channels.structured
    # The fibres left are the patch cords alone (MSA parts too: two a channel).
    cords = phys.structured.cords
    assert sum(f.quantity for f in fibres) == 2 * len(cords.link_ids)


def test_a_cross_connect_amd_hall_s_patch_cords_are_msa_fibres():
    # Helios on Tomahawk 6 (Vulcano and TH6 modules, not NVIDIA's): each cord of a panelled link
    # is the vendor-neutral fibre its direct link would be, not NVIDIA's MFP7E30 (issue 39).
    design = generate("helios", racks=2)
    apply_cabling(design, "cross-connect")
    phys, fibres = _fibres(design)
    cords = phys.structured.cords
    assert cords.link_ids and set(cords.parts) == {"fibre-mpo12-sm-msa"}
    assert {f.part_id for f in fibres} == {"fibre-mpo12-sm-msa"}
    assert all(f.part_number.startswith("EST-") and f.vendor != "NVIDIA" for f in fibres)
    assert not [f for f in phys.structured.findings if f.severity == "error"]


def test_a_cross_connect_nvidia_hall_keeps_nvidia_cords():
    design = generate("nvl72", racks=1, platform="gb300")
    apply_cabling(design, "cross-connect")
    phys, _ = _fibres(design)
    cords = phys.structured.cords
    assert cords.link_ids and set(cords.parts) == {"fibre-mpo12-sm"}
