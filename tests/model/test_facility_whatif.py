"""What-if with the hall's power paths: feeds and panels fail and take their racks down."""

from __future__ import annotations

import json

import pytest

from cli import run_cli
from model.analysis.failure_elements import POWER_ASSUMPTION
from model.analysis.whatif import WhatIf
from model.design.entities import Power, PowerFeed, PowerPanel
from model.files.design_file import save_design
from model.generators.generate import nvl72


def _fed(single_corded: str | None = None):
    """Two NVL72 racks (144 GPUs) in a 2N hall: feed FA -> busway PA, FB -> PB; every rack has
    a PDU on each, except ``single_corded``, which has both on PA."""
    design = nvl72(racks=2)
    panels = tuple(
        PowerPanel(id=p, feed=f, points=[(0.5, 0.5)]) for p, f in [("PA", "FA"), ("PB", "FB")]
    )
    feeds = (PowerFeed(id="FA", side="A"), PowerFeed(id="FB", side="B"))
    design.set_power(Power(redundancy="2N", feeds=feeds, panels=panels))
    design.set_rack_pdus(
        {r: ("PA", "PA") if r == single_corded else ("PA", "PB") for r in design.racks}
    )
    return design


def test_failing_one_side_of_a_2n_hall_takes_nothing_down_and_both_take_all():
    design = _fed()
    whatif = WhatIf(design)
    one = whatif.run(["FA"])
    assert one["failed_devices"] == [] and one["unpowered_racks"] == []
    assert one["after"]["gpus"] == 144 and one["assumptions"] == []
    both = whatif.run(["FA", "FB"])
    assert both["unpowered_racks"] == sorted(design.racks) and both["unpowered_gpus"] == 144
    assert both["after"]["gpus"] == 0 and len(both["failed_devices"]) == len(design.devices)


def _gpu_racks(design) -> list[str]:
    types = design.catalog.device_types
    return sorted({d.rack for d in design.devices.values() if types[d.type].gpu_count})


def test_a_single_fed_rack_loses_its_gpus_with_its_panel():
    lone = _gpu_racks(nvl72(racks=2))[0]
    design = _fed(single_corded=lone)
    result = WhatIf(design).run(["PA"])
    assert result["unpowered_racks"] == [lone] and result["unpowered_gpus"] == 72
    assert result["after"]["gpus"] == 72
    # The rack's side A PDUs (both of them) fail: the rack goes down, the other one stays.
    side = WhatIf(design).run([f"{lone}:pdu-a"])
    assert side["unpowered_racks"] == [lone]
    other = _gpu_racks(design)[1]
    assert WhatIf(design).run([f"{other}:pdu-a"])["unpowered_racks"] == []


def test_racks_without_a_power_path_keep_the_stated_assumption():
    design = _fed()
    rest = _gpu_racks(design)[1]
    design.set_rack_pdus({rest: ()})
    result = WhatIf(design).run(["FA", "FB"])
    assert result["unpowered_racks"] == sorted(set(design.racks) - {rest})
    assert result["assumptions"] == [POWER_ASSUMPTION] and result["after"]["gpus"] == 72


def test_whatif_cli_fails_a_feed(tmp_path, capsys):
    path = tmp_path / "fed.hall.json"
    save_design(_fed(), path)
    assert run_cli(["whatif", str(path), "--fail", "FA,FB", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["failed_power"] == ["FA", "FB"] and data["unpowered_gpus"] == 144
    assert run_cli(["whatif", str(path), "--fail", "FA"]) == 0
    out = capsys.readouterr().out
    assert "Without power: 0 racks, 0 GPUs (none)" in out and "Assumption" not in out


def test_analyze_cli_shows_the_power_checks(tmp_path, capsys):
    design = _fed()
    # 3-phase 415 V x 100 A = 71.9 kW per feed, under two NVL72 racks at maximum draw.
    small = tuple(PowerFeed(id=f, side=s, current_a=100.0) for f, s in [("FA", "A"), ("FB", "B")])
    design.set_power(Power(feeds=small, panels=design.hall.power.panels))
    path = tmp_path / "fed.hall.json"
    save_design(design, path)
    run_cli(["analyze", str(path)])
    out = capsys.readouterr().out
    assert "Feed FA carries" in out and "71.9 kW rating" in out and "with side B failed" in out


def test_analyze_json_reports_the_feeds_use(tmp_path, capsys):
    path = tmp_path / "fed.hall.json"
    save_design(_fed(), path)
    run_cli(["analyze", str(path), "--json"])
    feeds = {f["id"]: f for f in json.loads(capsys.readouterr().out)["power_feeds"]}
    assert set(feeds) == {"FA", "FB", "PA", "PB"}
    fa = feeds["FA"]  # 3-phase 415 V x 400 A = 287.5 kW; side B failed: FA carries all
    assert fa["rating_kw"] == 287.52 and fa["worst_failure_kw"] == pytest.approx(
        2 * fa["max_draw_kw"], abs=0.002
    )
