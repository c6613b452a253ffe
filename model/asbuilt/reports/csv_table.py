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


def csv_rows(
    path: Path,
    columns: Mapping[str, Sequence[str]],
    optional: Mapping[str, Sequence[str]] | None = None,
) -> Iterator[tuple[int, dict[str, str]]]:
    """(line, {logical column: cell}) for every non-empty row; ``columns`` are required (the
    first name of each is the one an error names), ``optional`` ones are "" when absent."""
    dialect = _dialect(head_text(path))
    with open_text(path, newline="") as handle:
        reader = csv.reader(handle, dialect)
        try:
            header = next(reader, None)
            if not header:
                raise ReportError(f"{path}: empty file, expected a header line")
            folded = [fold(h) for h in header]
            where: dict[str, int] = {}
            for logical, names in columns.items():
                found = [folded.index(fold(n)) for n in names if fold(n) in folded]
                if not found:
                    raise ReportError(
                        f"{path}: line 1 has no column {names[0]!r} "
                        f"(also accepted: {', '.join(repr(n) for n in names[1:]) or 'none'})"
                    )
                where[logical] = found[0]
            absent = []
            for logical, names in (optional or {}).items():
                found = [folded.index(fold(n)) for n in names if fold(n) in folded]
                if found:
                    where[logical] = found[0]
                else:
                    absent.append(logical)
            line = reader.line_num
            for cells in reader:
                row_line, line = line + 1, reader.line_num
                if row_line > source.MAX_ROWS:
                    raise ReportError(too_many_rows(path))
                if not any(c.strip() for c in cells):
                    continue
                cells = cells + [""] * (len(header) - len(cells))
                row = {k: cells[i].strip() for k, i in where.items()}
                row.update(dict.fromkeys(absent, ""))
                yield row_line, row
        except csv.Error as exc:
            raise ReportError(f"{path}: line {reader.line_num}: {exc}") from None
        except UnicodeDecodeError:
            raise ReportError(
                f"{path}: line {reader.line_num + 1} is not UTF-8 text (save the report as "
                "UTF-8 or UTF-16 with a byte-order mark)"
            ) from None
