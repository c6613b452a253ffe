"""Reader of Hallwright's own neighbour CSV (local_device, local_port, remote_device,
remote_port, and the other names LLDP neighbour tables give these columns)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from model.asbuilt.reports.csv_table import csv_rows
from model.asbuilt.reports.source import Neighbour, neighbour

NAME = "hallwright"

COLUMNS = {
    "local_device": ("local_device", "local device", "device", "local node"),
    "local_port": ("local_port", "local port", "port", "local interface"),
    "remote_device": (
        "remote_device",
        "remote device",
        "neighbor",
        "neighbour",
        "remote node",
        "remote system name",
    ),
    "remote_port": (
        "remote_port",
        "remote port",
        "neighbor port",
        "neighbour port",
        "remote interface",
        "remote port id",
    ),
}


def read(path: Path) -> Iterator[Neighbour]:
    for line, (local_device, local_port, remote_device, remote_port) in csv_rows(path, COLUMNS):
        yield neighbour(path, line, (local_device, local_port), (remote_device, remote_port))
