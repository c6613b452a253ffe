"""All-to-all across SUs at 1:1 / 2:1, with NCCL's PXN (the default) and without it.

Sources: NCCL env.rst, NCCL_P2P_PXN_LEVEL (since 2.12): 0 never uses PXN for send/receive, 2
(default) always does, "storing data from all GPUs within the node on an intermediate GPU";
NVIDIA, "Doubling all2all performance with NCCL 2.12": with PXN a GPU writes the bytes for a
remote GPU over NVLink to the local GPU on the destination's rail, whose NIC sends them, so a
rail-optimized fabric carries them on one rail. DGX H100 (domain-facts 6a-6c): 8 GPUs, 8 x 400G
NICs (one per GPU, NIC r on rail leaf r of its SU), 32 DGX per SU, so a rail leaf has 32 NICs
below it and 32 (1:1) or 16 (2:1) uplinks to the spines.

Each GPU sends S/n to every other GPU, n = 256 x SUs. Every NIC sends (n - 8)/n S either way
(the bytes for its own server's GPUs stay on NVLink). What climbs a leaf's uplinks differs:

* PXN: only the bytes bound for another SU: 32 NICs x (n - 256)/n S over the uplinks.
* no PXN: every byte leaving the NIC's leaf: all but the 31 other GPUs under the same rail leaf
  (same rail, same SU) and the server's own 8: 32 x (n - 39)/n S over the uplinks.
"""

from __future__ import annotations

import json

import pytest

from cli import run_cli
from model.analysis.collectives import PXN_NONE, PXN_OFF, PXN_ON, Collectives
from model.files.design_file import save_design
from model.generators.generate import fat_tree, rail_optimized

GIB = 2**30
NIC = 50e9  # bytes/s per 400G NIC per direction


def _hall(sus: int, ratio: int):
    return rail_optimized(
        nodes=32 * sus, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=ratio
    )


@pytest.fixture(scope="module")
def halls():
    return {(sus, r): _hall(sus, r) for sus in (2, 16) for r in (1, 2)}


def _a2a(design, pxn: bool):
    c = Collectives(design, pxn=pxn)
    return c.estimate(c.default_job, "all-to-all", GIB, "ring", "Simple")


def test_two_sus_with_pxn_barely_feel_2_to_1(halls):
    """n = 512. PXN: a leaf's uplinks carry 32 x 256/512 S = 16 S: 1:1, S/2 per uplink (the
    NICs' 504/512 S limit); 2:1, S per uplink, so the time is S / (504/512 S) = 1.016x."""
    one, two = _a2a(halls[2, 1], True), _a2a(halls[2, 2], True)
    assert one.bandwidth_s == pytest.approx(504 / 512 * GIB / NIC, rel=1e-9)
    assert one.limited_by == "server-leaf" and two.limited_by == "leaf-spine"
    assert two.bandwidth_s == pytest.approx(GIB / NIC, rel=1e-9)
    assert two.bandwidth_s / one.bandwidth_s == pytest.approx(512 / 504, rel=1e-9)
    assert one.pxn == two.pxn == PXN_ON


def test_two_sus_without_pxn_pay_nearly_the_full_ratio(halls):
    """n = 512, no PXN: a leaf's uplinks carry 32 x 473/512 S. 1:1: 473/512 S per uplink,
    below a NIC's 504/512 S, so the 1:1 time is PXN's; 2:1: 2 x 473/512 S per uplink, the
    time 946/504 = 1.877x the 1:1 one (the issue's "about 2x")."""
    one, two = _a2a(halls[2, 1], False), _a2a(halls[2, 2], False)
    assert one.bandwidth_s == pytest.approx(504 / 512 * GIB / NIC, rel=1e-9)
    assert two.limited_by == "leaf-spine" and two.pxn == PXN_OFF
    assert two.bandwidth_s == pytest.approx(2 * 473 / 512 * GIB / NIC, rel=1e-9)
    assert two.bandwidth_s / one.bandwidth_s == pytest.approx(946 / 504, rel=1e-9)


