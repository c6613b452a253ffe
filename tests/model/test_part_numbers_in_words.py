"""The sentences that name a part (the engine's per-cage "why", a plug rule's refusal, a trunk
in the inspector) name it by the number the BOM lists it under: the vendor's orderable number,
or "quote" where the catalog's is an EST- estimate, never the estimate itself."""

from __future__ import annotations

import math

import msgspec
import pytest

from model.catalog.parts import QUOTE, orderable_number, part_words
from model.catalog.structured import structured_catalog
from model.design.structured_edit import place_panel, route_via
from model.engine.cages import CageSpec, PartTables
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.bom import bom_lines
from model.outputs.netbox.modules import module_export
from model.plant.physical_plant import link_plugs
from model.structured.channel_view import trunk_part_text
from model.structured.layout import structured_layout
from tests.builders import rack
from tests.model.test_structured_layout import two_rack_hall


@pytest.fixture(scope="module")
def helios():
    """One AMD Helios rack, zoned: its modules, fibres and trunks are EST- estimates."""
    design = generate("helios", racks=1, planes=4, port_mode="512x200G")
    apply_cabling(design, "zones")
    return design, RoutedLinks(design)


def _module_links(plant, design) -> list[str]:
    return [i for i in design.links if "module" in plant.cage_reason(i)[0]]


def test_part_words_name_an_estimate_by_what_it_is():
    assert part_words("NVIDIA", "MMA4Z00-NS", "800G twin-port SR8") == "NVIDIA MMA4Z00-NS"
    said = part_words("generic", "EST-TRK-MPO12-OS2-{len}", "MPO-12/APC OS2 trunk")
    assert said == f"generic MPO-12/APC OS2 trunk ({QUOTE})"


def test_the_why_lines_of_estimated_modules_say_quote(helios):
    design, plant = helios
    links = _module_links(plant, design)
    assert links
    for link_id in links[:20]:
        reasons = plant.cage_reason(link_id)
        why = plant.reason(link_id)  # the inspector's "Why" line repeats the per-cage words
        plugs = link_plugs(plant, link_id)
        for text in (*reasons, why):
            assert "EST-" not in text
        # the module the line names is the plug the inspector's cage lines show
        assert f"module {plugs['a_plug']} (" in reasons[0] and plugs["a_plug"] == QUOTE
        assert f"module {plugs['b_plug']} (" in reasons[1]


def test_the_why_lines_name_an_orderable_module_by_its_bom_number():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    plant = RoutedLinks(design)
    link_id = _module_links(plant, design)[0]
    plugs = link_plugs(plant, link_id)
    assert plugs["a_plug"] not in ("", QUOTE)
    assert f"module {plugs['a_plug']} (" in plant.cage_reason(link_id)[0]
    listed = {ln.part_number for ln in bom_lines(design, plant)}
    assert plugs["a_plug"] in listed


def test_a_refused_estimated_module_is_named_by_what_it_is(helios):
    design, plant = helios
    catalog = design.catalog
    part = next(
        p
        for p in catalog.module_parts.values()
        if p.part_number.startswith("EST-") and p.hosts and p.medium in catalog.media_types
    )
    media = [catalog.media_types[part.medium]]
    tables = PartTables.build(catalog, media)
    spec = CageSpec((part.form_factor, part.ports, part.heatsink, "no-such-family", "dsp"))
    why = tables.module_refusal(0, part, spec)
    assert why.startswith(f"{part.vendor} {part.description} ({QUOTE}) is not supported")
    assert "EST-" not in why


def test_the_trunk_inspector_shows_the_boms_trunk_number(helios):
    design, plant = helios
    layout = structured_layout(plant)
    trunk = layout.trunks[0]
    tpart = structured_catalog().trunks[trunk.part]
    text = trunk_part_text(trunk)
    assert "EST-" not in text and trunk.part not in text
    number, _, description = text.partition(": ")
    assert number == QUOTE
    trunk_lines = [ln for ln in bom_lines(design, plant) if ln.length_m == trunk.ordered_m]
    assert any(
        ln.part_number == number and ln.description.startswith(description) for ln in trunk_lines
    )
    assert tpart.part_number.startswith("EST-") and orderable_number(tpart.part_number) == number
    # No part long enough, or none in the catalog: nothing orderable to show
    assert trunk_part_text(msgspec.structs.replace(trunk, ordered_m=math.nan)) == "none orderable"
    assert trunk_part_text(msgspec.structs.replace(trunk, part="no-such-trunk")) == "none orderable"


def test_a_cord_too_long_to_order_is_named_as_the_bom_lists_its_part():
    # l-1 patched at a panel ~68 m away: its A cord is longer than any MM MPO cord
    design = two_rack_hall(12.0, "sr4-400g", nics=2)
    rack(design, "far", 70.0, 3.0)
    far = place_panel(design, "far", "panel-mpo-1u-72")
    near = place_panel(design, "n1", "panel-mpo-1u-72")
    route_via(design, "l-1", [far.id, near.id])
    plant = RoutedLinks(design)
    (finding,) = [f for f in structured_layout(plant).findings if f.code == "CORD_NOT_ORDERABLE"]
    fibre = next(
        design.catalog.fibre_parts[p.fibre]
        for p in design.catalog.module_parts.values()
        if p.medium == "sr4-400g"
    )
    named = part_words(fibre.vendor, fibre.part_number, fibre.description)
    assert f"longer than any orderable {named} cord" in finding.message
    assert fibre.id not in finding.message


def test_netbox_module_types_carry_the_boms_part_numbers(helios):
    design, plant = helios
    export = module_export(design, plant, {d: d for d in design.devices})
    docs = [t.document() for t in export.types]
    listed = {ln.part_number for ln in bom_lines(design, plant) if ln.category == "Modules"}
    at = export.table.header.index("module_type")
    plugged = {row[at] for row in export.table.rows()}
    used = {d["part_number"] for d in docs if d["model"] in plugged and "part_number" in d}
    # an estimate has no number to order by: NetBox's part_number left out, not "quote"
    estimated = [d for d in docs if d["model"].startswith("EST-")]
    assert estimated and not any("part_number" in d for d in estimated)
    assert not any(d.get("part_number", "").startswith("EST-") for d in docs)
    assert used <= listed  # (the Helios rack plugs estimates only: test_netbox_modules has numbers)
