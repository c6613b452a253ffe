"""Scheduler topology files from the fabric tree: Slurm topology.conf (tree, block), a Topograph model, Kubernetes node labels.

Each is text, from :func:`model.outputs.fabric_tree.fabric_tree`:

* ``slurm-tree``: Slurm's topology/tree grammar (topology.conf(5)): one ``SwitchName=`` line per
  logical switch with ``Nodes=`` (a leaf) or ``Switches=`` (above), node and switch lists as
  Slurm hostlist expressions (``su1-node[01-31]``), leaves first. Switch names are at most 64
  characters, as the man page requires.
* ``slurm-block``: topology/block: one ``BlockName= Nodes=`` line per block, in tree order
  (Slurm pairs contiguous blocks into larger ones), then ``BlockSizes=``: the planning base
  block size (the smallest block, so that every block holds at least that many nodes, as the
  man page requires) and each power-of-two multiple of it up to the node count.
* ``topograph``: NVIDIA Topograph's model file (docs/modeling.md): ``switches`` (each with its
  child ``switches`` or ``nodes``, at most one parent), ``nodes``, and ``capacity_blocks`` with
  ``attributes.nvlink`` for NVLink domains; what its test and simulation providers load.
* ``k8s-labels``: one Kubernetes Node document per server with Topograph's label keys
  (``network.topology.nvidia.com/leaf|spine|core``, and ``accelerator`` for an NVLink domain);
  values over 63 characters or outside the label alphabet become Topograph's FNV-64a form
  (``x`` + 16 hex digits); node names are lowercased, as kubelet registers a hostname.

YAML is written by hand (flow lists and JSON-quoted strings are YAML) so no YAML library is
needed to write it.
"""

from __future__ import annotations

import json
import re

from model.common.natural_sort import natural_key
from model.outputs.fabric_tree import FabricTree

FORMATS = ("slurm-tree", "slurm-block", "topograph", "k8s-labels")
SLURM_NAME_MAX = 64  # topology.conf(5): SwitchName "cannot be longer than 64 characters"
LABEL_VALUE_MAX = 63  # Kubernetes label values
LABEL_PREFIX = "network.topology.nvidia.com/"
_HOST = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
_NUMBERED = re.compile(r"^(.*?)(\d+)$")


class TopologyExportError(ValueError):
    """The design cannot be written in the asked format; ``str()`` is a sentence for the user."""


def check_names(tree: FabricTree) -> None:
    """Node names must be host names (letters, digits, ``.``, ``_``, ``-``): Slurm's hostlist
    parser reads ``,[]`` and spaces as syntax."""
    bad = [n for n in tree.nodes if not _HOST.match(n)]
    if bad:
        shown = ", ".join(repr(n) for n in bad[:5]) + (" ..." if len(bad) > 5 else "")
        raise TopologyExportError(
            f"{len(bad)} server name(s) are not host names (letters, digits, '.', '_', '-'), "
            f"which schedulers need: {shown}; rename them to the hosts' names"
        )
    if not tree.nodes:
        raise TopologyExportError("no GPU server is cabled to a compute-fabric switch")


def hostlist(names: list[str]) -> str:
    """Slurm hostlist expression of ``names``: numbered names of one prefix and digit count as a
    bracketed range (``n[01-04,07]``), others as they are; comma-separated."""
    groups: dict[tuple[str, int], list[int]] = {}
    plain: list[str] = []
    numbered = []
    for name in names:
        m = _NUMBERED.match(name)
        if m:
            numbered.append((m.group(1), m.group(2)))
        else:
            plain.append(name)
    # Zero-padded numbers keep their width, and an unpadded number as wide joins them
    # (node[01-32]); other unpadded numbers share one group of no width (tux[9-12]).
    padded = {(p, len(d)) for p, d in numbered if d.startswith("0") and len(d) > 1}
    for prefix, digits in numbered:
        width = len(digits) if (prefix, len(digits)) in padded else 0
        groups.setdefault((prefix, width), []).append(int(digits))
    parts = []
    for (prefix, width), numbers in sorted(groups.items(), key=lambda kv: natural_key(kv[0][0])):
        numbers = sorted(set(numbers))
        if len(numbers) == 1:
            parts.append(f"{prefix}{numbers[0]:0{width}d}")
            continue
        ranges, start = [], 0
        for k, number in enumerate(numbers):
            if k + 1 < len(numbers) and numbers[k + 1] == number + 1:
                continue  # inside a run
            first = numbers[start]
            ranges.append(
                f"{first:0{width}d}" if first == number else f"{first:0{width}d}-{number:0{width}d}"
            )
            start = k + 1
        parts.append(f"{prefix}[{','.join(ranges)}]")
    return ",".join(parts + sorted(plain, key=natural_key))


def _header(tree: FabricTree, what: str, comment: str = "#") -> list[str]:
    lines = [f"{comment} {what}, written by Hallwright from the design's compute fabric."]
    lines.append(
        f"{comment} {len(tree.nodes)} nodes, {len(tree.switches)} logical switches, "
        f"{len(tree.blocks)} blocks ({'NVLink domains' if tree.block_kind == 'nvlink' else 'leaf groups'})."
    )
    if tree.unconnected:
        lines.append(
            f"{comment} Not on the compute fabric (left out): {hostlist(tree.unconnected)}"
        )
    return lines


