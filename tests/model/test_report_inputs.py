"""Hostile check-cabling reports and as-built files: each a clear refusal naming the line, or
the same result as the plain file (UTF-16 with its mark, CR-only line ends)."""

from __future__ import annotations

import msgspec
import pytest

from model.asbuilt.cabling_check import check_cabling, read_report, summary
from model.asbuilt.lengths import apply_lengths
from model.asbuilt.report_csv import ReportError
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.schedule import schedule_rows

HEADER = "local_device,local_port,remote_device,remote_port\n"


def perfect_report(design) -> str:
    rows = [
        f"{design.devices[k.a.device].name},{k.a.port},{design.devices[k.b.device].name},{k.b.port}"
        for k in design.links.values()
    ]
    return HEADER + "\n".join(rows) + "\n"


def test_utf16_with_its_mark_and_cr_line_ends_read_as_utf8(tmp_path, pod):
    text = perfect_report(pod)
    plain = tmp_path / "plain.csv"
    plain.write_text(text, encoding="utf-8")
    expected = read_report(plain)
    for name, data in (
        ("bom16.csv", text.encode("utf-16")),  # with its byte-order mark
        ("cr.csv", text.replace("\n", "\r").encode()),
        ("crlf.csv", text.replace("\n", "\r\n").encode()),
    ):
        (tmp_path / name).write_bytes(data)
        assert read_report(tmp_path / name) == expected, name
    assert summary(check_cabling(pod, expected))["OK"] == len(pod.links)


@pytest.mark.parametrize(
    "data, message",
    [
        (HEADER.encode("utf-16-le"), "line 1 holds a NUL character"),  # UTF-16 without mark
        ((HEADER + "a,b\x00,c,d\n").encode(), "line 2 holds a NUL"),
        ((HEADER + "x" * 140_000 + ",a,b,c\n").encode(), "line 2: field larger than"),
        (b"\xff\xfe\x00", "line 1 is not UTF-8 text"),
    ],
)
def test_hostile_reports_are_refused_with_the_line(tmp_path, data, message):
    path = tmp_path / "r.csv"
    path.write_bytes(data)
    with pytest.raises(ReportError, match=message):
        read_report(path)


def test_two_devices_sharing_a_name_are_refused_not_miswired(tmp_path, pod):
    report = tmp_path / "r.csv"
    report.write_text(perfect_report(pod))
    rows = read_report(report)
    first, second = sorted(pod.devices)[:2]
    pod.update_devices([msgspec.structs.replace(pod.devices[second], name=pod.devices[first].name)])
    with pytest.raises(ReportError, match="several devices named"):
        check_cabling(pod, rows)


@pytest.mark.parametrize("cabling", ["cross-connect", "zones"])
def test_as_built_lengths_of_cords_and_trunks_are_recorded_as_their_links_pieces(cabling):
    """A measured cord or trunk (the schedule's segment labels, which an installer measures) is
    recorded as that piece of its links (#40), and the schedule orders it at that length."""
    design = generate(
        "rail-optimized", nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32
    )
    apply_cabling(design, cabling)
    plant = RoutedLinks(design)
    rows = schedule_rows(design, plant)
    cord = next(r for r in rows if r.medium_kind == "patch-cord" and r.ordered_length_m != 7.0)
    trunk = next(r for r in rows if r.medium_kind == "trunk" and r.ordered_length_m != 15.0)
    before = {k: v.as_built_m for k, v in design.links.items()}
    errors, problems = apply_lengths(design, plant, [(2, cord.label, 7.0), (3, trunk.label, 15.0)])
    assert problems == []
    assert {e.route_kind: e.cables for e in errors} == {"patch cord": 1, "trunk": 1}
    (cord_error,) = [e for e in errors if e.route_kind == "patch cord"]
    assert cord_error.mean_error_m == pytest.approx(7.0 - cord.length_m, abs=1e-3)
    assert {k: v.as_built_m for k, v in design.links.items()} == before
    link_id, _, end = cord.cable_id.rpartition(":cord-")
    assert design.links[link_id].as_built_pieces_m[0 if end == "a" else -1] == 7.0
    carried = [k for k in design.links.values() if 15.0 in k.as_built_pieces_m]
    assert carried and trunk.link_id in {k.id for k in carried}
    again = {r.cable_id: r for r in schedule_rows(design, RoutedLinks(design))}
    assert again[cord.cable_id].ordered_length_m == 7.0
    assert again[trunk.cable_id].ordered_length_m == 15.0
    # Measured twice: the second row is refused and changes nothing
    _, problems = apply_lengths(design, plant, [(2, cord.label, 5.0), (3, cord.label, 10.0)])
    assert problems == [f"line 3: cable {cord.label!r} already measured on line 2"]


@pytest.mark.parametrize("repeat", [1, 10])  # cell by cell, and the distinct-value fast path
def test_a_cell_starting_with_nul_then_a_formula_is_defused(repeat):
    from model.outputs.writers.csv_writer import csv_bytes, csv_column_bytes

    cells = ["\x00=HYPERLINK(1)"] * repeat + ["plain"] * repeat
    for data in (
        csv_bytes(("a",), [(c,) for c in cells]),
        csv_column_bytes(("a",), [cells]),
    ):
        assert data.split(b"\r\n")[1] == b"'\x00=HYPERLINK(1)"


def test_a_report_past_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from model.asbuilt.reports import source

    path = tmp_path / "r.csv"
    path.write_text(HEADER + "a,b,c,d\n" * 100)
    monkeypatch.setattr(source, "MAX_REPORT_BYTES", 100)
    with pytest.raises(ReportError, match="a report may have"):
        read_report(path)
