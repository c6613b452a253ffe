"""The per-segment schedule handed to the writers as coded column runs writes the same bytes as
its columns in full: the CSV and the XLSX sheet (cells and shared strings), on a pod with
cassettes and polarity records and on a hall whose links the schedule turns round."""

from __future__ import annotations

import numpy as np

from model.engine.routed_links import RoutedLinks
from model.outputs.schedule import SCHEDULE_COLUMNS, schedule_table
from model.outputs.schedule_segment_table import Coded, pick
from model.outputs.writers.csv_writer import CodedColumns, JoinedColumn, csv_column_bytes
from model.outputs.writers.xlsx_columns import columns_xml
from model.plant.physical_plant import build_plant
from tests.model.test_channel_table import _mixed, pod_file  # noqa: F401 (a fixture)
from tests.model.test_schedule_segment_columns import routed_by_hand


def _same_bytes_coded_and_full(design) -> None:
    plant = RoutedLinks(design)
    table = schedule_table(design, plant, build_plant(plant, with_links=True))
    coded = table.csv_columns()
    assert sum(isinstance(c, CodedColumns) for c in coded) == 7  # the runs, not full lists
    assert [isinstance(c, JoinedColumn) for c in coded[:3]] == [True, False, True]  # ids, labels
    full = table.column_list()
    assert len(full[0]) > 0 and {len(c) for c in full} == {len(table)}
    assert csv_column_bytes(SCHEDULE_COLUMNS, coded) == csv_column_bytes(SCHEDULE_COLUMNS, full)
    strings_coded: dict[str, int] = {}
    strings_full: dict[str, int] = {}
    assert columns_xml(coded, 2, strings_coded) == columns_xml(full, 2, strings_full)
    assert list(strings_coded) == list(strings_full)
    assert table.unordered_count() == table.columns["ordered_length_m"].count(None)
    values, codes = table.codes("route")
    assert [values[c] for c in codes.tolist()] == table.columns["route"]


def test_a_pod_with_cassettes_and_records_writes_the_same_bytes_coded(pod_file):  # noqa: F811
    _same_bytes_coded_and_full(_mixed(pod_file))


def test_turned_links_and_unorderable_cords_write_the_same_bytes_coded():
    _same_bytes_coded_and_full(routed_by_hand())


def test_pick_keeps_python_text_and_shifts_codes():
    turned = np.array([False, True, True])
    same = pick(turned, "", "")
    assert same == "" and type(same) is str  # not a numpy text array
    got = pick(turned, Coded(["a", "b"], np.array([0, 1, 1])), np.array(["x", "y", "z"], object))
    assert isinstance(got, Coded)
    assert got.cells().tolist() == ["a", "y", "z"]
    assert [type(v) for v in got.cells().tolist()] == [str, str, str]
