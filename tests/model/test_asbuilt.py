"""The as-built loop: P2P file, cabling check against a neighbour report, measured lengths."""

from __future__ import annotations

import csv

import pytest

from cli import run_cli
from model.asbuilt.cabling_check import check_cabling, read_report, summary
from model.asbuilt.lengths import apply_lengths, read_lengths
from model.asbuilt.report_csv import ReportError
from model.files.design_file import load_design, save_design
from model.generators.generate import apply_cabling, generate
from model.outputs.p2p import END_COLUMNS, P2P_COLUMNS, PORT_STYLES, ib_port_name, p2p_rows
from model.outputs.schedule import schedule_rows, schedule_table
from tests.model.bom_test_helpers import plant_of


def _write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _report_rows(pod, swap=()):
    """Both ends of every link as LLDP would see them; ``swap`` rotates the B ends of links."""
    links = [pod.links[i] for i in sorted(pod.links)]
    far = {link.id: (link.b.device, link.b.port) for link in links}
    ids = list(swap)
    for i, link_id in enumerate(ids):  # cable of link i lands on link i+1's far port
        far[link_id] = (
            pod.links[ids[(i + 1) % len(ids)]].b.device,
            pod.links[ids[(i + 1) % len(ids)]].b.port,
        )
    rows = []
    for link in links:
        rows.append((link.a.device, link.a.port, *far[link.id]))
        rows.append((*far[link.id], link.a.device, link.a.port))
    return rows


def test_p2p_has_the_tools_columns_and_one_row_per_cable(tmp_path, pod):
    design_file = _saved(tmp_path, pod)
    out = tmp_path / "p2p.csv"
    assert run_cli(["export-p2p", str(design_file), "-o", str(out)]) == 0
    with open(out, newline="") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == P2P_COLUMNS
    assert len(rows) - 1 == len(pod.links)
    assert {r[3] for r in rows[1:]} <= {"Host", "Switch"}
    assert run_cli(["export-p2p", str(design_file), "-o", str(tmp_path / "p.xlsx")]) == 0
    assert run_cli(["export-p2p", str(design_file), "-o", str(tmp_path / "p.txt")]) == 2


def test_ib_port_names_are_cage_and_port_on_switches_and_hca_numbers_on_hosts(pod):
    assert ib_port_name(pod, "leaf1", "p1") == "1/1"
    assert ib_port_name(pod, "leaf1", "p2") == "1/2"
    assert ib_port_name(pod, "leaf1", "p17") == "9/1"
    assert ib_port_name(pod, "a1", "nic3") == "3"
    assert ib_port_name(pod, "a1", "bmc1") == "bmc1"
    rows = p2p_rows(pod, schedule_table(pod, plant_of(pod), segments=False), "ib")
    assert all("/" in r[9] for r in rows if r[8] == "Switch")


@pytest.mark.parametrize("cabling", ["zones", "cross-connect"])
@pytest.mark.parametrize("style", PORT_STYLES)
def test_p2p_columns_are_each_cable_end_looked_up_by_its_rack_u_and_name(cabling, style):
    """The column-wise file equals the per-row reading of the one-row-per-link schedule (each
    end's device found by rack name, U and device name), panels and all left out."""
    design = generate(
        "rail-optimized", nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32
    )
    apply_cabling(design, cabling)  # patch panels, cords and trunks: not in the P2P file
    plant = plant_of(design)
    by_name = {(design.racks[d.rack].name, d.u, d.name): d.id for d in design.devices.values()}

    def kind(device_id):
        category = design.device_type(device_id).category
        return "Switch" if category in ("switch", "nvlink-switch") else "Host"

    def port(device_id, name):
        return ib_port_name(design, device_id, name) if style == "ib" else name

    expected = []
    for r in schedule_rows(design, plant, segments=False):
        a = by_name[(r.a_rack, r.a_u, r.a_device)]
        b = by_name[(r.b_rack, r.b_u, r.b_device)]
        expected.append(
            (r.a_rack, r.a_u, r.a_device, kind(a), port(a, r.a_port))
            + (r.b_rack, r.b_u, r.b_device, kind(b), port(b, r.b_port))
        )
    table = schedule_table(design, plant, segments=False, only=END_COLUMNS)
    assert p2p_rows(design, table, style) == expected
    assert len(expected) == len(design.links)  # no backplane links in a DGX pod


