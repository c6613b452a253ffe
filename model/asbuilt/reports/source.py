"""Bounded, streamed reading of a report file: size and row limits, encodings, line endings.

Every reader goes through here so that an over-limit file is refused with a sentence before
any work starts (the file's size is checked first; rows and cells are counted as they stream,
so a 1 M-row report is never held whole as text). Text is UTF-8 with or without a byte-order
mark, or UTF-16 with one (what Windows tools write); CR, LF and CRLF line endings all count
as one line end, so line numbers match what an editor shows.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from model.asbuilt.report_csv import ReportError

# A neighbour record: (line number in the report, {local_device, local_port, remote_device,
# remote_port} and optionally "where", the place in the report when a line number is not it).
Neighbour = tuple[int, dict[str, str]]
NEIGHBOUR_KEYS = ("local_device", "local_port", "remote_device", "remote_port")

# Limits: the XL design (~400k links) observed from both ends is ~800k rows; 4 M leaves room
# for every port of the hall, down ports included. A name longer than 1,024 characters is no
# device or port name (NetBox caps names at 64); a line past 64 KiB is not a report line.
MAX_REPORT_BYTES = 1 << 30
MAX_ROWS = 4_000_000
MAX_CELL_CHARS = 1024
MAX_LINE_CHARS = 1 << 16

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def checked_size(path: Path) -> int:
    """The file's size in bytes, or a ReportError when it is missing or over the limit."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not path.is_file():
        raise ReportError(f"{path}: is not a file")
    if size > MAX_REPORT_BYTES:
        raise ReportError(
            f"{path}: {amount(size)} is over the {amount(MAX_REPORT_BYTES)} a report may have; "
            "split it (one file per switch or per rack) and check each"
        )
    return size


def amount(size_bytes: int) -> str:
    """A size as a reader would say it: MiB from 1 MiB up, else bytes."""
    return f"{size_bytes / 2**20:,.0f} MiB" if size_bytes >= 2**20 else f"{size_bytes:,} bytes"


def encoding_of(head: bytes) -> str:
    """The text encoding a file's first bytes announce (UTF-8 without a mark otherwise)."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    return "utf-8"


def open_text(path: Path, newline: str | None = None) -> IO[str]:
    """The file as text in its own encoding; ``newline=None`` folds CR, LF and CRLF to LF."""
    checked_size(path)
    try:
        raw = path.open("rb")
        head = raw.peek(4)[:4] if isinstance(raw, io.BufferedReader) else b""
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return io.TextIOWrapper(raw, encoding=encoding_of(head), newline=newline)


def head_text(path: Path, size: int = 8192) -> str:
    """The first ``size`` bytes as text (for telling the format), "" when not text."""
    checked_size(path)
    try:
        with path.open("rb") as handle:
            head = handle.read(size)
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    text = head.decode(encoding_of(head), errors="ignore").lstrip("\ufeff")
    refuse_nul(path, text)
    return text


def refuse_nul(path: Path, text: str, first_line: int = 1) -> None:
    """A ReportError naming the line of the first NUL in ``text``: no report format holds one,
    so it is a binary file, or UTF-16 saved without its byte-order mark."""
    at = text.find("\x00")
    if at >= 0:
        line = (
            first_line
            + text.count("\n", 0, at)
            + text.count("\r", 0, at)
            - text.count("\r\n", 0, at)
        )
        raise ReportError(
            f"{path}: line {line} holds a NUL character (a binary file, or UTF-16 saved "
            "without its byte-order mark?)"
        )


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line without its end) for every line, refusing over-limit lines and
    counts, and naming the line where the text stops being valid in its encoding."""
    line = 0
    with open_text(path) as handle:
        try:
            while text := handle.readline(MAX_LINE_CHARS + 1):  # a line is never read whole
                line += 1
                if len(text) > MAX_LINE_CHARS and not text.endswith("\n"):
                    raise ReportError(
                        f"{path}: line {line} is over {MAX_LINE_CHARS:,} characters long; "
                        "this is not a neighbour report"
                    )
                if line > MAX_ROWS:
                    raise ReportError(too_many_rows(path))
                yield line, text.rstrip("\n")
        except UnicodeDecodeError:
            raise ReportError(
                f"{path}: line {line + 1} is not UTF-8 text (save the report as UTF-8 "
                "or UTF-16 with a byte-order mark)"
            ) from None


def too_many_rows(path: Path) -> str:
    return f"{path}: more than {MAX_ROWS:,} rows, over the limit of a report; split it"


def cell(path: Path, line: int, value: str) -> str:
    """``value`` stripped, or a ReportError naming the line when it is too long to be a name."""
    value = value.strip()
    if len(value) > MAX_CELL_CHARS:
        raise ReportError(
            f"{path}: line {line} has a value {len(value):,} characters long "
            f"(a name has at most {MAX_CELL_CHARS:,})"
        )
    return value


def neighbour(
    path: Path, line: int, local: tuple[str, str], remote: tuple[str, str], where: str = ""
) -> Neighbour:
    """One record, its names stripped and checked against the cell limit."""
    local_device, local_port = local[0].strip(), local[1].strip()
    remote_device, remote_port = remote[0].strip(), remote[1].strip()
    longest = max(len(local_device), len(local_port), len(remote_device), len(remote_port))
    refuse_nul(path, local_device + local_port + remote_device + remote_port, line)
    if longest > MAX_CELL_CHARS:
        for value in (local_device, local_port, remote_device, remote_port):
            cell(path, line, value)
    row = {
        "local_device": local_device,
        "local_port": local_port,
        "remote_device": remote_device,
        "remote_port": remote_port,
    }
    if where:
        row["where"] = where
    return line, row
