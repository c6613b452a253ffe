"""Reading the CSV files installers and tools hand back: named columns, clear errors.

Column names are matched ignoring case, spaces, ``-`` and ``_``, and each logical column accepts
the names the usual tools write (LLDP neighbour tables, ibnetdiscover conversions, cut sheets).
A problem names the file, the line and what was expected, as every bad input does.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

# The largest report read: the XL hall's neighbour table (two rows for each of ~400,000 links,
# ~80 bytes a row) is ~64 MB; four times that is still read in bounded memory (~2.5 GB of
# cells at most), a 10 GB file by mistake is not
MAX_REPORT_BYTES = 256 * 2**20


class ReportError(Exception):
    """A report file cannot be used; ``str()`` names the file, the line and the problem."""


_FOLD = re.compile(r"[\s_\-]+")


def _fold(name: str) -> str:
    return _FOLD.sub("", name.strip().casefold())


def read_table(
    path: str | Path,
    columns: Mapping[str, Sequence[str]],
    optional: Mapping[str, Sequence[str]] | None = None,
    dialect: type[csv.Dialect] | None = None,
    skipped: list[tuple[int, str]] | None = None,
) -> list[tuple[int, dict[str, str]]]:
    """(line number, {logical column: cell}) for every non-empty row of a CSV file.

    ``columns`` maps each logical column to the header names it may have; all are required.
    ``optional`` columns are read when the file has them and are ``""`` when it has not.
    ``dialect``: the file's CSV dialect when the writer is known (NetBox writes excel's);
    otherwise it is sniffed, which a cell of quoted JSON can mislead.
    ``skipped``: when given, a row csv cannot read (a cell over its 128 KiB field limit) is
    left out and listed there as (line, csv's message) instead of failing the file, and a
    row's line is the one it begins on.
    """
    path = Path(path)
    text = _text(path)
    if dialect is None:
        try:
            dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
    # newline=None: universal newlines, so a file with CR-only line ends (old Mac tools) reads
    # as lines too instead of one unquoted field holding line breaks
    reader = (
        csv.reader(io.StringIO(text, newline=None), dialect)
        if skipped is None
        else _SkippingReader(text, dialect, skipped)
    )
    try:
        return _rows(path, reader, columns, optional or {})
    except csv.Error as exc:  # a cell over csv's field limit (128 KiB), a stray quote
        raise ReportError(f"{path}: line {reader.line_num}: not readable as CSV ({exc})") from None


def _text(path: Path) -> str:
    """The file's text: UTF-8 (with or without a BOM), or UTF-16/32 with their BOM."""
    try:
        size = path.stat().st_size
        if size > MAX_REPORT_BYTES:  # before reading: a row takes ~10x its bytes as cells
            raise ReportError(
                f"{path}: {size / 2**20:,.0f} MiB; a report or length file may be at most "
                f"{MAX_REPORT_BYTES // 2**20} MiB"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    encoding = "utf-8-sig"
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        encoding = "utf-32"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a UTF-8 text file") from None
    nul = text.find("\x00")
    if nul >= 0:  # UTF-16 without its byte-order mark decodes as UTF-8 with a NUL every other byte
        line = text.count("\n", 0, nul) + 1
        raise ReportError(
            f"{path}: line {line} holds a NUL character: not a text file, or UTF-16 without "
            "a byte-order mark (save it as UTF-8)"
        )
    return text


def _rows(
    path: Path,
    reader,
    columns: Mapping[str, Sequence[str]],
    optional: Mapping[str, Sequence[str]],
) -> list[tuple[int, dict[str, str]]]:
    header = next(reader, None)
    if not header:
        raise ReportError(f"{path}: empty file, expected a header line")
    folded = [_fold(h) for h in header]
    where: dict[str, int] = {}
    for logical, names in columns.items():
        for name in names:
            if _fold(name) in folded:
                where[logical] = folded.index(_fold(name))
                break
        else:
            raise ReportError(
                f"{path}: line 1 has no column {names[0]!r} "
                f"(also accepted: {', '.join(repr(n) for n in names[1:]) or 'none'})"
            )
    missing = []
    for logical, names in optional.items():
        found = [folded.index(_fold(n)) for n in names if _fold(n) in folded]
        if found:
            where[logical] = found[0]
        else:
            missing.append(logical)
    rows = []
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) < len(header):
            cells = cells + [""] * (len(header) - len(cells))
        row = {k: cells[i].strip() for k, i in where.items()}
        row.update(dict.fromkeys(missing, ""))
        rows.append((line, row))
    return rows


def _records(text: str, dialect) -> Iterator[tuple[int, str]]:
    """(first line, text) of each record of ``text``: a quote opening a cell (at a line's
    start or after a delimiter) runs to the quote that closes it (a doubled one is a quote
    in the cell), so a cell holding line breaks stays in its record; line ends as
    ``newline=None`` reads them."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    quote, delimiter = re.escape(dialect.quotechar or '"'), re.escape(dialect.delimiter)
    opening = re.compile(f"(?:^|{delimiter}){quote}|\n", re.MULTILINE)
    closing = re.compile(f"[^{quote}]*(?:{quote}{quote}[^{quote}]*)*{quote}(?!{quote})")
    start, at, line = 0, 0, 1
    while start < len(text):
        found = opening.search(text, at)
        if found is not None and found[0] != "\n":
            cell = closing.match(text, found.end())
            if cell is not None:
                at = cell.end()
                continue
            found = None  # a quote never closed: the rest is its record
        if found is None:
            yield line, text[start:]
            return
        yield line, text[start : found.end()]
        line += text.count("\n", start, found.end())
        start = at = found.end()


class _SkippingReader:
    """csv.reader's rows record by record, a record it cannot read listed in ``skipped`` and
    left out (the header is never left out: the file then fails as before)."""

    def __init__(self, text: str, dialect, skipped: list[tuple[int, str]]) -> None:
        self._records = _records(text, dialect)
        self._dialect = dialect
        self._skipped = skipped
        self.line_num = 0

    def __iter__(self) -> _SkippingReader:
        return self

    def __next__(self) -> list[str]:
        for line, record in self._records:
            first, self.line_num = self.line_num == 0, line
            try:
                return next(csv.reader([record], self._dialect), [])
            except csv.Error as exc:
                if first:
                    raise
                self._skipped.append((line, str(exc)))
        raise StopIteration
