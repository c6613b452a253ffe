"""The column-wise exports equal the row-by-row builders they replace (issue #13).

The old builders are kept here as the reference: the cabling schedule (one ``ScheduleRow`` per
link, sorted by natural-order tuples), the ``routes``
report (one ``route()`` and ``reason()`` per link) and the CSV writer (``csv.writer`` per row);
the XLSX plain-sheet XML is read back cell by cell (shared strings, cells without references).
They run on generated fabrics of every template and under every media policy.
"""

from __future__ import annotations

import io
import math
import random
from collections import Counter
from collections.abc import Sequence
from xml.etree import ElementTree

import numpy as np
import pytest
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import column_index_from_string

from model.catalog.components import builtin_catalog
from model.common.natural_sort import natural_key
from model.design.design import Design
from model.engine.cage_labels import cage_reasons
from model.engine.media import POLICIES
from model.engine.media_words import explain_lengths
from model.engine.routed_links import NO_MEDIUM, NO_TRAY_PATH, SAME_RACK, RoutedLinks
from model.generators.generate import generate
from model.outputs.bom import _round
from model.outputs.bom_parts import row_number
from model.outputs.schedule import ScheduleRow, ScheduleTable, schedule_rows, schedule_table
from model.outputs.writers.csv_writer import csv_bytes, csv_chunks, csv_column_bytes
from model.outputs.writers.xlsx_columns import MAIN_NS as _MAIN_NS
from model.outputs.writers.xlsx_columns import columns_xml as _columns_xml
from model.outputs.writers.xlsx_columns import strings_xml as _strings_xml
from model.plant.physical_plant import PhysicalPlant, build_plant
from tests.model.media_oracle import explain

FABRICS = {
    "superpod-2su": (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    ),
    "leaf-spine-3to1": (
        "leaf-spine",
        dict(nodes=48, node_type="dgx-h100", switch="qm9700", oversubscription=3),
    ),
    "fat-tree-k8": ("fat-tree", dict(k=8)),
    "nvl72-4": ("nvl72", dict(racks=4, switch="qm9700")),
}


# The old schedule's own helpers, kept with the oracle that uses them (the BOM no longer needs
# them: it reads the plant column-wise).
def _link_medium(plant, i: int):
    m = int(plant.medium_index[i])
    return plant.media[m] if m >= 0 else None


def _num(value: float) -> float | None:
    value = float(value)
    return None if math.isnan(value) else value


@pytest.fixture(scope="module", params=sorted(FABRICS))
def fabric(request) -> Design:
    template, params = FABRICS[request.param]
    return generate(template, **params)


def _old_route_trays(plant: RoutedLinks, link_id: str) -> list[str] | None:
    try:
        return list(plant.route(link_id).tray_ids)
    except (AttributeError, KeyError, IndexError):
        return None


# ---- the row-by-row schedule builder this change replaced (main at 040728d)


