"""Reader of ``iblinkinfo`` output (infiniband-diags), its default node-by-node layout.

Based on the iblinkinfo(8) man page ("reports link info for each port in an IB fabric, node by
node ... Default is to print a header with the node information and then a list for each
port") and published captures of its output (the Arch Linux wiki's InfiniBand page; fabric
captures quoted in public tools' tests, e.g. ``2   17[  ] ==( 4X 25.78125 Gbps Active/  LinkUp)==>
4    1[  ] "n02 HCA-1" ( )``), here with this project's names::

    CA: a1 mlx5_0:
          0xb83fd20300a1b200      5    1[  ] ==( 4X   106.25 Gbps Active/  LinkUp)==>       1    1[  ] "MF0;leaf1:MQM9700/U1" ( )
    Switch: 0xb83fd20300a1b2c0 MF0;leaf1:MQM9700/U1:
               1    1[  ] ==( 4X   106.25 Gbps Active/  LinkUp)==>       5    1[  ] "a1 mlx5_0" ( )
               1    2[  ] ==(                Down/ Polling)==>             [  ] "" ( )

With ``--line`` (``-l``) each port is one line that starts with the node's GUID and quoted
description before the same fields (the far GUID after ``==>``)::

    0xb83fd20300a1b2c0 "MF0;leaf1:MQM9700/U1"    1    1[  ] ==( 4X 106.25 Gbps Active/  LinkUp)==>  0xb83fd20300a1b200      5    1[  ] "a1 mlx5_0" ( )

A node header is ``CA:`` / ``Switch:`` / ``Router:``, the node GUID on switches, the node
description and a closing ``:``. A port line is the port GUID on CAs, the local LID and port
(``port[ext]``), the link in ``==( ... )==>``, then the far LID and port and the far node's
description in quotes. A port whose link is down names no far end and is skipped (no cable
seen there). Names come from the node descriptions (``ib_names``). Any other line is a parse
error naming its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports.ib_names import kind_of, node_port
from model.asbuilt.reports.source import Neighbour, neighbour, numbered_lines

NAME = "iblinkinfo"

_NODE = re.compile(r"^(?P<kind>CA|Switch|Router):\s+(?:0x[0-9a-fA-F]+\s+)?(?P<desc>.*?):\s*$")
_PORT = re.compile(
    r"^(?:0x[0-9a-fA-F]+\s+)?(?:\"(?P<ldesc>[^\"]*)\"\s+)?(?P<lid>\d+)\s+(?P<port>\d+)\[[^\]]*\]"
    r"\s*==\((?P<link>[^)]*)\)==>\s*(?:0x[0-9a-fA-F]+\s+)?(?:(?P<rlid>\d+)\s+(?P<rport>\d+))?"
    r"\s*\[[^\]]*\]\s*\"(?P<desc>[^\"]*)\""
)
_KIND = {"CA": "ca", "Switch": "switch", "Router": "switch"}


def looks_like(head: str) -> bool:
    lines = head.splitlines()[:40]
    return any("==(" in x and _PORT.match(x.strip()) for x in lines)


def read(path: Path) -> Iterator[Neighbour]:
    node: tuple[str, str] | None = None
    for line, raw in numbered_lines(path):
        text = raw.strip()
        if not text:
            continue
        head = _NODE.match(text)
        if head:
            node = (_KIND[head["kind"]], head["desc"])
            continue
        port = _PORT.match(text)
        if port is not None and port["ldesc"] is not None:  # --line: the node on every line
            node = (kind_of(port["ldesc"]), port["ldesc"])
        if port is None or node is None:
            what = "a port line before any node header" if port else "not an iblinkinfo line"
            raise ReportError(f"{path}: line {line}: {what}: {text[:80]!r}")
        if port["rport"] is None or not port["desc"]:
            continue  # a port with its link down: nothing seen at its far end
        # The far node's kind is not printed: a description naming an HCA ("a1 mlx5_0") is a
        # host's, any other ("MF0;leaf1:...", a bare name) a switch's.
        yield neighbour(
            path,
            line,
            node_port(node[0], node[1], int(port["port"])),
            node_port(kind_of(port["desc"]), port["desc"], int(port["rport"])),
        )
