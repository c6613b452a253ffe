"""The exports' integer codes stay exact past int32 (the schedule's coded segment columns, the
cords' route keys) and the NetBox cable rows the panels make keep the cable file's columns."""

from __future__ import annotations

import numpy as np

from model.outputs import schedule_segment_table as table
from model.outputs.netbox.cables import CABLE_HEADER
from model.outputs.netbox.panel_records import CABLE_WIDTH, PanelExport
from model.outputs.netbox.panels import CABLE_ROW_TAIL, _cord_descriptions, _front_ports
from model.outputs.schedule_segment_table import Coded, CodedOut
from model.outputs.schedule_segments import _Segments


def test_the_panels_cable_rows_have_the_cable_files_columns():
    assert len(CABLE_WIDTH) == len(CABLE_HEADER) == 8 + len(CABLE_ROW_TAIL)
    assert CABLE_HEADER[8:] == CABLE_ROW_TAIL
    assert len(PanelExport().cable_columns) == len(CABLE_HEADER)


def test_a_coded_column_whose_values_pass_int32_gets_int64_codes(monkeypatch):
    # The codes index the column's values, which grow with each source put, not its rows: a
    # column of 4 rows here is given more values than an int32 code (set to 5) can index.
    monkeypatch.setattr(table, "CODE32_MAX", 5)
    out = CodedOut(4)
    assert out.codes["medium"].dtype == np.int32
    out.put("medium", np.array([0, 1]), Coded(["a", "b", "c"], np.array([2, 0])))
    assert out.codes["medium"].dtype == np.int32
    out.put("medium", np.array([2, 3]), Coded(["d", "e", "f", "g"], np.array([3, 1])))
    assert out.codes["medium"].dtype == np.int64
    assert out.full("medium") == ["c", "a", "g", "e"]


def test_cord_route_keys_do_not_overflow_int32_codes():
    # 60,000 racks: a from-rack code times the count of to-racks passes 2**31 in int32.
    racks = [f"R{k}" for k in range(60_000)]
    from_rack = Coded(racks, np.array([59_999, 5, 7], dtype=np.int32))
    to_rack = Coded(racks, np.array([59_998, 5, 59_999], dtype=np.int32))
    turned = np.array([False, False, True])
    route = _Segments._cord_routes(from_rack, to_rack, turned)
    assert route.cells().tolist() == ["R59999 > R59998", "(in rack)", "R59999 > R7"]


def test_front_ports_and_far_cassette_descriptions_per_slot():
    from types import SimpleNamespace

    number = np.array([3, 3, 12, 4], dtype=np.int64)
    slot = np.array([0, 2, 6, 1], dtype=np.int64)
    texts, code = _front_ports(number, slot)
    assert [texts[k] for k in code.tolist()] == ["F3", "C3-2", "C12-6", "C4-1"]
    plant = SimpleNamespace(media=[SimpleNamespace(id="m"), SimpleNamespace(id="other")])
    pair = np.array([0, 1, -1, 2], dtype=np.int64)  # the third link has no cord pair
    parts = ["", "OM4", "OM4"]
    medium = np.array([0, 0, -1, 1], dtype=np.int64)  # the third link has no medium
    texts, code = _cord_descriptions(slot, pair, parts, plant, medium)
    got = [texts[k] for k in code.tolist()]
    assert got[:4] == [  # at the links' A ends
        "patch cord [m]",
        "patch cord (OM4) [m]",
        "patch cord",
        "patch cord (OM4) [other]",
    ]
    assert got[4:] == [  # at their B ends: the far cassette's port
        "patch cord [m]",
        "patch cord, cassette port 5 (OM4) [m]",
        "patch cord, cassette port 1",
        "patch cord, cassette port 6 (OM4) [other]",
    ]


def test_leg_descriptions_per_leg_number_and_trunk_kind():
    from types import SimpleNamespace

    from model.outputs.netbox.panel_legs import _leg_descriptions

    trunks = [
        SimpleNamespace(legs=2, part="MPO-24-OM4"),
        SimpleNamespace(legs=3, part=""),
        SimpleNamespace(legs=2, part="MPO-24-OM4"),
    ]
    leg_no = np.array([1, 2, 1, 3, 2], dtype=np.int64)
    code = np.array([0, 0, 1, 1, 2], dtype=np.int64)
    texts, at = _leg_descriptions(leg_no, code, trunks)
    assert [texts[k] for k in at.tolist()] == [
        "leg 1 of 2 of one MPO-24-OM4 trunk",
        "leg 2 of 2 of one MPO-24-OM4 trunk, length on leg 1",
        "leg 1 of 3 of one MPO trunk",
        "leg 3 of 3 of one MPO trunk, length on leg 1",
        "leg 2 of 2 of one MPO-24-OM4 trunk, length on leg 1",
    ]


def test_table_chunks_made_a_block_at_a_time_match_the_row_writer(monkeypatch):
    # Cells made BLOCK_CHUNKS chunks at a time: a column whose blocks differ in kind (text
    # needing quotes or a formula prefix in one block, plain in another; ints, then floats
    # and None) must give each cell the text the whole column gave it.
    from model.outputs.netbox import columns as netbox_columns
    from model.outputs.netbox.columns import Lookup, Repeat, Table, table_chunks
    from model.outputs.writers.csv_writer import csv_chunks

    monkeypatch.setattr(netbox_columns, "BLOCK_CHUNKS", 2)
    n = 23
    text = [f"cable {k}" for k in range(n)]
    text[17], text[18], text[20] = "=cmd", 'a, "b"', "line\nbreak"
    numbers: list = list(range(n))
    numbers[15:] = [2.5, None, 3.0, float("nan"), -0.0, 1e20, 7, True]
    columns = [
        text,
        Repeat("site", n),
        numbers,
        Lookup(["x", "y,z", "+1"], np.arange(n) % 3),
        Lookup({"k": "v", "j": "=w"}, ["k", "j"] * 11 + ["k"]),
    ]
    table = Table(("a", "b", "c", "d", "e"), columns)
    rows = list(zip(*[c if isinstance(c, list) else c.tolist() for c in columns], strict=True))
    for chunk_rows in (1, 3, 5, 50):
        assert table_chunks(table, chunk_rows) == csv_chunks(table.header, rows, chunk_rows)
