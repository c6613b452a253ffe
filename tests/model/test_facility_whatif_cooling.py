"""What-if with the hall's cooling units and numbered rack PDUs: what each failure takes down."""

from __future__ import annotations

from cli import run_cli
from model.analysis.whatif import WhatIf, WhatIfError
from model.design.entities import Power, PowerFeed, PowerPanel
from model.files.design_file import save_design
from model.generators.generate import nvl72


def _gpu_racks(design) -> list[str]:
    types = design.catalog.device_types
    return sorted({d.rack for d in design.devices.values() if types[d.type].gpu_count})


def _row_cdus(design, rack_id) -> list[str]:
    cdus = {c.id for c in design.hall.cooling.cdus}
    return [u for u in design.racks[rack_id].cooling if u in cdus]


def test_one_cdu_of_an_n_plus_1_row_takes_nothing_down_both_take_the_row():
    design = nvl72(racks=4)  # generated: two CDUs per row, every liquid rack on both
    rack = _gpu_racks(design)[0]
    first, second = _row_cdus(design, rack)
    row = sorted(r for r in _gpu_racks(design) if first in design.racks[r].cooling)
    whatif = WhatIf(design)
    one = whatif.run([first])
    assert one["uncooled_racks"] == [] and one["after"]["gpus"] == 4 * 72
    both = whatif.run([first, second])
    assert both["uncooled_racks"] == row and both["uncooled_gpus"] == 72 * len(row)
    assert both["after"]["gpus"] == 4 * 72 - 72 * len(row)
    assert both["failed_cooling"] == [first, second]


def test_a_rack_that_loses_every_crah_goes_down_too():
    design = nvl72(racks=2)
    net = [r for r in design.racks if r not in _gpu_racks(design)][0]  # an air-cooled rack
    crahs = {c.id for c in design.hall.cooling.crahs}
    result = WhatIf(design).run([u for u in design.racks[net].cooling if u in crahs])
    assert net in result["uncooled_racks"] and result["failed_devices"]


def test_a_single_fed_rack_loses_its_gpus_with_its_only_pdu():
    design = nvl72(racks=2)
    feeds = (PowerFeed(id="FA", side="A"), PowerFeed(id="FB", side="B"))
    panels = (
        PowerPanel(id="PA", feed="FA", points=[(0.5, 0.5)]),
        PowerPanel(id="PB", feed="FB", points=[(0.5, 1.5)]),
    )
    design.set_power(Power(redundancy="2N", feeds=feeds, panels=panels))
    lone, other = _gpu_racks(design)
    design.set_rack_pdus({r: ("PA",) if r == lone else ("PA", "PB") for r in design.racks})
    whatif = WhatIf(design)
    result = whatif.run([f"{lone}:pdu-1"])
    assert result["unpowered_racks"] == [lone] and result["unpowered_gpus"] == 72
    assert result["after"]["gpus"] == 72
    assert whatif.run([f"{other}:pdu-1"])["unpowered_racks"] == []  # its PB PDU carries it
    assert whatif.run([f"{other}:pdu-1", f"{other}:pdu-2"])["unpowered_gpus"] == 72
    try:
        whatif.run([f"{lone}:pdu-2"])  # it has one PDU only
    except WhatIfError as exc:
        assert "RACK:pdu-N" in str(exc)
    else:
        raise AssertionError("a PDU the rack lacks was accepted")


def test_cli_whatif_names_the_uncooled_racks(tmp_path, capsys):
    design = nvl72(racks=2)
    path = tmp_path / "h.hall.json"
    save_design(design, path)
    rack = _gpu_racks(design)[0]
    capsys.readouterr()
    assert run_cli(["whatif", str(path), "--fail", ",".join(_row_cdus(design, rack))]) == 0
    out = capsys.readouterr().out
    assert "Without cooling:" in out and rack in out
