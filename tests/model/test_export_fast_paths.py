"""The column-wise export paths of issue #13 give what the straightforward code gives.

CSV columns formatted once per distinct value equal ``csv.writer``; the XLSX plain-sheet check
never lets a control character through raw; the link fabrics read through per-type role tables
equal the per-link rule; the plant split by fabric rows equals the split by a link -> fabric
dict; and the NetBox module rows equal a per-link-end reference built the plain way.
"""

from __future__ import annotations

import io
import math
import random
import zipfile

import openpyxl
import pytest

from model.design.fabrics import link_fabric, link_fabric_map, plant_fabric_rows
from model.engine.cages import port_cages
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.netbox.export import netbox_tables
from model.outputs.netbox.modules import _bay_key
from model.outputs.schedule import schedule_table
from model.outputs.writers.csv_writer import csv_bytes, csv_chunks, csv_column_bytes, format_column
from model.outputs.writers.xlsx_columns import plain_text as _plain_text
from model.outputs.writers.xlsx_columns import text_xml as _text_xml
from model.outputs.writers.xlsx_writer import Sheet, workbook_bytes
from model.plant.physical_plant import build_plant

DESIGNS = {
    "zones-all": (
        "rail-optimized",
        dict(
            nodes=64,
            node_type="dgx-h100",
            switch="qm9700",
            su_nodes=32,
            fabrics="all",
        ),
        "zones",
    ),
    "nvl72-all": ("nvl72", dict(racks=4, fabrics="all"), "direct"),
}


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def design(request):
    template, params, cabling = DESIGNS[request.param]
    design = generate(template, **params)
    apply_cabling(design, cabling)  # zones: patch panels, cords and trunks
    return design


# ---- CSV


@pytest.mark.parametrize("seed", range(8))
def test_columns_of_few_distinct_values_are_written_as_csv_writer_writes_them(seed):
    rng = random.Random(seed)
    pools = [
        ["a,b", "=SUM(A1)", "-x", 'q"x', "plain", "", "line\nbreak", "@home", "é"],
        [0.0, -0.0, 1.5, 2.0, 1e20, 0.1 + 0.2, math.nan, None, 12345678901234567.0],
        [3, -7, 0, None, 10**20],
        ["r1", "r2", "r3"],
    ]
    n = rng.randint(40, 400)  # far more cells than distinct values: the per-value path
    rows = [tuple(rng.choice(pool) for pool in pools) for _ in range(n)]
    columns = [list(c) for c in zip(*rows, strict=True)]
    header = ["text", "float", "int", "few"]
    for safe in (True, False):
        expected = csv_bytes(header, rows, spreadsheet_safe=safe)
        assert csv_column_bytes(header, columns, spreadsheet_safe=safe) == expected
        assert (
            b"".join(
                c.split(b"\r\n", 1)[1]
                for c in csv_chunks(header, rows, 10_000, spreadsheet_safe=safe)
            )
            == expected.split(b"\r\n", 1)[1]
        )


@pytest.mark.parametrize("odd", ["", "line\nbreak", "=formula"])
def test_a_text_column_of_many_distinct_values_is_quoted_cell_for_cell_as_csv_writer_does(odd):
    # Many distinct values (no per-value memo): the cells to quote are found in the joined
    # column's bytes; a line break or a formula start in one cell takes the per-cell path.
    rng = random.Random(len(odd))
    pieces = ["R1-R3,R7", 'say "hi"', "cr\rhere", "é", "ü,ß", "plain", "-", " "]
    texts = [f"{rng.choice(pieces)}{k}{rng.choice(pieces)}" for k in range(300)]
    texts[17] += odd
    rows = [(t, k) for k, t in enumerate(texts)]
    columns = [texts, list(range(300))]
    for safe in (True, False):
        expected = csv_bytes(["text", "n"], rows, spreadsheet_safe=safe)
        assert csv_column_bytes(["text", "n"], columns, spreadsheet_safe=safe) == expected


