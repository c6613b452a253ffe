"""Bill of materials and cabling schedule files: BOM CSV, schedule CSV, and the XLSX workbook
with the sheets "Summary", "BOM", "Cabling schedule" and "Warnings" (a schedule past Excel's
1,048,575 rows goes on in "Cabling schedule (2)"...: model.outputs.writers.xlsx_writer)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from model.common.findings import Finding
from model.design.entities import FABRICS
from model.design.fabrics import FABRIC_LABELS
from model.outputs.bom import (
    BOM_COLUMNS,
    FABRIC_COLUMNS,
    BomLine,
    bom_total_line,
    bom_totals,
)
from model.outputs.schedule import SCHEDULE_COLUMNS, ScheduleRow, ScheduleTable
from model.outputs.writers.csv_writer import write_csv, write_csv_columns

if TYPE_CHECKING:
    from model.design.design import Design
    from model.engine.routed_links import RoutedLinks
    from model.outputs.writers.xlsx_writer import Sheet
    from model.structured.layout_records import StructuredLayout


def _no_step(_name: str) -> None:
    pass


XLSX_SHEETS = ("Summary", "BOM", "Cabling schedule", "Warnings")
BOM_HEADERS = (
    "Category",
    "Part number",
    "Vendor",
    "Description",
    "Length (m)",
    "Spare length, whole line (m)",
    "Quantity",
    *(f"Quantity: {FABRIC_LABELS[f]}" for f in FABRICS),
    "Spares",
    "Unit",
    "Unit power typical (W)",
    "Total power typical (W)",
    "Unit power max (W)",
    "Total power max (W)",
    "Unit price (USD, indicative)",
    "Total price (USD, indicative)",
    "Spares price (USD, indicative)",
    "Source",
)
# The cut sheet's columns as a reader names them (the CSV keeps the machine names).
SCHEDULE_HEADERS = {
    "cable_id": "Cable",
    "link_id": "Link",
    "label": "Label",
    "a_rack": "A rack",
    "a_u": "A U",
    "a_device": "A device",
    "a_port": "A port",
    "b_rack": "B rack",
    "b_u": "B U",
    "b_device": "B device",
    "b_port": "B port",
    "speed_gbps": "Speed (Gb/s)",
    "medium": "Medium",
    "medium_kind": "Medium kind",
    "length_m": "Routed length (m)",
    "ordered_length_m": "Ordered length (m)",
    "a_cage": "A cage",
    "b_cage": "B cage",
    "a_module": "A module",
    "b_module": "B module",
    "part": "Part number",
    "route": "Route",
}
# Columns whose cells are formulas in the XLSX: total = quantity (or spares) x unit figure.
_PRODUCTS = {
    "total_power_w": ("quantity", "unit_power_w"),
    "total_power_w_max": ("quantity", "unit_power_w_max"),
    "total_price_usd": ("quantity", "unit_price_usd"),
    "spares_price_usd": ("spares", "unit_price_usd"),
}
SUMMARY_HEADERS = ("Item", "Value", "Unit")
WARNING_HEADERS = ("Severity", "Code", "Message", "Objects")
_MONEY = "#,##0.00"
_POWER = "#,##0.0"


def write_bom_csv(path: str | Path, lines: Sequence[BomLine]) -> None:
    """BOM lines with machine-readable headers (units in the names) and a closing Total line."""
    rows = [ln.as_row() for ln in lines] + [bom_total_line(bom_totals(lines)).as_row()]
    write_csv(path, BOM_COLUMNS, rows)


def write_schedule_csv(path: str | Path, rows: ScheduleTable | Sequence[ScheduleRow]) -> None:
    """The cut sheet as CSV, formatted column by column (same bytes for a table or its rows)."""
    table = rows if isinstance(rows, ScheduleTable) else ScheduleTable.from_rows(rows)
    write_csv_columns(path, SCHEDULE_COLUMNS, table.column_list())


def bom_sheets(
    summary: Sequence[tuple],
    lines: Sequence[BomLine],
    schedule: ScheduleTable | Sequence[ScheduleRow],
    findings: Sequence[Finding],
) -> list[Sheet]:
    """The four sheets of the XLSX bill of materials, in order.

    On the BOM sheet every total is a formula (line totals = quantity x unit figure, the Total
    row = SUM of the column), so a purchaser who edits a quantity sees the totals follow.
    """
    # Imported here, not with the module: openpyxl's import (~0.2 s) is for workbooks only,
    # not for the BOM or schedule CSV.
    from model.outputs.writers.xlsx_writer import Sheet

    total = bom_total_line(bom_totals(lines))
    bom_rows = [_formula_row(ln.as_row(), n + 2) for n, ln in enumerate(lines)]
    bom_rows.append(_total_row(total.as_row(), bom_rows))
    col = {name: i for i, name in enumerate(BOM_COLUMNS)}
    money, power = (
        {col[c] for c in ("unit_price_usd", "total_price_usd", "spares_price_usd")},
        {
            col[c]
            for c in ("unit_power_w", "total_power_w", "unit_power_w_max", "total_power_w_max")
        },
    )
    formats = {col["length_m"]: "0.0##", col["spare_m"]: "#,##0.0", col["spares"]: "#,##0"}
    formats |= {col[c]: "#,##0" for c in ("quantity", *FABRIC_COLUMNS)}
    formats |= {c: _MONEY for c in money} | {c: _POWER for c in power}
    bom = Sheet(
        "BOM",
        BOM_HEADERS,
        bom_rows,
        formats=formats,
        bold_rows=frozenset({len(bom_rows) - 1}),
    )
    summary_sheet = Sheet(
        "Summary", SUMMARY_HEADERS, [tuple(r) for r in summary], formats={1: "#,##0.###"}
    )
    # Plain cells (no per-cell formats): 400k rows of styled cells would take minutes to write.
    # The coded columns (the CSV's): each distinct row of a run of columns is encoded once, and
    # the schedule's full per-row lists are never made.
    table = schedule if isinstance(schedule, ScheduleTable) else ScheduleTable.from_rows(schedule)
    headers = tuple(SCHEDULE_HEADERS.get(c, c) for c in SCHEDULE_COLUMNS)
    cabling = Sheet("Cabling schedule", headers, (), plain=True, columns=table.csv_columns())
    # Plain too (text only): a hall with thousands of findings (every far management link, say)
    # took seconds through openpyxl's cell-by-cell writer.
    warnings = Sheet(
        "Warnings",
        WARNING_HEADERS,
        [(f.severity, f.code, f.message, _objects_text(f.objects)) for f in findings],
        plain=True,
    )
    return [summary_sheet, bom, cabling, warnings]


def _letter(column: str) -> str:
    from model.outputs.writers.xlsx_columns import column_letter

    return column_letter(BOM_COLUMNS.index(column) + 1)


def _formula_row(row: tuple, excel_row: int) -> tuple:
    from model.outputs.writers.xlsx_writer import Formula

    out = list(row)
    for target, (count, unit) in _PRODUCTS.items():
        i = BOM_COLUMNS.index(target)
        if out[i] is not None:
            # The value stored with the formula is what a spreadsheet computes from the cells
            a, b = row[BOM_COLUMNS.index(count)], row[BOM_COLUMNS.index(unit)]
            value = a * b if _number(a) and _number(b) else None
            out[i] = Formula(f"={_letter(count)}{excel_row}*{_letter(unit)}{excel_row}", value)
    return tuple(out)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _total_row(row: tuple, line_rows: Sequence[tuple]) -> tuple:
    """The Total row: each total column the SUM of the line formulas above (their values)."""
    from model.outputs.writers.xlsx_writer import Formula

    out = list(row)
    for target in _PRODUCTS:
        i = BOM_COLUMNS.index(target)
        cells = [r[i] for r in line_rows]
        # SUM skips empty cells and text, as here
        value = sum((c.value or 0.0) if isinstance(c, Formula) else c for c in cells if _counted(c))
        letter = _letter(target)
        out[i] = Formula(f"=SUM({letter}2:{letter}{len(line_rows) + 1})", float(value))
    return tuple(out)


def _counted(cell: object) -> bool:
    from model.outputs.writers.xlsx_writer import Formula

    return cell.value is not None if isinstance(cell, Formula) else _number(cell)


def write_bom_xlsx(
    path: str | Path,
    summary: Sequence[tuple],
    lines: Sequence[BomLine],
    schedule: ScheduleTable | Sequence[ScheduleRow],
    findings: Sequence[Finding],
) -> None:
    from model.outputs.writers.xlsx_writer import write_xlsx

    write_xlsx(path, bom_sheets(summary, lines, schedule, findings))


def export_bom(
    path: str | Path,
    design: Design,
    plant: RoutedLinks,
    step: Callable[[str], None] = _no_step,
    fork: bool = False,
    suffix: str | None = None,
) -> list[BomLine]:
    """Write the bill of materials of ``design`` to ``path`` and return its lines: the one
    recipe of the command line and the editor.

    ``.csv``: one line per part. ``.xlsx``: sheets Summary, BOM, Cabling schedule and Warnings.
    ``step(name)`` is told as each stage ends ("counted" for a CSV; "analysed" and
    "scheduled", in the order they end, for a workbook), for progress. ``fork``: the BOM lines
    and the analysis behind the Warnings may run on a second core, in a forked child
    (:mod:`model.runtime.forked_call`: only a process with no other thread may ask), beside the
    cabling schedule; the workbook is the same.
    ``suffix``: the format when ``path`` does not say it (``-``, a device). Raises ExportError."""
    from model.outputs.bom import bom_lines
    from model.outputs.schedule import schedule_table

    if (suffix or Path(path).suffix.lower()) != ".xlsx":
        lines = bom_lines(design, plant)
        step("counted")
        write_bom_csv(path, lines)
        return lines
    from model.plant.physical_plant import build_plant
    from model.runtime.forked_call import ForkedCall, can_fork
    from model.structured.layout import structured_layout, uses_structured

    if not (fork and can_fork()):
        # One core: one physical plant (split by fabric, with per-link parts) for all sheets.
        lines, findings, summary, phys = _bom_and_findings(design, plant, with_links=True)
        step("analysed")
        schedule = schedule_table(design, plant, phys)
        step("scheduled")
    else:
        # Two halves, each with the physical plant it needs: the BOM's split by fabric (no
        # per-link parts), the schedule's per-link parts (no split). XL: the first half ~1.3 s,
        # the second ~1.4 s before its sheet, so on a second core the first costs no wall time;
        # two plants cost one core ~0.25 s more than one, which is why one core builds one.
        # The structured layout both halves read is laid out once, before the fork: the child
        # shares it (zoned XL: ~10 s of CPU the second plant laid out again).
        layout = structured_layout(plant) if uses_structured(design) else None

        def bom_half() -> tuple[list, list, list]:
            return _bom_and_findings(design, plant, with_links=False, layout=layout)[:3]

        with ForkedCall(bom_half, fork=True) as forked:
            phys = build_plant(plant, with_links=True, layout=layout)
            schedule = schedule_table(design, plant, phys)
            step("scheduled")
            lines, findings, summary = forked.result()
        step("analysed")
    write_bom_xlsx(path, summary, lines, schedule, findings)
    return lines


def _bom_and_findings(
    design: Design, plant: RoutedLinks, with_links: bool, layout: StructuredLayout | None = None
) -> tuple:
    """The BOM lines, the findings of the analysis, the Summary rows and the physical plant
    (split by fabric; with per-link parts when asked) they were read from, with one topology
    for the split and the analysis (the link fabrics are the same rules on the same ends:
    0.2 s at XL not spent twice)."""
    from model.analysis.topology import infer_topology
    from model.design.fabrics import plant_fabric_rows
    from model.outputs.bom import bom_lines, export_findings, summary_rows
    from model.plant.physical_plant import build_plant

    topology = infer_topology(design)
    fabric_rows = plant_fabric_rows(design, plant, topology.fabric)
    phys = build_plant(plant, with_links=with_links, fabric_rows=fabric_rows, layout=layout)
    lines = bom_lines(design, plant, phys)
    findings = export_findings(design, plant, phys, topology)
    return lines, findings, summary_rows(design, plant, lines, findings), phys


def _objects_text(objects: Sequence[str], limit: int = 50) -> str:
    """Ids of a finding's objects; long lists are cut (a cell holds at most 32,767 characters)."""
    text = ", ".join(objects[:limit])
    return text + (f" ... ({len(objects) - limit} more)" if len(objects) > limit else "")