def slurm_tree(tree: FabricTree) -> str:
    """topology.conf for the topology/tree plugin."""
    check_names(tree)
    lines = _header(tree, "Slurm topology.conf (TopologyPlugin=topology/tree)")
    order = sorted(tree.switches.values(), key=lambda s: ["leaf", "spine", "core"].index(s.tier))
    for switch in order:
        if len(switch.name) > SLURM_NAME_MAX:
            raise TopologyExportError(
                f"switch name {switch.name!r} is longer than {SLURM_NAME_MAX} characters"
            )
        if len(switch.members) > 1 or switch.members != [switch.name]:
            lines.append(
                f"# {switch.name}: {len(switch.members)} {switch.tier} switches: {hostlist(switch.members)}"
            )
        children = (
            f"Nodes={hostlist(switch.nodes)}"
            if switch.nodes
            else f"Switches={hostlist(switch.switches)}"
        )
        lines.append(f"SwitchName={switch.name} {children}")
    return "\n".join(lines) + "\n"


def block_sizes(tree: FabricTree) -> list[int]:
    """The planning base block size (the smallest block) and its power-of-two multiples up to
    the node count."""
    sizes = [min(len(b) for b in tree.blocks.values())]
    while sizes[-1] * 2 <= len(tree.nodes):
        sizes.append(sizes[-1] * 2)
    return sizes


def slurm_block(tree: FabricTree) -> str:
    """topology.conf for the topology/block plugin."""
    check_names(tree)
    lines = _header(tree, "Slurm topology.conf (TopologyPlugin=topology/block)")
    for name, nodes in tree.blocks.items():
        lines.append(f"BlockName={name} Nodes={hostlist(nodes)}")
    lines.append("BlockSizes=" + ",".join(map(str, block_sizes(tree))))
    return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    return json.dumps(text)


def topograph_model(tree: FabricTree) -> str:
    """Topograph's model YAML (switches, nodes, capacity_blocks)."""
    check_names(tree)
    lines = _header(tree, "NVIDIA Topograph model (docs/modeling.md)")
    lines.append("switches:")
    for switch in tree.switches.values():
        lines.append(f"  {_q(switch.name)}:")
        if switch.nodes:
            lines.append(f"    nodes: [{', '.join(_q(n) for n in switch.nodes)}]")
        else:
            lines.append(f"    switches: [{', '.join(_q(s) for s in switch.switches)}]")
    lines.append("nodes:")
    nvlink = tree.block_of() if tree.block_kind == "nvlink" else {}
    for node in tree.nodes:
        block = nvlink.get(node)
        if block is None:
            lines.append(f"  {_q(node)}: {{}}")
        else:
            lines.append(
                f"  {_q(node)}: {{capacity_block: {_q(block)}, attributes: {{nvlink: {_q(block)}}}}}"
            )
    if nvlink:
        lines.append("capacity_blocks:")
        for block, nodes in tree.blocks.items():
            lines.append(f"  {_q(block)}:")
            lines.append(f"    nodes: [{', '.join(_q(n) for n in nodes)}]")
            lines.append(f"    attributes: {{nvlink: {_q(block)}}}")
    return "\n".join(lines) + "\n"


def fnv1a_64(text: str) -> int:
    """FNV-1a, 64 bit, of the UTF-8 bytes (what Topograph hashes long label values with)."""
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def label_value(value: str) -> str:
    """``value`` as a Kubernetes label value: as it is if valid, else ``x`` + its FNV-64a hash."""
    if len(value) <= LABEL_VALUE_MAX and _LABEL_VALUE.match(value):
        return value
    return f"x{fnv1a_64(value):016x}"


def node_labels(tree: FabricTree) -> dict[str, dict[str, str]]:
    """Node name (lowercased) -> its topology labels."""
    check_names(tree)
    nvlink = tree.block_of() if tree.block_kind == "nvlink" else {}
    out: dict[str, dict[str, str]] = {}
    for node in tree.nodes:
        labels = {LABEL_PREFIX + s.tier: label_value(s.name) for s in tree.path(node)}
        if node in nvlink:
            labels[LABEL_PREFIX + "accelerator"] = label_value(nvlink[node])
        out[node.lower()] = labels
    return out


def k8s_labels(tree: FabricTree) -> str:
    """One YAML document per node: a Node with only ``metadata.name`` and ``labels``."""
    lines = _header(tree, "Kubernetes node topology labels (kubectl apply --server-side -f FILE)")
    for node, labels in node_labels(tree).items():
        lines += [
            "---",
            "apiVersion: v1",
            "kind: Node",
            "metadata:",
            f"  name: {_q(node)}",
            "  labels:",
        ]
        lines += [f"    {_q(k)}: {_q(v)}" for k, v in sorted(labels.items())]
    return "\n".join(lines) + "\n"


WRITERS = {
    "slurm-tree": slurm_tree,
    "slurm-block": slurm_block,
    "topograph": topograph_model,
    "k8s-labels": k8s_labels,
}