def test_three_swapped_cables_are_miswired_and_a_missing_one_missing(tmp_path, pod):
    swapped = sorted(pod.links)[:3]
    rows = _report_rows(pod, swapped)
    gone = sorted(pod.links)[-1]
    link = pod.links[gone]
    rows = [
        r
        for r in rows
        if (r[0], r[1]) not in ((link.a.device, link.a.port), (link.b.device, link.b.port))
    ]
    rows.append(("a1", "bmc1", "mgmt-sw", "p1"))  # a device the design does not have, seen
    rows.append(("MGMT-SW", "p1", "a1", "bmc1"))  # unknown local device
    report = _write(
        tmp_path / "lldp.csv", ["Local Device", "Local Port", "Neighbor", "Neighbor Port"], rows
    )
    result = check_cabling(pod, read_report(report))
    by_status = {}
    for r in result:
        by_status.setdefault(r.status, []).append(r.link_id)
    assert sorted(by_status["MISWIRED"]) == sorted(swapped)
    assert by_status["MISSING"] == [gone]
    counts = summary(result)
    assert counts["OK"] == len(pod.links) - 4
    assert counts["UNEXPECTED"] == 1 and counts["UNKNOWN"] == 1
    out = tmp_path / "check.csv"
    assert run_cli(["check-cabling", str(_saved(tmp_path, pod)), str(report), "-o", str(out)]) == 1
    assert out.read_text().count("MISWIRED") == 3


def _saved(tmp_path, pod):
    path = tmp_path / "pod.hall.json"
    save_design(pod, path)
    return path


def test_a_clean_report_checks_ok_and_exits_0(tmp_path, pod, capsys):
    report = _write(
        tmp_path / "r.csv",
        ["local_device", "local_port", "remote_device", "remote_port"],
        _report_rows(pod),
    )
    assert run_cli(["check-cabling", str(_saved(tmp_path, pod)), str(report)]) == 0
    assert f"{len(pod.links)} OK, 0 MISWIRED, 0 MISSING" in capsys.readouterr().out


def test_a_report_without_its_columns_is_refused_with_a_sentence(tmp_path, pod, capsys):
    report = _write(tmp_path / "r.csv", ["host", "if"], [("a1", "nic1")])
    assert run_cli(["check-cabling", str(_saved(tmp_path, pod)), str(report)]) == 2
    err = capsys.readouterr().err
    assert "line 1 has no column 'local_device'" in err and "Traceback" not in err


def test_measured_lengths_become_as_built_and_errors_are_reported_per_route_kind(tmp_path, pod):
    plant = plant_of(pod)
    schedule = schedule_rows(pod, plant)
    estimate = {r.label: float(plant.routed_m[plant.index[r.cable_id]]) for r in schedule}
    rows = [(label, round(value + 1.0, 2)) for label, value in estimate.items()]
    rows.append(("no such cable", 3.0))
    path = _write(tmp_path / "len.csv", ["Cable Label", "Length (m)"], rows)
    errors, problems = apply_lengths(pod, plant, read_lengths(path))
    assert problems == [f"line {len(rows) + 1}: no cable labelled 'no such cable'"]
    assert sum(e.cables for e in errors) == len(schedule)
    for e in errors:
        assert e.mean_error_m == pytest.approx(1.0, abs=0.01)
        assert e.max_abs_error_m == pytest.approx(1.0, abs=0.01)
    first = schedule[0]
    assert pod.links[first.cable_id].as_built_m == round(estimate[first.label] + 1.0, 2)
    plant.refresh()
    i = plant.index[first.cable_id]
    assert float(plant.length_m[i]) == pytest.approx(estimate[first.label] + 1.0, abs=0.01)


def test_as_built_command_saves_the_lengths_and_refuses_bad_numbers(tmp_path, pod, capsys):
    design_path = _saved(tmp_path, pod)
    label = schedule_rows(pod, plant_of(pod))[0].label
    good = _write(tmp_path / "l.csv", ["label", "length_m"], [(label, "7.5")])
    out = tmp_path / "built.hall.json"
    assert run_cli(["as-built", str(design_path), str(good), "-o", str(out)]) == 0
    built = load_design(out)
    assert sum(1 for link in built.links.values() if link.as_built_m == 7.5) == 1
    bad = _write(tmp_path / "b.csv", ["label", "length_m"], [(label, "long")])
    capsys.readouterr()
    assert run_cli(["as-built", str(design_path), str(bad)]) == 2
    assert "line 2: length 'long' is not a number" in capsys.readouterr().err
    with pytest.raises(ReportError):
        read_lengths(_write(tmp_path / "n.csv", ["label", "length_m"], [(label, "-3")]))
