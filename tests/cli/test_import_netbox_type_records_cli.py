"""import-netbox of a design's own types whose NetBox comments were edited or grew a datasheet:
a note, exit 0, and a design file analyze opens."""

from __future__ import annotations

import csv

import pytest

from cli import run_cli
from model.files.design_file import load_design, save_design
from model.generators.generate import generate
from model.outputs.netbox.device_types import TYPE_MARK
from tests.cli.test_import_netbox_rest_cli import server  # noqa: F401  (fixture)
from tests.cli.test_push_netbox_cli import TOKEN
from tests.model.netbox_lists import write_lists
from tests.model.test_netbox_custom_type_round_trip import BAD_RECORDS, _edit_records, _export

DATASHEET = "Datasheet pasted by the team: " + "x" * 200_000  # over csv's 128 KiB field limit


@pytest.fixture(scope="module")
def fat_tree():
    return generate("fat-tree", k=4)


def _import_and_analyze(argv: list[str], out, capsys) -> str:
    """import-netbox then analyze, both exit 0; import-netbox's output."""
    capsys.readouterr()
    assert run_cli(["import-netbox", *argv, "-o", str(out)]) == 0, capsys.readouterr()
    said = capsys.readouterr().out
    assert run_cli(["analyze", str(out), "--json"]) == 0, capsys.readouterr().err
    return said


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_an_out_of_range_record_is_a_note_and_the_file_analyzes(tmp_path, fat_tree, case, capsys):
    field, value = BAD_RECORDS[case]
    lists = write_lists(_export(fat_tree), tmp_path / "lists", interfaces=True)
    edited = _edit_records(lists, field, value)
    said = _import_and_analyze([str(lists)], tmp_path / "back.hall.json", capsys)
    for model in edited:
        assert any(
            line.startswith("note: ") and f"{model!r}" in line and f"$.{field}`" in line
            for line in said.splitlines()
        ), said
    assert len(load_design(tmp_path / "back.hall.json").devices) == len(fat_tree.devices)


def test_a_200_kb_comment_in_netbox_s_type_list_does_not_fail_the_import(
    tmp_path, fat_tree, capsys
):
    """NetBox's device type list export keeps a type's whole comments: a 200 kB datasheet
    before the record line (past csv's default 128 KiB field limit: ReportError, exit 2) is
    read, and every type keeps its record, every device comes back."""
    lists = write_lists(_export(fat_tree), tmp_path / "lists", interfaces=True)
    path = lists / "netbox_device_types.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    rows[1][2] = DATASHEET + "\n" + rows[1][2]
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    back = tmp_path / "back.hall.json"
    _import_and_analyze([str(lists)], back, capsys)
    came = load_design(back)
    assert len(came.devices) == len(fat_tree.devices)
    types = {t.model: t for t in came.custom_types.device_types}
    marked = {r[0] for r in rows[1:] if TYPE_MARK in r[2]}
    assert rows[1][0] in marked and all(types[m].power_max_w > 0 for m in marked)


def test_over_rest_only_the_record_line_is_listed_and_a_datasheet_does_not_fail(
    server,  # noqa: F811
    tmp_path,
    fat_tree,
    capsys,
):
    """A 200 kB datasheet in every type's comments in NetBox: import-netbox --url writes only
    the 'Hallwright type:' line to netbox_device_types.csv and the types keep their power."""
    url, handler = server
    design = tmp_path / "fat.hall.json"
    save_design(fat_tree, design)
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    auth = ["--url", url, "--token-file", str(token)]
    assert run_cli(["push-netbox", str(design), *auth]) == 0
    for dtype in handler.netbox.db["device-types"].values():
        dtype["comments"] = DATASHEET + "\n" + (dtype.get("comments") or "")
    lists = tmp_path / "lists"
    back = tmp_path / "back.hall.json"
    _import_and_analyze([*auth, "--lists-to", str(lists)], back, capsys)
    with (lists / "netbox_device_types.csv").open(encoding="utf-8", newline="") as handle:
        comments = [row["Comments"] for row in csv.DictReader(handle)]
    assert comments and all(c == "" or c.startswith(TYPE_MARK) for c in comments)
    assert all("\n" not in c for c in comments) and any(comments)
    came = {t.model: t.power_max_w for t in load_design(back).custom_types.device_types}
    assert came == {t.model: t.power_max_w for t in fat_tree.custom_types.device_types}
