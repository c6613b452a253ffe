"""Reader of NVIDIA UFM Cable Validation Tool (CVT) link tables: the 1.7+ workbook and CSV.

Based on NVIDIA's CVT documentation (docs.nvidia.com/networking, "Cable Validation Tool",
Topology Files / P2P File): a link table has the columns A-Node Name, A-Port, Z-Node Name and
Z-Port (with A-Rack, A-U, A-Type, Z-Rack, Z-RU, Z-Type beside them); from 1.7 the workbook
has a Nodes sheet and a Links sheet and every link a Protocol (as issue #40 records the 1.7.1
documentation; the reader finds the link columns on whichever sheet has them). A port is a switch port number
or split port (``1``, ``9/1``) or, on a host, an HCA port number mapped by the tool's default
HCA mapping (``1`` is ``mlx5_0`` ...), or a name (``sw1p1``). The installer's copy of the
table, as cabled, is what the check compares with the design; the port names are mapped by the
check (``model.asbuilt.port_aliases``). Every sheet of the workbook that has the link columns
is read (the Nodes sheet has not, and is skipped); a row is named by its sheet and row number.

The workbook is read with openpyxl in read-only (streaming) mode after its declared size and
the uncompressed size of its parts are checked against the report limits.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports import source
from model.asbuilt.reports.csv_table import csv_rows, fold, has_columns, header_of
from model.asbuilt.reports.source import (
    Neighbour,
    checked_size,
    neighbour,
    too_many_rows,
)

NAME = "cvt"

COLUMNS = {
    "a_node": ("A-Node Name", "A-Node", "A Node Name"),
    "a_port": ("A-Port", "A Port", "A-HCA/Port"),
    "z_node": ("Z-Node Name", "Z-Node", "Z Node Name"),
    "z_port": ("Z-Port", "Z Port"),
}
XLSX_MAGIC = b"PK\x03\x04"


def looks_like_csv(path: Path) -> bool:
    header = header_of(path)
    return has_columns(header, "A-Node Name", "Z-Node Name") or has_columns(
        header, "A-Node", "Z-Node"
    )


def is_workbook(path: Path) -> bool:
    checked_size(path)
    try:
        with path.open("rb") as handle:
            return handle.read(4) == XLSX_MAGIC
    except OSError:
        return False


def read(path: Path) -> Iterator[Neighbour]:
    if is_workbook(path):
        yield from _read_workbook(path)
        return
    for line, (a_node, a_port, z_node, z_port) in csv_rows(path, COLUMNS):
        yield neighbour(path, line, (a_node, a_port), (z_node, z_port))


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    for name in names:
        if fold(name) in header:
            return header.index(fold(name))
    return None


def _read_workbook(path: Path) -> Iterator[Neighbour]:
    from openpyxl import load_workbook  # only a workbook needs it

    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise ReportError(f"{path}: not a readable .xlsx workbook ({exc})") from None
    if unpacked > source.MAX_REPORT_BYTES:
        raise ReportError(
            f"{path}: the workbook unpacks to {source.amount(unpacked)}, over the "
            f"{source.amount(source.MAX_REPORT_BYTES)} a report may have"
        )
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise ReportError(f"{path}: not a readable .xlsx workbook ({exc})") from None
    try:
        found = False
        for sheet in book.worksheets:
            if (sheet.max_row or 0) > source.MAX_ROWS:
                raise ReportError(too_many_rows(path))
            rows = sheet.iter_rows(values_only=True)
            first = next(rows, None)
            header = [fold(str(c)) if c is not None else "" for c in (first or ())]
            where = {k: _column(header, names) for k, names in COLUMNS.items()}
            if None in where.values():
                continue
            found = True
            for number, cells in enumerate(rows, start=2):
                if number > source.MAX_ROWS:
                    raise ReportError(too_many_rows(path))
                values = {
                    k: "" if i is None or i >= len(cells) or cells[i] is None else str(cells[i])
                    for k, i in where.items()
                }
                if not any(v.strip() for v in values.values()):
                    continue
                yield neighbour(
                    path,
                    number,
                    (values["a_node"], _port_text(values["a_port"])),
                    (values["z_node"], _port_text(values["z_port"])),
                    where=f"sheet {sheet.title} row {number}",
                )
        if not found:
            raise ReportError(
                f"{path}: no sheet has the CVT link columns 'A-Node Name', 'A-Port', "
                "'Z-Node Name', 'Z-Port'"
            )
    finally:
        book.close()


def _port_text(value: str) -> str:
    """A port number a spreadsheet stored as a number (``1.0``) as the tool writes it (``1``)."""
    return value[:-2] if value.endswith(".0") and value[:-2].isdigit() else value
