"""The facility from the command line: a generated GB300 hall analysed, failed and refused."""

from __future__ import annotations

import json

import pytest

from cli import run_cli


def _json(capsys, args) -> dict:
    capsys.readouterr()
    assert run_cli(args) == 0
    return json.loads(capsys.readouterr().out)


def test_a_generated_gb300_hall_answers_feed_a_and_a_cdu_pair_failing(tmp_path, capsys):
    path = tmp_path / "gb300.hall.json"
    assert (
        run_cli(["generate", "nvl72", "--racks", "2", "--platform", "gb300", "-o", str(path)]) == 0
    )
    report = _json(capsys, ["analyze", "--json", str(path)])
    assert {"power_feeds", "cooling", "floor_load"} <= set(report)
    assert report["floor_load"]["racks_over_rating"] == []
    assert all(f["utilisation_pct"] <= 100 for f in report["power_feeds"])
    # 2N: a side-A feed carries half its racks' draw normally and all of it with side B failed
    # (the facility table's columns).
    for f in report["power_feeds"]:
        assert f["one_side_failed_kw"] == pytest.approx(2 * f["max_draw_kw"], abs=0.002)
        assert f["max_draw_pct"] == pytest.approx(100 * f["max_draw_kw"] / f["rating_kw"], abs=0.06)
    assert all(u["one_failed_pct"] >= u["max_draw_pct"] for u in report["cooling"]["units"])
    feed_a = next(
        f["id"] for f in report["power_feeds"] if f["id"].endswith("-a") and f["kind"] == "feed"
    )
    one = _json(capsys, ["whatif", str(path), "--fail", feed_a, "--json"])
    assert one["unpowered_racks"] == [] and one["after"]["gpus"] == 144  # 2N: side B carries all
    cdus = [u["id"] for u in report["cooling"]["units"] if u["kind"].startswith("cdu")][:2]
    both = _json(capsys, ["whatif", str(path), "--fail", ",".join(cdus), "--json"])
    assert both["uncooled_gpus"] == 144 and both["after"]["gpus"] == 0
    assert both["before"]["bisection_gbps"] > 0 and both["after"]["bisection_gbps"] == 0


def test_generate_refuses_an_unknown_facility_choice(tmp_path, capsys):
    out = tmp_path / "x.hall.json"
    with pytest.raises(SystemExit) as exit_info:  # argparse's choice check: exit 2, a sentence
        run_cli(["generate", "nvl72", "--racks", "2", "--facility", "maybe", "-o", str(out)])
    assert exit_info.value.code == 2 and not out.exists()
    assert "--facility: invalid choice: 'maybe'" in capsys.readouterr().err
