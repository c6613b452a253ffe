"""CSV writer: a header and rows -> RFC 4180 bytes (UTF-8, CRLF), numbers as plain numbers.

``None`` and NaN are written as empty cells. ``spreadsheet_safe=True`` (the default, used for
the BOM, the schedule and the NetBox files, which people open in a spreadsheet before importing)
prefixes text cells that a spreadsheet would run as a formula (leading ``=``, ``+``, ``-``,
``@``, tab or CR: the OWASP CSV-injection list) with an apostrophe. Numbers are never text
here, so a negative number stays a number.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

from model.export import write_file

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object, spreadsheet_safe: bool) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return int(value) if value.is_integer() and abs(value) < 1e15 else repr(round(value, 6))
    if isinstance(value, str) and spreadsheet_safe and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_bytes(
    header: Sequence[str], rows: Iterable[Sequence[object]], *, spreadsheet_safe: bool = True
) -> bytes:
    """The complete CSV file as bytes."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    width = len(header)
    for row in rows:
        if len(row) != width:
            raise ValueError(f"row has {len(row)} cells, header has {width}")
        writer.writerow([_cell(v, spreadsheet_safe) for v in row])
    return buffer.getvalue().encode("utf-8")


def write_csv(
    path: str | Path,
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    spreadsheet_safe: bool = True,
) -> None:
    """Build the CSV in memory, then replace ``path`` atomically."""
    write_file(path, csv_bytes(header, rows, spreadsheet_safe=spreadsheet_safe))
