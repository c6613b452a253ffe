"""check-cabling reads what installers have: seven report formats, detected or named, ports
mapped from the tools' names, parse errors with their line, limits and encodings."""

from __future__ import annotations

import json
import re

import pytest

from cli import run_cli
from model.asbuilt import cabling_check
from model.asbuilt.cabling_check import check_cabling, detect_format, read_report, summary
from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports import FORMATS, source
from model.files.design_file import save_design
from tests.model.cabling_report_writers import (
    WRITERS,
    cables,
    write_cvt_csv,
    write_iblinkinfo,
    write_ibnetdiscover,
    write_netbox,
)

SWAP = ("l-1", "l-2")  # a1 nic1 -> leaf1 p1 and a1 nic2 -> leaf1 p2, swapped at the switch
MISSING = "l-32"  # b2 nic8 -> leaf2 p32, not cabled


def _saved(tmp_path, pod):
    path = tmp_path / "pod.hall.json"
    save_design(pod, path)
    return path


def _by_status(rows):
    out: dict[str, list[str]] = {}
    for r in rows:
        out.setdefault(r.status, []).append(r.link_id)
    return out


def test_every_format_has_a_fixture_writer():
    assert set(WRITERS) == set(FORMATS) and len(FORMATS) == 7


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_swapped_pair_and_a_missing_cable_are_found_in_each_format(tmp_path, pod, name, capsys):
    paths = WRITERS[name](pod, cables(pod, SWAP, MISSING), tmp_path)
    assert {detect_format(p) for p in paths} == {name}
    rows = check_cabling(pod, read_report(paths))
    found = _by_status(rows)
    assert sorted(found["MISWIRED"]) == sorted(SWAP)
    assert found["MISSING"] == [MISSING]
    assert summary(rows)["OK"] == len(pod.links) - 3
    assert summary(rows)["UNEXPECTED"] == summary(rows)["UNKNOWN"] == 0
    miswired = next(r for r in rows if r.link_id == "l-1")
    assert "a1 nic1 sees leaf1 p2" in miswired.observed and miswired.where
    design_file = _saved(tmp_path, pod)
    assert run_cli(["check-cabling", str(design_file), *map(str, paths)]) == 1
    out = capsys.readouterr().out
    assert "2 MISWIRED, 1 MISSING" in out


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_clean_report_in_each_format_exits_0(tmp_path, pod, name, capsys):
    paths = WRITERS[name](pod, cables(pod), tmp_path)
    args = ["check-cabling", str(_saved(tmp_path, pod)), *map(str, paths)]
    assert run_cli([*args, "--format", name]) == 0
    assert f"{len(pod.links)} OK, 0 MISWIRED, 0 MISSING, 0 UNEXPECTED, 0 UNKNOWN" in (
        capsys.readouterr().out
    )


def test_cvt_csv_and_netbox_export_columns_are_read_too(tmp_path, pod):
    hall = cables(pod, SWAP, MISSING)
    for path, name in (
        (write_cvt_csv(pod, hall, tmp_path / "links.csv"), "cvt"),
        (write_netbox(pod, hall, tmp_path / "export.csv", export=True), "netbox"),
    ):
        assert detect_format(path) == name
        found = _by_status(check_cabling(pod, read_report(path)))
        assert sorted(found["MISWIRED"]) == sorted(SWAP) and found["MISSING"] == [MISSING]


def test_iblinkinfo_line_mode_and_a_folder_of_lldp_files(tmp_path, pod):
    hall = cables(pod, SWAP, MISSING)
    path = write_iblinkinfo(pod, hall, tmp_path / "links-l.txt", line_mode=True)
    assert detect_format(path) == "iblinkinfo"
    found = _by_status(check_cabling(pod, read_report(path)))
    assert sorted(found["MISWIRED"]) == sorted(SWAP) and found["MISSING"] == [MISSING]
    WRITERS["lldp-json"](pod, hall, tmp_path / "hosts")
    rows = check_cabling(pod, read_report(tmp_path / "hosts" / "lldp"))
    found = _by_status(rows)
    assert sorted(found["MISWIRED"]) == sorted(SWAP) and found["MISSING"] == [MISSING]
    where = next(r for r in rows if r.link_id == "l-1").where
    assert where == "a1.json interface nic1, a1.json interface nic2"  # both ends of its cable