def _old_schedule_rows(
    design: Design, plant: RoutedLinks, phys: PhysicalPlant | None = None
) -> list[ScheduleRow]:
    """One row per link (backplane links excluded), sorted for installers rack by rack.

    ``cable_id`` names the physical assembly (the two links of a straight twin-port cable share
    one: the smaller link id + "+"; a fibre or a single-link cable has its link's id);
    ``a_cage``/``b_cage`` the cages, ``a_module``/``b_module`` the module part numbers (empty
    for an integrated cable's end), ``part`` the cable's or fibre's part number at its length.
    """
    racks, devices, trays = design.racks, design.devices, design.trays
    if phys is None or not phys.link_parts:
        phys = build_plant(plant, with_links=True)
    parts = phys.link_parts
    types = design.catalog.device_types
    # Cables leaving the same rack face for the same rack face follow the same trays (the
    # engine routes between per-face drop points), so ask the engine once per pair of faces.
    route_cache: dict[tuple[str, str, str, str], list[str] | None] = {}
    rows: list[tuple[tuple, ScheduleRow]] = []
    for link_id, link in design.links.items():
        i = plant.index.get(link_id)
        medium = _link_medium(plant, i) if i is not None else None
        if medium is not None and medium.kind == "backplane":
            continue
        ends = []
        for end in (link.a, link.b):
            device = devices[end.device]
            rack_name = racks[device.rack].name
            ends.append(
                (
                    natural_key(rack_name),
                    device.u,
                    natural_key(end.port),
                    rack_name,
                    device.name,
                    end.port,
                )
            )
        swapped = ends[1][:3] < ends[0][:3]
        a, b = (ends[1], ends[0]) if swapped else (ends[0], ends[1])
        status = int(plant.status[i]) if i is not None else NO_MEDIUM
        dev_a, dev_b = devices[link.a.device], devices[link.b.device]
        key = (dev_a.rack, types[dev_a.type].ports_face, dev_b.rack, types[dev_b.type].ports_face)
        if status & (SAME_RACK | NO_TRAY_PATH):
            tray_ids = None
        elif key in route_cache:
            tray_ids = route_cache[key]
        else:
            tray_ids = route_cache[key] = _old_route_trays(plant, link_id)
        route = _old_route_text(tray_ids, status, trays, swapped)
        length = _num(plant.length_m[i]) if i is not None else None
        ordered = _num(plant.ordered_m[i]) if i is not None and medium is not None else None
        speed = float(plant.speed_gbps[i]) if i is not None else 0.0
        label = link.label or f"{a[3]}-U{a[1]}-{a[5]} to {b[3]}-U{b[1]}-{b[5]}"
        cable_id, a_cage, b_cage, a_module, b_module, part = parts.get(
            link_id, (link_id, "", "", "", "", "")
        )
        if swapped:
            a_cage, b_cage, a_module, b_module = b_cage, a_cage, b_module, a_module
        row = ScheduleRow(
            cable_id=cable_id,
            link_id=link_id,
            label=label,
            a_rack=a[3],
            a_u=a[1],
            a_device=a[4],
            a_port=a[5],
            b_rack=b[3],
            b_u=b[1],
            b_device=b[4],
            b_port=b[5],
            speed_gbps=speed if speed % 1 else int(speed),
            medium=medium.id if medium else "",
            medium_kind=medium.kind if medium else "",
            length_m=_round(length),
            ordered_length_m=_round(ordered, 3),
            a_cage=a_cage,
            b_cage=b_cage,
            a_module=row_number(a_module),  # the BOM's numbers (quote where EST-)
            b_module=row_number(b_module),
            part=row_number(part),
            route=route,
        )
        rows.append(((a[0], a[1], a[2], b[0], b[1], b[2], link_id), row))
    rows.sort(key=lambda kr: kr[0])
    out = [row for _, row in rows]
    seen = Counter(row.label for row in out)
    if any(n > 1 for n in seen.values()):
        from msgspec.structs import replace

        out = [
            replace(row, label=f"{row.label} #{row.link_id}") if seen[row.label] > 1 else row
            for row in out
        ]
    return out


def _old_route_text(tray_ids, status: int, trays: dict, swapped: bool) -> str:
    """The route column of one link as the row builder wrote it (one name lookup per tray)."""
    if status & SAME_RACK:
        return "(in rack)"
    if status & NO_TRAY_PATH:
        return "(no tray path: floor run)"
    if tray_ids is None:
        return ""
    ordered = reversed(tray_ids) if swapped else tray_ids
    names: list[str] = []
    for tray_id in ordered:
        name = (trays[tray_id].name or tray_id) if tray_id in trays else tray_id
        if not names or names[-1] != name:
            names.append(name)
    return " > ".join(names)


# ---- the XLSX plain-sheet XML, read back cell by cell


def _expected_cells(rows: Sequence[Sequence[object]], start: int) -> dict:
    """(row, column) -> (cell type, text) of every cell the sheet must hold: what the old
    cell-by-cell writer wrote (no cell for None, NaN or infinity; text cleaned of controls)."""
    out = {}
    for n, row in enumerate(rows, start=start):
        for col, value in enumerate(row, start=1):
            if value is None or (isinstance(value, float) and not math.isfinite(value)):
                continue
            if isinstance(value, str):
                # An XML parser reads a CR as a line feed (XML 1.0, 2.11), as from openpyxl's
                text = ILLEGAL_CHARACTERS_RE.sub("", value).replace("\r\n", "\n")
                out[n, col] = ("s", text.replace("\r", "\n"))
            elif isinstance(value, bool):
                out[n, col] = ("b", str(int(value)))
            else:
                out[n, col] = ("n", repr(value))
    return out


