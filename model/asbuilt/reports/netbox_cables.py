"""Reader of NetBox's cable CSV: the bulk-import columns and the cable list's export.

Based on NetBox's ``CableImportForm`` (netbox/dcim/forms/bulk_import.py: ``side_a_device``,
``side_a_type``, ``side_a_name``, ``side_b_device``, ``side_b_type``, ``side_b_name``, the
columns Hallwright's own NetBox export writes) and the cable table's CSV export ("Device A",
"Termination A", "Device B", "Termination B"; "Side A"/"Side B" in NetBox 3). A cable with
several terminations per side lists them comma-separated; they are paired in order (a
breakout's legs), and a side with a different count is a parse error naming the line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports.csv_table import csv_rows, has_columns, header_of
from model.asbuilt.reports.source import Neighbour, neighbour

NAME = "netbox"

COLUMNS = {
    "a_device": ("side_a_device", "Device A", "Side A"),
    "a_port": ("side_a_name", "Termination A", "Termination A Name"),
    "b_device": ("side_b_device", "Device B", "Side B"),
    "b_port": ("side_b_name", "Termination B", "Termination B Name"),
}


def looks_like(path: Path) -> bool:
    header = header_of(path)
    return any(
        has_columns(header, a, b)
        for a, b in (("side_a_device", "side_b_name"), ("Termination A", "Termination B"))
    )


def read(path: Path) -> Iterator[Neighbour]:
    for line, (a_device, a_port, b_device, b_port) in csv_rows(path, COLUMNS):
        a_ports = [p.strip() for p in a_port.split(",")]
        b_ports = [p.strip() for p in b_port.split(",")]
        if len(a_ports) != len(b_ports):
            raise ReportError(
                f"{path}: line {line}: {len(a_ports)} terminations on side A and "
                f"{len(b_ports)} on side B cannot be paired"
            )
        for a_end, b_end in zip(a_ports, b_ports, strict=True):
            yield neighbour(path, line, (a_device, a_end), (b_device, b_end))