def test_format_named_is_used_and_a_wrong_name_is_refused_with_a_sentence(tmp_path, pod, capsys):
    path = write_ibnetdiscover(pod, cables(pod), tmp_path / "fabric.txt")
    design_file = str(_saved(tmp_path, pod))
    assert run_cli(["check-cabling", design_file, str(path), "--format", "ibnetdiscover"]) == 0
    assert run_cli(["check-cabling", design_file, str(path), "--format", "iblinkinfo"]) == 2
    err = capsys.readouterr().err
    assert "fabric.txt: line 1: not an iblinkinfo line" in err and "Traceback" not in err
    assert run_cli(["check-cabling", design_file, str(path), "--format", "lldp-json"]) == 2
    assert "line 1: not lldpctl JSON" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse: not one of the choices, its own exit 2
        run_cli(["check-cabling", design_file, str(path), "--format", "excel"])


def test_a_parse_error_names_its_line(tmp_path, pod, capsys):
    path = write_iblinkinfo(pod, cables(pod), tmp_path / "links.txt")
    lines = path.read_text().splitlines()
    lines.insert(6, "           1    7[  ] ==( garbled")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReportError, match=r"links\.txt: line 7: not an iblinkinfo line"):
        read_report(path)
    topo = write_ibnetdiscover(pod, cables(pod), tmp_path / "fabric.topo")
    lines = topo.read_text().splitlines()
    lines[9] = "[x] nonsense"
    topo.write_text("\n".join(lines) + "\n")
    assert run_cli(["check-cabling", str(_saved(tmp_path, pod)), str(topo)]) == 2
    assert "line 10: not an ibnetdiscover line" in capsys.readouterr().err


