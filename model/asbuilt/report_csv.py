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
from collections.abc import Mapping, Sequence
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
) -> list[tuple[int, dict[str, str]]]:
    """(line number, {logical column: cell}) for every non-empty row of a CSV file.

    ``columns`` maps each logical column to the header names it may have; all are required.
    ``optional`` columns are read when the file has them and are ``""`` when it has not.
    ``dialect``: the file's CSV dialect when the writer is known (NetBox writes excel's);
    otherwise it is sniffed, which a cell of quoted JSON can mislead.
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
    reader = csv.reader(io.StringIO(text, newline=None), dialect)
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
