"""Streamed CSV reading with named columns, for the CSV report formats.

Like ``report_csv.read_table`` (column names matched ignoring case, spaces, ``-`` and ``_``;
``,`` ``;`` or tab sniffed from the first lines), but row by row from the file, through the
limits and encodings of ``source``, so a large report is not read whole first.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports import source
from model.asbuilt.reports.source import head_text, open_text, too_many_rows

_FOLD = str.maketrans("", "", " \t_-")


def fold(name: str) -> str:
    return name.strip().casefold().translate(_FOLD)


def header_of(path: Path) -> list[str]:
    """The folded column names of a CSV's first line ([] when it has none)."""
    text = head_text(path)
    first = text.splitlines()[0] if text.strip() else ""
    try:
        cells = next(csv.reader([first], _dialect(text)), [])
    except csv.Error:
        return []
    return [fold(c) for c in cells]


def has_columns(header: Sequence[str], *names: str) -> bool:
    return all(fold(n) in header for n in names)


def _dialect(sample: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(sample[:4096], delimiters=",;\t")
    except csv.Error:
        return csv.excel


def csv_rows(path: Path, columns: Mapping[str, Sequence[str]]) -> Iterator[tuple[int, list[str]]]:
    """(line, cells) for every non-empty row, the cells of ``columns`` in their order (not
    stripped); each logical column may have any of its names, an error names the first. Rows
    are lists, not dicts, to keep a 1 M-row report's per-row cost small."""
    dialect = _dialect(head_text(path))
    with open_text(path, newline="") as handle:
        reader = csv.reader(handle, dialect)
        try:
            header = next(reader, None)
            if not header:
                raise ReportError(f"{path}: empty file, expected a header line")
            folded = [fold(h) for h in header]
            where: list[int] = []
            for names in columns.values():
                found = [folded.index(fold(n)) for n in names if fold(n) in folded]
                if not found:
                    raise ReportError(
                        f"{path}: line 1 has no column {names[0]!r} "
                        f"(also accepted: {', '.join(repr(n) for n in names[1:]) or 'none'})"
                    )
                where.append(found[0])
            width = len(header)
            pad = [""] * width
            limit = source.MAX_ROWS
            line = reader.line_num
            for cells in reader:
                row_line, line = line + 1, reader.line_num
                if row_line > limit:
                    raise ReportError(too_many_rows(path))
                if len(cells) < width:
                    cells = cells + pad[len(cells) :]
                picked = [cells[i] for i in where]
                if any(picked) and any(c.strip() for c in picked):
                    yield row_line, picked
        except csv.Error as exc:
            raise ReportError(f"{path}: line {reader.line_num}: {exc}") from None
        except UnicodeDecodeError:
            raise ReportError(
                f"{path}: line {reader.line_num + 1} is not UTF-8 text (save the report as "
                "UTF-8 or UTF-16 with a byte-order mark)"
            ) from None
