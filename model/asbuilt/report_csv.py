"""Reading the CSV files installers and tools hand back: named columns, clear errors.

Column names are matched ignoring case, spaces, ``-`` and ``_``, and each logical column accepts
the names the usual tools write (LLDP neighbour tables, ibnetdiscover conversions, cut sheets).
A problem names the file, the line and what was expected, as every bad input does.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path


class ReportError(Exception):
    """A report file cannot be used; ``str()`` names the file, the line and the problem."""


_FOLD = re.compile(r"[\s_\-]+")


def _fold(name: str) -> str:
    return _FOLD.sub("", name.strip().casefold())


def read_table(
    path: str | Path,
    columns: Mapping[str, Sequence[str]],
    optional: Mapping[str, Sequence[str]] | None = None,
) -> list[tuple[int, dict[str, str]]]:
    """(line number, {logical column: cell}) for every non-empty row of a CSV file.

    ``columns`` maps each logical column to the header names it may have; all are required.
    ``optional`` columns are read when the file has them and are ``""`` when it has not.
    """
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a UTF-8 text file") from None
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
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
    for logical, names in (optional or {}).items():
        found = [folded.index(_fold(n)) for n in names if _fold(n) in folded]
        if found:
            where[logical] = found[0]
        else:
            missing.append(logical)
    rows = []
    for line, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) < len(header):
            cells = cells + [""] * (len(header) - len(cells))
        row = {k: cells[i].strip() for k, i in where.items()}
        row.update(dict.fromkeys(missing, ""))
        rows.append((line, row))
    return rows
