"""A BOM a purchaser sends as it is (issue 43, items 5 and 6): one line per orderable product
and length with its networks in columns, placed and automatic panels on one line, cords at the
catalog's stock lengths with the spare metres shown, CSV and XLSX that agree, and one cable
count in the analysis, the schedule and the BOM on direct, cross-connect and zoned halls."""

from __future__ import annotations

import csv
from collections import Counter

import openpyxl
import pytest

from model.analysis import analyze
from model.catalog.structured import structured_catalog
from model.design.entities import FABRICS
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.bom import BOM_COLUMNS, bom_lines, bom_totals
from model.outputs.bom_files import BOM_HEADERS, export_bom
from model.outputs.bom_parts import QUOTE
from model.outputs.schedule import schedule_table
from model.structured.layout import structured_layout

_POD = dict(nodes=64, node_type="dgx-b200", switch="qm9700", su_nodes=32, fabrics="all")


def _hall(cabling: str):
    design = generate("rail-optimized", **_POD)
    apply_cabling(design, cabling)
    return design, RoutedLinks(design)


@pytest.fixture(scope="module")
def cross_connected():
    design, plant = _hall("cross-connect")
    return design, plant, bom_lines(design, plant)


def test_one_line_per_part_number_and_length_on_a_cross_connected_pod(cross_connected):
    design, _, lines = cross_connected
    numbered = Counter((ln.part_number, ln.length_m) for ln in lines if ln.part_number != QUOTE)
    assert numbered and max(numbered.values()) == 1
    assert max(Counter((ln.part, ln.length_m) for ln in lines).values()) == 1
    # The networks are columns of a line, not lines: the QM9700 of compute and storage is one
    qm = [ln for ln in lines if ln.part == "qm9700"]
    assert len(qm) == 1
    assert qm[0].fabric_quantity("compute") > 0 and qm[0].fabric_quantity("storage") > 0
    for ln in lines:
        if ln.by_fabric[0] is not None:
            assert sum(q or 0 for q in ln.by_fabric) <= ln.quantity
    # A patch cord and a point-to-point fibre of one part and length are one product
    assert not any("patch cord)" in ln.description for ln in lines)
    # Catalog ids and estimated numbers are never shown as part numbers
    ids = {*design.catalog.device_types, *design.catalog.rack_types, *structured_catalog().panels}
    assert not {ln.part_number for ln in lines} & ids
    assert not any(ln.part_number.startswith("EST-") for ln in lines)


def test_placed_and_automatic_panels_are_one_part_summed(cross_connected):
    design, plant, lines = cross_connected
    placed = Counter(d.type for d in design.devices.values() if d.role == "patch-panel")
    automatic = structured_layout(plant).panel_counts(structured_catalog())
    assert placed["panel-mpo-1u-72"] > 0
    panels = [ln for ln in lines if ln.part == "panel-mpo-1u-72"]
    assert len(panels) == 1 and panels[0].category == "Panels"
    assert panels[0].quantity == placed["panel-mpo-1u-72"] + automatic.get("panel-mpo-1u-72", 0)


def test_purchase_categories_keep_appliances_apart_from_gpu_servers(cross_connected):
    design, _, lines = cross_connected
    qty = Counter()
    for ln in lines:
        qty[ln.category] += ln.quantity
    types = design.catalog.device_types
    kinds = Counter(
        "gpu" if types[d.type].gpu_count else types[d.type].category
        for d in design.devices.values()
    )
    assert qty["GPU servers"] == kinds["gpu"] == 64
    assert qty["Storage appliances"] == kinds["storage"] > 0
    assert qty["Management servers"] == kinds["server"] > 0  # head nodes and UFM appliances
    assert qty["PDUs"] > 0 and "Other equipment" not in qty
    # Sources by the documents' own titles and addresses, never a repository file or key
    for ln in lines:
        assert ln.source and ".json" not in ln.source and ".md" not in ln.source
        assert "http" in ln.source or ln.source == "engineering estimate", ln.source


def test_cords_and_cables_come_only_in_the_catalogs_stock_lengths(cross_connected):
    design, _, lines = cross_connected
    catalog = design.catalog
    stock = {
        **{p.id: p.lengths_m for p in catalog.cable_parts.values()},
        **{p.id: p.lengths_m for p in catalog.fibre_parts.values()},
        **{p.id: p.lengths_m for p in structured_catalog().trunks.values()},
    }
    lengths = [ln for ln in lines if ln.category in ("Cables", "Fibres", "Trunks")]
    assert lengths
    for ln in lengths:
        assert ln.length_m in stock[ln.part], (ln.part, ln.length_m)
        # The spare metres: the stock lengths bought less the routed lengths they serve
        assert ln.spare_m is not None and 0 <= ln.spare_m < ln.quantity * ln.length_m
    cat6a = [ln for ln in lines if ln.part == "cat6a"]
    assert cat6a and len(cat6a) <= len(stock["cat6a"]) < 20  # stock cords, not 0.5 m steps


