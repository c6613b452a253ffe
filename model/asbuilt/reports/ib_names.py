"""InfiniBand node descriptions to device names and HCA port names, shared by the IB readers.

A host's HCA describes itself as ``"<hostname> <device>"`` (rdma-core's ``rdma-ndd`` default
node description format ``%h %d``: ``"a1 mlx5_0"``; older stacks write ``"a1 HCA-1"``), so the
device is the first word and the HCA name the second. An NVIDIA switch describes itself as
``"MF0;<hostname>:<model>/U1"`` (e.g. ``"MF0;leaf1:MQM9700/U1"``, as published iblinkinfo and
ibnetdiscover captures of NVIDIA switches show), so the device is between ``;`` and ``:``.
A bare description is the device name itself.
"""

from __future__ import annotations

import re

_SWITCH_DESC = re.compile(r"^MF0;(?P<name>[^:]+):")
# An RDMA device name as rdma-ndd's %d writes it (mlx5_0, bnxt_re1) or the older HCA-1.
_HCA = re.compile(r"^(?:HCA-\d+|[A-Za-z]+\d*_\d+)$")


def device_of(description: str) -> str:
    """The device name a node description carries."""
    text = description.strip()
    switch = _SWITCH_DESC.match(text)
    if switch:
        return switch["name"].strip()
    return text.split()[0] if text else ""


def ca_port(description: str, port: int) -> str:
    """A host's port: the HCA's name (``mlx5_0``) for its port 1, ``mlx5_0/2`` for port 2;
    the bare port number when the description names no HCA."""
    words = description.split()
    if len(words) < 2 or not _HCA.match(words[1]):
        return str(port)
    return words[1] if port == 1 else f"{words[1]}/{port}"


def kind_of(description: str) -> str:
    """ "ca" for a description naming a host's HCA (``a1 mlx5_0``), else "switch"."""
    words = description.split()
    return "ca" if len(words) >= 2 and _HCA.match(words[1]) and ";" not in words[0] else "switch"


def node_port(kind: str, description: str, port: int) -> tuple[str, str]:
    """(device, port) of port ``port`` of a node of ``kind`` ("switch" or "ca")."""
    if kind == "ca":
        return device_of(description), ca_port(description, port)
    return device_of(description), str(port)