def test_sixteen_sus_pay_nearly_the_ratio_either_way(halls):
    """n = 4,096. PXN at 2:1: 32 x 3,840/4,096 S / 16 = 1.875 S per uplink against a NIC's
    4,088/4,096 S: 1.879x. No PXN: 2 x 4,057/4,096 S per uplink: 8,114/4,088 = 1.985x. At 1:1
    both are NIC-bound (15/16 S and 4,057/4,096 S per uplink, under 4,088/4,096 S)."""
    nic = 4088 / 4096 * GIB / NIC
    for pxn in (True, False):
        assert _a2a(halls[16, 1], pxn).bandwidth_s == pytest.approx(nic, rel=1e-9)
    with_pxn, without = _a2a(halls[16, 2], True), _a2a(halls[16, 2], False)
    assert with_pxn.bandwidth_s / nic == pytest.approx(1.875 * 4096 / 4088, rel=1e-9)
    assert without.bandwidth_s / nic == pytest.approx(8114 / 4088, rel=1e-9)


def test_pxn_changes_neither_the_rings_nor_hosts_without_nvlink(halls):
    """PXN is a send/receive path: the rings and trees of an all-reduce stay on their rails
    (NCCL_CROSS_NIC) either way. Hosts with one GPU have no NVLink to relay over: PXN is off
    whatever was asked, and the result says why."""
    design = halls[2, 2]
    on = Collectives(design, pxn=True)
    off = Collectives(design, pxn=False)
    a = on.estimate(on.default_job, "all-reduce", GIB)
    b = off.estimate(off.default_job, "all-reduce", GIB)
    assert a.time_s == b.time_s and a.bottleneck_links == b.bottleneck_links
    ft = Collectives(fat_tree(k=4), pxn=True)
    e = ft.estimate(ft.default_job, "all-to-all", GIB)
    assert not ft.pxn and e.pxn == PXN_NONE


def test_collective_cli_takes_pxn_and_the_json_names_it(tmp_path, capsys, halls):
    path = tmp_path / "two.hall.json"
    save_design(halls[2, 2], path)
    assert run_cli(["collective", str(path), "--collective", "all-to-all", "--json"]) == 0
    on = json.loads(capsys.readouterr().out)
    assert on["pxn"] == PXN_ON
    args = ["collective", str(path), "--collective", "all-to-all", "--pxn", "off"]
    assert run_cli([*args, "--json"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert off["pxn"] == PXN_OFF
    assert off["bandwidth_s"] / on["bandwidth_s"] == pytest.approx(946 / 512, rel=1e-6)
    assert run_cli(args) == 0
    assert "PXN off (NCCL_P2P_PXN_LEVEL=0)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:  # argparse's usage sentence, exit 2
        run_cli([*args[:-1], "maybe"])
    assert refused.value.code == 2


def test_pxn_is_a_design_setting_read_by_analyze_and_collective(tmp_path, capsys, halls):
    """Settings.pxn ("on" by default, NCCL_P2P_PXN_LEVEL=2; "off": level 0) chooses the
    all-to-all pattern of analyze (incrementally: a settings edit re-costs it) and of
    ``collective``, whose --pxn overrides it. A file without the field loads as "on" and a
    design at the default saves without it (the file format's optional field)."""
    import msgspec

    from model.analysis.analyzer import Analyzer
    from model.files.design_file import load_design

    design = _hall(2, 2)
    assert design.settings.pxn == "on"
    path = tmp_path / "two.hall.json"
    save_design(design, path)
    assert '"pxn"' not in path.read_text()
    analyzer = Analyzer(design, subscribe=True, refresh_plant=False)
    on = analyzer.report().collectives.default["all-to-all"]
    assert on.pxn == PXN_ON
    design.set_settings(msgspec.structs.replace(design.settings, pxn="off"))
    off = analyzer.report().collectives.default["all-to-all"]
    assert off.pxn == PXN_OFF
    c = Collectives(design, pxn=False)
    size = design.settings.allreduce_message_mb * 1e6
    assert off.time_s == c.estimate(c.default_job, "all-to-all", size).time_s
    assert off.bandwidth_s > 1.8 * on.bandwidth_s  # 946/504 at 1 GiB: see above
    save_design(design, path)
    assert load_design(path).settings.pxn == "off"
    base = ["collective", str(path), "--collective", "all-to-all", "--json"]
    assert run_cli(base) == 0
    assert json.loads(capsys.readouterr().out)["pxn"] == PXN_OFF
    assert run_cli([*base, "--pxn", "on"]) == 0
    assert json.loads(capsys.readouterr().out)["pxn"] == PXN_ON