def test_a_float_column_writes_minus_zero_and_zero_alike_and_nan_empty():
    assert format_column([0.0, -0.0, math.nan, None, 2.5] * 10) == ["0", "0", "", "", "2.5"] * 10


def test_a_row_of_the_wrong_width_is_refused_with_its_width():
    with pytest.raises(ValueError, match="row has 1 cells, header has 2"):
        csv_chunks(("a", "b"), [("x", "y"), ("z",)], 10)


# ---- XLSX


def test_plain_check_accepts_only_text_that_goes_into_the_xml_as_it_is():
    pool = ["", " ", "a", "a ", " a", "\t", "x\ny", "&", "<b>", "é", " é", "é ", "\x00"]
    pool += ["\x01", "\x7f", "\xa0", "ok", "a b", "\r", "\x85", "z", "\x01é"]
    rng = random.Random(3)
    for _ in range(3000):
        values = [rng.choice(pool) for _ in range(rng.randint(0, 5))]
        if _plain_text(values):
            assert all(_text_xml(v) == f"<t>{v}</t>" for v in values), values
    assert _plain_text(["A001", "su1-node01", "p1/1", ""])
    assert not _plain_text(["ok", "\x01bad"])


def test_a_control_character_in_a_plain_sheet_is_cleaned_not_written_raw():
    """Bug fixed: a text column holding U+0001 was taken as plain and written raw into the
    sheet XML, which no spreadsheet opens (XML 1.0 forbids the character)."""
    sheet = Sheet("Cabling schedule", ("id", "label"), (), plain=True)
    sheet.columns = [["l-1", "l-2"], ["ok", "\x01bad"]]
    data = workbook_bytes([sheet])
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        assert b"\x01" not in book.read("xl/worksheets/sheet1.xml")
    ws = openpyxl.load_workbook(io.BytesIO(data)).active
    assert [c.value for c in ws["B"]] == ["label", "ok", "bad"]


def test_a_plain_sheet_of_many_rows_reads_back_cell_for_cell():
    n = 3000
    columns = [
        [f"l-{i}" for i in range(n)],
        [f"A{i % 7:03d}" for i in range(n)],
        [i % 48 for i in range(n)],
        [None if i % 11 == 0 else round(i * 0.37, 2) for i in range(n)],
        ["a&b" if i % 5 == 0 else " x" if i % 5 == 1 else "plain" for i in range(n)],
        [True if i % 2 else False for i in range(n)],
    ]
    header = ("id", "rack", "u", "length", "text", "flag")
    sheet = Sheet("S", header, (), plain=True, columns=columns)
    ws = openpyxl.load_workbook(io.BytesIO(workbook_bytes([sheet]))).active
    got = list(ws.iter_rows(min_row=2, values_only=True))
    assert got == list(zip(*columns, strict=True))


# ---- fabrics and the plant split by fabric


def test_link_fabrics_through_role_tables_equal_the_per_link_rule(design):
    fabric_of = link_fabric_map(design)
    assert all(link_fabric(design, lid) == fabric_of[lid] for lid in design.links)


def test_the_plant_split_by_fabric_rows_equals_the_split_by_a_link_dict(design):
    plant = RoutedLinks(design)
    by_dict = build_plant(plant, with_links=True, fabric_of=link_fabric_map(design))
    by_rows = build_plant(plant, with_links=True, fabric_rows=plant_fabric_rows(design, plant))
    assert by_rows.items == by_dict.items
    assert by_rows.link_parts == by_dict.link_parts


# ---- NetBox modules


def _reference_module_rows(design, plant, phys, tags):
    """One (device, bay) per plugged cage, first link end wins, sorted as the export does."""
    cages = {}
    for link_id, (_c, _a, _b, mod_a, mod_b, _p) in phys.link_parts.items():
        link = design.links[link_id]
        k = int(plant.medium_index[plant.index[link_id]])
        medium = plant.media[k].name if k >= 0 else ""
        for end, number in ((link.a, mod_a), (link.b, mod_b)):
            if number:
                device = design.devices[end.device]
                bay = port_cages(design.catalog.device_types[device.type], device.breakout)[
                    end.port
                ][2]
                cages.setdefault((end.device, bay), (number, medium))
    rows = [(tags[d], bay, number, medium) for (d, bay), (number, medium) in cages.items()]
    return sorted(rows, key=lambda r: (r[0].casefold(), _bay_key(r[1])))