def _read_cells(xml: bytes, strings: dict[str, int], start: int, n_rows: int) -> dict:
    """The cells of sheet XML rows as a spreadsheet reads them: a cell without an ``r``
    reference is the next column of its row, ``t="s"`` indexes the shared strings (their part
    as written), no ``t`` is a number. Checks that every row is there, in order, each numbered."""
    assert list(strings.values()) == list(range(len(strings)))
    sst = ElementTree.fromstring(b"".join(_strings_xml(strings)))
    table = [si.find(f"{{{_MAIN_NS}}}t").text or "" for si in sst]
    assert len(table) == int(sst.get("uniqueCount")) == len(strings)
    root = ElementTree.fromstring(b"<sheetData>" + xml + b"</sheetData>")
    assert [int(r.get("r")) for r in root] == list(range(start, start + n_rows))
    out = {}
    for row in root:
        col = 0
        for cell in row:
            ref = cell.get("r")
            if ref is not None:
                letters = ref.rstrip("0123456789")
                assert ref[len(letters) :] == row.get("r")
                assert column_index_from_string(letters) > col
                col = column_index_from_string(letters)
            else:
                col += 1
            kind = cell.get("t", "n")
            if kind == "inlineStr":
                text = cell.find("is/t").text or ""
                out[int(row.get("r")), col] = ("s", text)
            elif kind == "s":
                out[int(row.get("r")), col] = ("s", table[int(cell.find("v").text)])
            else:
                out[int(row.get("r")), col] = (kind, cell.find("v").text)
    return out


def _check_sheet_xml(columns, rows, start: int) -> None:
    strings: dict[str, int] = {"already there": 0}  # a table other chunks started
    xml = _columns_xml(columns, start, strings)
    assert _read_cells(xml, strings, start, len(rows)) == _expected_cells(rows, start)


@pytest.mark.parametrize("policy", POLICIES)
def test_column_wise_schedule_equals_the_row_builder(fabric, policy):
    plant = RoutedLinks(fabric, policy)
    assert schedule_rows(fabric, plant) == _old_schedule_rows(fabric, plant)


def test_schedule_with_labels_duplicates_and_unknown_links_equals_the_row_builder(fabric):
    import msgspec

    from model.files.design_file import design_to_bytes, read_design_bytes

    # A copy: the module's design is shared by the tests after this one, which would see labels
    design = read_design_bytes(design_to_bytes(fabric))
    ids = sorted(design.links)[:6]

    design.update_links(
        [msgspec.structs.replace(design.links[i], label="same label") for i in ids[:3]]
        + [msgspec.structs.replace(design.links[ids[3]], label="=SUM(A1)")]
    )
    plant = RoutedLinks(design)
    assert schedule_rows(design, plant) == _old_schedule_rows(design, plant)


def test_schedule_table_round_trips_its_rows(fabric):
    plant = RoutedLinks(fabric)
    table = schedule_table(fabric, plant)
    rows = table.rows()
    assert ScheduleTable.from_rows(rows).columns == table.columns
    assert len(table) == len(rows) == len(table.a_device_id)
    by_id = {r.link_id: r for r in rows}
    for lid, a_dev in zip(table.columns["link_id"], table.a_device_id, strict=True):
        assert fabric.devices[a_dev].name == by_id[lid].a_device


def test_schedule_csv_is_the_csv_of_its_rows(fabric):
    plant = RoutedLinks(fabric)
    table = schedule_table(fabric, plant)
    from model.outputs.schedule import SCHEDULE_COLUMNS

    rows = [r.as_row() for r in table.rows()]
    assert csv_column_bytes(SCHEDULE_COLUMNS, table.column_list()) == csv_bytes(
        SCHEDULE_COLUMNS, rows
    )


def test_xlsx_sheet_xml_of_the_columns_equals_the_cell_by_cell_xml(fabric):
    plant = RoutedLinks(fabric)
    table = schedule_table(fabric, plant)
    rows = [r.as_row() for r in table.rows()]
    _check_sheet_xml(table.column_list(), rows, start=2)