def test_files_of_no_report_format_are_refused_with_a_sentence(tmp_path, pod, capsys):
    design_file = str(_saved(tmp_path, pod))
    other = tmp_path / "other.json"
    other.write_text('{"devices": []}')
    (tmp_path / "empty").mkdir()
    for report, says in (
        (other, 'a JSON file, but not lldpctl\'s (no "lldp" object)'),
        (tmp_path / "empty", "an empty folder, no report in it"),
        (tmp_path / "absent.txt", "cannot be read"),
    ):
        assert run_cli(["check-cabling", design_file, str(report)]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err


def test_ibnetdiscover_ca_lines_without_the_far_description_use_the_far_node_line(tmp_path, pod):
    """Older ibnetdiscover prints a CA's port line as ``[1] "S-<guid>"[3]  # lid 1``: the
    switch is named by its own node line, read before or after."""
    path = write_ibnetdiscover(pod, cables(pod, SWAP, MISSING), tmp_path / "old.topo")
    text = re.sub(r'# lid 5 lmc 0 "[^"]*" lid 1 4xNDR', "# lid 1", path.read_text())
    path.write_text(text)
    found = _by_status(check_cabling(pod, read_report(path)))
    assert sorted(found["MISWIRED"]) == sorted(SWAP) and found["MISSING"] == [MISSING]
    # a far node described nowhere in the file is named in the error, with the line
    no_switch_blocks = text.split("\n\n", 1)[0] + "\n\n" + text.split("Ca\t", 1)[1]
    path.write_text("Ca\t" + no_switch_blocks.split("Ca\t", 1)[-1])
    with pytest.raises(ReportError, match=r"line 2: the node S-b83fd203[0-9a-f]+ it links to"):
        read_report(path)


def test_utf16_and_bom_reports_with_any_line_ending_read_the_same(tmp_path, pod):
    path = write_netbox(pod, cables(pod, SWAP, MISSING), tmp_path / "cables.csv")
    want = [(r.status, r.link_id) for r in check_cabling(pod, read_report(path))]
    text = path.read_text().replace("\r\n", "\n")
    for encoding, newline in (("utf-16", "\r\n"), ("utf-8-sig", "\r"), ("utf-8", "\r\n")):
        other = tmp_path / f"{encoding}-{len(newline)}.csv"
        other.write_bytes(text.replace("\n", newline).encode(encoding))
        assert detect_format(other) == "netbox"
        assert [(r.status, r.link_id) for r in check_cabling(pod, read_report(other))] == want
    kv = WRITERS["lldp-keyvalue"](pod, cables(pod), tmp_path / "kv")
    for p in kv:
        p.write_bytes(p.read_text().replace("\n", "\r\n").encode("utf-16"))
    assert summary(check_cabling(pod, read_report(kv)))["OK"] == len(pod.links)


def test_a_report_over_its_limits_is_refused_before_work_with_a_sentence(
    tmp_path, pod, monkeypatch
):
    path = write_iblinkinfo(pod, cables(pod), tmp_path / "links.txt")
    monkeypatch.setattr(source, "MAX_REPORT_BYTES", 1000)
    with pytest.raises(ReportError, match="is over the 1,000 bytes a report may have"):
        read_report(path)
    monkeypatch.setattr(source, "MAX_REPORT_BYTES", 1 << 30)
    monkeypatch.setattr(source, "MAX_ROWS", 20)
    with pytest.raises(ReportError, match="more than 20 rows"):
        read_report(path)
    csv_path = write_netbox(pod, cables(pod), tmp_path / "cables.csv")
    with pytest.raises(ReportError, match="more than 20 rows"):
        read_report(csv_path)
    monkeypatch.setattr(source, "MAX_ROWS", 4_000_000)
    long_name = write_netbox(pod, [("a1" * 600, "nic1", "leaf1", "p1")], tmp_path / "long.csv")
    with pytest.raises(ReportError, match="line 2 has a value 1,200 characters long"):
        read_report(long_name)
    one_line = tmp_path / "one-line.txt"
    one_line.write_text("lldp.eth0.chassis.name=" + "x" * 70_000 + "\n")
    with pytest.raises(ReportError, match="line 1 is over 65,536 characters long"):
        read_report(one_line, "lldp-keyvalue")
    binary = tmp_path / "bad.csv"
    binary.write_bytes(b"local_device,local_port,remote_device,remote_port\na1,\xff\xfe\xfa,x,y\n")
    with pytest.raises(ReportError, match="not UTF-8"):
        read_report(binary)


def test_lldp_json0_and_a_host_named_by_its_chassis_section(tmp_path, pod):
    document = {
        "local-chassis": [{"chassis": [{"name": [{"value": "a1"}]}]}],
        "lldp": [
            {
                "interface": [
                    {
                        "name": "mlx5_0",
                        "chassis": [{"name": [{"value": "leaf1"}]}],
                        "port": [{"id": [{"type": "ifname", "value": "Eth1/2"}]}],
                    }
                ]
            }
        ],
    }
    path = tmp_path / "x.json"
    path.write_text(json.dumps(document))
    assert read_report(path)[0][1] | {"where": ""} == {
        "local_device": "a1",
        "local_port": "mlx5_0",
        "remote_device": "leaf1",
        "remote_port": "Eth1/2",
        "where": "",
    }
    rows = check_cabling(pod, read_report(path))
    assert next(r for r in rows if r.link_id == "l-1").observed == "a1 nic1 sees leaf1 p2"
    path.write_text(json.dumps(document).replace('"a1"', '"A1.cluster.example"'))
    rows = check_cabling(pod, read_report(path))  # a domain name: its host part is the device
    assert next(r for r in rows if r.link_id == "l-1").observed == "a1 nic1 sees leaf1 p2"


def test_tool_port_names_map_to_the_design_ports(pod):
    ports = cabling_check.PortNames(pod)
    assert ports.resolve("a1", "mlx5_2") == "nic3"
    assert ports.resolve("a1", "ib7") == "nic8" and ports.resolve("a1", "HCA-1") == "nic1"
    assert ports.resolve("a1", "NIC4") == "nic4" and ports.resolve("a1", "3") == "nic3"
    assert ports.resolve("leaf1", "17") == "p17" and ports.resolve("leaf1", "9/1") == "p17"
    assert ports.resolve("leaf1", "swp5") == "p5" and ports.resolve("leaf1", "P64") == "p64"
    assert ports.resolve("leaf1", "Ethernet1/3") == "p3"
    assert ports.resolve("leaf1", "nonsense") == "nonsense"
