"""The neighbour-report formats the cabling check reads: one registry for the CLI and editor.

Each format is a small module returning the same neighbour records (``source.Neighbour``);
``detect_format`` tells a file's format from its first bytes and header, ``read_neighbours``
reads one or more files (one per host for LLDP), named or detected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports import (
    cvt,
    hallwright_csv,
    iblinkinfo,
    ibnetdiscover,
    lldp,
    netbox_cables,
)
from model.asbuilt.reports.source import Neighbour, head_text


@dataclass(frozen=True)
class ReportFormat:
    name: str
    title: str  # what the format is, for help texts and the editor's file dialog
    patterns: tuple[str, ...]  # file name patterns it usually has
    read: Callable[[Path], Iterator[Neighbour]]


FORMATS: dict[str, ReportFormat] = {
    f.name: f
    for f in (
        ReportFormat(
            hallwright_csv.NAME,
            "neighbour CSV (local_device, local_port, remote_device, remote_port)",
            ("*.csv",),
            hallwright_csv.read,
        ),
        ReportFormat(
            ibnetdiscover.NAME, "ibnetdiscover topology", ("*.txt", "*.topo"), ibnetdiscover.read
        ),
        ReportFormat(iblinkinfo.NAME, "iblinkinfo output", ("*.txt",), iblinkinfo.read),
        ReportFormat(lldp.JSON_NAME, "lldpctl -f json / json0", ("*.json",), lldp.read_json),
        ReportFormat(
            lldp.KEYVALUE_NAME, "lldpctl -f keyvalue", ("*.txt", "*.kv"), lldp.read_keyvalue
        ),
        ReportFormat(
            cvt.NAME, "Cable Validation Tool links (.xlsx or .csv)", ("*.xlsx", "*.csv"), cvt.read
        ),
        ReportFormat(netbox_cables.NAME, "NetBox cable CSV", ("*.csv",), netbox_cables.read),
    )
}


def detect_format(path: str | Path) -> str:
    """The name of the format of the report at ``path``; a CSV of no known kind is taken for
    Hallwright's own (whose reader names the columns it lacks)."""
    path = Path(path)
    if cvt.is_workbook(path):
        return cvt.NAME
    head = head_text(path)
    if lldp.looks_like_json(head):
        return lldp.JSON_NAME
    if lldp.looks_like_keyvalue(head):
        return lldp.KEYVALUE_NAME
    if iblinkinfo.looks_like(head):
        return iblinkinfo.NAME
    if ibnetdiscover.looks_like(head):
        return ibnetdiscover.NAME
    if head.lstrip().startswith("{"):
        raise ReportError(f'{path}: a JSON file, but not lldpctl\'s (no "lldp" object)')
    if netbox_cables.looks_like(path):
        return netbox_cables.NAME
    if cvt.looks_like_csv(path):
        return cvt.NAME
    return hallwright_csv.NAME


def report_files(paths: Sequence[str | Path]) -> list[Path]:
    """``paths`` with each folder replaced by the files in it (not hidden ones), in name order:
    a folder of per-host LLDP files is one report."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            if not files:
                raise ReportError(f"{path}: an empty folder, no report in it")
            out += files
        else:
            out.append(path)
    return out


def file_filter() -> str:
    """The formats as an open-file dialog lists them ("title (*.csv *.txt);;...")."""
    every = sorted({p for f in FORMATS.values() for p in f.patterns})
    kinds = [f"{f.title} ({' '.join(f.patterns)})" for f in FORMATS.values()]
    return ";;".join([f"Neighbour reports ({' '.join(every)})", *kinds, "All files (*)"])


def iter_neighbours(
    paths: Sequence[str | Path], format_name: str | None = None
) -> Iterator[Neighbour]:
    """Every neighbour record of ``paths`` (files, or folders of them; each file's format
    named or detected), one at a time, so a check can consume a large report without holding
    it; with more than one file each record says which file it came from."""
    if format_name is not None and format_name not in FORMATS:
        raise ReportError(f"unknown report format {format_name!r} (known: {', '.join(FORMATS)})")
    files = report_files(paths)
    readers = [(path, FORMATS[format_name or detect_format(path)].read) for path in files]
    for path, reader in readers:
        for line, row in reader(path):
            if len(files) > 1:
                row["where"] = f"{path.name} {row.get('where') or f'line {line}'}"
            yield line, row


def read_neighbours(paths: Sequence[str | Path], format_name: str | None = None) -> list[Neighbour]:
    """``iter_neighbours`` as a list."""
    return list(iter_neighbours(paths, format_name))


__all__ = [
    "FORMATS",
    "ReportError",
    "ReportFormat",
    "detect_format",
    "file_filter",
    "iter_neighbours",
    "read_neighbours",
    "report_files",
]