def test_csv_and_xlsx_agree_and_formulas_keep_their_values(cross_connected, tmp_path):
    design, plant, lines = cross_connected
    export_bom(tmp_path / "b.csv", design, plant)
    export_bom(tmp_path / "b.xlsx", design, plant)
    with open(tmp_path / "b.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    book = openpyxl.load_workbook(tmp_path / "b.xlsx", data_only=True)  # cached values
    sheet = [[c.value for c in row] for row in book["BOM"].iter_rows()]
    assert tuple(sheet[0]) == BOM_HEADERS and tuple(rows[0]) == BOM_COLUMNS
    assert len(sheet) == len(rows) == len(lines) + 2
    for got, want in zip(sheet[1:], rows[1:], strict=True):
        for cell, text in zip(got, want, strict=True):
            if text == "":
                assert cell in (None, ""), (got, want)
            elif isinstance(cell, (int, float)):
                assert cell == pytest.approx(float(text)), (got, want)
            else:
                assert cell == text, (got, want)
    fabric_headers = [h for h in BOM_HEADERS if h.startswith("Quantity: ")]
    assert len(fabric_headers) == len(FABRICS)
    for ws in book.worksheets:  # human headers on every sheet
        assert not any("_" in str(c.value) for c in ws[1]), ws.title


@pytest.mark.parametrize("cabling", ["direct", "cross-connect", "zones"])
def test_the_cable_count_is_one_everywhere(cabling):
    design, plant = _hall(cabling)
    report = analyze(design, plant)
    pulled = report.plant["cables"]["total"]
    assert report.to_json()["plant"]["cables"]["total"] == pulled  # analyze --json
    assert len(schedule_table(design, plant)) == pulled  # one row per cable pulled
    lines = bom_lines(design, plant)
    assert sum(ln.quantity for ln in lines if ln.category in ("Cables", "Fibres", "Trunks")) == (
        pulled
    )
    trunks = sum(ln.quantity for ln in lines if ln.category == "Trunks")
    assert (trunks > 0) == (cabling != "direct")
    assert (
        report.plant["cables"]["by_kind"].get("mmf-trunk", 0)
        + report.plant["cables"]["by_kind"].get("smf-trunk", 0)
        == trunks
    )


@pytest.fixture(scope="module")
def gb300_cross_connected():
    """A GB300 NVL72 SU with every network, cross-connected (7 network racks, 1 patch rack)."""
    design = generate("nvl72", racks=8, platform="gb300", fabrics="all")
    apply_cabling(design, "cross-connect")
    return design, bom_lines(design, RoutedLinks(design))


def test_rack_pdus_are_ordered_as_pdus_on_a_cross_connected_gb300_hall(gb300_cross_connected):
    """The facility's rack PDUs (network and patch racks without power shelves) are PDUs, the
    category of the metered PDUs the design places as devices, not power and cooling plant."""
    design, lines = gb300_cross_connected
    facility = design.catalog.facility_parts
    pdus = [ln for ln in lines if ln.part in facility and facility[ln.part].kind == "rack-pdu"]
    assert pdus and all(ln.category == "PDUs" for ln in pdus)
    assert all(
        facility[ln.part].kind != "rack-pdu" for ln in lines if ln.category == "Power and cooling"
    )


def test_a_patch_rack_is_ordered_as_the_rack_of_its_frame(gb300_cross_connected):
    """A patch rack is a role, not a product: its 48U 600 x 1200 mm frame is one line with the
    network racks' (was two lines, 7 + 1, worded apart)."""
    design, lines = gb300_cross_connected
    kinds = Counter(r.type for r in design.racks.values())
    assert kinds["rack-patch-48u-600x1200"] > 0
    racks = {ln.part: ln for ln in lines if ln.category == "Racks"}
    assert set(racks) == {"rack-48u-600x1200", "rack-gb300-nvl72"}
    assert racks["rack-48u-600x1200"].quantity == (
        kinds["rack-48u-600x1200"] + kinds["rack-patch-48u-600x1200"]
    )
    assert sum(ln.quantity for ln in racks.values()) == len(design.racks)


@pytest.fixture(scope="module")
def b200_zoned():
    """A DGX B200 SU with every network, zoned (the brief's second purchaser hall)."""
    design = generate("rail-optimized", **(_POD | dict(nodes=32)))
    apply_cabling(design, "zones")
    return design, bom_lines(design, RoutedLinks(design))


@pytest.mark.parametrize("hall", ["gb300_cross_connected", "b200_zoned"])
def test_a_purchaser_sends_the_bom_as_it_is(hall, request):
    """Read as a purchaser would: one line per product and stock length (never split by network
    or wording), the networks' columns and the unit times the quantity adding up to each line,
    the lines to the total, every cable, fibre and trunk at a length, counted each."""
    design, lines = request.getfixturevalue(hall)
    assert max(Counter((ln.part, ln.length_m) for ln in lines).values()) == 1
    described = Counter((ln.category, ln.part_number, ln.description) for ln in lines)
    assert max(described.values()) == 1  # one wording per product and length
    for ln in lines:
        assert ln.unit == "ea" and ln.quantity > 0
        assert (
            not ln.part_number.startswith("EST-")
            and ln.part_number not in design.catalog.device_types
        )
        if ln.by_fabric[0] is not None:
            assert sum(q or 0 for q in ln.by_fabric) == ln.quantity, ln.description
        assert ln.total_price_usd == pytest.approx(ln.unit_price_usd * ln.quantity)
        if ln.category in ("Cables", "Fibres", "Trunks"):
            assert ln.length_m and ln.description.endswith(f"{ln.length_m:g} m"), ln.description
    total = bom_totals(lines)
    assert total.price_usd == pytest.approx(sum(ln.total_price_usd for ln in lines))
    assert total.power_w == pytest.approx(sum(ln.total_power_w or 0 for ln in lines))
