"""Scheduler topology files: topology.conf parsed with a parser written from Slurm's topology.conf(5) grammar, Topograph's model checked against its docs/modeling.md rules, Kubernetes labels against the label syntax."""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest
import yaml

from cli import run_cli
from model.design.fabrics import link_fabric_map
from model.files.design_file import load_design
from model.outputs.fabric_tree import fabric_tree
from model.outputs.topology_files import (
    TopologyExportError,
    block_sizes,
    fnv1a_64,
    hostlist,
    k8s_labels,
    label_value,
    slurm_block,
    slurm_tree,
    topograph_model,
)

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"


@pytest.fixture(scope="module")
def superpod():
    return load_design(EXAMPLES / "superpod-4su.hall.json")


@pytest.fixture(scope="module")
def nvl72():
    return load_design(EXAMPLES / "nvl72-su.hall.json")


# --- a parser from topology.conf(5) ------------------------------------------------------------
# "Parameter names are case insensitive. Any text following a "#" ... is treated as a comment";
# "Slurm's hostlist expression parser is used ... (e.g. "Nodes=tux[0-3,12,18-20]")".


def expand_hostlist(expr: str) -> list[str]:
    out, depth, start = [], 0, 0
    pieces = []
    for i, ch in enumerate(expr + ","):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append(expr[start:i])
            start = i + 1
    for piece in pieces:
        m = re.fullmatch(r"([^\[\]]*)\[([0-9,\-]+)\]", piece)
        if not m:
            assert "[" not in piece and "]" not in piece, piece
            out.append(piece)
            continue
        for part in m.group(2).split(","):
            lo, _, hi = part.partition("-")
            width = len(lo)
            for k in range(int(lo), int(hi or lo) + 1):
                out.append(f"{m.group(1)}{k:0{width}d}")
    return out


def parse_topology_conf(text: str) -> list[dict[str, str]]:
    records = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        record = {}
        for token in line.split():
            key, sep, value = token.partition("=")
            assert sep and value, f"not key=value: {token!r}"
            record[key.lower()] = value
        records.append(record)
    return records