def test_module_rows_equal_a_per_link_end_reference(design):
    plant = RoutedLinks(design)
    phys = build_plant(plant, with_links=True)
    export = netbox_tables(design, schedule_table(design, plant, phys, segments=False), plant, phys)
    tag_at = 11  # DEVICE_HEADER's asset_tag
    tags = {row[12].removeprefix("Hallwright "): row[tag_at] for row in export.rows("07_devices")}
    models = {t.first.part_number: t.model for t in export.module_types}
    expected = _reference_module_rows(design, plant, phys, tags)
    got = export.rows("10_modules")
    assert len(got) == len(expected) > 0
    assert [(r[0], r[1]) for r in got] == [(r[0], r[1]) for r in expected]
    assert [r[2] for r in got] == [models[r[2]] for r in expected]
    assert [r[4] for r in got] == [f"{r[3]} transceiver" if r[3] else "" for r in expected]


@pytest.mark.parametrize("read_only", [False, True])
def test_shared_strings_and_cells_without_references_read_back_in_openpyxl(read_only):
    """Repeated text goes into the shared strings and cells carry no ``r`` reference except
    after a gap: gaps at a row's start, side by side and at its end still land every value in
    its column, and a text holding "x005F_" (which a shared string read back loses) stays
    inline."""
    n = 400
    columns = [
        [None if i % 3 == 0 else "rack-A" for i in range(n)],
        [None if i % 3 < 2 else i for i in range(n)],
        ["_x005F_x0041_" if i % 2 else "A&B <1>" for i in range(n)],
        [None if i % 5 == 0 else 1.5 for i in range(n)],
        [None if i % 7 else " lead" for i in range(n)],
    ]
    sheet = Sheet("S", ("a", "b", "c", "d", "e"), (), plain=True, columns=columns)
    data = workbook_bytes([sheet])
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        sheet_xml = book.read("xl/worksheets/sheet1.xml")
        assert b'<c t="s">' in sheet_xml and b"_x005F_x0041_" in sheet_xml
        assert b"sharedStrings" in book.read("[Content_Types].xml")
    ws = openpyxl.load_workbook(io.BytesIO(data), read_only=read_only).worksheets[0]
    got = [tuple(c.value for c in r) for r in ws.iter_rows(min_row=2, max_col=5)]
    got = [r + (None,) * (5 - len(r)) for r in got]  # read-only rows end at their last cell
    assert got == list(zip(*columns, strict=True))


@pytest.mark.parametrize("at", [0, 1, 299])
@pytest.mark.parametrize("odd", ["=sum", "@x", "\x00=y", "tail\n", "é=", ""])
def test_a_formula_start_or_line_break_in_any_one_cell_is_written_as_csv_writer_does(at, odd):
    # The column's checks read its joined bytes once: a formula start in the first or last
    # cell, a cell ending in a line break (the break then stands before the next cell's start)
    rng = random.Random(at)
    texts = [f"t{k}-{rng.choice(['a', 'é', 'ü'])}" for k in range(300)]
    texts[at] = odd + texts[at] if not odd.endswith("\n") else texts[at] + odd
    if at + 1 < len(texts):
        texts[at + 1] = "+" + texts[at + 1] if odd == "" else texts[at + 1]
    rows = [(t, k) for k, t in enumerate(texts)]
    for safe in (True, False):
        expected = csv_bytes(["text", "n"], rows, spreadsheet_safe=safe)
        assert (
            csv_column_bytes(["text", "n"], [texts, list(range(300))], spreadsheet_safe=safe)
            == expected
        )
