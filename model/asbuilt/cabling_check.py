"""Cabling check: the neighbours the hall reports (LLDP, ibnetdiscover) against the design's links.

A report row says "local device/port sees remote device/port". For every link of the design:
OK when an end's observation names the other end; MISWIRED when an end sees something else
(the cable landed on another port or device); MISSING when neither end is in the report. A
report row at a port the design leaves free is UNEXPECTED, one naming a device the design does
not have is UNKNOWN. Device names are matched as the design writes them, or ignoring case when
that is unambiguous, or by the host part of a domain name (``a1.cluster.local``). Port names
are the design's (``nic1``, ``p17``) or a tool's names for them (``mlx5_0``, ``9/1``: see
``port_aliases``). Reports of seven formats are read by ``model.asbuilt.reports``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from model.asbuilt.port_aliases import PortNames
from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports import FORMATS, detect_format, iter_neighbours, read_neighbours
from model.asbuilt.reports.source import Neighbour
from model.design.design import Design

OK, MISWIRED, MISSING, UNEXPECTED, UNKNOWN = "OK", "MISWIRED", "MISSING", "UNEXPECTED", "UNKNOWN"
PROBLEMS = (MISWIRED, MISSING)


@dataclass(frozen=True)
class CheckRow:
    status: str
    link_id: str  # "" for a report row that belongs to no link
    label: str
    expected: str  # "device port <-> device port" as designed
    observed: str  # what the report says, "" when nothing
    where: str  # report line(s)
    device: str = ""  # the design device an UNEXPECTED row's port belongs to, "" otherwise


class _Names:
    def __init__(self, design: Design):
        self.design = design
        self.exact = {d.name: d.id for d in design.devices.values()}
        # Names two devices share: a report naming one cannot say which (the later device
        # took the name here, and a perfect report showed the other's cables as MISWIRED)
        shared = Counter(d.name for d in design.devices.values())
        self.shared = {name for name, n in shared.items() if n > 1}
        folded = Counter(name.casefold() for name in self.exact)
        self.folded = {
            name.casefold(): i for name, i in self.exact.items() if folded[name.casefold()] == 1
        }

    def find(self, name: str, where: str | int) -> str | None:
        if name in self.shared:
            racks = sorted(
                {
                    self.design.racks[d.rack].name
                    for d in self.design.devices.values()
                    if d.name == name and d.rack in self.design.racks
                }
            )
            raise ReportError(
                f"{_where(where)}: the design has several devices named {name!r} (racks "
                f"{', '.join(racks[:4])}); a report naming devices cannot tell them apart: "
                "give each device a name of its own"
            )
        found = self.exact.get(name) or self.folded.get(name.casefold())
        if found is None and "." in name:  # a host's FQDN (rdma-ndd's %h, LLDP's system name)
            short = name.split(".", 1)[0]
            found = self.exact.get(short) or self.folded.get(short.casefold())
        return found


def read_report(
    path: str | Path | Sequence[str | Path], format_name: str | None = None
) -> list[Neighbour]:
    """The neighbour records of one report file (or several, e.g. one LLDP file per host), in
    the format named (one of ``FORMATS``) or detected from each file."""
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    return read_neighbours(paths, format_name)


def stream_report(
    path: str | Path | Sequence[str | Path], format_name: str | None = None
) -> Iterator[Neighbour]:
    """``read_report`` one record at a time (formats are told before the first is read), for a
    check of a report too large to hold whole."""
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    return iter_neighbours(paths, format_name)


def check_cabling(design: Design, report: Iterable[Neighbour]) -> list[CheckRow]:
    """One row per design link (OK / MISWIRED / MISSING), then UNEXPECTED and UNKNOWN rows.

    Ports are compared by their design names: a report's tool names (``mlx5_0``, ``9/1``,
    ``swp17``) are mapped through ``port_aliases`` first."""
    names = _Names(design)
    ports = PortNames(design)
    devices = design.devices
    # (device, port) -> (far device, far port, where seen: a line number or the reader's words);
    # the "line N" text is made only for the rows reported, not for each of a million seen.
    observed: dict[tuple[str, str], tuple[str, str, str | int]] = {}
    extra: list[CheckRow] = []
    for line, row in report:
        where: str | int = row.get("where") or line
        local = names.find(row["local_device"], where)
        remote = names.find(row["remote_device"], where)
        if local is None:
            seen = (
                f"{row['local_device']} {row['local_port']} -> "
                f"{row['remote_device']} {row['remote_port']}"
            )
            extra.append(CheckRow(UNKNOWN, "", "", "", seen, _where(where)))
            continue
        local_port = ports.resolve(local, row["local_port"])
        remote_port = ports.resolve(remote, row["remote_port"]) if remote else row["remote_port"]
        far = (remote or f"?{row['remote_device']}", remote_port)
        observed[(local, local_port)] = (*far, where)
        if remote is not None:
            observed.setdefault((remote, remote_port), (local, local_port, where))

    def text(device_id: str, port: str) -> str:
        device = devices.get(device_id)
        return f"{device.name if device else device_id.lstrip('?')} {port}"

    out: list[CheckRow] = []
    linked: set[tuple[str, str]] = set()
    for link_id in sorted(design.links):
        link = design.links[link_id]
        a, b = (link.a.device, link.a.port), (link.b.device, link.b.port)
        linked.update((a, b))
        expected = f"{text(*a)} <-> {text(*b)}"
        seen_a, seen_b = observed.get(a), observed.get(b)
        wrong = [
            (near, far)
            for near, far, want in ((a, seen_a, b), (b, seen_b, a))
            if far is not None and far[:2] != want
        ]
        lines = ", ".join(dict.fromkeys(_where(s[2]) for s in (seen_a, seen_b) if s is not None))
        if wrong:
            observed_text = "; ".join(f"{text(*near)} sees {text(*far[:2])}" for near, far in wrong)
            out.append(CheckRow(MISWIRED, link_id, link.label, expected, observed_text, lines))
        elif seen_a is None and seen_b is None:
            out.append(CheckRow(MISSING, link_id, link.label, expected, "", ""))
        else:
            out.append(CheckRow(OK, link_id, link.label, expected, expected, lines))
    for (device_id, port), (far_device, far_port, where) in sorted(observed.items()):
        if (device_id, port) not in linked and device_id in devices:
            seen = f"{text(device_id, port)} sees {text(far_device, far_port)}"
            extra.append(CheckRow(UNEXPECTED, "", "", "", seen, _where(where), device_id))
    return out + extra


def _where(place: str | int) -> str:
    return place if isinstance(place, str) else f"line {place}"


def summary(rows: list[CheckRow]) -> dict[str, int]:
    counts = Counter(r.status for r in rows)
    return {
        status: counts.get(status, 0) for status in (OK, MISWIRED, MISSING, UNEXPECTED, UNKNOWN)
    }


__all__ = [
    "FORMATS",
    "CheckRow",
    "ReportError",
    "check_cabling",
    "detect_format",
    "read_report",
    "stream_report",
    "summary",
]
