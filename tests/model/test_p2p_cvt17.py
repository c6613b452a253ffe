"""CVT 1.7 P2P workbook: the Links sheet's documented columns and Protocol, nodes on the Nodes sheet, every DGX H100 rail mapped to its compute NIC, the 1.5 CSV kept, and the workbook read back by check-cabling."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from cli import run_cli
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design, save_design
from model.generators.generate import generate
from model.outputs.p2p_cvt17 import (
    SCHEDULE_NEEDS,
    MappingError,
    cvt17_sheets,
    link_protocol,
    port_mapping,
)
from model.outputs.schedule import schedule_table

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"

# CVT 1.7.1 documentation, "P2P File", Links sheet: "A-Node A-Port Z-Node Z-Port Protocol
# Shuffle-ID A-Connector A-MPO-Connector Z-Connector Z-MPO-Connector A-Module-PN Z-Module-PN
# Source-Ref"; mandatory: A-Node, A-Port, Z-Node, Z-Port, Protocol "(ib/ethernet/nvlink)";
# "A-Node ... Must exist in the Nodes sheet"; "Column names are case-insensitive".
CVT171_LINK_COLUMNS = (
    "A-Node", "A-Port", "Z-Node", "Z-Port", "Protocol", "Shuffle-ID", "A-Connector",
    "A-MPO-Connector", "Z-Connector", "Z-MPO-Connector", "A-Module-PN", "Z-Module-PN",
    "Source-Ref",
)  # fmt: skip
CVT171_MANDATORY = ("A-Node", "A-Port", "Z-Node", "Z-Port", "Protocol")
# DGX H100 user guide, network-modules table (source DGXH100-UG): the compute ConnectX-7s.
DGX_H100_COMPUTE_RDMA = {f"mlx5_{k}" for k in (0, 3, 4, 5, 6, 9, 10, 11)}


def _sheets(design):
    plant = RoutedLinks(design)
    plant.refresh()
    return cvt17_sheets(design, schedule_table(design, plant, segments=False, only=SCHEDULE_NEEDS))


def _workbook(tmp_path, example="small-pod", extra=()):
    out = tmp_path / "p2p.xlsx"
    path = str(EXAMPLES / f"{example}.hall.json")
    assert run_cli(["export-p2p", path, "-o", str(out), *extra]) == 0
    book = openpyxl.load_workbook(out, read_only=True)
    return {name: list(book[name].iter_rows(values_only=True)) for name in book.sheetnames}


def test_links_sheet_has_the_documented_columns_and_nodes_exist(tmp_path):
    sheets = _workbook(tmp_path)
    assert set(sheets) == {"Nodes", "Links"}
    header = [h.lower() for h in sheets["Links"][0]]
    assert all(c.lower() in header for c in CVT171_MANDATORY)
    assert set(header) <= {c.lower() for c in CVT171_LINK_COLUMNS}
    design = load_design(EXAMPLES / "small-pod.hall.json")
    links = sheets["Links"][1:]
    assert len(links) == len(design.links)
    nodes = {row[0] for row in sheets["Nodes"][1:]}
    protocol = header.index("protocol")
    for row in links:
        assert row[0] in nodes and row[2] in nodes
        assert row[protocol] == "ib"  # a Quantum-2 fabric
        assert all(row[k] not in (None, "") for k in range(5))


def test_every_dgx_h100_rail_maps_to_its_compute_nic():
    design = load_design(EXAMPLES / "small-pod.hall.json")
    mapping = dict(port_mapping(design, "1.7"))
    _, links = _sheets(design)
    rails: dict[str, set] = {}
    for _a_node, a_port, z_node, _z_port, *_ in links:
        if a_port in mapping:  # a host's compute port, by its interface name
            rail = z_node.rsplit("rail", 1)[1]
            rails.setdefault(rail, set()).add(mapping[a_port])
    assert sorted(rails, key=int) == [str(k) for k in range(1, 9)]
    assert all(len(rdma) == 1 for rdma in rails.values())  # one NIC per rail on every node
    assert set().union(*rails.values()) == DGX_H100_COMPUTE_RDMA
    # The 1.5 mapping (HCA numbers) names the same devices; the tool's default (n -> mlx5_n-1)
    # sends rails 2, 3 and 8 to NICs that are not compute NICs.
    numbered = dict(port_mapping(design, "1.5"))
    assert set(numbered.values()) == DGX_H100_COMPUTE_RDMA
    default = {f"mlx5_{int(n) - 1}" for n in numbered}
    assert len(default - DGX_H100_COMPUTE_RDMA) == 3


def test_protocol_per_fabric():
    design = load_design(EXAMPLES / "nvl72-su.hall.json")
    # NVLink backplane links are not cables: the file has the InfiniBand ones only.
    assert {row[4] for row in _sheets(design)[1]} == {"ib"}
    tray = next(d for d in design.devices.values() if d.role == "gpu-server")
    nvsw = next(d for d in design.devices.values() if d.role == "nvlink-switch")
    assert link_protocol(design, "scale-up", tray.id, nvsw.id) == "nvlink"


def test_ethernet_fabric_names_switch_ports_swp():
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="sn5600", su_nodes=8)
    nodes, links = _sheets(design)
    kind = {row[0]: row[1] for row in nodes}
    assert {row[4] for row in links} == {"ethernet"}
    for row in links:
        for node, port in ((row[0], row[1]), (row[2], row[3])):
            if kind[node] == "Switch":
                assert port.startswith("swp")  # swp<n>s<k-1> for a split port
            else:
                assert port.startswith("nic")  # not the InfiniBand-mode interface name


def test_mapping_refused_where_no_host_type_publishes_rdma_names():
    design = generate(
        "rail-optimized", nodes=8, node_type="hgx-h100-8x400", switch="qm9700", su_nodes=8
    )
    with pytest.raises(MappingError, match="RDMA"):
        port_mapping(design, "1.7")


def test_cli_versions_mapping_file_and_refusals(tmp_path, capsys):
    path = str(EXAMPLES / "small-pod.hall.json")
    out15, mapping = tmp_path / "p.csv", tmp_path / "map.csv"
    assert (
        run_cli(["export-p2p", path, "-o", str(out15), "--ports", "ib", "--mapping", str(mapping)])
        == 0
    )
    with open(out15, newline="") as handle:
        assert next(csv.reader(handle))[:3] == ["A-Rack", "A-U", "A-Node Name"]  # 1.5 kept
    with open(mapping, newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["port", "hca-name"] and rows[1:3] == [["1", "mlx5_0"], ["2", "mlx5_3"]]
    assert run_cli(["export-p2p", path, "-o", str(tmp_path / "x.csv"), "--cvt", "1.7"]) == 2
    assert "workbook" in capsys.readouterr().err
    assert (
        run_cli(["export-p2p", path, "-o", str(tmp_path / "y.csv"), "--mapping", str(mapping)]) == 2
    )
    assert "--ports ib" in capsys.readouterr().err
    hgx = tmp_path / "hgx.hall.json"
    save_design(
        generate(
            "rail-optimized", nodes=8, node_type="hgx-h100-8x400", switch="qm9700", su_nodes=8
        ),
        hgx,
    )
    out = tmp_path / "hgx.xlsx"
    assert (
        run_cli(["export-p2p", str(hgx), "-o", str(out), "--mapping", str(tmp_path / "m.csv")]) == 2
    )
    assert not out.exists()  # refused before any file was written


def test_check_cabling_reads_the_17_workbook_back_as_installed(tmp_path, capsys):
    _workbook(tmp_path)
    path = str(EXAMPLES / "small-pod.hall.json")
    code = run_cli(["check-cabling", path, str(tmp_path / "p2p.xlsx")])
    out = capsys.readouterr().out
    assert code == 0, out


def test_a_note_says_when_the_tools_default_mapping_misroutes_hosts(tmp_path, capsys):
    path = str(EXAMPLES / "small-pod.hall.json")
    assert run_cli(["export-p2p", path, "-o", str(tmp_path / "p.csv"), "--ports", "ib"]) == 0
    # Only port 1 is mlx5_0 on a DGX H100: the other 7 ports differ from the tool's default.
    assert "note: 7 host port(s) need a port mapping" in capsys.readouterr().out
    assert run_cli(["export-p2p", path, "-o", str(tmp_path / "q.csv")]) == 0  # design names
    assert "note:" not in capsys.readouterr().out
