"""The cabling schedule shows each part by the number the BOM lists it by: a purchaser and an
installer read the same number for the same part (``quote`` where no number is published)."""

from __future__ import annotations

import pytest

from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.bom import bom_lines
from model.outputs.bom_parts import QUOTE, orderable_number, row_number
from model.outputs.schedule import schedule_rows

NUMBER_FIELDS = ("a_module", "b_module", "part")


def test_row_number_is_the_bom_number_and_keeps_no_part_empty():
    assert row_number("EST-OSFP-800G-DR4-MSA") == QUOTE == orderable_number("EST-X")
    assert row_number("MMS4X00-NM") == "MMS4X00-NM" == orderable_number("MMS4X00-NM")
    assert row_number("") == ""  # an integrated cable's end: no module, not a part to quote


@pytest.mark.parametrize("style", ["direct", "zones"])
def test_schedule_numbers_are_the_boms(style):
    """One AMD Helios rack on four planes of Tomahawk 6 as 512 x 200G: vendor-neutral modules and
    fibres with no published number (EST- in the catalog), zoned: cords and trunks too."""
    design = generate("helios", racks=1, planes=4, port_mode="512x200G")
    apply_cabling(design, style)
    plant = RoutedLinks(design)
    rows = schedule_rows(design, plant)
    shown = {getattr(r, f) for r in rows for f in NUMBER_FIELDS} - {""}
    assert not any(n.startswith("EST-") for n in shown)
    assert QUOTE in shown  # the catalog's EST- parts: the test would see them
    listed = {line.part_number for line in bom_lines(design, plant)}
    assert shown <= listed
    if style == "zones":
        assert any(r.medium_kind == "trunk" for r in rows)
