"""Cabling check: the neighbours the hall reports (LLDP, ibnetdiscover) against the design's links.

A report row says "local device/port sees remote device/port". For every link of the design:
OK when an end's observation names the other end; MISWIRED when an end sees something else
(the cable landed on another port or device); MISSING when neither end is in the report. A
report row at a port the design leaves free is UNEXPECTED, one naming a device the design does
not have is UNKNOWN. Device names are matched as the design writes them, or ignoring case when
that is unambiguous; port names are the design's (``nic1``, ``p17``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from model.asbuilt.report_csv import ReportError, read_table
from model.design.design import Design

REPORT_COLUMNS = {
    "local_device": (
        "local_device",
        "local device",
        "device",
        "local node",
        "a-node name",
        "a-node",
    ),
    "local_port": ("local_port", "local port", "port", "local interface", "a-port"),
    "remote_device": (
        "remote_device",
        "remote device",
        "neighbor",
        "neighbour",
        "remote node",
        "remote system name",
        "z-node name",
        "z-node",
    ),
    "remote_port": (
        "remote_port",
        "remote port",
        "neighbor port",
        "neighbour port",
        "remote interface",
        "remote port id",
        "z-port",
    ),
}
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

    def find(self, name: str, line: int) -> str | None:
        if name in self.shared:
            racks = sorted(
                {
                    self.design.racks[d.rack].name
                    for d in self.design.devices.values()
                    if d.name == name and d.rack in self.design.racks
                }
            )
            raise ReportError(
                f"line {line}: the design has several devices named {name!r} (racks "
                f"{', '.join(racks[:4])}); a report naming devices cannot tell them apart: "
                "give each device a name of its own"
            )
        return self.exact.get(name) or self.folded.get(name.casefold())


def read_report(path: str | Path) -> list[tuple[int, dict[str, str]]]:
    return read_table(path, REPORT_COLUMNS)


def check_cabling(design: Design, report: list[tuple[int, dict[str, str]]]) -> list[CheckRow]:
    """One row per design link (OK / MISWIRED / MISSING), then UNEXPECTED and UNKNOWN rows."""
    names = _Names(design)
    devices = design.devices
    observed: dict[tuple[str, str], tuple[str, str, int]] = {}
    extra: list[CheckRow] = []
    for line, row in report:
        local = names.find(row["local_device"], line)
        remote = names.find(row["remote_device"], line)
        seen = f"{row['local_device']} {row['local_port']} -> {row['remote_device']} {row['remote_port']}"
        if local is None:
            extra.append(CheckRow(UNKNOWN, "", "", "", seen, f"line {line}"))
            continue
        far = (remote or f"?{row['remote_device']}", row["remote_port"])
        observed[(local, row["local_port"])] = (*far, line)
        if remote is not None:
            observed.setdefault((remote, row["remote_port"]), (local, row["local_port"], line))

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
        lines = ", ".join(f"line {s[2]}" for s in (seen_a, seen_b) if s is not None)
        if wrong:
            observed_text = "; ".join(f"{text(*near)} sees {text(*far[:2])}" for near, far in wrong)
            out.append(CheckRow(MISWIRED, link_id, link.label, expected, observed_text, lines))
        elif seen_a is None and seen_b is None:
            out.append(CheckRow(MISSING, link_id, link.label, expected, "", ""))
        else:
            out.append(CheckRow(OK, link_id, link.label, expected, expected, lines))
    for (device_id, port), far in sorted(observed.items()):
        if (device_id, port) not in linked and device_id in devices:
            seen = f"{text(device_id, port)} sees {text(*far[:2])}"
            extra.append(CheckRow(UNEXPECTED, "", "", "", seen, f"line {far[2]}"))
    return out + extra


def summary(rows: list[CheckRow]) -> dict[str, int]:
    counts = Counter(r.status for r in rows)
    return {
        status: counts.get(status, 0) for status in (OK, MISWIRED, MISSING, UNEXPECTED, UNKNOWN)
    }


__all__ = ["CheckRow", "ReportError", "check_cabling", "read_report", "summary"]