_VALUES = [
    None,
    math.nan,
    math.inf,
    1.0,
    -0.0,
    2.5,
    1e20,
    3,
    -7,
    True,
    False,
    "",
    "a,b",
    'q"x',
    "=1+2",
    "-x",
    "\tx",
    "line\nb",
    "\r",
    " sp",
    "sp ",
    "@",
    "plain",
    "a&b<c>",
    "é=",
    "x\n=y",
    "{0}",
    "\x01bad",
    0.1 + 0.2,
    12345678901234567.0,
]


@pytest.mark.parametrize("seed", range(20))
def test_column_writers_equal_the_row_writers_on_mixed_values(seed):
    rng = random.Random(seed)
    width, n = rng.randint(2, 6), rng.randint(0, 60)
    pools = [rng.sample(_VALUES, rng.randint(1, 6)) for _ in range(width)]
    rows = [tuple(rng.choice(pool) for pool in pools) for _ in range(n)]
    columns = [list(c) for c in zip(*rows, strict=True)] if rows else [[] for _ in range(width)]
    header = [f"h{k}" for k in range(width)]
    for safe in (True, False):
        assert csv_column_bytes(header, columns, spreadsheet_safe=safe) == csv_bytes(
            header, rows, spreadsheet_safe=safe
        )
        chunks = csv_chunks(header, rows, 7, spreadsheet_safe=safe)
        assert chunks == [
            csv_bytes(header, rows[i : i + 7], spreadsheet_safe=safe)
            for i in range(0, max(len(rows), 1), 7)
        ]
    if rows:
        _check_sheet_xml(columns, rows, start=5)


@pytest.mark.parametrize("policy", POLICIES)
def test_bulk_reasons_and_route_words_equal_the_per_link_ones(fabric, policy):
    plant = RoutedLinks(fabric, policy)
    rows = np.arange(len(plant.link_ids))
    reasons = plant.reasons(rows)
    words = plant.route_descriptions(rows)
    for r, link_id in enumerate(plant.link_ids):
        assert reasons[r] == plant.reason(link_id)
        assert words[r] == plant.route(link_id).describe()
        assert plant.route_tray_ids(link_id) == list(plant.route(link_id).tray_ids)


def test_bulk_cage_words_equal_the_per_link_ones(fabric):
    from model.engine.cage_words import cage_reason_columns

    plant = RoutedLinks(fabric)
    rows = np.arange(len(plant.link_ids))
    words_a, words_b = cage_reason_columns(plant, rows)
    for r, link_id in enumerate(plant.link_ids):
        assert (words_a[r], words_b[r]) == cage_reasons(plant, link_id)


def test_routes_report_equals_the_per_link_report(fabric):
    from cli.routes_command import route_report
    from tests.model.test_routes_report import _reference_report

    plant = RoutedLinks(fabric)
    assert route_report(fabric, plant) == _reference_report(fabric, plant)


def test_choice_words_for_many_lengths_equal_the_one_length_words():
    # The built-in catalog's media: what every fabric of this module has (it ran once per
    # fabric, the same 400 cases on the same 39 media each time).
    media = list(builtin_catalog().media_types.values())
    rng = random.Random(3)
    for _ in range(400):
        cands = rng.sample(range(len(media)), rng.randint(0, min(6, len(media))))
        chosen = rng.choice([*cands, -1, rng.randrange(len(media))])
        policy, lane = rng.choice(POLICIES), rng.choice([25.0, 50.0, 100.0, 200.0])
        pinned = chosen >= 0 and rng.random() < 0.1
        lengths = np.array([round(rng.uniform(0.1, 150), rng.choice([1, 2, 3])) for _ in range(15)])
        assert explain_lengths(media, cands, lengths, chosen, policy, lane, pinned) == [
            explain(media, cands, float(x), chosen, policy, lane, pinned) for x in lengths
        ]