def parse_tree(text: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(switch -> child switches, switch -> nodes) of a topology/tree file."""
    switches, nodes = {}, {}
    for r in parse_topology_conf(text):
        assert set(r) <= {"switchname", "switches", "nodes", "linkspeed"}, r
        name = r["switchname"]  # "This field must be specified"
        assert len(name) <= 64 and name not in switches  # "unique", "not longer than 64"
        switches[name] = expand_hostlist(r.get("switches", "")) if "switches" in r else []
        nodes[name] = expand_hostlist(r["nodes"]) if "nodes" in r else []
    return switches, nodes


def _compute_leaves(design) -> dict[str, frozenset]:
    """Server name -> the leaf switches it is cabled to on the compute fabric (independent of
    the exporter's grouping)."""
    fabric = link_fabric_map(design)
    out: dict[str, set] = {}
    for lid, link in design.links.items():
        if fabric[lid] != "compute":
            continue
        for mine, other in ((link.a.device, link.b.device), (link.b.device, link.a.device)):
            if design.devices[mine].role == "gpu-server" and design.devices[other].role == "leaf":
                out.setdefault(design.devices[mine].name, set()).add(other)
    return {k: frozenset(v) for k, v in out.items()}


def test_slurm_tree_parses_and_each_logical_leaf_is_one_hop(superpod):
    switches, nodes = parse_tree(slurm_tree(fabric_tree(superpod)))
    parents: dict[str, str] = {}
    for name, children in switches.items():
        for child in children:
            assert child in switches, f"{name} names undefined switch {child}"
            assert child not in parents, f"{child} has two parents"
            parents[child] = name
    roots = [s for s in switches if s not in parents]
    assert len(roots) == 1  # one fabric: jobs may span every node
    placed = [n for ns in nodes.values() for n in ns]
    leaves = _compute_leaves(superpod)
    assert sorted(placed) == sorted(leaves)  # every cabled server exactly once
    for ns in filter(None, nodes.values()):  # nodes under one logical leaf: the same rail leaves
        assert len({leaves[n] for n in ns}) == 1
    assert sorted(len(ns) for ns in nodes.values() if ns) == [32, 32, 32, 32]  # four SUs


def test_slurm_block_parses_with_documented_block_sizes(superpod, nvl72):
    for design, base in ((superpod, 32), (nvl72, 18)):
        records = parse_topology_conf(slurm_block(fabric_tree(design)))
        blocks = {r["blockname"]: expand_hostlist(r["nodes"]) for r in records if "blockname" in r}
        sizes_line = [r for r in records if "blocksizes" in r]
        assert len(sizes_line) == 1
        sizes = [int(x) for x in sizes_line[0]["blocksizes"].split(",")]
        assert sizes[0] == base
        # "Each block must have at least the planning base block size count of nodes."
        assert all(len(b) >= sizes[0] for b in blocks.values())
        # "Successive BlockSizes must be a power of two larger than the prior values."
        for lo, hi in zip(sizes, sizes[1:], strict=False):
            ratio = hi // lo
            assert hi % lo == 0 and ratio > 1 and ratio & (ratio - 1) == 0
        members = [n for b in blocks.values() for n in b]
        assert len(members) == len(set(members)) == len(_compute_leaves(design))
    # An NVL72 block is the 18 compute trays of one rack (one NVLink domain).
    tree = fabric_tree(nvl72)
    assert tree.block_kind == "nvlink"
    for nodes in tree.blocks.values():
        racks = {d.rack for d in nvl72.devices.values() if d.name in nodes}
        assert len(nodes) == 18 and len(racks) == 1


def test_topograph_model_follows_its_validation_checklist(nvl72):
    model = yaml.safe_load(topograph_model(fabric_tree(nvl72)))
    assert set(model) == {"switches", "nodes", "capacity_blocks"}
    parent: dict[str, str] = {}
    attached: dict[str, str] = {}
    for name, switch in model["switches"].items():
        assert set(switch) <= {"metadata", "switches", "nodes"}
        for child in switch.get("switches", []):
            assert child in model["switches"] and child not in parent  # one parent
            parent[child] = name
        for node in switch.get("nodes", []):
            assert node in model["nodes"] and node not in attached  # defined, one switch
            attached[node] = name
    for block, entry in model["capacity_blocks"].items():
        for node in entry["nodes"]:
            assert model["nodes"][node]["capacity_block"] == block  # no conflicting membership
            assert model["nodes"][node]["attributes"]["nvlink"] == entry["attributes"]["nvlink"]
    assert len(attached) == len(model["nodes"]) == 144


def test_k8s_labels_are_valid_nodes_and_label_values(nvl72):
    docs = [d for d in yaml.safe_load_all(k8s_labels(fabric_tree(nvl72))) if d]
    assert len(docs) == 144
    value = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
    for doc in docs:
        assert doc["apiVersion"] == "v1" and doc["kind"] == "Node"
        assert re.fullmatch(r"[a-z0-9]([-a-z0-9.]*[a-z0-9])?", doc["metadata"]["name"])
        labels = doc["metadata"]["labels"]
        assert set(labels) == {
            "network.topology.nvidia.com/leaf",
            "network.topology.nvidia.com/spine",
            "network.topology.nvidia.com/accelerator",
        }
        assert all(len(v) <= 63 and value.match(v) for v in labels.values())
    # Trays of one NVL72 rack share the accelerator label; two racks differ.
    by_rack: dict[str, set] = {}
    for doc in docs:
        by_rack.setdefault(doc["metadata"]["name"].split("-")[0], set()).add(
            doc["metadata"]["labels"]["network.topology.nvidia.com/accelerator"]
        )
    assert all(len(v) == 1 for v in by_rack.values()) and len(set().union(*by_rack.values())) == 8


def test_long_label_values_take_topographs_fnv64a_form():
    assert fnv1a_64("") == 0xCBF29CE484222325  # FNV-1a 64 offset basis
    assert fnv1a_64("a") == 0xAF63DC4C8601EC8C  # published FNV-1a test vector
    long = "s" * 64
    assert label_value(long) == f"x{fnv1a_64(long):016x}" and len(label_value(long)) == 17
    assert label_value("leaf-g01") == "leaf-g01"
    assert label_value("bad value").startswith("x")


def test_hostlist_round_trips_through_the_documented_expansion():
    rng = random.Random(7)
    for _ in range(200):
        names = {
            f"{rng.choice(['n', 'su1-node', 'gpu'])}{rng.randrange(0, 130):0{rng.choice([1, 2, 3])}d}"
            for _ in range(rng.randrange(1, 40))
        } | {"login"}
        assert sorted(expand_hostlist(hostlist(sorted(names)))) == sorted(names)
    assert hostlist(["tux0", "tux1", "tux2", "tux3", "tux12"]) == "tux[0-3,12]"


def test_unsafe_server_names_are_refused_with_a_sentence(superpod, tmp_path, capsys):
    design = load_design(EXAMPLES / "small-pod.hall.json")
    node = next(d for d in design.devices.values() if d.role == "gpu-server")
    design.update_devices([msgspec.structs.replace(node, name="node 1, rack A")])
    with pytest.raises(TopologyExportError, match="not host names"):
        slurm_tree(fabric_tree(design))
    assert block_sizes(fabric_tree(superpod)) == [32, 64, 128]


def test_export_topology_command(tmp_path, capsys):
    out = tmp_path / "topology.conf"
    path = str(EXAMPLES / "superpod-4su.hall.json")
    assert run_cli(["export-topology", path, "--format", "slurm-tree", "-o", str(out)]) == 0
    assert "SwitchName=spine-g01 Switches=leaf-g[01-04]" in out.read_text()
    assert run_cli(["export-topology", path, "--format", "slurm-block"]) == 0
    assert "BlockSizes=32,64,128" in capsys.readouterr().out
    assert run_cli(["export-topology", path, "--format", "topograph", "-o", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err


def test_nautobot_design_builder_data_names_every_link_once(tmp_path, capsys):
    """The Design Builder format of the app's own cable test (nautobot-app-design-builder,
    contrib/tests/testdata/cable_connections.yaml and its Nautobot 2 variant): model plural
    keys, "!create_or_update:name", "!ref", and "!connect_cable" {status__name, to}."""
    path = str(EXAMPLES / "small-pod.hall.json")
    assert run_cli(["export-topology", path, "--format", "nautobot-design"]) == 0
    doc = yaml.safe_load(capsys.readouterr().out)
    assert doc["extensions"] == ["nautobot_design_builder.contrib.ext.CableConnectionExtension"]
    build, cables = doc["designs"]
    design = load_design(EXAMPLES / "small-pod.hall.json")
    devices = {d["!create_or_update:name"]: d for d in build["devices"]}
    assert len(devices) == len(design.devices)
    racks = {r["!ref"] for r in build["racks"]}
    assert all(d["rack"].removeprefix("!ref:") in racks for d in devices.values())
    models = {t["!create_or_update:model"] for t in build["device_types"]}
    assert {d["device_type__model"] for d in devices.values()} <= models
    refs = {d["!ref"] for d in cables["devices"] if "!ref" in d}
    seen = set()
    for entry in cables["devices"]:
        for iface in entry.get("interfaces", []):
            cable = iface["!connect_cable"]
            assert cable["status__name"] == "Planned" and cable["length_unit"] == "m"
            assert cable["to"]["device"].removeprefix("!ref:") in refs
            far = next(n for n, d in devices.items() if d["!ref"] == cable["to"]["device"][5:])
            ends = frozenset([(entry["!create_or_update:name"], iface["!create_or_update:name"]),
                              (far, cable["to"]["name"])])  # fmt: skip
            assert ends not in seen
            seen.add(ends)
            for name, port in ends:  # both interfaces exist on their devices
                assert port in {i["!create_or_update:name"] for i in devices[name]["interfaces"]}
    assert len(seen) == len(design.links)
    assert {i["type"] for d in devices.values() for i in d["interfaces"]} <= {
        "400gbase-x-osfp", "400gbase-x-qsfp112", "100gbase-x-qsfp28", "1000base-t", "other",
    }  # fmt: skip


def test_nautobot_design_refuses_a_design_cabled_through_panels(tmp_path, capsys):
    from model.files.design_file import save_design
    from model.generators.generate import apply_cabling, generate

    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    apply_cabling(design, "cross-connect")
    save_design(design, tmp_path / "x.hall.json")
    assert (
        run_cli(["export-topology", str(tmp_path / "x.hall.json"), "--format", "nautobot-design"])
        == 2
    )
    assert "patch panels" in capsys.readouterr().err
