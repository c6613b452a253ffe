"""The BOM workbook's formula cells carry the values they compute, so a reader that does not
recalculate (pandas, importers, openpyxl's ``data_only``) sees the totals, not blanks."""

from __future__ import annotations

import openpyxl
import pytest

from model.engine.routed_links import RoutedLinks
from model.outputs.bom import bom_totals
from model.outputs.bom_files import export_bom
from model.outputs.writers.xlsx_writer import Formula, Sheet, workbook_bytes


def test_bom_totals_read_without_recalculation(tmp_path, pod):
    path = tmp_path / "bom.xlsx"
    lines = export_bom(path, pod, RoutedLinks(pod))
    formulas = list(openpyxl.load_workbook(path)["BOM"].values)
    values = list(openpyxl.load_workbook(path, data_only=True)["BOM"].values)
    header = values[0]
    col = {name: header.index(name) for name in header}
    quantity, unit = col["Quantity"], col["Unit price (USD, indicative)"]
    total = col["Total price (USD, indicative)"]
    for with_formula, row in zip(formulas[1:-1], values[1:-1], strict=True):
        assert str(with_formula[total]).startswith("=")  # still a formula
        assert row[total] == pytest.approx(row[quantity] * row[unit])
    totals = bom_totals(lines)
    last = values[-1]
    assert last[total] == pytest.approx(totals.price_usd)
    assert last[col["Total power typical (W)"]] == pytest.approx(totals.power_w)
    assert last[col["Total power max (W)"]] == pytest.approx(totals.power_w_max)
    assert str(formulas[-1][total]).startswith("=SUM(")


def test_a_formula_without_a_value_stays_empty(tmp_path):
    data = workbook_bytes([Sheet("S", ("a", "b", "c"), [(2, 3, Formula("=A2*B2"))])])
    (tmp_path / "s.xlsx").write_bytes(data)
    row = list(openpyxl.load_workbook(tmp_path / "s.xlsx", data_only=True)["S"].values)[1]
    assert row == (2, 3, None)
    data = workbook_bytes([Sheet("S", ("a", "b", "c"), [(2, 3, Formula("=A2*B2", 6))])])
    (tmp_path / "s.xlsx").write_bytes(data)
    row = list(openpyxl.load_workbook(tmp_path / "s.xlsx", data_only=True)["S"].values)[1]
    assert row == (2, 3, 6)