def test_progress_stays_off_stderr_that_is_not_a_terminal():
    from cli.progress import Progress

    pipe = io.StringIO()
    progress = Progress("schedule", stream=pipe, after_s=0.0)
    progress.step("routed")
    progress.done()
    assert pipe.getvalue() == ""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Terminal()
    quick = Progress("schedule", stream=tty, after_s=3600.0)
    quick.step("routed")
    assert tty.getvalue() == ""  # under a second (here: an hour): nothing
    slow = Progress("schedule", stream=tty, after_s=0.0)
    slow.step("routed")
    assert "schedule: routed (" in tty.getvalue()
    slow.done()
    assert tty.getvalue().endswith("\r\x1b[K")


def test_schedule_csv_of_coded_columns_is_the_csv_of_its_rows(fabric):
    """The CSV command writes ``csv_columns()`` (runs of columns formatted once per distinct
    row): the bytes of the full columns, for a design as generated and as loaded from its file
    (the ends read from the loader's codes), with labels that need quotes or a prefix."""
    import msgspec

    from model.files.design_file import design_to_bytes, read_design_bytes
    from model.outputs.schedule import SCHEDULE_COLUMNS

    loaded = read_design_bytes(design_to_bytes(fabric))
    ids = sorted(loaded.links)[:3]
    edited = read_design_bytes(design_to_bytes(fabric))
    edited.update_links(
        [msgspec.structs.replace(edited.links[ids[0]], label='=a,"b"')]
        + [msgspec.structs.replace(edited.links[i], label="same") for i in ids[1:]]
    )
    for design in (fabric, loaded, edited):
        plant = RoutedLinks(design)
        table = schedule_table(design, plant)
        rows = [r.as_row() for r in table.rows()]
        assert table.coded is not None
        assert csv_column_bytes(SCHEDULE_COLUMNS, table.csv_columns()) == csv_bytes(
            SCHEDULE_COLUMNS, rows
        )
        assert schedule_rows(design, plant) == _old_schedule_rows(design, plant)


@pytest.mark.parametrize("seed", range(10))
def test_coded_columns_write_the_bytes_of_the_full_columns(seed):
    from model.outputs.writers.csv_writer import CodedColumns

    rng = random.Random(seed)
    n = rng.randint(0, 40)
    groups, full = [], []
    for _ in range(rng.randint(1, 4)):
        width = rng.randint(1, 3)
        distinct = [tuple(rng.choice(_VALUES) for _ in range(width)) for _ in range(5)]
        codes = np.array([rng.randrange(5) for _ in range(n)], dtype=np.int64)
        groups.append(CodedColumns(distinct, codes, width))
        full += [[distinct[c][j] for c in codes.tolist()] for j in range(width)]
    header = [f"h{k}" for k in range(len(full))]
    for safe in (True, False):
        assert csv_column_bytes(header, groups, spreadsheet_safe=safe) == csv_column_bytes(
            header, full, spreadsheet_safe=safe
        )


@pytest.mark.parametrize("seed", range(3))
def test_coded_and_plain_columns_over_several_joins_write_the_rows_bytes(seed):
    """The column-wise writer joins its rows a few thousand at a time, folding the separator
    after a coded column into its texts: the rows at and across those joins (and a coded
    column last, which carries the line break) are still csv.writer's."""
    from model.outputs.writers.csv_writer import _JOIN_ROWS, CodedColumns

    rng = random.Random(seed)
    n = 2 * _JOIN_ROWS + rng.randint(1, _JOIN_ROWS)
    columns, full = [], []
    for k in range(rng.randint(2, 6)):
        if k % 2 == rng.randint(0, 1):
            width = rng.randint(1, 3)
            distinct = [tuple(rng.choice(_VALUES) for _ in range(width)) for _ in range(7)]
            codes = np.array([rng.randrange(7) for _ in range(n)], dtype=np.int64)
            columns.append(CodedColumns(distinct, codes, width))
            full += [[distinct[c][j] for c in codes.tolist()] for j in range(width)]
        else:
            column = [rng.choice(_VALUES) for _ in range(n)]
            columns.append(column)
            full.append(column)
    header = [f"h{k}" for k in range(len(full))]
    rows = list(zip(*full, strict=True))
    for safe in (True, False):
        expected = csv_bytes(header, rows, spreadsheet_safe=safe)
        assert csv_column_bytes(header, columns, spreadsheet_safe=safe) == expected
