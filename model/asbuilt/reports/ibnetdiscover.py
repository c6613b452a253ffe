"""Reader of ``ibnetdiscover`` topology output (infiniband-diags).

Based on the ibnetdiscover(8) man page (rdma-core infiniband-diags: "a human readable topology
file. GUIDs, node types, and port numbers are displayed as well as port LIDs and
NodeDescriptions") and published captures of its output (e.g. ``Switch 41 "S-b8599f0300fc6de4"
# "MF0;r-ufm-sw95:MQM8700/U1" enhanced port 0 lid 13 lmc 0`` and ``[1] "H-e09d7303b4f1abf5"[1]
(e09d7303b4f1abf5) # "worker1 mlx5_0" lid 100 4xNDR`` as quoted in public tools' tests). Each
node is a block (here with this project's names)::

    vendid=0x2c9
    devid=0xd2f0
    sysimgguid=0xb83fd20300a1b2c0
    switchguid=0xb83fd20300a1b2c0(b83fd20300a1b2c0)
    Switch  65 "S-b83fd20300a1b2c0"     # "MF0;leaf1:MQM9700/U1" enhanced port 0 lid 1 lmc 0
    [1]     "H-b83fd20300a1b200"[1](b83fd20300a1b200)   # "a1 mlx5_0" lid 5 4xNDR

    Ca      1 "H-b83fd20300a1b200"      # "a1 mlx5_0"
    [1](b83fd20300a1b200)   "S-b83fd20300a1b2c0"[1]     # lid 5 lmc 0 "MF0;leaf1:MQM9700/U1" lid 1 4xNDR

A port line is ``[local port](port guid)? "<S|H|R>-<remote node guid>"[remote port](guid)?``
then ``#`` and the remote node's description as the first quoted text (switch blocks) or after
the local lid (CA blocks). Each cable is listed from both of its ends, which the check expects.
Names come from the node descriptions (``ib_names``); a node's GUID only ties a port line to
its block. Any other line is a parse error naming its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports.ib_names import node_port
from model.asbuilt.reports.source import Neighbour, neighbour, numbered_lines

NAME = "ibnetdiscover"

_NODE = re.compile(
    r'^(?P<kind>Switch|Ca|Rt)\s+(?P<ports>\d+)\s+"(?P<type>[SHR])-(?P<guid>[0-9a-fA-F]+)"'
    r'\s*(?:#\s*"(?P<desc>[^"]*)")?'
)
_PORT = re.compile(
    r"^\[(?P<port>\d+)\](?:\[ext \d+\])?(?:\([0-9a-fA-F]+\))?\s+"
    r'"(?P<type>[SHR])-(?P<guid>[0-9a-fA-F]+)"\[(?P<rport>\d+)\](?:\[ext \d+\])?'
    r'(?:\([0-9a-fA-F]+\))?\s*(?:#[^"]*"(?P<desc>[^"]*)")?'
)
_HEADER = re.compile(
    r"^(?:vendid|devid|sysimgguid|switchguid|caguid|routerguid|chassisguid|chassisnum|"
    r"chassisslot|chassisposition)=\S*"
)
_KIND = {"Switch": "switch", "Ca": "ca", "Rt": "switch", "S": "switch", "H": "ca", "R": "switch"}


def looks_like(head: str) -> bool:
    """True when the first lines are ibnetdiscover's (a node line or its block header)."""
    return any(
        _NODE.match(line) or line.startswith(("vendid=0x", "# Topology file"))
        for line in head.splitlines()[:40]
    )


def read(path: Path) -> Iterator[Neighbour]:
    node: tuple[str, str] | None = None  # (kind, description) of the block being read
    descriptions: dict[str, str] = {}  # node guid -> description, from the node lines
    # Port lines whose far node's description is not on the line: named once its block is read.
    deferred: list[tuple[int, tuple[str, str], str, str, str, int]] = []
    for line, raw in numbered_lines(path):
        text = raw.strip()
        if not text or text.startswith("#") or _HEADER.match(text):
            continue
        head = _NODE.match(text)
        if head:
            node = (_KIND[head["kind"]], head["desc"] or "")
            descriptions[head["guid"].lower()] = node[1]
            continue
        port = _PORT.match(text)
        if port is None or node is None:
            what = "a port line before any node line" if port else "not an ibnetdiscover line"
            raise ReportError(f"{path}: line {line}: {what}: {text[:80]!r}")
        local = node_port(node[0], node[1], int(port["port"]))
        far_kind, far_port = _KIND[port["type"]], int(port["rport"])
        if port["desc"] is not None:
            yield neighbour(path, line, local, node_port(far_kind, port["desc"], far_port))
        else:
            deferred.append((line, local, far_kind, port["guid"].lower(), port["type"], far_port))
    for line, local, far_kind, guid, letter, far_port in deferred:
        if guid not in descriptions:
            raise ReportError(
                f"{path}: line {line}: the node {letter}-{guid} it links to is not described "
                "anywhere in the file"
            )
        yield neighbour(path, line, local, node_port(far_kind, descriptions[guid], far_port))
